//! Builds the SRAM model's [`SramTech`] from the technology library.
//!
//! Device flavour: the same flavour serves the cells and the periphery (as in CACTI runs with
//! equal data-array cell and peripheral types). Wires: local wires inside subarrays,
//! semi-global wires for predecode and the bank H-tree, global wires between banks, all under
//! the conservative projection (CACTI's default).

use super::tech::{CellParams, DeviceParams, SramTech, WireParams};
use super::SramError;

/// Device flavour requested for an array.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Flavour {
    /// ITRS high-performance planar devices (`hp`).
    Hp,
    /// ITRS low-standby-power planar devices (`lstp`).
    Lstp,
    /// ITRS low-operating-power planar devices (`lop`).
    Lop,
    /// FinFET low-threshold devices (`lvt`).
    Lvt,
    /// FinFET regular-threshold devices (`rvt`).
    Rvt,
    /// FinFET super-low-threshold devices (`slvt`).
    Slvt,
}

impl Flavour {
    /// Parses `hp`, `lstp`, `lop`, `lvt`, `rvt`, `slvt` (also CACTI's `itrs-hp` spellings).
    pub fn parse(s: &str) -> Option<Flavour> {
        let n = s.trim().to_ascii_lowercase();
        let n = n.strip_prefix("itrs-").unwrap_or(&n);
        Some(match n {
            "hp" => Flavour::Hp,
            "lstp" => Flavour::Lstp,
            "lop" => Flavour::Lop,
            "lvt" => Flavour::Lvt,
            "rvt" => Flavour::Rvt,
            "slvt" => Flavour::Slvt,
            _ => return None,
        })
    }
}

/// FinFET back-gate mode of the array's devices.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub enum BackGate {
    /// Back gates tied to the front gates (Vdd when on): full drive.
    #[default]
    Vdd,
    /// Back gates at ground: front channel only, about half the gate capacitance, much lower
    /// drive and leakage.
    Gnd,
}

/// Which technology point to build the SRAM model's view at, and the back-gate mode of its
/// devices.
#[derive(Debug, Clone, PartialEq)]
pub struct TechRequest {
    /// The resolved point: node, device flavour of cells and periphery (one of the SRAM
    /// model's flavours), supply (explicit, a named operating point's, else the flavour's
    /// nominal one) and temperature.
    pub point: techlib::ResolvedPoint,
    /// FinFET back-gate mode (`Gnd` is an error at planar nodes).
    pub back_gate: BackGate,
}

impl TechRequest {
    /// `point` with back gates tied.
    pub fn new(point: techlib::ResolvedPoint) -> TechRequest {
        TechRequest {
            point,
            back_gate: BackGate::Vdd,
        }
    }

    /// The SRAM model's flavour of the point (an error for a flavour it has none of).
    pub fn flavour(&self) -> Result<Flavour, SramError> {
        Flavour::parse(self.point.flavour().key()).ok_or_else(|| {
            SramError::Tech(format!(
                "the SRAM model has no device flavour '{}' (it has: hp, lstp, lop, lvt, rvt, slvt)",
                self.point.flavour_name()
            ))
        })
    }
}

/// Whether a node is FinFET.
pub fn is_finfet_node(node: &techlib::Node) -> bool {
    node.kind() == techlib::NodeKind::Finfet
}

fn device(d: &techlib::Device, diff_len_m: f64, finfet: bool) -> DeviceParams {
    DeviceParams {
        vdd_v: d.vdd_v,
        vth_v: d.vth_v,
        c_g_ideal_f_per_m: d.c_g_ideal_f_per_m,
        c_fringe_f_per_m: d.c_fringe_f_per_m,
        c_junc_f_per_m2: d.c_junc_f_per_m2,
        c_junc_sw_f_per_m: d.c_junc_sw_f_per_m,
        r_nch_on_ohm_m: d.r_nch_on_ohm_m(),
        r_pch_on_ohm_m: d.r_pch_on_ohm_m(),
        i_on_n_a_per_m: d.i_on_n_a_per_m,
        i_off_n_a_per_m: d.i_off_n_a_per_m,
        i_off_p_a_per_m: d.i_off_p_a_per_m,
        i_gate_a_per_m: d.i_g_on_n_a_per_m,
        n_to_p_ratio: d.n2p_drv_rt,
        c_drain_f_per_m: if finfet {
            d.c_drain_f_per_m(diff_len_m)
        } else {
            0.0
        },
    }
}

fn wire(w: &techlib::Wire) -> WireParams {
    WireParams {
        r_ohm_per_m: w.r_ohm_per_m(),
        c_f_per_m: w.c_f_per_m(),
        pitch_m: w.pitch_m,
    }
}

fn flavour_of(f: Flavour) -> techlib::Flavour {
    match f {
        Flavour::Hp => techlib::Flavour::Hp,
        Flavour::Lstp => techlib::Flavour::Lstp,
        Flavour::Lop => techlib::Flavour::Lop,
        Flavour::Lvt => techlib::Flavour::Lvt,
        Flavour::Rvt => techlib::Flavour::Rvt,
        Flavour::Slvt => techlib::Flavour::Slvt,
    }
}

/// Build the SRAM model's technology view at the operating point of `req`, designed at the
/// node's nominal supply with back gates tied (see [`sram_tech_designed_at`]).
pub fn sram_tech(req: &TechRequest) -> Result<SramTech, SramError> {
    sram_tech_designed_at(req, None)
}

/// Build the SRAM model's technology view at the operating point of `req`, with the array's
/// organisation chosen at the design supply `design_vdd_v` (default: the flavour's nominal
/// supply) with back gates tied: one physical design, evaluated at whatever supply and
/// back-gate mode it runs at.
pub fn sram_tech_designed_at(
    req: &TechRequest,
    design_vdd_v: Option<f64>,
) -> Result<SramTech, SramError> {
    if let Some(v) = design_vdd_v {
        if !(v.is_finite() && v > 0.0 && v <= 5.0) {
            return Err(SramError::OutOfRange {
                what: "design_vdd_v",
                value: v,
                range: "0 < Vdd <= 5 V",
            });
        }
    }
    let mut op = operating_tech(req)?;
    let design_v = design_vdd_v.unwrap_or(op.nominal_vdd_v);
    let same_supply = (design_v - op.periph.vdd_v).abs() <= 1e-12 * design_v;
    if !(same_supply && req.back_gate == BackGate::Vdd) {
        let dreq = TechRequest {
            point: req
                .point
                .clone()
                .with_vdd_v(design_v)
                .map_err(|e| SramError::Tech(e.to_string()))?,
            back_gate: BackGate::Vdd,
        };
        op.design = Some(Box::new(operating_tech(&dreq)?));
    }
    Ok(op)
}

fn operating_tech(req: &TechRequest) -> Result<SramTech, SramError> {
    let terr = |e: techlib::TechError| SramError::Tech(e.to_string());
    let node = req.point.node();
    let name = node.name().to_string();
    let flavour = req.flavour()?;
    if let Some(v) = req.point.vdd_v() {
        if !(v.is_finite() && v > 0.0 && v <= 5.0) {
            return Err(SramError::OutOfRange {
                what: "vdd_v",
                value: v,
                range: "0 < Vdd <= 5 V",
            });
        }
    }
    let t = req.point.temperature_k();
    if !(t.is_finite() && (200.0..=500.0).contains(&t)) {
        return Err(SramError::OutOfRange {
            what: "temperature_k",
            value: t,
            range: "200..=500",
        });
    }
    let finfet = node.kind() == techlib::NodeKind::Finfet;
    if !finfet && req.back_gate == BackGate::Gnd {
        return Err(SramError::Tech(format!(
            "{name} is planar: it has no back gate"
        )));
    }
    let cond = req
        .point
        .conditions_of(flavour_of(flavour))
        .with_back_gate(match req.back_gate {
            BackGate::Vdd => techlib::BackGate::Tied,
            BackGate::Gnd => techlib::BackGate::Grounded,
        });
    let p = node.at(&cond).map_err(terr)?;
    let dev = p.device();
    let f = p.feature_size_m;
    let diff = p.drain_diffusion_m();
    let d = device(dev, diff, finfet);
    let cell6 = p.sram_cell(techlib::CellKind::Six).ok();
    let cell8 = p.sram_cell(techlib::CellKind::Eight).ok();
    let base = cell6
        .or(cell8)
        .ok_or_else(|| SramError::Tech(format!("{name} has no SRAM cell")))?;
    let (w8_factor, w_ra, w_rd) = match (cell6, cell8) {
        (Some(c6), Some(c8)) => (
            c8.width_m() / c6.width_m(),
            c8.w_read_access_m,
            c8.w_read_driver_m,
        ),
        (None, Some(c8)) => (1.0, c8.w_read_access_m, c8.w_read_driver_m),
        // 8T at a node without a tabulated 8T cell: a read stack of an access-sized and a
        // pull-down-sized device, two extra gate pitches (≈ 30 %) of cell width.
        (Some(c6), None) => (1.3, c6.w_access_m, c6.w_nmos_m),
        (None, None) => (1.0, 0.0, 0.0),
    };
    // At FinFET nodes the 8T cell is the native one: take its geometry as the base.
    let base = if finfet { cell8.unwrap_or(base) } else { base };
    let cell = CellParams {
        width_m: base.width_m(),
        height_m: base.height_m(),
        w_access_m: base.w_access_m,
        w_pmos_m: base.w_pmos_m,
        w_nmos_m: base.w_nmos_m,
        w_read_access_m: w_ra,
        w_read_driver_m: w_rd,
        eight_t_width_factor: if finfet { 1.0 } else { w8_factor },
    };
    let proj = techlib::Projection::Conservative;
    let wl = p.wire(techlib::WireType::Local, proj).map_err(terr)?;
    let ws = p.wire(techlib::WireType::SemiGlobal, proj).map_err(terr)?;
    let wg = p.wire(techlib::WireType::Global, proj).map_err(terr)?;
    let (sense_delay_s, sense_energy_j) = p
        .scalars()
        .map(|s| (s.sense_delay_s, s.sense_dy_energy_j))
        .unwrap_or((0.0, 0.0));
    // latch transconductance: long-channel gm at velocity saturation, CACTI's form
    let gm = 0.5 * dev.mobility_n_m2_per_vs * dev.c_ox_f_per_m2 * dev.vdsat_v
        / dev.l_elec_m.max(1e-12)
        * (1.0 + dev.gmp_to_gmn_multiplier);
    let mut d_cell = d;
    // the cell pull-ups of FinFET 8T cells keep their back gates tied (fixed by the cell design)
    let pu = p.cell_pullup_device(techlib::CellKind::Eight);
    if finfet {
        d_cell.i_off_p_a_per_m = pu.i_off_p_a_per_m;
    }
    Ok(SramTech {
        node: format!(
            "{} {} {:.3} V {:.0} K",
            p.node_name,
            flavour.key(),
            d.vdd_v,
            t
        ),
        feature_m: f,
        nominal_vdd_v: node.nominal_vdd_v(flavour_of(flavour)).map_err(terr)?,
        w_min_m: dev.fin_width_m.unwrap_or(1.5 * f),
        periph: d,
        cell_dev: d_cell,
        cell,
        wire_local: wire(&wl),
        wire_semi: wire(&ws),
        wire_global: wire(&wg),
        sense_delay_s,
        sense_energy_j,
        sense_gm_s_per_m: if gm.is_finite() && gm > 0.0 { gm } else { 1e3 },
        fo4_s: p.fo4_delay_s(),
        finfet,
        flavour,
        design: None,
    })
}

impl Flavour {
    fn key(self) -> &'static str {
        match self {
            Flavour::Hp => "hp",
            Flavour::Lstp => "lstp",
            Flavour::Lop => "lop",
            Flavour::Lvt => "lvt",
            Flavour::Rvt => "rvt",
            Flavour::Slvt => "slvt",
        }
    }
}
