//! The bit cell: geometry with port growth, per-cell wordline/bitline loading, read current and
//! leakage.
//!
//! Port growth (after CACTI): every port beyond the first adds a wordline, i.e. two local-wire
//! pitches of cell height (wire plus spacing/shielding), and every differential port adds a
//! bitline pair (two pitches of width) while a single-ended read port adds one pitch. The 8T
//! cell's base layout already holds one write pair and one single-ended read bitline.
//!
//! Leakage of a 6T cell holding a bit: in each cross-coupled inverter one device is off with
//! Vdd across it (one NMOS, one PMOS), and on each bitline pair of a port one access device
//! sees the precharged bitline against the '0' node. An 8T read stack adds one off device (the
//! read access transistor, stacked with the read driver half the time).

use super::circuit::STACK2_LEAK_FACTOR;
use super::tech::SramTech;
use super::CellKind;

/// Ports of the array as the cell sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ports {
    /// Read-write ports.
    pub rw: u32,
    /// Read-only ports.
    pub rd: u32,
    /// Write-only ports.
    pub wr: u32,
}

impl Ports {
    /// All ports.
    pub fn total(&self) -> u32 {
        self.rw + self.rd + self.wr
    }
    /// Ports that can read.
    pub fn readers(&self) -> u32 {
        self.rw + self.rd
    }
    /// Ports that can write.
    pub fn writers(&self) -> u32 {
        self.rw + self.wr
    }
}

/// Per-cell figures derived once per configuration.
#[derive(Debug, Clone, Copy)]
pub struct CellFigures {
    /// Cell width along the wordline, grown by one bitline pair (or read line) per extra port (m).
    pub width_m: f64,
    /// Cell height along the bitline, grown by one wordline per extra port (m).
    pub height_m: f64,
    /// Wordline load per cell of one read wordline (F) and wire resistance per cell (Ω).
    pub c_wl_per_cell_f: f64,
    /// Wordline wire resistance per cell (Ω).
    pub r_wl_per_cell_ohm: f64,
    /// Bitline load per cell of one read bitline (F) and resistance per cell (Ω).
    pub c_bl_per_cell_f: f64,
    /// Bitline wire resistance per cell (Ω).
    pub r_bl_per_cell_ohm: f64,
    /// Write bitline load per cell (F) (differential pair line).
    pub c_wbl_per_cell_f: f64,
    /// Resistance of the cell's read path (Ω).
    pub r_read_ohm: f64,
    /// True when reads are single-ended (8T read port).
    pub single_ended: bool,
    /// Leakage per cell (W): subthreshold and gate.
    pub leak_w: f64,
    /// Gate-tunnelling leakage per cell (W).
    pub gate_leak_w: f64,
}

/// Figures of one `kind` cell grown for `ports`, on the cell devices and local wires of `tech`.
pub fn cell_figures(tech: &SramTech, kind: CellKind, ports: Ports) -> CellFigures {
    let c = &tech.cell;
    let d = &tech.cell_dev;
    let p = tech.wire_local.pitch_m;
    let (width, height, single_ended) = match kind {
        CellKind::SixT => {
            let extra = ports.total().saturating_sub(1) as f64;
            (
                c.width_m + 2.0 * p * extra,
                c.height_m + 2.0 * p * extra,
                false,
            )
        }
        CellKind::EightT => {
            let w8 = c.width_m * c.eight_t_width_factor;
            let extra_w = ports.writers().saturating_sub(1) as f64;
            let extra_r = ports.readers().saturating_sub(1) as f64;
            (
                w8 + 2.0 * p * extra_w + p * extra_r,
                c.height_m + 2.0 * p * (extra_w + extra_r),
                true,
            )
        }
    };
    let vdd = d.vdd_v;
    let (c_wl, c_bl, r_read, read_leak_w) = if single_ended {
        let wra = c.w_read_access_m;
        let wrd = c.w_read_driver_m;
        (
            tech.gate_c(d, wra),
            tech.drain_c(d, wra, 1.0),
            d.r_nch_on_ohm_m / wra + d.r_nch_on_ohm_m / wrd,
            // read bitline precharged high: the read stack leaks when its driver is on (half
            // the time), stacked when it is off.
            0.5 * (1.0 + STACK2_LEAK_FACTOR) * wra * d.i_off_n_a_per_m * vdd,
        )
    } else {
        (
            2.0 * tech.gate_c(d, c.w_access_m),
            tech.drain_c(d, c.w_access_m, 1.0) / 2.0,
            d.r_nch_on_ohm_m / c.w_access_m + d.r_nch_on_ohm_m / c.w_nmos_m,
            c.w_access_m * d.i_off_n_a_per_m * vdd,
        )
    };
    let c_wbl = tech.drain_c(d, c.w_access_m, 1.0) / 2.0 + height * tech.wire_local.c_f_per_m;
    let core_leak = (c.w_nmos_m * d.i_off_n_a_per_m + c.w_pmos_m * d.i_off_p_a_per_m) * vdd;
    let access_leak = match kind {
        CellKind::SixT => ports.total() as f64 * c.w_access_m * d.i_off_n_a_per_m * vdd,
        CellKind::EightT => {
            ports.writers() as f64 * c.w_access_m * d.i_off_n_a_per_m * vdd
                + ports.readers() as f64 * read_leak_w
        }
    };
    // Gate tunnelling: the two on devices of the latch plus, per read stack, the read driver
    // half of the time.
    let mut gate_w = c.w_nmos_m + c.w_pmos_m;
    if single_ended {
        gate_w += 0.5 * ports.readers() as f64 * c.w_read_driver_m;
    }
    CellFigures {
        width_m: width,
        height_m: height,
        c_wl_per_cell_f: c_wl + width * tech.wire_local.c_f_per_m,
        r_wl_per_cell_ohm: width * tech.wire_local.r_ohm_per_m,
        c_bl_per_cell_f: c_bl + height * tech.wire_local.c_f_per_m,
        r_bl_per_cell_ohm: height * tech.wire_local.r_ohm_per_m,
        c_wbl_per_cell_f: c_wbl,
        r_read_ohm: r_read,
        single_ended,
        leak_w: core_leak + access_leak,
        gate_leak_w: gate_w * d.i_gate_a_per_m * vdd,
    }
}
