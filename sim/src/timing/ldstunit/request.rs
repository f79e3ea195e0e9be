//! The LD/ST unit's per-cycle work: at most one request (or one shared-memory pass) of the
//! current job per cycle into the shared memory, the constant or texture cache, the L1D (hit, merge into
//! an MSHR, reservation failure, miss with allocation and dirty write-back) or the memory
//! system; then job completion and load completion (simulator §2.6, §2.7).

use super::{Done, JobKind, LdstUnit, Tok};
use crate::config::{AllocPolicy, WritePolicy};
use crate::timing::cache::{LineState, Probe};
use crate::timing::memsys::{MemSys, ReqKind};

impl LdstUnit {
    /// One LD/ST cycle of SM `sm`: sends at most one request (or performs one pass) of the
    /// current job. Returns whether there was work this cycle (its effects on the rest of the
    /// SM are then in [`LdstUnit::events_mut`]).
    #[inline]
    pub fn cycle(&mut self, sm: usize, t: u64, t_fs: u64, mem: &mut MemSys) -> bool {
        match &self.job {
            Some(j) if j.next_at <= t => {
                self.step(sm, t, t_fs, mem);
                true
            }
            _ => false,
        }
    }

    fn step(&mut self, sm: usize, t: u64, t_fs: u64, mem: &mut MemSys) {
        let job = self.job.as_ref().expect("job");
        let (warp, kind, local, tex, i, n, load) = (
            job.warp, job.kind, job.local, job.tex, job.next, job.n, job.load,
        );
        if i >= n {
            self.finish_job_if_done(t, t + 1);
            return;
        }
        let u = &mut *self;
        let mut sent = true;
        match kind {
            JobKind::Shared => {
                // one pass per cycle; `n` = conflict degree; data returns `smem_latency` after
                // the last pass
                if i == 0 {
                    u.smem_act.accesses += 1;
                    u.smem_act.conflict_extra_cycles += n as u64 - 1;
                    u.smem_act.lanes += u.job_lanes as u64;
                }
                if i + 1 == n {
                    if let Some(l) = load {
                        let li = &mut u.loads[l as usize];
                        li.done_at = li.done_at.max(t + u.smem_lat);
                    }
                }
            }
            JobKind::Const => sent = u.const_request(sm, t, t_fs, i, n, load, mem),
            JobKind::Tex => {
                let a = u.segs.addr[i];
                sent = u.ro_request(true, sm, t, t_fs, a, load.expect("texture load"), mem);
            }
            JobKind::GlobalLoad => {
                // a local load or a texture fetch never bypasses the L1D
                let l1_only = local || tex;
                sent = u.global_load_request(sm, t, t_fs, warp, l1_only, i, load, mem);
            }
            JobKind::GlobalStore => {
                let a = u.segs.addr[i];
                let bytes = u.segs.bytes[i] as u64;
                u.ldst_act.global_requests += 1;
                let write_back_local =
                    local && matches!(u.l1_write, WritePolicy::LocalWbGlobalWt | WritePolicy::Wb);
                let hit = u.l1.store(a, bytes, write_back_local);
                if hit {
                    u.l1d_act.write.hit += 1;
                } else {
                    u.l1d_act.write.miss += 1;
                }
                if !(hit && write_back_local) {
                    let tk = u.tok(Tok::Store { warp });
                    u.events.acks.push(warp);
                    mem.send(sm, t_fs, ReqKind::Write, a, bytes.max(1), tk);
                }
            }
            JobKind::Atomic => {
                let a = u.segs.addr[i];
                let bytes = u.segs.bytes[i] as u64;
                u.ldst_act.global_requests += 1;
                u.l1d_act.bypass += 1;
                match load {
                    Some(lid) => {
                        u.loads[lid as usize].remaining += 1;
                        let tk = u.tok(Tok::Load { load: lid });
                        mem.send(sm, t_fs, ReqKind::Atomic, a, bytes.max(4), tk);
                    }
                    None => {
                        let tk = u.tok(Tok::Store { warp });
                        u.events.acks.push(warp);
                        mem.send(sm, t_fs, ReqKind::Atomic, a, bytes.max(4), tk);
                    }
                }
            }
        }
        if !sent {
            // a reservation failure is retried every cycle and counted each time; it changes
            // nothing else (a repeated probe only re-touches the most recent line of its set)
            self.ldst_act.stall_cycles += 1;
            self.retry_blocked = true;
            self.retry_const = matches!(kind, JobKind::Const | JobKind::Tex);
            return;
        }
        self.retry_blocked = false;
        self.events.progress = true;
        let j = self.job.as_mut().expect("job");
        j.next += 1;
        j.next_at = t + 1;
        self.finish_job_if_done(t, t + 1);
    }

    /// One request of a constant-cache job: the `i`-th of `n` addresses of load `load`; whether
    /// it was sent (false: no MSHR entry, retried next cycle).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn const_request(
        &mut self,
        sm: usize,
        t: u64,
        t_fs: u64,
        i: usize,
        n: usize,
        load: Option<u32>,
        mem: &mut MemSys,
    ) -> bool {
        let u = self;
        let a = u.consts[i];
        let lid = load.expect("const load");
        if u.cc_perfect {
            // every remaining address hits in this cycle
            let k = (n - i) as u64;
            u.cc.act.reads += k;
            u.cc.act.hits += k;
            let li = &mut u.loads[lid as usize];
            li.done_at = li.done_at.max(t + 1);
            if let Some(j) = u.job.as_mut() {
                j.next = n - 1;
            }
            return true;
        }
        u.ro_request(false, sm, t, t_fs, a, lid, mem)
    }

    /// One lookup of address `a` for load `lid` in the texture cache (`tex`) or the constant
    /// cache; whether it was sent (false: no MSHR entry, retried next cycle).
    ///
    /// A miss takes an MSHR entry: it merges into the entry of a line whose fill is in flight
    /// (up to the cache's `mshr_merge` waiters) or allocates a free entry and requests the
    /// line; with neither possible the access is retried next cycle. A merged miss counts as a
    /// hit: it reads the line once the fill arrives and sends nothing to memory.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn ro_request(
        &mut self,
        tex: bool,
        sm: usize,
        t: u64,
        t_fs: u64,
        a: u64,
        lid: u32,
        mem: &mut MemSys,
    ) -> bool {
        let c = if tex { &mut self.tc } else { &mut self.cc };
        let line = c.tags.line_of(a);
        if let Probe::Hit { .. } = c.tags.probe(line, 1) {
            c.act.reads += 1;
            c.act.hits += 1;
            let lat = c.lat;
            let li = &mut self.loads[lid as usize];
            li.done_at = li.done_at.max(t + lat);
            return true;
        }
        let n_entries = c.mshr.len();
        match c.mshr.get_mut(line) {
            Some(waiters) if waiters.len() < c.merge => {
                waiters.push(lid);
                c.act.reads += 1;
                c.act.hits += 1;
                self.loads[lid as usize].remaining += 1;
                true
            }
            Some(_) => false,
            None if n_entries >= c.cap => false,
            None => {
                c.act.reads += 1;
                c.act.misses += 1;
                c.mshr.insert(line, lid);
                let lb = c.tags.line_bytes();
                self.loads[lid as usize].remaining += 1;
                let tk = self.tok(if tex {
                    Tok::TexFill { line }
                } else {
                    Tok::ConstFill { line }
                });
                mem.send(sm, t_fs, ReqKind::Read, a / lb * lb, lb, tk);
                true
            }
        }
    }

    /// One request of a global (or local, or texture) load job of warp `warp`: the `i`-th
    /// segment of load `load`, through the L1D (hit, merge into an MSHR, miss with allocation
    /// and dirty write-back) or, for a global load with `l1d.skip_global` (not `l1_only`),
    /// around it; whether it was sent (false: a reservation failure).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn global_load_request(
        &mut self,
        sm: usize,
        t: u64,
        t_fs: u64,
        warp: u16,
        l1_only: bool,
        i: usize,
        load: Option<u32>,
        mem: &mut MemSys,
    ) -> bool {
        let u = self;
        let mut sent = true;
        let a = u.segs.addr[i];
        let bytes = u.segs.bytes[i] as u64;
        let lid = load.expect("load");
        let bypass = !l1_only && u.skip_global;
        u.ldst_act.global_requests += 1;
        if bypass {
            u.l1d_act.bypass += 1;
            u.loads[lid as usize].remaining += 1;
            let tk = u.tok(Tok::Load { load: lid });
            mem.send(sm, t_fs, ReqKind::Read, a, bytes.max(32), tk);
        } else {
            let line = u.l1.line_of(a);
            let smask = u.l1.sector_mask(a, bytes.max(1));
            match u.l1.probe(line, smask) {
                Probe::Hit { .. } => {
                    u.l1d_act.read.hit += 1;
                    let li = &mut u.loads[lid as usize];
                    li.done_at = li.done_at.max(t + u.l1_lat);
                }
                p => {
                    let merged = match (p, u.mshr.get_mut(line)) {
                        (_, Some(waiters)) if waiters.len() < u.mshr_merge => {
                            waiters.push(lid);
                            Some(true)
                        }
                        (_, Some(_)) => None,
                        _ => Some(false),
                    };
                    match merged {
                        Some(true) => {
                            u.l1d_act.read.hit_reserved += 1;
                            u.loads[lid as usize].remaining += 1;
                        }
                        None => {
                            u.l1d_act.read.res_fail += 1;
                            sent = false;
                        }
                        Some(false) if u.mshr.len() >= u.mshr_cap => {
                            u.l1d_act.read.res_fail += 1;
                            sent = false;
                        }
                        Some(false) => {
                            if u.l1_alloc == AllocPolicy::OnMiss
                                && !matches!(p, Probe::Partial { .. })
                            {
                                match u.l1.allocate(line, LineState::Reserved, 0) {
                                    Some((_, ev)) => {
                                        if ev.line_addr.is_some() {
                                            u.l1d_act.evictions += 1;
                                        }
                                        if let (Some(ea), true) = (ev.line_addr, ev.dirty != 0) {
                                            u.l1d_act.writebacks += 1;
                                            let tk = u.tok(Tok::Store { warp });
                                            u.events.acks.push(warp);
                                            mem.send(sm, t_fs, ReqKind::Write, ea, u.l1_line, tk);
                                        }
                                    }
                                    None => {
                                        u.l1d_act.read.res_fail += 1;
                                        sent = false;
                                    }
                                }
                            }
                            if sent {
                                u.l1d_act.read.miss += 1;
                                u.mshr.insert(line, lid);
                                u.loads[lid as usize].remaining += 1;
                                let tk = u.tok(Tok::Mshr { line });
                                let lb = u.l1.line_bytes();
                                let (addr, b) = if u.l1_sector {
                                    (a, bytes.max(32))
                                } else {
                                    (a / lb * lb, lb)
                                };
                                mem.send(sm, t_fs, ReqKind::Read, addr, b, tk);
                            }
                        }
                    }
                }
            }
        }
        sent
    }

    /// When every request of the job is out: release the unit, retire stores, and mark loads
    /// fully sent (they write back when their last part arrives).
    fn finish_job_if_done(&mut self, t: u64, done: u64) {
        let Some(j) = self.job.as_ref() else {
            return;
        };
        if j.next < j.n {
            return;
        }
        let (warp, tag, load) = (j.warp, j.tag, j.load);
        self.job = None;
        self.ldst_act.insts += 1;
        match load {
            Some(l) => {
                self.loads[l as usize].all_sent = true;
                self.try_complete_load(l, t);
            }
            None => {
                // stores (and accesses without data) retire from the pipeline now; their
                // acknowledgements are tracked in w_mem_out
                self.events.done.push(Done {
                    ready: done.max(t + 1),
                    warp,
                    tag,
                    n_dst: 0,
                    dst: [0; 4],
                    lanes: 0,
                });
            }
        }
    }

    pub(super) fn try_complete_load(&mut self, l: u32, t: u64) {
        let li = self.loads[l as usize];
        if !li.all_sent || li.remaining > 0 {
            return;
        }
        self.events.done.push(Done {
            ready: li.done_at.max(t + 1),
            warp: li.warp,
            tag: li.tag,
            n_dst: li.n_dst,
            dst: li.dst,
            lanes: li.lanes,
        });
        self.free_loads.push(l);
    }
}
