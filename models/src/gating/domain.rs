//! Gating domains (power-gating §1.1) and the block figures the sleep-transistor model needs
//! for each: leakage `P_leak`, peak active current `I_act` and virtual-rail capacitance `C_blk`,
//! computed from the engine's own lane models at a technology point.
//!
//! A domain's hardware is the datapath the chip model (`gpu/chip.rs`) gives each lane of the
//! unit: an integer lane is one [`LogicKind::Alu32`] and one [`LogicKind::Imul32`]
//! ("SP integer ALUs", "SP integer multipliers"), a floating-point lane one
//! [`LogicKind::Ffma32`] ("SP FP units"), an SFU lane one [`LogicKind::SfuLane`]. Each lane is
//! costed by [`crate::logic::model`] — analytical, or the fitted forms of a calibration overlay
//! carried to the point — exactly as the chip model costs it.
//!
//! - `P_leak` = Σ lanes × component leakage.
//! - `I_act` = peak power ÷ Vdd (power-gating §1.7), with peak power = every lane's datapaths
//!   each completing one operation per cycle (`Σ E_op / t_clk`) plus leakage. An integer lane
//!   counts its ALU and its multiplier together: with pipelined units and II = 1 an add may
//!   issue while a multiply is in flight, so both can switch in one cycle (upper bound).
//! - `C_blk`: when the rail collapses every internal node of the block discharges; waking
//!   recharges all of them. The capacitance one operation switches is `E_op/Vdd²`; the model's
//!   own ratio of total node capacitance to switched capacitance
//!   ([`crate::logic::total_to_switched_capacitance`]: all gate nodes and clocked state bits
//!   against the `α` fraction an operation toggles) turns it into the block's total node
//!   capacitance. The calibrated energy per operation is used where an overlay gives one, so a
//!   synthesised block's capacitance follows its synthesis. The engine models no decoupling
//!   capacitance or rail wiring inside a lane, so none is added: `C_blk` is the block's device
//!   and pin capacitance, a lower bound of the real rail's.

use super::GatingError;
use crate::logic::{model, params, total_to_switched_capacitance, LogicKind};
use crate::overlay::Overlay;
use serde::Serialize;
use techlib::TechPoint;

/// Which datapath of an SP a lane domain gates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LaneUnit {
    /// Integer lanes (ALU + multiplier).
    Int,
    /// Floating-point lanes (FMA).
    Fp,
}

impl LaneUnit {
    /// Parses `int` or `fp`.
    pub fn parse(s: &str) -> Option<LaneUnit> {
        match s.trim().to_ascii_lowercase().as_str() {
            "int" => Some(LaneUnit::Int),
            "fp" => Some(LaneUnit::Fp),
            _ => None,
        }
    }
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            LaneUnit::Int => "int",
            LaneUnit::Fp => "fp",
        }
    }
}

/// The granularity of a gating domain (power-gating §1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DomainKind {
    /// All lanes of one type of one SP (Warped-Gates).
    SpCluster,
    /// `N` lanes of one type (Origami; N = 1, 2 or 4).
    LaneGroup(u32),
    /// One SFU (Conventional gating only).
    Sfu,
}

/// Lane-group sizes power-gating §1.1 and §10 allow.
pub const LANE_GROUP_SIZES: [u32; 3] = [1, 2, 4];

impl DomainKind {
    /// Parses `sp-cluster`, `lane-group:N` (N = 1, 2, 4) or `sfu`; the error names the allowed
    /// values.
    pub fn parse(s: &str) -> Result<DomainKind, GatingError> {
        let t = s.trim().to_ascii_lowercase().replace('_', "-");
        let allowed = "sp-cluster, lane-group:N (N = 1, 2, 4), sfu";
        match t.as_str() {
            "sp-cluster" => return Ok(DomainKind::SpCluster),
            "sfu" => return Ok(DomainKind::Sfu),
            _ => {}
        }
        if let Some(n) = t.strip_prefix("lane-group:") {
            return match n.parse::<u32>() {
                Ok(n) if LANE_GROUP_SIZES.contains(&n) => Ok(DomainKind::LaneGroup(n)),
                _ => Err(GatingError::Domain {
                    asked: s.to_string(),
                    allowed: format!("lane-group size 1, 2 or 4 ({allowed})"),
                }),
            };
        }
        Err(GatingError::Domain {
            asked: s.to_string(),
            allowed: allowed.into(),
        })
    }

    /// Name as the command line writes it.
    pub fn name(self) -> String {
        match self {
            DomainKind::SpCluster => "sp-cluster".into(),
            DomainKind::LaneGroup(n) => format!("lane-group:{n}"),
            DomainKind::Sfu => "sfu".into(),
        }
    }
}

/// A gating domain: granularity, datapath and the machine's lane counts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DomainSpec {
    /// Granularity.
    pub kind: DomainKind,
    /// Datapath of SP domains (ignored for `Sfu`).
    pub unit: LaneUnit,
    /// Lanes of one SP cluster (`units.sp_lanes`; GTX480: 16).
    pub sp_lanes: u32,
    /// Lanes of one SFU (`units.sfu_lanes`; GTX480: 4).
    pub sfu_lanes: u32,
}

impl DomainSpec {
    /// Lanes behind the domain's switch.
    pub fn lanes(&self) -> u32 {
        match self.kind {
            DomainKind::SpCluster => self.sp_lanes,
            DomainKind::LaneGroup(n) => n,
            DomainKind::Sfu => self.sfu_lanes,
        }
    }

    /// The logic components of one lane.
    pub fn lane_components(&self) -> &'static [LogicKind] {
        match (self.kind, self.unit) {
            (DomainKind::Sfu, _) => &[LogicKind::SfuLane],
            (_, LaneUnit::Int) => &[LogicKind::Alu32, LogicKind::Imul32],
            (_, LaneUnit::Fp) => &[LogicKind::Ffma32],
        }
    }

    /// Human-readable label, e.g. `sp-cluster (16 int lanes)`.
    pub fn label(&self) -> String {
        let what = match self.kind {
            DomainKind::Sfu => "sfu".to_string(),
            _ => self.unit.name().to_string(),
        };
        format!("{} ({} {} lanes)", self.kind.name(), self.lanes(), what)
    }
}

/// A domain's block figures at one point (SI units).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DomainFigures {
    /// The domain.
    pub spec: DomainSpec,
    /// Leakage of the powered block, W.
    pub p_leak_w: f64,
    /// Peak power (every datapath one operation per cycle, plus leakage), W.
    pub peak_power_w: f64,
    /// Peak active current `I_act` = peak power ÷ Vdd, A.
    pub i_act_a: f64,
    /// Total node capacitance on the virtual rail `C_blk`, F.
    pub c_blk_f: f64,
    /// Dynamic energy of all lanes completing one operation each, J.
    pub energy_per_cycle_j: f64,
    /// Cell area of the block, m².
    pub area_m2: f64,
    /// Whether any quantity came from a calibration overlay.
    pub calibrated: bool,
}

/// The block figures of `spec` at `point` with clock period `t_clk_s`, from the logic models
/// (calibrated by `overlay` where it fits a component).
pub fn domain_figures(
    spec: &DomainSpec,
    point: &TechPoint,
    overlay: Option<&Overlay>,
    t_clk_s: f64,
) -> Result<DomainFigures, GatingError> {
    if !(t_clk_s.is_finite() && t_clk_s > 0.0) {
        return Err(GatingError::input(
            "t_clk_s",
            t_clk_s,
            "a finite number > 0",
        ));
    }
    let lanes = spec.lanes();
    if lanes == 0 {
        return Err(GatingError::input(
            "units.sp_lanes / units.sfu_lanes",
            0.0,
            "at least 1 lane",
        ));
    }
    let vdd = point.vdd_v();
    let n = lanes as f64;
    let (mut leak, mut e_op, mut c_blk, mut area) = (0.0, 0.0, 0.0, 0.0);
    let mut calibrated = false;
    for &kind in spec.lane_components() {
        let p = params(&[]);
        let c = model(kind, &p, point, overlay)?;
        calibrated |= c.calibrated.iter().any(|&b| b);
        leak += n * c.leakage_w;
        e_op += n * c.energy_per_op_j;
        area += n * c.area_m2;
        let p_full = crate::logic::resolve_params(kind, &p)?;
        c_blk += n * c.energy_per_op_j / (vdd * vdd)
            * total_to_switched_capacitance(kind, &p_full, point);
    }
    let peak = e_op / t_clk_s + leak;
    Ok(DomainFigures {
        spec: *spec,
        p_leak_w: leak,
        peak_power_w: peak,
        i_act_a: peak / vdd,
        c_blk_f: c_blk,
        energy_per_cycle_j: e_op,
        area_m2: area,
        calibrated,
    })
}

/// Energy per active cycle and leakage of a domain's gating controller (power-gating §1.3
/// counters: `IDLE_W`-bit idle counter, `BET_W`-bit blackout counter, `WK_W`-bit wakeup
/// counter, compare and state machine), from the [`LogicKind::PgController`] model — the
/// synthesised `pg_controller` RTL's fitted forms when `overlay` has them, else the analytical
/// gate-equivalent count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ControllerCost {
    /// Energy of one cycle in which the controller's counters or state change, J.
    pub energy_per_toggle_j: f64,
    /// Leakage (the controller stays powered), W.
    pub leakage_w: f64,
    /// Area, m².
    pub area_m2: f64,
    /// Whether the numbers come from a calibration overlay.
    pub calibrated: bool,
}

/// Bits to count up to `v`.
fn bits_for(v: u64) -> u32 {
    (64 - v.max(1).leading_zeros()).max(1)
}

/// The controller of a domain with break-even `bet_cycles`, wakeup `wakeup_cycles` and largest
/// idle-detect threshold `d_max_cycles`: counter widths as power-gating §1.3 gives them
/// (blackout counter 5 bits, wider if BET needs it; idle counter 3 bits per lane, enough for
/// `d_max` per cluster; wakeup counter enough for W).
pub fn controller_cost(
    point: &TechPoint,
    overlay: Option<&Overlay>,
    kind: DomainKind,
    bet_cycles: u64,
    wakeup_cycles: u64,
    d_max_cycles: u64,
) -> Result<ControllerCost, GatingError> {
    let bet_w = bits_for(bet_cycles).max(5);
    let idle_w = match kind {
        DomainKind::LaneGroup(_) => bits_for(d_max_cycles).max(3),
        _ => bits_for(d_max_cycles),
    };
    let wk_w = bits_for(wakeup_cycles);
    let bet = bet_cycles.clamp(1, u32::MAX as u64) as u32;
    let wake = wakeup_cycles.clamp(1, u32::MAX as u64) as u32;
    let c = model(
        LogicKind::PgController,
        &params(&[
            ("BET", bet),
            ("BET_W", bet_w),
            ("IDLE_W", idle_w),
            ("WAKE", wake),
            ("WK_W", wk_w),
        ]),
        point,
        overlay,
    )?;
    Ok(ControllerCost {
        energy_per_toggle_j: c.energy_per_op_j,
        leakage_w: c.leakage_w,
        area_m2: c.area_m2,
        calibrated: c.calibrated.iter().any(|&b| b),
    })
}
