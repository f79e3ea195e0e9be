//! Input structs of the issue-stage and reconvergence designs and their bit-count formulas
//! (issue-stage spec §4, control-flow spec §5.7), written term for term as the specs give them.
//!
//! Symbols (issue-stage §4): N IB depth, P PC bits, Rb GPR id bits, Pb predicate id bits,
//! ns/nd GPR sources/destinations, nps/npd predicate sources/destinations, Dd decoded-payload
//! bits, C ready-counter bits, W warps per SM, S SMs, A architectural registers per warp.
//! Every operand field carries one extra "present" bit.

use sim::activity::SocgpuHwInputs;
use sim::config::OooLocalPolicy;

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
    /// The baseline of a SOCGPU configuration: its I-buffer entries per warp, other fields as
    /// [`Default`].
    pub fn from_hw(hw: &SocgpuHwInputs) -> Self {
        BaselineIssue {
            ib_entries: hw.baseline_ib_entries.max(1),
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

    /// The per-warp bits SOCGPU removes or replaces: IB and both scoreboards.
    pub fn delta_bits(&self) -> u64 {
        self.ib_bits() + self.pending_write_bits() + self.pending_read_bits()
    }
}

/// SOCGPU's local selection policy (issue-stage §2.3), as it sizes the selection logic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelectPolicy {
    /// N-input priority encoder.
    First,
    /// (N−1)-comparator tree of ⌈log2 N⌉-bit seniorities.
    Older,
    /// As `Older`.
    Younger,
    /// (N−1)-comparator tree of C-bit ready counters.
    MostReady,
    /// As `MostReady`.
    LeastReady,
    /// LFSR plus priority encoder.
    Random,
}

impl From<OooLocalPolicy> for SelectPolicy {
    fn from(p: OooLocalPolicy) -> Self {
        match p {
            OooLocalPolicy::First => SelectPolicy::First,
            OooLocalPolicy::Older => SelectPolicy::Older,
            OooLocalPolicy::Younger => SelectPolicy::Younger,
            OooLocalPolicy::MostReady => SelectPolicy::MostReady,
            OooLocalPolicy::LeastReady => SelectPolicy::LeastReady,
            OooLocalPolicy::Random => SelectPolicy::Random,
        }
    }
}

impl SelectPolicy {
    /// Whether the policy keeps per-entry ready counters.
    pub fn uses_ready_ctr(self) -> bool {
        matches!(self, SelectPolicy::MostReady | SelectPolicy::LeastReady)
    }
}

/// SOCGPU's per-warp issue state (issue-stage §2.1, §4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SocgpuIssue {
    /// Entry fields (the baseline's).
    pub fields: InstFields,
    /// N: IB entries per warp.
    pub ib_depth: u32,
    /// The local policy.
    pub policy: SelectPolicy,
    /// C: ready-counter bits (used by MostReady/LeastReady only).
    pub ready_ctr_bits: u32,
    /// Whether the DM diagonal is hard-wired (N(N−1) flops instead of N²).
    pub diag_hardwired: bool,
    /// Instructions fetched per fetch-PC update (`frontend.fetch_width`, 2).
    pub fetch_width: u32,
    /// Bits of the Random policy's LFSR.
    pub lfsr_bits: u32,
}

impl Default for SocgpuIssue {
    /// N = 8, First, C = ⌈log2 N⌉ + 2, hard-wired diagonal, fetch width 2, 16-bit LFSR.
    fn default() -> Self {
        SocgpuIssue {
            fields: InstFields::default(),
            ib_depth: 8,
            policy: SelectPolicy::First,
            ready_ctr_bits: 5,
            diag_hardwired: true,
            fetch_width: 2,
            lfsr_bits: 16,
        }
    }
}

impl SocgpuIssue {
    /// The SOCGPU design of a simulated configuration (the simulator's `timing::ooo::socgpu_hw_inputs`).
    pub fn from_hw(hw: &SocgpuHwInputs) -> Self {
        let n = hw.ib_depth.max(1);
        SocgpuIssue {
            ib_depth: n,
            policy: hw.policy.into(),
            ready_ctr_bits: if hw.ready_ctr_bits > 0 {
                hw.ready_ctr_bits
            } else {
                clog2(n as u64) + 2
            },
            diag_hardwired: hw.dm_bits < n * n,
            ..Default::default()
        }
    }

    /// ⌈log2 N⌉: seniority bits.
    pub fn seniority_bits(&self) -> u32 {
        clog2(self.ib_depth as u64)
    }

    /// `E_s = E_b + 1 (ctl) + 1 (issued) + ⌈log2 N⌉ (seniority) + P (nt_next_pc)`.
    pub fn entry_bits(&self) -> u64 {
        self.fields.baseline_entry_bits()
            + 2
            + self.seniority_bits() as u64
            + self.fields.pc_bits as u64
    }

    /// IB bits: `N · E_s`.
    pub fn ib_bits(&self) -> u64 {
        self.ib_depth as u64 * self.entry_bits()
    }

    /// Ready counters: `N · C` (MostReady/LeastReady only, else 0).
    pub fn ready_ctr_total_bits(&self) -> u64 {
        if self.policy.uses_ready_ctr() {
            self.ib_depth as u64 * self.ready_ctr_bits as u64
        } else {
            0
        }
    }

    /// DM flops: `N²`, or `N(N−1)` with the diagonal hard-wired.
    pub fn dm_bits(&self) -> u64 {
        let n = self.ib_depth as u64;
        if self.diag_hardwired {
            n * n.saturating_sub(1)
        } else {
            n * n
        }
    }

    /// `last_issued_nt_pc` (P) plus the fetch PC register (P).
    pub fn pc_register_bits(&self) -> u64 {
        2 * self.fields.pc_bits as u64
    }

    /// Insert comparators of Rb bits: `N × (nd·(ns+nd) + ns·nd)`.
    pub fn gpr_insert_comparators(&self) -> u64 {
        self.ib_depth as u64 * self.fields.gpr_comparators()
    }

    /// Insert comparators of Pb bits: `N × (npd·(nps+npd) + nps·npd)`.
    pub fn pred_insert_comparators(&self) -> u64 {
        self.ib_depth as u64 * self.fields.pred_comparators()
    }

    /// a3: N magnitude comparators of P bits.
    pub fn a3_comparators(&self) -> u64 {
        self.ib_depth as u64
    }

    /// Comparators of the selection tree and their width: (N−1) of ⌈log2 N⌉ bits
    /// (Older/Younger) or of C bits (Most/LeastReady); none for First and Random (a priority
    /// encoder).
    pub fn selection_comparators(&self) -> (u64, u32) {
        let n1 = (self.ib_depth as u64).saturating_sub(1);
        match self.policy {
            SelectPolicy::Older | SelectPolicy::Younger => (n1, self.seniority_bits().max(1)),
            SelectPolicy::MostReady | SelectPolicy::LeastReady => (n1, self.ready_ctr_bits),
            SelectPolicy::First | SelectPolicy::Random => (0, 0),
        }
    }

    /// Every state bit SOCGPU adds per warp: IB, counters, DM and the two PC registers.
    pub fn state_bits(&self) -> u64 {
        self.ib_bits() + self.ready_ctr_total_bits() + self.dm_bits() + self.pc_register_bits()
    }
}

/// Address bits a memory-queue entry keeps per bound (a 48-bit virtual address space).
pub const LSQ_ADDR_BITS: u32 = 48;

/// LOOG's per-issue-slice structures (issue-stage §3.1, §4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoogSlice {
    /// W: warps of the slice.
    pub warps: u32,
    /// T: threads per warp.
    pub threads: u32,
    /// D: data bits per thread.
    pub data_bits: u32,
    /// U: UUID bits.
    pub uuid_bits: u32,
    /// A: architectural registers per warp (64 on Vortex).
    pub arch_regs: u32,
    /// N_cu: collector units.
    pub n_cu: u32,
    /// R: RRS entries, or `None` without the RRS.
    pub rrs: Option<u32>,
    /// Write-back buffers (0: all-to-all broadcast wiring).
    pub n_wb: u32,
    /// Iw: instruction payload bits excluding data; `None` = [`LoogSlice::default_payload_bits`].
    pub payload_bits: Option<u32>,
    /// W·A at or above which the RAT is an SRAM (3R1W) instead of a flop array.
    pub rat_sram_min_entries: u32,
    /// The allocation stage orders warps by probing every I-buffer head's sources in the RAT
    /// each cycle (`sched.ooo.loog_ready_first`): [`LoogSlice::head_probe_ports`] extra read
    /// paths.
    pub ready_first: bool,
    /// With `ready_first`, a head reading a global or local load's result still in flight
    /// also waits (`sched.ooo.loog_defer_load_consumers`): one "long load pending" flag per
    /// producer, set at allocation, cleared at `rd_valid`, read by the same probes.
    pub defer_load_consumers: bool,
    /// The memory queues (`sched.ooo.loog_lsq`): `(load-queue, store-queue)` entries.
    pub lsq: Option<(u32, u32)>,
}

impl LoogSlice {
    /// One GTX1080Ti-like sub-core as a LOOG slice (issue-stage §3: one LOOG instance per
    /// sub-core): W = 16, T = 32, D = 32, U = 8 (thesis), A = 64, N_cu = min(16, W·1) = 16
    /// (the repository default), no RRS, 2 write-back buffers (N_cu > 12), RAT as SRAM from
    /// 512 entries.
    pub fn gtx1080ti_subcore() -> Self {
        LoogSlice {
            warps: 16,
            threads: 32,
            data_bits: 32,
            uuid_bits: 8,
            arch_regs: 64,
            n_cu: 16,
            rrs: None,
            n_wb: 2,
            payload_bits: None,
            rat_sram_min_entries: 512,
            ready_first: true,
            defer_load_consumers: false,
            lsq: None,
        }
    }

    /// Register-id bits: ⌈log2 A⌉.
    pub fn reg_id_bits(&self) -> u32 {
        clog2(self.arch_regs as u64).max(1)
    }

    /// Iw when none is given ([G], §3.1's payload list): UUID (U), warp id (⌈log2 W⌉), PC
    /// (32), tmask (T), unit/op type (8), immediate (32), `wb` (1), rd and rs1..rs3
    /// (4·⌈log2 A⌉).
    pub fn default_payload_bits(&self) -> u32 {
        self.uuid_bits
            + clog2(self.warps as u64)
            + 32
            + self.threads
            + 8
            + 32
            + 1
            + 4 * self.reg_id_bits()
    }

    /// Iw.
    pub fn payload(&self) -> u64 {
        self.payload_bits
            .unwrap_or_else(|| self.default_payload_bits()) as u64
    }

    /// N_id: N_cu without the RRS, R with it.
    pub fn n_id(&self) -> u32 {
        self.rrs.unwrap_or(self.n_cu)
    }

    /// Bits of one CU: `9 + 3⌈log2 N_cu⌉ + Iw + 4·T·D` without the RRS,
    /// `8 + 3⌈log2 R⌉ + Iw + 3·T·D` with it.
    pub fn cu_bits(&self) -> u64 {
        let td = self.threads as u64 * self.data_bits as u64;
        match self.rrs {
            None => 9 + 3 * clog2(self.n_cu as u64) as u64 + self.payload() + 4 * td,
            Some(r) => 8 + 3 * clog2(r as u64) as u64 + self.payload() + 3 * td,
        }
    }

    /// Bits of one RRS entry: `2 + T + T·D` (0 without the RRS).
    pub fn rrs_entry_bits(&self) -> u64 {
        match self.rrs {
            None => 0,
            Some(_) => 2 + self.threads as u64 + self.threads as u64 * self.data_bits as u64,
        }
    }

    /// RAT entries `W·A` and bits per entry `1 + ⌈log2 N_id⌉`.
    pub fn rat_shape(&self) -> (u64, u32) {
        (
            self.warps as u64 * self.arch_regs as u64,
            1 + clog2(self.n_id() as u64),
        )
    }

    /// Head-probe read paths of the ready-first allocation order: each of the W heads probes
    /// its up to 3 sources every cycle, so `3·W` (0 without `ready_first`). Each is a read of
    /// one of the warp's A RAT entries plus the named producer's status bits: an A-to-1
    /// multiplexer of the RAT width and an N_id-to-1 multiplexer of
    /// [`LoogSlice::producer_probe_bits`] bits.
    pub fn head_probe_ports(&self) -> u32 {
        if self.ready_first {
            3 * self.warps
        } else {
            0
        }
    }

    /// Producer status bits a head probe reads: `dispatched`, and with
    /// `defer_load_consumers` the producer's long-load-pending flag.
    pub fn producer_probe_bits(&self) -> u32 {
        1 + u32::from(self.defer_load_consumers)
    }

    /// Bits of one memory-queue entry: the byte range the access touches (two
    /// [`LSQ_ADDR_BITS`]-bit addresses), its UUID, the warp, a valid and a store bit [G] (the
    /// source describes the queues but does not size them).
    pub fn lsq_entry_bits(&self) -> u64 {
        2 * LSQ_ADDR_BITS as u64
            + self.uuid_bits as u64
            + clog2(self.warps as u64).max(1) as u64
            + 2
    }

    /// RAT bits: `W · A · (1 + ⌈log2 N_id⌉)`.
    pub fn rat_bits(&self) -> u64 {
        let (e, b) = self.rat_shape();
        e * b as u64
    }

    /// Whether the RAT is an SRAM (W·A at or above `rat_sram_min_entries`).
    pub fn rat_is_sram(&self) -> bool {
        self.rat_shape().0 >= self.rat_sram_min_entries as u64
    }

    /// UUID counters: `W · U` bits.
    pub fn uuid_bits_total(&self) -> u64 {
        self.warps as u64 * self.uuid_bits as u64
    }

    /// U-bit age comparators (LSU-order check): `N_cu(N_cu−1)`.
    pub fn age_comparators(&self) -> u64 {
        let n = self.n_cu as u64;
        n * n.saturating_sub(1)
    }

    /// Register-id comparators of the WAR guard: `3·N_cu(N_cu−1)`.
    pub fn war_comparators(&self) -> u64 {
        3 * self.age_comparators()
    }

    /// Write-back buffer bits: `n_wb · T · D`.
    pub fn wb_buffer_bits(&self) -> u64 {
        self.n_wb as u64 * self.threads as u64 * self.data_bits as u64
    }

    /// Broadcast wires: `4·N·T·D` with the buffer, `3·N·(N−1)·T·D` without.
    pub fn broadcast_wires(&self) -> u64 {
        let (n, td) = (
            self.n_cu as u64,
            self.threads as u64 * self.data_bits as u64,
        );
        if self.n_wb > 0 {
            4 * n * td
        } else {
            3 * n * n.saturating_sub(1) * td
        }
    }

    /// Removed: the baseline scoreboard, `W · A` pending bits.
    pub fn removed_scoreboard_bits(&self) -> u64 {
        self.warps as u64 * self.arch_regs as u64
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
