//! warpsched_policy (analytical-model §4.4): a policy label from `log_warp_id` with one block of
//! L(T/B) threads. Timestamps are shifted to the minimum, warps renumbered by their first
//! timestamp, and all (time, warp) events sorted; per scheduler partition (warps grouped by
//! `%warpid` modulo the partitions) the signature is the mean run length of consecutive events
//! of one warp, the fraction of switches to the next warp `(prev + 1) mod c`, and the fraction of
//! switches to the oldest warp that still has events. LRR-like: runs near 1 and mostly +1
//! switches; GTO-like: long runs and switches to the oldest warp.
//!
//! `%clock` holds the cycle at which the read issues (the timing model rewrites the value the
//! functional front end produced at fetch), so the log is the scheduler's issue order.
//!
//! The prediction [G]: when the front end cannot supply instructions faster than the
//! schedulers issue them (`fetch_throughput · E ≤ n_per_sm · issue_per_sched`, with `E` =
//! [`crate::schedcfg::fetch_group`] instructions per fetch), every warp drains its I-buffer
//! and waits for the round-robin fetch, so the issue order follows the fetch rotation
//! whatever the policy: a greedy (GTO) run holds at most `E` reads, and its signature is LRR's.
//! With a faster front end the policy shows. The test passes when the recovered label is the
//! predicted one; the configured policy is reported beside it.

use super::harness;
use super::kernel_limits::Found as Limits;
use super::kernels::warpid_kernel;
use super::{Kind, Param};
use sim::config::GpuConfig;

/// Back-to-back clock reads per warp ([R] K = 10).
pub const K_READS: usize = 10;

/// The signature of one partition.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Signature {
    /// Mean run length of consecutive events of one warp.
    pub mean_run: f64,
    /// Fraction of switches to `(prev + 1) mod c`.
    pub frac_next: f64,
    /// Fraction of switches to the oldest warp with events left.
    pub frac_oldest: f64,
}

/// Mean run length from which a signature reads as greedy ([G], between a rotation's 1 and
/// the shortest greedy run a deeper buffer gives, 3 or more).
pub const GTO_MIN_RUN: f64 = 2.5;

/// The label the log of `cfg` should show: "lrr" for LRR; for GTO (and oldest-first) "lrr"
/// when the front end paces issue (see the module doc), else "gto"; else "other".
pub fn predicted_label(cfg: &GpuConfig) -> &'static str {
    let supply = cfg.frontend.fetch_throughput as u64 * crate::schedcfg::fetch_group(cfg) as u64;
    let issue = cfg.sched.n_per_sm as u64 * cfg.sched.issue_per_sched as u64;
    match String::from(cfg.sched.policy.clone()).as_str() {
        "lrr" => "lrr",
        "gto" | "oldest" if supply > issue => "gto",
        "gto" | "oldest" => "lrr",
        _ => "other",
    }
}

impl Signature {
    /// "lrr", "gto" or "other".
    pub fn label(&self) -> &'static str {
        if self.mean_run >= GTO_MIN_RUN && self.frac_oldest >= 0.5 {
            "gto"
        } else if self.mean_run < GTO_MIN_RUN && self.frac_next >= 0.5 {
            "lrr"
        } else {
            "other"
        }
    }
}

/// The signature of events `(time, warp)` of warps renumbered 0…c−1 by first timestamp.
pub fn signature(events: &[(u32, u32)], c: u32) -> Signature {
    let mut left = vec![0u32; c as usize];
    for e in events {
        left[e.1 as usize] += 1;
    }
    let (mut runs, mut switches, mut next, mut oldest) = (1u32, 0u32, 0u32, 0u32);
    for pair in events.windows(2) {
        let (p, q) = (pair[0].1, pair[1].1);
        left[p as usize] -= 1;
        if p == q {
            continue;
        }
        runs += 1;
        switches += 1;
        if q == (p + 1) % c {
            next += 1;
        }
        if left.iter().position(|&n| n > 0) == Some(q as usize) {
            oldest += 1;
        }
    }
    let s = switches.max(1) as f64;
    Signature {
        mean_run: events.len() as f64 / runs as f64,
        frac_next: next as f64 / s,
        frac_oldest: oldest as f64 / s,
    }
}

/// Runs the test and appends its parameter.
pub fn run(cfg: &GpuConfig, lim: &Limits, out: &mut Vec<Param>) -> Result<(), String> {
    let k = harness::kernel(&warpid_kernel(K_READS), "log_warp_id").map_err(|e| e.to_string())?;
    // B = L(T/B), or the largest block of whole warps the logger's own registers let launch
    let warps = harness::max_fitting_warps(cfg, &k, lim.w, lim.max_warps()).max(1);
    let logs = harness::run_warpid(cfg, &k, (warps * lim.w).min(lim.t_per_b), K_READS)?;
    let parts = cfg.sched.n_per_sm.max(1);
    let t_min = logs
        .iter()
        .flat_map(|l| l.1.iter().copied())
        .min()
        .unwrap_or(0);
    let mut labels = Vec::new();
    let mut sigs = Vec::new();
    for p in 0..parts {
        let mut warps: Vec<&(u32, Vec<u32>)> = logs.iter().filter(|l| l.0 % parts == p).collect();
        warps.sort_by_key(|l| (l.1.first().copied().unwrap_or(0), l.0));
        let c = warps.len() as u32;
        if c == 0 {
            continue;
        }
        let mut ev: Vec<(u32, u32)> = warps
            .iter()
            .enumerate()
            .flat_map(|(i, l)| l.1.iter().map(move |&t| (t - t_min, i as u32)))
            .collect();
        ev.sort_unstable();
        let s = signature(&ev, c);
        labels.push(s.label());
        sigs.push(format!(
            "p{p}: run {:.2}, next {:.2}, oldest {:.2}",
            s.mean_run, s.frac_next, s.frac_oldest
        ));
    }
    let label = if labels.iter().all(|l| *l == labels[0]) {
        labels.first().copied().unwrap_or("other")
    } else {
        "mixed"
    };
    let configured = String::from(cfg.sched.policy.clone());
    let predicted = predicted_label(cfg);
    let supply = cfg.frontend.fetch_throughput * crate::schedcfg::fetch_group(cfg);
    let issue = cfg.sched.n_per_sm * cfg.sched.issue_per_sched;
    out.push(Param {
        name: "warpsched_policy.label".into(),
        configured: None,
        recovered: None,
        predicted: None,
        kind: Kind::Label,
        pass: Some(label == predicted),
        note: format!(
            "recovered {label}, predicted {predicted} (configured {configured}; the front end \
             supplies {supply} and the schedulers issue {issue} instructions per cycle); {}",
            sigs.join("; ")
        ),
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_of_ideal_orders() {
        // LRR: 4 warps, 3 reads each, strictly rotating
        let lrr: Vec<(u32, u32)> = (0..12).map(|i| (i, i % 4)).collect();
        let s = signature(&lrr, 4);
        assert_eq!(s.label(), "lrr");
        // GTO: each warp runs to completion in age order
        let gto: Vec<(u32, u32)> = (0..12).map(|i| (i, i / 3)).collect();
        let s = signature(&gto, 4);
        assert_eq!(s.label(), "gto");
        assert_eq!(s.mean_run, 3.0);
    }

    #[test]
    fn the_predicted_label_is_lrr_when_the_front_end_paces_issue() {
        use sim::config::SchedPolicy;
        let mut cfg = GpuConfig::preset("gtx480").unwrap();
        // one fetch of 2 per cycle for 2 schedulers of 1: the fetch rotation paces issue
        assert_eq!(crate::schedcfg::fetch_group(&cfg), 2);
        assert_eq!(predicted_label(&cfg), "lrr");
        cfg.frontend.ibuffer_entries = 8;
        assert_eq!(
            predicted_label(&cfg),
            "lrr",
            "fetch width 2 still refills 2"
        );
        cfg.frontend.fetch_width = 8;
        assert_eq!(predicted_label(&cfg), "gto");
        let k = GpuConfig::preset("gtx780").unwrap();
        assert_eq!(
            predicted_label(&k),
            "gto",
            "8 fetches of 2 for 4 schedulers of 2"
        );
        cfg.sched.policy = SchedPolicy::Lrr;
        assert_eq!(predicted_label(&cfg), "lrr");
        cfg.sched.policy = SchedPolicy::Youngest;
        assert_eq!(predicted_label(&cfg), "other");
    }
}
