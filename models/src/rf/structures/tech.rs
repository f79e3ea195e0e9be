//! The technology a design is costed at: its node and supplies, the SRAM technology of an array
//! at a supply and back-gate mode, the logic technology point, and the array, bus, logic,
//! counter-sort and back-gate models evaluated on them.

use super::cost::{ArrayCost, BackGateCost, LogicStructure};
use super::design::{check, RfDesign};
use crate::gpu::chip::rf_bus_transfer_j;
use crate::gpu::source::{sram_spec, storage_cell};
use crate::gpu::storage::{rf_bank_slices, StorageSpec};
use crate::logic::{self, LogicKind};
use crate::overlay::Overlay;
use crate::rf::{default_flavour, sram_flavour, RfError};
use crate::sram::{self, sram_tech, BackGate, SramTech, TechRequest};
use techlib::{Conditions, Flavour, NodeKind};

pub(super) fn op_vdd(node: &techlib::Node, op: &str) -> Option<f64> {
    node.operating_points()
        .into_iter()
        .find(|o| o.name == op)
        .map(|o| o.vdd_v)
}

/// `⌈t/t_clk⌉`, at least 1 (a tolerance of 1e-9 cycle keeps exact multiples exact).
pub fn cycles_of(t_s: f64, clock_hz: f64) -> u32 {
    ((t_s * clock_hz - 1e-9).ceil().max(1.0)) as u32
}

/// Context of one design: node, flavours, cell, technology builder.
/// A design's technology context: its node and flavour.
pub(super) struct Ctx<'a> {
    pub(super) d: &'a RfDesign,
    pub(super) node: techlib::Node,
    pub(super) flavour: Flavour,
    pub(super) finfet: bool,
}

impl Ctx<'_> {
    pub(super) fn sram_tech(
        &self,
        vdd_v: f64,
        bg: BackGate,
        what: &'static str,
    ) -> Result<SramTech, RfError> {
        sram_flavour(self.flavour).ok_or_else(|| {
            RfError::input(
                "rf.flavour",
                self.flavour.key(),
                "a logic flavour (hp, lstp, lop, lvt, rvt, slvt)",
            )
        })?;
        let point =
            techlib::ResolvedPoint::of_node(self.node.clone(), self.flavour, self.d.temperature_k)
                .and_then(|p| p.with_vdd_v(vdd_v))
                .map_err(|e| RfError::Sram {
                    structure: what,
                    error: crate::sram::SramError::Tech(e.to_string()),
                })?;
        sram_tech(&TechRequest {
            point,
            back_gate: bg,
        })
        .map_err(|error| RfError::Sram {
            structure: what,
            error,
        })
    }

    /// One lane slice of one bank of `rows` rows: the chip model's register-file array
    /// ([`rf_bank_slices`]) with the bank's ports (`ports.0` read, `ports.1` write; `None` for
    /// the MRF/FRF/SRF, whose banks have `ports_per_bank` read-write ports as in the chip).
    fn slice_spec(&self, rows: u32, banks: u32, ports: Option<(u32, u32)>) -> StorageSpec {
        let mut s = rf_bank_slices(
            "register file",
            rows as u64,
            self.d.entry_bytes as u64,
            self.d.lanes as u64,
            banks as u64,
            self.d.ports_per_bank.max(1),
        );
        if let Some((r, w)) = ports {
            if self.finfet {
                (s.rw_ports, s.read_ports, s.write_ports) = (0, r, w);
            } else {
                (s.rw_ports, s.read_ports, s.write_ports) =
                    (1, r.saturating_sub(1), w.saturating_sub(1));
            }
        }
        s
    }

    /// The array of `entries` entries over `banks` independent lane-sliced banks with real row
    /// counts (module doc). Each bank slice is the chip model's register-file array, evaluated
    /// as the chip evaluates it ([`sram_spec`] and [`sram::evaluate`]); an access touches the
    /// `lanes` slices of one bank. The bus energy is added by [`add_bus`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn array(
        &self,
        name: &str,
        what: &'static str,
        entries: u32,
        banks: u32,
        ports: Option<(u32, u32)>,
        tech: &SramTech,
        vdd_v: f64,
    ) -> Result<ArrayCost, RfError> {
        if entries == 0 {
            return Ok(ArrayCost::empty(name, vdd_v));
        }
        let b = banks.min(entries);
        let r_lo = entries / b;
        let n_hi = entries % b;
        let r_hi = if n_hi > 0 { r_lo + 1 } else { r_lo };
        let n_lo = b - n_hi;
        let cell = storage_cell(self.node.kind());
        let eval = |rows: u32| -> Result<sram::SramResult, RfError> {
            let spec = sram_spec(&self.slice_spec(rows, b, ports), cell);
            sram::evaluate(&spec, tech).map_err(|error| RfError::Sram {
                structure: what,
                error,
            })
        };
        let hi = eval(r_hi)?;
        let lo = if r_lo == r_hi { hi } else { eval(r_lo)? };
        let lanes = self.d.lanes as f64;
        // per access: the lanes' slices of one bank (entry-weighted over bank sizes); area and
        // leakage: every slice of every bank
        let (wh, wl) = (n_hi as f64 * lanes, n_lo as f64 * lanes);
        let (eh, el) = (
            lanes * (n_hi as f64 * r_hi as f64) / entries as f64,
            lanes * (n_lo as f64 * r_lo as f64) / entries as f64,
        );
        let mix = |f: &dyn Fn(&sram::SramResult) -> f64, a: f64, c: f64| a * f(&hi) + c * f(&lo);
        let read = mix(&|r| r.read_energy_j, eh, el);
        let write = if self.d.write_equals_read {
            read
        } else {
            mix(&|r| r.write_energy_j, eh, el)
        };
        let cells = mix(&|r| r.breakdown.cells.leakage_w, wh, wl);
        let total = mix(&|r| r.leakage_w, wh, wl);
        let t = if n_hi > 0 {
            hi.access_time_s
        } else {
            lo.access_time_s
        };
        Ok(ArrayCost {
            name: name.into(),
            entries,
            vdd_v,
            read_energy_j: read,
            write_energy_j: write,
            array_leakage_w: cells,
            periph_leakage_w: (total - cells).max(0.0),
            area_m2: mix(&|r| r.area_m2, wh, wl),
            access_time_s: t,
            access_cycles: cycles_of(t, self.d.clock_hz),
            bank_rows: [(r_hi, n_hi), (r_lo, n_lo)],
            decoder_read_energy_j: mix(&|r| r.breakdown.decoder.read_energy_j, eh, el),
            slice_height_m: if n_hi > 0 { hi.height_m } else { lo.height_m },
            bus_energy_j: 0.0,
        })
    }

    pub(super) fn logic_point(&self, vdd_v: f64) -> Result<techlib::TechPoint, RfError> {
        Ok(self.node.at(&Conditions::new(self.flavour)
            .with_vdd(vdd_v)
            .with_temperature(self.d.temperature_k))?)
    }
}

/// Adds the bank-to-collector bus to `a`'s read and write energies: the chip model's bus
/// formula ([`rf_bus_transfer_j`]) for `a`'s banks stacked at `pitch_m` in each lane's column,
/// on the array technology's semi-global wire at `a`'s supply.
pub(super) fn add_bus(ctx: &Ctx<'_>, a: &mut ArrayCost, banks: u32, pitch_m: f64, tech: &SramTech) {
    if a.entries == 0 {
        return;
    }
    let spec = ctx.slice_spec(a.bank_rows[0].0, banks.min(a.entries), None);
    let bus = rf_bus_transfer_j(&spec, pitch_m, tech.wire_semi.c_f_per_m, a.vdd_v);
    a.read_energy_j += bus;
    a.write_energy_j += bus;
    a.bus_energy_j = bus;
}

pub(super) fn logic_structure(
    name: &str,
    what: &'static str,
    kind: LogicKind,
    p: &[(&str, u32)],
    copies: u32,
    tech: &techlib::TechPoint,
    overlay: Option<&Overlay>,
) -> Result<LogicStructure, RfError> {
    let c =
        logic::model(kind, &logic::params(p), tech, overlay).map_err(|error| RfError::Logic {
            structure: what,
            error,
        })?;
    Ok(LogicStructure {
        name: name.into(),
        energy_per_op_j: c.energy_per_op_j,
        leakage_w: c.leakage_w * copies as f64,
        area_m2: c.area_m2 * copies as f64,
        delay_s: c.delay_s,
        calibrated: c.calibrated[2],
    })
}

pub(super) fn clog2(x: u32) -> u32 {
    if x <= 1 {
        1
    } else {
        32 - (x - 1).leading_zeros()
    }
}

/// Energy of one bitonic sort of `n` counters of `bits` bits carrying 6-bit ids (module doc), J.
pub(super) fn sort_energy_j(
    n: u32,
    bits: u32,
    tech: &techlib::TechPoint,
    overlay: Option<&Overlay>,
) -> Result<f64, RfError> {
    let p = n.max(2).next_power_of_two();
    let k = p.trailing_zeros();
    let exchanges = (p / 2) as f64 * (k * (k + 1) / 2) as f64;
    let cmp = logic::model(
        LogicKind::Adder,
        &logic::params(&[("WIDTH", bits)]),
        tech,
        overlay,
    )
    .map_err(|error| RfError::Logic {
        structure: "sort comparator",
        error,
    })?;
    let mux = logic::model(
        LogicKind::Mux,
        &logic::params(&[("N", 2), ("WIDTH", bits + 6)]),
        tech,
        overlay,
    )
    .map_err(|error| RfError::Logic {
        structure: "sort mux",
        error,
    })?;
    Ok(exchanges * (cmp.energy_per_op_j + 2.0 * mux.energy_per_op_j))
}

/// Back-gate line of the FRF (module doc).
pub(super) fn back_gate_cost(
    ctx: &Ctx<'_>,
    frf_entries: u32,
    tied: &SramTech,
    grounded: &SramTech,
    logic_tech: &techlib::TechPoint,
) -> BackGateCost {
    let c = &tied.cell;
    let w_nmos_total =
        2.0 * c.w_nmos_m + 2.0 * c.w_access_m + c.w_read_access_m + c.w_read_driver_m;
    let c_bg_per_m = (tied.cell_dev.c_gate_per_m() - grounded.cell_dev.c_gate_per_m()).max(0.0);
    let cells = frf_entries as f64 * ctx.d.entry_bytes as f64 * 8.0;
    let cell_w = c.width_m * c.eight_t_width_factor;
    let line_len = cells * cell_w;
    let cap = cells * w_nmos_total * c_bg_per_m + line_len * tied.wire_local.c_f_per_m;
    let vdd = tied.periph.vdd_v;
    // rows: one per entry per lane slice
    let rows = frf_entries as f64 * ctx.d.lanes as f64;
    let c_row = if rows > 0.0 { cap / rows } else { 0.0 };
    let d = logic_tech.device();
    let w_min = d.fin_width_m.unwrap_or(4.0 * logic_tech.feature_size_m);
    // last stage sized to swing its row's line within half a clock cycle
    // (0.69·R_on·C_row ≤ t_clk/2), driven by a fan-out-of-4 chain from a minimum inverter:
    // the chain's devices sum to (w_last/w_min)·(1 + 1/4 + 1/16 + …) = (4/3)·w_last/w_min
    // minimum inverters, counted as gate equivalents
    let r_on_ohm_m = d.r_nch_on_ohm_m();
    let t_half = 0.5 / ctx.d.clock_hz;
    let w_last = (0.69 * c_row * r_on_ohm_m / t_half).max(w_min);
    let ge_per_row = 4.0 / 3.0 * w_last / w_min;
    let ge = rows * ge_per_row;
    BackGateCost {
        line_capacitance_f: cap,
        switch_energy_j: cap * vdd * vdd,
        wiring_area_m2: line_len * tied.wire_local.pitch_m,
        buffer_area_m2: ge * logic::area_per_ge_m2(logic_tech),
        buffer_leakage_w: ge * 2.0 * w_min * logic_tech.i_off_a_per_m() * logic_tech.vdd_v(),
    }
}

pub(super) fn context(design: &RfDesign) -> Result<Ctx<'_>, RfError> {
    check(design)?;
    let node = design.node.clone();
    let finfet = node.kind() == NodeKind::Finfet;
    let flavour = match design.flavour {
        Some(f) => f,
        None => default_flavour(&design.node)?,
    };
    Ok(Ctx {
        d: design,
        node,
        flavour,
        finfet,
    })
}

/// The super-threshold supply of `design`: `vdd_stv_v`, else the node's `stv` point, else the
/// flavour's nominal supply, V.
pub fn stv_supply_v(design: &RfDesign) -> Result<f64, RfError> {
    let ctx = context(design)?;
    let v = match design.vdd_stv_v {
        Some(v) => v,
        None => match op_vdd(&ctx.node, "stv") {
            Some(v) => v,
            None => ctx.node.nominal_vdd_v(ctx.flavour)?,
        },
    };
    if !(v.is_finite() && v > 0.0 && v <= 5.0) {
        return Err(RfError::input("rf.vdd_stv_v", v, "a supply in (0, 5] V"));
    }
    Ok(v)
}

/// The SRAM model's technology for `design`'s arrays at `vdd_v` with back gates `bg` (designed
/// at the node's nominal supply, back gates tied).
pub fn array_tech(design: &RfDesign, vdd_v: f64, bg: BackGate) -> Result<SramTech, RfError> {
    context(design)?.sram_tech(vdd_v, bg, "array")
}

/// The techlib point of `design`'s control logic at `vdd_v`.
pub fn logic_tech(design: &RfDesign, vdd_v: f64) -> Result<techlib::TechPoint, RfError> {
    context(design)?.logic_point(vdd_v)
}
