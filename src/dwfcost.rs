//! The DWF thread scheduler's hardware in a DWF run's estimate (control-flow spec §5.7, §6):
//! every structure of one core's scheduler costed by [`models::issue::dwf_cost`] at the study's
//! technology point, put into the SMs' "DWF scheduler" group of the tree, and summarised per
//! core and per chip against the die and the core area, with its dynamic energy from the run's
//! §6 structure counters (`KernelActivity::dwf`) and its leakage over the run.
//!
//! # Which structures
//! - Every DWF run has the warp update registers, the PC-warp LUT (with its tag compare), the
//!   warp pool's `w` TID banks and PC/scheduler-data bank, and the allocator.
//! - The Majority entry, max-heap and MHeap LUT exist only under the policies that use them
//!   (`dmaj`, `dmin`, §5.4). The other policies' selection logic (a FIFO, a min-PC or a
//!   minimum-key selector) has no size in the spec and is not costed.
//! - The RF decoder overhead (§5.7) is the area lane-aware DWF needs. A run with
//!   `dwf.lane_aware = false` needs a lane crossbar instead, which is not costed.
//! - The baseline's PDOM stacks are a line item, never subtracted (§5.7 "Chip-level").
//!
//! # Counters → events (summed over the cores)
//! - `warp_updates`, `lut_lookups`, `lut_writes`: one per thread group that reaches formation
//!   (each group is loaded into a warp update register, looks up its PC and updates the entry's
//!   OCC or allocates it, §5.3). LUT invalidations at issue are not counted (a lower bound).
//! - `pool_tid_writes`: the TID-bank writes of every bank; `pool_pc_writes`: the PC-bank writes.
//! - `pool_reads`, `majority_updates`: one per warp issued from the pool (the issue reads the
//!   pool entry and, under Majority, advances `WPH` and `CNT`). Majority-entry updates at insert
//!   are not counted (a lower bound).
//! - `allocator_pops`, `allocator_pushes`; `mheap_lut_lookups`, `mheap_lut_writes`,
//!   `heap_reads`, `heap_writes`: the §6 counters as the model counts them.
//!
//! Run time is the run's pipeline cycles at the chip model's core clock for the study's supply.

use models::gpu::{ChipModel, Estimate, Node, Part, TechCostSource};
use models::issue::{dwf_cost, DwfScheduler, IssueCostError, StructureCost};
use models::technique::Edit;
use serde::Serialize;
use sim::activity::{DwfCounts, KernelActivity};
use sim::config::reconv::DwfPolicy;
use sim::config::GpuConfig;
use sim::timing::dwf_hw_inputs;

/// One DWF structure of a run.
#[derive(Clone, Debug, Serialize)]
pub struct DwfStructure {
    /// Name.
    pub name: String,
    /// Component model and size.
    pub model: String,
    /// State bits per core.
    pub bits_per_core: u64,
    /// Area per core, mm².
    pub area_per_core_mm2: f64,
    /// Leakage per core, W.
    pub leakage_per_core_w: f64,
    /// Dynamic energy over the run (all cores), J.
    pub dynamic_j: f64,
    /// Leakage energy over the run (all cores), J.
    pub leakage_j: f64,
}

/// The DWF hardware of one run.
#[derive(Clone, Debug, Serialize)]
pub struct DwfHardware {
    /// Technology point it was costed at.
    pub tech: String,
    /// Shader cores.
    pub cores: u32,
    /// The structures (scheduler and RF decoders).
    pub structures: Vec<DwfStructure>,
    /// Scheduler + RF decoder area per core, mm².
    pub area_per_core_mm2: f64,
    /// The same over the chip (× cores), mm² (§5.7 ΔA_chip).
    pub area_chip_mm2: f64,
    /// `dwf.die_area_mm2`, the die the chip-level overhead is reported against.
    pub die_area_mm2: f64,
    /// `area_chip_mm2 / die_area_mm2`.
    pub die_share: f64,
    /// Area of one core (SM) in the chip model at this technology point, mm².
    pub core_area_mm2: f64,
    /// `area_per_core_mm2 / core_area_mm2`.
    pub core_share: f64,
    /// The baseline's PDOM stacks per core (line item, not subtracted), mm².
    pub pdom_stacks_per_core_mm2: f64,
    /// Leakage of the structures per core, W.
    pub leakage_per_core_w: f64,
    /// Run time at the chip model's core clock, s.
    pub runtime_s: f64,
    /// Dynamic energy of the structures over the run, J.
    pub dynamic_j: f64,
    /// Leakage energy of the structures over the run, J.
    pub leakage_j: f64,
    /// What the figures leave out.
    pub notes: Vec<String>,
}

/// The DWF scheduler of `cfg` in the component model's terms (`[dwf]`, `gpu.warp_size`,
/// `sm.max_threads`; thread-id width from [`dwf_hw_inputs`]).
pub fn scheduler(cfg: &GpuConfig) -> DwfScheduler {
    let d = &cfg.dwf;
    let hw = dwf_hw_inputs(cfg);
    DwfScheduler {
        warp_width: cfg.gpu.warp_size,
        tid_bits: hw.tid_bits,
        pc_bits: d.pc_bits,
        pool_entries: d.pool_entries,
        heap_entries: d.heap_entries,
        mheap_lut_entries: d.mheap_lut_entries,
        mheap_lut_assoc: d.mheap_lut_ways,
        pc_lut_entries: d.pc_lut_entries,
        pc_lut_assoc: d.pc_lut_ways,
        threads_per_core: cfg.sm.max_threads,
        rf_registers: d.rf_regs_per_core,
        rf_line_registers: d.simd_width,
    }
}

/// True for the policies that use the Majority hardware (§5.4).
fn uses_majority(p: DwfPolicy) -> bool {
    matches!(p, DwfPolicy::Dmaj | DwfPolicy::Dmin)
}

/// The event count named `c` in `s` (module doc).
fn counter(s: &DwfCounts, c: &str) -> f64 {
    let m = s.majority.as_ref();
    let fv = |g: fn(&sim::timing::dwf::formation::FormationStats) -> u64| g(&s.formation);
    let mv = |g: fn(&sim::timing::dwf::majority::MajorityStats) -> u64| m.map_or(0, g);
    (match c {
        "warp_updates" | "lut_lookups" | "lut_writes" => fv(|x| x.lut_lookups),
        "pool_tid_writes" => fv(|x| x.tid_bank_writes.iter().sum()),
        "pool_pc_writes" => fv(|x| x.pc_bank_writes),
        "pool_reads" | "allocator_pushes" => fv(|x| x.alloc_pushes),
        "majority_updates" if m.is_some() => fv(|x| x.alloc_pushes),
        "allocator_pops" => fv(|x| x.alloc_pops),
        "mheap_lut_lookups" => mv(|x| x.mheap_lut_lookups),
        "mheap_lut_writes" => mv(|x| x.mheap_lut_writes),
        "heap_reads" => mv(|x| x.heap_reads),
        "heap_writes" => mv(|x| x.heap_writes),
        _ => 0,
    }) as f64
}

/// Costs the DWF hardware of a run of `cfg` of `cycles` with counters `s` (module doc), with
/// the component costs of the structures kept (in the same order); `core_area_mm2` is one
/// core's area in the run's estimate, `core_clock_hz` the chip model's clock.
fn costed(
    cfg: &GpuConfig,
    s: &DwfCounts,
    cycles: u64,
    src: &TechCostSource,
    tech: &str,
    core_clock_hz: f64,
    core_area_mm2: f64,
) -> Result<(DwfHardware, Vec<StructureCost>), IssueCostError> {
    let d = dwf_cost(&scheduler(cfg), src)?;
    let majority = uses_majority(cfg.dwf.policy);
    let keep = |st: &StructureCost| {
        let heap = matches!(
            st.name.as_str(),
            "Majority entry" | "max-heap" | "MHeap LUT"
        );
        let dec = st.name == "RF decoder overhead";
        (majority || !heap) && (cfg.dwf.lane_aware || !dec)
    };
    let cores = cfg.gpu.n_sm;
    let n = cores as f64;
    let runtime_s = cycles as f64 / core_clock_hz.max(1.0);
    let count = |c: &str| counter(s, c);
    let kept: Vec<StructureCost> = d.added.iter().filter(|st| keep(st)).cloned().collect();
    let structures: Vec<DwfStructure> = kept
        .iter()
        .map(|st| DwfStructure {
            name: st.name.clone(),
            model: st.model.clone(),
            bits_per_core: st.bits,
            area_per_core_mm2: st.area_m2 * 1e6,
            leakage_per_core_w: st.leakage_w,
            dynamic_j: st.dynamic_j(&count),
            leakage_j: st.leakage_w * n * runtime_s,
        })
        .collect();
    let area_per_core_mm2: f64 = structures.iter().map(|x| x.area_per_core_mm2).sum();
    let area_chip_mm2 = area_per_core_mm2 * n;
    let die_area_mm2 = cfg.dwf.die_area_mm2 as f64;
    let mut notes = vec![
        "LUT invalidations at issue and Majority-entry updates at insert are not counted \
         (dynamic energy is a lower bound)"
            .to_string(),
        "the RF decoder overhead ignores wiring (a lower bound, control-flow spec 5.7)".to_string(),
    ];
    if !majority {
        notes.push(format!(
            "policy {}: its selection logic has no size in the spec and is not costed",
            cfg.dwf.policy.as_str()
        ));
    }
    if !cfg.dwf.lane_aware {
        notes.push(
            "dwf.lane_aware = false: the lane crossbar it needs is not costed, and no RF \
             decoders are added"
                .to_string(),
        );
    }
    let share = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    Ok((
        DwfHardware {
            tech: tech.to_string(),
            cores,
            area_per_core_mm2,
            area_chip_mm2,
            die_area_mm2,
            die_share: share(area_chip_mm2, die_area_mm2),
            core_area_mm2,
            core_share: share(area_per_core_mm2, core_area_mm2),
            pdom_stacks_per_core_mm2: d.line_items.iter().map(|l| l.area_m2).sum::<f64>() * 1e6,
            leakage_per_core_w: structures.iter().map(|x| x.leakage_per_core_w).sum(),
            runtime_s,
            dynamic_j: structures.iter().map(|x| x.dynamic_j).sum(),
            leakage_j: structures.iter().map(|x| x.leakage_j).sum(),
            structures,
            notes,
        },
        kept,
    ))
}

/// Costs the DWF hardware of the run `k` of `cfg` (when it carries DWF counters) on its
/// estimate `e`: the record and the edit that adds it as a "DWF scheduler" group of the SMs,
/// one leaf per structure: area and leakage power of every core's copy, dynamic energy from the
/// counters, leakage over the run.
pub fn cost_with_edit(
    cfg: &GpuConfig,
    src: &TechCostSource,
    chip: &ChipModel,
    k: &KernelActivity,
    e: &Estimate,
) -> Result<Option<(DwfHardware, Edit)>, IssueCostError> {
    let Some(counts) = k.dwf.as_ref() else {
        return Ok(None);
    };
    let core = crate::issuecost::sm_area_mm2(&e.root);
    let (h, kept) = costed(
        cfg,
        counts,
        k.cycles,
        src,
        &src.label,
        chip.core_clock_hz,
        core,
    )?;
    let edit = edit(&h, &kept);
    Ok(Some((h, edit)))
}

/// The edit that adds the hardware `h` (with the component costs `kept` of its structures, in
/// the same order) as a "DWF scheduler" group of the SMs, one leaf per structure: area and
/// leakage power of every core's copy, the run's dynamic and leakage energy.
fn edit(h: &DwfHardware, kept: &[StructureCost]) -> Edit {
    let n = h.cores;
    let leaves: Vec<Node> = h
        .structures
        .iter()
        .zip(kept)
        .map(|(x, st)| {
            crate::issuecost::structure_leaf(
                x.name.clone(),
                st.source.clone(),
                n,
                x.area_per_core_mm2 * 1e-6 * n as f64,
                (x.dynamic_j, x.leakage_j, x.leakage_per_core_w * n as f64),
            )
        })
        .collect();
    Edit::Append {
        parent: Part::Sms,
        nodes: vec![Node::group("DWF scheduler", leaves)],
    }
}

/// The DWF scheduler of `cfg` in the static tree `e` of the chip (no run): the edit a DWF
/// run's costing makes ([`cost_with_edit`]), with the structures' area and leakage power and no
/// energy; `None` unless `cfg` runs DWF (`reconv.mode = "dwf"`).
pub fn static_edit(
    cfg: &GpuConfig,
    src: &TechCostSource,
    chip: &ChipModel,
    e: &Estimate,
) -> Result<Option<Edit>, IssueCostError> {
    if cfg.reconv.mode != sim::config::reconv::ReconvMode::Dwf {
        return Ok(None);
    }
    let core = crate::issuecost::sm_area_mm2(&e.root);
    let (h, kept) = costed(
        cfg,
        &DwfCounts::default(),
        0,
        src,
        &src.label,
        chip.core_clock_hz,
        core,
    )?;
    Ok(Some(edit(&h, &kept)))
}
