//! Register-file characterisation (register-file spec §9) recorded with `stats.per_register`:
//! the histograms count every access and every issued instruction exactly once, the cut-off
//! histogram is the full one's part within `metrics.interaccess_cutoff`, and the per-class
//! register counts (profiled pilot, its CTA, other CTAs) add up to the per-register totals.

use sim::config::GpuConfig;
use sim::timing::Simulation;
use sim::workloads::{self, Size};

fn run(cfg: &GpuConfig, name: &str) -> sim::activity::Activity {
    let mut gpu = Simulation::new(cfg).gpu().unwrap();
    let rep = workloads::find(name)
        .unwrap()
        .run(Size::Test, &mut gpu, true)
        .unwrap();
    assert!(rep.check.unwrap().passed, "{name}");
    gpu.activity().clone()
}

#[test]
fn characterisation_histograms_sum_to_the_accesses() {
    let mut cfg = GpuConfig::preset("gtx480").unwrap();
    cfg.stats.per_register = true;
    for name in ["hotspot", "bfs"] {
        let a = run(&cfg, name);
        for k in &a.kernels {
            let r = k.per_register.as_ref().expect("per-register record");
            let accesses: u64 = r.reads.iter().chain(&r.writes).sum();
            assert!(accesses > 0);
            // every access is either a key's first or has a distance to the previous one
            assert_eq!(
                r.inter_access.count + r.first_access_after_alloc.count,
                accesses,
                "{name} {}",
                k.name
            );
            assert_eq!(
                r.inter_access.counts.iter().sum::<u64>(),
                r.inter_access.count
            );
            // the cut-off histogram: the distances ≤ 3000 of the full one
            assert_eq!(r.interaccess_cutoff, 3000);
            let within = &r.inter_access_within_cutoff;
            assert!(within.count <= r.inter_access.count);
            // bins up to [2048, 4096) hold only values below the cutoff or straddle it
            let below: u64 = r.inter_access.counts[..12].iter().sum();
            let upto_4095: u64 = r.inter_access.counts[..13].iter().sum();
            assert!(below <= within.count && within.count <= upto_4095, "{name}");
            // one active-lane bin per issued warp instruction
            assert_eq!(
                r.active_lane_insts.iter().sum::<u64>() + r.masked_off_insts,
                k.warp_insts,
                "{name} {}",
                k.name
            );
            assert!(r.full_warp_insts <= r.active_lane_insts[5]);
            // the three warp classes partition the per-register counts
            for i in 0..r.reads.len() {
                assert_eq!(
                    r.profiled_pilot_counts[i] + r.pilot_cta_counts[i] + r.other_cta_counts[i],
                    r.reads[i] + r.writes[i],
                    "{name} {} R{i}",
                    k.name
                );
            }
            assert!(r.profiled_pilots >= k.launches);
        }
        // hotspot runs every lane; bfs diverges
        let agg = a.aggregate.per_register.as_ref().unwrap();
        if name == "bfs" {
            assert!(agg.full_warp_insts < a.aggregate.warp_insts);
        }
    }
}

#[test]
fn a_smaller_cutoff_keeps_fewer_distances() {
    let mut cfg = GpuConfig::preset("gtx480").unwrap();
    cfg.stats.per_register = true;
    let a = run(&cfg, "hotspot");
    cfg.metrics.interaccess_cutoff = 10;
    let b = run(&cfg, "hotspot");
    let ra = a.aggregate.per_register.as_ref().unwrap();
    let rb = b.aggregate.per_register.as_ref().unwrap();
    assert_eq!(
        ra.inter_access, rb.inter_access,
        "the full histogram is the same"
    );
    assert!(rb.inter_access_within_cutoff.count < ra.inter_access_within_cutoff.count);
    assert!(rb.inter_access_within_cutoff.sum <= 10 * rb.inter_access_within_cutoff.count);
}
