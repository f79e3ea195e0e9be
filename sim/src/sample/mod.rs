//! Kernel sampling: time one representative launch per cluster of similar launches and
//! extrapolate the others (`--sample kernels`).
//!
//! **Execution stays exact.** Every launch is executed by the functional emulator first, under
//! a checkpoint ([`crate::emu::Emulator::checkpoint`]: an undo journal of the pages it writes),
//! and the run measures its [`LaunchSignature`]. The signature decides the launch
//! ([`Sampler::decide`]): a launch that is timed is rolled back and run again through the
//! cycle-level model, exactly as a full simulation runs it from the same memory state; an
//! extrapolated launch keeps the functional run's results. The functional pass is chosen as
//! THE execution of an extrapolated launch (rather than a look-ahead before a timed run)
//! because its results are a valid execution of the kernel and later launches read them; the
//! timed launches pay one extra functional run, cheap beside timing.
//!
//! **Online clustering.** Launches arrive one at a time, as a host program makes them. A launch
//! joins the first cluster whose representative signature has the same kernel, CTA shape and
//! dynamic shared memory and lies within the tolerance ([`SampleSettings::tolerance`], 5 % by
//! default) in [`LaunchSignature::distance`]: every extensive component (CTAs, warp and
//! thread instructions, each family's warp instructions, global sectors, footprint, shared
//! accesses) within that relative difference. Else it starts a cluster.
//!
//! **Timed members.** The first [`TIMED_PER_CLUSTER`] (3) launches of a cluster are timed,
//! then each whose number in the cluster is a power of two (4, 8, 16, …; [`timed_member`]),
//! so that the timed members follow a drift over the program at a cost logarithmic in the
//! cluster's size; the rest are extrapolated. A cluster extrapolates only from at least two
//! timed members, which give it a measured spread.
//!
//! **Extrapolation.** The *pool* of a cluster is its timed members but the first (the first
//! launch of a cluster follows another kernel or a cold L2, the least typical of its members);
//! with fewer than [`TIMED_PER_CLUSTER`] timed members, all of them. A launch of `w` warp
//! instructions and launch gap `g` gets cycles `g + B·w/W`, where `W` and `B` are the pool's
//! summed warp instructions and cycles without launch gaps (a ratio estimator), and every
//! other summed counter the pool's sum × `w/W` ([`crate::activity::ScaleTemplate`]). Exact,
//! from the functional pass: warp and thread instructions, per family, and the tensor
//! multiply-accumulates; the per-SM instruction counts are the exact totals split in the
//! pool's per-SM proportions.
//!
//! **Error estimate.** Per cluster, the extrapolated launches are extrapolated a second time
//! from the pool member whose cycles per warp instruction lie farthest from the pool's; the
//! cycles estimate is Σ_clusters |cycles(pool) − cycles(farthest member)| over the total
//! cycles, i.e. it assumes the extrapolated launches' rate lies within the timed members'
//! range. The same two records per cluster ([`crate::activity::ClusterSummary`]) give the
//! energy estimate when costed (the root crate's `sample` module). It is an estimate from the
//! observed spread, not a guaranteed bound: launches that differ from every timed member in a
//! way the signature does not see are outside it.

mod signature;

pub use signature::{LaunchSignature, SignatureCounter};

use crate::activity::{
    Activity, ClusterSummary, FamilyCounts, KernelActivity, Merge, PlannedLaunch, SampleSummary,
    ScaleTemplate, TensorStats,
};
use std::sync::Arc;

/// Default largest relative signature distance of a launch that joins a cluster.
pub const DEFAULT_TOLERANCE: f64 = 0.05;
/// Launches of a cluster timed before any is extrapolated.
pub const TIMED_PER_CLUSTER: usize = 3;

/// How a run samples its launches.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleSettings {
    /// Largest [`LaunchSignature::distance`] at which a launch joins a cluster.
    pub tolerance: f64,
    /// Decisions to follow, launch by launch (another run's [`SampleSummary::plan`], so that
    /// `compare` times the same launches in every variant). A launch whose kernel differs
    /// from the plan's, or past its end, ends the replay and is decided online.
    pub plan: Option<Arc<Vec<PlannedLaunch>>>,
}

impl Default for SampleSettings {
    fn default() -> Self {
        SampleSettings {
            tolerance: DEFAULT_TOLERANCE,
            plan: None,
        }
    }
}

/// What to do with a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Time it with the cycle-level model, as a member of cluster `.0`.
    Time(usize),
    /// Extrapolate it from cluster `.0`'s timed members.
    Extrapolate(usize),
}

/// A timed member of a cluster.
struct Timed {
    record: KernelActivity,
    gap: u64,
}

impl Timed {
    /// Cycles without the launch gap.
    fn busy(&self) -> u64 {
        self.record.cycles - self.gap.min(self.record.cycles)
    }

    /// Cycles per warp instruction, launch gap excluded.
    fn rate(&self) -> f64 {
        self.busy() as f64 / self.record.warp_insts.max(1) as f64
    }
}

/// The timed members an extrapolation uses, summed: the template of their summed record,
/// and their summed warp instructions and cycles without launch gaps.
struct Pooled {
    template: ScaleTemplate,
    warp_insts: u64,
    busy: u64,
}

impl Pooled {
    fn of(members: &[&Timed]) -> Pooled {
        let mut sum = members[0].record.clone();
        for t in &members[1..] {
            sum.accumulate(&t.record);
        }
        Pooled {
            template: ScaleTemplate::new(&sum),
            warp_insts: members.iter().map(|t| t.record.warp_insts).sum(),
            busy: members.iter().map(|t| t.busy()).sum(),
        }
    }

    /// The record of `launches` launches of `warp_insts` warp instructions in all and launch
    /// gaps `gaps` in all, extrapolated from the pool (before the exact counts are set).
    fn extrapolate(&self, warp_insts: u64, launches: u64, gaps: u64) -> KernelActivity {
        let s = if self.warp_insts == 0 {
            launches as f64
        } else {
            warp_insts as f64 / self.warp_insts as f64
        };
        let mut k = self.template.scaled(s);
        k.launches = launches;
        k.cycles = gaps + (self.busy as f64 * s).round() as u64;
        for sm in &mut k.sms {
            sm.active_cycles = sm.active_cycles.min(k.cycles);
        }
        k
    }
}

/// A cluster of launches.
struct Cluster {
    sig: LaunchSignature,
    launches: u64,
    timed: Vec<Timed>,
    /// The pool of the current timed members (rebuilt when one is added).
    pool: Option<Pooled>,
    extrapolated: u64,
    extrapolated_warp_insts: u64,
    /// Σ launch gaps of the extrapolated launches.
    extrapolated_gaps: u64,
    /// Σ cycles given to the extrapolated launches.
    extrapolated_cycles: u64,
    /// The extrapolated launches' exact counts summed: thread instructions, per family,
    /// tensor work.
    extrapolated_threads: u64,
    extrapolated_family: FamilyCounts,
    extrapolated_tensor: TensorStats,
}

impl Cluster {
    /// The timed members an extrapolation uses: all but the first once there are
    /// [`TIMED_PER_CLUSTER`] (the first launch of a cluster follows another kernel or a cold
    /// L2, the least typical of its members), else all.
    fn used(&self) -> Vec<&Timed> {
        let skip = usize::from(self.timed.len() >= TIMED_PER_CLUSTER);
        self.timed.iter().skip(skip).collect()
    }

    fn pool(&mut self) -> &Pooled {
        if self.pool.is_none() {
            self.pool = Some(Pooled::of(&self.used()));
        }
        self.pool.as_ref().expect("just built")
    }
}

/// Whether the `n`-th launch (from 1) of a cluster is timed: the first
/// [`TIMED_PER_CLUSTER`], then each whose number is a power of two, so that the timed
/// members follow a drift over the program at a cost logarithmic in the cluster's size.
pub fn timed_member(n: u64) -> bool {
    n <= TIMED_PER_CLUSTER as u64 || n.is_power_of_two()
}

/// The online sampler of one run (module documentation).
pub struct Sampler {
    settings: SampleSettings,
    clusters: Vec<Cluster>,
    plan: Vec<PlannedLaunch>,
    following: bool,
    warp_insts: u64,
    timed_warp_insts: u64,
}

impl Sampler {
    /// A sampler with no launch seen yet.
    pub fn new(settings: SampleSettings) -> Sampler {
        let following = settings.plan.is_some();
        Sampler {
            settings,
            clusters: Vec::new(),
            plan: Vec::new(),
            following,
            warp_insts: 0,
            timed_warp_insts: 0,
        }
    }

    /// Decides the next launch, of signature `sig`.
    pub fn decide(&mut self, sig: &LaunchSignature) -> Decision {
        let i = self.plan.len();
        let planned = if self.following {
            self.settings
                .plan
                .as_ref()
                .and_then(|p| p.get(i))
                .filter(|p| p.kernel == sig.kernel && p.cluster as usize <= self.clusters.len())
                .cloned()
        } else {
            None
        };
        self.following = planned.is_some();
        let (c, mut timed) = match planned {
            Some(p) => (p.cluster as usize, p.timed),
            None => match self.clusters.iter().position(|c| {
                c.sig.same_shape(sig) && c.sig.distance(sig) <= self.settings.tolerance
            }) {
                Some(c) => (c, timed_member(self.clusters[c].launches + 1)),
                None => (self.clusters.len(), true),
            },
        };
        if c == self.clusters.len() {
            self.clusters.push(Cluster {
                sig: sig.clone(),
                launches: 0,
                timed: Vec::new(),
                pool: None,
                extrapolated: 0,
                extrapolated_warp_insts: 0,
                extrapolated_gaps: 0,
                extrapolated_cycles: 0,
                extrapolated_threads: 0,
                extrapolated_family: FamilyCounts::default(),
                extrapolated_tensor: TensorStats::default(),
            });
        }
        let cl = &mut self.clusters[c];
        // a cluster extrapolates only from a complete timed member
        timed |= cl.timed.is_empty() || cl.timed.iter().any(|t| t.record.truncated);
        cl.launches += 1;
        self.warp_insts += sig.warp_insts;
        self.plan.push(PlannedLaunch {
            kernel: sig.kernel.clone(),
            cluster: c as u32,
            timed,
        });
        if timed {
            Decision::Time(c)
        } else {
            Decision::Extrapolate(c)
        }
    }

    /// Notes the timed record `k` (launch gap `gap`) of a launch decided [`Decision::Time`]
    /// into cluster `c`.
    pub fn timed(&mut self, c: usize, k: &KernelActivity, gap: u64) {
        self.timed_warp_insts += k.warp_insts;
        let cl = &mut self.clusters[c];
        cl.timed.push(Timed {
            record: k.clone(),
            gap,
        });
        cl.pool = None;
    }

    /// The record of a launch of signature `sig` (launch gap `gap`) decided
    /// [`Decision::Extrapolate`] from cluster `c`, as added when it runs: its cycles (from the
    /// pool's cycles per warp instruction at that point), its exact counts and the pool's
    /// occupancy limits. Every other counter of the cluster's extrapolated launches is added
    /// once, at the end ([`Sampler::finish`]): scaling the record launch by launch would cost
    /// more than timing a launch.
    pub fn extrapolate(&mut self, c: usize, sig: &LaunchSignature, gap: u64) -> KernelActivity {
        let cl = &mut self.clusters[c];
        let pool = cl.pool();
        let cycles = gap
            + if pool.warp_insts == 0 {
                pool.busy
            } else {
                (pool.busy as f64 * sig.warp_insts as f64 / pool.warp_insts as f64).round() as u64
            };
        let mut k = KernelActivity::empty(&sig.kernel);
        k.launches = 1;
        k.cycles = cycles;
        k.warp_insts = sig.warp_insts;
        k.thread_insts = sig.thread_insts;
        k.by_family = sig.by_family.clone();
        k.tensor = (sig.tensor.macs() > 0).then_some(sig.tensor);
        k.occupancy = cl.timed.last().expect("timed").record.occupancy.clone();
        k.occupancy.resident_warp_cycles = 0;
        k.occupancy.allocated_reg_cycles = 0;
        cl.extrapolated += 1;
        cl.extrapolated_warp_insts += sig.warp_insts;
        cl.extrapolated_gaps += gap;
        cl.extrapolated_cycles += cycles;
        cl.extrapolated_threads += sig.thread_insts;
        cl.extrapolated_family.merge(&sig.by_family);
        cl.extrapolated_tensor.merge(&sig.tensor);
        k
    }

    /// Completes `act` at the end of the run: adds each cluster's extrapolated counters (the
    /// pool's × the extrapolated warp instructions / the pool's; the cycles and exact counts,
    /// added launch by launch, are not added again) and the sampling summary.
    pub fn finish(&self, act: &mut Activity) {
        for cl in &self.clusters {
            if cl.extrapolated == 0 {
                continue;
            }
            let mut k = self.extrapolated_record(cl);
            k.launches = 0;
            k.cycles = 0;
            k.warp_insts = 0;
            k.thread_insts = 0;
            k.by_family = FamilyCounts::default();
            k.tensor = None;
            act.add_launch(k);
        }
        act.sample = Some(self.summary());
    }

    /// The extrapolated launches of `cl` as one record: the pool's counters scaled, the
    /// cycles and exact counts as given launch by launch.
    fn extrapolated_record(&self, cl: &Cluster) -> KernelActivity {
        let pool = Pooled::of(&cl.used());
        let mut k = pool.extrapolate(
            cl.extrapolated_warp_insts,
            cl.extrapolated,
            cl.extrapolated_gaps,
        );
        k.cycles = cl.extrapolated_cycles;
        for sm in &mut k.sms {
            sm.active_cycles = sm.active_cycles.min(k.cycles);
        }
        set_exact(
            &mut k,
            cl.extrapolated_warp_insts,
            cl.extrapolated_threads,
            &cl.extrapolated_family,
            &cl.extrapolated_tensor,
        );
        k
    }

    /// The run's record of what was sampled, with the error estimate.
    pub fn summary(&self) -> SampleSummary {
        let mut clusters = Vec::with_capacity(self.clusters.len());
        let (mut err_cycles, mut total_cycles) = (0.0, 0u64);
        for cl in &self.clusters {
            total_cycles += cl.timed.iter().map(|t| t.record.cycles).sum::<u64>();
            let (mut extrapolated, mut alternative) = (None, None);
            if cl.extrapolated > 0 {
                let a = self.extrapolated_record(cl);
                total_cycles += a.cycles;
                // the used member whose rate is farthest from the pooled rate
                let used = cl.used();
                let w: u64 = used.iter().map(|t| t.record.warp_insts).sum();
                let busy: u64 = used.iter().map(|t| t.busy()).sum();
                let pooled = busy as f64 / w.max(1) as f64;
                let far = used
                    .iter()
                    .max_by(|x, y| {
                        (x.rate() - pooled)
                            .abs()
                            .total_cmp(&(y.rate() - pooled).abs())
                    })
                    .expect("a cluster extrapolates after a timed member");
                let mut b = Pooled::of(&[far]).extrapolate(
                    cl.extrapolated_warp_insts,
                    cl.extrapolated,
                    cl.extrapolated_gaps,
                );
                set_exact(
                    &mut b,
                    cl.extrapolated_warp_insts,
                    cl.extrapolated_threads,
                    &cl.extrapolated_family,
                    &cl.extrapolated_tensor,
                );
                err_cycles += a.cycles.abs_diff(b.cycles) as f64;
                extrapolated = Some(a);
                alternative = Some(b);
            }
            clusters.push(ClusterSummary {
                kernel: cl.sig.kernel.clone(),
                launches: cl.launches,
                timed_launches: cl.timed.len() as u64,
                extrapolated_warp_insts: cl.extrapolated_warp_insts,
                extrapolated,
                alternative,
            });
        }
        SampleSummary {
            method: "kernels".into(),
            tolerance: self.settings.tolerance,
            launches: self.plan.len() as u64,
            timed_launches: self.clusters.iter().map(|c| c.timed.len() as u64).sum(),
            warp_insts: self.warp_insts,
            timed_warp_insts: self.timed_warp_insts,
            estimated_error_cycles: if total_cycles == 0 {
                0.0
            } else {
                err_cycles / total_cycles as f64
            },
            clusters,
            plan: self.plan.clone(),
            auto_fallback_error: None,
        }
    }
}

/// The provenance of a sampled record: which counters are exact and which extrapolated.
pub fn provenance() -> crate::activity::Provenance {
    crate::activity::Provenance {
        source: SOURCE_NAME.into(),
        method: format!(
            "kernel sampling: launches clustered online by their functional signature (same \
             kernel, CTA shape and shared memory; every extensive signature component within the \
             tolerance); the first {TIMED_PER_CLUSTER} launches of each cluster and each whose \
             number in it is a power of two simulated by the cycle-level model, the others \
             extrapolated per warp instruction from the timed members but the first"
        ),
        analytical: vec![
            "extrapolated launches: cycles = launch gap + the pooled timed members' cycles per \
             warp instruction × the launch's warp instructions"
                .into(),
            "extrapolated launches: every other summed counter (stalls, occupancy integrals, \
             per-SM pipeline, cache, register-file and memory-side counts, technique records) = \
             the pooled timed members' sum × the launch's warp instructions / theirs"
                .into(),
        ],
        functional: vec![
            "warp_insts, thread_insts, by_family and tensor of every launch (the functional \
             pass's exact counts; per SM split in the pool's proportions)"
                .into(),
            "every counter of the timed launches (cycle-level simulation)".into(),
        ],
        absent: vec![
            "the L2 contents extrapolated launches would leave: the next timed launch starts \
             from the L2 of the previous timed one"
                .into(),
        ],
        assumptions: vec![
            "a launch behaves like its cluster's timed members per warp instruction; the error \
             estimate is the spread between two timed members, not a guaranteed bound"
                .into(),
        ],
    }
}

/// The provenance source of a sampled record (`activity_source` in the reports).
pub const SOURCE_NAME: &str = "sim-sampled";

/// Sets the counts the functional pass measured exactly: warp and thread instructions, per
/// family, tensor multiply-accumulates, and the per-SM instruction counts as the exact totals
/// split in the record's per-SM proportions (largest remainder).
fn set_exact(
    k: &mut KernelActivity,
    warp_insts: u64,
    thread_insts: u64,
    family: &FamilyCounts,
    tensor: &TensorStats,
) {
    k.warp_insts = warp_insts;
    k.thread_insts = thread_insts;
    k.by_family = family.clone();
    k.tensor = (tensor.macs() > 0).then_some(*tensor);
    let w: Vec<u64> = k.sms.iter().map(|s| s.warp_insts).collect();
    let t: Vec<u64> = k.sms.iter().map(|s| s.thread_insts).collect();
    for (i, v) in split(warp_insts, &w).into_iter().enumerate() {
        k.sms[i].warp_insts = v;
    }
    for (i, v) in split(thread_insts, &t).into_iter().enumerate() {
        k.sms[i].thread_insts = v;
    }
}

/// `total` split in proportion to `weights` (largest remainder, ties to the lower index); all
/// on the first part when the weights are zero.
fn split(total: u64, weights: &[u64]) -> Vec<u64> {
    let sum: u64 = weights.iter().sum();
    if weights.is_empty() {
        return Vec::new();
    }
    if sum == 0 {
        let mut v = vec![0; weights.len()];
        v[0] = total;
        return v;
    }
    let exact: Vec<f64> = weights
        .iter()
        .map(|&w| total as f64 * w as f64 / sum as f64)
        .collect();
    let mut v: Vec<u64> = exact.iter().map(|x| x.floor() as u64).collect();
    let mut left = total - v.iter().sum::<u64>();
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| {
        let fa = exact[a] - exact[a].floor();
        let fb = exact[b] - exact[b].floor();
        fb.total_cmp(&fa).then(a.cmp(&b))
    });
    for i in order {
        if left == 0 {
            break;
        }
        v[i] += 1;
        left -= 1;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_keeps_the_total_and_the_proportions() {
        assert_eq!(split(10, &[1, 1, 2]), vec![3, 2, 5]);
        assert_eq!(split(7, &[0, 0]), vec![7, 0]);
        assert_eq!(split(100, &[3, 0, 1]).iter().sum::<u64>(), 100);
    }

    fn sig(kernel: &str, grid: u32, insts: u64) -> LaunchSignature {
        LaunchSignature {
            kernel: kernel.into(),
            grid: [grid, 1, 1],
            block: [64, 1, 1],
            warp_insts: insts,
            ..Default::default()
        }
    }

    #[test]
    fn launches_cluster_by_shape_and_distance() {
        let mut s = Sampler::new(SampleSettings::default());
        let mut k = KernelActivity::empty("a");
        k.cycles = 100;
        k.warp_insts = 1000;
        assert_eq!(s.decide(&sig("a", 8, 1000)), Decision::Time(0));
        s.timed(0, &k, 0);
        assert_eq!(s.decide(&sig("a", 8, 1020)), Decision::Time(0));
        s.timed(0, &k, 0);
        assert_eq!(s.decide(&sig("a", 8, 1010)), Decision::Time(0));
        s.timed(0, &k, 0);
        assert_eq!(s.decide(&sig("a", 8, 1000)), Decision::Time(0), "the 4th");
        s.timed(0, &k, 0);
        assert_eq!(s.decide(&sig("a", 8, 990)), Decision::Extrapolate(0));
        assert!(timed_member(8) && !timed_member(7) && timed_member(1024));
        // another grid, another kernel, another work size: new clusters
        assert_eq!(s.decide(&sig("a", 16, 1000)), Decision::Time(1));
        assert_eq!(s.decide(&sig("b", 8, 1000)), Decision::Time(2));
        assert_eq!(s.decide(&sig("a", 8, 2000)), Decision::Time(3));
    }
}
