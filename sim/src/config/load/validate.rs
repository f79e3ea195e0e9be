//! [`GpuConfig::validate`]: the checks of the values the timing model relies on, gathered into
//! one message that lists every fault.

use super::cfg_err;
use super::unread::unread_key_errors;
use crate::config::schema::GpuConfig;
use crate::SimError;

impl GpuConfig {
    /// Checks the values the timing model relies on: every numeric key within its physical
    /// range (`config::ranges`), non-zero counts, powers of two, combinations.
    pub fn validate(&self, file: &str) -> Result<(), SimError> {
        self.validate_located(file, None)
    }

    /// As [`GpuConfig::validate`], for a configuration read from `text`: each range fault names
    /// the line its key sits on.
    pub(crate) fn validate_located(&self, file: &str, text: Option<&str>) -> Result<(), SimError> {
        let mut bad = Vec::new();
        for (key, msg) in self.range_errors() {
            let parts: Vec<String> = key.split('.').map(str::to_string).collect();
            match text.and_then(|t| super::tables::find_key_line(t, &parts)) {
                Some(line) => bad.push(format!("line {line}: {msg}")),
                None => bad.push(msg),
            }
        }
        self.shape_errors(&mut bad);
        self.bank_group_errors(&mut bad);
        self.cache_errors(&mut bad);
        self.carveout_errors(&mut bad);
        self.structure_errors(&mut bad);
        bad.extend(self.fold_errors());
        self.physical.check(&mut bad);
        bad.extend(self.prf_errors());
        self.unimplemented_errors(&mut bad);
        bad.extend(self.ooo_errors());
        self.hook_errors(&mut bad);
        self.pg.check(&mut bad);
        if !(1..=64).contains(&self.rf.latency) {
            bad.push(format!(
                "'rf.latency' = {}: must be in 1..=64 cycles",
                self.rf.latency
            ));
        }
        for s in crate::config::technique::SECTIONS {
            (s.check)(self, &mut bad);
        }
        self.metrics.check(&mut bad);
        self.reconv.check(&mut bad);
        self.dwf.check(self.gpu.warp_size, &mut bad);
        self.reconv_issue_errors(&mut bad);
        bad.extend(unread_key_errors(self));
        // `sched.policy = "plugin:NAME"` is resolved when a simulation starts, through the
        // policy registry it runs with (timing::PolicyRegistry); an unregistered name is an
        // error there, listing the registered ones.
        if bad.is_empty() {
            Ok(())
        } else {
            let line_hint = bad.join("; ");
            Err(cfg_err(file, line_hint))
        }
    }

    /// With `dram.column_timing = "bank_groups"`, the banks split evenly into the groups.
    fn bank_group_errors(&self, bad: &mut Vec<String>) {
        let d = &self.dram;
        if d.column_timing == crate::config::DramColumnTiming::BankGroups
            && d.n_bank_groups != 0
            && !d.n_banks.is_multiple_of(d.n_bank_groups)
        {
            bad.push(format!(
                "'dram.n_bank_groups' = {}: must divide 'dram.n_banks' = {} with \
                 dram.column_timing = \"bank_groups\" (each group holds the same number of banks)",
                d.n_bank_groups, d.n_banks
            ));
        }
    }

    /// Positive counts, clock frequencies, the warp size and the lane widths.
    fn shape_errors(&self, bad: &mut Vec<String>) {
        let mut pos = |v: u64, k: &str| {
            if v == 0 {
                bad.push(format!("'{k}' must be positive"));
            }
        };
        pos(self.gpu.n_sm as u64, "gpu.n_sm");
        pos(self.sm.max_threads as u64, "sm.max_threads");
        pos(self.sm.max_warps as u64, "sm.max_warps");
        pos(self.sm.max_ctas as u64, "sm.max_ctas");
        pos(self.sm.n_registers as u64, "sm.n_registers");
        pos(
            self.sm.reg_alloc_granularity as u64,
            "sm.reg_alloc_granularity",
        );
        pos(self.sm.n_subcores as u64, "sm.n_subcores");
        pos(self.frontend.fetch_width as u64, "frontend.fetch_width");
        pos(
            self.frontend.fetch_throughput as u64,
            "frontend.fetch_throughput",
        );
        pos(
            self.frontend.ibuffer_entries as u64,
            "frontend.ibuffer_entries",
        );
        pos(self.sched.n_per_sm as u64, "sched.n_per_sm");
        pos(self.sched.issue_per_sched as u64, "sched.issue_per_sched");
        pos(
            self.sched.max_issue_per_warp as u64,
            "sched.max_issue_per_warp",
        );
        pos(self.sched.fetch_group_size as u64, "sched.fetch_group_size");
        pos(
            self.sched.two_level.active_per_sched as u64,
            "sched.two_level.active_per_sched",
        );
        pos(self.rf.n_banks as u64, "rf.n_banks");
        pos(self.rf.ports_per_bank as u64, "rf.ports_per_bank");
        pos(self.rf.entry_bytes as u64, "rf.entry_bytes");
        pos(self.units.n_sp as u64, "units.n_sp");
        pos(self.units.n_ldst as u64, "units.n_ldst");
        pos(self.units.width.ex_wb as u64, "units.width.ex_wb");
        pos(self.shmem.banks as u64, "shmem.banks");
        pos(self.shmem.bank_bytes as u64, "shmem.bank_bytes");
        pos(self.mem.n_channels as u64, "mem.n_channels");
        pos(
            self.mem.subparts_per_channel as u64,
            "mem.subparts_per_channel",
        );
        pos(
            self.mem.channel_interleave_bytes as u64,
            "mem.channel_interleave_bytes",
        );
        pos(self.icnt.flit_bytes as u64, "icnt.flit_bytes");
        pos(self.dram.n_banks as u64, "dram.n_banks");
        pos(self.dram.burst_length as u64, "dram.burst_length");
        pos(self.dram.data_cmd_ratio as u64, "dram.data_cmd_ratio");
        pos(
            self.stats.idle_hist_exact_max as u64,
            "stats.idle_hist_exact_max",
        );
        for (k, v) in [
            ("gpu.core_mhz", self.gpu.core_mhz),
            ("gpu.icnt_mhz", self.gpu.icnt_mhz),
            ("gpu.l2_mhz", self.gpu.l2_mhz),
            ("gpu.dram_mhz", self.gpu.dram_mhz),
        ] {
            if !(v.is_finite() && v > 0.0) {
                bad.push(format!(
                    "'{k}' must be a positive frequency in MHz, got {v}"
                ));
            }
        }
        if self.gpu.warp_size != 32 {
            bad.push("'gpu.warp_size' must be 32 (the instruction record has 32 lanes)".into());
        }
        // A unit of L lanes serves a warp in ⌈32/L⌉ passes (timing::exec::warp_passes); any
        // width from 1 to the warp size is allowed, a non-divisor of 32 idling lanes in the
        // last pass.
        for (k, v) in [
            ("units.sp_lanes", self.units.sp_lanes),
            ("units.sfu_lanes", self.units.sfu_lanes),
            ("units.dp_lanes", self.units.dp_lanes),
            ("units.ldst_lanes", self.units.ldst_lanes),
        ] {
            if !(1..=32).contains(&v) {
                bad.push(format!(
                    "'{k}' = {v}: lanes must be an integer from 1 to 32"
                ));
            }
        }
    }

    /// Every cache's geometry and MSHRs.
    fn cache_errors(&self, bad: &mut Vec<String>) {
        let caches = [
            ("icache", self.icache.clone()),
            ("l1d", self.l1d.geometry()),
            ("const_cache", self.const_cache.clone()),
            ("tex_cache", self.tex_cache.clone()),
            ("l2", self.l2.geometry()),
        ];
        for (name, c) in caches {
            for (k, v) in [
                ("sets", c.sets),
                ("line_bytes", c.line_bytes),
                ("assoc", c.assoc),
            ] {
                if v == 0 {
                    bad.push(format!("'{name}.{k}' must be positive"));
                }
            }
            if !c.line_bytes.is_power_of_two() || !c.sets.is_power_of_two() {
                bad.push(format!(
                    "'{name}.sets' and '{name}.line_bytes' must be powers of two"
                ));
            }
            if c.sector_bytes == 0 || !c.line_bytes.is_multiple_of(c.sector_bytes) {
                bad.push(format!(
                    "'{name}.sector_bytes' must divide '{name}.line_bytes'"
                ));
            } else if c.line_bytes / c.sector_bytes > 32 {
                bad.push(format!("'{name}': at most 32 sectors per line"));
            }
            if c.mshr_entries == 0 || c.mshr_merge == 0 {
                bad.push(format!(
                    "'{name}.mshr_entries' and '{name}.mshr_merge' must be positive"
                ));
            }
        }
    }

    /// How the SM's structures fit together: sub-cores, warps, collector units, the address map.
    fn structure_errors(&self, bad: &mut Vec<String>) {
        if !self
            .sched
            .n_per_sm
            .is_multiple_of(self.sm.n_subcores.max(1))
        {
            bad.push("'sched.n_per_sm' must be a multiple of 'sm.n_subcores'".into());
        }
        if self.sm.n_subcores > 1 && !self.rf.n_banks.is_multiple_of(self.sm.n_subcores) {
            bad.push("'rf.n_banks' must be a multiple of 'sm.n_subcores'".into());
        }
        if self.sm.max_warps > 64 * 4 {
            bad.push("'sm.max_warps' must be at most 256".into());
        }
        let o = &self.opcoll.units;
        if o.sp + o.sfu + o.mem + o.dp + o.int + o.gen == 0 {
            bad.push("'opcoll.units' must have at least one collector unit".into());
        }
        let am = self.mem.addr_map.replace('.', "");
        if am.len() != 32 || am.chars().any(|c| !"0RBCS".contains(c)) {
            bad.push(
                "'mem.addr_map' must have 32 characters from 0, R, B, C, S (dots allowed)".into(),
            );
        }
    }

    /// Keys the spec defines whose non-baseline values this simulator does not model yet:
    /// refused rather than silently ignored.
    fn unimplemented_errors(&self, bad: &mut Vec<String>) {
        if self.sim.threads > 1 {
            bad.push(
                "'sim.threads' > 1: intra-simulation parallelism is not implemented (run \
                 independent configurations in parallel instead; sweeps do)"
                    .into(),
            );
        }
        if self.stats.epoch_cycles > 0 {
            bad.push("'stats.epoch_cycles' > 0: per-epoch deltas are not implemented".into());
        }
        if self.stats.timeline_dump {
            bad.push("'stats.timeline_dump' = true: timeline dumps are not implemented".into());
        }
        if self.stats.output != crate::config::schema::StatsOutput::Json {
            bad.push("'stats.output': only \"json\" is implemented".into());
        }
    }

    /// Hooks: none is registered, so every hook key must be empty.
    fn hook_errors(&self, bad: &mut Vec<String>) {
        for (k, v) in [
            ("unit_gate", &self.hooks.unit_gate),
            ("scheduler_plugin", &self.hooks.scheduler_plugin),
            ("exec_transform", &self.hooks.exec_transform),
            ("regfile_model", &self.hooks.regfile_model),
        ] {
            if !v.is_empty() {
                bad.push(format!(
                    "'hooks.{k}' = \"{v}\": no hook of that name is registered (use \"\")"
                ));
            }
        }
    }

    /// The mechanisms this configuration switches on that the reference-mode model (which
    /// runs DWF, MIMD and NREC, and `--activity-source reference`) does not run, each as
    /// `'key' = value`: it schedules one warp per scheduler cycle on the emulator, with no
    /// power-gating controllers or gating-aware schedulers, no folding, no register-file
    /// techniques or operand-read latency, no out-of-order issue stage and no per-register
    /// counters. (It keeps its own SIMD-efficiency counters, so `reconv.counters` is honoured.)
    pub fn reference_mode_unmodelled(&self) -> Vec<String> {
        use crate::config::{OooMode, SchedPolicy};
        let sched = matches!(
            self.sched.policy,
            SchedPolicy::TwoLevel
                | SchedPolicy::Gates
                | SchedPolicy::Origami
                | SchedPolicy::Plugin(_)
        );
        let mut keys = vec![
            (
                "pg.policy",
                self.pg.policy != crate::config::pg::PgPolicy::None,
                format!("{:?}", self.pg.policy),
            ),
            (
                "sched.policy",
                sched,
                format!("\"{}\"", String::from(self.sched.policy.clone())),
            ),
            ("fold.enabled", self.fold.enabled, "true".into()),
        ];
        let switches: Vec<String> = crate::config::technique::SECTIONS
            .iter()
            .filter(|s| (s.enabled)(self))
            .map(|s| format!("{}.enabled", s.name))
            .collect();
        keys.extend(switches.iter().map(|k| (k.as_str(), true, "true".into())));
        keys.extend([
            ("prf.enabled", self.prf.enabled, "true".into()),
            ("afrf.enabled", self.afrf.enabled, "true".into()),
            ("rfc.enabled", self.rfc.enabled, "true".into()),
            ("mrf.lat", self.mrf.lat != 1, self.mrf.lat.to_string()),
            (
                "rf.latency",
                self.rf.latency != 1,
                self.rf.latency.to_string(),
            ),
            (
                "sched.ooo.mode",
                self.sched.ooo.mode != OooMode::None,
                format!("{:?}", self.sched.ooo.mode).to_lowercase(),
            ),
            ("stats.per_register", self.stats.per_register, "true".into()),
        ]);
        keys.into_iter()
            .filter(|(_, on, _)| *on)
            .map(|(k, _, v)| format!("'{k}' = {v}"))
            .collect()
    }

    /// Reconvergence options that the out-of-order issue stage does not model, and mechanisms
    /// the reference-mode model (which runs every `reconv.mode` but "pdom") does not run.
    fn reconv_issue_errors(&self, bad: &mut Vec<String>) {
        if self.reconv.mode != crate::config::reconv::ReconvMode::Pdom
            && self.sched.ooo.mode == crate::config::OooMode::None
        {
            let on = self.reference_mode_unmodelled();
            if !on.is_empty() {
                bad.push(format!(
                    "'reconv.mode' = \"{}\" runs on the reference-mode model, which does not \
                     run {} (its result would be the baseline's); switch it off or use \
                     reconv.mode = \"pdom\"",
                    self.reconv.mode.as_str(),
                    on.join(", ")
                ));
            }
        }
        if self.reconv.stack_update_at != crate::config::reconv::StackUpdateAt::Fetch
            && self.sched.ooo.mode != crate::config::OooMode::None
        {
            bad.push(
                "'reconv.stack_update_at' other than \"fetch\" is modelled on the in-order issue \
                 path only (the out-of-order issue stage keeps its own fetch rule)"
                    .into(),
            );
        }
        if self.reconv.mode != crate::config::reconv::ReconvMode::Pdom
            && self.sched.ooo.mode != crate::config::OooMode::None
        {
            bad.push(format!(
                "'reconv.mode' = \"{}\" runs on the reference-mode model, which has no \
                 out-of-order issue stage (sched.ooo.mode must be \"none\")",
                self.reconv.mode.as_str()
            ));
        }
        if self.reconv.counters && self.sched.ooo.mode != crate::config::OooMode::None {
            bad.push(
                "'reconv.counters' = true: the SIMD-efficiency counters are kept by the in-order \
                 issue path only (sched.ooo.mode must be \"none\")"
                    .into(),
            );
        }
    }
}
