//! Per-structure energy, leakage (array and periphery), area and access time of a register file
//! and of the structures the register-file techniques add (register-file spec §4–§7, §9).
//!
//! # Arrays
//! Every array is the chip model's register file (`crate::gpu::chip`, `rf_routing`): `B`
//! independent banks, each split into `lanes` slices (one per SIMT lane, next to its
//! datapath) of `entry_bytes / lanes` bytes per row, each slice one SRAM array with the bank's
//! `ports_per_bank` read-write ports ([`crate::gpu::storage::rf_bank_slices`], 8T cells at
//! FinFET nodes, 6T at planar nodes), evaluated exactly as the chip evaluates it
//! ([`crate::gpu::source::sram_spec`], [`crate::sram::evaluate`]) on the node's technology at
//! the structure's supply ([`crate::sram::sram_tech`], designed at the node's nominal supply
//! with back gates tied: one physical design per array). One access touches the `lanes` slices
//! of one bank; area and leakage count every slice of every bank. The RFC's banks have its own
//! read and write ports.
//!
//! **Bus.** The read and write energies include the bank-to-collector bus of the chip model
//! ([`crate::gpu::chip::rf_bus_transfer_j`]: each lane's bank slices stack in a column, the
//! mean transfer runs `pitch·(B + 1)/2` of semi-global wire). The pitch is the slice height of
//! the structure; in the partitioned RF every bank is an FRF part stacked on an SRF part
//! (§5.2), so the FRF's and the SRF's buses run over a pitch of both parts' heights, each at
//! its own supply. So n = 0 gives the MRF at the SRF supply and n = 63 (FRF = every entry)
//! the MRF at STV exactly, and the MRF's read energy is the chip's register-file read plus its
//! bus energy per operand.
//!
//! **Real row counts.** When the bank count B does not divide the entry count E, `E mod B` banks
//! hold `⌈E/B⌉` rows and the rest `⌊E/B⌋` (the FRF and SRF parts likewise, as the simulator's
//! register-file partition map splits them). A slice of each row count is evaluated; area
//! and leakage are the bank-count-weighted sum, the access energy the entry-weighted mean
//! (accesses spread over entries), the access time and the bus pitch those of the larger banks.
//!
//! **Array vs periphery leakage.** `P_array` is the model's cell leakage (the `cells` class of
//! the breakdown); `P_periph` is everything else (decoders, wordline drivers, sense amplifiers,
//! precharge, H-trees, bank-edge latches, level shifters).
//!
//! **FRF back-gate modes** (§5.1, §6). FRF_high is the array at the FRF supply with back gates
//! tied. FRF_low is the *same* physical design (organisation chosen at the tied design point)
//! re-evaluated with the cell devices of the back-gate-grounded FinFET (techlib: about half the
//! gate capacitance, the raised threshold, the reduced drive and the lower off-current of the
//! front channel alone); the periphery devices and every wire keep their tied-mode values,
//! because only the cells' back gates follow the mode signal. Its energy is whatever the circuit
//! model gives from those devices — no saving is assumed. FRF_low leakage is that array's
//! (`afrf.low_leakage = "model"`) or FRF_high's (`"same_as_high"`). Planar nodes have no back
//! gate: asking for the adaptive FRF there is an error naming `afrf.enabled`.
//!
//! **Back-gate line and mode buffers** (§6). The mode line of every FRF row loads the back
//! gates of the cells' NMOS devices (pull-downs, access and read-stack devices; the pull-ups'
//! back gates are tied to Vdd). Its capacitance per cell is the difference between the tied and
//! the grounded gate capacitance of those devices (the back-gate share of the double-gate
//! capacitance, from techlib), plus one local wire across the cell. A mode switch charges or
//! discharges all of it: `E_bg = C_bg,total × Vdd²` (§6). One buffer per FRF row (per lane
//! slice) drives its line: a fan-out-of-4 chain whose gate equivalents sum to `C_row/(3·C_in)`;
//! the line is one extra local-wire track over the row.
//!
//! # Control structures
//! The COMA mask table (flop array, CU entries × 32 bits, one write port and `mask_read_ports`
//! read ports), the swap-table CAM (`swap_cam`, `table_copies` copies), the pilot counters
//! (`pilot_counters`, 63 × 16 bits), the adaptive-FRF epoch detector (`epoch_counter`) and the
//! RFC tag CAM (`cam`) come from [`crate::logic::model`]: calibrated to synthesis when an
//! overlay is given, analytical otherwise. The counter sort (§5.5, once per kernel) is costed as
//! a bitonic compare-exchange network over the counters padded to a power of two,
//! `P/2 · k(k+1)/2` compare-exchanges (`k = log₂P`), each a `WIDTH`-bit comparator (adder) and
//! two 2:1 muxes of count + id bits.
//!
//! # Code
//! [`design`] holds what is costed, [`cost`] the results, [`tech`] the technology context and
//! the per-structure models; this file evaluates a whole design.

mod cost;
mod design;
mod tech;

pub use cost::{ArrayCost, BackGateCost, DerivedLatencies, LogicStructure, RfStructures, RfcCost};
pub use design::{BackGateScope, LowLeakage, RfDesign, RfcDesign};
pub use tech::{array_tech, cycles_of, logic_tech, stv_supply_v};

use super::RfError;
use crate::logic::LogicKind;
use crate::overlay::Overlay;
use crate::sram::{BackGate, SramTech};
use tech::{add_bus, back_gate_cost, clog2, context, logic_structure, op_vdd, sort_energy_j, Ctx};

/// Evaluates every structure of `design` (module doc); control structures are calibrated by
/// `overlay` where it has them.
pub fn evaluate(design: &RfDesign, overlay: Option<&Overlay>) -> Result<RfStructures, RfError> {
    let ctx = context(design)?;
    let node = ctx.node.clone();
    let finfet = ctx.finfet;
    let v_stv = stv_supply_v(design)?;
    let v_ntv = design.vdd_ntv_v.or_else(|| op_vdd(&node, "ntv"));
    if let Some(v) = v_ntv {
        if !(v.is_finite() && v > 0.0 && v <= 5.0) {
            return Err(RfError::input("prf.v_srf", v, "a supply in (0, 5] V"));
        }
    }
    if design.adaptive_frf && !finfet {
        return Err(RfError::input(
            "afrf.enabled",
            format!("true at planar node {}", node.name()),
            "false: planar devices have no back gate",
        ));
    }
    if design.adaptive_frf && !design.partitioned {
        return Err(RfError::input(
            "afrf.enabled",
            "true without the partitioned RF",
            "prf.enabled = true",
        ));
    }
    let t_stv = ctx.sram_tech(v_stv, BackGate::Vdd, "MRF@STV")?;
    let mrf_stv = bused_array(&ctx, "MRF@STV", &t_stv, v_stv)?;
    let t_ntv = match v_ntv {
        Some(v) => Some(ctx.sram_tech(v, BackGate::Vdd, "MRF@NTV")?),
        None => None,
    };
    let mrf_ntv = match (&t_ntv, v_ntv) {
        (Some(t), Some(v)) => Some(bused_array(&ctx, "MRF@NTV", t, v)?),
        _ => None,
    };
    let logic_tech = ctx.logic_point(v_stv)?;
    let p = if design.partitioned {
        let (Some(t_n), Some(v_n)) = (&t_ntv, v_ntv) else {
            return Err(RfError::input(
                "prf.v_srf",
                format!("(none: node {} has no ntv point)", node.name()),
                "an explicit SRF supply",
            ));
        };
        partition(&ctx, (&t_stv, v_stv), (t_n, v_n), &logic_tech, overlay)?
    } else {
        Partition::default()
    };
    let mask_table = logic_structure(
        "COMA mask table",
        "mask table",
        LogicKind::FlopArray,
        &[
            ("ENTRIES", design.cu_count),
            ("WIDTH", design.lanes),
            ("RPORTS", design.mask_read_ports),
            ("WPORTS", 1),
        ],
        1,
        &logic_tech,
        overlay,
    )?;
    let rfc = match &design.rfc {
        None => None,
        Some(r) => Some(rfc_cost(&ctx, r, &t_stv, v_stv, &logic_tech, overlay)?),
    };
    Ok(RfStructures {
        node: node.name().to_string(),
        clock_hz: design.clock_hz,
        mrf_stv,
        mrf_ntv,
        frf_high: p.frf_high,
        frf_low: p.frf_low,
        low_leakage: design.low_leakage,
        srf: p.srf,
        rfc,
        mask_table,
        swap_cam: p.swap_cam,
        pilot_counters: p.pilot_counters,
        epoch_counter: p.epoch_counter,
        sort_energy_j: p.sort_energy_j,
        back_gate: p.back_gate,
    })
}

/// A monolithic register file (every entry in `design.banks` banks) of technology `tech` at
/// supply `vdd_v`, with its bus over its own slice height.
fn bused_array(
    ctx: &Ctx<'_>,
    name: &'static str,
    tech: &SramTech,
    vdd_v: f64,
) -> Result<ArrayCost, RfError> {
    let design = ctx.d;
    let mut a = ctx.array(name, name, design.entries, design.banks, None, tech, vdd_v)?;
    let h = a.slice_height_m;
    add_bus(ctx, &mut a, design.banks, h, tech);
    Ok(a)
}

/// The structures of the partitioned RF (§5, §6); all `None` (and no sort energy) without it.
#[derive(Default)]
struct Partition {
    frf_high: Option<ArrayCost>,
    frf_low: Option<ArrayCost>,
    srf: Option<ArrayCost>,
    swap_cam: Option<LogicStructure>,
    pilot_counters: Option<LogicStructure>,
    epoch_counter: Option<LogicStructure>,
    back_gate: Option<BackGateCost>,
    sort_energy_j: f64,
}

/// The partitioned RF's arrays (FRF at the STV supply `stv`, SRF at the NTV supply `ntv`, each
/// a technology and a supply in V), the adaptive FRF's structures, the swap-table CAMs, the
/// pilot counters and the counter sort.
fn partition(
    ctx: &Ctx<'_>,
    stv: (&SramTech, f64),
    ntv: (&SramTech, f64),
    logic_tech: &techlib::TechPoint,
    overlay: Option<&Overlay>,
) -> Result<Partition, RfError> {
    let design = ctx.d;
    let ((t_stv, v_stv), (t_n, v_n)) = (stv, ntv);
    let mut p = Partition::default();
    let ports = None;
    let nf = design.frf_entries();
    let mut hi = ctx.array(
        "FRF_high",
        "FRF_high",
        nf,
        design.banks,
        ports,
        t_stv,
        v_stv,
    )?;
    let mut sr = ctx.array(
        "SRF",
        "SRF",
        design.srf_entries(),
        design.banks,
        ports,
        t_n,
        v_n,
    )?;
    // each bank is an FRF part stacked on an SRF part: the column pitch is both parts'
    let pitch = hi.slice_height_m + sr.slice_height_m;
    add_bus(ctx, &mut hi, design.banks, pitch, t_stv);
    add_bus(ctx, &mut sr, design.banks, pitch, t_n);
    p.srf = Some(sr);
    if design.adaptive_frf {
        let grounded = ctx.sram_tech(v_stv, BackGate::Gnd, "FRF_low")?;
        let hybrid = match design.back_gate_scope {
            BackGateScope::Cells => {
                let mut h = t_stv.clone();
                h.cell_dev = grounded.cell_dev;
                h.node = format!("{} (cell back gates grounded)", t_stv.node);
                h.design = Some(Box::new(t_stv.design_tech().clone()));
                h
            }
            BackGateScope::WholeArray => grounded.clone(),
        };
        let mut lo = ctx.array(
            "FRF_low",
            "FRF_low",
            nf,
            design.banks,
            ports,
            &hybrid,
            v_stv,
        )?;
        add_bus(ctx, &mut lo, design.banks, pitch, &hybrid);
        if design.low_leakage == LowLeakage::SameAsHigh {
            lo.array_leakage_w = hi.array_leakage_w;
            lo.periph_leakage_w = hi.periph_leakage_w;
        }
        p.frf_low = Some(lo);
        p.back_gate = Some(back_gate_cost(ctx, nf, t_stv, &grounded, logic_tech));
        let w = clog2(design.epoch_cycles * design.issue_width + 1);
        let ew = clog2(design.epoch_cycles);
        p.epoch_counter = Some(logic_structure(
            "epoch counter",
            "epoch_counter",
            LogicKind::EpochCounter,
            &[
                ("W", w),
                ("EW", ew),
                ("EPOCH", design.epoch_cycles),
                ("IW", clog2(design.issue_width + 1)),
            ],
            1,
            logic_tech,
            overlay,
        )?);
    }
    p.frf_high = Some(hi);
    if design.n_fast > 0 {
        p.swap_cam = Some(logic_structure(
            "swap-table CAM",
            "swap_cam",
            LogicKind::SwapCam,
            &[("N", design.n_fast)],
            design.table_copies,
            logic_tech,
            overlay,
        )?);
    }
    p.pilot_counters = Some(logic_structure(
        "pilot counters",
        "pilot_counters",
        LogicKind::PilotCounters,
        &[
            ("NREGS", design.counter_regs),
            ("WIDTH", design.counter_bits),
        ],
        1,
        logic_tech,
        overlay,
    )?);
    p.sort_energy_j = sort_energy_j(
        design.counter_regs,
        design.counter_bits,
        logic_tech,
        overlay,
    )?;
    Ok(p)
}

/// The register-file cache `r`: its array (own banks and ports, at the STV technology `t_stv`
/// and supply `v_stv` V) with its bus, and its tag CAM.
fn rfc_cost(
    ctx: &Ctx<'_>,
    r: &RfcDesign,
    t_stv: &SramTech,
    v_stv: f64,
    logic_tech: &techlib::TechPoint,
    overlay: Option<&Overlay>,
) -> Result<RfcCost, RfError> {
    if r.entries == 0 || r.read_ports == 0 || r.write_ports == 0 || r.banks == 0 {
        return Err(RfError::input(
            "rfc.entries/read_ports/write_ports/banks",
            format!(
                "{}/{}/{}/{}",
                r.entries, r.read_ports, r.write_ports, r.banks
            ),
            "each at least 1",
        ));
    }
    let mut array = ctx.array(
        "RFC",
        "RFC",
        r.entries,
        r.banks,
        Some((r.read_ports, r.write_ports)),
        t_stv,
        v_stv,
    )?;
    let h = array.slice_height_m;
    add_bus(ctx, &mut array, r.banks, h, t_stv);
    let tag_bits = clog2(ctx.d.max_warps) + 6;
    let tag_cam = logic_structure(
        "RFC tag CAM",
        "RFC tag CAM",
        LogicKind::Cam,
        &[("ENTRIES", r.entries), ("WIDTH", tag_bits)],
        1,
        logic_tech,
        overlay,
    )?;
    Ok(RfcCost { array, tag_cam })
}
