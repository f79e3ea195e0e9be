//! The `finfet7` calibration: from the source's FO4-chain delays and 8T ON currents to the
//! fitted scalars recorded in `data/finfet7.toml`.
//!
//! Steps (each value is printed by the `fit_finfet7` example and checked by the tests):
//! 1. Drive law (Vth, α, m, η) and chain-delay scale `A`: [`crate::fit::fit_delay_and_drive`] on
//!    the 40 delay points and the ON-current ratio STV(BG = Vdd)/NTV of Table 6.2.
//! 2. Back-gate-off threshold shift: [`crate::fit::solve_back_gate_shift`] for the ratio
//!    STV(BG = Vdd)/STV(BG = 0) with the front channel only (half the drive).
//! 3. Parasitic gate capacitance per fin: the chain of 40 FO4 stages with a 1-fin NMOS and
//!    `n2p` PMOS fins has `T = 40·C_load·V/(2·I_eff)`, `C_load = (1 + n2p)(4·C_in + C_d)` per fin
//!    pair. With the parasitic delay of an inverter equal to its input capacitance
//!    (`C_d = C_in`, logical-effort p_inv = 1; the stored drain term excludes the overlap the
//!    device adds), `C_in = A·K / (100·(1 + n2p))` where K is the drive
//!    constant per fin; the fringe term is what `C_in` leaves over `1.2·C_g_ideal` (CACTI's
//!    `C_g_ideal + C_overlap + 3·C_fringe`).

use crate::fit::{fit_delay_and_drive, parse_delay_block, solve_back_gate_shift, DelayFit};
use crate::law::DriveLaw;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Table 6.2 (8T cells, FinFET 7 nm): ON current per µm at (NTV 0.30 V, tied),
/// (STV 0.45 V, BG = Vdd), (STV 0.45 V, BG = 0).
pub const TABLE_6_2_ION_A_PER_UM: [f64; 3] = [7.505e-4, 2.372e-3, 2.427e-4];
/// Supplies of Table 6.2, V.
pub const STV_V: f64 = 0.45;
/// Near-threshold (NTV) supply of Table 6.2, V.
pub const NTV_V: f64 = 0.30;
/// RVT threshold above LVT (an assumption: the source gives no RVT data), V.
pub const RVT_VTH_OFFSET_V: f64 = 0.05;
/// Stages in the measured inverter chain.
pub const CHAIN_STAGES: f64 = 40.0;

/// `../shared/reference/finfet7-and-sram-data.md` relative to the workspace.
pub fn default_reference_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/reference/finfet7-and-sram-data.md")
}

/// Inputs that are not fitted (from `data/finfet7.toml`).
#[derive(Debug, Clone)]
pub struct Assumptions {
    /// Effective (gated) width of one fin, m.
    pub effective_width_m: f64,
    /// Ideal (intrinsic) gate capacitance per fin, F.
    pub c_g_ideal_f_per_fin: f64,
    /// NMOS/PMOS drive ratio: PMOS fins per NMOS fin in the chain's inverters.
    pub n2p_drv_rt: f64,
    /// Fraction of the drive left with the back gate off (one of the two channels).
    pub bg_off_channel_fraction: f64,
}

impl Assumptions {
    /// Reads the assumptions from the built-in `finfet7` node.
    pub fn from_builtin() -> Result<Self, String> {
        let n = crate::node("finfet7").map_err(|e| e.to_string())?;
        let f = n.file();
        let fl = f
            .fin_flavours
            .get("lvt")
            .ok_or("finfet7 has no lvt flavour")?;
        Ok(Assumptions {
            effective_width_m: crate::finfet::fin_width_m(f),
            c_g_ideal_f_per_fin: fl.c_g_ideal_f_per_fin,
            n2p_drv_rt: fl.n2p_drv_rt,
            bg_off_channel_fraction: fl.bg_off_channel_fraction,
        })
    }
}

/// Everything the calibration produces.
#[derive(Debug, Clone)]
pub struct Finfet7Fit {
    /// The joint drive-law and chain-delay fit (step 1).
    pub delay: DelayFit,
    /// Back-gate-off threshold shift (step 2), V.
    pub bg_off_vth_shift_v: f64,
    /// LVT on-current per fin at STV with back gates tied (Table 6.2 × fin width), A.
    pub i_on_ref_a_per_fin: f64,
    /// Drive constant per fin at 300 K, `I = K · S(Vgs, Vds)`, A/V^α.
    pub k_a_per_fin: f64,
    /// Input capacitance per fin of a chain inverter (step 3), F.
    pub c_in_f_per_fin: f64,
    /// Fringe gate capacitance per fin: a third of what `C_in` leaves over `1.2·C_g_ideal`, F.
    pub c_fringe_f_per_fin: f64,
    /// Stored drain capacitance per fin: `C_in` less the overlap the device adds (`0.2·C_g_ideal`), F.
    pub c_drain_f_per_fin: f64,
    /// RVT: same drive constant, threshold + [`RVT_VTH_OFFSET_V`]; its on-current at STV.
    pub rvt_vth_v: f64,
    /// RVT on-current per fin at STV with back gates tied, A.
    pub rvt_i_on_ref_a_per_fin: f64,
    /// The fitted delay points, `(vdd_v, delay_s)`.
    pub points: Vec<(f64, f64)>,
    /// The inputs that were not fitted.
    pub assumptions: Assumptions,
}

/// Runs the calibration on the reference notes' text.
pub fn fit_from_reference(text: &str) -> Result<Finfet7Fit, String> {
    let pts = parse_delay_block(text)?;
    let a = Assumptions::from_builtin()?;
    let [ntv, stv_on, stv_off] = TABLE_6_2_ION_A_PER_UM;
    let delay = fit_delay_and_drive(&pts, (STV_V, NTV_V, stv_on / ntv));
    let law: DriveLaw = delay.law();
    let shift = solve_back_gate_shift(&law, STV_V, a.bg_off_channel_fraction, stv_on / stv_off);
    let i_on_ref = stv_on * 1e6 * a.effective_width_m;
    let k = i_on_ref / law.on_shape(STV_V);
    // T_chain = A·V/S_eff  and  T_chain = 40 · (1+n2p)·5·C_in·V/(2·K·S_eff)   (rise/fall averaged,
    // PMOS n2p fins with the same per-fin drive / n2p, so both edges equal)
    let c_in = delay.scale_s * k * 2.0 / (CHAIN_STAGES * 5.0 * (1.0 + a.n2p_drv_rt));
    let c_fringe = (c_in - 1.2 * a.c_g_ideal_f_per_fin) / 3.0;
    let mut rvt = law;
    rvt.vth_v += RVT_VTH_OFFSET_V;
    let rvt_i_on = k * rvt.on_shape(STV_V);
    Ok(Finfet7Fit {
        rvt_vth_v: rvt.vth_v,
        rvt_i_on_ref_a_per_fin: rvt_i_on,
        delay,
        bg_off_vth_shift_v: shift,
        i_on_ref_a_per_fin: i_on_ref,
        k_a_per_fin: k,
        c_in_f_per_fin: c_in,
        c_fringe_f_per_fin: c_fringe,
        // the device adds the gate–drain overlap (0.2·C_g_ideal) to the stored drain capacitance
        c_drain_f_per_fin: c_in - 0.2 * a.c_g_ideal_f_per_fin,
        points: pts,
        assumptions: a,
    })
}

impl Finfet7Fit {
    /// Human-readable report of every fitted scalar and its error.
    pub fn report(&self) -> String {
        let d = &self.delay;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "finfet7 LVT calibration ({} delay points)",
            self.points.len()
        );
        let _ = writeln!(s, "  vth_v                = {:.6}", d.vth_v);
        let _ = writeln!(s, "  alpha                = {:.6}", d.alpha);
        let _ = writeln!(
            s,
            "  ekv_m                = {:.6}  (subthreshold n = {:.3}, swing {:.1} mV/dec at 300 K)",
            d.ekv_m,
            d.ekv_m / d.alpha,
            d.law().subthreshold_swing_v_per_decade() * 1e3
        );
        let _ = writeln!(s, "  dibl_v_per_v         = {:.6}", d.dibl_v_per_v);
        let _ = writeln!(s, "  chain scale A        = {:.4e} s", d.scale_s);
        let _ = writeln!(s, "  bg_off_vth_shift_v   = {:.6}", self.bg_off_vth_shift_v);
        let _ = writeln!(
            s,
            "  i_on_ref_a_per_fin   = {:.6e}",
            self.i_on_ref_a_per_fin
        );
        let _ = writeln!(s, "  C_in per fin         = {:.4e} F", self.c_in_f_per_fin);
        let _ = writeln!(
            s,
            "  c_fringe_f_per_fin   = {:.6e}",
            self.c_fringe_f_per_fin
        );
        let _ = writeln!(s, "  c_drain_f_per_fin    = {:.6e}", self.c_drain_f_per_fin);
        let _ = writeln!(s, "  rvt vth_v            = {:.6}", self.rvt_vth_v);
        let _ = writeln!(
            s,
            "  rvt i_on_ref_a_per_fin = {:.6e}",
            self.rvt_i_on_ref_a_per_fin
        );
        let _ = writeln!(s, "fit errors:");
        let _ = writeln!(
            s,
            "  FO4 chain delay, max |rel err| 0.25-0.45 V: {:.2} %",
            d.max_err_operating * 100.0
        );
        let _ = writeln!(
            s,
            "  FO4 chain delay, max |rel err| 0.15-0.45 V: {:.2} %",
            d.max_err_to_015 * 100.0
        );
        let _ = writeln!(
            s,
            "  FO4 chain delay, max |rel err| all points : {:.2} %",
            d.max_err_all * 100.0
        );
        let [ntv, on, off] = TABLE_6_2_ION_A_PER_UM;
        let _ = writeln!(
            s,
            "  Ion STV/NTV  = {:.4} (data {:.4}, err {:+.2} %)",
            d.ion_ratio,
            on / ntv,
            (d.ion_ratio / (on / ntv) - 1.0) * 100.0
        );
        let mut l = d.law();
        let tied = l.on_shape(STV_V);
        l.vth_v += self.bg_off_vth_shift_v;
        let r = tied / (self.assumptions.bg_off_channel_fraction * l.on_shape(STV_V));
        let _ = writeln!(
            s,
            "  Ion STV tied/BG=0 = {:.4} (data {:.4}, err {:+.2} %)",
            r,
            on / off,
            (r / (on / off) - 1.0) * 100.0
        );
        s
    }
}
