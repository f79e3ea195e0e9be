//! LOOG's per-issue-slice structures (issue-stage spec §3.1, §4): collector units as
//! reservation stations, the RRS, the RAT, the UUID counters and comparators, the write-back
//! buffers, the optional memory queues and the broadcast bus; their bit-count formulas term for
//! term (symbols as in [`crate::issue_bits`]) and their mapping onto the component models of
//! [`super::cost`], with the baseline scoreboard as what they remove; and LOOG's costing in an
//! estimate ([`LoogCost`], registered in [`super::STAGES`]).
//!
//! A broadcast is a bus: half the `T·D` data wires toggle, each loading its wire
//! (semi-global capacitance over the span of the collector-unit array, the square root of
//! its area) and the capture inputs it reaches (one flop input, [`CostSource::clock_pin_c_f`],
//! per operand slot), at `Vdd²`.

use super::cost::{
    flops, logic, sram_array, Access, DesignCost, EventCost, IssueCostError, StructureCost,
};
use super::stage::IssueStageCost;
use super::BaselineIssue;
use crate::gpu::{CostSource, Part, Source, TechCostSource};
use crate::issue_bits::clog2;
use crate::logic::LogicKind;
use sim::activity::{KernelActivity, LoogHwInputs};
use sim::config::GpuConfig;

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

/// LOOG's per-issue-slice structures (issue-stage §4) with the baseline scoreboard (`W·A`
/// pending bits, a flop array) as removed. Events are the LOOG counters of issue-stage §5:
/// `cu_allocations`, `captures`, `dispatches`, `rrs_allocations`, `rat_reads`, `rat_writes`,
/// `uuid_comparisons`, `war_checks`, `wb_buffer_writes`, `broadcasts`.
pub fn loog_cost(l: &LoogSlice, src: &dyn CostSource) -> Result<DesignCost, IssueCostError> {
    for (v, what) in [
        (l.warps, "LOOG warps"),
        (l.threads, "LOOG threads per warp"),
        (l.data_bits, "LOOG data bits"),
        (l.n_cu, "LOOG collector units"),
        (l.arch_regs, "LOOG architectural registers"),
    ] {
        if v == 0 {
            return Err(IssueCostError::Zero { what });
        }
    }
    let mut added = vec![flops(
        src,
        "collector units",
        l.n_cu as u64,
        l.cu_bits(),
        1,
        1,
        &["cu_allocations", "captures", "dispatches"],
    )?];
    if let Some(r) = l.rrs {
        added.push(flops(
            src,
            "RRS",
            r.max(1) as u64,
            l.rrs_entry_bits(),
            1,
            1,
            &["rrs_allocations", "wb_buffer_writes"],
        )?);
    }
    let (rat_e, rat_w) = l.rat_shape();
    added.push(if l.rat_is_sram() {
        sram_array(
            src,
            "RAT",
            rat_e,
            rat_w,
            3,
            1,
            &[("rat_reads", Access::Read), ("rat_writes", Access::Write)],
        )?
    } else {
        flops(
            src,
            "RAT",
            rat_e,
            rat_w as u64,
            3,
            1,
            &["rat_reads", "rat_writes"],
        )?
    });
    let probes = l.head_probe_ports();
    if probes > 0 {
        // the ready-first probes: 3 per I-buffer head and cycle, each a read multiplexer on
        // the warp's RAT rows and one on the producers' dispatched bits. Their reads are the
        // `head_probes` counted with the RAT reads above; these entries add the ports' area
        // and leakage (for an SRAM RAT: the read paths' logic only, a lower bound).
        added.push(logic(
            src,
            "RAT head-probe ports",
            LogicKind::Mux,
            &[("N", l.arch_regs.max(2)), ("WIDTH", rat_w.max(1))],
            probes as f64,
            0,
            &[],
        )?);
        added.push(logic(
            src,
            "producer dispatched-bit probes",
            LogicKind::Mux,
            &[("N", l.n_id().max(2)), ("WIDTH", l.producer_probe_bits())],
            probes as f64,
            0,
            &[],
        )?);
        if l.defer_load_consumers {
            // one long-load-pending flag per producer, written at allocation and at rd_valid
            added.push(flops(
                src,
                "long-load pending flags",
                l.n_id().max(1) as u64,
                1,
                1,
                1,
                &["cu_allocations", "broadcasts"],
            )?);
        }
    }
    if let Some((lq, sq)) = l.lsq {
        // the memory queues: entries written at allocation; each search compares a ready
        // memory instruction's range with one older entry (two magnitude compares)
        added.push(flops(
            src,
            "load/store queues",
            (lq + sq).max(1) as u64,
            l.lsq_entry_bits(),
            1,
            1,
            &["lsq_writes"],
        )?);
        added.push(logic(
            src,
            "LSQ range comparators",
            LogicKind::Adder,
            &[("WIDTH", LSQ_ADDR_BITS)],
            2.0 * (lq + sq) as f64,
            0,
            &[("lsq_searches", 2.0)],
        )?);
    }
    added.push(flops(
        src,
        "UUID counters",
        l.warps as u64,
        l.uuid_bits as u64,
        1,
        1,
        &["cu_allocations"],
    )?);
    let age = l.age_comparators();
    if age > 0 {
        added.push(logic(
            src,
            "UUID age comparators",
            LogicKind::Adder,
            &[("WIDTH", l.uuid_bits.max(1))],
            age as f64,
            0,
            &[("uuid_comparisons", 1.0)],
        )?);
        added.push(logic(
            src,
            "WAR-guard comparators",
            LogicKind::EqCmp,
            &[
                ("N", l.war_comparators() as u32),
                ("WIDTH", l.reg_id_bits()),
            ],
            1.0,
            0,
            &[("war_checks", 1.0 / l.war_comparators() as f64)],
        )?);
    }
    if l.n_wb > 0 {
        added.push(flops(
            src,
            "write-back buffer",
            l.n_wb as u64,
            l.threads as u64 * l.data_bits as u64,
            1,
            1,
            &["wb_buffer_writes"],
        )?);
    }
    // Broadcast bus (module doc).
    let span_m = added[0].area_m2.max(0.0).sqrt();
    added.push(loog_broadcast(l, src, span_m));
    let sb = flops(
        src,
        "scoreboard",
        l.warps as u64,
        l.arch_regs as u64,
        1,
        1,
        &["sb_lookups", "sb_updates"],
    )?;
    Ok(DesignCost {
        design: "loog",
        per: "issue slice",
        added,
        removed: vec![sb],
        line_items: Vec::new(),
    })
}

/// LOOG's broadcast bus (module doc): its energy per broadcast of `l.threads × l.data_bits`
/// bits over a span of `span_m` m (through the write-back buffer when there is one); no area
/// or leakage of its own.
fn loog_broadcast(l: &LoogSlice, src: &dyn CostSource, span_m: f64) -> StructureCost {
    let vdd = src.vdd_v();
    let c_wire = src.bus_wire_c_f_per_m();
    let c_pin = src.clock_pin_c_f();
    let td = (l.threads * l.data_bits) as f64;
    let per_broadcast_j = if l.n_wb > 0 {
        let nwb = l.n_wb as f64;
        0.5 * td * (c_wire * span_m / nwb + 3.0 * l.n_cu as f64 / nwb * c_pin) * vdd * vdd
    } else {
        0.5 * td
            * 3.0
            * (l.n_cu as f64 - 1.0).max(0.0)
            * (c_wire * span_m / 2.0 + c_pin)
            * vdd
            * vdd
    };
    StructureCost {
        name: "broadcast wiring".into(),
        model: format!("bus, {} wires", l.broadcast_wires()),
        bits: 0,
        area_m2: 0.0,
        leakage_w: 0.0,
        events: vec![EventCost {
            counter: "broadcasts",
            energy_j: per_broadcast_j,
        }],
        source: Source::Wire,
        part: None,
    }
}

// ---------------------------------------------------------------------------------------------
// In an estimate (issue-stage §3.1, §4, §5): per-slice collector units, RRS, RAT, UUID counters
// and comparators, write-back buffers and broadcast bus beside the in-order I-buffer it keeps.
// A LOOG run keeps the I-buffer leaf (LOOG's IBuffer is the in-order one), drops the chip
// model's "operand collectors" leaf (LOOG's collector units are the machine's collectors, §3.1;
// its area and leakage count as removed) and replaces the scoreboard leaf by one leaf per LOOG
// structure: one copy per issue slice × slices per SM × SMs, dynamic energy from the §5
// counters of `KernelActivity::loog` (CU allocations, captures, dispatches, RRS allocations,
// RAT reads and writes, UUID comparisons and the WAR-guard register-id compares they gate,
// write-back-buffer writes, broadcasts).

/// LOOG's costing (`sched.ooo.mode = "loog"`).
pub struct LoogCost;

/// The LOOG slice of `cfg` for the §4 model (`None` when `sched.ooo.mode` is not "loog"): the
/// simulated knobs (warps per slice, T, D, U, A, N_cu, R, write-back buffers) and the model's
/// defaults for the rest (payload bits, the RAT's SRAM threshold).
pub fn loog_slice(cfg: &GpuConfig) -> Option<LoogSlice> {
    let hw = LoogHwInputs::of_config(cfg)?;
    Some(LoogSlice {
        warps: hw.warps_per_slice,
        threads: hw.threads_per_warp,
        data_bits: hw.data_bits,
        uuid_bits: hw.uuid_bits,
        arch_regs: hw.arch_regs,
        n_cu: hw.n_cu,
        rrs: (hw.n_rrs > 0).then_some(hw.n_rrs),
        n_wb: hw.wb_buffers,
        ready_first: cfg.sched.ooo.loog_ready_first,
        defer_load_consumers: cfg.sched.ooo.loog_defer_load_consumers,
        lsq: cfg
            .sched
            .ooo
            .loog_lsq
            .then_some((cfg.sched.ooo.loog_lq_entries, cfg.sched.ooo.loog_sq_entries)),
        ..LoogSlice::gtx1080ti_subcore()
    })
}

impl IssueStageCost for LoogCost {
    fn design(
        &self,
        cfg: &GpuConfig,
        _base: &BaselineIssue,
        src: &TechCostSource,
    ) -> Option<Result<DesignCost, IssueCostError>> {
        let l = loog_slice(cfg)?;
        Some(loog_cost(&l, src))
    }

    /// The §5 counters of `KernelActivity::loog`.
    fn counter(&self, k: &KernelActivity, c: &str) -> Option<f64> {
        let l = k.loog.as_ref()?;
        let v = match c {
            "cu_allocations" => Some(l.cu_allocs),
            "captures" => Some(l.captures),
            "dispatches" => Some(l.dispatches),
            "rrs_allocations" => Some(l.rrs_allocs),
            // an allocation-order probe reads one RAT entry (and a producer's dispatched bit)
            "rat_reads" => Some(l.rat_reads + l.head_probes),
            "rat_writes" => Some(l.rat_writes),
            "uuid_comparisons" => Some(l.uuid_comparisons),
            // each same-warp pair the dispatch rule compares also matches the candidate's
            // destination against the other CU's three source ids (the WAR guard, §3.2 step 5)
            "war_checks" => Some(3 * l.uuid_comparisons),
            "wb_buffer_writes" => Some(l.wb_buffer_writes),
            "broadcasts" => Some(l.broadcasts),
            "lsq_writes" => l.lsq.as_ref().map(|q| q.lq_allocs + q.sq_allocs),
            "lsq_searches" => l.lsq.as_ref().map(|q| q.searches),
            _ => None,
        };
        v.map(|v| v as f64)
    }

    /// One copy per issue slice.
    fn copies_per_sm(&self, cfg: &GpuConfig) -> u32 {
        cfg.loog_slices()
    }

    /// LOOG keeps the in-order I-buffer and removes the baseline's scoreboards (§3); its
    /// collector units are the machine's operand collectors (§3.1: CUs as reservation
    /// stations).
    fn replaces(&self) -> &'static [Part] {
        &[Part::OperandCollectors, Part::Scoreboard]
    }

    fn leaf_prefix(&self) -> &'static str {
        "LOOG"
    }
}
