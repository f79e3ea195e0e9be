//! Every key of the configuration schema is either read by a model or refused with an error:
//! walks the serialised preset (every dotted leaf key) and checks each against the tables below.
//! A new schema field without a decision fails `every_schema_key_is_read_or_refused`.

use sim::config::{GpuConfig, UNREAD_KEYS};

/// Keys a model reads, with where.
const READ: &[(&str, &str)] = &[
    ("sim.max_cycles", "sim/src/timing/engine.rs"),
    ("sim.max_warp_insts", "sim/src/timing/engine.rs"),
    ("sim.kernels", "sim/src/timing/simulation.rs"),
    ("sim.ignore_resource_limits", "sim/src/timing/cta.rs"),
    ("sim.cycle_skipping", "sim/src/timing/engine.rs"),
    (
        "gpu.name",
        "sim/src/timing/simulation.rs (Activity gpu name)",
    ),
    ("gpu.n_sm", "sim/src/timing/memsys.rs"),
    ("gpu.core_mhz", "sim/src/timing/memsys.rs"),
    ("gpu.icnt_mhz", "sim/src/timing/memsys.rs"),
    ("gpu.l2_mhz", "sim/src/timing/memsys.rs"),
    ("gpu.dram_mhz", "sim/src/timing/memsys.rs"),
    ("gpu.warp_size", "sim/src/timing/cta.rs"),
    ("gpu.kernel_launch_latency", "sim/src/timing/engine.rs"),
    ("gpu.cta_launch_latency", "sim/src/timing/engine.rs"),
    ("sm.max_threads", "sim/src/timing/cta.rs"),
    ("sm.max_warps", "sim/src/timing/engine.rs"),
    ("sm.max_ctas", "sim/src/timing/cta.rs"),
    ("sm.n_registers", "sim/src/timing/cta.rs"),
    ("sm.reg_alloc_granularity", "sim/src/timing/cta.rs"),
    ("sm.shmem_bytes", "sim/src/timing/cta.rs"),
    ("sm.shmem_per_cta", "sim/src/timing/cta.rs"),
    ("sm.n_subcores", "sim/src/timing/policy/builtin.rs"),
    ("sm.balance_ctas", "sim/src/timing/cta.rs"),
    ("frontend.fetch_width", "sim/src/timing/engine.rs"),
    ("frontend.fetch_throughput", "sim/src/timing/engine.rs"),
    ("frontend.ibuffer_entries", "sim/src/timing/frontend.rs"),
    ("frontend.perfect_icache", "sim/src/timing/frontend.rs"),
    ("sched.n_per_sm", "sim/src/timing/registry.rs"),
    ("sched.issue_per_sched", "sim/src/timing/engine.rs"),
    ("sched.max_issue_per_warp", "sim/src/timing/engine.rs"),
    ("sched.dual_issue_diff_units", "sim/src/timing/engine.rs"),
    ("sched.war_scoreboard", "sim/src/timing/registry.rs"),
    ("sched.policy", "sim/src/timing/simulation.rs"),
    (
        "sched.fetch_group_size",
        "sim/src/timing/policy/schedulers.rs",
    ),
    (
        "sched.two_level.active_per_sched",
        "sim/src/timing/policy/schedulers.rs",
    ),
    (
        "sched.two_level.inner",
        "sim/src/timing/policy/schedulers.rs",
    ),
    ("sched.ooo.ib_depth", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.local_policy", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.ready_ctr_bits", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.ib_refill", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.mem_order", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.dual", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.mode", "sim/src/timing/sm/mod.rs"),
    ("sched.ooo.loog_n_cu", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.loog_rrs_factor", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.loog_wb_buffers", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.loog_uuid_bits", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.loog_rf_arbiter", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.loog_rf_read_ports", "sim/src/timing/ooo/mod.rs"),
    (
        "sched.ooo.loog_rrs_dispatch_needs_free_slot",
        "sim/src/timing/ooo/mod.rs",
    ),
    ("sched.ooo.loog_ready_first", "sim/src/timing/ooo/mod.rs"),
    (
        "sched.ooo.loog_defer_load_consumers",
        "sim/src/timing/ooo/mod.rs",
    ),
    ("sched.ooo.loog_lsq", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.loog_lq_entries", "sim/src/timing/ooo/mod.rs"),
    ("sched.ooo.loog_sq_entries", "sim/src/timing/ooo/mod.rs"),
    ("rf.n_banks", "sim/src/timing/policy/builtin.rs"),
    ("rf.ports_per_bank", "sim/src/timing/opcoll.rs"),
    ("rf.entry_bytes", "models/src/gpu/storage.rs"),
    ("rf.bank_map", "sim/src/timing/policy/builtin.rs"),
    ("opcoll.units.sp", "sim/src/timing/opcoll.rs"),
    ("opcoll.units.sfu", "sim/src/timing/opcoll.rs"),
    ("opcoll.units.mem", "sim/src/timing/opcoll.rs"),
    ("opcoll.units.dp", "sim/src/timing/opcoll.rs"),
    ("opcoll.units.int", "sim/src/timing/opcoll.rs"),
    ("opcoll.units.gen", "sim/src/timing/opcoll.rs"),
    ("opcoll.in_ports.sp", "sim/src/timing/opcoll.rs"),
    ("opcoll.in_ports.sfu", "sim/src/timing/opcoll.rs"),
    ("opcoll.in_ports.mem", "sim/src/timing/opcoll.rs"),
    ("opcoll.in_ports.dp", "sim/src/timing/opcoll.rs"),
    ("opcoll.in_ports.int", "sim/src/timing/opcoll.rs"),
    ("opcoll.in_ports.gen", "sim/src/timing/opcoll.rs"),
    ("opcoll.out_ports.sp", "sim/src/timing/opcoll.rs"),
    ("opcoll.out_ports.sfu", "sim/src/timing/opcoll.rs"),
    ("opcoll.out_ports.mem", "sim/src/timing/opcoll.rs"),
    ("opcoll.out_ports.dp", "sim/src/timing/opcoll.rs"),
    ("opcoll.out_ports.int", "sim/src/timing/opcoll.rs"),
    ("opcoll.out_ports.gen", "sim/src/timing/opcoll.rs"),
    ("units.n_sp", "sim/src/timing/execunits.rs"),
    ("units.n_sfu", "sim/src/timing/execunits.rs"),
    ("units.n_dp", "sim/src/timing/exec.rs"),
    ("units.n_int", "sim/src/timing/exec.rs"),
    ("units.n_ldst", "sim/src/timing/execunits.rs"),
    ("units.sp_lanes", "sim/src/timing/execunits.rs"),
    ("units.sfu_lanes", "sim/src/timing/execunits.rs"),
    ("units.dp_lanes", "sim/src/timing/execunits.rs"),
    ("units.ldst_lanes", "sim/src/timing/execunits.rs"),
    ("units.dp_on", "sim/src/timing/exec.rs"),
    ("units.int_on", "sim/src/timing/exec.rs"),
    ("units.lane_map", "sim/src/timing/execunits.rs"),
    ("units.width.id_oc.sp", "sim/src/timing/engine.rs"),
    ("units.width.id_oc.dp", "sim/src/timing/engine.rs"),
    ("units.width.id_oc.int", "sim/src/timing/engine.rs"),
    ("units.width.id_oc.sfu", "sim/src/timing/engine.rs"),
    ("units.width.id_oc.mem", "sim/src/timing/engine.rs"),
    ("units.width.oc_ex.sp", "sim/src/timing/engine.rs"),
    ("units.width.oc_ex.dp", "sim/src/timing/engine.rs"),
    ("units.width.oc_ex.int", "sim/src/timing/engine.rs"),
    ("units.width.oc_ex.sfu", "sim/src/timing/engine.rs"),
    ("units.width.oc_ex.mem", "sim/src/timing/engine.rs"),
    ("units.width.ex_wb", "sim/src/timing/engine.rs"),
    ("latency.int.add", "sim/src/timing/exec.rs"),
    ("latency.int.max", "sim/src/timing/exec.rs"),
    ("latency.int.mul", "sim/src/timing/exec.rs"),
    ("latency.int.mad", "sim/src/timing/exec.rs"),
    ("latency.int.div", "sim/src/timing/exec.rs"),
    ("latency.int.shfl", "sim/src/timing/exec.rs"),
    ("latency.fp.add", "sim/src/timing/exec.rs"),
    ("latency.fp.max", "sim/src/timing/exec.rs"),
    ("latency.fp.mul", "sim/src/timing/exec.rs"),
    ("latency.fp.mad", "sim/src/timing/exec.rs"),
    ("latency.fp.div", "sim/src/timing/exec.rs"),
    ("latency.dp.add", "sim/src/timing/exec.rs"),
    ("latency.dp.max", "sim/src/timing/exec.rs"),
    ("latency.dp.mul", "sim/src/timing/exec.rs"),
    ("latency.dp.mad", "sim/src/timing/exec.rs"),
    ("latency.dp.div", "sim/src/timing/exec.rs"),
    ("latency.sfu", "sim/src/timing/exec.rs"),
    ("latency.tensor", "sim/src/timing/exec.rs (tensor_class)"),
    ("units.n_tensor", "sim/src/timing/execunits.rs"),
    (
        "units.tensor_macs_per_cycle",
        "sim/src/timing/exec.rs (tensor_class)",
    ),
    ("compat.unlisted_opcode_latency", "sim/src/timing/exec.rs"),
    ("compat.launch_latency_first", "sim/src/timing/engine.rs"),
    (
        "compat.perfect_const_cache",
        "sim/src/timing/ldstunit/mod.rs",
    ),
    (
        "icache.sets",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "icache.line_bytes",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "icache.assoc",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "icache.sector_bytes",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "icache.replacement",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "icache.set_index",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    ("icache.banks", "models/src/gpu/storage.rs"),
    (
        "l1d.sets",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "l1d.line_bytes",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "l1d.assoc",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "l1d.sector_bytes",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "l1d.replacement",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    ("l1d.write_policy", "sim/src/timing/ldstunit/mod.rs"),
    ("l1d.alloc", "sim/src/timing/ldstunit/mod.rs"),
    (
        "l1d.set_index",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    ("l1d.mshr_entries", "sim/src/timing/ldstunit/mod.rs"),
    ("l1d.mshr_merge", "sim/src/timing/ldstunit/mod.rs"),
    ("l1d.latency", "sim/src/timing/ldstunit/mod.rs"),
    ("l1d.banks", "models/src/gpu/storage.rs"),
    ("l1d.skip_global", "sim/src/timing/ldstunit/mod.rs"),
    (
        "l1d.unified_kb",
        "sim/src/config/carveout.rs (engine::run_launch carves each launch)",
    ),
    (
        "const_cache.sets",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "const_cache.line_bytes",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "const_cache.assoc",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "const_cache.sector_bytes",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "const_cache.replacement",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "const_cache.set_index",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    ("const_cache.mshr_entries", "sim/src/timing/ldstunit/mod.rs"),
    ("const_cache.mshr_merge", "sim/src/timing/ldstunit/mod.rs"),
    ("const_cache.latency", "sim/src/timing/ldstunit/mod.rs"),
    ("const_cache.banks", "models/src/gpu/storage.rs"),
    (
        "tex_cache.sets",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "tex_cache.line_bytes",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "tex_cache.assoc",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "tex_cache.sector_bytes",
        "sim/src/timing/cache.rs (TagArray::new)",
    ),
    (
        "tex_cache.replacement",
        "sim/src/timing/cache.rs (TagArray::new)",
    ),
    (
        "tex_cache.set_index",
        "sim/src/timing/cache.rs (TagArray::new)",
    ),
    ("tex_cache.mshr_entries", "sim/src/timing/ldstunit/mod.rs"),
    ("tex_cache.mshr_merge", "sim/src/timing/ldstunit/mod.rs"),
    ("tex_cache.latency", "sim/src/timing/ldstunit/mod.rs"),
    ("tex_cache.banks", "models/src/gpu/storage.rs"),
    (
        "l2.sets",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "l2.line_bytes",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "l2.assoc",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "l2.sector_bytes",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "l2.replacement",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    (
        "l2.set_index",
        "sim/src/timing/cache.rs (TagArray::new), models/src/gpu/storage.rs",
    ),
    ("l2.latency", "sim/src/timing/memsys.rs"),
    ("l2.banks", "models/src/gpu/storage.rs"),
    ("l2.rop_latency", "sim/src/timing/memsys.rs"),
    ("l2.atomic_latency", "sim/src/timing/memsys.rs"),
    ("shmem.banks", "sim/src/timing/ldstunit/mod.rs"),
    ("shmem.bank_bytes", "sim/src/timing/ldstunit/mod.rs"),
    ("shmem.latency", "sim/src/timing/ldstunit/mod.rs"),
    ("shmem.broadcast", "sim/src/timing/ldstunit/mod.rs"),
    (
        "shmem.carveout_kb",
        "sim/src/config/carveout.rs (engine::run_launch carves each launch)",
    ),
    ("mem.n_channels", "sim/src/timing/memsys.rs"),
    ("mem.subparts_per_channel", "sim/src/timing/memsys.rs"),
    ("mem.channel_interleave_bytes", "sim/src/timing/memsys.rs"),
    ("mem.addr_map", "sim/src/timing/memsys.rs"),
    ("mem.memcpy_fills_l2", "sim/src/timing/simulation.rs"),
    ("mem.flush_l2_between_launches", "sim/src/timing/engine.rs"),
    ("icnt.flit_bytes", "sim/src/timing/memsys.rs"),
    ("icnt.latency", "sim/src/timing/memsys.rs"),
    ("dram.chips_per_channel", "models/src/gpu/chip.rs"),
    ("dram.bus_bytes_per_chip", "models/src/gpu/chip.rs"),
    ("dram.burst_length", "sim/src/timing/memsys.rs"),
    ("dram.data_cmd_ratio", "sim/src/timing/memsys.rs"),
    ("dram.n_banks", "sim/src/timing/memsys.rs"),
    ("dram.kind", "models/src/gpu/dram.rs"),
    ("dram.column_timing", "sim/src/timing/memsys.rs"),
    (
        "dram.n_bank_groups",
        "sim/src/timing/memsys.rs (bank_groups; refused off preset values with per_bank)",
    ),
    (
        "dram.bank_group_index",
        "sim/src/timing/memsys.rs (bank_groups; refused off its default with per_bank)",
    ),
    (
        "dram.timing.ccd",
        "sim/src/timing/memsys.rs (bank_groups; refused off preset values with per_bank)",
    ),
    (
        "dram.sched_queue",
        "sim/src/timing/memsys.rs, models/src/gpu/chip.rs",
    ),
    ("dram.latency", "sim/src/timing/memsys.rs"),
    ("dram.timing.ccdl", "sim/src/timing/memsys.rs"),
    ("dram.timing.rrd", "sim/src/timing/memsys.rs"),
    ("dram.timing.rcd", "sim/src/timing/memsys.rs"),
    ("dram.timing.ras", "sim/src/timing/memsys.rs"),
    ("dram.timing.rp", "sim/src/timing/memsys.rs"),
    ("dram.timing.rc", "sim/src/timing/memsys.rs"),
    ("dram.timing.cl", "sim/src/timing/memsys.rs"),
    ("dram.timing.wl", "sim/src/timing/memsys.rs"),
    ("dram.timing.cdlr", "sim/src/timing/memsys.rs"),
    ("dram.timing.wr", "sim/src/timing/memsys.rs"),
    ("trace.expand_wide_regs", "sim/src/trace/run.rs"),
    ("trace.ldc_as_alu", "sim/src/trace/run.rs"),
    ("trace.reader_buffer_kb", "sim/src/trace/run.rs"),
    ("stats.per_register", "sim/src/timing/engine.rs"),
    ("stats.pilot_warp", "sim/src/timing/engine.rs"),
    ("stats.busy_definition", "sim/src/timing/execunits.rs"),
    ("stats.idle_hist_exact_max", "sim/src/timing/execunits.rs"),
    ("stats.idle_hist_log2_max", "sim/src/timing/execunits.rs"),
    // [fold] and [origami] (sim/src/config/fold.rs): warp folding, lane shifting and the
    // Origami scheduler in the SM
    ("fold.enabled", "sim/src/timing/sm/fold.rs"),
    ("fold.n_phase", "sim/src/timing/sm/fold.rs"),
    ("fold.aggressive_frac", "sim/src/timing/sm/fold.rs"),
    ("fold.conservative_frac", "sim/src/timing/sm/fold.rs"),
    ("fold.disable_util", "sim/src/timing/sm/fold.rs"),
    ("fold.util_count", "sim/src/timing/sm/fold.rs"),
    ("fold.type_count_source", "sim/src/timing/sm/fold.rs"),
    ("fold.fold_tie", "sim/src/timing/sm/fold.rs"),
    ("fold.fold_window", "sim/src/timing/sm/fold.rs"),
    ("fold.n_pipeflush", "sim/src/timing/sm/fold.rs"),
    ("fold.enforce_n_fold", "sim/src/timing/sm/fold.rs"),
    ("fold.extra_stages", "sim/src/timing/sm/fold.rs"),
    ("fold.extra_stages_always", "sim/src/timing/sm/fold.rs"),
    ("fold.extra_stages_busy", "sim/src/timing/sm/fold.rs"),
    ("fold.skip_empty_half", "sim/src/timing/sm/fold.rs"),
    ("fold.fold_sfu", "sim/src/timing/sm/fold.rs"),
    ("fold.eager_gating", "sim/src/timing/sm/fold.rs"),
    ("fold.eager_idle_detect", "sim/src/timing/sm/fold.rs"),
    ("fold.lane_pg_policy", "sim/src/timing/execunits.rs"),
    ("origami.grouping", "sim/src/timing/fold/origami_sched.rs"),
    (
        "origami.force_switch_phases",
        "sim/src/timing/fold/origami_sched.rs",
    ),
    ("origami.group_tie", "sim/src/timing/fold/origami_sched.rs"),
    ("origami.lane_shifting", "sim/src/timing/sm/fold.rs"),
    ("origami.fold_compaction", "sim/src/timing/sm/fold.rs"),
    ("units.sub_cluster_lanes", "sim/src/timing/sm/fold.rs"),
];

/// Keys refused outright for a non-baseline value by `GpuConfig::validate` (features not
/// implemented), with such a value. The keys no model reads are `sim::config::UNREAD_KEYS`.
const REFUSED_FEATURES: &[(&str, &str)] = &[
    ("sim.threads", "4"),
    ("stats.epoch_cycles", "100"),
    ("stats.timeline_dump", "true"),
    ("stats.output", "\"jsonl\""),
    ("hooks.unit_gate", "\"x\""),
    ("hooks.scheduler_plugin", "\"x\""),
    ("hooks.exec_transform", "\"x\""),
    ("hooks.regfile_model", "\"x\""),
];

/// A value for an unread key that no preset carries (and that deserialises).
fn foreign_value(key: &str, preset: &toml::Value) -> String {
    match preset {
        toml::Value::Integer(_) => "12347".into(),
        toml::Value::Boolean(b) => (!b).to_string(),
        toml::Value::String(s) => {
            let options: &[&str] = match key.rsplit('.').next().unwrap() {
                "frontend" => &["ptx", "trace"],
                "port_occupancy" => &["full_latency", "pipelined"],
                "model" => &["simple", "full"],
                "scheduler" => &["frfcfs", "fifo"],
                "replacement" => &["lru", "fifo"],
                "write_policy" => &["ro", "wb", "wt", "local_wb_global_wt"],
                "alloc" => &["on_miss", "on_fill", "streaming"],
                "write_alloc" => &["none", "allocate", "lazy_fetch_on_read"],
                "set_index" => &["linear", "hash", "ipoly"],
                "trace_path" => &["traces/elsewhere"],
                _ => panic!("no foreign value known for {key}"),
            };
            let other = options
                .iter()
                .find(|o| **o != s.as_str())
                .expect("another value");
            format!("\"{other}\"")
        }
        toml::Value::Array(a) if a.len() == 2 => "[12347, 1]".into(),
        v => panic!("no foreign value for {key} = {v}"),
    }
}

fn leaves(t: &toml::Table, prefix: &str, out: &mut Vec<(String, toml::Value)>) {
    for (k, v) in t {
        let p = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(sub) => leaves(sub, &p, out),
            _ => out.push((p, v.clone())),
        }
    }
}

fn preset_leaves(name: &str) -> Vec<(String, toml::Value)> {
    let cfg = GpuConfig::preset(name).unwrap();
    let t: toml::Table = toml::from_str(&cfg.to_full_toml_string()).unwrap();
    let mut out = Vec::new();
    leaves(&t, "", &mut out);
    out
}

/// `[physical]` keys: read by the sleep-transistor model in `models` when `pg.timing =
/// "Physical"` (the simulator never reads them).
const PHYSICAL_READ: &[(&str, &str)] = &[
    (
        "physical.switch",
        "models/src/gating/cost.rs (physical_knobs)",
    ),
    (
        "physical.alpha",
        "models/src/gating/cost.rs (physical_knobs)",
    ),
    (
        "physical.p_max",
        "models/src/gating/cost.rs (physical_knobs)",
    ),
    (
        "physical.size_multiplier",
        "models/src/gating/cost.rs (physical_knobs)",
    ),
    (
        "physical.kappa",
        "models/src/gating/cost.rs (physical_knobs)",
    ),
    (
        "physical.beta_buf",
        "models/src/gating/cost.rs (physical_knobs)",
    ),
    (
        "physical.w_sync",
        "models/src/gating/cost.rs (physical_knobs)",
    ),
    (
        "physical.rail_model",
        "models/src/gating/cost.rs (physical_knobs)",
    ),
    (
        "physical.v_floor",
        "models/src/gating/cost.rs (physical_knobs)",
    ),
    (
        "physical.bet_rounding",
        "models/src/gating/cost.rs (physical_knobs)",
    ),
    (
        "physical.i_rush_max",
        "models/src/gating/cost.rs (physical_knobs)",
    ),
];

/// `rf.latency`, `rf.port_occupancy`, `[tric]` and `[coma]` (serialised only when they leave
/// their defaults): the register-file latency path and the Warped Register File
/// (register-file spec §2.3, §3, §4). Keys the simulator does not read are read by the
/// register-file energy accounting in `models`, which costs a run's `RfStats`. The
/// accounting's own switches, `[energy]`, are not the machine's (`models::rf::EnergySection`,
/// read from the same file by the root crate's `StudyConfig`); `tests/study_config_keys.rs`
/// holds their decisions, and the optimiser's `[opt]`'s.
const RF_READ: &[(&str, &str)] = &[
    // [prf], [afrf], [mrf] and [rfc]: the partitioned RF, the adaptive FRF, the MRF baselines
    // and the RF cache (sim/src/timing/rf/, run by the SM through PrfOrg)
    (
        "prf.enabled",
        "sim/src/timing/rf/sm_org.rs (PrfOrg::wanted)",
    ),
    ("prf.n_fast", "sim/src/timing/rf/partitioned.rs"),
    ("prf.lat_frf_high", "sim/src/timing/rf/partitioned.rs"),
    ("prf.lat_frf_low", "sim/src/timing/rf/partitioned.rs"),
    (
        "prf.lat_srf",
        "sim/src/timing/rf/partitioned.rs (\"derived\" filled by the CLI, src/study.rs)",
    ),
    ("prf.write_lat", "sim/src/timing/rf/partitioned.rs"),
    (
        "prf.v_srf",
        "models (SRF supply of the register-file arrays)",
    ),
    (
        "prf.v_frf",
        "models (FRF supply of the register-file arrays)",
    ),
    (
        "prf.swap_table",
        "sim/src/timing/rf/swap_table.rs; models (swap-table energy)",
    ),
    (
        "prf.table_copies",
        "sim/src/timing/rf/swap_table.rs (table writes); models",
    ),
    ("prf.miss_rule", "sim/src/timing/rf/partitioned.rs"),
    ("prf.remap_policy", "sim/src/timing/rf/partitioned.rs"),
    ("prf.pilot_select", "sim/src/timing/rf/partitioned.rs"),
    ("prf.pilot_seed", "sim/src/timing/rf/partitioned.rs"),
    ("prf.count_dup_sources", "sim/src/timing/rf/partitioned.rs"),
    ("prf.counter_overflow", "sim/src/timing/rf/partitioned.rs"),
    ("prf.sort_latency", "sim/src/timing/rf/partitioned.rs"),
    ("prf.lookup_latency", "sim/src/timing/rf/partitioned.rs"),
    ("prf.skip_if_fits", "sim/src/timing/rf/partitioned.rs"),
    (
        "prf.max_profiled_kernels",
        "sim/src/timing/rf/partitioned.rs",
    ),
    (
        "afrf.enabled",
        "sim/src/timing/rf/sm_org.rs (PrfOrg::wanted)",
    ),
    ("afrf.epoch", "sim/src/timing/rf/afrf_phase.rs"),
    ("afrf.threshold", "sim/src/timing/rf/afrf_phase.rs"),
    ("afrf.threshold_mode", "sim/src/timing/rf/afrf_phase.rs"),
    ("afrf.threshold_ratio", "sim/src/timing/rf/afrf_phase.rs"),
    ("afrf.count_point", "sim/src/timing/rf/afrf_phase.rs"),
    ("afrf.low_leakage", "models (FRF_low leakage)"),
    ("afrf.switch_latency", "sim/src/timing/rf/afrf_phase.rs"),
    ("afrf.switch_energy", "models (mode-switch energy)"),
    ("mrf.region", "models (MRF supply)"),
    ("mrf.lat", "sim/src/timing/rf/partitioned.rs (MRF latency)"),
    (
        "rfc.enabled",
        "sim/src/timing/rf/sm_org.rs (PrfOrg::wanted)",
    ),
    ("rfc.entries_per_warp", "sim/src/timing/rf/rf_cache.rs"),
    ("rfc.read_ports", "sim/src/timing/rf/rf_cache.rs"),
    ("rfc.write_ports", "sim/src/timing/rf/rf_cache.rs"),
    ("rfc.banks", "sim/src/timing/rf/rf_cache.rs"),
    ("rfc.replacement", "sim/src/timing/rf/rf_cache.rs"),
    ("rfc.alloc_on_read_miss", "sim/src/timing/rf/rf_cache.rs"),
    ("rfc.lat", "sim/src/timing/rf/sm_org.rs"),
    (
        "rfc.liveness",
        "sim/src/timing/rf/rf_cache.rs (oracle: the next access decides)",
    ),
    (
        "prf.reprofile_every_cycles",
        "sim/src/timing/rf/partitioned.rs (re-profiling rounds)",
    ),
    (
        "rf.latency",
        "sim/src/timing/policy/builtin.rs (MonolithicRf::route)",
    ),
    ("rf.port_occupancy", "sim/src/timing/opcoll.rs (hold_port)"),
    ("tric.enabled", "sim/src/timing/warpedrf.rs"),
    ("tric.granularity", "sim/src/timing/warpedrf.rs"),
    ("tric.alloc_scope", "sim/src/timing/warpedrf.rs"),
    ("tric.wake_latency", "sim/src/timing/warpedrf.rs"),
    (
        "tric.wake_latency_mode",
        "sim/src/config/technique/tric.rs (the caller fills tric.wake_latency for derived)",
    ),
    ("tric.dest_policy", "sim/src/timing/warpedrf.rs"),
    ("tric.lookahead", "sim/src/timing/sm/lookahead.rs"),
    (
        "metrics.interaccess_cutoff",
        "sim/src/timing/regchar.rs (stats.per_register)",
    ),
    ("tric.lookahead_timeout", "sim/src/timing/warpedrf.rs"),
    ("tric.off_wake_latency", "sim/src/timing/warpedrf.rs"),
    (
        "tric.drowsy_margin_mv",
        "models (register-file leakage, ρ_DROWSY)",
    ),
    ("tric.off_residual", "models (register-file leakage, ρ_OFF)"),
    (
        "tric.switch_energy_model",
        "models (register-file overhead energy)",
    ),
    (
        "tric.gate_periphery_if_bank_off",
        "sim/src/timing/warpedrf.rs (bank all-OFF cycles); models (periphery leakage)",
    ),
    ("coma.enabled", "sim/src/timing/warpedrf.rs"),
    (
        "coma.lanes_per_segment",
        "sim/src/config/technique/coma.rs (segment_lanes)",
    ),
    (
        "coma.lane_org",
        "sim/src/config/technique/coma.rs (segment_lanes)",
    ),
    (
        "coma.fixed_fraction",
        "models (register-file dynamic energy, φ)",
    ),
];

/// Register-file keys refused at a non-default value (features not implemented): none.
const RF_REFUSED: &[(&str, &str)] = &[];

/// `[reconv]` and `[dwf]` keys (control-flow spec §3, §5.6, §5.7).
const RECONV_READ: &[(&str, &str)] = &[
    ("reconv.stack_update_at", "sim/src/timing/frontend.rs"),
    ("reconv.issue_flush", "sim/src/timing/frontend.rs"),
    (
        "reconv.counters",
        "sim/src/timing/sm/mod.rs, sim/src/timing/simulation.rs",
    ),
    (
        "reconv.max_depth",
        "sim/src/emu/mod.rs (Emulator::configure)",
    ),
    (
        "reconv.push_order",
        "sim/src/emu/mod.rs (Emulator::configure)",
    ),
    ("dwf.simd_width", "sim/src/timing/dwf.rs (dwf_hw_inputs)"),
    ("dwf.pool_entries", "sim/src/timing/dwf.rs (dwf_hw_inputs)"),
    (
        "dwf.pc_lut_entries",
        "sim/src/timing/dwf.rs (dwf_hw_inputs)",
    ),
    ("dwf.pc_lut_ways", "sim/src/timing/dwf.rs (dwf_hw_inputs)"),
    (
        "dwf.mheap_lut_entries",
        "sim/src/timing/dwf.rs (dwf_hw_inputs)",
    ),
    (
        "dwf.mheap_lut_ways",
        "sim/src/timing/dwf.rs (dwf_hw_inputs)",
    ),
    ("dwf.heap_entries", "sim/src/timing/dwf.rs (dwf_hw_inputs)"),
    ("dwf.pc_bits", "sim/src/timing/dwf.rs (dwf_hw_inputs)"),
    ("dwf.tid_bits", "sim/src/timing/dwf.rs (dwf_hw_inputs)"),
    ("dwf.cnt_bits", "sim/src/timing/dwf.rs (dwf_hw_inputs)"),
    (
        "dwf.rf_regs_per_core",
        "sim/src/timing/dwf.rs (dwf_hw_inputs)",
    ),
    ("dwf.die_area_mm2", "sim/src/timing/dwf.rs (dwf_hw_inputs)"),
    ("reconv.mode", "sim/src/timing/dwf/refmodel.rs"),
    ("dwf.policy", "sim/src/timing/dwf/refmodel.rs"),
    ("dwf.lane_aware", "sim/src/timing/dwf/refmodel.rs"),
    ("dwf.swizzle", "sim/src/timing/dwf/refmodel.rs"),
    ("dwf.infinite_resources", "sim/src/timing/dwf/refmodel.rs"),
];

/// Every key a model reads.
fn all_read() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    READ.iter()
        .chain(PG_READ)
        .chain(PHYSICAL_READ)
        .chain(RF_READ)
        .chain(RECONV_READ)
}

/// Every key refused for a non-baseline value (features not implemented).
fn all_refused_features() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    REFUSED_FEATURES.iter().chain(RF_REFUSED)
}

#[test]
fn every_schema_key_is_read_or_refused() {
    let keys = preset_leaves("gtx480");
    let mut missing = Vec::new();
    let mut both = Vec::new();
    for (k, _) in &keys {
        let read = all_read().any(|(r, _)| r == k);
        let refused =
            UNREAD_KEYS.iter().any(|(r, _)| r == k) || all_refused_features().any(|(r, _)| r == k);
        if !read && !refused {
            missing.push(k.clone());
        }
        if read && refused {
            both.push(k.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "keys neither read nor refused: {missing:?}"
    );
    assert!(both.is_empty(), "keys both read and refused: {both:?}");
    // No stale entries either.
    let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
    for (k, _) in all_read()
        .chain(UNREAD_KEYS.iter())
        .chain(all_refused_features())
    {
        assert!(names.contains(k), "table entry '{k}' is not a schema key");
    }
    let n_refused = UNREAD_KEYS.len() + all_refused_features().count();
    let n_read = all_read().count();
    assert_eq!(n_read + n_refused, keys.len());
    eprintln!(
        "{} schema keys: {} read, {} refused ({} not modelled, {} features not implemented)",
        keys.len(),
        n_read,
        n_refused,
        UNREAD_KEYS.len(),
        all_refused_features().count()
    );
}

#[test]
fn presets_keep_loading_through_user_files() {
    for name in GpuConfig::preset_names() {
        let cfg = GpuConfig::preset(name).unwrap();
        let text = cfg.to_toml_string();
        let back = GpuConfig::from_toml_str(&text, "dump.toml").unwrap();
        assert_eq!(back, cfg);
        let based = format!("base = \"{name}\"\n");
        assert_eq!(GpuConfig::from_toml_str(&based, "b.toml").unwrap(), cfg);
    }
}

#[test]
fn a_non_preset_value_of_an_unread_key_is_refused_naming_it() {
    let keys = preset_leaves("gtx480");
    for (key, _) in UNREAD_KEYS {
        let v = &keys.iter().find(|(k, _)| k == key).unwrap().1;
        let bad = foreign_value(key, v);
        let text = format!("base = \"gtx480\"\n{key} = {bad}\n");
        let err = GpuConfig::from_toml_str(&text, "user.toml")
            .expect_err(&format!("{key} = {bad} must be refused"))
            .to_string();
        assert!(err.contains("user.toml"), "{err}");
        assert!(err.contains(&format!("'{key}' = {bad}")), "{err}");
        assert!(err.contains("not modelled"), "{err}");
        assert!(err.contains("honoured"), "{err}");
    }
}

#[test]
fn a_non_baseline_value_of_an_unimplemented_feature_is_refused_naming_it() {
    for (key, bad) in all_refused_features() {
        let text = format!("base = \"gtx480\"\n{key} = {bad}\n");
        let err = GpuConfig::from_toml_str(&text, "user.toml")
            .expect_err(&format!("{key} = {bad} must be refused"))
            .to_string();
        assert!(err.contains(&format!("'{key}'")), "{err}");
    }
}

#[test]
fn every_preset_value_of_an_unread_key_is_accepted_on_every_base() {
    // gtx480 carries icnt.in_buffer_flits = 64, gtx780 256: both load on either base.
    for base in GpuConfig::preset_names() {
        for other in GpuConfig::preset_names() {
            for (key, v) in preset_leaves(other) {
                if UNREAD_KEYS.iter().any(|(k, _)| *k == key) {
                    let text = format!("base = \"{base}\"\n{key} = {v}\n");
                    GpuConfig::from_toml_str(&text, "user.toml").unwrap();
                }
            }
        }
    }
}

/// `[pg]`, `[pg.coordinated]`, `[pg.adaptive]` and `[sched.gates]` keys (serialised only when
/// they leave their defaults, so that configurations without them hash as before), with where
/// they are read. Keys refused at non-default values say so.
const PG_READ: &[(&str, &str)] = &[
    (
        "pg.granularity",
        "sim/src/timing/execunits.rs (LaneGroup with CoordinatedBlackout refused)",
    ),
    ("pg.lane_group_size", "sim/src/timing/execunits.rs"),
    (
        "pg.policy",
        "sim/src/timing/sm/mod.rs, sim/src/timing/gating/controller.rs",
    ),
    (
        "pg.timing",
        "sim/src/config/pg.rs (the caller fills pg.bet/pg.wakeup for Physical)",
    ),
    ("pg.bet", "sim/src/timing/gating/controller.rs"),
    ("pg.wakeup", "sim/src/timing/gating/controller.rs"),
    ("pg.idle_detect", "sim/src/timing/gating/controller.rs"),
    ("pg.gate_compare", "sim/src/timing/gating/controller.rs"),
    ("pg.idle_clear", "sim/src/timing/gating/controller.rs"),
    ("pg.initial_idle_cnt", "sim/src/timing/gating/controller.rs"),
    (
        "pg.wake_request_cycle",
        "sim/src/timing/gating/controller.rs",
    ),
    ("pg.wake_rule", "sim/src/timing/gating/controller.rs"),
    ("pg.wake_consumes_slot", "sim/src/timing/sm/issue.rs"),
    (
        "pg.wakeup_cycles_leak",
        "sim/src/timing/gating/controller.rs (GatingStats for models)",
    ),
    (
        "pg.residual_leak_r",
        "sim/src/timing/gating/controller.rs (GatingStats for models)",
    ),
    (
        "pg.charge_open_event",
        "sim/src/timing/gating/controller.rs",
    ),
    (
        "pg.idle_run_includes_wakeup",
        "sim/src/timing/gating/controller.rs",
    ),
    ("pg.cluster_select", "sim/src/timing/gating/controller.rs"),
    ("pg.gate_sfu", "sim/src/timing/execunits.rs"),
    (
        "pg.short_bubble_cycles",
        "sim/src/timing/gating/controller.rs",
    ),
    (
        "pg.coordinated.trigger",
        "sim/src/timing/gating/controller.rs",
    ),
    (
        "pg.coordinated.suppressed_counter",
        "sim/src/timing/gating/controller.rs",
    ),
    (
        "pg.coordinated.immediate_requires_drained",
        "sim/src/timing/gating/controller.rs",
    ),
    (
        "pg.coordinated.generalization",
        "sim/src/timing/gating/controller.rs",
    ),
    ("pg.adaptive.enabled", "sim/src/timing/gating/controller.rs"),
    ("pg.adaptive.scope", "sim/src/timing/gating/controller.rs"),
    ("pg.adaptive.epoch", "sim/src/timing/gating/controller.rs"),
    (
        "pg.adaptive.critical_threshold",
        "sim/src/timing/gating/controller.rs",
    ),
    ("pg.adaptive.d_min", "sim/src/timing/gating/controller.rs"),
    ("pg.adaptive.d_max", "sim/src/timing/gating/controller.rs"),
    ("pg.adaptive.bounded", "sim/src/timing/gating/controller.rs"),
    (
        "pg.adaptive.decrement_epochs",
        "sim/src/timing/gating/controller.rs",
    ),
    (
        "pg.adaptive.decrement_mode",
        "sim/src/timing/gating/controller.rs",
    ),
    ("sched.gates.hp_init", "sim/src/timing/gating/gates.rs"),
    (
        "sched.gates.swap_needs_other",
        "sim/src/timing/gating/gates.rs",
    ),
    ("sched.gates.max_hp_hold", "sim/src/timing/gating/gates.rs"),
];

#[test]
fn every_pg_key_is_read() {
    let mut cfg = GpuConfig::preset("gtx480").unwrap();
    cfg.pg.policy = sim::config::pg::PgPolicy::Conventional;
    cfg.sched.gates.max_hp_hold = 1000;
    let t: toml::Table = toml::from_str(&cfg.to_full_toml_string()).unwrap();
    let mut all = Vec::new();
    leaves(&t, "", &mut all);
    let keys: Vec<String> = all
        .into_iter()
        .map(|(k, _)| k)
        .filter(|k| k.starts_with("pg.") || k.starts_with("sched.gates."))
        .collect();
    for k in &keys {
        assert!(PG_READ.iter().any(|(r, _)| r == k), "'{k}' has no decision");
    }
    assert_eq!(keys.len(), PG_READ.len(), "stale PG_READ entries");
    // defaults are not serialised: presets hash as before
    let plain = GpuConfig::preset("gtx480").unwrap().to_toml_string();
    assert!(!plain.contains("[pg"));
    assert!(!plain.contains("[sched.gates]"));
}

#[test]
fn pg_values_are_range_checked_naming_the_key() {
    for (text, key) in [
        ("pg.policy = \"Sometimes\"", "Conventional"),
        ("pg.bet = 0", "'pg.bet'"),
        ("pg.wakeup = 0", "'pg.wakeup'"),
        ("pg.adaptive.epoch = 0", "'pg.adaptive.epoch'"),
        (
            "pg.adaptive.d_min = 9\npg.adaptive.d_max = 6",
            "'pg.adaptive.d_min'",
        ),
        ("pg.lane_group_size = 3", "'pg.lane_group_size'"),
        (
            "pg.policy = \"NaiveBlackout\"\npg.gate_sfu = true",
            "'pg.gate_sfu'",
        ),
        (
            "pg.policy = \"CoordinatedBlackout\"\npg.granularity = \"LaneGroup\"",
            "'pg.granularity'",
        ),
        (
            "pg.policy = \"Conventional\"\npg.granularity = \"LaneGroup\"\npg.idle_detect = 8",
            "'pg.idle_detect'",
        ),
        ("sched.gates.hp_init = \"SFU\"", "INT, FP"),
    ] {
        let src = format!("base = \"gtx480\"\n{text}\n");
        let err = GpuConfig::from_toml_str(&src, "user.toml")
            .expect_err(text)
            .to_string();
        assert!(err.contains(key), "{text}: {err}");
    }
    let ok = "base = \"gtx480\"\nsched.policy = \"gates\"\npg.policy = \"CoordinatedBlackout\"\n\
              pg.adaptive.enabled = true\n";
    let cfg = GpuConfig::from_toml_str(ok, "user.toml").unwrap();
    assert_eq!(cfg.sched.policy, sim::config::SchedPolicy::Gates);
}

/// `[prf]`/`[afrf]`/`[mrf]`/`[rfc]`: defaults are not serialised (presets hash as before), every
/// key is range-checked naming it, enums list their values, and `enabled = true` is refused as
/// not modelled yet.
#[test]
fn register_file_tables_are_checked_naming_the_key() {
    let plain = GpuConfig::preset("gtx480").unwrap().to_toml_string();
    for t in ["[prf]", "[afrf]", "[mrf]", "[rfc]"] {
        assert!(!plain.contains(t), "{t} written while at its defaults");
    }
    for (text, needle) in [
        ("prf.n_fast = 64", "'prf.n_fast' = 64"),
        ("prf.lat_srf = 0", "'prf.lat_srf' = 0"),
        ("prf.lat_srf = \"slow\"", "derived"),
        ("prf.write_lat = \"never\"", "same_as_read"),
        ("prf.lat_frf_low = 0", "'prf.lat_frf_low'"),
        ("prf.miss_rule = \"srf\"", "literal_srf"),
        ("prf.remap_policy = \"lazy\"", "new_warps_only"),
        ("prf.pilot_select = \"last\"", "index:k"),
        ("prf.swap_table = \"tcam\"", "indexed"),
        ("prf.table_copies = 0", "'prf.table_copies'"),
        ("prf.v_srf = -0.3", "'prf.v_srf'"),
        ("afrf.epoch = 0", "'afrf.epoch'"),
        ("afrf.threshold_ratio = 1.5", "'afrf.threshold_ratio'"),
        ("afrf.switch_latency = 50", "'afrf.switch_latency'"),
        // gtx480 issues 2 per cycle: 50 × 2 = 100 needs 7 bits, so at most 128.
        (
            "afrf.enabled = true\nafrf.threshold = 129",
            "at most 2^7 = 128",
        ),
        ("afrf.threshold_mode = \"relative\"", "ratio"),
        ("mrf.region = \"ULV\"", "NTV"),
        ("mrf.lat = 0", "'mrf.lat'"),
        ("rfc.banks = 9", "'rfc.banks' = 9"),
        ("rfc.entries_per_warp = 0", "'rfc.entries_per_warp'"),
        ("rfc.replacement = \"random\"", "lru"),
        // gtx480: 48 warps × 22 fast slots = 1056 > 1024 entries.
        ("prf.enabled = true\nprf.n_fast = 22", "at most 21"),
        ("afrf.enabled = true", "needs 'prf.enabled' = true"),
        (
            "prf.enabled = true\nrfc.enabled = true",
            "'rfc.enabled' = true with",
        ),
        ("rfc.liveness = \"dead\"", "oracle"),
        (
            "prf.reprofile_every_cycles = 10",
            "'prf.reprofile_every_cycles' = 10 needs 'prf.enabled' = true",
        ),
        (
            "tric.gate_periphery_if_bank_off = true",
            "'tric.gate_periphery_if_bank_off' = true needs 'tric.enabled' = true",
        ),
        ("prf.enabled = true\ntric.enabled = true", "'tric.enabled'"),
    ] {
        let src = format!("base = \"gtx480\"\n{text}\n");
        let err = GpuConfig::from_toml_str(&src, "user.toml")
            .expect_err(text)
            .to_string();
        assert!(err.contains(needle), "{text}: {err}");
        assert!(err.contains("user.toml"), "{text}: {err}");
    }
    // The organisations the timing model runs load.
    for text in [
        "prf.enabled = true",
        "prf.enabled = true\nafrf.enabled = true\nprf.remap_policy = \"migrate\"",
        "rfc.enabled = true\nrfc.read_ports = 8",
        "mrf.region = \"NTV\"\nmrf.lat = 3",
        "rfc.enabled = true\nrfc.liveness = \"oracle\"",
        "prf.enabled = true\nprf.reprofile_every_cycles = 1000",
        "tric.enabled = true\ntric.gate_periphery_if_bank_off = true",
    ] {
        let src = format!("base = \"gtx480\"\n{text}\n");
        GpuConfig::from_toml_str(&src, "user.toml").unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    // Every table at its defaults, written out in full, loads.
    let full = GpuConfig::preset("gtx480").unwrap().to_full_toml_string();
    for t in ["[prf]", "[afrf]", "[mrf]", "[rfc]"] {
        assert!(full.contains(t), "{t} missing from the full dump");
    }
    GpuConfig::from_toml_str(&full, "full.toml").unwrap();
}
