//! Operand collectors and the banked register file (simulator §2.4): collector units
//! grouped by class, read requests per bank, the per-bank round-robin read-port arbitration
//! (writes of the cycle take ports first), and the register-file and collector counters. Also
//! the optional per-register access statistics (§5.4), fed by every operand read and write.

use super::exec::{ExecClass, PipeClass, SpPipe};
use super::execunits::Wb;
use super::perclass::{CuClass, PerCuClass};
use super::policy::{RegisterFileOrg, N_REGS};
use super::ports::{IssuePorts, Stall};
use super::rfmonitor::RfMonitor;
use super::slots::RegisterFileSlot;
use super::tinst::TInst;
use crate::activity::{OpcollActivity, RegisterStats, RfActivity};
use crate::config::GpuConfig;
use crate::config::PortOccupancy;

/// A collector unit holding one issued instruction.
#[derive(Clone)]
pub(crate) struct Cu {
    pub busy: bool,
    pub class: CuClass,
    pub subcore: u32,
    pub warp: u16,
    pub seq: u64,
    pub inst: TInst,
    pub ec: ExecClass,
    /// Pending reads: (bank, reg); `n_reads` valid, `n_done` granted.
    pub reads: [(u16, u16); 5],
    pub n_reads: u8,
    pub granted: u8,
    /// Cycle the last operand is available (u64::MAX while reads are pending).
    pub ready_at: u64,
    /// Per pending read: the first cycle it may be granted (its entry is ON; 0 with an
    /// organisation that does not gate its entries).
    pub not_before: [u64; 5],
    /// Latest arrival cycle of the operands granted so far.
    pub arrive: u64,
}

/// Per-register access statistics (§5.4): counts per register number, the pilot warp's counts,
/// and the distributions of inter-access times and of the first access after allocation.
pub(crate) struct RegAccessLog {
    /// Last access cycle per (warp slot, register), u64::MAX before the first.
    last: Vec<u64>,
    pub stats: Option<RegisterStats>,
    pub pilot_slot: Option<u16>,
    /// Register-file characterisation (register-file spec §9), with `stats`.
    pub chars: Option<Box<super::regchar::RegCharacter>>,
}

impl RegAccessLog {
    /// A log for `nw` warp slots, collecting only when `on`.
    pub fn new(nw: usize, on: bool) -> Self {
        RegAccessLog {
            last: if on {
                vec![u64::MAX; nw * N_REGS]
            } else {
                Vec::new()
            },
            stats: on.then(|| RegisterStats {
                reads: vec![0; N_REGS],
                writes: vec![0; N_REGS],
                pilot_reads: vec![0; N_REGS],
                pilot_writes: vec![0; N_REGS],
                ..Default::default()
            }),
            pilot_slot: None,
            chars: None,
        }
    }

    /// Forgets the accesses of warp slot `w` (a new warp takes the slot).
    pub fn reset_warp(&mut self, w: usize) {
        if !self.last.is_empty() {
            self.last[w * N_REGS..(w + 1) * N_REGS].fill(u64::MAX);
        }
    }

    /// Records an access of register `reg` of warp slot `w` at cycle `t`; `launched` holds
    /// each slot's launch cycle (the reference of the first access).
    #[inline]
    pub fn access(&mut self, w: usize, reg: u16, t: u64, write: bool, launched: &[u64]) {
        let Some(rs) = self.stats.as_mut() else {
            return;
        };
        let r = reg as usize;
        if r >= N_REGS {
            return;
        }
        if write {
            rs.writes[r] += 1;
        } else {
            rs.reads[r] += 1;
        }
        if self.pilot_slot == Some(w as u16) {
            if write {
                rs.pilot_writes[r] += 1;
            } else {
                rs.pilot_reads[r] += 1;
            }
        }
        let k = w * N_REGS + r;
        let last = self.last[k];
        if last == u64::MAX {
            rs.first_access_after_alloc.add(t - launched[w]);
        } else {
            rs.inter_access.add(t - last);
        }
        self.last[k] = t;
        if let Some(c) = &self.chars {
            c.access(w, r, (last != u64::MAX).then(|| t - last), rs);
        }
    }
}

/// The collector units, the register-file banks and their arbitration state and counters.
pub(crate) struct OperandCollectors {
    pub rf: RegisterFileSlot,
    pub cus: Vec<Cu>,
    /// Per class: instructions the class's collectors may take in one cycle.
    pub cu_class_ports: PerCuClass<u32>,
    /// Per class: instructions the class's collectors may dispatch in one cycle.
    pub cu_class_out: PerCuClass<u32>,
    /// Per bank: collectors (bit i = `cus[i]`) with a read pending on the bank.
    bank_req: Vec<u64>,
    /// Bit set over banks: `bank_req[b] != 0`.
    banks_pending: Vec<u64>,
    /// Per bank: the collector granted last (round-robin start).
    bank_rr: Vec<u32>,
    /// Per bank: write ports taken this cycle.
    pub bank_wr_used: Vec<u32>,
    /// Some `bank_wr_used` entry is non-zero.
    pub bank_wr_any: bool,
    pub ports_per_bank: u32,
    /// Index into `opcoll_act` of each collector class (usize::MAX if absent).
    pub oc_idx: PerCuClass<usize>,
    /// Busy collectors per class.
    pub cu_busy: PerCuClass<u64>,
    /// Collectors (bit i = `cus[i]`) that are free.
    pub cu_free: u64,
    /// Collectors holding an instruction whose operands have all been read (`ready_at` set).
    pub cu_ready: u64,
    /// Collectors of each class.
    pub cu_of_class: PerCuClass<u64>,
    /// Per scheduler: the collectors of its sub-core (all ones with one sub-core).
    cu_of_sched: Vec<u64>,
    pub rf_act: RfActivity,
    /// Per collector class present in the config, in the order of [`CuClass::ALL`].
    pub opcoll_act: Vec<OpcollActivity>,
    /// `rf.port_occupancy = "full_latency"`: a multi-cycle access keeps its bank port.
    full_latency: bool,
    /// Per bank port (`b · ports_per_bank + i`): cycles `(from, until)` a multi-cycle access
    /// holds it after its grant cycle `from` (busy in `from + 1 .. until`).
    port_hold: Vec<(u64, u64)>,
    /// Per bank port: the holding access is a write.
    hold_wr: Vec<bool>,
    /// Some port has ever been held.
    holds_any: bool,
    /// Register-file statistics and COMA (when recorded).
    pub mon: Option<Box<RfMonitor>>,
    /// The organisation gates its entries ([`RegisterFileOrg::gates_entries`]): reads wait
    /// for their entries to wake, and every access is reported to it.
    pub wake_gated: bool,
    /// Writebacks granted whose multi-cycle writes complete at the given cycle.
    pub wb_completing: Vec<(u64, Wb)>,
    /// Record the read grants of the cycle per bank in `bank_rd_used` (while migration
    /// requests of the partitioned RF wait for free ports).
    pub track_reads: bool,
    /// Per bank: read ports granted this cycle (kept only with `track_reads`).
    pub bank_rd_used: Vec<u32>,
    /// The organisation has an RF cache: an operand read is first offered to it, and a hit
    /// is served by an RFC read port instead of its MRF bank
    /// ([`crate::timing::rf::PrfOrg::rfc_read`]).
    rfc_on: bool,
}

impl OperandCollectors {
    /// The collectors and banks of `cfg` for `ns` schedulers over `nsub` sub-cores, with the
    /// register-file organisation `rf`.
    pub fn new(cfg: &GpuConfig, ns: usize, nsub: u32, rf: RegisterFileSlot) -> Self {
        let o = &cfg.opcoll;
        let counts = PerCuClass([
            o.units.sp,
            o.units.sfu,
            o.units.mem,
            o.units.dp,
            o.units.int,
            o.units.gen,
        ]);
        let inp = PerCuClass([
            o.in_ports.sp,
            o.in_ports.sfu,
            o.in_ports.mem,
            o.in_ports.dp,
            o.in_ports.int,
            o.in_ports.gen,
        ]);
        let outp = PerCuClass([
            o.out_ports.sp,
            o.out_ports.sfu,
            o.out_ports.mem,
            o.out_ports.dp,
            o.out_ports.int,
            o.out_ports.gen,
        ]);
        let mut cus = Vec::new();
        for class in CuClass::ALL {
            for i in 0..counts[class] {
                cus.push(Cu {
                    busy: false,
                    class,
                    subcore: i % nsub,
                    warp: 0,
                    seq: 0,
                    inst: TInst::NOP,
                    ec: ExecClass {
                        pipe: PipeClass::None,
                        sp_pipe: SpPipe::Int,
                        latency: 1,
                        ii: 1,
                    },
                    reads: [(0, 0); 5],
                    n_reads: 0,
                    granted: 0,
                    ready_at: u64::MAX,
                    not_before: [0; 5],
                    arrive: 0,
                });
            }
        }
        assert!(cus.len() <= 64, "at most 64 collector units per SM");
        let cu_free = if cus.len() == 64 {
            u64::MAX
        } else {
            (1u64 << cus.len()) - 1
        };
        let mut cu_of_class = PerCuClass::splat(0u64);
        let mut cu_of_subcore = vec![0u64; nsub as usize];
        for (i, c) in cus.iter().enumerate() {
            cu_of_class[c.class] |= 1 << i;
            cu_of_subcore[c.subcore as usize] |= 1 << i;
        }
        let sps = cfg.scheds_per_subcore();
        let cu_of_sched = (0..ns as u32)
            .map(|s| {
                if nsub > 1 {
                    cu_of_subcore.get((s / sps) as usize).copied().unwrap_or(0)
                } else {
                    u64::MAX
                }
            })
            .collect();
        let nb = cfg.rf.n_banks as usize;
        let present: Vec<CuClass> = CuClass::ALL
            .into_iter()
            .filter(|&c| counts[c] > 0)
            .collect();
        let mut oc_idx = PerCuClass::splat(usize::MAX);
        for (i, &c) in present.iter().enumerate() {
            oc_idx[c] = i;
        }
        let wake_gated = rf.gates_entries();
        let mon = RfMonitor::new(cfg, cus.len(), wake_gated);
        let ports = cfg.rf.ports_per_bank as usize;
        let rfc_on = matches!(&rf, RegisterFileSlot::Partitioned(_)) && cfg.rfc.enabled;
        OperandCollectors {
            rfc_on,
            full_latency: cfg.rf.port_occupancy == PortOccupancy::FullLatency,
            port_hold: vec![(0, 0); nb * ports],
            hold_wr: vec![false; nb * ports],
            holds_any: false,
            wake_gated,
            mon,
            wb_completing: Vec::new(),
            track_reads: false,
            bank_rd_used: vec![0; nb],
            rf,
            cus,
            cu_class_ports: inp,
            cu_class_out: outp,
            bank_req: vec![0; nb],
            banks_pending: vec![0; nb.div_ceil(64)],
            bank_rr: vec![0; nb],
            bank_wr_used: vec![0; nb],
            bank_wr_any: false,
            ports_per_bank: cfg.rf.ports_per_bank,
            oc_idx,
            cu_busy: PerCuClass::splat(0),
            cu_free,
            cu_ready: 0,
            cu_of_class,
            cu_of_sched,
            rf_act: RfActivity {
                reads: vec![0; nb],
                writes: vec![0; nb],
                read_lanes: vec![0; nb],
                write_lanes: vec![0; nb],
                conflict_rr: vec![0; nb],
                conflict_wr: vec![0; nb],
                pred_reads: 0,
                pred_writes: 0,
            },
            opcoll_act: present
                .iter()
                .map(|&c| OpcollActivity {
                    class: c.name().to_string(),
                    units: counts[c],
                    ..Default::default()
                })
                .collect(),
        }
    }

    /// The collectors an instruction of pipe class `pipe` issued by scheduler `s` may take:
    /// those of its class (the generic class when the configuration has none of it) in the
    /// scheduler's sub-core. 0 for an instruction that takes no collector.
    #[inline]
    pub fn cu_mask(&self, pipe: PipeClass, s: usize) -> u64 {
        if pipe == PipeClass::None {
            return 0;
        }
        let want = CuClass::of(pipe);
        let class = if self.cu_of_class[want] != 0 {
            want
        } else {
            CuClass::Gen
        };
        self.cu_of_class[class] & self.cu_of_sched[s]
    }

    /// The collector an instruction for `pipe` (not [`PipeClass::None`]) whose collectors are
    /// `cu_mask` would take this cycle against the cycle's issue `ports`: the lowest-index free
    /// one, and its class (the pipe's own, or the general class where the pipe has none).
    /// [`Stall::CuFull`] when none is free or the class's in-ports are taken,
    /// [`Stall::PipeBusy`] when the pipe's issue ports are.
    #[inline]
    pub(crate) fn free_collector(
        &self,
        ports: &IssuePorts,
        pipe: PipeClass,
        cu_mask: u64,
    ) -> Result<(usize, CuClass), Stall> {
        let want = CuClass::of(pipe);
        let class = if self.cu_of_class[want] != 0 {
            want
        } else {
            CuClass::Gen
        };
        let free = self.cu_free & cu_mask;
        if free == 0 || ports.in_ports_taken(class, self.cu_class_ports[class]) {
            return Err(Stall::CuFull);
        }
        if ports.pipe_ports_taken(pipe) {
            return Err(Stall::PipeBusy);
        }
        Ok((free.trailing_zeros() as usize, class))
    }

    /// Puts instruction `inst` of warp `warp` (sequence number `seq`) into the free collector
    /// `ci` at cycle `t`, with its `n` register reads `reads` (bank, register) queued on their
    /// banks. Returns the collector's class.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn allocate(
        &mut self,
        ci: usize,
        warp: u16,
        seq: u64,
        inst: TInst,
        ec: ExecClass,
        reads: [(u16, u16); 5],
        n: usize,
        t: u64,
    ) -> CuClass {
        let c = &mut self.cus[ci];
        c.busy = true;
        c.warp = warp;
        c.seq = seq;
        c.inst = inst;
        c.ec = ec;
        c.reads = reads;
        c.n_reads = n as u8;
        c.granted = 0;
        c.ready_at = if n == 0 { t + 1 } else { u64::MAX };
        c.arrive = 0;
        if let Some(m) = self.mon.as_mut() {
            let c = &mut self.cus[ci];
            let nd = c.inst.n_dst as usize;
            let dsts = c.inst.dst;
            m.alloc(ci, warp as usize, c.inst.active_mask, &dsts[..nd]);
            if self.wake_gated {
                let mut srcs = [0u16; 5];
                for (k, r) in c.reads[..n].iter().enumerate() {
                    srcs[k] = r.1;
                }
                self.rf.on_collect(
                    warp as usize,
                    c.inst.active_mask,
                    &srcs[..n],
                    &dsts[..nd],
                    t,
                    &mut c.not_before,
                );
            }
        }
        let c = &self.cus[ci];
        let cls = c.class;
        self.cu_free &= !(1 << ci);
        if n == 0 {
            self.cu_ready |= 1 << ci;
        }
        for &(b, _) in &reads[..n] {
            self.bank_req[b as usize] |= 1u64 << ci;
            self.banks_pending[b as usize / 64] |= 1u64 << (b % 64);
        }
        self.opcoll_act[self.oc_idx[cls]].allocs += 1;
        cls
    }

    /// Some bank has a read pending.
    pub fn reads_pending(&self) -> bool {
        self.banks_pending.iter().any(|&m| m != 0)
    }

    /// Read-port arbitration of every bank with requests at cycle `t`; `regs` records the
    /// operand reads, `launched` is each warp slot's launch cycle. Returns whether any read
    /// was granted.
    pub fn arbitrate(&mut self, t: u64, regs: &mut RegAccessLog, launched: &[u64]) -> bool {
        let ports = self.ports_per_bank;
        let n_cu = self.cus.len() as u32;
        let mut progress = false;
        for wi in 0..self.banks_pending.len() {
            let mut pending = self.banks_pending[wi];
            while pending != 0 {
                let b = wi * 64 + pending.trailing_zeros() as usize;
                pending &= pending - 1;
                progress |= self.arbitrate_bank(b, t, ports, n_cu, regs, launched);
            }
        }
        progress
    }

    /// Ports of bank `b` taken at cycle `t` by this cycle's writes and by accesses that still
    /// hold one.
    #[inline]
    pub fn ports_taken(&self, b: usize, t: u64) -> u32 {
        self.bank_wr_used[b] + self.held(b, t).0
    }

    /// Bank `b` has a port left for a write at cycle `t`.
    #[inline]
    pub fn write_port_free(&self, b: usize, t: u64) -> bool {
        self.ports_taken(b, t) < self.ports_per_bank
    }

    /// A write of `lanes` lanes to bank `b` at cycle `t` takes a port (for `lat` cycles with
    /// `rf.port_occupancy = "full_latency"`) and is counted.
    #[inline]
    pub fn take_write_port(&mut self, b: usize, t: u64, lat: u32, lanes: u64) {
        self.bank_wr_used[b] += 1;
        self.bank_wr_any = true;
        self.hold_port(b, t, lat, true);
        self.rf_act.writes[b] += 1;
        self.rf_act.write_lanes[b] += lanes;
    }

    /// Frees the write ports of the last cycle (the start of a writeback stage).
    #[inline]
    pub fn new_write_cycle(&mut self) {
        if self.bank_wr_any {
            self.bank_wr_used.fill(0);
            self.bank_wr_any = false;
        }
    }

    /// Ports of bank `b` held at cycle `t` by multi-cycle accesses granted before `t`, and
    /// whether a write holds one.
    #[inline]
    pub fn held(&self, b: usize, t: u64) -> (u32, bool) {
        if !self.holds_any {
            return (0, false);
        }
        let p = self.ports_per_bank as usize;
        let mut n = 0;
        let mut wr = false;
        for k in b * p..(b + 1) * p {
            let (from, until) = self.port_hold[k];
            if from < t && t < until {
                n += 1;
                wr |= self.hold_wr[k];
            }
        }
        (n, wr)
    }

    /// An access granted at `t` on bank `b` with latency `lat` keeps a port until `t + lat`
    /// under `rf.port_occupancy = "full_latency"`.
    #[inline]
    pub fn hold_port(&mut self, b: usize, t: u64, lat: u32, write: bool) {
        if lat <= 1 || !self.full_latency {
            return;
        }
        let p = self.ports_per_bank as usize;
        for k in b * p..(b + 1) * p {
            let (from, until) = self.port_hold[k];
            if !(from <= t && t < until) {
                self.port_hold[k] = (t, t + lat as u64);
                self.hold_wr[k] = write;
                self.holds_any = true;
                return;
            }
        }
    }

    /// Offers collector `ci`'s next read queued on bank `b` to the RF cache at `t`: `None`
    /// when it is not cached (the bank arbitration serves it), `Some(true)` when an RFC read
    /// port served it (the collector's read is done, no bank port taken), `Some(false)` when
    /// it hit but found no RFC read port (it stays queued). Only with an RF cache.
    fn rfc_offer(
        &mut self,
        ci: u32,
        b: usize,
        t: u64,
        regs: &mut RegAccessLog,
        launched: &[u64],
    ) -> Option<bool> {
        let c = &self.cus[ci as usize];
        let warp = c.warp as usize;
        let j = (0..c.n_reads as usize).find(|&j| c.reads[j].0 as usize == b)?;
        let reg = c.reads[j].1;
        let RegisterFileSlot::Partitioned(o) = &mut self.rf else {
            return None;
        };
        let route = match o.rfc_read(warp as u32, reg, t) {
            crate::timing::rf::RfcOperand::NotCached => return None,
            crate::timing::rf::RfcOperand::NoPort => return Some(false),
            crate::timing::rf::RfcOperand::Served(r) => r,
        };
        let lat = route.latency_cycles.max(1);
        let c = &mut self.cus[ci as usize];
        c.reads[j].0 = u16::MAX;
        c.granted += 1;
        c.arrive = c.arrive.max(t + lat as u64);
        if c.granted == c.n_reads {
            c.ready_at = c.arrive;
            self.cu_ready |= 1 << ci;
        }
        let cls = c.class;
        if let Some(m) = self.mon.as_mut() {
            let mask = m.read(ci as usize, route.part, lat);
            if self.wake_gated {
                self.rf.on_read(warp, reg, mask, t);
            }
        }
        self.opcoll_act[self.oc_idx[cls]].operands += 1;
        regs.access(warp, reg, t, false, launched);
        Some(true)
    }

    /// Grants bank `b`'s read ports to requesting collectors, round-robin from after the last
    /// one granted; a write this cycle and multi-cycle accesses still holding a port take
    /// ports first. A read whose entry is still waking (an organisation that gates its
    /// entries) is not eligible. With an RF cache a read that hits is served by the RFC's read
    /// ports before the bank's are considered, and takes none of the bank's (a hit refused an
    /// RFC port waits).
    fn arbitrate_bank(
        &mut self,
        b: usize,
        t: u64,
        ports: u32,
        n_cu: u32,
        regs: &mut RegAccessLog,
        launched: &[u64],
    ) -> bool {
        let mut req = self.bank_req[b];
        let (held, held_wr) = self.held(b, t);
        let free = ports.saturating_sub(self.bank_wr_used[b] + held);
        let wr_took = self.bank_wr_used[b] > 0 || held_wr;
        let mut granted = 0;
        let mut served = false;
        // round-robin over CUs starting after the last CU granted on this bank
        let start = if self.bank_rr[b] + 1 >= n_cu {
            0
        } else {
            self.bank_rr[b] + 1
        };
        let snap = req;
        let low = if start == 0 { 0 } else { (1u64 << start) - 1 };
        for part in [snap & !low, snap & low] {
            let mut bits = part;
            while bits != 0 {
                let ci = bits.trailing_zeros();
                bits &= bits - 1;
                if self.wake_gated {
                    let c = &self.cus[ci as usize];
                    let eligible = (0..c.n_reads as usize)
                        .any(|j| c.reads[j].0 as usize == b && c.not_before[j] <= t);
                    if !eligible {
                        continue;
                    }
                }
                if self.rfc_on {
                    match self.rfc_offer(ci, b, t, regs, launched) {
                        None => {}
                        Some(false) => continue,
                        Some(true) => {
                            served = true;
                            let c = &self.cus[ci as usize];
                            if !(0..c.n_reads as usize).any(|j| c.reads[j].0 as usize == b) {
                                req &= !(1u64 << ci);
                            }
                            continue;
                        }
                    }
                }
                if granted < free {
                    granted += 1;
                    self.bank_rr[b] = ci;
                    let lanes;
                    let (warp, reg, still) = {
                        let c = &mut self.cus[ci as usize];
                        lanes = c.inst.active_mask.count_ones() as u64;
                        let mut reg = 0;
                        let mut still = false;
                        let mut taken = false;
                        for j in 0..c.n_reads as usize {
                            let (bk, r) = c.reads[j];
                            if bk as usize == b && !taken && bk != u16::MAX && c.not_before[j] <= t
                            {
                                reg = r;
                                c.reads[j].0 = u16::MAX;
                                taken = true;
                            } else if bk as usize == b {
                                still = true;
                            }
                        }
                        (c.warp as usize, reg, still)
                    };
                    let route = self.rf.route(warp as u32, reg, false, t);
                    let lat = route.latency_cycles.max(1);
                    {
                        let c = &mut self.cus[ci as usize];
                        c.granted += 1;
                        c.arrive = c.arrive.max(t + lat as u64);
                        if c.granted == c.n_reads {
                            c.ready_at = c.arrive;
                            self.cu_ready |= 1 << ci;
                        }
                    }
                    self.hold_port(b, t, lat, false);
                    if let Some(m) = self.mon.as_mut() {
                        let mask = m.read(ci as usize, route.part, lat);
                        if self.wake_gated {
                            self.rf.on_read(warp, reg, mask, t);
                        }
                    }
                    if !still {
                        req &= !(1u64 << ci);
                    }
                    self.rf_act.reads[b] += 1;
                    self.rf_act.read_lanes[b] += lanes;
                    let cls = self.cus[ci as usize].class;
                    self.opcoll_act[self.oc_idx[cls]].operands += 1;
                    regs.access(warp, reg, t, false, launched);
                } else {
                    // eligible but not granted
                    if wr_took && granted == 0 {
                        self.rf_act.conflict_wr[b] += 1;
                    } else {
                        self.rf_act.conflict_rr[b] += 1;
                    }
                }
            }
        }
        if self.track_reads {
            self.bank_rd_used[b] = granted;
        }
        self.bank_req[b] = req;
        if req == 0 {
            self.banks_pending[b / 64] &= !(1u64 << (b % 64));
        }
        granted > 0 || served
    }

    /// The organisation has an RF cache (reads and results use its ports).
    #[inline]
    pub fn rfc_on(&self) -> bool {
        self.rfc_on
    }
}
