//! The technology numbers the SRAM model consumes, flattened into one plain struct (SI units) so
//! that the organisation search never goes back to the technology library in its inner loop.
//!
//! Device quantities follow the ITRS/CACTI conventions: capacitances and currents per metre of
//! transistor width, on-resistance as ohm·metre (`R = r_on_ohm_m / width_m`), the effective
//! resistance being `k_eff · Vdd / I_on` with `k_eff` the ITRS "nmos effective resistance
//! multiplier". Gate capacitance of a device is `(C_g_ideal + C_overlap + 3·C_fringe)·W`
//! (C_overlap = 0.2·C_g_ideal); drain capacitance is area junction over a 3F long diffusion,
//! sidewall junction around it and fringe towards the gate.

/// One device flavour at its operating point (Vdd, temperature already applied).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeviceParams {
    /// Supply voltage at the operating point (V).
    pub vdd_v: f64,
    /// Threshold voltage at the operating temperature (V).
    pub vth_v: f64,
    /// Ideal gate capacitance per width (F/m).
    pub c_g_ideal_f_per_m: f64,
    /// Fringe capacitance per width (F/m).
    pub c_fringe_f_per_m: f64,
    /// Bottom junction capacitance per area (F/m²).
    pub c_junc_f_per_m2: f64,
    /// Sidewall junction capacitance per perimeter length (F/m).
    pub c_junc_sw_f_per_m: f64,
    /// NMOS effective on-resistance times width (Ω·m).
    pub r_nch_on_ohm_m: f64,
    /// PMOS effective on-resistance times width (Ω·m).
    pub r_pch_on_ohm_m: f64,
    /// NMOS saturation current per width (A/m).
    pub i_on_n_a_per_m: f64,
    /// Subthreshold off current per width (A/m), NMOS; PMOS taken equal (as CACTI does).
    pub i_off_n_a_per_m: f64,
    /// Subthreshold off current per width, PMOS (A/m).
    pub i_off_p_a_per_m: f64,
    /// Gate-tunnelling current per width of an on device (A/m).
    pub i_gate_a_per_m: f64,
    /// PMOS/NMOS width ratio for equal drive.
    pub n_to_p_ratio: f64,
    /// Drain capacitance per width for nodes that tabulate it directly (FinFET: per-fin drain
    /// capacitance over the fin width); 0 selects the planar junction-area form.
    pub c_drain_f_per_m: f64,
}

impl DeviceParams {
    /// Input capacitance per width of a gate terminal (F/m).
    #[inline]
    pub fn c_gate_per_m(&self) -> f64 {
        1.2 * self.c_g_ideal_f_per_m + 3.0 * self.c_fringe_f_per_m
    }
}

/// A wire layer: resistance and capacitance per metre and routing pitch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WireParams {
    /// Resistance per length (Ω/m).
    pub r_ohm_per_m: f64,
    /// Capacitance per length, to ground and neighbours (F/m).
    pub c_f_per_m: f64,
    /// Routing pitch, wire plus spacing (m).
    pub pitch_m: f64,
}

/// The SRAM bit cell (one-port geometry before port growth).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellParams {
    /// Cell width along the wordline (m).
    pub width_m: f64,
    /// Cell height along the bitline (m).
    pub height_m: f64,
    /// Access (pass-gate) transistor width (m).
    pub w_access_m: f64,
    /// Pull-up PMOS width (m).
    pub w_pmos_m: f64,
    /// Pull-down NMOS width (m).
    pub w_nmos_m: f64,
    /// 8T read stack: read access and read driver widths (m); zero for 6T-only nodes.
    pub w_read_access_m: f64,
    /// 8T read driver (the stack transistor gated by the stored bit) width (m).
    pub w_read_driver_m: f64,
    /// Extra area of an 8T cell over the 6T cell, as a width factor (8T width = factor·6T width).
    pub eight_t_width_factor: f64,
}

/// Everything the SRAM model needs about one technology at one operating point.
#[derive(Debug, Clone, PartialEq)]
pub struct SramTech {
    /// Human-readable node label (for reports).
    pub node: String,
    /// Feature size (m).
    pub feature_m: f64,
    /// Nominal supply of the flavour at this node (V); arrays run below it need level shifters.
    pub nominal_vdd_v: f64,
    /// Minimum transistor width (m): 1.5 F planar, one fin at FinFET nodes.
    pub w_min_m: f64,
    /// Peripheral (decoder, driver, sense) devices.
    pub periph: DeviceParams,
    /// Cell devices.
    pub cell_dev: DeviceParams,
    /// Bit-cell geometry and device widths.
    pub cell: CellParams,
    /// Wires inside subarrays (wordlines, bitlines).
    pub wire_local: WireParams,
    /// Wires between subarrays (predecode, bank H-tree).
    pub wire_semi: WireParams,
    /// Wires between banks.
    pub wire_global: WireParams,
    /// Sense-amplifier resolution delay (s) and energy per activation (J) quoted by the
    /// technology tables (reported for reference; the model computes both from the latch).
    pub sense_delay_s: f64,
    /// Sense-amplifier energy per activation quoted by the technology tables (J).
    pub sense_energy_j: f64,
    /// Transconductance of the sense-amplifier latch per metre of its NMOS width (S/m):
    /// `(μ/2)·C_ox·V_dsat/L_elec · (1 + g_mp/g_mn)` (long-channel gm at velocity saturation).
    pub sense_gm_s_per_m: f64,
    /// Delay of a fan-out-of-4 inverter (s), for reports and sanity checks.
    pub fo4_s: f64,
    /// True for double-gate FinFET nodes (8T default cell).
    pub finfet: bool,
    /// Device flavour the node was built for (selects flavour-specific calibration factors).
    pub flavour: super::Flavour,
    /// The design point the organisation is chosen at, when it differs from this operating
    /// point (the same node and flavour at the design supply, back gates tied); `None` when this
    /// technology is its own design point.
    pub design: Option<Box<SramTech>>,
}

impl SramTech {
    /// The technology the organisation search runs on: the design point, or `self`.
    #[inline]
    pub fn design_tech(&self) -> &SramTech {
        self.design.as_deref().unwrap_or(self)
    }

    /// Supply of the design point (V).
    pub fn design_vdd_v(&self) -> f64 {
        self.design_tech().periph.vdd_v
    }
    /// Minimum NMOS width (m): 1.5 F planar, one fin at FinFET nodes.
    #[inline]
    pub fn w_min_m(&self) -> f64 {
        self.w_min_m
    }

    /// Drain capacitance (F) of a device of width `w_m` with `stack` series devices sharing the
    /// diffusion (CACTI-style layout: 3F long contacted diffusion plus 1.5F per stacked gate).
    #[inline]
    pub fn drain_c(&self, dev: &DeviceParams, w_m: f64, stack: f64) -> f64 {
        if dev.c_drain_f_per_m > 0.0 {
            return dev.c_drain_f_per_m * w_m * (1.0 + 0.5 * (stack - 1.0));
        }
        let f = self.feature_m;
        let l_diff = 3.0 * f + (stack - 1.0) * 1.5 * f;
        dev.c_junc_f_per_m2 * l_diff * w_m
            + dev.c_junc_sw_f_per_m * (w_m + 2.0 * l_diff)
            + dev.c_fringe_f_per_m * w_m * (1.0 + 2.0 * (stack - 1.0))
    }

    /// Gate capacitance (F) of a device of width `w_m`.
    #[inline]
    pub fn gate_c(&self, dev: &DeviceParams, w_m: f64) -> f64 {
        dev.c_gate_per_m() * w_m
    }
}
