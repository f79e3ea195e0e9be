//! One core's scheduler cycle in the reference-mode model: write-backs (and DWF warp
//! formation), readiness of thread groups, the issue choice of each mode and policy, and the
//! execution of the chosen threads on the emulator.

use super::state::{Core, InFlight, Model, Policy};
use super::stats::{bucket, DwfOccupancy, RefStats};
use crate::config::reconv::{DwfPolicy, ReconvMode};
use crate::emu::pool::ThreadPool;
use crate::inst::{Family, OpClass, WarpInst, WARP_SIZE};
use crate::timing::dwf::formation::{Former, Inserted, Tid};
use crate::SimError;
use std::cmp::Reverse;

impl Model<'_, '_> {
    /// Threads of CTA `cta` (thread ids `ts`, all at `pc`, or each at its own PC for
    /// `pc == u32::MAX`) become ready to issue.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn make_ready(
        &mut self,
        core: &mut Core,
        cta: u32,
        base: u32,
        pc: u32,
        ts: Vec<u32>,
        pool: &mut ThreadPool,
        _stats: &mut RefStats,
    ) -> Result<(), SimError> {
        if ts.is_empty() {
            return Ok(());
        }
        match self.mode {
            ReconvMode::Pdom => {}
            ReconvMode::Nrec | ReconvMode::Mimd => {
                let merge = self.mode == ReconvMode::Mimd;
                let Some(c) = core.ctas.iter_mut().find(|c| c.id == cta) else {
                    return Ok(());
                };
                let mut ts = ts;
                ts.sort_unstable();
                for chunk in ts.chunk_by(|a, b| a / WARP_SIZE as u32 == b / WARP_SIZE as u32) {
                    let q = &mut c.ready[(chunk[0] / WARP_SIZE as u32) as usize];
                    match q.iter_mut().find(|g| merge && g.0 == pc) {
                        Some(g) => {
                            g.1.extend_from_slice(chunk);
                            g.1.sort_unstable();
                        }
                        None => q.push_back((pc, chunk.to_vec())),
                    }
                }
            }
            ReconvMode::Dwf => {
                let tids: Vec<Tid> = ts
                    .into_iter()
                    .map(|t| Tid {
                        cta,
                        thread: t,
                        core_tid: base + t,
                    })
                    .collect();
                core.wb_wait.push_back((pc, tids));
                self.drain_wb(core);
            }
        }
        let _ = pool;
        Ok(())
    }

    /// Forms warps from the waiting write-back groups while the pool has room (§5.3 step 3).
    pub(super) fn drain_wb(&mut self, core: &mut Core) {
        let (Some(f), Some(p)) = (core.former.as_mut(), core.policy.as_mut()) else {
            return;
        };
        let mut ins: Vec<Inserted> = Vec::new();
        while let Some((pc, tids)) = core.wb_wait.front() {
            if f.free_entries() < Former::entries_needed(1) {
                break;
            }
            f.insert_group(*pc, tids, &mut ins);
            core.wb_wait.pop_front();
        }
        for i in ins {
            match p {
                Policy::Majority(mj) => mj.insert(i, f),
                Policy::List(_, l) => {
                    if !l.contains(&i.wid) {
                        l.push(i.wid);
                    }
                }
            }
        }
    }

    pub(super) fn push_flight(&mut self, core: &mut Core, done: u64, f: InFlight) {
        core.flights_live += 1;
        core.mem_flights += u32::from(f.mem);
        let i = match core.free_flights.pop() {
            Some(i) => {
                core.flights[i] = Some(f);
                i
            }
            None => {
                core.flights.push(Some(f));
                core.flights.len() - 1
            }
        };
        core.seq += 1;
        core.events
            .push(Reverse((done, (core.seq << 20) | (i as u64 & 0xF_FFFF))));
    }

    /// One scheduler cycle of a core at pipeline cycle `t`: write-backs, then one issue.
    pub(super) fn core_cycle(
        &mut self,
        core: &mut Core,
        t: u64,
        pool: &mut ThreadPool,
        stats: &mut RefStats,
    ) -> Result<bool, SimError> {
        let mut progressed = false;
        if let (Some(Policy::Majority(mj)), Some(f)) = (core.policy.as_mut(), core.former.as_mut())
        {
            mj.begin_cycle(f);
        }
        // write-back
        while let Some(&Reverse((done, key))) = core.events.peek() {
            if done > t {
                break;
            }
            core.events.pop();
            progressed = true;
            let i = (key & 0xF_FFFF) as usize;
            let fl = core.flights[i].take().expect("flight");
            core.free_flights.push(i);
            core.flights_live -= 1;
            core.mem_flights -= u32::from(fl.mem);
            let Some(k) = core.ctas.iter().position(|c| c.id == fl.cta) else {
                continue;
            };
            core.ctas[k].inflight -= 1;
            let base = core.ctas[k].base_tid;
            if let Some(wi) = fl.warp {
                core.ctas[k].locked[wi as usize] = false;
                continue;
            }
            // group the continuing threads by next PC
            let mut groups: Vec<(u32, Vec<u32>)> = Vec::new();
            for (th, np) in fl.next {
                match groups.iter_mut().find(|g| g.0 == np) {
                    Some(g) => g.1.push(th),
                    None => groups.push((np, vec![th])),
                }
            }
            for (pc, ts) in groups {
                self.make_ready(core, fl.cta, base, pc, ts, pool, stats)?;
            }
            // threads of this instruction that executed `bar.sync`: released while in flight
            // they continue now, otherwise they park until the release
            let mut go = Vec::new();
            for th in fl.bar {
                if pool.thread(fl.cta, th).is_some_and(|s| s.at_barrier) {
                    core.ctas[k].parked[th as usize] = true;
                } else {
                    go.push(th);
                }
            }
            self.ready_released(core, fl.cta, go, pool, stats)?;
        }
        if !core.wb_wait.is_empty() {
            self.drain_wb(core);
            if let Some(f) = core.former.as_mut() {
                if !core.wb_wait.is_empty() {
                    f.stats.pool_full_stall += 1;
                }
            }
        }
        // issue
        let held = t < core.busy_until;
        let lanes = if held {
            0
        } else {
            self.issue(core, t, pool, stats)?
        };
        if let (Some(Policy::Majority(mj)), true) = (core.policy.as_mut(), true) {
            mj.end_cycle();
        }
        stats.simd_buckets[bucket(lanes)] += 1;
        if lanes == 0 {
            if held {
                stats.w0.stall += 1;
            } else if core.ctas.is_empty() {
                stats.w0.empty += 1;
            } else if core.flights_live > 0 && core.mem_flights == core.flights_live {
                stats.w0.mem += 1;
            } else {
                stats.w0.idle += 1;
            }
        }
        if let Some(f) = core.former.as_ref() {
            let o = &mut core.occupancy;
            DwfOccupancy::add(&mut o.pool, f.occupied_entries(), 1);
            DwfOccupancy::add(&mut o.lut, f.lut_entries(), 1);
            if let Some(Policy::Majority(mj)) = core.policy.as_ref() {
                DwfOccupancy::add(&mut o.heap, mj.live_pcs(), 1);
            }
        }
        Ok(progressed || lanes > 0)
    }

    /// Issues at most one warp; returns the threads issued.
    pub(super) fn issue(
        &mut self,
        core: &mut Core,
        t: u64,
        pool: &mut ThreadPool,
        stats: &mut RefStats,
    ) -> Result<u32, SimError> {
        match self.mode {
            ReconvMode::Pdom => {
                let total: usize = core.ctas.iter().map(|c| c.nwarps as usize).sum();
                for k in 0..total {
                    let pos = (core.rr + 1 + k) % total.max(1);
                    let (ci, wi) = core.static_warp(pos);
                    let id = core.ctas[ci].id;
                    if core.ctas[ci].locked[wi] {
                        continue;
                    }
                    // threads issued: the lanes of the top entry (predicated-off lanes
                    // included, as in the other modes)
                    let (n, mask) = match pool.static_top(id, wi as u32) {
                        Some((_, mask, false)) => (mask.count_ones(), mask),
                        _ => continue,
                    };
                    let mut rec = std::mem::replace(
                        &mut self.rec,
                        WarpInst::new(0, Family::Int, OpClass::Nop, 0),
                    );
                    if !pool.step_static(id, wi as u32, t, &mut rec)? {
                        self.rec = rec;
                        continue;
                    }
                    core.rr = pos;
                    if let Some(r) = self.act.as_deref_mut() {
                        let lanes = rec.active_mask.count_ones() as u64;
                        r.group(self.cfg, core.idx, &rec, lanes, None, pos as u32, true)?;
                    }
                    let addrs: Vec<u64> = rec.mem.as_ref().map_or(Vec::new(), |m| {
                        (0..WARP_SIZE)
                            .filter(|&l| rec.active_mask >> l & 1 != 0)
                            .map(|l| m.addrs[l])
                            .collect()
                    });
                    let lat = self.latency(core, t, &rec, &addrs);
                    let mem = rec.family == Family::Mem;
                    self.rec = rec;
                    core.ctas[ci].locked[wi] = true;
                    core.ctas[ci].inflight += 1;
                    for l in 0..WARP_SIZE as u32 {
                        if mask >> l & 1 != 0 {
                            core.ctas[ci].issued(wi as u32 * WARP_SIZE as u32 + l, t);
                        }
                    }
                    self.push_flight(
                        core,
                        t + lat,
                        InFlight {
                            cta: id,
                            warp: Some(wi as u32),
                            next: Vec::new(),
                            bar: Vec::new(),
                            mem,
                        },
                    );
                    stats.warp_issues += 1;
                    stats.thread_insts += n as u64;
                    core.busy_until = t + self.sc;
                    return Ok(n.max(1));
                }
                Ok(0)
            }
            ReconvMode::Nrec | ReconvMode::Mimd => {
                // static warps in PDOM's round-robin order from the one after the last issued:
                // NREC issues the oldest ready split warp of the first warp that has one; MIMD
                // fills the w lanes with the ready thread groups of consecutive warps (a group
                // that does not fit is split, and its warp comes first next time)
                let total: usize = core.ctas.iter().map(|c| c.nwarps as usize).sum();
                let mut room = if self.mode == ReconvMode::Mimd {
                    self.w as usize
                } else {
                    usize::MAX
                };
                let mut take: Vec<(u32, u32, Vec<u32>)> = Vec::new();
                for k in 0..total {
                    if room == 0 || (self.mode == ReconvMode::Nrec && !take.is_empty()) {
                        break;
                    }
                    let pos = (core.rr + 1 + k) % total.max(1);
                    let (ci, wi) = core.static_warp(pos);
                    let id = core.ctas[ci].id;
                    let q = &mut core.ctas[ci].ready[wi];
                    if q.is_empty() {
                        continue;
                    }
                    while room > 0 {
                        let Some(g) = q.front_mut() else {
                            break;
                        };
                        let pc = g.0;
                        let ts = if g.1.len() <= room {
                            q.pop_front().expect("front").1
                        } else {
                            g.1.drain(..room).collect()
                        };
                        room = room.saturating_sub(ts.len());
                        take.push((id, pc, ts));
                        if self.mode == ReconvMode::Nrec {
                            break;
                        }
                    }
                    core.rr = if q.is_empty() || self.mode == ReconvMode::Nrec {
                        pos
                    } else {
                        (pos + total - 1) % total
                    };
                }
                let n: u32 = take.iter().map(|g| g.2.len() as u32).sum();
                for (cta, pc, ts) in take {
                    self.exec_group(core, t, pool, cta, pc, &ts, stats)?;
                }
                if n > 0 {
                    stats.warp_issues += 1;
                    stats.thread_insts += n as u64;
                    core.busy_until = t + self.sc;
                }
                Ok(n)
            }
            ReconvMode::Dwf => {
                let (Some(f), Some(p)) = (core.former.as_mut(), core.policy.as_mut()) else {
                    return Ok(0);
                };
                let wid = match p {
                    Policy::Majority(mj) => mj.pick(f),
                    Policy::List(pol, l) => {
                        let key = |w: u32| -> (u32, u32, u64) {
                            let pw = &f.pool[w as usize];
                            let pri = if *pol == DwfPolicy::Dpdpri {
                                pw.slots
                                    .iter()
                                    .flatten()
                                    .map(|t| {
                                        pool.thread(t.cta, t.thread).map_or(0, |s| s.passed_rpcs)
                                    })
                                    .max()
                                    .unwrap_or(0)
                            } else {
                                0
                            };
                            match pol {
                                DwfPolicy::Dtime => (0, 0, pw.created),
                                _ => (pri, pw.pc, pw.created),
                            }
                        };
                        let best = (0..l.len()).min_by_key(|&k| key(l[k]));
                        best.map(|k| l.swap_remove(k))
                    }
                };
                let Some(wid) = wid else {
                    return Ok(0);
                };
                let conflict = if self.cfg.dwf.lane_aware {
                    0
                } else {
                    f.bank_conflict(wid)
                };
                let (pc, tids) = f.issue(wid);
                let n = tids.len() as u32;
                // execute per CTA (a pool warp may hold threads of several resident CTAs)
                let mut by_cta: Vec<(u32, Vec<u32>)> = Vec::new();
                for t in &tids {
                    match by_cta.iter_mut().find(|g| g.0 == t.cta) {
                        Some(g) => g.1.push(t.thread),
                        None => by_cta.push((t.cta, vec![t.thread])),
                    }
                }
                let stall = if conflict > 1 { conflict as u64 } else { 0 };
                stats.bank_conflict_stall_cycles += stall;
                for (cta, ts) in by_cta {
                    self.exec_group(core, t + stall, pool, cta, pc, &ts, stats)?;
                }
                stats.warp_issues += 1;
                stats.thread_insts += n as u64;
                core.busy_until = t + self.sc + stall;
                Ok(n)
            }
        }
    }

    /// Threads `ts` of CTA `cta`, released from a barrier, become ready at their recorded PCs
    /// (grouped by static warp and PC); with the threads parked at the barrier whose release
    /// the pool reports.
    pub(super) fn ready_released(
        &mut self,
        core: &mut Core,
        cta: u32,
        mut ts: Vec<u32>,
        pool: &mut ThreadPool,
        stats: &mut RefStats,
    ) -> Result<(), SimError> {
        let Some(k) = core.ctas.iter().position(|c| c.id == cta) else {
            return Ok(());
        };
        for th in pool.take_released(cta) {
            // a released thread still in flight continues at its own write-back
            if std::mem::take(&mut core.ctas[k].parked[th as usize]) {
                ts.push(th);
            }
        }
        if ts.is_empty() {
            return Ok(());
        }
        let base = core.ctas[k].base_tid;
        let mut groups: Vec<(u32, u32, Vec<u32>)> = Vec::new();
        for th in ts {
            let pc = pool.thread(cta, th).map_or(0, |s| s.pc);
            let sw = th / WARP_SIZE as u32;
            match groups.iter_mut().find(|g| g.0 == sw && g.1 == pc) {
                Some(g) => g.2.push(th),
                None => groups.push((sw, pc, vec![th])),
            }
        }
        for (_, pc, ts) in groups {
            self.make_ready(core, cta, base, pc, ts, pool, stats)?;
        }
        Ok(())
    }

    /// Executes the instruction at `pc` for threads `ts` of CTA `cta` and schedules their
    /// write-back.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn exec_group(
        &mut self,
        core: &mut Core,
        t: u64,
        pool: &mut ThreadPool,
        cta: u32,
        pc: u32,
        ts: &[u32],
        stats: &mut RefStats,
    ) -> Result<(), SimError> {
        let mut out = std::mem::take(&mut self.out);
        pool.exec(cta, pc, ts, t, &mut out)?;
        if let Some(r) = self.act.as_deref_mut() {
            let key = (core.idx, t, pc);
            let new_inst = self.last_group != key;
            self.last_group = key;
            let slot = (t / self.sc) as u32;
            let addrs = out.space.is_some().then_some(out.addrs.as_slice());
            r.group(
                self.cfg,
                core.idx,
                &out.inst,
                out.active as u64,
                addrs,
                slot,
                new_inst,
            )?;
        }
        let addrs = std::mem::take(&mut out.addrs);
        let lat = self.latency(core, t, &out.inst, &addrs);
        let mem = out.inst.family == Family::Mem;
        out.addrs = addrs;
        let next = std::mem::take(&mut out.next);
        let bar = std::mem::take(&mut out.barrier);
        self.out = out;
        if let Some(c) = core.ctas.iter_mut().find(|c| c.id == cta) {
            c.inflight += 1;
            for &th in ts {
                c.issued(th, t);
            }
        }
        self.push_flight(
            core,
            t + lat,
            InFlight {
                cta,
                warp: None,
                next,
                bar,
                mem,
            },
        );
        // a barrier this instruction completed releases the parked threads now
        self.ready_released(core, cta, Vec::new(), pool, stats)
    }
}
