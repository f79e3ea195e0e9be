//! The two 7 nm FinFET nodes side by side: why `finfet7` leaks two to three orders of magnitude
//! more than `asap7`, and where each number comes from.
//!
//! # Where the off-currents come from
//!
//! * **`finfet7`** (`data/finfet7.toml`): one drive law per fin, fitted to the source's 40-point
//!   FO4-chain delay curve (0.06–0.45 V) and the 8T cells' ON-current ratios (Table 6.2), with
//!   the absolute current set by the cell ON current 2.372 mA/µm at 0.45 V. The off-current is
//!   that same law at `Vgs = 0, Vds = Vdd` — it is **not** fitted to the register-file (MRF)
//!   leakage row, and the SRAM model does not feed back into it. The fit gives, for the "STD
//!   (LVT)" device of the source (physical gate 7 nm, effective channel 10 nm): Vth 0.250 V,
//!   subthreshold swing 83.9 mV/dec (n = 1.41), DIBL 0.120 V/V. The delay curve reaches down to
//!   0.06 V, so the subthreshold exponent is measured, not assumed; from Vgs = Vds = 0.06 V to the
//!   off state (Vgs = 0, Vds = 0.45 V) is a 0.06 V gate step and a 0.39 V DIBL step, under one
//!   decade. Result at 0.45 V, 300 K: **Ioff 1406 nA/µm** of effective width (2·H_fin = 28 nm per
//!   fin, so 39.4 nA per fin), Ion/Ioff ≈ 1.7·10³. RVT is the same law 50 mV higher (an
//!   assumption, no source data): 357 nA/µm.
//! * **`asap7`** (`data/asap7.toml`): thresholds fitted so that the off-current per fin equals the
//!   liberty leakage of the 1-fin inverter `INVxp33` divided by Vdd at TT (0.70 V, 25 °C):
//!   LVT 239.6 pA per fin = 3.40 nA/µm of effective width (70.5 nm per fin), RVT 24.4 pA =
//!   0.346 nA/µm. Its gate is 21 nm long; the PDK's Ion/Ioff at 0.70 V is about 1.7·10⁵ (LVT).
//!
//! # Units
//!
//! Both nodes store currents per metre of *effective (gated) width*: the fin perimeter (two
//! sidewalls of 14 nm for the double-gate `finfet7` fin, 2·32 + 6.5 nm for the tri-gate ASAP7
//! fin). Per µm of footprint (fin pitch 27 nm at both nodes) the numbers are ×1.04 (`finfet7`)
//! and ×2.6 (`asap7`). The per-µm comparison therefore *understates* the per-fin ratio for equal
//! current per µm; at equal flavour and temperature the per-fin ratio is what a gate sees.
//!
//! # Why they legitimately differ
//!
//! Same label "7 nm", different devices and design points:
//!
//! | | `finfet7` LVT | `asap7` LVT |
//! |---|---|---|
//! | gate length | 7 nm (Leff 10 nm), TCAD | 21 nm, PDK |
//! | supply | 0.45 V (STV) | 0.70 V |
//! | Vth (model, 300 K) | 0.250 V | 0.249 V |
//! | swing (300 K) | 83.9 mV/dec | 59.5 mV/dec |
//! | DIBL | 120 mV/V | 80 mV/V (assumed) |
//! | Ion (298 K) | 2384 µA/µm | 643 µA/µm |
//! | Ioff (298 K) | 1329 nA/µm, 37.2 nA/fin | 3.40 nA/µm, 0.240 nA/fin |
//! | Ion/Ioff (298 K) | 1.8·10³ | 1.9·10⁵ |
//! | inverter leakage (1+1 fin, 298 K) | 16.7 nW | 0.168 nW (liberty `INVxp33`) |
//!
//! Ratios finfet7/asap7 at equal flavour and temperature (298 K): LVT 390× per µm, 155× per
//! fin, 100× per inverter (the supplies differ, 0.45 V against 0.70 V); RVT 967×, 384×, 247×
//! (finfet7's RVT is an assumption); LVT at 350 K 198×, 79×, 51× (finfet7's larger swing makes
//! its leakage grow more slowly with temperature in relative terms).
//!
//! In the subthreshold limit of the drive law the off-current is `I_0·10^(−Vth_eff/S)`, with
//! `Vth_eff = Vth − η·Vdd` and `I_0 = K·(m·v_T)^α` the law's current at threshold, so the ratio
//! of two nodes' gate leakage factors exactly into a swing term (decades below threshold), a
//! threshold-current term and a width × supply term. With similar thresholds the `finfet7` off
//! state lies about one decade less below threshold (its weaker swing and larger DIBL), but the
//! larger factor is its current at threshold: the source's ON current at 0.45 V is reached with
//! only about 0.2 V of overdrive, which makes `K`, and with it `I_0`, tens of times ASAP7's per
//! µm; the narrower fin and the lower supply take a factor of about four back.
//! `models/tests/logic_leakage_7nm.rs` checks the model's logic leakage ratio against that
//! decomposition and prints each factor, and `gpuenergy component --kind crossbar --tech
//! finfet7 --explain` prints each step at any point. A 7 nm gate with 10 nm effective channel
//! is a far shorter device than any production "7 nm" node's (whose gates are about 20 nm),
//! and its short-channel swing and DIBL are what the source's own
//! delay curve measures. The test `tests/devices_7nm.rs` prints the comparison.
//!
//! Against the ITRS high-performance devices of this crate's planar tables (`data/planar22.toml`:
//! 121.6 nA/µm at 0.8 V and 300 K for a 9 nm physical gate; `planar16`, extrapolated: 106 nA/µm),
//! `finfet7` LVT leaks 12× more per µm and `asap7` LVT 36× less: the two 7 nm nodes bracket the
//! roadmap's HP leakage target from both sides. (A published Ioff of a production 7 nm process
//! could not be retrieved for this comparison.)
//!
//! # Cross-checks against the source's leakage rows (Table 6.4)
//!
//! The MRF (256 KB, 0.45 V) leaks 33.8 mW = 35.8 nA per bit, the SRF (224 KB, 0.30 V) 13.4 mW =
//! 24.3 nA per bit, both including periphery:
//!
//! * **DIBL**: the leakage current per bit falls by 0.68 from 0.45 to 0.30 V; the device law
//!   predicts [`dibl_ratio`] (≈ 0.61 at 300 K): the fitted DIBL agrees with the source's own
//!   array leakage to ≈ 10 %.
//! * **Magnitude**: an 8T cell in hold has about 2.6 fins' worth of off-current (latch pull-down,
//!   one write access with the full bitline across it, the read stack half on and half stacked;
//!   the pull-up's back gate is tied to Vdd, which all but switches it off), i.e. 102 nA per
//!   bit with LVT fins at 300 K — 2.9× the whole MRF row. The source's cells therefore leak like
//!   a higher-threshold device (with RVT fins the cell is 26.0 nA per bit, leaving ≈ 10 nA for
//!   periphery). The SRAM model absorbs this with its fitted leakage factor; logic built of LVT
//!   devices carries the full LVT leakage, and logic built of RVT devices a quarter of it.

use crate::{node, BackGate, Conditions, Flavour, TechError, TechPoint};

/// Leakage current per bit of the MRF row of Table 6.4 (33.8 mW over 256 KB at 0.45 V), A.
pub const MRF_LEAK_A_PER_BIT: f64 = 33.8e-3 / (256.0 * 1024.0 * 8.0) / 0.45;
/// Leakage current per bit of the SRF row (13.4 mW over 224 KB at 0.30 V), A.
pub const SRF_LEAK_A_PER_BIT: f64 = 13.4e-3 / (224.0 * 1024.0 * 8.0) / 0.30;

/// Off-state fins of an 8T cell in hold: the latch pull-down (1), the write access that has the
/// full precharged bitline across it (1), the read stack (½ with its driver on, ½ × 0.2 stacked
/// with it off); the pull-up's back gate is tied to Vdd and is left out.
pub const CELL8T_OFF_FINS: f64 = 1.0 + 1.0 + 0.5 * (1.0 + 0.2);

/// Device figures of one flavour at one point, in the units of the comparison table.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceFigures {
    /// Node name.
    pub node: String,
    /// Flavour key (`lvt`, `rvt`, ...).
    pub flavour: String,
    /// Supply, V.
    pub vdd_v: f64,
    /// Temperature, K.
    pub temperature_k: f64,
    /// Threshold at this temperature, V.
    pub vth_v: f64,
    /// Subthreshold swing at this temperature, V/decade.
    pub swing_v_per_decade: f64,
    /// Drain-induced barrier lowering, V of Vth per V of Vds.
    pub dibl_v_per_v: f64,
    /// Effective (gated) width of one fin, m (0 at planar nodes).
    pub fin_width_m: f64,
    /// NMOS on-current per metre of effective width, A/m.
    pub i_on_a_per_m: f64,
    /// NMOS off-current per metre of effective width, A/m.
    pub i_off_a_per_m: f64,
}

impl DeviceFigures {
    /// Figures of `t`.
    pub fn of(t: &TechPoint) -> DeviceFigures {
        let d = t.device();
        DeviceFigures {
            node: t.node_name.clone(),
            flavour: t.conditions.flavour.key().to_string(),
            vdd_v: t.vdd_v(),
            temperature_k: t.temperature_k(),
            vth_v: d.vth_v,
            swing_v_per_decade: d.law.subthreshold_swing_v_per_decade(),
            dibl_v_per_v: d.law.dibl_v_per_v,
            fin_width_m: d.fin_width_m.unwrap_or(0.0),
            i_on_a_per_m: t.i_on_a_per_m(),
            i_off_a_per_m: t.i_off_a_per_m(),
        }
    }

    /// Off-current of one fin, A.
    pub fn i_off_a_per_fin(&self) -> f64 {
        self.i_off_a_per_m * self.fin_width_m
    }

    /// State-averaged leakage of a 1-fin inverter (one of its two devices off), W — the
    /// quantity the `asap7` fit matches to the liberty `INVxp33` leakage.
    pub fn inverter_leakage_w(&self) -> f64 {
        self.i_off_a_per_fin() * self.vdd_v
    }

    /// On/off current ratio.
    pub fn on_off_ratio(&self) -> f64 {
        self.i_on_a_per_m / self.i_off_a_per_m
    }
}

/// Figures of `node`'s `flavour` at its nominal supply and `t_k`.
pub fn figures(node_name: &str, flavour: Flavour, t_k: f64) -> Result<DeviceFigures, TechError> {
    let n = node(node_name)?;
    let p = n.at(&Conditions::new(flavour).with_temperature(t_k))?;
    Ok(DeviceFigures::of(&p))
}

/// `finfet7` leakage current of one device at 0.30 V over that at 0.45 V (back gates tied), the
/// DIBL and drain-factor dependence the SRF/MRF rows measure.
pub fn dibl_ratio(flavour: Flavour, t_k: f64) -> Result<f64, TechError> {
    let n = node("finfet7")?;
    let at = |v: f64| {
        n.at(&Conditions::new(flavour)
            .with_vdd(v)
            .with_temperature(t_k)
            .with_back_gate(BackGate::Tied))
            .map(|p| p.i_off_a_per_m())
    };
    Ok(at(0.30)? / at(0.45)?)
}

/// Hold leakage current of a `finfet7` 8T cell built of `flavour` fins at 0.45 V, A
/// ([`CELL8T_OFF_FINS`] off fins).
pub fn cell8t_hold_current_a(flavour: Flavour, t_k: f64) -> Result<f64, TechError> {
    Ok(CELL8T_OFF_FINS * figures("finfet7", flavour, t_k)?.i_off_a_per_fin())
}
