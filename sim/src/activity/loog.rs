//! The LOOG issue stage's activity counters (issue-stage §5), summed over the SMs of a kernel:
//! collector-unit allocations, occupancy and allocation periods; RAT reads and writes; RF
//! reads, writes and the writes eliminated by a younger writer (WAW); broadcasts, captures and
//! write-back-buffer writes; UUID comparisons; allocation stalls; RRS allocations, occupancy
//! and allocation periods; reorders with their UUID distances; and dispatches held by a busy
//! unit. Present in a kernel's record only when `sched.ooo.mode = "loog"`. Also
//! [`LoogHwInputs`], the inputs of the §4 bit-count formulas the cost models read, derived
//! from the configuration ([`LoogHwInputs::of_config`]).

use serde::{Deserialize, Serialize};

/// Bins of the allocation-period histograms: bin 0 counts periods of 0 cycles, bin k ≥ 1
/// periods of 2^(k−1)..2^k − 1 cycles, the last bin everything longer.
pub const LOOG_PERIOD_BINS: usize = 17;

/// Unit classes of `unit_busy_stalls`, in order.
pub const LOOG_UNIT_NAMES: [&str; 6] = ["sp", "dp", "int", "sfu", "mem", "none"];

/// LOOG counters of one kernel (all SMs, all launches).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoogStats {
    /// CUs per issue slice, N_cu.
    pub n_cu: u32,
    /// RRS entries per issue slice, R (0 = no RRS).
    pub n_rrs: u32,
    /// Write-back buffers per slice.
    pub wb_buffers: u32,
    /// Instructions allocated a CU.
    pub cu_allocs: u64,
    /// Per slice-cycle: allocated CUs (index = count, 0..=N_cu).
    pub cu_occupancy_hist: Vec<u64>,
    /// CU allocation periods, allocation to free (log2 bins, [`LOOG_PERIOD_BINS`]).
    pub cu_alloc_period_hist: Vec<u64>,
    /// RAT entries read (one per source at the RAT visit, one per destination at the
    /// write-back check).
    pub rat_reads: u64,
    /// RAT entries (with their producer's `dispatched` bit) read to order the allocation, one
    /// per source of each I-buffer head looked at (`sched.ooo.loog_ready_first`).
    #[serde(default)]
    pub head_probes: u64,
    /// RAT entries written (renames at the RAT visit, `from_rf` at the broadcast).
    pub rat_writes: u64,
    /// Source operands read from the register file.
    pub rf_reads: u64,
    /// Granted CUs whose operand read found its bank taken in that cycle.
    pub rf_read_conflicts: u64,
    /// Destination registers written to the register file.
    pub rf_writes: u64,
    /// Register-file writes eliminated because a younger writer owned the register (WAW).
    pub rf_writes_skipped: u64,
    /// Results broadcast through the write-back buffer.
    pub broadcasts: u64,
    /// Operands captured from a broadcast.
    pub captures: u64,
    /// Write-back-buffer writes (one per buffer per broadcast).
    pub wb_buffer_writes: u64,
    /// UUID age comparisons made by the dispatch rule (LSU order and WAR guard).
    pub uuid_comparisons: u64,
    /// Slice-cycles in which an instruction found no free CU.
    pub no_cu_stall: u64,
    /// Slice-cycles in which an allocation waited for the UUID overflow to clear.
    pub uuid_overflow_stall: u64,
    /// Slice-cycles in which an instruction with a write-back found no free RRS entry.
    pub no_rrs_stall: u64,
    /// Ready CUs held because no RRS entry was free at dispatch (RTL check).
    pub no_rrs_dispatch_stall: u64,
    /// RRS entries allocated.
    pub rrs_allocs: u64,
    /// Per slice-cycle: allocated RRS entries (index = count, 0..=R; empty without an RRS).
    pub rrs_occupancy_hist: Vec<u64>,
    /// RRS allocation periods (log2 bins, [`LOOG_PERIOD_BINS`]; empty without an RRS).
    pub rrs_alloc_period_hist: Vec<u64>,
    /// CUs dispatched.
    pub dispatches: u64,
    /// Dispatches that bypassed an older undispatched CU of the same warp.
    pub reorders: u64,
    /// Per reorder: UUID distance to the oldest bypassed instruction (index 1..=15, 15 = 15 or
    /// more; index 0 unused).
    pub reorder_distance_hist: Vec<u64>,
    /// Ready CUs passed over because their unit could not accept, per unit class
    /// ([`LOOG_UNIT_NAMES`]).
    pub unit_busy_stalls: Vec<u64>,
    /// The memory queues' counters (`sched.ooo.loog_lsq`; absent without them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lsq: Option<LsqStats>,
}

/// Counters of LOOG's load and store queues (issue-stage §3.2, `sched.ooo.loog_lsq`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LsqStats {
    /// Load-queue entries reserved (loads).
    pub lq_allocs: u64,
    /// Store-queue entries reserved (stores and atomics).
    pub sq_allocs: u64,
    /// Slice-cycles an allocation waited for a load- or store-queue entry.
    pub full_stall: u64,
    /// Address comparisons of a ready memory instruction against the older memory
    /// instructions of its warp still in a CU (the queues' CAM searches).
    pub searches: u64,
    /// Ready memory instructions held by an older store of the warp whose address is not
    /// resolved yet (its operands not all in the CU).
    pub unresolved_holds: u64,
    /// Ready memory instructions held by an older store whose address range overlaps theirs,
    /// or stores held by an older overlapping load.
    pub address_holds: u64,
    /// Ready memory instructions held by an older memory barrier.
    pub barrier_holds: u64,
    /// Memory instructions dispatched while an older memory instruction of the warp still
    /// waited in a CU (what the queues allow and in-order LSU dispatch does not).
    pub bypasses: u64,
}

impl LsqStats {
    fn merge(&mut self, o: &LsqStats) {
        self.lq_allocs += o.lq_allocs;
        self.sq_allocs += o.sq_allocs;
        self.full_stall += o.full_stall;
        self.searches += o.searches;
        self.unresolved_holds += o.unresolved_holds;
        self.address_holds += o.address_holds;
        self.barrier_holds += o.barrier_holds;
        self.bypasses += o.bypasses;
    }
}

impl LoogStats {
    /// Empty counters for `n_cu` CUs and `n_rrs` RRS entries per slice.
    pub fn new(n_cu: u32, n_rrs: u32, wb_buffers: u32) -> LoogStats {
        let rrs = n_rrs > 0;
        LoogStats {
            n_cu,
            n_rrs,
            wb_buffers,
            cu_occupancy_hist: vec![0; n_cu as usize + 1],
            cu_alloc_period_hist: vec![0; LOOG_PERIOD_BINS],
            rrs_occupancy_hist: if rrs {
                vec![0; n_rrs as usize + 1]
            } else {
                Vec::new()
            },
            rrs_alloc_period_hist: if rrs {
                vec![0; LOOG_PERIOD_BINS]
            } else {
                Vec::new()
            },
            reorder_distance_hist: vec![0; 16],
            unit_busy_stalls: vec![0; LOOG_UNIT_NAMES.len()],
            ..Default::default()
        }
    }

    /// Element-wise sum (SMs of a launch, launches of a kernel, the aggregate).
    pub fn merge(&mut self, o: &LoogStats) {
        self.n_cu = self.n_cu.max(o.n_cu);
        self.n_rrs = self.n_rrs.max(o.n_rrs);
        self.wb_buffers = self.wb_buffers.max(o.wb_buffers);
        self.cu_allocs += o.cu_allocs;
        add_hist(&mut self.cu_occupancy_hist, &o.cu_occupancy_hist);
        add_hist(&mut self.cu_alloc_period_hist, &o.cu_alloc_period_hist);
        self.rat_reads += o.rat_reads;
        self.head_probes += o.head_probes;
        self.rat_writes += o.rat_writes;
        self.rf_reads += o.rf_reads;
        self.rf_read_conflicts += o.rf_read_conflicts;
        self.rf_writes += o.rf_writes;
        self.rf_writes_skipped += o.rf_writes_skipped;
        self.broadcasts += o.broadcasts;
        self.captures += o.captures;
        self.wb_buffer_writes += o.wb_buffer_writes;
        self.uuid_comparisons += o.uuid_comparisons;
        self.no_cu_stall += o.no_cu_stall;
        self.uuid_overflow_stall += o.uuid_overflow_stall;
        self.no_rrs_stall += o.no_rrs_stall;
        self.no_rrs_dispatch_stall += o.no_rrs_dispatch_stall;
        self.rrs_allocs += o.rrs_allocs;
        add_hist(&mut self.rrs_occupancy_hist, &o.rrs_occupancy_hist);
        add_hist(&mut self.rrs_alloc_period_hist, &o.rrs_alloc_period_hist);
        self.dispatches += o.dispatches;
        self.reorders += o.reorders;
        add_hist(&mut self.reorder_distance_hist, &o.reorder_distance_hist);
        add_hist(&mut self.unit_busy_stalls, &o.unit_busy_stalls);
        if let Some(l) = &o.lsq {
            self.lsq.get_or_insert_with(Default::default).merge(l);
        }
    }

    /// Mean allocated CUs per slice-cycle.
    pub fn mean_cu_occupancy(&self) -> f64 {
        mean_of(&self.cu_occupancy_hist)
    }

    /// Reorders per dispatch.
    pub fn reorder_fraction(&self) -> f64 {
        ratio(self.reorders as f64, self.dispatches as f64)
    }
}

fn add_hist(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

fn ratio(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        0.0
    } else {
        a / b
    }
}

fn mean_of(h: &[u64]) -> f64 {
    let n: u64 = h.iter().sum();
    let s: u64 = h.iter().enumerate().map(|(i, &c)| i as u64 * c).sum();
    ratio(s as f64, n as f64)
}

impl super::IssueStageCounters for LoogStats {
    fn json_key(&self) -> &'static str {
        "loog"
    }

    /// The counters with `mean_cu_occupancy` and `reorder_fraction` added.
    fn summary_json(&self) -> serde_json::Value {
        let mut j = serde_json::to_value(self).expect("LoogStats serialises");
        if let Some(m) = j.as_object_mut() {
            m.insert("mean_cu_occupancy".into(), self.mean_cu_occupancy().into());
            m.insert("reorder_fraction".into(), self.reorder_fraction().into());
        }
        j
    }

    /// Collector units, RAT, register file, broadcasts, stalls, the memory queues, the RRS and
    /// reorders (issue-stage §5).
    fn summary_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let rrs = if self.n_rrs > 0 {
            format!(", RRS {} entries", self.n_rrs)
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "LOOG issue ({} CUs per slice{rrs}, {} WB buffer(s)):",
            self.n_cu, self.wb_buffers
        );
        let _ = writeln!(
            s,
            "  CU allocations {}  dispatches {}  mean CU occupancy {:.2} per slice",
            self.cu_allocs,
            self.dispatches,
            self.mean_cu_occupancy()
        );
        let _ = writeln!(
            s,
            "  RAT reads {}  writes {}  UUID comparisons {}",
            self.rat_reads, self.rat_writes, self.uuid_comparisons
        );
        let _ = writeln!(
            s,
            "  RF reads {} (bank waits {})  RF writes {}  skipped by WAW elimination {}",
            self.rf_reads, self.rf_read_conflicts, self.rf_writes, self.rf_writes_skipped
        );
        let _ = writeln!(
            s,
            "  broadcasts {}  captures {}  WB-buffer writes {}",
            self.broadcasts, self.captures, self.wb_buffer_writes
        );
        let busy: Vec<String> = LOOG_UNIT_NAMES
            .iter()
            .zip(&self.unit_busy_stalls)
            .filter(|(_, &n)| n > 0)
            .map(|(u, n)| format!("{u} {n}"))
            .collect();
        let _ = writeln!(
            s,
            "  stalls: no_cu {}  uuid_overflow {}  no_rrs {}  rrs at dispatch {}  unit busy [{}]",
            self.no_cu_stall,
            self.uuid_overflow_stall,
            self.no_rrs_stall,
            self.no_rrs_dispatch_stall,
            busy.join(", ")
        );
        if let Some(l) = &self.lsq {
            let _ = writeln!(
                s,
                "  memory queues: LQ {} SQ {} entries taken, full {} slice-cycles, {} address \
                 searches; held by unresolved store {}, overlap {}, barrier {}; bypasses {}",
                l.lq_allocs,
                l.sq_allocs,
                l.full_stall,
                l.searches,
                l.unresolved_holds,
                l.address_holds,
                l.barrier_holds,
                l.bypasses
            );
        }
        if self.n_rrs > 0 {
            let _ = writeln!(s, "  RRS allocations {}", self.rrs_allocs);
        }
        let _ = writeln!(
            s,
            "  reorders {} ({:.1}% of dispatches)",
            self.reorders,
            100.0 * self.reorder_fraction()
        );
        s
    }
}

/// The §4 inputs of a LOOG configuration, per issue slice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoogHwInputs {
    /// Issue slices per SM (one LOOG instance each).
    pub slices_per_sm: u32,
    /// SMs of the GPU.
    pub n_sm: u32,
    /// CUs per slice, N_cu.
    pub n_cu: u32,
    /// RRS entries per slice, R (0 = none).
    pub n_rrs: u32,
    /// Producer ids, N_id (N_cu without an RRS, R with one).
    pub n_id: u32,
    /// ⌈log2 N_id⌉: the `src_id` width of the RAT and the CU operands.
    pub id_bits: u32,
    /// Warps per slice, W.
    pub warps_per_slice: u32,
    /// Threads per warp, T.
    pub threads_per_warp: u32,
    /// Data width D in bits.
    pub data_bits: u32,
    /// UUID width U.
    pub uuid_bits: u32,
    /// Architectural registers per warp renamed by the RAT, A (GPRs and predicates).
    pub arch_regs: u32,
    /// Source operands per CU (rs1..rs3 on Vortex).
    pub operands_per_cu: u32,
    /// Write-back broadcast buffers, n_wb.
    pub wb_buffers: u32,
    /// CUs granted the register file at once.
    pub rf_read_ports: u32,
}

impl LoogHwInputs {
    /// The §4 inputs of a LOOG configuration (`None` when `sched.ooo.mode` is not "loog"):
    /// one LOOG instance per issue slice; T = `gpu.warp_size`, D = 32-bit registers, A = the
    /// 255 general registers plus 7 predicates the RAT renames, 3 operands per CU (rs1..rs3).
    pub fn of_config(cfg: &crate::config::GpuConfig) -> Option<Self> {
        let o = &cfg.sched.ooo;
        if o.mode != crate::config::OooMode::Loog {
            return None;
        }
        let slices = cfg.loog_slices();
        let (n_cu, n_rrs) = (cfg.loog_n_cu(), cfg.loog_rrs_entries());
        let n_id = if n_rrs > 0 { n_rrs } else { n_cu };
        Some(Self {
            slices_per_sm: slices,
            n_sm: cfg.gpu.n_sm,
            n_cu,
            n_rrs,
            n_id,
            // ⌈log2 N_id⌉ (0 for N_id ≤ 1)
            id_bits: u32::BITS - n_id.saturating_sub(1).leading_zeros(),
            warps_per_slice: cfg.sm.max_warps.div_ceil(slices),
            threads_per_warp: cfg.gpu.warp_size,
            data_bits: 32,
            uuid_bits: o.loog_uuid_bits,
            arch_regs: 255 + 7,
            operands_per_cu: 3,
            wb_buffers: o.loog_wb_buffers,
            rf_read_ports: o.loog_rf_read_ports,
        })
    }

    /// RAT bits per slice: `W · A · (1 + ⌈log2 N_id⌉)` (§4).
    pub fn rat_bits(&self) -> u64 {
        self.warps_per_slice as u64 * self.arch_regs as u64 * (1 + self.id_bits) as u64
    }

    /// UUID age comparators per slice: `N_cu (N_cu − 1)` (§4).
    pub fn uuid_comparators(&self) -> u64 {
        let n = self.n_cu as u64;
        n * n.saturating_sub(1)
    }

    /// WAR-guard register-id comparators per slice: `3 · N_cu (N_cu − 1)` (§4).
    pub fn war_comparators(&self) -> u64 {
        3 * self.uuid_comparators()
    }
}
