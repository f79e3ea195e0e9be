//! The memory side below the SMs: request/reply crossbars, L2 slices and DRAM channels
//! (simulator §2.7, §2.8), each in its own clock domain.
//!
//! Simplified, reservation-based model [G]: when an SM sends a request, its whole path is
//! computed at once from per-resource "free at" times (injection and ejection ports one flit per
//! icnt cycle, the ROP FIFO delay and one tag access per L2 cycle per slice, DRAM bank timing
//! with open rows and a shared data bus), and the reply is queued for the SM at its arrival time.
//! Requests are reserved in the order SMs send them. Most resources serve them in that order;
//! a DRAM channel's shared resources (activation spacing, column commands, data bus) take each
//! reservation in the earliest gap that fits ([`super::reservations`]), so a request ready on an
//! idle bank goes ahead of an older one waiting for its bank, as an FR-FCFS scheduler serves
//! it (each bank keeps arrival order: a younger row hit does not pass an older row miss of the
//! same bank); a request competes only once it is in the channel's scheduler queue of
//! `dram.sched_queue` entries, which it leaves at its column command. The L2 MSHRs merge
//! without a capacity limit, and interconnect buffers are unbounded. All times are in
//! femtoseconds so that the four clock domains keep exact integer periods.

use super::cache::{LineState, Probe, TagArray};
use super::divisor::Divisor;
use super::reservations::{drop_past, Reservations};
use crate::activity::{DramChannelActivity, IcntActivity, L2SliceActivity};
use crate::config::GpuConfig;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Kind of a memory request from an SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReqKind {
    Read,
    Write,
    Atomic,
}

/// Femtoseconds per cycle of a clock in MHz.
pub fn period_fs(mhz: f64) -> u64 {
    (1e9 / mhz).round().max(1.0) as u64
}

/// First edge of a clock with period `p` at or after `t`.
#[inline]
fn edge(t: u64, p: u64) -> u64 {
    t.div_ceil(p) * p
}

struct Bank {
    open_row: Option<u64>,
    last_act: u64,
    next_col: u64,
    next_act: u64,
}

/// A channel's shared resources as reservation timelines ([`Reservations`]), so that a request
/// ready on an idle bank goes ahead of an older one still waiting for its bank.
struct Channel {
    banks: Vec<Bank>,
    /// The data bus, flagged by direction (true: write) for the turnaround.
    bus: Reservations,
    /// Row activations, each `[ACT, ACT + tRRD)`.
    acts: Reservations,
    /// Column commands of the channel, each `[col, last col + tCCD)` (bank-group timing only).
    cols: Reservations,
    /// Column commands per bank group, each `[col, last col + tCCDL)` (bank-group timing only).
    group_cols: Vec<Reservations>,
    /// The scheduler queue: the (first) column-command times of the requests reserved, sorted;
    /// a request waits in the queue until then.
    queue: SchedQueue,
}

/// A channel's scheduler queue of `dram.sched_queue` entries: a request stays in it from its
/// arrival until its column command issues, and one that arrives while the queue is full
/// enters when the earliest of the queued requests leaves. This bounds how far the channel
/// reorders: only queued requests compete for the banks and the bus, as in GPGPU-Sim's
/// `frfcfs_scheduler`.
struct SchedQueue {
    /// Column-command times of the requests reserved, sorted; those long past are dropped.
    leave: Vec<u64>,
    size: usize,
}

impl SchedQueue {
    fn new(size: u32) -> SchedQueue {
        SchedQueue {
            leave: Vec::new(),
            size: size.max(1) as usize,
        }
    }

    /// When a request arriving at DRAM cycle `now` enters the queue: at `now` while fewer than
    /// `size` requests are still queued then, else when enough of them have left.
    fn entry_time(&mut self, now: u64) -> u64 {
        // drop the leave times long past (requests reach the channel nearly in time order; a
        // past leave time never decides the entry time below)
        drop_past(&mut self.leave, now, |&s| s);
        // the queue has room once the size-th last request to leave it has left
        let n = self.leave.len();
        if n < self.size {
            return now;
        }
        now.max(self.leave[n - self.size])
    }

    /// A request's column command issues (it leaves the queue) at DRAM cycle `at`.
    fn push(&mut self, at: u64) {
        let i = self.leave.partition_point(|&s| s <= at);
        self.leave.insert(i, at);
    }
}

/// Bank-group column timing (`dram.column_timing = "bank_groups"`), as GPGPU-Sim's `dram.cc`
/// applies it: a column command waits tCCD after the channel's previous one and tCCDL after
/// the previous one to the same bank group (JESD235A tCCDS/tCCDL for HBM2).
#[derive(Clone, Copy)]
struct BankGroups {
    /// Banks per group (`n_banks / n_bank_groups`).
    per_group: u64,
    /// Groups (`n_bank_groups`).
    groups: u64,
    /// Group = bank mod groups (else bank / banks per group).
    low_bits: bool,
}

impl BankGroups {
    fn of(cfg: &GpuConfig) -> Option<BankGroups> {
        let d = &cfg.dram;
        (d.column_timing == crate::config::DramColumnTiming::BankGroups).then(|| {
            let groups = d.n_bank_groups.clamp(1, d.n_banks.max(1)) as u64;
            BankGroups {
                per_group: (d.n_banks.max(1) as u64 / groups).max(1),
                groups,
                low_bits: d.bank_group_index == crate::config::BankGroupIndex::LowBits,
            }
        })
    }

    /// The group of bank `bank`.
    fn group(&self, bank: usize) -> usize {
        let b = bank as u64;
        let g = if self.low_bits {
            b % self.groups
        } else {
            b / self.per_group
        };
        g.min(self.groups - 1) as usize
    }
}

/// Bit positions of the row and bank fields of the channel-local address.
struct AddrMap {
    row_bits: Vec<u32>,
    bank_bits: Vec<u32>,
}

impl AddrMap {
    fn parse(s: &str) -> AddrMap {
        let chars: Vec<char> = s.chars().filter(|c| *c != '.').collect();
        let n = chars.len() as u32;
        let mut row_bits = Vec::new();
        let mut bank_bits = Vec::new();
        for (i, c) in chars.iter().enumerate() {
            let bit = n - 1 - i as u32;
            match c {
                'R' => row_bits.push(bit),
                'B' => bank_bits.push(bit),
                _ => {}
            }
        }
        row_bits.reverse();
        bank_bits.reverse();
        AddrMap {
            row_bits,
            bank_bits,
        }
    }
    fn gather(bits: &[u32], a: u64) -> u64 {
        bits.iter()
            .enumerate()
            .fold(0, |acc, (i, &b)| acc | (((a >> b) & 1) << i))
    }
}

/// The contents of the L2 slices between kernel launches. Each launch starts its memory
/// system's timing afresh (no request in flight, every queue free, DRAM rows closed) but finds
/// the L2 as the previous launch left it, as on the hardware and in GPGPU-Sim; host-to-device
/// copies may fill it too (`mem.memcpy_fills_l2`).
pub struct L2State {
    slices: Vec<TagArray>,
}

/// A reply waiting for its SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Reply {
    pub time_fs: u64,
    pub seq: u64,
    pub token: u32,
}

pub struct MemSys {
    p_icnt: u64,
    p_l2: u64,
    p_dram: u64,
    flit: u64,
    icnt_lat: u64,
    n_ch: Divisor,
    n_sub: Divisor,
    interleave: Divisor,
    req_in_free: Vec<u64>,
    req_out_free: Vec<u64>,
    rep_in_free: Vec<u64>,
    rep_out_free: Vec<u64>,
    slices: Vec<TagArray>,
    slice_free: Vec<u64>,
    rop: u64,
    l2_lat: u64,
    atomic_lat: u64,
    channels: Vec<Channel>,
    map: AddrMap,
    t: crate::config::DramTiming,
    burst_cycles: u64,
    burst_bytes: u64,
    dram_lat_fs: u64,
    n_banks: Divisor,
    bank_groups: Option<BankGroups>,
    replies: Vec<BinaryHeap<Reverse<Reply>>>,
    seq: u64,
    pub l2_act: Vec<L2SliceActivity>,
    pub dram_act: Vec<DramChannelActivity>,
    pub icnt_act: IcntActivity,
}

impl MemSys {
    pub fn new(cfg: &GpuConfig) -> Self {
        let n_sm = cfg.gpu.n_sm as usize;
        let n_sl = cfg.n_l2_slices() as usize;
        let n_ch = cfg.mem.n_channels as usize;
        let bank_groups = BankGroups::of(cfg);
        let ch = || Channel {
            banks: (0..cfg.dram.n_banks)
                .map(|_| Bank {
                    open_row: None,
                    last_act: 0,
                    next_col: 0,
                    next_act: 0,
                })
                .collect(),
            bus: Reservations::default(),
            acts: Reservations::default(),
            cols: Reservations::default(),
            group_cols: vec![Reservations::default(); bank_groups.map_or(0, |g| g.groups as usize)],
            queue: SchedQueue::new(cfg.dram.sched_queue),
        };
        MemSys {
            p_icnt: period_fs(cfg.gpu.icnt_mhz),
            p_l2: period_fs(cfg.gpu.l2_mhz),
            p_dram: period_fs(cfg.gpu.dram_mhz),
            flit: cfg.icnt.flit_bytes as u64,
            icnt_lat: cfg.icnt.latency as u64,
            n_ch: Divisor::new(n_ch as u64),
            n_sub: Divisor::new(cfg.mem.subparts_per_channel as u64),
            interleave: Divisor::new(cfg.mem.channel_interleave_bytes as u64),
            req_in_free: vec![0; n_sm],
            req_out_free: vec![0; n_sl],
            rep_in_free: vec![0; n_sl],
            rep_out_free: vec![0; n_sm],
            slices: (0..n_sl)
                .map(|_| TagArray::new(&cfg.l2.geometry()))
                .collect(),
            slice_free: vec![0; n_sl],
            rop: cfg.l2.rop_latency as u64,
            l2_lat: cfg.l2.latency as u64,
            atomic_lat: cfg.l2.atomic_latency as u64,
            channels: (0..n_ch).map(|_| ch()).collect(),
            map: AddrMap::parse(&cfg.mem.addr_map),
            t: cfg.dram.timing.clone(),
            burst_cycles: (cfg.dram.burst_length / cfg.dram.data_cmd_ratio.max(1)).max(1) as u64,
            burst_bytes: cfg.dram_burst_bytes().max(1) as u64,
            // core cycles, as GPGPU-Sim's DRAM latency queue counts them
            dram_lat_fs: cfg.dram.latency as u64 * period_fs(cfg.gpu.core_mhz),
            n_banks: Divisor::new(cfg.dram.n_banks.max(1) as u64),
            bank_groups,
            replies: (0..n_sm).map(|_| BinaryHeap::new()).collect(),
            seq: 0,
            l2_act: vec![L2SliceActivity::default(); n_sl],
            dram_act: vec![DramChannelActivity::default(); n_ch],
            icnt_act: IcntActivity {
                req_packets: vec![0; n_sm],
                req_flits: vec![0; n_sm],
                rep_packets: vec![0; n_sl],
                rep_flits: vec![0; n_sl],
            },
        }
    }

    /// (channel, sub-partition) of an address: chunk = addr / interleave, channel = chunk mod C,
    /// sub-partition = (chunk / C) mod S. Returns the slice index and channel-local address.
    fn route(&self, addr: u64) -> (usize, usize, u64) {
        let chunk = self.interleave.div(addr);
        let ch = self.n_ch.rem(chunk);
        let q = self.n_ch.div(chunk);
        let sub = self.n_sub.rem(q);
        let local = (q * self.interleave.get()) | self.interleave.rem(addr);
        ((ch * self.n_sub.get() + sub) as usize, ch as usize, local)
    }

    fn flits(&self, bytes: u64) -> u64 {
        bytes.div_ceil(self.flit).max(1)
    }

    /// Sends a request of `kind` for `bytes` bytes at `addr` (sector mask `mask` within the L2
    /// line) from SM `sm` at time `t_fs`; the reply (data or write ack) is queued with `token`.
    pub fn send(&mut self, sm: usize, t_fs: u64, kind: ReqKind, addr: u64, bytes: u64, token: u32) {
        let (slice, ch, local) = self.route(addr);
        // Request network: read request 8 B, write 8 B + data, atomic 8 B + data.
        let pkt = match kind {
            ReqKind::Read => 8,
            ReqKind::Write | ReqKind::Atomic => 8 + bytes,
        };
        let fl = self.flits(pkt);
        self.icnt_act.req_packets[sm] += 1;
        self.icnt_act.req_flits[sm] += fl;
        let pi = self.p_icnt;
        let start = edge(t_fs, pi).max(self.req_in_free[sm]);
        self.req_in_free[sm] = start + fl * pi;
        let arrive = (start + (self.icnt_lat + fl) * pi).max(self.req_out_free[slice] + fl * pi);
        self.req_out_free[slice] = arrive;

        // L2 slice: ROP FIFO, then one tag access per L2 cycle.
        let pl = self.p_l2;
        let access = edge(arrive, pl) + self.rop * pl;
        let access = access.max(self.slice_free[slice]);
        self.slice_free[slice] = access + pl;
        let tags = &mut self.slices[slice];
        let line = tags.line_of(addr);
        let mask = tags.sector_mask(addr, bytes);
        let mut data_ready = access + self.l2_lat * pl;
        let act = &mut self.l2_act[slice];
        let probe = tags.probe(line, mask);
        let mut fetch_mask = 0u32;
        let mut evicted = None;
        match (kind, probe) {
            (ReqKind::Write, Probe::Hit { way, .. } | Probe::Partial { way, .. }) => {
                act.write.hit += 1;
                tags.write(way, mask);
            }
            (ReqKind::Write, Probe::Miss) => {
                // lazy fetch on read: allocate without fetching, keep the written sectors
                act.write.miss += 1;
                if let Some((way, ev)) = tags.allocate(line, LineState::Valid, access) {
                    tags.write(way, mask);
                    evicted = Some(ev);
                }
            }
            (_, Probe::Hit { ready_at, .. }) => {
                if kind == ReqKind::Atomic {
                    act.atomic.hit += 1;
                } else {
                    act.read.hit += 1;
                }
                data_ready = data_ready.max(ready_at + pl);
            }
            (_, Probe::Partial { way, .. }) => {
                let missing = mask & !tags.valid_mask(way);
                if kind == ReqKind::Atomic {
                    act.atomic.miss += 1;
                } else {
                    act.read.miss += 1;
                }
                if missing == 0 {
                    data_ready = data_ready.max(tags.ready_at(way) + pl);
                } else {
                    fetch_mask = missing;
                }
            }
            (_, Probe::Miss) => {
                if kind == ReqKind::Atomic {
                    act.atomic.miss += 1;
                } else {
                    act.read.miss += 1;
                }
                fetch_mask = mask;
            }
        }
        if fetch_mask != 0 {
            let sector = tags.sector_bytes();
            let fetch_bytes = fetch_mask.count_ones() as u64 * sector;
            let first = fetch_mask.trailing_zeros() as u64;
            let lb = tags.line_bytes();
            let done = self.dram_access(
                ch,
                local - (local % lb) + first * sector,
                fetch_bytes,
                false,
                access + pl,
            );
            let tags = &mut self.slices[slice];
            let way = match tags.find(line) {
                Some(w) => Some(w),
                None => tags
                    .allocate(line, LineState::Reserved, done)
                    .map(|(w, ev)| {
                        evicted = Some(ev);
                        w
                    }),
            };
            if let Some(w) = way {
                tags.fill(w, fetch_mask, done);
            }
            self.l2_act[slice].fills += 1;
            data_ready = data_ready.max(done + pl);
        }
        if let Some(ev) = evicted {
            if let (Some(a), d) = (ev.line_addr, ev.dirty) {
                if d != 0 {
                    self.l2_act[slice].writebacks += 1;
                    let bytes = d.count_ones() as u64 * self.slices[slice].sector_bytes();
                    let (_, ech, elocal) = self.route(a);
                    self.dram_access(ech, elocal, bytes, true, access + pl);
                }
            }
        }
        if kind == ReqKind::Atomic {
            if let Some(w) = self.slices[slice].find(line) {
                self.slices[slice].write(w, mask);
            }
            data_ready += self.atomic_lat * pl;
        }
        // Reply network: read/atomic reply 8 B + data, write ack 8 B.
        let rpkt = match kind {
            ReqKind::Read | ReqKind::Atomic => 8 + bytes,
            ReqKind::Write => 8,
        };
        let fl = self.flits(rpkt);
        self.icnt_act.rep_packets[slice] += 1;
        self.icnt_act.rep_flits[slice] += fl;
        let start = edge(data_ready, pi).max(self.rep_in_free[slice]);
        self.rep_in_free[slice] = start + fl * pi;
        let back = (start + (self.icnt_lat + fl) * pi).max(self.rep_out_free[sm] + fl * pi);
        self.rep_out_free[sm] = back;
        self.seq += 1;
        self.replies[sm].push(Reverse(Reply {
            time_fs: back,
            seq: self.seq,
            token,
        }));
    }

    /// One DRAM access of `bytes` at channel-local address `local` issued no earlier than
    /// `t_fs`; returns the time its data is complete (including `dram.latency`, in core cycles).
    ///
    /// The bank's own commands keep arrival order (open row, tRAS, tRP, tRC, its column
    /// spacing); the channel's shared resources (activations tRRD apart, column commands tCCD
    /// and, per bank group, tCCDL apart, the data bus with its read/write turnaround) are
    /// reserved in the earliest gap that fits ([`Reservations`]), as FR-FCFS serves a ready bank
    /// while another waits.
    fn dram_access(&mut self, ch: usize, local: u64, bytes: u64, write: bool, t_fs: u64) -> u64 {
        let pd = self.p_dram;
        let t = &self.t;
        let bank_id = self
            .n_banks
            .rem(AddrMap::gather(&self.map.bank_bits, local)) as usize;
        let row = AddrMap::gather(&self.map.row_bits, local);
        let bursts = bytes.div_ceil(self.burst_bytes).max(1);
        let c = &mut self.channels[ch];
        let act = &mut self.dram_act[ch];
        // a request enters the scheduler queue when it has room
        let now = c.queue.entry_time(t_fs.div_ceil(pd));
        let b = &mut c.banks[bank_id];
        let no_pad = |_: bool, _: bool| 0;
        let col = match b.open_row {
            Some(r) if r == row => {
                act.row_hits += 1;
                now.max(b.next_col)
            }
            open => {
                let mut a = now.max(b.next_act);
                if open.is_some() {
                    act.precharges += 1;
                    let pre = now.max(b.last_act + t.ras as u64).max(b.next_col);
                    a = a.max(pre + t.rp as u64);
                }
                a = a.max(if b.last_act > 0 {
                    b.last_act + t.rc as u64
                } else {
                    0
                });
                let rrd = (t.rrd as u64).max(1);
                a = c.acts.earliest(a, rrd, false, 0, no_pad);
                c.acts.reserve(a, a + rrd, false);
                act.activates += 1;
                b.open_row = Some(row);
                b.last_act = a;
                b.next_act = a + t.rc as u64;
                a + t.rcd as u64
            }
        };
        let (cdlr, wr) = (t.cdlr as u64, t.wr as u64);
        // turnaround before a burst of direction `next` after one of direction `prev`
        let turn = move |prev: bool, next: bool| match (prev, next) {
            (false, true) => cdlr,
            (true, false) => wr,
            _ => 0,
        };
        let max_turn = cdlr.max(wr);
        let lat = if write { t.wl as u64 } else { t.cl as u64 };
        let busy = bursts * self.burst_cycles;
        let (data, end) = match self.bank_groups {
            None => {
                let data = c.bus.earliest(col + lat, busy, write, max_turn, turn);
                b.next_col = col + (t.ccdl as u64).max(1) * bursts;
                c.queue.push(data - lat);
                (data, data + busy)
            }
            Some(g) => {
                // The access's bursts are column commands to one bank, so to one group: each
                // waits tCCD from the channel's other column commands and tCCDL from its
                // group's; the data follow each command by CL (WL) on the shared bus.
                let grp = g.group(bank_id);
                let ccd = (t.ccd as u64).max(1);
                let ccdl = (t.ccdl as u64).max(1);
                let span = ccd.max(ccdl) * (bursts - 1);
                let mut col = col;
                loop {
                    let c1 = c.cols.earliest(col, span + ccd, false, 0, no_pad);
                    let c2 = c.group_cols[grp].earliest(c1, span + ccdl, false, 0, no_pad);
                    if c2 != col {
                        col = c2;
                        continue;
                    }
                    let len = (span + self.burst_cycles).max(busy);
                    let d = c.bus.earliest(col + lat, len, write, max_turn, turn);
                    if d != col + lat {
                        col = d - lat;
                        continue;
                    }
                    break;
                }
                let last = col + span;
                c.queue.push(col);
                c.cols.reserve(col, last + ccd, false);
                c.group_cols[grp].reserve(col, last + ccdl, false);
                b.next_col = last + ccdl;
                let data = col + lat;
                (data, (data + busy).max(last + lat + self.burst_cycles))
            }
        };
        c.bus.reserve(data, end, write);
        act.bus_busy_cycles += busy;
        if write {
            act.writes += bursts;
        } else {
            act.reads += bursts;
        }
        end * pd + self.dram_lat_fs
    }

    /// Starts from the L2 contents `state` (from [`MemSys::take_l2`] of an earlier launch).
    pub fn restore_l2(&mut self, state: L2State) {
        if state.slices.len() == self.slices.len() {
            self.slices = state.slices;
        }
    }

    /// The L2 contents, settled for the next launch ([`TagArray::settle`]).
    pub fn take_l2(&mut self) -> L2State {
        let mut slices = std::mem::take(&mut self.slices);
        for s in &mut slices {
            s.settle();
        }
        L2State { slices }
    }

    /// A host-to-device copy between launches when `mem.memcpy_fills_l2` is on: the copied
    /// sectors go into the L2 contents `l2` (created if none yet) for the next launch
    /// ([`MemSys::memcpy_to_l2`]); otherwise nothing.
    pub fn copy_between_launches(cfg: &GpuConfig, l2: &mut Option<L2State>, addr: u64, bytes: u64) {
        if !cfg.mem.memcpy_fills_l2 {
            return;
        }
        let mut mem = MemSys::new(cfg);
        if let Some(s) = l2.take() {
            mem.restore_l2(s);
        }
        mem.memcpy_to_l2(addr, bytes);
        *l2 = Some(mem.take_l2());
    }

    /// A host-to-device copy of `bytes` bytes at `addr` written through the L2, as GPGPU-Sim's
    /// `-gpgpu_perf_sim_memcpy` does: every sector it covers becomes valid (clean) in the
    /// slice its address maps to, allocating lines and displacing others by the replacement
    /// policy. It takes no simulated time (copies happen between launches).
    pub fn memcpy_to_l2(&mut self, addr: u64, bytes: u64) {
        if bytes == 0 || self.slices.is_empty() {
            return;
        }
        let sector = self.slices[0].sector_bytes().max(1);
        let mut a = addr - addr % sector;
        while a < addr + bytes {
            let (slice, _, _) = self.route(a);
            let tags = &mut self.slices[slice];
            let line = tags.line_of(a);
            let mask = tags.sector_mask(a, sector);
            let way = match tags.find(line) {
                Some(w) => Some(w),
                None => tags.allocate(line, LineState::Valid, 0).map(|(w, _)| w),
            };
            if let Some(w) = way {
                tags.fill(w, mask, 0);
            }
            a += sector;
        }
    }

    /// Pops the next reply for `sm` that has arrived by `t_fs`.
    #[inline]
    pub fn pop_reply(&mut self, sm: usize, t_fs: u64) -> Option<u32> {
        match self.replies[sm].peek() {
            Some(Reverse(r)) if r.time_fs <= t_fs => {
                let tok = r.token;
                self.replies[sm].pop();
                Some(tok)
            }
            _ => None,
        }
    }

    /// Arrival time of the earliest pending reply for `sm`.
    #[inline]
    pub fn next_reply_fs(&self, sm: usize) -> Option<u64> {
        self.replies[sm].peek().map(|Reverse(r)| r.time_fs)
    }

    pub fn dram_period_fs(&self) -> u64 {
        self.p_dram
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{BankGroupIndex, DramColumnTiming};

    /// A one-channel memory side whose channel-local address is row | bank (4 bits at 12..16)
    /// | column | byte, with 16 banks in 4 groups, one DRAM cycle per burst, tCCD 1 and tCCDL
    /// 4 (wide apart, so that each constraint shows), and no fixed latency.
    fn mem(timing: DramColumnTiming, index: BankGroupIndex) -> MemSys {
        let mut cfg = GpuConfig::preset("gtx480").unwrap();
        cfg.mem.n_channels = 1;
        cfg.mem.addr_map = "RRRRRRRRRRRRBBBBCCCCCCCSSSSS".into();
        cfg.dram.n_banks = 16;
        cfg.dram.n_bank_groups = 4;
        cfg.dram.column_timing = timing;
        cfg.dram.bank_group_index = index;
        cfg.dram.burst_length = 2;
        cfg.dram.data_cmd_ratio = 2;
        cfg.dram.timing.ccd = 1;
        cfg.dram.timing.ccdl = 4;
        cfg.dram.latency = 0;
        MemSys::new(&cfg)
    }

    fn local(bank: u64, row: u64) -> u64 {
        row << 16 | bank << 12
    }

    /// DRAM cycles between the completion of a read of bank `a` and a read of bank `b` issued
    /// at the same time, both rows already open (row hits: only column timing separates them).
    fn gap(m: &mut MemSys, a: u64, b: u64) -> u64 {
        let pd = m.dram_period_fs();
        let burst = m.burst_bytes;
        m.dram_access(0, local(a, 1), burst, false, 0);
        m.dram_access(0, local(b, 1), burst, false, 0);
        let t = 1_000_000 * pd;
        let first = m.dram_access(0, local(a, 1), burst, false, t);
        let second = m.dram_access(0, local(b, 1), burst, false, t);
        assert_eq!(m.dram_act[0].activates, 2, "both accesses are row hits");
        (second - first) / pd
    }

    #[test]
    fn same_bank_group_waits_tccdl_other_group_tccd() {
        let mut m = mem(DramColumnTiming::BankGroups, BankGroupIndex::HighBits);
        assert_eq!(gap(&mut m, 0, 1), 4, "banks 0 and 1 share group 0: tCCDL");
        let mut m = mem(DramColumnTiming::BankGroups, BankGroupIndex::HighBits);
        assert_eq!(gap(&mut m, 0, 4), 1, "bank 4 is in group 1: tCCD");
    }

    #[test]
    fn low_bits_index_groups_by_bank_mod_groups() {
        let mut m = mem(DramColumnTiming::BankGroups, BankGroupIndex::LowBits);
        assert_eq!(gap(&mut m, 0, 1), 1, "bank 1 is in group 1: tCCD");
        let mut m = mem(DramColumnTiming::BankGroups, BankGroupIndex::LowBits);
        assert_eq!(gap(&mut m, 0, 4), 4, "bank 4 is in group 0: tCCDL");
    }

    #[test]
    fn per_bank_spacing_ignores_groups() {
        // Without bank groups only the data bus (one cycle per burst) separates two banks.
        let mut m = mem(DramColumnTiming::PerBank, BankGroupIndex::HighBits);
        assert_eq!(gap(&mut m, 0, 1), 1);
        let mut m = mem(DramColumnTiming::PerBank, BankGroupIndex::HighBits);
        assert_eq!(gap(&mut m, 0, 4), 1);
    }

    #[test]
    fn a_ready_bank_goes_ahead_of_one_that_waits_for_its_row() {
        // Bank 0 must close row 1 and open row 2; bank 1's row 1 is open. Reserved after the
        // row miss, the row hit still uses the bus first (FR-FCFS across banks).
        let mut m = mem(DramColumnTiming::PerBank, BankGroupIndex::HighBits);
        let pd = m.dram_period_fs();
        let burst = m.burst_bytes;
        m.dram_access(0, local(0, 1), burst, false, 0);
        m.dram_access(0, local(1, 1), burst, false, 0);
        let t = 1_000_000 * pd;
        let miss = m.dram_access(0, local(0, 2), burst, false, t);
        let hit = m.dram_access(0, local(1, 1), burst, false, t);
        assert!(hit < miss, "hit done at {hit}, miss at {miss}");
        assert_eq!((hit - t) / pd, m.t.cl as u64 + m.burst_cycles);
    }

    #[test]
    fn a_full_scheduler_queue_holds_a_request_back() {
        // With one queue entry the row hit waits for the row miss's column command.
        let mut q = SchedQueue::new(1);
        assert_eq!(q.entry_time(5), 5);
        q.push(40);
        assert_eq!(q.entry_time(6), 40);
        assert_eq!(q.entry_time(41), 41);
        let mut q = SchedQueue::new(2);
        q.push(40);
        assert_eq!(q.entry_time(6), 6, "a second entry is free");
        q.push(30);
        assert_eq!(q.entry_time(7), 30, "full: the first to leave makes room");
    }

    #[test]
    fn bursts_of_one_access_are_spaced_by_tccdl() {
        // Four bursts to one bank: with bank groups each column command waits tCCDL after the
        // previous one (3 × 4 cycles before the last), so the data end 3 × (4 − 1) cycles
        // later than the four back-to-back bursts the per-bank spacing streams.
        let run = |timing| {
            let mut m = mem(timing, BankGroupIndex::HighBits);
            let pd = m.dram_period_fs();
            let burst = m.burst_bytes;
            m.dram_access(0, local(0, 1), burst, false, 0);
            let t = 1_000_000 * pd;
            (m.dram_access(0, local(0, 1), 4 * burst, false, t) - t) / pd
        };
        assert_eq!(
            run(DramColumnTiming::BankGroups),
            run(DramColumnTiming::PerBank) + 9
        );
    }
}
