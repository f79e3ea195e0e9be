//! Input structs of the in-order baseline's issue stage and of dynamic warp formation's
//! scheduler and their bit-count formulas (issue-stage spec §4, control-flow spec §5.7),
//! written term for term as the specs give them; each out-of-order design keeps its own in its
//! module of `issue/`. A module of its own below both the chip model (`gpu/`), which sizes the
//! baseline's instruction-buffer and scoreboard leaves with it, and `issue/`, which maps the
//! structures onto the component models and re-exports this module as `issue::bits`.
//!
//! Symbols (issue-stage §4): N IB depth, P PC bits, Rb GPR id bits, Pb predicate id bits,
//! ns/nd GPR sources/destinations, nps/npd predicate sources/destinations, Dd decoded-payload
//! bits, C ready-counter bits, W warps per SM, S SMs, A architectural registers per warp.
//! Every operand field carries one extra "present" bit.

/// ⌈log2 n⌉, 0 for n ≤ 1.
pub fn clog2(n: u64) -> u32 {
    if n <= 1 {
        0
    } else {
        64 - (n - 1).leading_zeros()
    }
}

/// The instruction fields an instruction-buffer entry holds (issue-stage §4 symbols).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstFields {
    /// P: PC bits.
    pub pc_bits: u32,
    /// Rb: GPR id bits.
    pub gpr_id_bits: u32,
    /// Pb: predicate id bits.
    pub pred_id_bits: u32,
    /// ns: GPR sources per instruction.
    pub gpr_srcs: u32,
    /// nd: GPR destinations per instruction.
    pub gpr_dsts: u32,
    /// nps: predicate sources per instruction.
    pub pred_srcs: u32,
    /// npd: predicate destinations per instruction.
    pub pred_dsts: u32,
    /// Dd: decoded-payload bits (opcode, unit class, immediates, flags).
    pub payload_bits: u32,
}

impl Default for InstFields {
    /// The spec's SASS-like defaults (P = 32, Rb = 8, Pb = 3, ns = 3, nd = 1, nps = npd = 1).
    /// The spec gives no Dd; 64 bits is this model's choice: a 12-bit opcode, a 3-bit unit
    /// class, a 32-bit immediate and 17 bits of modifiers and flags.
    fn default() -> Self {
        InstFields {
            pc_bits: 32,
            gpr_id_bits: 8,
            pred_id_bits: 3,
            gpr_srcs: 3,
            gpr_dsts: 1,
            pred_srcs: 1,
            pred_dsts: 1,
            payload_bits: 64,
        }
    }
}

impl InstFields {
    /// Register operand fields with their present bits:
    /// `ns(Rb+1) + nd(Rb+1) + nps(Pb+1) + npd(Pb+1)`.
    pub fn operand_bits(&self) -> u64 {
        let (rb, pb) = (self.gpr_id_bits as u64 + 1, self.pred_id_bits as u64 + 1);
        (self.gpr_srcs + self.gpr_dsts) as u64 * rb + (self.pred_srcs + self.pred_dsts) as u64 * pb
    }

    /// `E_b = 1 + P + ns(Rb+1) + nd(Rb+1) + nps(Pb+1) + npd(Pb+1) + Dd`: one baseline entry.
    pub fn baseline_entry_bits(&self) -> u64 {
        1 + self.pc_bits as u64 + self.operand_bits() + self.payload_bits as u64
    }

    /// GPR comparators per existing entry at insert: `nd·(ns+nd) + ns·nd`.
    pub fn gpr_comparators(&self) -> u64 {
        let (ns, nd) = (self.gpr_srcs as u64, self.gpr_dsts as u64);
        nd * (ns + nd) + ns * nd
    }

    /// Predicate comparators per existing entry at insert: `npd·(nps+npd) + nps·npd`.
    pub fn pred_comparators(&self) -> u64 {
        let (ns, nd) = (self.pred_srcs as u64, self.pred_dsts as u64);
        nd * (ns + nd) + ns * nd
    }
}

/// The in-order baseline's per-warp issue state (issue-stage §1.2, §4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BaselineIssue {
    /// Entry fields.
    pub fields: InstFields,
    /// Entries of the per-warp I-buffer (2 in the spec).
    pub ib_entries: u32,
    /// A: architectural registers per warp (GPR + predicate).
    pub arch_regs: u32,
    /// Cw: bits of each pending-read (WAR) counter ([G] 2–3).
    pub reader_ctr_bits: u32,
    /// SIMT-stack entries per warp (for the line item; not in any delta).
    pub simt_depth: u32,
    /// Warp width w (the SIMT stack's active-mask bits).
    pub warp_width: u32,
}

impl Default for BaselineIssue {
    /// Two IB entries, A = 2^Rb + 2^Pb (every register the id fields can name: 256 GPRs and 8
    /// predicates), Cw = 2, a 32-deep SIMT stack of 32-lane masks.
    fn default() -> Self {
        let fields = InstFields::default();
        BaselineIssue {
            fields,
            ib_entries: 2,
            arch_regs: (1 << fields.gpr_id_bits) + (1 << fields.pred_id_bits),
            reader_ctr_bits: 2,
            simt_depth: 32,
            warp_width: 32,
        }
    }
}

impl BaselineIssue {
    /// The baseline issue stage of `cfg`: its I-buffer entries per warp
    /// (`frontend.ibuffer_entries`), the §4 defaults otherwise. The chip model's instruction
    /// buffer and scoreboard leaves and every issue-stage comparison's baseline are this one
    /// design.
    pub fn of_config(cfg: &sim::config::GpuConfig) -> BaselineIssue {
        BaselineIssue {
            ib_entries: cfg.frontend.ibuffer_entries.max(1),
            ..Default::default()
        }
    }

    /// IB bits: `ib_entries · E_b` (`2 · E_b` in the spec).
    pub fn ib_bits(&self) -> u64 {
        self.ib_entries as u64 * self.fields.baseline_entry_bits()
    }

    /// Pending-write scoreboard: `A` bits.
    pub fn pending_write_bits(&self) -> u64 {
        self.arch_regs as u64
    }

    /// Pending-read (WAR) scoreboard: `A · Cw` bits.
    pub fn pending_read_bits(&self) -> u64 {
        self.arch_regs as u64 * self.reader_ctr_bits as u64
    }

    /// SIMT stack: `depth · (2P + w + 1)` bits (excluded from deltas).
    pub fn simt_bits(&self) -> u64 {
        self.simt_depth as u64 * (2 * self.fields.pc_bits as u64 + self.warp_width as u64 + 1)
    }

    /// The per-warp bits of the IB and both scoreboards (what a design that replaces all
    /// three removes).
    pub fn delta_bits(&self) -> u64 {
        self.ib_bits() + self.pending_write_bits() + self.pending_read_bits()
    }
}

/// Dynamic warp formation's scheduler of one shader core (control-flow §5.2, §5.7).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DwfScheduler {
    /// w: warp width.
    pub warp_width: u32,
    /// tb: TID bits.
    pub tid_bits: u32,
    /// P: PC bits.
    pub pc_bits: u32,
    /// E_p: warp-pool entries (and allocator entries).
    pub pool_entries: u32,
    /// E_h: max-heap entries.
    pub heap_entries: u32,
    /// E_m: MHeap-LUT entries.
    pub mheap_lut_entries: u32,
    /// MHeap-LUT associativity.
    pub mheap_lut_assoc: u32,
    /// E_l: PC-warp-LUT entries.
    pub pc_lut_entries: u32,
    /// PC-warp-LUT associativity.
    pub pc_lut_assoc: u32,
    /// Threads per core (the count width `cnt = ⌈log2(threads + 1)⌉`).
    pub threads_per_core: u32,
    /// Registers per core in the RF decoder comparison (8192 × 32 bits).
    pub rf_registers: u32,
    /// Registers per row / banks in the RF decoder comparison (n).
    pub rf_line_registers: u32,
}

impl Default for DwfScheduler {
    /// The `gf8800gtx_like` defaults of control-flow §5.6–§5.8: w = 32, tb = 10, P = 24, pool
    /// 128, heap 64, MHeap LUT 128 (8-way), PC-warp LUT 64 (4-way), 768 threads per core, an
    /// RF of 8192 registers compared at n = 8 (the SIMD width: one decoder per lane group).
    fn default() -> Self {
        DwfScheduler {
            warp_width: 32,
            tid_bits: 10,
            pc_bits: 24,
            pool_entries: 128,
            heap_entries: 64,
            mheap_lut_entries: 128,
            mheap_lut_assoc: 8,
            pc_lut_entries: 64,
            pc_lut_assoc: 4,
            threads_per_core: 768,
            rf_registers: 8192,
            rf_line_registers: 8,
        }
    }
}

impl DwfScheduler {
    /// ib = ⌈log2 E_p⌉.
    pub fn ib(&self) -> u32 {
        clog2(self.pool_entries as u64)
    }

    /// cnt = ⌈log2(threads_per_core + 1)⌉.
    pub fn cnt(&self) -> u32 {
        clog2(self.threads_per_core as u64 + 1)
    }

    /// sd = ib + 1 (the Next pointer with its valid bit).
    pub fn sd(&self) -> u32 {
        self.ib() + 1
    }

    /// Warp update registers: `2·(w·tb + P + w)`.
    pub fn warp_update_bits(&self) -> u64 {
        let w = self.warp_width as u64;
        2 * (w * self.tid_bits as u64 + self.pc_bits as u64 + w)
    }

    /// PC-warp LUT: `E_l·(P + w + ib)`.
    pub fn pc_lut_bits(&self) -> u64 {
        self.pc_lut_entries as u64 * self.pc_lut_entry_bits() as u64
    }

    /// One PC-warp LUT entry: `P + w + ib`.
    pub fn pc_lut_entry_bits(&self) -> u32 {
        self.pc_bits + self.warp_width + self.ib()
    }

    /// Warp pool: `E_p·(w·tb + P + sd)`.
    pub fn pool_bits(&self) -> u64 {
        self.pool_entries as u64
            * (self.warp_width as u64 * self.tid_bits as u64
                + self.pc_bits as u64
                + self.sd() as u64)
    }

    /// Warp allocator: `E_p·ib`.
    pub fn allocator_bits(&self) -> u64 {
        self.pool_entries as u64 * self.ib() as u64
    }

    /// One MHeap-LUT entry: `P + ⌈log2 E_h⌉ + 1`.
    pub fn mheap_lut_entry_bits(&self) -> u32 {
        self.pc_bits + clog2(self.heap_entries as u64) + 1
    }

    /// MHeap LUT: `E_m·(P + ⌈log2 E_h⌉ + 1)`.
    pub fn mheap_lut_bits(&self) -> u64 {
        self.mheap_lut_entries as u64 * self.mheap_lut_entry_bits() as u64
    }

    /// One max-heap entry: `P + cnt + 2(ib+1) + ⌈log2 E_m⌉ + 1`.
    pub fn heap_entry_bits(&self) -> u32 {
        self.pc_bits + self.cnt() + 2 * (self.ib() + 1) + clog2(self.mheap_lut_entries as u64) + 1
    }

    /// Max-heap: `E_h·(P + cnt + 2(ib+1) + ⌈log2 E_m⌉ + 1)`.
    pub fn heap_bits(&self) -> u64 {
        self.heap_entries as u64 * self.heap_entry_bits() as u64
    }

    /// Majority entry: `P + cnt + 2(ib+1)`.
    pub fn majority_bits(&self) -> u64 {
        (self.pc_bits + self.cnt() + 2 * (self.ib() + 1)) as u64
    }

    /// PDOM stack of one warp: `2w·(2P + w + 1)` plus a ⌈log2(2w+1)⌉-bit TOS pointer.
    pub fn pdom_stack_bits(&self) -> u64 {
        let w = self.warp_width as u64;
        2 * w * (2 * self.pc_bits as u64 + w + 1) + clog2(2 * w + 1) as u64
    }

    /// Warps of a core (threads / w), the PDOM stacks it has.
    pub fn warps_per_core(&self) -> u32 {
        self.threads_per_core.div_ceil(self.warp_width.max(1))
    }

    /// Every scheduler bit DWF adds per core (the PDOM stacks not subtracted).
    pub fn scheduler_bits(&self) -> u64 {
        self.warp_update_bits()
            + self.pc_lut_bits()
            + self.pool_bits()
            + self.allocator_bits()
            + self.mheap_lut_bits()
            + self.heap_bits()
            + self.majority_bits()
    }
}
