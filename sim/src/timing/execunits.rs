//! Execution units and writeback (simulator §2.5): the unit instances (SP clusters with
//! an INT and an FP pipe, SFU, DP, INT and LD/ST units) with their initiation intervals, the
//! per-pipe busy timelines and op counters, the gating slot, and the writeback queue ordered by
//! (ready cycle, sequence number).

use super::exec::{op_name, ExecClass, PipeClass, SpPipe, ALL_OPS};
use super::gating::{DomType, DomainSpec, GateDecision, PgBank, PgGating};
use super::perclass::{PerOp, PerPipe};
use super::policy::{GatingPolicy, UnitState};
use super::slots::GatingSlot;
use crate::activity::{LaneTimelines, OpsLanes, PipeActivity, Timeline};
use crate::config::pg::Granularity;
use crate::config::{BusyDefinition, GpuConfig};
use crate::inst::WARP_SIZE;
use std::collections::VecDeque;

/// A result waiting for writeback.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Wb {
    pub ready: u64,
    pub seq: u64,
    pub warp: u16,
    pub n_dst: u8,
    pub dst: [u16; 4],
    pub lanes: u8,
    /// The issue stage's tag of the instruction ([`super::tinst::TInst::tag`]).
    pub tag: u16,
}

/// An execution unit instance (SP cluster, SFU, DP, INT or LD/ST).
pub(crate) struct Unit {
    pub class: PipeClass,
    pub subcore: u32,
    pub next_accept: u64,
    /// Cycle of the last instruction the unit accepted (u64::MAX before the first).
    pub last_accept: u64,
    /// Index into `pipes` of its INT pipe (SP/INT units) or its only pipe.
    pub pipe_int: usize,
    /// Index of the FP pipe (SP units), else same as `pipe_int`.
    pub pipe_fp: usize,
}

/// Timeline and op counters of one pipe.
pub(crate) struct Pipe {
    pub unit: String,
    pub name: &'static str,
    pub lanes: u32,
    pub ops: PerOp<OpsLanes>,
    pub busy: Timeline,
    pub lane_tl: LaneTimelines,
    /// Busy interval [start, end) of every lane not yet applied to `lane_tl`: consecutive
    /// dispatches that keep all lanes busy and overlap or touch are merged here, which marks
    /// the same union of busy cycles as marking each dispatch on each lane.
    pub lanes_pending: Option<(u64, u64)>,
}

impl Pipe {
    /// Marks the lanes active in `mask` busy for [t, t + len) (`t` non-decreasing).
    ///
    /// A pipe of n < 32 lanes serves a warp in passes: physical lane p serves threads p,
    /// p + n, p + 2n, … and is busy if any of them is active (for `lane_map =
    /// "DoublePumped16"` with 16 lanes this is the spec's "lane p serves threads p and p + 16",
    /// simulator §2.5; the pass count itself is [`super::exec::warp_passes`]).
    #[inline]
    pub fn lanes_busy(&mut self, t: u64, len: u64, mask: u32) {
        let n = self.lane_tl.len();
        if n == 0 || len == 0 {
            return;
        }
        let all = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut m = mask;
        if n < 32 {
            let mut folded = 0;
            while m != 0 {
                folded |= m & all;
                m >>= n;
            }
            m = folded;
        }
        if m & all == all {
            match self.lanes_pending {
                Some((_, ref mut end)) if t <= *end => *end = (*end).max(t + len),
                _ => {
                    self.flush_lanes();
                    self.lanes_pending = Some((t, t + len));
                }
            }
            return;
        }
        self.flush_lanes();
        let mut bits = m & all;
        while bits != 0 {
            let l = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.lane_tl.busy(l, t, len);
        }
    }

    /// Applies the pending all-lanes interval to every lane.
    pub fn flush_lanes(&mut self) {
        if let Some((start, end)) = self.lanes_pending.take() {
            for l in 0..self.lane_tl.len() {
                self.lane_tl.busy(l, start, end - start);
            }
        }
    }

    /// The pipe's record for the Activity file, its timelines closed at cycle `end`.
    fn activity(&mut self, end: u64) -> PipeActivity {
        self.flush_lanes();
        let mut ops = std::collections::BTreeMap::new();
        for op in ALL_OPS {
            let v = self.ops[op];
            if v.ops > 0 {
                ops.insert(
                    op_name(op).to_string(),
                    OpsLanes {
                        ops: v.ops,
                        lanes: v.lanes,
                    },
                );
            }
        }
        PipeActivity {
            unit: self.unit.clone(),
            pipe: self.name.to_string(),
            lanes: self.lanes,
            ops,
            busy: self.busy.finish(end),
            lane_idle: self.lane_tl.finish(end),
        }
    }
}

/// The SM's execution units, their pipes, the gating policy and the writeback queue.
pub(crate) struct ExecUnits {
    pub units: Vec<Unit>,
    /// Per pipe class ([`PipeClass::index`]): some unit of the class exists.
    class_has_unit: PerPipe<bool>,
    /// Per sub-core, per pipe class: some unit of the class belongs to the sub-core.
    pub subcore_has_unit: Vec<PerPipe<bool>>,
    pub pipes: Vec<Pipe>,
    pub gating: GatingSlot,
    /// Results in flight, in (ready, seq) order (see [`ExecUnits::wb_push`]).
    pub wb_queue: VecDeque<Wb>,
    pub wb_waiting: Vec<Wb>,
    /// A pipe counts busy for one cycle per accepted instruction (else for its latency).
    pub busy_accept: bool,
}

impl ExecUnits {
    /// The units of `cfg` spread over `nsub` sub-cores, timelines starting at `start`.
    pub fn new(cfg: &GpuConfig, start: u64, nsub: u32, gating: GatingSlot) -> Self {
        let e = cfg.stats.idle_hist_exact_max;
        let m = cfg.stats.idle_hist_log2_max;
        let u = &cfg.units;
        let mut units = Vec::new();
        let mut pipes = Vec::new();
        let mut add_pipe = |unit: String, name: &'static str, lanes: u32, per_lane: bool| {
            pipes.push(Pipe {
                unit,
                name,
                lanes,
                ops: PerOp::default(),
                busy: Timeline::new(start, e, m),
                lane_tl: LaneTimelines::new(if per_lane { lanes as usize } else { 0 }, start, e, m),
                lanes_pending: None,
            });
            pipes.len() - 1
        };
        for i in 0..u.n_sp {
            let pi = add_pipe(format!("sp{i}"), "int", u.sp_lanes, true);
            let pf = add_pipe(format!("sp{i}"), "fp", u.sp_lanes, true);
            units.push(Unit {
                class: PipeClass::Sp,
                subcore: i % nsub,
                next_accept: 0,
                last_accept: u64::MAX,
                pipe_int: pi,
                pipe_fp: pf,
            });
        }
        for (n, class, name, lanes) in [
            (u.n_int, PipeClass::Int, "int", u.sp_lanes),
            (u.n_sfu, PipeClass::Sfu, "sfu", u.sfu_lanes),
            (u.n_dp, PipeClass::Dp, "dp", u.dp_lanes),
            (u.n_ldst, PipeClass::Mem, "ldst", u.ldst_lanes),
            (u.n_tensor, PipeClass::Tensor, "tensor", WARP_SIZE as u32),
        ] {
            for i in 0..n {
                let p = add_pipe(format!("{name}{i}"), name, lanes, false);
                units.push(Unit {
                    class,
                    subcore: i % nsub,
                    next_accept: 0,
                    last_accept: u64::MAX,
                    pipe_int: p,
                    pipe_fp: p,
                });
            }
        }
        let mut class_has_unit = PerPipe::splat(false);
        let mut subcore_has_unit = vec![PerPipe::splat(false); nsub as usize];
        for u in &units {
            class_has_unit[u.class] = true;
            if let Some(h) = subcore_has_unit.get_mut(u.subcore as usize) {
                h[u.class] = true;
            }
        }
        ExecUnits {
            units,
            class_has_unit,
            subcore_has_unit,
            pipes,
            gating,
            wb_queue: VecDeque::new(),
            wb_waiting: Vec::new(),
            busy_accept: cfg.stats.busy_definition == BusyDefinition::Accept,
        }
    }

    /// Queues a result for writeback. The queue stays sorted by (ready, seq): sequence numbers
    /// grow, so the new result goes after every queued one that is ready no later; results
    /// mostly arrive in ready order (one latency per class), so the search from the back is
    /// short.
    #[inline]
    pub fn wb_push(&mut self, w: Wb) {
        let q = &mut self.wb_queue;
        let mut i = q.len();
        while i > 0 && q[i - 1].ready > w.ready {
            i -= 1;
        }
        debug_assert!(i == 0 || q[i - 1] < w);
        q.insert(i, w);
    }

    /// The pipe of unit `u` that an instruction of SP pipe `sp` occupies.
    #[inline]
    fn pipe_of(u: &Unit, sp: SpPipe) -> usize {
        if sp == SpPipe::Fp {
            u.pipe_fp
        } else {
            u.pipe_int
        }
    }

    /// Some unit of pipe class `pc` can accept an instruction of SP pipe `sp` at `t`
    /// (`ldst_free`: the LD/ST unit can take a new instruction).
    #[inline]
    pub fn unit_free(
        &self,
        pc: PipeClass,
        sp: SpPipe,
        t: u64,
        gate_free: bool,
        ldst_free: bool,
    ) -> bool {
        self.units.iter().any(|u| {
            u.class == pc
                && u.next_accept <= t
                && (u.class != PipeClass::Mem || ldst_free)
                && (gate_free || self.gating.available(Self::pipe_of(u, sp), t) == UnitState::Ready)
        })
    }

    /// The SM has a unit of pipe class `pipe`.
    #[inline]
    pub fn has_class(&self, pipe: PipeClass) -> bool {
        self.class_has_unit[pipe]
    }

    /// Some unit of pipe class `pipe` has its `sp` pipe not gated at `t`.
    #[inline]
    pub fn any_ready(&self, pipe: PipeClass, sp: SpPipe, t: u64, gate_free: bool) -> bool {
        if gate_free {
            self.class_has_unit[pipe]
        } else {
            self.units.iter().any(|u| {
                u.class == pipe
                    && self.gating.available(Self::pipe_of(u, sp), t) == UnitState::Ready
            })
        }
    }

    /// Asks the gating policy to wake the gated units of pipe class `pc` (their `sp` pipe):
    /// an instruction wants one at `t`.
    pub fn request_wake(&mut self, pc: PipeClass, sp: SpPipe, t: u64) {
        for u in &self.units {
            let p = Self::pipe_of(u, sp);
            if u.class == pc && self.gating.available(p, t) != UnitState::Ready {
                self.gating.request_wake(p, t);
            }
        }
    }

    /// Installs the power-gating controllers of `cfg.pg` for SM `sm` with `n_warps` warp
    /// slots: per SP unit its INT and FP pipe (`pg.granularity = "SpCluster"`) or groups of
    /// `pg.lane_group_size` lanes of each (`"LaneGroup"`), and per SFU with `pg.gate_sfu`
    /// (always the whole unit).
    pub fn install_pg(&mut self, cfg: &GpuConfig, sm: u32, n_warps: usize) {
        let lane_groups = cfg.pg.granularity == Granularity::LaneGroup;
        let gsize = cfg.pg.lane_group_size.max(1);
        let mut specs = Vec::new();
        let mut pipe_dom = vec![usize::MAX; self.pipes.len()];
        let mut unit_dom = vec![[usize::MAX; 2]; self.units.len()];
        let mut dom_unit = Vec::new();
        let mut cluster_unit: [Vec<usize>; 3] = Default::default();
        for (ui, u) in self.units.iter().enumerate() {
            let doms: &[(usize, DomType, usize)] = match u.class {
                PipeClass::Sp => &[(u.pipe_int, DomType::Int, 0), (u.pipe_fp, DomType::Fp, 1)],
                PipeClass::Sfu if cfg.pg.gate_sfu => &[(u.pipe_int, DomType::Sfu, 0)],
                _ => &[],
            };
            for &(p, ty, k) in doms {
                let cluster = cluster_unit[ty as usize].len();
                cluster_unit[ty as usize].push(ui);
                let lanes = self.pipes[p].lanes;
                let groups: Vec<(u32, u32)> = if lane_groups && ty != DomType::Sfu {
                    (0..lanes.div_ceil(gsize))
                        .map(|g| (g * gsize, gsize.min(lanes - g * gsize)))
                        .collect()
                } else {
                    vec![(0, lanes)]
                };
                pipe_dom[p] = specs.len();
                unit_dom[ui][k] = specs.len();
                for (first, n) in groups {
                    dom_unit.push(ui);
                    specs.push(DomainSpec {
                        ty,
                        unit: self.pipes[p].unit.clone(),
                        first_lane: first,
                        lanes: n,
                        cluster,
                    });
                }
            }
        }
        // eager gating (power-gating §6): lane domains whose every lane serves only logical
        // lanes at cluster positions C/2…C−1 (a pipe of n lanes: lane p serves p, p+n, …)
        let mut eager_doms: [Vec<usize>; 2] = Default::default();
        if lane_groups && cfg.fold.enabled && cfg.fold.eager_gating {
            let c = cfg.units.sub_cluster_lanes.max(2);
            let warp = cfg.gpu.warp_size.clamp(1, 32);
            for (d, s) in specs.iter().enumerate() {
                let i = match s.ty {
                    DomType::Int => 0,
                    DomType::Fp => 1,
                    DomType::Sfu => continue,
                };
                let n = self.pipes[self.units[dom_unit[d]].pipe_int].lanes.max(1);
                let upper = (s.first_lane..s.first_lane + s.lanes)
                    .all(|p| (p..warp).step_by(n as usize).all(|l| l % c >= c / 2));
                if s.lanes > 0 && upper {
                    eager_doms[i].push(d);
                }
            }
        }
        let mut bank = PgBank::new(&cfg.pg, sm, &specs);
        if let Some(p) = cfg.lane_policy_in_effect() {
            // the lane domains run `fold.lane_pg_policy`; the SFU domains keep `pg.policy`
            bank.set_type_policy(DomType::Int, p);
            bank.set_type_policy(DomType::Fp, p);
        }
        if !lane_groups {
            // a cluster-granularity domain covers every lane whatever its width
            bank.cover_all_lanes();
        }
        // lane granularity: a candidate waiting for lanes to wake holds its ON lanes (§1.2, §6)
        bank.set_hold_waited_lanes(lane_groups);
        self.gating = GatingSlot::Pg(Box::new(PgGating {
            bank,
            pipe_dom,
            unit_dom,
            dom_unit,
            cluster_unit,
            lane_groups,
            max_ready_wait: 0,
            ready_since: vec![u64::MAX; n_warps],
            wake_consumes_slot: cfg.pg.wake_consumes_slot,
            wake_raised: false,
            eager_doms,
        }));
    }

    /// Domain type of an instruction of class `ec` under the installed controllers, or `None`
    /// when it needs no gated domain (or no controllers are installed).
    #[inline]
    pub fn pg_type(&self, ec: &ExecClass) -> Option<DomType> {
        let GatingSlot::Pg(g) = &self.gating else {
            return None;
        };
        let ty = match ec.pipe {
            PipeClass::Sp if ec.sp_pipe == SpPipe::Fp => DomType::Fp,
            PipeClass::Sp => DomType::Int,
            PipeClass::Sfu => DomType::Sfu,
            _ => return None,
        };
        (!g.bank.domains_of(ty).is_empty()).then_some(ty)
    }

    /// Physical lanes of an SP pipe a warp's active `mask` touches: lane p of an n-lane pipe
    /// serves threads p, p+n, … (the lane map of [`Pipe::lanes_busy`]).
    #[inline]
    fn lane_need(&self, ui: usize, mask: u32) -> u32 {
        let n = self.pipes[self.units[ui].pipe_int].lanes;
        if n == 0 || n >= 32 {
            return mask;
        }
        let all = (1u32 << n) - 1;
        let (mut m, mut out) = (mask, 0);
        while m != 0 {
            out |= m & all;
            m >>= n;
        }
        out
    }

    /// §1.2 step 3 for an instruction of domain type `ty` with active `mask`. At issue
    /// (`sub = None`) an ON domain of the type accepts it (its collector waits for the unit); at
    /// dispatch (`Some((sub, own_sub))`) the domain's unit must be free at `t` (and on sub-core
    /// `sub` when `own_sub`). Returns the decision and, for `Issue` at dispatch, the unit index.
    pub fn pg_decide(
        &mut self,
        ty: DomType,
        t: u64,
        sub: Option<(u32, bool)>,
        mask: u32,
    ) -> (GateDecision, Option<usize>) {
        let need = match &self.gating {
            GatingSlot::Pg(g) if g.lane_groups && ty != DomType::Sfu => g.cluster_unit[ty as usize]
                .first()
                .map(|&ui| self.lane_need(ui, mask))
                .unwrap_or(mask),
            _ => 0,
        };
        let GatingSlot::Pg(g) = &mut self.gating else {
            return (GateDecision::Issue, None);
        };
        let units = &self.units;
        let free = |ui: usize| match sub {
            None => true,
            Some((s, own)) => {
                let u = &units[ui];
                u.next_accept <= t && (!own || u.subcore == s)
            }
        };
        if g.lane_groups && ty != DomType::Sfu {
            let cu = &g.cluster_unit[ty as usize];
            let (dec, c) = g.bank.decide_lanes(ty, need, |c| free(cu[c]));
            return (dec, c.map(|c| g.cluster_unit[ty as usize][c]));
        }
        let dom_unit = &g.dom_unit;
        let (dec, dom) = g.bank.decide(ty, |d| free(dom_unit[d]));
        (dec, dom.map(|d| g.dom_unit[d]))
    }

    /// The decision [`ExecUnits::pg_decide`] would make at issue for `mask`, taken on a copy of
    /// the controllers (no wake request is raised; for diagnostics).
    pub fn pg_decide_peek(&self, ty: DomType, mask: u32) -> Option<GateDecision> {
        let GatingSlot::Pg(g) = &self.gating else {
            return None;
        };
        let mut bank = g.bank.clone();
        if g.lane_groups && ty != DomType::Sfu {
            let need = g.cluster_unit[ty as usize]
                .first()
                .map(|&ui| self.lane_need(ui, mask))
                .unwrap_or(mask);
            Some(bank.decide_lanes(ty, need, |_| true).0)
        } else {
            Some(bank.decide(ty, |_| true).0)
        }
    }

    /// An instruction of SP pipe `sp` with active `mask` and latency `lat` was dispatched to
    /// unit `ui` at `t`: its domains are busy from `t`.
    pub fn pg_dispatched(&mut self, ui: usize, sp: SpPipe, mask: u32, t: u64, lat: u64) {
        self.pg_dispatched_from(ui, sp, mask, t, t, lat);
    }

    /// As [`ExecUnits::pg_dispatched`] for a pass dispatched at `t` that starts on its lanes
    /// at `start ≥ t` (sub-warp 1 of a folded instruction): the domains of its lanes are busy
    /// from `start` for `lat` cycles and hold the work, ON, from `t`.
    pub fn pg_dispatched_from(
        &mut self,
        ui: usize,
        sp: SpPipe,
        mask: u32,
        t: u64,
        start: u64,
        lat: u64,
    ) {
        let need = self.lane_need(ui, mask);
        let GatingSlot::Pg(g) = &mut self.gating else {
            return;
        };
        let k = usize::from(sp == SpPipe::Fp && self.units[ui].class == PipeClass::Sp);
        let dom = g.unit_dom[ui][k];
        if dom == usize::MAX {
            return;
        }
        if g.lane_groups && g.bank.ty(dom) != DomType::Sfu {
            let ty = g.bank.ty(dom);
            let c = g.bank.cluster_of(dom);
            g.bank.dispatched_lanes_from(ty, c, need, t, start, lat);
        } else {
            g.bank.dispatched_from(dom, t, start, lat);
        }
    }

    /// End of cycle `t` for a gating policy that wants every cycle
    /// ([`GatingPolicy::needs_cycle_hook`]): each unit's pipes, busy while the unit cannot
    /// accept (initiation interval), and whether the unit accepted an instruction in `t`.
    pub fn gating_cycle(&mut self, t: u64) {
        for u in &self.units {
            let busy = u.next_accept > t + 1;
            let accepted = u.last_accept == t;
            self.gating.on_cycle(u.pipe_int, t, busy, accepted);
            if u.pipe_fp != u.pipe_int {
                self.gating.on_cycle(u.pipe_fp, t, busy, accepted);
            }
        }
    }

    /// Every pipe's record, timelines closed at cycle `end`.
    pub fn activity(&mut self, end: u64) -> Vec<PipeActivity> {
        self.pipes.iter_mut().map(|p| p.activity(end)).collect()
    }
}
