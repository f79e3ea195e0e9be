//! Back end of the SM cycle: writeback of finished results through the register-file write
//! ports, dispatch of operand-ready collectors into free execution units (or the LD/ST unit),
//! and the register-file read arbitration (simulator §2.4, §2.5); the dispatch of an issue stage
//! with collectors of its own (`dispatch_direct`) shares the unit's accounting and the memory
//! issue (`ldst_issue`).

use super::fold::FoldIssue;
use super::Sm;
use crate::inst::PRED_BASE;
use crate::timing::exec::{PipeClass, SpPipe};
use crate::timing::execunits::Wb;
use crate::timing::gating::DomType;
use crate::timing::gating::GateDecision;
use crate::timing::perclass::{PerCuClass, PerPipe};
use crate::timing::policy::{GatingPolicy, IssueStage, RegisterFileOrg, UnitState};
use crate::timing::slots::RegisterFileSlot;
use crate::timing::tinst::TInst;

/// Where a ready collector may go this cycle.
enum UnitPick {
    /// To this unit.
    Unit(usize),
    /// Nowhere: the pipe it needs is gated (younger collectors of its class may still go).
    Gated,
    /// Nowhere: no unit of its class accepts (its class is blocked for the cycle).
    None,
}

impl Sm {
    // ------------------------------------------------------------------ writeback
    pub fn writeback(&mut self, t: u64, ex_wb: u32) {
        self.stage_begin_writeback(t);
        if self.rf_active.is_some() {
            self.sync_rf_active(t);
        }
        self.oc.new_write_cycle();
        if !self.oc.wb_completing.is_empty() {
            self.complete_writes(t);
        }
        if self.oc.rfc_on() {
            self.rfc_writebacks(t, true);
        }
        while let Some(w) = self.exec.wb_queue.front() {
            if w.ready > t {
                break;
            }
            let w = *w;
            self.exec.wb_queue.pop_front();
            self.exec.wb_waiting.push(w);
        }
        if self.exec.wb_waiting.is_empty() {
            return;
        }
        // Already in (ready, seq) order: the queue yields that order, and every result it yields
        // now is later than those still waiting (they were ready at an earlier writeback; a
        // result is never ready before the cycle it was queued in, and sequence numbers grow).
        debug_assert!(self.exec.wb_waiting.windows(2).all(|p| p[0] < p[1]));
        let mut done = 0;
        let mut i = 0;
        while i < self.exec.wb_waiting.len() && done < ex_wb {
            let w = self.exec.wb_waiting[i];
            let warp = w.warp as usize;
            let sched = self.issue.sched_of(warp) as u32;
            // all-or-nothing: every general destination needs a write port on its bank (and,
            // with an organisation that gates its entries, an entry it says is ready); a
            // result cached by the RF cache needs RFC write ports instead
            let mut ok = true;
            let to_rfc = self.oc.rfc_on() && self.rfc_takes(warp);
            // extra cycles of a result with more destinations than RFC write ports
            let mut rfc_extra = 0u32;
            if to_rfc {
                let n = w.dst[..w.n_dst as usize]
                    .iter()
                    .filter(|&&r| r < PRED_BASE)
                    .count() as u32;
                if let RegisterFileSlot::Partitioned(o) = &mut self.oc.rf {
                    let cap = o.rfc_write_capacity().max(1);
                    let need = n.min(cap);
                    if o.rfc_write_ports(warp as u32, t) < need {
                        o.rfc_write_refused();
                        i += 1;
                        continue;
                    }
                    o.take_rfc_write_ports(warp as u32, need, t);
                    rfc_extra = n.div_ceil(cap).saturating_sub(1);
                }
            }
            for &r in &w.dst[..w.n_dst as usize] {
                if r < PRED_BASE && !to_rfc {
                    let b = self.oc.rf.bank(warp as u32, sched, r) as usize;
                    if !self.oc.write_port_free(b, t) {
                        ok = false;
                    }
                }
            }
            if let Some(m) = self.oc.mon.as_ref().filter(|_| self.oc.wake_gated) {
                let mut waits = false;
                for &r in &w.dst[..w.n_dst as usize] {
                    if r < PRED_BASE && self.oc.rf.write_ready(warp, r, m.dest_mask(warp, r), t) > t
                    {
                        waits = true;
                    }
                }
                if waits {
                    self.oc.rf.on_write_stalled();
                    ok = false;
                }
            }
            if !ok {
                i += 1;
                continue;
            }
            let mut max_lat = 1u32;
            for &r in &w.dst[..w.n_dst as usize] {
                if !self.rf_write_kept(warp, r, w.tag) {
                    // a younger writer renamed the register: no RF write (WAW elimination)
                    continue;
                }
                if r < PRED_BASE && to_rfc {
                    // into the RF cache on the RFC write ports taken above (an eviction's
                    // write-back queues for its MRF bank)
                    let route = self.oc.rf.route(warp as u32, r, true, t);
                    let lat = route.latency_cycles.max(1);
                    max_lat = max_lat.max(lat);
                    if let Some(m) = self.oc.mon.as_mut() {
                        let mask = m.write(warp, r, route.part, lat);
                        if self.oc.wake_gated {
                            self.oc.rf.on_write(warp, r, mask, t);
                        }
                    }
                } else if r < PRED_BASE {
                    let b = self.oc.rf.bank(warp as u32, sched, r) as usize;
                    let route = self.oc.rf.route(warp as u32, r, true, t);
                    let lat = route.latency_cycles.max(1);
                    max_lat = max_lat.max(lat);
                    self.oc.take_write_port(b, t, lat, w.lanes as u64);
                    if let Some(m) = self.oc.mon.as_mut() {
                        let mask = m.write(warp, r, route.part, lat);
                        if self.oc.wake_gated {
                            self.oc.rf.on_write(warp, r, mask, t);
                        }
                    }
                } else {
                    self.oc.rf_act.pred_writes += 1;
                }
                self.reg_access(warp, r, t, true);
            }
            max_lat += rfc_extra;
            self.exec.wb_waiting.remove(i);
            done += 1;
            self.progress = true;
            if max_lat == 1 {
                self.write_done(&w);
            } else {
                // the scoreboard sees the value once the multi-cycle write completes
                self.oc.wb_completing.push((t + max_lat as u64 - 1, w));
            }
        }
        if self.oc.rfc_on() {
            self.rfc_writebacks(t, false);
        }
    }

    /// True when warp `warp`'s results go into the RF cache (it is in the active set).
    #[inline]
    fn rfc_takes(&self, warp: usize) -> bool {
        match &self.oc.rf {
            RegisterFileSlot::Partitioned(o) => o.rfc_caches_writes(warp as u32),
            _ => false,
        }
    }

    /// The RF cache's queued write-backs to the MRF take write ports of their MRF banks,
    /// oldest first: at the start of the writeback stage (`first`), ahead of the cycle's
    /// results (register-file spec §2.3: writebacks are granted first), and once more after
    /// the results for the evictions those made (a write-back takes a port in its own cycle
    /// when one is left); one whose bank has no port left stays queued for the next cycle
    /// ([`crate::timing::rf::PrfOrg`] module doc). Counted as MRF bank writes of 32 lanes.
    fn rfc_writebacks(&mut self, t: u64, first: bool) {
        let RegisterFileSlot::Partitioned(o) = &mut self.oc.rf else {
            return;
        };
        if !o.writebacks_queued() {
            return;
        }
        let lat = o.mrf_latency();
        let queue = o.take_writebacks();
        let mut left = std::collections::VecDeque::new();
        let mut refused = 0;
        for (w, r) in queue {
            let sched = self.issue.sched_of(w as usize) as u32;
            let b = self.oc.rf.bank(w, sched, r) as usize;
            if !self.oc.write_port_free(b, t) {
                refused += 1;
                left.push_back((w, r));
                continue;
            }
            self.oc.take_write_port(b, t, lat, 32);
            self.progress = true;
        }
        if let RegisterFileSlot::Partitioned(o) = &mut self.oc.rf {
            o.requeue_writebacks(left, refused, first);
        }
    }

    /// Completes the multi-cycle writes that finish by cycle `t`, in grant order.
    fn complete_writes(&mut self, t: u64) {
        let mut k = 0;
        while k < self.oc.wb_completing.len() {
            let (at, w) = self.oc.wb_completing[k];
            if at <= t {
                self.oc.wb_completing.remove(k);
                self.write_done(&w);
                self.progress = true;
            } else {
                k += 1;
            }
        }
    }

    /// A result's write has completed: its destinations leave the scoreboard and the warp has
    /// one instruction fewer in flight.
    fn write_done(&mut self, w: &Wb) {
        let warp = w.warp as usize;
        self.stage_result_written(w);
        self.warps.w_inflight[warp] -= 1;
        self.issue.dirty = true;
        // an exited warp may now be finished
        self.warps.retire_pending |= self.warps.w_exited[warp] && self.warps.w_inflight[warp] == 0;
    }

    // ------------------------------------------------------------------ dispatch
    /// Dispatches CUs whose operands are all available into free units, oldest first.
    pub(super) fn dispatch_collectors(&mut self, t: u64, oc_ex: &PerPipe<u32>) {
        if self.oc.cu_ready == 0 {
            return;
        }
        let gate_free = self.issue.flags.gate_free;
        let mut used_class = PerPipe::splat(0u32);
        let mut used_out = PerCuClass::splat(0u32);
        // Pipe classes of ready collectors with no unit able to accept now cannot go this cycle
        // (the selection below would block such a class at its first candidate); re-checked
        // for a class after each dispatch to it.
        let mut classes = 0u32;
        let mut bits = self.oc.cu_ready;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            classes |= 1 << self.oc.cus[i].ec.pipe.index();
        }
        // Structural pre-check only: which pipe of a unit a collector needs (and so whether
        // a gated pipe stops it) is checked per collector below.
        for pc in PipeClass::ALL {
            if classes >> pc.index() & 1 == 1
                && !self
                    .exec
                    .unit_free(pc, SpPipe::Int, t, true, self.ldst.can_accept())
            {
                used_class[pc] = u32::MAX - 1;
            }
        }
        // collectors that cannot go this cycle because of gating (the others of their class
        // still may)
        let mut gated_out = 0u64;
        let mut last_pc: Option<PipeClass> = None;
        loop {
            if let Some(pc) = last_pc.take() {
                if used_class[pc] < u32::MAX - 1
                    && !self
                        .exec
                        .unit_free(pc, SpPipe::Int, t, true, self.ldst.can_accept())
                {
                    used_class[pc] = u32::MAX - 1;
                }
            }
            // oldest ready CU not yet tried this cycle
            let mut best: Option<usize> = None;
            let mut bits = self.oc.cu_ready & !gated_out;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let c = &self.oc.cus[i];
                if c.busy && c.ready_at <= t && best.is_none_or(|b| c.seq < self.oc.cus[b].seq) {
                    let pc = c.ec.pipe;
                    if used_class[pc] < oc_ex[pc].max(1)
                        && used_out[c.class] < self.oc.cu_class_out[c.class].max(1)
                    {
                        best = Some(i);
                    }
                }
            }
            let Some(ci) = best else { break };
            let (pipe, ii, lat, sp) = {
                let c = &self.oc.cus[ci];
                (c.ec.pipe, c.ec.ii, c.ec.latency, c.ec.sp_pipe)
            };
            let pc = pipe;
            let pg_ty = if gate_free {
                None
            } else {
                self.exec.pg_type(&self.oc.cus[ci].ec)
            };
            let ui = match self.pick_unit(ci, t, pg_ty) {
                UnitPick::Unit(ui) => ui,
                UnitPick::Gated => {
                    gated_out |= 1 << ci;
                    continue;
                }
                UnitPick::None => {
                    // this CU cannot go this cycle: block its class so younger CUs of other
                    // classes may still dispatch
                    used_class[pc] = u32::MAX - 1;
                    continue;
                }
            };
            used_class[pc] += 1;
            last_pc = Some(pc);
            let cls = self.oc.cus[ci].class;
            used_out[cls] += 1;
            self.progress = true;
            let (cu_warp, cu_seq, cu_ec) = {
                let c = &self.oc.cus[ci];
                (c.warp, c.seq, c.ec)
            };
            let (mask, op, n_dst, dsts) = {
                let i = &self.oc.cus[ci].inst;
                (i.active_mask, i.op, i.n_dst, i.dst)
            };
            self.oc.cus[ci].busy = false;
            self.oc.cus[ci].ready_at = u64::MAX;
            self.oc.cu_free |= 1 << ci;
            self.oc.cu_ready &= !(1 << ci);
            self.issue.dirty = true;
            self.oc.rf.on_dispatch(cu_warp as u32, t);
            self.oc.opcoll_act[self.oc.oc_idx[cls]].dispatches += 1;
            self.flush_integrals();
            self.oc.cu_busy[cls] -= 1;
            let warp = cu_warp as usize;
            self.issue.stage.sources_read(warp, &self.oc.cus[ci].inst);
            self.issue.sb_blocked.remove(warp);
            let lanes = mask.count_ones() as u64;
            // folding / lane shifting (power-gating §6, §7): passes, port time, latency
            let fi = self.lanes.plan(&cu_ec, mask, t);
            if let Some(fi) = fi.as_ref() {
                self.lanes.count(&cu_ec, mask, fi);
            }
            let unit = &mut self.exec.units[ui];
            unit.next_accept = t + fi.map_or(ii, |f| f.timing.port_busy_cycles) as u64;
            unit.last_accept = t;
            let p = if cu_ec.sp_pipe == SpPipe::Fp {
                unit.pipe_fp
            } else {
                unit.pipe_int
            };
            self.exec.pipes[p].ops[op].ops += 1;
            self.exec.pipes[p].ops[op].lanes += lanes;
            if pipe == PipeClass::Mem {
                let inst = self.oc.cus[ci].inst;
                self.ldst_issue(t, warp, &inst, cu_seq, p);
                continue;
            }
            self.occupy_pipe(ui, p, sp, mask, t, lat, fi.as_ref(), pg_ty.is_some());
            self.seq += 1;
            let mut dst = [0u16; 4];
            let n = n_dst as usize;
            dst[..n].copy_from_slice(&dsts[..n]);
            let wb_lat = fi.map_or(lat, |f| f.timing.result_latency_cycles);
            if self.oc.wake_gated {
                for &r in &dst[..n] {
                    self.oc.rf.on_result_scheduled(warp, r, t + wb_lat as u64);
                }
            }
            self.exec.wb_push(Wb {
                ready: t + wb_lat as u64,
                seq: self.seq,
                warp: cu_warp,
                tag: self.oc.cus[ci].inst.tag,
                n_dst: n as u8,
                dst,
                lanes: lanes as u8,
            });
        }
    }

    /// The unit collector `ci` dispatches to at cycle `t`: the lowest-index free unit of its
    /// class (its own sub-core's first) whose pipe is not gated. With the power-gating
    /// controllers (`pg_ty`, power-gating §1.2 step 3 at the unit) an ON free domain, else a
    /// wake request, else the collector is gated; otherwise a collector that finds only gated
    /// pipes wakes its class's gated units.
    #[inline]
    fn pick_unit(&mut self, ci: usize, t: u64, pg_ty: Option<DomType>) -> UnitPick {
        let gate_free = self.issue.flags.gate_free;
        let (pipe, sub, sp) = {
            let c = &self.oc.cus[ci];
            (c.ec.pipe, c.subcore, c.ec.sp_pipe)
        };
        let pc = pipe;
        // unit choice: lowest-index non-gated free unit of the class (own sub-core first)
        let nsub_units = self
            .exec
            .subcore_has_unit
            .get(sub as usize)
            .is_some_and(|h| h[pc]);
        let mut chosen = None;
        if let Some(ty) = pg_ty {
            // power-gating §1.2 step 3 at the unit: an ON free domain, else a wake
            // request, else blocked
            let m = self.oc.cus[ci].inst.active_mask;
            let m = self.fold_need_mask(&self.oc.cus[ci].ec, m, t);
            let (dec, unit) = self.exec.pg_decide(ty, t, Some((sub, nsub_units)), m);
            if dec != GateDecision::Issue {
                return UnitPick::Gated;
            }
            chosen = unit;
        } else {
            let mut wanted_gated = false;
            for (ui, u) in self.exec.units.iter().enumerate() {
                if u.class != pipe || (nsub_units && u.subcore != sub) || u.next_accept > t {
                    continue;
                }
                if pipe == PipeClass::Mem && !self.ldst.can_accept() {
                    continue;
                }
                let p = if sp == SpPipe::Fp {
                    u.pipe_fp
                } else {
                    u.pipe_int
                };
                if !gate_free && self.exec.gating.available(p, t) != UnitState::Ready {
                    wanted_gated = true;
                    continue;
                }
                chosen = Some(ui);
                break;
            }
            if chosen.is_none() && wanted_gated {
                // the collector waits for a gated pipe: wake the class's gated units
                self.exec.request_wake(pc, sp, t);
            }
        }
        chosen.map_or(UnitPick::None, UnitPick::Unit)
    }

    /// Occupies pipe `p` of unit `ui` (`sp`: its INT or FP pipe) for an instruction with
    /// active `mask` dispatched at cycle `t` with latency `lat`: one busy stretch, or with
    /// folding (`fi`, power-gating §6, §7) one per pass; with the gating controllers
    /// (`pg`) the domains of its lanes are busy for the same stretches.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn occupy_pipe(
        &mut self,
        ui: usize,
        p: usize,
        sp: SpPipe,
        mask: u32,
        t: u64,
        lat: u32,
        fi: Option<&FoldIssue>,
        pg: bool,
    ) {
        if let Some(fi) = fi {
            let tm = &fi.timing;
            let n = fi.plan.n_passes().max(1) as usize;
            if pg {
                // each pass keeps the domains of its own lanes busy from its own start
                // (power-gating §1.1: a lane domain is busy only while an active thread
                // runs on it); a lane only the second pass uses waits, ON, until then
                if fi.plan.n_passes() == 0 {
                    let lb = tm.lane_busy_cycles as u64;
                    self.exec.pg_dispatched(ui, sp, 0, t, lb);
                }
                for k in 0..fi.plan.n_passes() as usize {
                    let (start, end) = tm.pass_busy(t, k);
                    let m = fi.plan.passes()[k].issued_mask;
                    self.exec
                        .pg_dispatched_from(ui, sp, m, t, start, end - start);
                }
            }
            let pp = &mut self.exec.pipes[p];
            for k in 0..n {
                let (start, end) = tm.pass_busy(t, k);
                let len = if self.exec.busy_accept {
                    1
                } else {
                    end - start
                };
                let m = if fi.plan.n_passes() == 0 {
                    0
                } else {
                    fi.plan.passes()[k].issued_mask
                };
                pp.busy.busy(start, len);
                pp.lanes_busy(start, len, m);
            }
        } else {
            if pg {
                self.exec.pg_dispatched(ui, sp, mask, t, lat as u64);
            }
            let busy_len = if self.exec.busy_accept { 1 } else { lat as u64 };
            let pp = &mut self.exec.pipes[p];
            pp.busy.busy(t, busy_len);
            pp.lanes_busy(t, busy_len, mask);
        }
    }

    // ------------------------------------------------------------------ RF arbitration
    /// Register-file read arbitration of every bank with requests.
    pub(super) fn rf_arbitrate_collectors(&mut self, t: u64) {
        let migrating = match &self.oc.rf {
            RegisterFileSlot::Partitioned(o) => o.migrating(),
            _ => false,
        };
        if migrating {
            self.oc.track_reads = true;
            self.oc.bank_rd_used.fill(0);
        }
        if self.oc.arbitrate(t, &mut self.regs, &self.warps.w_launch) {
            self.progress = true;
        }
        if migrating {
            self.oc.track_reads = false;
            self.migrate(t);
        }
    }

    /// Grants the partitioned RF's migration requests (`prf.remap_policy = "migrate"`) as
    /// lowest-priority bank accesses: after the cycle's writebacks and operand reads, each
    /// migrating warp (lowest slot first) issues its next request if a port of its bank is
    /// still free; the request holds the port for its latency like any access.
    fn migrate(&mut self, t: u64) {
        let RegisterFileSlot::Partitioned(o) = &self.oc.rf else {
            return;
        };
        let warps = o.partitioned().migrating_warps();
        for w in warps {
            let RegisterFileSlot::Partitioned(o) = &mut self.oc.rf else {
                return;
            };
            let Some(req) = o.partitioned().next_migration(w) else {
                continue;
            };
            let sched = self.issue.sched_of(w as usize) as u32;
            let b = o.slot_bank(w, sched, req.slot) as usize;
            let used = self.oc.ports_taken(b, t) + self.oc.bank_rd_used[b];
            if used >= self.oc.ports_per_bank {
                continue;
            }
            let RegisterFileSlot::Partitioned(o) = &mut self.oc.rf else {
                return;
            };
            if let Some(route) = o.partitioned_mut().complete_migration(w, t) {
                let lat = route.latency_cycles.max(1);
                self.oc.bank_rd_used[b] += 1;
                self.oc.hold_port(b, t, lat, req.write);
                self.progress = true;
            }
        }
    }

    /// Hands memory instruction `inst` of warp `w` (sequence number `seq`) to the LD/ST unit
    /// at cycle `t`: its addresses leave the pool, and pipe `p` is busy for as long as the unit
    /// takes the request. Every dispatch path issues memory instructions here.
    #[inline]
    fn ldst_issue(&mut self, t: u64, w: usize, inst: &TInst, seq: u64, p: usize) {
        let addrs = inst.mem.map(|m| self.front.mem_info(m.slot));
        let busy = self.ldst.accept(t, w as u16, inst, addrs, seq);
        if let Some(m) = inst.mem {
            self.front.release_addrs(m.slot);
        }
        self.exec.pipes[p].busy.busy(t, busy);
    }

    /// Sends instruction `inst` of warp `w` from an issue stage's own collectors (slice `s`)
    /// to the lowest-index free unit of its class (its sub-core's first) at cycle `t`, with the
    /// result queued for write-back after the unit's latency plus one cycle (the stage's
    /// picked→dispatch step).
    pub(super) fn dispatch_direct(&mut self, s: u32, w: usize, inst: TInst, t: u64) {
        let ec = self.front.exec_class(inst.family, inst.op);
        let pipe = ec.pipe;
        let nsub = self.exec.subcore_has_unit.len().max(1) as u32;
        let sub = s % nsub;
        let own = self
            .exec
            .subcore_has_unit
            .get(sub as usize)
            .is_some_and(|h| h[pipe]);
        let ui = self
            .exec
            .units
            .iter()
            .position(|u| u.class == pipe && (!own || u.subcore == sub) && u.next_accept <= t)
            .or_else(|| {
                self.exec
                    .units
                    .iter()
                    .position(|u| u.class == pipe && u.next_accept <= t)
            })
            .expect("the dispatch rule checked a free unit");
        self.progress = true;
        self.issue.dirty = true;
        self.oc.rf.on_dispatch(w as u32, t);
        let mask = inst.active_mask;
        let lanes = mask.count_ones() as u64;
        let unit = &mut self.exec.units[ui];
        unit.next_accept = t + ec.ii as u64;
        unit.last_accept = t;
        let p = if ec.sp_pipe == SpPipe::Fp {
            unit.pipe_fp
        } else {
            unit.pipe_int
        };
        self.exec.pipes[p].ops[inst.op].ops += 1;
        self.exec.pipes[p].ops[inst.op].lanes += lanes;
        self.seq += 1;
        if pipe == PipeClass::Mem {
            self.ldst_issue(t, w, &inst, self.seq, p);
            return;
        }
        let lat = ec.latency as u64 + 1;
        let busy_len = if self.exec.busy_accept { 1 } else { lat - 1 };
        let pp = &mut self.exec.pipes[p];
        pp.busy.busy(t, busy_len);
        pp.lanes_busy(t, busy_len, mask);
        let mut dst = [0u16; 4];
        let n = inst.n_dst as usize;
        dst[..n].copy_from_slice(&inst.dst[..n]);
        self.exec.wb_push(Wb {
            ready: t + lat,
            seq: self.seq,
            warp: w as u16,
            tag: inst.tag,
            n_dst: n as u8,
            dst,
            lanes: lanes as u8,
        });
    }
}
