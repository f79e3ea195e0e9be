//! Allocation-granularity search (analytical-model §4.8) for x ∈ {s, r}: double a candidate
//! x_min and accept the first one for which every measured point below the warp-slot cap
//! satisfies the model, `N = ⌊C / (⌈x, x_min⌉·b)⌋` (C = S with b = 1 for shared memory,
//! C = R for registers). The capacity C comes from the max formula, not from x_min.
//!
//! The search starts at 1 (a byte, a register) rather than at the sweep step: the sweeps
//! include sizes just above a step, so a granularity finer than the step is identified too,
//! and a configured granularity that is not a power of two shows up as a FAIL.

use models::sched::round_up;

/// One measured point: size x (bytes or registers per thread), warps per block b, N_slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// Shared bytes or registers per thread.
    pub x: u32,
    /// Warps per block.
    pub b: u32,
    /// Measured N_slot.
    pub n: u32,
}

/// The smallest power of two x_min ≤ `max` consistent with every point, or `None`.
pub fn search(points: &[Point], capacity: u64, max: u32) -> Option<u32> {
    let mut x = 1u32;
    while x <= max {
        let ok = points.iter().all(|p| {
            let need = round_up(p.x, x) * p.b as u64;
            need > 0 && capacity / need == p.n as u64
        });
        if ok {
            return Some(x);
        }
        x = x.checked_mul(2)?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_granularity_of_synthetic_points() {
        // R = 2048, granularity 4, b = 1
        let pts: Vec<Point> = [682u32, 681, 409, 1024, 1023]
            .iter()
            .map(|&x| Point {
                x,
                b: 1,
                n: (2048 / round_up(x, 4)) as u32,
            })
            .collect();
        assert_eq!(search(&pts, 2048, 4096), Some(4));
        let exact: Vec<Point> = [4096u32, 4100, 12289]
            .iter()
            .map(|&x| Point {
                x,
                b: 1,
                n: 49152 / x,
            })
            .collect();
        assert_eq!(search(&exact, 49152, 4096), Some(1));
    }
}
