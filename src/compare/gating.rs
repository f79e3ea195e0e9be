//! Power-gating metrics in a comparison (power-gating §1.5, §1.6, §9): per gated class the
//! leakage with and without gating, events, wakeups and the A/B/C split of idle runs; per run the
//! pipes' idle fractions, the schedulers' active-set size and warp folding's ratios.

use crate::study::WorkloadResult;
use serde::Serialize;

/// Idle fraction of one class of pipes (INT or FP), whole pipe and per lane, and the same over
/// the baseline run's (`null` when the baseline's is 0).
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct UnitIdle {
    /// Idle cycles ÷ cycles of the class's pipes (a pipe is busy when any lane is).
    pub idle_fraction: f64,
    /// Idle lane-cycles ÷ lane-cycles of the class's pipes.
    pub lane_idle_fraction: f64,
    /// `idle_fraction` ÷ the baseline's.
    pub idle_fraction_norm: Option<f64>,
    /// `lane_idle_fraction` ÷ the baseline's.
    pub lane_idle_fraction_norm: Option<f64>,
}

/// Active-set size of the warp schedulers over a run.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct ActiveSetSize {
    /// Largest active set of one scheduler, warps.
    pub max_warps: u32,
    /// Mean over the scheduler-cycles, warps.
    pub mean_warps: f64,
}

/// Warp folding over a run (power-gating §9 "Folding", "Workload").
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct FoldingSummary {
    /// Per type: cycles with folding enabled ÷ cycles.
    pub fold_time_ratio: ClassPair<f64>,
    /// Per type: folded ÷ dispatched SP instructions.
    pub fold_instr_ratio: ClassPair<f64>,
    /// Fold phases, summed over the SMs.
    pub phases: u64,
    /// Phases in which the utilisation rule turned folding off.
    pub phases_disabled: u64,
    /// SP warp instructions with a full and with a partial active mask.
    pub full_insts: u64,
    /// See `full_insts`.
    pub partial_insts: u64,
}

/// `a / b` when `b > 0`.
pub(super) fn ratio(a: f64, b: f64) -> Option<f64> {
    (b > 0.0).then(|| a / b)
}

/// A class's idle time in a run (`r`) against the baseline's (`base`), each as `[pipe, lane]` × `[idle, total]` cycles; `None` without pipes.
fn unit_idle(r: [[u64; 2]; 2], base: [[u64; 2]; 2]) -> Option<UnitIdle> {
    let frac = |x: [u64; 2]| x[0] as f64 / x[1].max(1) as f64;
    (r[0][1] > 0).then(|| UnitIdle {
        idle_fraction: frac(r[0]),
        lane_idle_fraction: frac(r[1]),
        idle_fraction_norm: ratio(frac(r[0]), frac(base[0])),
        lane_idle_fraction_norm: ratio(frac(r[1]), frac(base[1])),
    })
}

/// The run-level §9 metrics of `r` against the baseline's run `base`.
pub(super) fn run_metrics(
    r: &WorkloadResult,
    base: &WorkloadResult,
) -> (
    ClassPair<Option<UnitIdle>>,
    Option<ActiveSetSize>,
    Option<FoldingSummary>,
) {
    let (m, b) = (&r.pg_metrics, &base.pg_metrics);
    let idle = ClassPair {
        int: unit_idle(m.int_idle, b.int_idle),
        fp: unit_idle(m.fp_idle, b.fp_idle),
    };
    let active = m.active_set.map(|a| ActiveSetSize {
        max_warps: a.max_warps,
        mean_warps: a.mean_warps(),
    });
    let folding = m.fold.as_ref().map(|f| FoldingSummary {
        fold_time_ratio: ClassPair {
            int: f.fold_time_ratio(0),
            fp: f.fold_time_ratio(1),
        },
        fold_instr_ratio: ClassPair {
            int: f.fold_instr_ratio(0),
            fp: f.fold_instr_ratio(1),
        },
        phases: f.phases,
        phases_disabled: f.phases_disabled,
        full_insts: f.full,
        partial_insts: f.partial,
    });
    (idle, active, folding)
}

/// A value per execution-unit class.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct ClassPair<T> {
    /// INT lanes.
    pub int: T,
    /// FP lanes.
    pub fp: T,
}

/// The A/B/C split of a class's idle runs (power-gating §1.5): A `L ≤ D`, B `D < L ≤ D+BET`,
/// C `L > D+BET`; as shares of the runs and of the idle cycles.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct IdleRegions {
    /// Share of idle runs in A, B, C.
    pub by_count: [f64; 3],
    /// Share of idle cycles in A, B, C.
    pub by_cycles: [f64; 3],
}

/// One gated class's energies in a run, against the baseline.
#[derive(Clone, Debug, Serialize)]
pub struct ClassEnergy {
    /// `int`, `fp` or `sfu`.
    pub class: String,
    /// Leakage of these units in the baseline run, J.
    pub leakage_base_j: f64,
    /// Leakage with gating, J.
    pub leakage_pg_j: f64,
    /// Event overhead, J.
    pub overhead_j: f64,
    /// Control-logic energy, J.
    pub control_j: f64,
    /// Busy cycles summed over the class's domains (0: the class had no work).
    pub busy_cycles: u64,
    /// Gated cycles summed over the class's domains.
    pub gated_cycles: u64,
    /// Events with `G ≤ BET` and with `G > BET`.
    pub events_by_outcome: [u64; 2],
    /// `pg_overhead_norm = N_events·BET/T_base` (power-gating §9), per domain of the class:
    /// the event overhead in baseline-run cycles.
    pub pg_overhead_norm: f64,
}

pub(super) fn shares(v: [u64; 3]) -> [f64; 3] {
    let t: u64 = v.iter().sum();
    if t == 0 {
        [0.0; 3]
    } else {
        v.map(|x| x as f64 / t as f64)
    }
}

/// The gating metrics of run `r` against the baseline's run `base` of the same workload.
pub(super) fn gating_metrics(r: &WorkloadResult, base: &WorkloadResult) -> GatingMetrics {
    let mut m = GatingMetrics::default();
    let Some(classes) = r.gating() else {
        return m;
    };
    // E_leak,base = P_leak·t_clk·T_base: the run's ungated leakage at the baseline's length.
    let scale = if r.cycles > 0 {
        base.cycles as f64 / r.cycles as f64
    } else {
        1.0
    };
    for c in classes {
        // the models-side accounting, with the baseline's length in place of the run's own
        let against_base = models::gating::cost::ClassCost {
            leakage_base_j: c.leakage_ungated_j * scale,
            ..c.clone()
        };
        let e = ClassEnergy {
            class: c.class.clone(),
            leakage_base_j: against_base.leakage_base_j,
            leakage_pg_j: c.leakage_pg_j,
            overhead_j: c.overhead_j,
            control_j: c.control_j,
            busy_cycles: c.busy_cycles,
            gated_cycles: c.gated_cycles,
            events_by_outcome: c.events_by_outcome,
            pg_overhead_norm: c.events as f64 * r.pg_metrics.bet as f64
                / (c.domains.max(1) as f64 * base.cycles.max(1) as f64),
        };
        m.events += c.events;
        m.wakeups += c.wakeups;
        m.critical_wakeups += c.critical_wakeups;
        let regions = IdleRegions {
            by_count: shares(c.region_count),
            by_cycles: shares(c.region_cycles),
        };
        match c.class.as_str() {
            "int" => {
                m.savings.int = Some(against_base.static_savings());
                m.regions.int = Some(regions);
            }
            "fp" => {
                // FP aggregates exclude workloads with no FP activity (power-gating §9).
                if c.busy_cycles > 0 {
                    m.savings.fp = Some(against_base.static_savings());
                }
                m.regions.fp = Some(regions);
            }
            _ => {}
        }
        m.classes.push(e);
    }
    m
}

/// One run's gating metrics against the baseline's, summed over its gated classes.
#[derive(Default)]
pub(super) struct GatingMetrics {
    pub(super) savings: ClassPair<Option<f64>>,
    pub(super) regions: ClassPair<Option<IdleRegions>>,
    pub(super) events: u64,
    pub(super) wakeups: u64,
    pub(super) critical_wakeups: u64,
    pub(super) classes: Vec<ClassEnergy>,
}
