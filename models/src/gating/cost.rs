//! Costing a run's power gating: the simulator's per-domain [`GatingStats`] mapped onto the
//! §1.6 accounting ([`super::accounting`]) at one technology point, summed per domain class
//! (INT, FP, SFU).
//!
//! Each domain's `P_leak`, its controller's energy and leakage and, under `pg.timing =
//! "Physical"`, its event energy and residual leakage come from [`super::breakeven`] for the
//! domain's granularity (`SpCluster` when the domain spans a whole SP cluster, else
//! `LaneGroup(lanes)`, or `Sfu`) and datapath. The baseline's run time `T_base` is the
//! baseline run's cycles when a comparison gives one, else the run's own (no slowdown charged).
//!
//! Controller toggles (cycles in which a counter or the state changes) are counted as the
//! cycles the domain spends idle or gated or waking, plus one idle-counter reset per idle run:
//! the idle counter counts in idle Idle_detect cycles, the gated-cycle and blackout counters in
//! gated cycles, the wakeup counter in wakeup cycles; busy cycles only hold the counter at 0.

use super::accounting::{account, GatingEnergy, GatingRun, Timing};
use super::breakeven::{breakeven, Breakeven, BreakevenQuery};
use super::domain::{DomainKind, LaneUnit};
use super::GatingError;
use crate::overlay::Overlay;
use serde::Serialize;
use sim::activity::{DomainStats, GatingStats};
use std::collections::BTreeMap;

/// The physics of one domain kind at the costing point.
fn figures(
    cache: &mut BTreeMap<(String, u32), Breakeven>,
    q: &BreakevenQuery,
    overlay: Option<&Overlay>,
    d: &DomainStats,
) -> Result<Breakeven, GatingError> {
    let key = (d.pipe.clone(), d.lanes);
    if let Some(b) = cache.get(&key) {
        return Ok(b.clone());
    }
    let mut q = q.clone();
    let (kind, unit) = domain_of(d, q.domain.sp_lanes);
    q.domain.kind = kind;
    q.domain.unit = unit;
    let b = breakeven(&q, overlay)?;
    cache.insert(key, b.clone());
    Ok(b)
}

/// The models-side domain of a simulator domain record.
pub fn domain_of(d: &DomainStats, sp_lanes: u32) -> (DomainKind, LaneUnit) {
    match d.pipe.as_str() {
        "sfu" => (DomainKind::Sfu, LaneUnit::Int),
        p => {
            let unit = if p == "fp" {
                LaneUnit::Fp
            } else {
                LaneUnit::Int
            };
            if d.lanes >= sp_lanes {
                (DomainKind::SpCluster, unit)
            } else {
                (DomainKind::LaneGroup(d.lanes.max(1)), unit)
            }
        }
    }
}

/// One domain class's energy over a run, summed over its domains on every SM.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClassCost {
    /// `int`, `fp` or `sfu`.
    pub class: String,
    /// Domains summed.
    pub domains: u32,
    /// Σ T over the domains, cycles.
    pub cycles: u64,
    /// Σ busy cycles.
    pub busy_cycles: u64,
    /// Leakage of the baseline run, `E_leak,base`, J.
    pub leakage_base_j: f64,
    /// Leakage of this run had nothing been gated (`P_leak·t_clk·T_PG`), J.
    pub leakage_ungated_j: f64,
    /// Leakage with gating, `E_leak,PG`, J.
    pub leakage_pg_j: f64,
    /// Event overhead `E_ovh`, J.
    pub overhead_j: f64,
    /// Control-logic energy (toggles and leakage), J.
    pub control_j: f64,
    /// Gating events charged.
    pub events: u64,
    /// Wakeups.
    pub wakeups: u64,
    /// Critical wakeups (blackout).
    pub critical_wakeups: u64,
    /// Σ gated cycles.
    pub gated_cycles: u64,
    /// Idle runs in regions A, B, C.
    pub region_count: [u64; 3],
    /// Cycles in the idle runs of regions A, B, C.
    pub region_cycles: [u64; 3],
    /// Events with `G ≤ BET` and with `G > BET`.
    pub events_by_outcome: [u64; 2],
}

impl ClassCost {
    /// `1 − (E_leak,PG + E_ovh)/E_leak,base` (power-gating §1.6); 0 without a baseline.
    pub fn static_savings(&self) -> f64 {
        if self.leakage_base_j > 0.0 {
            1.0 - (self.leakage_pg_j + self.overhead_j) / self.leakage_base_j
        } else {
            0.0
        }
    }

    /// The fraction of this run's leakage the gating leaves (`E_leak,PG / E_leak,ungated`).
    pub fn leakage_kept_frac(&self) -> f64 {
        if self.leakage_ungated_j > 0.0 {
            self.leakage_pg_j / self.leakage_ungated_j
        } else {
            1.0
        }
    }

    fn add(&mut self, d: &DomainStats, e: &GatingEnergy, ungated_j: f64) {
        self.domains += 1;
        self.cycles += d.cycles;
        self.busy_cycles += d.busy;
        self.leakage_base_j += e.leakage_base_j;
        self.leakage_ungated_j += ungated_j;
        self.leakage_pg_j += e.leakage_pg_j;
        self.overhead_j += e.overhead_j;
        self.control_j += e.control_j;
        self.events += d.events;
        self.wakeups += d.wakeups;
        self.critical_wakeups += d.critical_wakeups;
        self.gated_cycles += d.gated_cycles;
        for i in 0..3 {
            self.region_count[i] += d.region_count[i];
            self.region_cycles[i] += d.region_cycles[i];
        }
        self.events_by_outcome[0] += d.events_g_le_bet;
        self.events_by_outcome[1] += d.events_g_gt_bet;
    }
}

/// How a run is costed.
#[derive(Clone, Debug)]
pub struct CostPoint {
    /// The technology point, clock and `[physical]` knobs (its `domain` field is set per
    /// domain).
    pub query: BreakevenQuery,
    /// `pg.timing = "Physical"`: event energy and residual leakage from the sleep-transistor
    /// model; else `BET·P_leak·t_clk` per event and `pg.residual_leak_r`.
    pub physical: bool,
}

/// Costs every domain of `g` and sums per class (in the order int, fp, sfu; classes without
/// domains are left out). `t_base_cycles`: the baseline run's cycles, `None` for the run's own.
pub fn cost_run(
    g: &GatingStats,
    point: &CostPoint,
    overlay: Option<&Overlay>,
    t_base_cycles: Option<u64>,
) -> Result<Vec<ClassCost>, GatingError> {
    let mut cache = BTreeMap::new();
    let mut classes: BTreeMap<u8, ClassCost> = BTreeMap::new();
    for d in &g.domains {
        if d.cycles == 0 {
            continue;
        }
        let b = figures(&mut cache, &point.query, overlay, d)?;
        let hist_sum: u64 = d.g_hist.iter().map(|(g, n)| g * n).sum();
        let open = d.gated_cycles.saturating_sub(hist_sum);
        let idle_runs: u64 = d.idle_run_count.iter().sum();
        let toggles = d.idle_detect_idle + d.uncompensated + d.compensated + d.wakeup + idle_runs;
        let run = GatingRun {
            t_pg_cycles: d.cycles,
            t_base_cycles: t_base_cycles.unwrap_or(d.cycles).max(1),
            gated_lengths: d.g_hist.iter().map(|(&g, &n)| (g, n)).collect(),
            open_event_gated_cycles: (open > 0).then_some(open),
            charge_open_event: false,
            wakeup_cycles_total: d.wakeup,
            wakeup_cycles_leak: g.wakeup_cycles_leak,
            p_leak_w: b.domain.p_leak_w,
            t_clk_s: b.inputs.t_clk_s,
            residual_leak_frac: if point.physical {
                b.sleep.residual_leak_frac
            } else {
                g.residual_leak_r
            },
            bet_cycles: g.bet as u64,
            timing: if point.physical {
                Timing::Physical(b.sleep.event)
            } else {
                Timing::Fixed
            },
            controller_toggles: toggles,
            controller_energy_per_toggle_j: b.controller.energy_per_toggle_j,
            controller_leakage_w: b.controller.leakage_w,
        };
        let e = account(&run)?;
        let ungated_j = b.domain.p_leak_w * b.inputs.t_clk_s * d.cycles as f64;
        let (order, name) = match d.pipe.as_str() {
            "int" => (0, "int"),
            "fp" => (1, "fp"),
            _ => (2, "sfu"),
        };
        classes
            .entry(order)
            .or_insert_with(|| ClassCost {
                class: name.to_string(),
                ..Default::default()
            })
            .add(d, &e, ungated_j);
    }
    Ok(classes.into_values().collect())
}

/// The `[physical]` knobs of a configuration as the sleep-transistor model takes them.
pub fn physical_knobs(p: &sim::config::physical::PhysicalSection) -> super::sleep::PhysicalKnobs {
    use super::sleep::{BetRounding, PhysicalKnobs, RailModel, SwitchKind};
    use sim::config::physical::{BetRoundingKnob, RailCollapse, SwitchPlacement};
    PhysicalKnobs {
        switch: match p.switch {
            SwitchPlacement::Header => SwitchKind::Header,
            SwitchPlacement::Footer => SwitchKind::Footer,
        },
        alpha: p.alpha,
        p_max_frac: p.p_max,
        size_multiplier: p.size_multiplier,
        kappa: p.kappa,
        beta_buf: p.beta_buf,
        w_sync_cycles: p.w_sync,
        rail: match p.rail_model {
            RailCollapse::FullCollapse => RailModel::FullCollapse,
            RailCollapse::Decay => RailModel::Decay,
        },
        v_floor_frac: p.v_floor,
        bet_rounding: match p.bet_rounding {
            BetRoundingKnob::Ceil => BetRounding::Ceil,
            BetRoundingKnob::Round => BetRounding::Round,
        },
        i_rush_max_a: p.i_rush_max.amperes(),
    }
}

impl CostPoint {
    /// The costing point of `cfg` at the technology choice `tech` with the chip's core clock
    /// `clock_hz` (as the chip model derived it for this supply).
    pub fn new(tech: &techlib::ResolvedPoint, clock_hz: f64, cfg: &sim::config::GpuConfig) -> Self {
        use super::breakeven::ClockChoice;
        let mut query = BreakevenQuery::new(tech.clone());
        query.clock = ClockChoice::Fixed { clock_hz };
        query.domain.sp_lanes = cfg.units.sp_lanes;
        query.domain.sfu_lanes = cfg.units.sfu_lanes;
        query.knobs = physical_knobs(&cfg.physical);
        CostPoint {
            query,
            physical: cfg.pg.timing == sim::config::pg::PgTiming::Physical,
        }
    }

    /// `(BET, W)` in cycles for the gated domains of `cfg` at this point (power-gating §1.7):
    /// the larger of the INT and FP domains' values (one `pg.bet`/`pg.wakeup` serves every
    /// domain of a run), and of the SFU's when `pg.gate_sfu`.
    pub fn physical_timing(
        &self,
        cfg: &sim::config::GpuConfig,
        overlay: Option<&Overlay>,
    ) -> Result<(u32, u32), GatingError> {
        use sim::config::pg::Granularity;
        let kind = match cfg.pg.granularity {
            Granularity::SpCluster => DomainKind::SpCluster,
            Granularity::LaneGroup => DomainKind::LaneGroup(cfg.pg.lane_group_size),
        };
        let mut kinds = vec![(kind, LaneUnit::Int), (kind, LaneUnit::Fp)];
        if cfg.pg.gate_sfu {
            kinds.push((DomainKind::Sfu, LaneUnit::Int));
        }
        let (mut bet, mut w) = (1u64, 1u64);
        for (k, u) in kinds {
            let mut q = self.query.clone();
            q.domain.kind = k;
            q.domain.unit = u;
            let b = breakeven(&q, overlay)?;
            bet = bet.max(b.sleep.bet_cycles);
            w = w.max(b.sleep.wakeup_cycles);
        }
        let cap = |v: u64, knob: &str| {
            u32::try_from(v)
                .ok()
                .filter(|&c| c <= 1000)
                .ok_or_else(|| GatingError::input(knob, v as f64, "at most 1000 cycles"))
        };
        Ok((cap(bet, "derived pg.bet")?, cap(w, "derived pg.wakeup")?))
    }
}

/// The gating hardware of one domain class on the whole chip (power-gating §1.7): the sleep
/// switches sized by the sleep-transistor model and the per-domain controllers, as
/// [`super::breakeven::breakeven`] derives them at the costing point. It exists whether or not
/// a run gates anything, so it is counted from the configuration, not from a run's record.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClassHardware {
    /// `int`, `fp` or `sfu`.
    pub class: String,
    /// Gating domains of the class on the chip (per SM × SMs).
    pub domains: u32,
    /// Sleep-switch area of all of them, m².
    pub switch_area_m2: f64,
    /// Controller (idle-detect, blackout and wakeup counters, state) area of all of them, m².
    pub controller_area_m2: f64,
    /// Leakage of all the controllers (they stay powered), W.
    pub controller_leakage_w: f64,
    /// Whether the controller's figures come from a calibration overlay.
    pub calibrated: bool,
}

impl ClassHardware {
    /// Switches and controllers together, m².
    pub fn area_m2(&self) -> f64 {
        self.switch_area_m2 + self.controller_area_m2
    }

    /// The estimate leaf of this hardware (appended to every SM's execution group): its area
    /// and controller leakage power; the controllers' energy over a run (`control_j`, toggles
    /// and leakage, power-gating §1.6) as its gating overhead.
    pub fn leaf(&self, n_sm: u32, control_j: f64) -> crate::gpu::Node {
        crate::gpu::Node {
            name: format!("sleep switches + PG control ({})", self.class),
            source: crate::gpu::Source::Analytical,
            instances: n_sm,
            area_m2: self.area_m2(),
            gating_overhead_j: control_j,
            leakage_w: self.controller_leakage_w,
            ..crate::gpu::Node::default()
        }
    }
}

/// The gating hardware of `cfg` at `point` (calibrated by `overlay`), per class in the order
/// int, fp, sfu; empty without gating (`pg.policy = "None"`). Domains per SM: `n_sp` SP
/// clusters per datapath (INT and FP), or `n_sp·sp_lanes/g` lane groups of `g` lanes with
/// `pg.granularity = "LaneGroup"`, and `n_sfu` SFU domains with `pg.gate_sfu`.
pub fn hardware(
    cfg: &sim::config::GpuConfig,
    point: &CostPoint,
    overlay: Option<&Overlay>,
) -> Result<Vec<ClassHardware>, GatingError> {
    use sim::config::pg::{Granularity, PgPolicy};
    if cfg.pg.policy == PgPolicy::None {
        return Ok(Vec::new());
    }
    let u = &cfg.units;
    let (kind, per_type) = match cfg.pg.granularity {
        Granularity::SpCluster => (DomainKind::SpCluster, u.n_sp),
        Granularity::LaneGroup => {
            let g = cfg.pg.lane_group_size.max(1);
            (DomainKind::LaneGroup(g), u.n_sp * (u.sp_lanes / g).max(1))
        }
    };
    let mut kinds = vec![
        ("int", kind, LaneUnit::Int, per_type),
        ("fp", kind, LaneUnit::Fp, per_type),
    ];
    if cfg.pg.gate_sfu {
        kinds.push(("sfu", DomainKind::Sfu, LaneUnit::Int, u.n_sfu));
    }
    let n_sm = cfg.gpu.n_sm;
    kinds
        .into_iter()
        .map(|(class, k, unit, per_sm)| {
            let mut q = point.query.clone();
            q.domain.kind = k;
            q.domain.unit = unit;
            let b = breakeven(&q, overlay)?;
            let n = per_sm.saturating_mul(n_sm);
            Ok(ClassHardware {
                class: class.to_string(),
                domains: n,
                switch_area_m2: b.sleep.switch_area_m2 * n as f64,
                controller_area_m2: (b.sleep.area_m2 - b.sleep.switch_area_m2) * n as f64,
                controller_leakage_w: b.controller.leakage_w * n as f64,
                calibrated: b.controller.calibrated,
            })
        })
        .collect()
}

/// The estimate-tree components of a gated domain class.
fn class_part(class: &str) -> crate::gpu::Part {
    use crate::gpu::Part;
    match class {
        "int" => Part::IntUnits,
        "fp" => Part::FpUnits,
        _ => Part::SfuUnits,
    }
}

/// The edits that apply a run's gating to its estimate: each class's execution-unit leaves keep
/// the fraction of their leakage energy the controllers left (`E_leak,PG / E_leak,ungated`, so
/// the chip model's own idle-SM accounting is kept and scaled alike) and carry the class's
/// event energy as `gating_overhead_j`, split by leakage share (equally when they have none).
/// Dynamic energy is unchanged (power-gating §1.1). The gating hardware `hw` of every class is
/// appended to every SM's execution group ([`ClassHardware::leaf`]: area, controller leakage
/// power, and the class's control-logic energy as its gating overhead).
pub fn estimate_edits(
    classes: &[ClassCost],
    hw: &[ClassHardware],
    n_sm: u32,
) -> Vec<crate::technique::Edit> {
    let mut edits: Vec<crate::technique::Edit> = classes
        .iter()
        .map(|c| {
            let keep = c.leakage_kept_frac();
            let ovh = c.overhead_j;
            crate::technique::Edit::Adjust {
                parts: vec![class_part(&c.class)],
                f: Box::new(move |ns: &mut [&mut crate::gpu::Node]| {
                    let total_leak: f64 = ns.iter().map(|n| n.leakage_j).sum();
                    let count = ns.len().max(1) as f64;
                    for n in ns.iter_mut() {
                        let share = if total_leak > 0.0 {
                            n.leakage_j / total_leak
                        } else {
                            1.0 / count
                        };
                        n.leakage_j *= keep;
                        n.gating_overhead_j += ovh * share;
                    }
                }),
            }
        })
        .collect();
    // a class without a costed domain (no cycles) still has its hardware; a costed class
    // without hardware (none configured) keeps its control energy on its units
    let mut nodes = Vec::new();
    for h in hw {
        let control_j: f64 = classes
            .iter()
            .filter(|c| c.class == h.class)
            .map(|c| c.control_j)
            .sum();
        nodes.push(h.leaf(n_sm, control_j));
    }
    for c in classes
        .iter()
        .filter(|c| !hw.iter().any(|h| h.class == c.class))
    {
        let ctl = c.control_j;
        edits.push(crate::technique::Edit::Adjust {
            parts: vec![class_part(&c.class)],
            f: Box::new(move |ns: &mut [&mut crate::gpu::Node]| {
                let count = ns.len().max(1) as f64;
                for n in ns.iter_mut() {
                    n.gating_overhead_j += ctl / count;
                }
            }),
        });
    }
    if !nodes.is_empty() {
        edits.push(crate::technique::Edit::Append {
            parent: crate::gpu::Part::Execution,
            nodes,
        });
    }
    edits
}
