//! Speed of the analytical scheduling model as an optimiser's inner-loop surrogate: one
//! evaluation is `N_slot` with its limiter plus `T(g, b)` over the configured units (a fresh
//! `fu` per call), swept over block sizes, shared-memory sizes and register counts of a
//! GTX 1080 Ti-like machine. Prints evaluations per second (median of five runs).
//!
//! `cargo bench -p models --bench sched`

use models::sched::{Buffers, Limiter, Limits, SchedModel, Unit};
use std::hint::black_box;
use std::time::Instant;

fn machine() -> SchedModel {
    SchedModel {
        w: 32,
        n_mp: 28,
        limits: Limits {
            t_per_b: 1024,
            t_per_g: u64::MAX,
            s_per_b: 49152,
            r_per_t: vec![2048],
            r_per_b: vec![2048],
        },
        buf: Buffers {
            n1: Some(32),
            n1_single_warp_exempt: false,
            n2: 64,
            s: 98304,
            s_min: 1,
            r: vec![2048],
            r_min: vec![4],
        },
        units: vec![
            Unit::new("sp_int", 1.0, 4, Some(1), 4),
            Unit::new("sp_fp", 1.0, 4, Some(1), 4),
            Unit::new("sfu", 4.0, 20, Some(1), 4),
            Unit::new("issue", 1.0, 0, Some(1), 4),
        ],
    }
}

fn main() {
    let m = machine();
    let used = [(1usize, 1.0f64), (3, 1.0)];
    let p1 = 8.0;
    let mut rates = Vec::new();
    for _ in 0..5 {
        let t0 = Instant::now();
        let mut n = 0u64;
        let mut acc = 0.0f64;
        for g in [1u32, 29, 57, 113, 281, 1000] {
            for b in 1..=32u32 {
                for s in [0u32, 1024, 4096, 12288, 24576, 49152] {
                    for r in [16u32, 24, 32, 48, 64, 128] {
                        let (ns, lim) = m.n_slot(black_box(b), black_box(s), &[r]);
                        let gpm = m.blocks_per_mp(black_box(g as u64 * 28));
                        let t = m.t_rel(gpm, b, ns, |c| m.fu_counts(c, used, p1));
                        acc += t + f64::from(u8::from(lim == Limiter::Shmem));
                        n += 1;
                    }
                }
            }
        }
        black_box(acc);
        rates.push(n as f64 / t0.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "sched model: {:.3e} evaluations/s (N_slot + T(g,b), median of 5 runs of {} each)",
        rates[2],
        6 * 32 * 6 * 6
    );
}
