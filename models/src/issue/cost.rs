//! The baseline's issue-stage and DWF structures of [`crate::issue_bits`] mapped onto component
//! models at one technology point, and the component helpers every design's costing shares (issue-stage spec §4 mapping, control-flow spec §5.7 modelling method).
//!
//! Every structure is a [`StructureCost`]: the area and leakage of one instance (one warp's,
//! one issue slice's or one core's copy) and the energy of each event that drives it, named
//! after the activity counter that counts the event (issue-stage §5, control-flow §6). Energy
//! of an event is a multiple of the component's energy per operation:
//! - flop arrays (IB entries, seniority, ready counters, PC registers, collector units, RRS,
//!   small RATs, write-back buffers, DWF's warp-update registers and Majority entry): one
//!   access per read or write;
//! - the dependence matrix ([`LogicKind::DepMatrix`], whose operation is one buffer cycle over
//!   all N rows): a row write, a row-NOR evaluation or a column clear is `1/N` of it;
//! - comparator arrays ([`LogicKind::EqCmp`], all comparators of every entry): one entry
//!   comparison at insert is `1/N` of a full search; a magnitude comparator (a3, age compare,
//!   selection tree) is a `WIDTH`-bit adder's carry chain, one per compare;
//! - SRAM arrays (a RAT of many entries, DWF's tables, with the specs' port counts): the SRAM
//!   model's read and write energies. The SRAM model takes power-of-two row bytes; an array
//!   whose row is narrower is modelled at the rounded width and its area, leakage and energies
//!   scaled by stored bits over modelled bits (exact for the cells, an approximation for the
//!   periphery). An array the SRAM model refuses (too small) is a flop array, as the spec's
//!   method says for arrays too small for the SRAM model;
//!
//! The DWF register-file decoder overhead (control-flow §5.7) is the SRAM model's area of `n`
//! banks of `R/n` registers, each with its own decoder, less that of one array with `n`
//! registers per row, both 2R1W and both organised for minimum area (the organisation search's
//! area-only objective: "the line size that minimises (a)"); it ignores wiring and is a lower
//! bound.

use crate::gpu::{CostError, CostSource, Part, Scope, Source, StorageSpec, TechCostSource};
use crate::issue_bits::{clog2, BaselineIssue, DwfScheduler};
use crate::logic::LogicKind;
use crate::sram::{self, Objective, SramSpec};
use serde::Serialize;

/// Why a design could not be costed.
#[derive(Debug, thiserror::Error)]
pub enum IssueCostError {
    /// A component model failed.
    #[error("{structure}: {error}")]
    Component {
        /// The structure being costed.
        structure: String,
        /// The component model's error.
        error: CostError,
    },
    /// The SRAM model failed on the RF decoder comparison.
    #[error("{structure}: {error}")]
    Sram {
        /// The structure being costed.
        structure: String,
        /// The SRAM model's error.
        error: sram::SramError,
    },
    /// A size of 0 where the structure needs at least one.
    #[error("{what} must be at least 1 (got 0)")]
    Zero {
        /// The input named.
        what: &'static str,
    },
}

/// The energy of one event of a structure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventCost {
    /// The activity counter that counts the event.
    pub counter: &'static str,
    /// Energy of one event, J.
    pub energy_j: f64,
}

/// One structure of a design: one instance's area, leakage and event energies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StructureCost {
    /// Name (as its estimate leaf).
    pub name: String,
    /// The component model and its size, e.g. `flop_array 8x175 1R1W`.
    pub model: String,
    /// State bits of one instance (0 for pure logic).
    pub bits: u64,
    /// Area of one instance, m².
    pub area_m2: f64,
    /// Leakage of one instance, W.
    pub leakage_w: f64,
    /// The events that switch it.
    pub events: Vec<EventCost>,
    /// Where the numbers came from.
    #[serde(skip)]
    pub source: Source,
    /// The chip model's leaf this structure is (the baseline's I-buffer and scoreboards), so
    /// that a design replacing that leaf finds the structure by its part, not by its name.
    #[serde(skip)]
    pub part: Option<Part>,
}

impl StructureCost {
    /// Dynamic energy of `count(counter)` events of each kind, J.
    pub fn dynamic_j(&self, count: &dyn Fn(&str) -> f64) -> f64 {
        self.events
            .iter()
            .map(|e| count(e.counter) * e.energy_j)
            .sum()
    }
}

/// The structures a design adds and removes per instance (warp, issue slice or core), and its
/// line items outside the delta.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DesignCost {
    /// Design name (`baseline`, `dwf`, or an out-of-order design's own).
    pub design: &'static str,
    /// What one instance is (`warp`, `issue slice`, `core`).
    pub per: &'static str,
    /// Structures present in the design.
    pub added: Vec<StructureCost>,
    /// Structures of the baseline the design removes or replaces.
    pub removed: Vec<StructureCost>,
    /// Line items reported beside the delta (the SIMT / PDOM stack).
    pub line_items: Vec<StructureCost>,
}

impl DesignCost {
    /// Area of the added structures of one instance, m².
    pub fn added_area_m2(&self) -> f64 {
        self.added.iter().map(|s| s.area_m2).sum()
    }
    /// Area of the removed structures of one instance, m².
    pub fn removed_area_m2(&self) -> f64 {
        self.removed.iter().map(|s| s.area_m2).sum()
    }
    /// Added − removed area of one instance, m².
    pub fn delta_area_m2(&self) -> f64 {
        self.added_area_m2() - self.removed_area_m2()
    }
    /// Added − removed leakage of one instance, W.
    pub fn delta_leakage_w(&self) -> f64 {
        self.added.iter().map(|s| s.leakage_w).sum::<f64>()
            - self.removed.iter().map(|s| s.leakage_w).sum::<f64>()
    }
    /// Leakage of the added structures of one instance, W.
    pub fn added_leakage_w(&self) -> f64 {
        self.added.iter().map(|s| s.leakage_w).sum()
    }
    /// Added − removed state bits of one instance.
    pub fn delta_bits(&self) -> i64 {
        self.added.iter().map(|s| s.bits as i64).sum::<i64>()
            - self.removed.iter().map(|s| s.bits as i64).sum::<i64>()
    }
    /// Dynamic energy of the added structures for the events `count` gives, J.
    pub fn added_dynamic_j(&self, count: &dyn Fn(&str) -> f64) -> f64 {
        self.added.iter().map(|s| s.dynamic_j(count)).sum()
    }
}

fn comp_err(structure: &str) -> impl Fn(CostError) -> IssueCostError + '_ {
    move |error| IssueCostError::Component {
        structure: structure.to_string(),
        error,
    }
}

/// A logic structure: `count` copies of `kind` with `params`; each event `(counter, k)` costs
/// `k` component operations.
pub(super) fn logic(
    src: &dyn CostSource,
    name: &str,
    kind: LogicKind,
    params: &[(&str, u32)],
    count: f64,
    bits: u64,
    events: &[(&'static str, f64)],
) -> Result<StructureCost, IssueCostError> {
    let c = src.logic(kind, params).map_err(comp_err(name))?;
    let size = params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ");
    let model = if count == 1.0 {
        format!("{kind} {size}")
    } else {
        format!("{count} x {kind} {size}")
    };
    Ok(StructureCost {
        name: name.to_string(),
        model,
        bits,
        area_m2: c.cost.area_m2 * count,
        leakage_w: c.cost.leakage_w * count,
        events: events
            .iter()
            .map(|&(counter, k)| EventCost {
                counter,
                energy_j: k * c.cost.read_j,
            })
            .collect(),
        source: c.source,
        part: None,
    })
}

/// A flop array of `entries` × `width` bits with `r` read and `w` write ports; every event is
/// one access.
pub(super) fn flops(
    src: &dyn CostSource,
    name: &str,
    entries: u64,
    width: u64,
    r: u32,
    w: u32,
    events: &[&'static str],
) -> Result<StructureCost, IssueCostError> {
    let ev: Vec<(&'static str, f64)> = events.iter().map(|&e| (e, 1.0)).collect();
    logic(
        src,
        name,
        LogicKind::FlopArray,
        &[
            ("ENTRIES", entries.max(1) as u32),
            ("WIDTH", width.max(1) as u32),
            ("RPORTS", r.max(1)),
            ("WPORTS", w.max(1)),
        ],
        1.0,
        entries * width,
        &ev,
    )
}

/// Whether an event reads or writes an SRAM.
#[derive(Clone, Copy)]
pub(super) enum Access {
    /// A read.
    Read,
    /// A write.
    Write,
}

/// An SRAM of `rows` × `width` bits with `r` read and `w` write ports (module doc: row bytes
/// rounded up to a power of two and the results scaled by stored over modelled bits; a flop
/// array when the SRAM model refuses the array).
pub(super) fn sram_array(
    src: &dyn CostSource,
    name: &str,
    rows: u64,
    width: u32,
    r: u32,
    w: u32,
    events: &[(&'static str, Access)],
) -> Result<StructureCost, IssueCostError> {
    let block = (width as u64).div_ceil(8).next_power_of_two().max(1);
    let scale = width as f64 / (block * 8) as f64;
    let spec = StorageSpec {
        name: name.to_string(),
        scope: Scope::PerSm,
        instances: 1,
        accessed: 1,
        size_bytes: rows * block,
        block_bytes: block,
        banks: 1,
        rw_ports: 0,
        read_ports: r,
        write_ports: w,
    };
    match src.sram(&spec) {
        Ok(c) => Ok(StructureCost {
            name: name.to_string(),
            model: format!("sram {rows}x{width} {r}R{w}W"),
            bits: rows * width as u64,
            area_m2: c.cost.area_m2 * scale,
            leakage_w: c.cost.leakage_w * scale,
            events: events
                .iter()
                .map(|&(counter, a)| EventCost {
                    counter,
                    energy_j: scale
                        * match a {
                            Access::Read => c.cost.read_j,
                            Access::Write => c.cost.write_j,
                        },
                })
                .collect(),
            source: c.source,
            part: None,
        }),
        Err(_) => {
            let ev: Vec<&'static str> = events.iter().map(|e| e.0).collect();
            let mut s = flops(src, name, rows, width as u64, r, w, &ev)?;
            s.model = format!("{} (too small for the SRAM model)", s.model);
            Ok(s)
        }
    }
}

/// The baseline's per-warp issue structures: the `ib_entries`-entry I-buffer and the
/// scoreboards (pending-write bits and `Cw`-bit pending-read counters as one
/// [`LogicKind::Scoreboard`] of `A` registers checked for `ns + nps` sources); the SIMT stack
/// as a line item. Events: `ib_writes`, `ib_reads` (one access each), `sb_lookups` and
/// `sb_updates` (one scoreboard operation each, as the estimate tree charges them).
pub fn baseline_cost(
    b: &BaselineIssue,
    src: &dyn CostSource,
) -> Result<DesignCost, IssueCostError> {
    if b.ib_entries == 0 {
        return Err(IssueCostError::Zero {
            what: "baseline I-buffer entries",
        });
    }
    let f = &b.fields;
    let mut ib = flops(
        src,
        "instruction buffer",
        b.ib_entries as u64,
        f.baseline_entry_bits(),
        1,
        1,
        &["ib_writes", "ib_reads"],
    )?;
    let mut sb = logic(
        src,
        "scoreboards",
        LogicKind::Scoreboard,
        &[
            ("NREGS", b.arch_regs.max(1)),
            ("NSRC", (f.gpr_srcs + f.pred_srcs).max(1)),
            ("RCW", b.reader_ctr_bits.max(1)),
        ],
        1.0,
        b.pending_write_bits() + b.pending_read_bits(),
        &[("sb_lookups", 1.0), ("sb_updates", 1.0)],
    )?;
    ib.part = Some(Part::InstructionBuffer);
    sb.part = Some(Part::Scoreboard);
    let simt = flops(
        src,
        "SIMT stack",
        b.simt_depth as u64,
        2 * f.pc_bits as u64 + b.warp_width as u64 + 1,
        1,
        1,
        &[],
    )?;
    Ok(DesignCost {
        design: "baseline",
        per: "warp",
        added: vec![ib, sb],
        removed: Vec::new(),
        line_items: vec![simt],
    })
}

/// Area of an SRAM array for the RF decoder comparison (area-only organisation search).
fn rf_area_m2(
    src: &TechCostSource,
    capacity: u64,
    block: u64,
    banks: u32,
) -> Result<f64, sram::SramError> {
    let spec = SramSpec {
        capacity_bytes: capacity,
        block_bytes: block,
        rw_ports: 0,
        read_ports: 2,
        write_ports: 1,
        banks,
        cell: src.cell,
        objective: Objective::Weighted {
            delay: 0.0,
            dynamic: 0.0,
            leakage: 0.0,
            area: 1.0,
            cycle: 0.0,
            max_delay_deviation: 1e9,
        },
    };
    Ok(sram::evaluate(&spec, &src.sram_tech)?.area_m2)
}

/// DWF's per-core scheduler structures (control-flow §5.7) and the RF decoder overhead, with
/// the PDOM stacks of the core's warps as a line item (not subtracted). Events are the DWF
/// counters of control-flow §6: `lut_lookups`, `lut_writes`, `pool_tid_writes` (per bank),
/// `pool_pc_writes`, `pool_reads`, `allocator_pops`, `allocator_pushes`, `mheap_lut_lookups`,
/// `mheap_lut_writes`, `heap_reads`, `heap_writes`, `majority_updates`, `warp_updates`.
pub fn dwf_cost(d: &DwfScheduler, src: &TechCostSource) -> Result<DesignCost, IssueCostError> {
    for (v, what) in [
        (d.warp_width, "DWF warp width"),
        (d.pool_entries, "DWF warp-pool entries"),
        (d.heap_entries, "DWF max-heap entries"),
        (d.mheap_lut_entries, "DWF MHeap-LUT entries"),
        (d.pc_lut_entries, "DWF PC-warp-LUT entries"),
        (d.rf_line_registers, "DWF RF registers per row"),
    ] {
        if v == 0 {
            return Err(IssueCostError::Zero { what });
        }
    }
    use Access::{Read, Write};
    let ep = d.pool_entries as u64;
    let mut added = vec![flops(
        src,
        "warp update registers",
        2,
        d.warp_update_bits() / 2,
        1,
        1,
        &["warp_updates"],
    )?];
    let mut lut = sram_array(
        src,
        "PC-warp LUT",
        d.pc_lut_entries as u64,
        d.pc_lut_entry_bits(),
        2,
        2,
        &[("lut_lookups", Read), ("lut_writes", Write)],
    )?;
    let tags = logic(
        src,
        "PC-warp LUT",
        LogicKind::EqCmp,
        &[("N", 2 * d.pc_lut_assoc.max(1)), ("WIDTH", d.pc_bits)],
        1.0,
        0,
        &[("lut_lookups", 0.5)],
    )?;
    lut.area_m2 += tags.area_m2;
    lut.leakage_w += tags.leakage_w;
    lut.events[0].energy_j += tags.events[0].energy_j;
    lut.model = format!("{} + {} tag compare", lut.model, tags.model);
    added.push(lut);
    let mut tid = sram_array(
        src,
        "warp pool TID banks",
        ep,
        d.tid_bits,
        1,
        1,
        &[("pool_reads", Read), ("pool_tid_writes", Write)],
    )?;
    let w = d.warp_width as f64;
    tid.area_m2 *= w;
    tid.leakage_w *= w;
    tid.bits *= d.warp_width as u64;
    tid.events[0].energy_j *= w; // an issue reads every slot's TID
    tid.model = format!("{} x {}", d.warp_width, tid.model);
    added.push(tid);
    added.push(sram_array(
        src,
        "warp pool PC bank",
        ep,
        d.pc_bits + d.sd(),
        1,
        2,
        &[("pool_reads", Read), ("pool_pc_writes", Write)],
    )?);
    added.push(sram_array(
        src,
        "warp allocator",
        ep,
        d.ib().max(1),
        1,
        1,
        &[("allocator_pops", Read), ("allocator_pushes", Write)],
    )?);
    let mut mlut = sram_array(
        src,
        "MHeap LUT",
        d.mheap_lut_entries as u64,
        d.mheap_lut_entry_bits(),
        2,
        2,
        &[("mheap_lut_lookups", Read), ("mheap_lut_writes", Write)],
    )?;
    let mtags = logic(
        src,
        "MHeap LUT",
        LogicKind::EqCmp,
        &[("N", 2 * d.mheap_lut_assoc.max(1)), ("WIDTH", d.pc_bits)],
        1.0,
        0,
        &[("mheap_lut_lookups", 0.5)],
    )?;
    mlut.area_m2 += mtags.area_m2;
    mlut.leakage_w += mtags.leakage_w;
    mlut.events[0].energy_j += mtags.events[0].energy_j;
    mlut.model = format!("{} + {} tag compare", mlut.model, mtags.model);
    added.push(mlut);
    added.push(sram_array(
        src,
        "max-heap",
        d.heap_entries as u64,
        d.heap_entry_bits(),
        2,
        2,
        &[("heap_reads", Read), ("heap_writes", Write)],
    )?);
    added.push(flops(
        src,
        "Majority entry",
        1,
        d.majority_bits(),
        1,
        1,
        &["majority_updates"],
    )?);
    // RF decoder overhead (module doc).
    let regs = d.rf_registers.max(d.rf_line_registers) as u64;
    let n = d.rf_line_registers;
    let cap = regs * 4;
    let sram_err = |error| IssueCostError::Sram {
        structure: "RF decoder overhead".into(),
        error,
    };
    let a = rf_area_m2(src, cap, 4 * n as u64, 1).map_err(sram_err)?;
    let b = rf_area_m2(src, cap, 4, n).map_err(sram_err)?;
    added.push(StructureCost {
        name: "RF decoder overhead".into(),
        model: format!(
            "sram {regs}x32b 2R1W: {n} banks minus one array of {n} registers per row (lower bound)"
        ),
        bits: 0,
        area_m2: b - a,
        leakage_w: 0.0,
        events: Vec::new(),
        source: Source::SramModel {
            accuracy: crate::gpu::sram_accuracy(src.node_kind),
        },
        part: None,
    });
    let mut pdom = sram_array(
        src,
        "PDOM stacks",
        2 * d.warp_width as u64,
        2 * d.pc_bits + d.warp_width + 1,
        1,
        1,
        &[],
    )?;
    let wpc = d.warps_per_core() as f64;
    pdom.area_m2 *= wpc;
    pdom.leakage_w *= wpc;
    pdom.bits = d.pdom_stack_bits() * d.warps_per_core() as u64;
    pdom.model = format!(
        "{} x {} (+{}-bit TOS pointer each)",
        d.warps_per_core(),
        pdom.model,
        clog2(2 * d.warp_width as u64 + 1)
    );
    Ok(DesignCost {
        design: "dwf",
        per: "core",
        added,
        removed: Vec::new(),
        line_items: vec![pdom],
    })
}
