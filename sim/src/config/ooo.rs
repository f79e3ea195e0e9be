//! Checks of the `[sched.ooo]` table (issue-stage §2): range checks of the SOCGPU knobs and the
//! combinations the SOCGPU issue path does not model, each error naming its key.

use super::pg::PgPolicy;
use super::schema::{GpuConfig, OooMode, SchedPolicy};

impl GpuConfig {
    /// Errors of `[sched.ooo]`. Called by [`GpuConfig::validate`].
    ///
    /// - `sched.ooo.ib_depth` must be in 1..=64 (the dependence matrix keeps one 64-bit row
    ///   per entry) and `sched.ooo.ready_ctr_bits` in 0..=16 (0 = ⌈log2 N⌉ + 2).
    /// - `"loog"` is not simulated.
    /// - The SOCGPU issue path has no power-gating or folding hooks and orders warps by the
    ///   schedulers that read only age and issue history: with `"socgpu"`, `pg.policy` must be
    ///   "None", `fold.enabled` false, and `sched.policy` one of lrr, gto, oldest, youngest.
    pub fn ooo_errors(&self) -> Vec<String> {
        let mut bad = Vec::new();
        let o = &self.sched.ooo;
        if !(1..=64).contains(&o.ib_depth) {
            bad.push(format!(
                "'sched.ooo.ib_depth' = {}: must be in 1..=64 entries",
                o.ib_depth
            ));
        }
        if o.ready_ctr_bits > 16 {
            bad.push(format!(
                "'sched.ooo.ready_ctr_bits' = {}: must be in 0..=16 (0 = ceil(log2 ib_depth) + 2)",
                o.ready_ctr_bits
            ));
        }
        match o.mode {
            OooMode::None => {}
            OooMode::Loog => bad.push(
                "'sched.ooo.mode' = \"loog\": collector-unit out-of-order issue is not \
                 implemented (allowed: \"none\", \"socgpu\")"
                    .into(),
            ),
            OooMode::Socgpu => {
                if self.pg.policy != PgPolicy::None {
                    bad.push(
                        "'sched.ooo.mode' = \"socgpu\" with 'pg.policy' not \"None\": the SOCGPU \
                         issue path has no power-gating hooks"
                            .into(),
                    );
                }
                if self.fold.enabled {
                    bad.push(
                        "'sched.ooo.mode' = \"socgpu\" with 'fold.enabled' = true: the SOCGPU \
                         issue path does not fold warps"
                            .into(),
                    );
                }
                if !matches!(
                    self.sched.policy,
                    SchedPolicy::Lrr
                        | SchedPolicy::Gto
                        | SchedPolicy::Oldest
                        | SchedPolicy::Youngest
                ) {
                    bad.push(format!(
                        "'sched.policy' = \"{}\" with 'sched.ooo.mode' = \"socgpu\": allowed \
                         lrr, gto, oldest, youngest",
                        String::from(self.sched.policy.clone())
                    ));
                }
            }
        }
        bad
    }
}
