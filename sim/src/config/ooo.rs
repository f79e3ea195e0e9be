//! Checks of the `[sched.ooo]` table (issue-stage §2, §3): range checks of the SOCGPU and LOOG
//! knobs and the combinations their issue paths do not model, each error naming its key.

use super::pg::PgPolicy;
use super::schema::{GpuConfig, OooMode, OooSection, SchedPolicy};

impl GpuConfig {
    /// Errors of `[sched.ooo]`. Called by [`GpuConfig::validate`].
    ///
    /// - `sched.ooo.ib_depth` must be in 1..=64 (the dependence matrix keeps one 64-bit row
    ///   per entry) and `sched.ooo.ready_ctr_bits` in 0..=16 (0 = ⌈log2 N⌉ + 2).
    /// - The LOOG knobs are checked by [`GpuConfig::loog_errors`].
    /// - The SOCGPU and LOOG issue paths have no power-gating or folding hooks and order warps
    ///   by the schedulers that read only age and issue history: with `"socgpu"` or `"loog"`,
    ///   `pg.policy` must be "None", `fold.enabled` false, and `sched.policy` one of lrr, gto,
    ///   oldest, youngest.
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
        bad.extend(self.loog_errors());
        match o.mode {
            OooMode::None => {}
            OooMode::Socgpu | OooMode::Loog => {
                let m = if o.mode == OooMode::Socgpu {
                    "socgpu"
                } else {
                    "loog"
                };
                if self.pg.policy != PgPolicy::None {
                    bad.push(format!(
                        "'sched.ooo.mode' = \"{m}\" with 'pg.policy' not \"None\": the \
                         out-of-order issue path has no power-gating hooks"
                    ));
                }
                if self.fold.enabled {
                    bad.push(format!(
                        "'sched.ooo.mode' = \"{m}\" with 'fold.enabled' = true: the \
                         out-of-order issue path does not fold warps"
                    ));
                }
                if !matches!(
                    self.sched.policy,
                    SchedPolicy::Lrr
                        | SchedPolicy::Gto
                        | SchedPolicy::Oldest
                        | SchedPolicy::Youngest
                ) {
                    bad.push(format!(
                        "'sched.policy' = \"{}\" with 'sched.ooo.mode' = \"{m}\": allowed \
                         lrr, gto, oldest, youngest",
                        String::from(self.sched.policy.clone())
                    ));
                }
            }
        }
        bad
    }

    /// The LOOG knobs' errors (issue-stage §3.3), checked whatever the mode so that a file
    /// carrying a bad value is refused even before the mode is switched on:
    /// - `sched.ooo.loog_n_cu`: 0 (the RTL default) or 1..=64 CUs per slice;
    /// - `sched.ooo.loog_rrs_factor`: 0 (no RRS) or above 1 up to 4 (R = ⌈N_cu × factor⌉ ≤ 256;
    ///   R > N_cu so that a CU waiting to dispatch always finds an entry eventually);
    /// - `sched.ooo.loog_wb_buffers`: 1, or 2 with more than 12 CUs (each buffer feeds half
    ///   the CUs);
    /// - `sched.ooo.loog_uuid_bits`: 4..=32 (two MSBs split the age window, §3.1);
    /// - `sched.ooo.loog_rf_read_ports`: 1 up to the slice's CUs and the slice's share of the
    ///   register file's bank ports (`rf.n_banks × rf.ports_per_bank / sched.n_per_sm`): more
    ///   concurrent operand reads than the register file can feed are refused.
    pub fn loog_errors(&self) -> Vec<String> {
        let mut bad = Vec::new();
        let o = &self.sched.ooo;
        let n_cu = self.loog_n_cu();
        if o.loog_n_cu > 64 {
            bad.push(format!(
                "'sched.ooo.loog_n_cu' = {}: must be 0 (min(16, warps per slice x \
                 sched.issue_per_sched)) or in 1..=64",
                o.loog_n_cu
            ));
        }
        let f = o.loog_rrs_factor;
        if !(f == 0.0 || (f > 1.0 && f <= 4.0)) {
            bad.push(format!(
                "'sched.ooo.loog_rrs_factor' = {f}: must be 0 (no RRS) or above 1 up to 4 (the \
                 design space is 1.5, 2, 2.5; with R <= N_cu every entry may be held by CUs \
                 waiting to dispatch, which then need a free entry)"
            ));
        }
        match o.loog_wb_buffers {
            1 => {}
            2 if n_cu > 12 => {}
            2 => bad.push(format!(
                "'sched.ooo.loog_wb_buffers' = 2 with {n_cu} CUs per slice: two write-back \
                 buffers are for more than 12 CUs (allowed: 1)"
            )),
            n => bad.push(format!(
                "'sched.ooo.loog_wb_buffers' = {n}: allowed 1, or 2 with more than 12 CUs"
            )),
        }
        if !(4..=32).contains(&o.loog_uuid_bits) {
            bad.push(format!(
                "'sched.ooo.loog_uuid_bits' = {}: must be in 4..=32 (8 as the thesis, 20 as \
                 the RTL)",
                o.loog_uuid_bits
            ));
        }
        let slices = self.sched.n_per_sm.max(1);
        let feed = (self.rf.n_banks * self.rf.ports_per_bank / slices).max(1);
        let p = o.loog_rf_read_ports;
        if p == 0 || p > feed || (p > n_cu && o.loog_n_cu <= 64) {
            bad.push(format!(
                "'sched.ooo.loog_rf_read_ports' = {p}: must be in 1..={} (the slice's {n_cu} \
                 CUs, and the {feed} bank ports of the register file per slice: rf.n_banks x \
                 rf.ports_per_bank / sched.n_per_sm)",
                feed.min(n_cu.max(1))
            ));
        }
        if o.loog_defer_load_consumers && !o.loog_ready_first {
            bad.push(
                "'sched.ooo.loog_defer_load_consumers' = true needs \
                 'sched.ooo.loog_ready_first' = true (it refines the ready-first order)"
                    .to_string(),
            );
        }
        for (k, n) in [
            ("loog_lq_entries", o.loog_lq_entries),
            ("loog_sq_entries", o.loog_sq_entries),
        ] {
            if !(1..=64).contains(&n) {
                bad.push(format!(
                    "'sched.ooo.{k}' = {n}: must be in 1..=64 (memory-queue entries per issue \
                     slice, used with sched.ooo.loog_lsq)"
                ));
            }
        }
        bad
    }

    /// LOOG issue slices per SM: one per warp scheduler (issue-stage §3 [G]: one LOOG instance
    /// per sub-core).
    pub fn loog_slices(&self) -> u32 {
        self.sched.n_per_sm.max(1)
    }

    /// LOOG collector units per slice: `sched.ooo.loog_n_cu`, or when 0 the RTL default
    /// `min(16, W · issue width)` with W the warps of one slice (issue-stage §3.3).
    pub fn loog_n_cu(&self) -> u32 {
        let o = &self.sched.ooo;
        if o.loog_n_cu != 0 {
            return o.loog_n_cu;
        }
        let w = self.sm.max_warps.div_ceil(self.loog_slices()).max(1);
        (w * self.sched.issue_per_sched.max(1)).min(16)
    }

    /// LOOG result-reservation-station entries per slice: ⌈N_cu × `loog_rrs_factor`⌉, 0 without
    /// an RRS.
    pub fn loog_rrs_entries(&self) -> u32 {
        let f = self.sched.ooo.loog_rrs_factor;
        if f <= 0.0 {
            0
        } else {
            ((self.loog_n_cu() as f64 * f).ceil() as u32).min(256)
        }
    }

    /// Instructions a warp's fetch buffer holds, the bound on one fetch group: SOCGPU's
    /// per-warp instruction buffer (`sched.ooo.ib_depth`) under `sched.ooo.mode = "socgpu"`,
    /// else the in-order I-buffer (`frontend.ibuffer_entries`, LOOG's IBuffer too).
    pub fn fetch_buffer_entries(&self) -> u32 {
        if self.sched.ooo.mode == OooMode::Socgpu {
            self.sched.ooo.ib_depth
        } else {
            self.frontend.ibuffer_entries
        }
    }

    /// Whether a dependent instruction takes its chained operand from its producer's result
    /// broadcast rather than reading it from the register file after the producer's write-back:
    /// LOOG's collector units capture it (issue-stage §3.2 steps 2–4).
    pub fn chained_operand_captured(&self) -> bool {
        self.sched.ooo.mode == OooMode::Loog
    }
}

impl OooSection {
    /// Every key of `[sched.ooo]` with its value, including the keys that are not serialised
    /// while they hold their defaults (so that a user file or `--set` may override them on a
    /// base preset).
    pub(crate) fn keys_with_values(&self) -> Vec<(&'static str, toml::Value)> {
        let o = self;
        let v = |x: Result<toml::Value, toml::ser::Error>| x.expect("serialises");
        vec![
            ("ib_depth", v(toml::Value::try_from(o.ib_depth))),
            ("local_policy", v(toml::Value::try_from(o.local_policy))),
            ("ready_ctr_bits", v(toml::Value::try_from(o.ready_ctr_bits))),
            ("ib_refill", v(toml::Value::try_from(o.ib_refill))),
            ("mem_order", v(toml::Value::try_from(o.mem_order))),
            ("dual", v(toml::Value::try_from(o.dual))),
            ("loog_n_cu", v(toml::Value::try_from(o.loog_n_cu))),
            (
                "loog_rrs_factor",
                v(toml::Value::try_from(o.loog_rrs_factor)),
            ),
            (
                "loog_wb_buffers",
                v(toml::Value::try_from(o.loog_wb_buffers)),
            ),
            ("loog_uuid_bits", v(toml::Value::try_from(o.loog_uuid_bits))),
            (
                "loog_rf_arbiter",
                v(toml::Value::try_from(o.loog_rf_arbiter)),
            ),
            (
                "loog_rf_read_ports",
                v(toml::Value::try_from(o.loog_rf_read_ports)),
            ),
            (
                "loog_rrs_dispatch_needs_free_slot",
                v(toml::Value::try_from(o.loog_rrs_dispatch_needs_free_slot)),
            ),
            (
                "loog_ready_first",
                v(toml::Value::try_from(o.loog_ready_first)),
            ),
            (
                "loog_defer_load_consumers",
                v(toml::Value::try_from(o.loog_defer_load_consumers)),
            ),
            ("loog_lsq", v(toml::Value::try_from(o.loog_lsq))),
            (
                "loog_lq_entries",
                v(toml::Value::try_from(o.loog_lq_entries)),
            ),
            (
                "loog_sq_entries",
                v(toml::Value::try_from(o.loog_sq_entries)),
            ),
        ]
    }
}
