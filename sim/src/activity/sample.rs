//! The record of a kernel-sampled run (`Activity::sample`) and the scaling that extrapolates
//! a timed launch's counters to another launch of its cluster.
//!
//! Scaling rule: a counter is scaled exactly when launches sum it. [`ScaleTemplate`] finds
//! those counters generically, without a list of fields: it serialises a record `r` and the
//! sum `r + r` ([`KernelActivity::accumulate`]), and a non-zero integer leaf that doubles is a
//! summed counter (scaled), any other leaf (a width, a maximum, a label, a mean, a limit) is
//! kept. A counter added to the record later is scaled or kept by the same rule.

use super::KernelActivity;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How one launch of a sampled run was obtained.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedLaunch {
    /// Kernel name.
    pub kernel: String,
    /// The cluster the launch joined (numbered from 0 in order of creation).
    pub cluster: u32,
    /// Timed by the cycle-level model (else extrapolated from its cluster's timed members).
    pub timed: bool,
}

/// One cluster of a sampled run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClusterSummary {
    /// Kernel name.
    pub kernel: String,
    /// Launches in the cluster.
    pub launches: u64,
    /// Of them, timed by the cycle-level model.
    pub timed_launches: u64,
    /// Warp instructions of the extrapolated launches.
    pub extrapolated_warp_insts: u64,
    /// The extrapolated launches' counts summed, as extrapolated from the cluster's pool of
    /// timed members (`sim::sample`); absent when none was extrapolated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extrapolated: Option<KernelActivity>,
    /// The same launches extrapolated from the pool member whose cycles per warp instruction
    /// lie farthest from the pool's: the difference is the cluster's error estimate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternative: Option<KernelActivity>,
}

/// What a kernel-sampled run did and its error estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleSummary {
    /// `"kernels"`.
    pub method: String,
    /// The largest relative signature distance at which a launch joins a cluster.
    pub tolerance: f64,
    /// Launches of the program.
    pub launches: u64,
    /// Launches timed by the cycle-level model.
    pub timed_launches: u64,
    /// Warp instructions of the program (every launch, as the functional pass counts them).
    pub warp_insts: u64,
    /// Warp instructions of the timed launches.
    pub timed_warp_insts: u64,
    /// Estimated error of the total cycles, as a fraction of them: Σ over clusters of
    /// |cycles(extrapolated) − cycles(alternative)|, over the total cycles.
    pub estimated_error_cycles: f64,
    /// The clusters, in order of creation.
    pub clusters: Vec<ClusterSummary>,
    /// Every launch's decision, in launch order (what `compare` replays on its variants).
    pub plan: Vec<PlannedLaunch>,
    /// Set on the record of a full simulation chosen by `--sample auto` instead of a sampled
    /// run: that run's larger estimated error (cycles or energy), which exceeded the target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_fallback_error: Option<f64>,
}

impl SampleSummary {
    /// The work speed-up of the timing model: warp instructions of the program over those
    /// timed (the functional pass's cost, which every launch pays, is not in it).
    pub fn work_speedup(&self) -> f64 {
        if self.timed_warp_insts == 0 {
            1.0
        } else {
            self.warp_insts as f64 / self.timed_warp_insts as f64
        }
    }
}

/// A timed record prepared for scaling (module documentation).
#[derive(Clone, Debug)]
pub struct ScaleTemplate {
    value: Value,
    doubled: Value,
}

impl ScaleTemplate {
    /// The template of `k`.
    pub fn new(k: &KernelActivity) -> ScaleTemplate {
        let mut d = k.clone();
        d.accumulate(k);
        ScaleTemplate {
            value: serde_json::to_value(k).expect("activity serialises"),
            doubled: serde_json::to_value(&d).expect("activity serialises"),
        }
    }

    /// The record with every summed counter multiplied by `s` and rounded to the nearest
    /// integer, every other field as it was.
    pub fn scaled(&self, s: f64) -> KernelActivity {
        let mut v = self.value.clone();
        scale_value(&mut v, &self.doubled, s);
        serde_json::from_value(v).expect("a scaled record keeps its shape")
    }
}

fn scale_value(v: &mut Value, d: &Value, s: f64) {
    match (v, d) {
        (Value::Number(n), Value::Number(m)) => {
            if let (Some(a), Some(b)) = (n.as_u64(), m.as_u64()) {
                if a > 0 && a.checked_mul(2) == Some(b) {
                    *n = ((a as f64 * s).round() as u64).into();
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (a, b) in x.iter_mut().zip(y) {
                scale_value(a, b, s);
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            for (k, a) in x.iter_mut() {
                if let Some(b) = y.get(k) {
                    scale_value(a, b, s);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activity::{OpcollActivity, SmActivity};

    #[test]
    fn summed_counters_scale_and_the_rest_is_kept() {
        let mut k = KernelActivity::empty("k");
        k.launches = 1;
        k.cycles = 100;
        k.occupancy.max_ctas_per_sm = 8;
        k.occupancy.mean_occupancy = 0.5;
        let mut sm = SmActivity {
            active_cycles: 90,
            ..Default::default()
        };
        sm.opcoll.push(OpcollActivity {
            class: "gen".into(),
            units: 4,
            allocs: 10,
            ..Default::default()
        });
        k.sms.push(sm);
        let s = ScaleTemplate::new(&k).scaled(2.5);
        assert_eq!(s.cycles, 250);
        assert_eq!(s.launches, 3); // summed: the caller sets it
        assert_eq!(s.occupancy.max_ctas_per_sm, 8);
        assert_eq!(s.occupancy.mean_occupancy, 0.5);
        assert_eq!(s.sms[0].active_cycles, 225);
        assert_eq!(s.sms[0].opcoll[0].units, 4);
        assert_eq!(s.sms[0].opcoll[0].allocs, 25);
    }
}
