//! Mapping GPGPU-Sim / Accel-Sim options onto a [`GpuConfig`]: every option the simulator
//! models sets its schema keys (with unit and format conversion), an option whose value the
//! simulator cannot honour is an error, and every other option is kept in a list of options
//! not modelled, with the reason.
//!
//! Option meanings follow their registrations in GPGPU-Sim (`src/gpgpu-sim/gpu-sim.cc`,
//! `src/gpgpu-sim/shader.cc`, `src/cuda-sim/cuda-sim.cc`, `src/gpgpu-sim/addrdec.cc`) and
//! Accel-Sim (`gpu-simulator/trace-driven/trace_driven.cc`); the schema keys are documented in
//! `sim/src/config/schema.rs`.

use super::fields;
use super::options::{bad_value, flag, positive, uint, uint64, uint_list, OptionValue};
use crate::config::{DpOn, GpuConfig, IntOn, LatII, PerCuClass, PerPipe, SchedPolicy};
use crate::SimError;

/// An option that sets schema keys (or that the simulator honours as it is).
#[derive(Clone, Debug, PartialEq)]
pub struct MappedOption {
    /// The option as read.
    pub option: OptionValue,
    /// Dotted schema keys it sets; empty when the simulator already behaves as the value says.
    pub keys: Vec<String>,
    /// Conversion or caveat, empty when the value maps one to one.
    pub note: String,
}

/// An option the simulator does not model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnmodelledOption {
    /// The option as read.
    pub option: OptionValue,
    /// Why it has no effect.
    pub reason: String,
}

/// The configuration built so far and the options not yet consumed.
pub(super) struct Mapper {
    opts: Vec<OptionValue>,
    used: Vec<bool>,
    /// The configuration being built (starts as the base preset).
    pub cfg: GpuConfig,
    mapped: Vec<(usize, MappedOption)>,
    unmodelled: Vec<(usize, UnmodelledOption)>,
}

pub(super) type Res = Result<(), SimError>;

impl Mapper {
    pub(super) fn take(&mut self, name: &str) -> Option<(usize, OptionValue)> {
        let i = self.opts.iter().position(|o| o.name == name)?;
        self.used[i] = true;
        Some((i, self.opts[i].clone()))
    }

    pub(super) fn record(
        &mut self,
        at: (usize, &OptionValue),
        keys: &[&str],
        note: impl Into<String>,
    ) {
        self.mapped.push((
            at.0,
            MappedOption {
                option: at.1.clone(),
                keys: keys.iter().map(|k| k.to_string()).collect(),
                note: note.into(),
            },
        ));
    }

    pub(super) fn skip(&mut self, at: (usize, OptionValue), reason: impl Into<String>) {
        self.unmodelled.push((
            at.0,
            UnmodelledOption {
                option: at.1,
                reason: reason.into(),
            },
        ));
    }

    /// A scalar option read by `parse` and stored by `set` under `key`.
    fn scalar<T>(
        &mut self,
        name: &str,
        key: &str,
        parse: fn(&OptionValue) -> Result<T, SimError>,
        set: fn(&mut GpuConfig, T),
    ) -> Res {
        if let Some((i, o)) = self.take(name) {
            set(&mut self.cfg, parse(&o)?);
            self.record((i, &o), &[key], "");
        }
        Ok(())
    }

    /// An on/off option whose `ok` value is how the simulator already behaves and whose other
    /// value cannot be honoured.
    fn must_be(&mut self, name: &str, ok: bool, behaviour: &str, refused: &str) -> Res {
        if let Some((i, o)) = self.take(name) {
            if flag(&o)? != ok {
                return Err(bad_value(&o, refused, if ok { "1" } else { "0" }));
            }
            self.record((i, &o), &[], behaviour);
        }
        Ok(())
    }
}

/// Applies `opts` (one per option, last occurrences) to `base`.
pub(super) fn apply(
    opts: &[OptionValue],
    base: GpuConfig,
) -> Result<(GpuConfig, Vec<MappedOption>, Vec<UnmodelledOption>), SimError> {
    let mut m = Mapper {
        opts: opts.to_vec(),
        used: vec![false; opts.len()],
        cfg: base,
        mapped: Vec::new(),
        unmodelled: Vec::new(),
    };
    chip(&mut m)?;
    sm(&mut m)?;
    sched(&mut m)?;
    collectors(&mut m)?;
    units(&mut m)?;
    latencies(&mut m)?;
    caches(&mut m)?;
    super::volta::carveout(&mut m)?;
    memory(&mut m)?;
    for i in 0..m.opts.len() {
        if !m.used[i] {
            let o = m.opts[i].clone();
            let why = super::unmodelled::unmodelled_reason(&o.name);
            m.skip((i, o), why);
        }
    }
    m.mapped.sort_by_key(|(i, _)| *i);
    m.unmodelled.sort_by_key(|(i, _)| *i);
    Ok((
        m.cfg,
        m.mapped.into_iter().map(|(_, x)| x).collect(),
        m.unmodelled.into_iter().map(|(_, x)| x).collect(),
    ))
}

/// SM count, clock domains, launch latencies, run limits.
fn chip(m: &mut Mapper) -> Res {
    let clusters = m.take("-gpgpu_n_clusters");
    let per = m.take("-gpgpu_n_cores_per_cluster");
    if clusters.is_some() || per.is_some() {
        let c = match &clusters {
            Some((_, o)) => positive(o)?,
            None => m.cfg.gpu.n_sm,
        };
        let p = match &per {
            Some((_, o)) => positive(o)?,
            None => 1,
        };
        m.cfg.gpu.n_sm = c.checked_mul(p).ok_or_else(|| {
            bad_value(
                &clusters.as_ref().or(per.as_ref()).expect("one is set").1,
                "SM count overflows",
                "clusters x cores per cluster below 2^32",
            )
        })?;
        let note = "SMs = clusters x cores per cluster";
        for (i, o) in clusters.iter().chain(per.iter()) {
            m.record((*i, o), &["gpu.n_sm"], note);
        }
    }
    if let Some((i, o)) = m.take("-gpgpu_clock_domains") {
        let [core, icnt, l2, dram] = fields::clock_domains(&o)?;
        let g = &mut m.cfg.gpu;
        (g.core_mhz, g.icnt_mhz, g.l2_mhz, g.dram_mhz) = (core, icnt, l2, dram);
        m.record(
            (i, &o),
            &["gpu.core_mhz", "gpu.icnt_mhz", "gpu.l2_mhz", "gpu.dram_mhz"],
            "",
        );
    }
    if let Some((i, o)) = m.take("-gpgpu_kernel_launch_latency") {
        // GPGPU-Sim counts it before every kernel, the first included
        m.cfg.gpu.kernel_launch_latency = uint64(&o)?;
        m.cfg.compat.launch_latency_first = true;
        m.record(
            (i, &o),
            &["gpu.kernel_launch_latency", "compat.launch_latency_first"],
            "",
        );
    }
    m.scalar(
        "-gpgpu_TB_launch_latency",
        "gpu.cta_launch_latency",
        uint64,
        |c, v| c.gpu.cta_launch_latency = v,
    )?;
    m.scalar("-gpgpu_max_cycle", "sim.max_cycles", uint64, |c, v| {
        c.sim.max_cycles = v
    })?;
    m.scalar(
        "-gpgpu_ignore_resources_limitation",
        "sim.ignore_resource_limits",
        flag,
        |c, v| c.sim.ignore_resource_limits = v,
    )
}

/// Per-SM resources and the front end.
fn sm(m: &mut Mapper) -> Res {
    if let Some((i, o)) = m.take("-gpgpu_shader_core_pipeline") {
        let v = uint_list(&o, ':', 2, "<threads per SM>:32")?;
        if v[1] != 32 {
            return Err(bad_value(
                &o,
                "the warp size must be 32",
                "<threads per SM>:32",
            ));
        }
        if v[0] == 0 || !v[0].is_multiple_of(32) {
            return Err(bad_value(
                &o,
                "threads per SM must be a positive multiple of 32",
                "<threads per SM>:32",
            ));
        }
        m.cfg.sm.max_threads = v[0];
        m.cfg.sm.max_warps = v[0] / 32;
        m.cfg.gpu.warp_size = 32;
        m.record(
            (i, &o),
            &["sm.max_threads", "sm.max_warps", "gpu.warp_size"],
            "warps = threads / 32",
        );
    }
    m.scalar("-gpgpu_shader_cta", "sm.max_ctas", positive, |c, v| {
        c.sm.max_ctas = v
    })?;
    m.scalar(
        "-gpgpu_num_cta_barriers",
        "sm.max_barriers_per_cta",
        uint,
        |c, v| c.sm.max_barriers_per_cta = v,
    )?;
    m.scalar(
        "-gpgpu_shader_registers",
        "sm.n_registers",
        positive,
        |c, v| c.sm.n_registers = v,
    )?;
    m.scalar("-gpgpu_shmem_size", "sm.shmem_bytes", uint, |c, v| {
        c.sm.shmem_bytes = v
    })?;
    m.scalar(
        "-gpgpu_shmem_per_block",
        "sm.shmem_per_cta",
        uint,
        |c, v| c.sm.shmem_per_cta = v,
    )?;
    m.scalar(
        "-gpgpu_inst_fetch_throughput",
        "frontend.fetch_throughput",
        positive,
        |c, v| c.frontend.fetch_throughput = v,
    )?;
    if let Some((i, o)) = m.take("-gpgpu_perfect_inst_const_cache") {
        let on = flag(&o)?;
        m.cfg.frontend.perfect_icache = on;
        m.cfg.compat.perfect_const_cache = on;
        m.record(
            (i, &o),
            &["frontend.perfect_icache", "compat.perfect_const_cache"],
            "",
        );
    }
    if let Some((i, o)) = m.take("-gpgpu_perf_sim_memcpy") {
        m.cfg.mem.memcpy_fills_l2 = flag(&o)?;
        m.record((i, &o), &["mem.memcpy_fills_l2"], "");
    }
    if let Some((i, o)) = m.take("-gpgpu_flush_l2_cache") {
        m.cfg.mem.flush_l2_between_launches = flag(&o)?;
        m.record((i, &o), &["mem.flush_l2_between_launches"], "");
    }
    Ok(())
}

/// Warp schedulers and sub-cores.
fn sched(m: &mut Mapper) -> Res {
    m.scalar(
        "-gpgpu_num_sched_per_core",
        "sched.n_per_sm",
        positive,
        |c, v| c.sched.n_per_sm = v,
    )?;
    if let Some((i, o)) = m.take("-gpgpu_sub_core_model") {
        let on = flag(&o)?;
        m.cfg.sm.n_subcores = if on { m.cfg.sched.n_per_sm } else { 1 };
        let note = if on { "one sub-core per scheduler" } else { "" };
        m.record((i, &o), &["sm.n_subcores"], note);
    }
    if let Some((i, o)) = m.take("-gpgpu_max_insn_issue_per_warp") {
        let v = uint(&o)?;
        if !(1..=2).contains(&v) {
            return Err(bad_value(&o, "issue width per warp out of range", "1, 2"));
        }
        m.cfg.sched.max_issue_per_warp = v;
        m.record((i, &o), &["sched.max_issue_per_warp"], "");
    }
    m.scalar(
        "-gpgpu_dual_issue_diff_exec_units",
        "sched.dual_issue_diff_units",
        flag,
        |c, v| c.sched.dual_issue_diff_units = v,
    )?;
    if let Some((i, o)) = m.take("-gpgpu_scheduler") {
        let s = fields::scheduler(&o)?;
        m.cfg.sched.policy = s.policy.clone();
        let mut keys = vec!["sched.policy"];
        if let Some((active, inner)) = s.two_level {
            m.cfg.sched.two_level.active_per_sched = active;
            m.cfg.sched.two_level.inner = inner;
            keys.extend(["sched.two_level.active_per_sched", "sched.two_level.inner"]);
        }
        let note = if s.policy == SchedPolicy::Oldest {
            "old = oldest first"
        } else {
            ""
        };
        m.record((i, &o), &keys, note);
    }
    Ok(())
}

const CU_CLASSES: [&str; 6] = ["sp", "sfu", "mem", "dp", "int", "gen"];

fn cu_slot<'a>(p: &'a mut PerCuClass, class: &str) -> &'a mut u32 {
    match class {
        "sp" => &mut p.sp,
        "sfu" => &mut p.sfu,
        "mem" => &mut p.mem,
        "dp" => &mut p.dp,
        "int" => &mut p.int,
        _ => &mut p.gen,
    }
}

/// Register file and operand collector units.
fn collectors(m: &mut Mapper) -> Res {
    m.scalar("-gpgpu_num_reg_banks", "rf.n_banks", positive, |c, v| {
        c.rf.n_banks = v
    })?;
    m.scalar(
        "-gpgpu_reg_file_port_throughput",
        "rf.ports_per_bank",
        positive,
        |c, v| c.rf.ports_per_bank = v,
    )?;
    let specialized = match m.take("-gpgpu_enable_specialized_operand_collector") {
        Some((i, o)) => {
            let on = flag(&o)?;
            if !on {
                for set in ["units", "in_ports", "out_ports"] {
                    for class in &CU_CLASSES[..5] {
                        let oc = &mut m.cfg.opcoll;
                        let p = match set {
                            "units" => &mut oc.units,
                            "in_ports" => &mut oc.in_ports,
                            _ => &mut oc.out_ports,
                        };
                        *cu_slot(p, class) = 0;
                    }
                }
                let keys: Vec<String> = ["units", "in_ports", "out_ports"]
                    .iter()
                    .flat_map(|s| {
                        CU_CLASSES[..5]
                            .iter()
                            .map(move |c| format!("opcoll.{s}.{c}"))
                    })
                    .collect();
                let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
                m.record((i, &o), &keys, "generic collector units only");
            } else {
                m.record((i, &o), &[], "per-class collector units, as configured");
            }
            on
        }
        None => true,
    };
    for set in ["units", "in_ports", "out_ports"] {
        for class in CU_CLASSES {
            let name = format!("-gpgpu_operand_collector_num_{set}_{class}");
            let Some((i, o)) = m.take(&name) else {
                continue;
            };
            if !specialized && class != "gen" {
                m.skip(
                    (i, o),
                    "ignored: -gpgpu_enable_specialized_operand_collector 0 leaves generic units only",
                );
                continue;
            }
            let v = uint(&o)?;
            let oc = &mut m.cfg.opcoll;
            let p = match set {
                "units" => &mut oc.units,
                "in_ports" => &mut oc.in_ports,
                _ => &mut oc.out_ports,
            };
            *cu_slot(p, class) = v;
            let key = format!("opcoll.{set}.{class}");
            m.record((i, &o), &[key.as_str()], "");
        }
    }
    Ok(())
}

/// Execution units and pipeline-register widths.
fn units(m: &mut Mapper) -> Res {
    m.scalar("-gpgpu_num_sp_units", "units.n_sp", positive, |c, v| {
        c.units.n_sp = v
    })?;
    m.scalar("-gpgpu_num_sfu_units", "units.n_sfu", positive, |c, v| {
        c.units.n_sfu = v
    })?;
    if let Some((i, o)) = m.take("-gpgpu_num_dp_units") {
        let n = uint(&o)?;
        m.cfg.units.n_dp = n;
        m.cfg.units.dp_on = if n > 0 { DpOn::Dp } else { DpOn::Sfu };
        let note = if n == 0 {
            "no DP units: f64 runs on the SFU"
        } else {
            ""
        };
        m.record((i, &o), &["units.n_dp", "units.dp_on"], note);
    }
    if let Some((i, o)) = m.take("-gpgpu_num_int_units") {
        let n = uint(&o)?;
        m.cfg.units.n_int = n;
        m.cfg.units.int_on = if n > 0 { IntOn::Int } else { IntOn::Sp };
        let note = if n == 0 {
            "no INT units: integer runs on the SP units"
        } else {
            ""
        };
        m.record((i, &o), &["units.n_int", "units.int_on"], note);
    }
    super::volta::tensor_cores(m)?;
    if let Some((i, o)) = m.take("-gpgpu_pipeline_widths") {
        let allowed = "ID_OC sp,dp,int,sfu,mem, OC_EX sp,dp,int,sfu,mem, EX_WB \
                       [, ID_OC tensor, OC_EX tensor]";
        let n = o.value.split(',').count();
        let v = uint_list(&o, ',', if n == 13 { 13 } else { 11 }, allowed)?;
        if v[10] == 0 {
            return Err(bad_value(&o, "EX_WB width must be positive", allowed));
        }
        let pipe = |s: &[u32]| PerPipe {
            sp: s[0],
            dp: s[1],
            int: s[2],
            sfu: s[3],
            mem: s[4],
        };
        m.cfg.units.width.id_oc = pipe(&v[0..5]);
        m.cfg.units.width.oc_ex = pipe(&v[5..10]);
        m.cfg.units.width.ex_wb = v[10];
        let note = if v.len() == 13 && (v[11] > 0 || v[12] > 0) {
            "tensor-core widths ignored (each tensor core takes one product at a time)"
        } else {
            ""
        };
        m.record(
            (i, &o),
            &[
                "units.width.id_oc",
                "units.width.oc_ex",
                "units.width.ex_wb",
            ],
            note,
        );
    }
    Ok(())
}

/// Sets element `which` (0 latency, 1 initiation interval) of each pair from a list option.
fn lat_list(
    m: &mut Mapper,
    name: &str,
    which: usize,
    keys: &[&str],
    slots: fn(&mut GpuConfig) -> Vec<&mut LatII>,
) -> Res {
    let Some((i, o)) = m.take(name) else {
        return Ok(());
    };
    let what = keys
        .iter()
        .map(|k| k.rsplit('.').next().unwrap_or(k).to_uppercase())
        .collect::<Vec<_>>()
        .join(",");
    // GPGPU-Sim reads the list with a fixed-count scan: a shorter list sets the leading classes
    // only; the rest keep the base values here.
    let n = o.value.split(',').count().clamp(1, keys.len());
    let v = uint_list(&o, ',', n, &what)?;
    if which == 1 && v.contains(&0) {
        return Err(bad_value(
            &o,
            "initiation intervals must be positive",
            &what,
        ));
    }
    for (slot, x) in slots(&mut m.cfg).into_iter().zip(v) {
        slot[which] = x;
    }
    let mut note = String::from(if which == 0 {
        "latency (cycles)"
    } else {
        "initiation interval (cycles)"
    });
    if n < keys.len() {
        let rest: Vec<&str> = what.split(',').skip(n).collect();
        note.push_str(&format!(
            "; {} not given, kept from the base",
            rest.join(",")
        ));
    }
    m.record((i, &o), &keys[..n], note);
    Ok(())
}

/// PTX opcode latencies and initiation intervals, Accel-Sim trace-mode latencies.
fn latencies(m: &mut Mapper) -> Res {
    const INT: [&str; 6] = [
        "latency.int.add",
        "latency.int.max",
        "latency.int.mul",
        "latency.int.mad",
        "latency.int.div",
        "latency.int.shfl",
    ];
    const FP: [&str; 5] = [
        "latency.fp.add",
        "latency.fp.max",
        "latency.fp.mul",
        "latency.fp.mad",
        "latency.fp.div",
    ];
    const DP: [&str; 5] = [
        "latency.dp.add",
        "latency.dp.max",
        "latency.dp.mul",
        "latency.dp.mad",
        "latency.dp.div",
    ];
    fn int(c: &mut GpuConfig) -> Vec<&mut LatII> {
        let l = &mut c.latency.int;
        vec![
            &mut l.add,
            &mut l.max,
            &mut l.mul,
            &mut l.mad,
            &mut l.div,
            &mut l.shfl,
        ]
    }
    fn fp(c: &mut GpuConfig) -> Vec<&mut LatII> {
        let l = &mut c.latency.fp;
        vec![&mut l.add, &mut l.max, &mut l.mul, &mut l.mad, &mut l.div]
    }
    fn dp(c: &mut GpuConfig) -> Vec<&mut LatII> {
        let l = &mut c.latency.dp;
        vec![&mut l.add, &mut l.max, &mut l.mul, &mut l.mad, &mut l.div]
    }
    fn sfu(c: &mut GpuConfig) -> Vec<&mut LatII> {
        vec![&mut c.latency.sfu]
    }
    for (which, kind) in [(0, "latency"), (1, "initiation")] {
        lat_list(m, &format!("-ptx_opcode_{kind}_int"), which, &INT, int)?;
        lat_list(m, &format!("-ptx_opcode_{kind}_fp"), which, &FP, fp)?;
        lat_list(m, &format!("-ptx_opcode_{kind}_dp"), which, &DP, dp)?;
        lat_list(
            m,
            &format!("-ptx_opcode_{kind}_sfu"),
            which,
            &["latency.sfu"],
            sfu,
        )?;
    }
    for class in ["int", "sp", "dp", "sfu"] {
        let name = format!("-trace_opcode_latency_initiation_{class}");
        let Some((i, o)) = m.take(&name) else {
            continue;
        };
        let v = uint_list(&o, ',', 2, "<latency>,<initiation interval>")?;
        if v[1] == 0 {
            return Err(bad_value(
                &o,
                "initiation interval must be positive",
                "1 or more",
            ));
        }
        let t = &mut m.cfg.latency.trace;
        let slot = match class {
            "int" => &mut t.int,
            "sp" => &mut t.sp,
            "dp" => &mut t.dp,
            _ => &mut t.sfu,
        };
        *slot = [v[0], v[1]];
        let key = format!("latency.trace.{class}");
        m.record((i, &o), &[key.as_str()], "[latency, initiation interval]");
    }
    Ok(())
}

/// Cache geometry strings, L1/L2 latencies, shared memory.
fn caches(m: &mut Mapper) -> Res {
    for (name, table) in [
        ("-gpgpu_cache:il1", "icache"),
        ("-gpgpu_cache:dl1", "l1d"),
        ("-gpgpu_const_cache:l1", "const_cache"),
        ("-gpgpu_tex_cache:l1", "tex_cache"),
        ("-gpgpu_cache:dl2", "l2"),
    ] {
        let Some((i, o)) = m.take(name) else {
            continue;
        };
        let c = &mut m.cfg;
        let base = match table {
            "icache" => c.icache.clone(),
            "l1d" => c.l1d.geometry(),
            "const_cache" => c.const_cache.clone(),
            "tex_cache" => c.tex_cache.clone(),
            _ => c.l2.geometry(),
        };
        let parsed = fields::cache_string(&o, &base)?;
        let g = parsed.cache;
        macro_rules! put {
            ($dst:expr) => {{
                let d = &mut $dst;
                d.sets = g.sets;
                d.line_bytes = g.line_bytes;
                d.assoc = g.assoc;
                d.sector_bytes = g.sector_bytes;
                d.replacement = g.replacement;
                d.write_policy = g.write_policy;
                d.alloc = g.alloc;
                d.write_alloc = g.write_alloc;
                d.set_index = g.set_index;
                d.mshr_entries = g.mshr_entries;
                d.mshr_merge = g.mshr_merge;
                d.miss_queue = g.miss_queue;
            }};
        }
        match table {
            "icache" => put!(c.icache),
            "l1d" => put!(c.l1d),
            "const_cache" => put!(c.const_cache),
            "tex_cache" => put!(c.tex_cache),
            _ => put!(c.l2),
        }
        let keys: Vec<String> = [
            "sets",
            "line_bytes",
            "assoc",
            "sector_bytes",
            "replacement",
            "write_policy",
            "alloc",
            "write_alloc",
            "set_index",
            "mshr_entries",
            "mshr_merge",
            "miss_queue",
        ]
        .iter()
        .map(|k| format!("{table}.{k}"))
        .collect();
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        let mut notes = vec![format!(
            "{} B",
            g.sets as u64 * g.line_bytes as u64 * g.assoc as u64
        )];
        if g.set_index == crate::config::SetIndex::Hash {
            notes.push("H = the simulator's hashed index, not bit-identical".into());
        }
        for (what, v) in &parsed.unmodelled {
            notes.push(format!("{what} {v} not modelled"));
        }
        m.record((i, &o), &keys, notes.join("; "));
    }
    if let Some((i, o)) = m.take("-gpgpu_l1_latency") {
        let v = uint(&o)?;
        let c = &mut m.cfg;
        (c.l1d.latency, c.const_cache.latency, c.tex_cache.latency) = (v, v, v);
        m.record(
            (i, &o),
            &["l1d.latency", "const_cache.latency", "tex_cache.latency"],
            "L1 hit latency, also the constant and texture cache hit latency",
        );
    }
    m.scalar("-gpgpu_l1_banks", "l1d.banks", positive, |c, v| {
        c.l1d.banks = v
    })?;
    m.scalar("-gpgpu_gmem_skip_L1D", "l1d.skip_global", flag, |c, v| {
        c.l1d.skip_global = v
    })?;
    m.scalar("-gpgpu_l2_rop_latency", "l2.rop_latency", uint, |c, v| {
        c.l2.rop_latency = v
    })?;
    m.scalar("-gpgpu_shmem_num_banks", "shmem.banks", positive, |c, v| {
        c.shmem.banks = v
    })?;
    m.scalar("-gpgpu_smem_latency", "shmem.latency", uint, |c, v| {
        c.shmem.latency = v
    })?;
    if let Some((i, o)) = m.take("-gpgpu_shmem_limited_broadcast") {
        if flag(&o)? {
            return Err(bad_value(
                &o,
                "one broadcast per cycle is not modelled (identical words always broadcast)",
                "0",
            ));
        }
        m.cfg.shmem.broadcast = true;
        m.record((i, &o), &["shmem.broadcast"], "unlimited broadcast");
    }
    if let Some((i, o)) = m.take("-gpgpu_shmem_warp_parts") {
        if uint(&o)? != 1 {
            return Err(bad_value(
                &o,
                "bank conflicts are checked over the whole warp",
                "1",
            ));
        }
        m.record((i, &o), &[], "whole-warp bank-conflict check, as simulated");
    }
    if let Some((i, o)) = m.take("-gpgpu_coalesce_arch") {
        if uint(&o)? < 20 {
            return Err(bad_value(
                &o,
                "pre-Fermi coalescing is not modelled",
                "20 or more",
            ));
        }
        m.record((i, &o), &[], "Fermi-and-later coalescing, as simulated");
    }
    m.must_be(
        "-gpgpu_perfect_mem",
        false,
        "real memory hierarchy, as simulated",
        "perfect memory is not modelled",
    )?;
    m.must_be(
        "-l2_ideal",
        false,
        "real L2, as simulated",
        "an always-hitting L2 is not modelled",
    )?;
    m.must_be(
        "-gpgpu_cache:dl2_texture_only",
        false,
        "L2 caches every access, as simulated",
        "a texture-only L2 is not modelled",
    )
}

/// Memory partitions, address map, DRAM and interconnect.
fn memory(m: &mut Mapper) -> Res {
    m.scalar("-gpgpu_n_mem", "mem.n_channels", positive, |c, v| {
        c.mem.n_channels = v
    })?;
    m.scalar(
        "-gpgpu_n_sub_partition_per_mchannel",
        "mem.subparts_per_channel",
        positive,
        |c, v| c.mem.subparts_per_channel = v,
    )?;
    if let Some((i, o)) = m.take("-gpgpu_mem_addr_mapping") {
        let (interleave, map) = fields::addr_map(&o)?;
        m.cfg.mem.channel_interleave_bytes = interleave;
        m.cfg.mem.addr_map = map;
        m.record(
            (i, &o),
            &["mem.channel_interleave_bytes", "mem.addr_map"],
            "dramid@b = 2^b-byte channel interleave; low 32 bits of the map",
        );
    }
    m.scalar(
        "-gpgpu_n_mem_per_ctrlr",
        "dram.chips_per_channel",
        positive,
        |c, v| c.dram.chips_per_channel = v,
    )?;
    m.scalar(
        "-gpgpu_dram_buswidth",
        "dram.bus_bytes_per_chip",
        positive,
        |c, v| c.dram.bus_bytes_per_chip = v,
    )?;
    m.scalar(
        "-gpgpu_dram_burst_length",
        "dram.burst_length",
        positive,
        |c, v| c.dram.burst_length = v,
    )?;
    m.scalar(
        "-dram_data_command_freq_ratio",
        "dram.data_cmd_ratio",
        positive,
        |c, v| c.dram.data_cmd_ratio = v,
    )?;
    if let Some((i, o)) = m.take("-gpgpu_dram_timing_opt") {
        let t = fields::dram_timing(&o)?;
        m.cfg.dram.n_banks = t.n_banks;
        m.cfg.dram.n_bank_groups = t.n_bank_groups;
        m.cfg.dram.timing = t.timing;
        // GPGPU-Sim spaces column commands by tCCD per channel and tCCDL per bank group
        // (dram.cc), whatever the number of groups.
        m.cfg.dram.column_timing = crate::config::DramColumnTiming::BankGroups;
        m.record(
            (i, &o),
            &[
                "dram.n_banks",
                "dram.n_bank_groups",
                "dram.timing",
                "dram.column_timing",
            ],
            "",
        );
    }
    if let Some((i, o)) = m.take("-dram_bnkgrp_indexing_policy") {
        let index = match uint(&o)? {
            0 => crate::config::BankGroupIndex::HighBits,
            1 => crate::config::BankGroupIndex::LowBits,
            _ => {
                return Err(bad_value(
                    &o,
                    "unknown bank-group indexing policy",
                    "0 (higher bits), 1 (lower bits)",
                ))
            }
        };
        if m.cfg.dram.column_timing == crate::config::DramColumnTiming::BankGroups {
            m.cfg.dram.bank_group_index = index;
            m.record((i, &o), &["dram.bank_group_index"], "");
        } else {
            m.record(
                (i, &o),
                &[],
                "no -gpgpu_dram_timing_opt: the base preset's per-bank column spacing has no \
                 bank groups",
            );
        }
    }
    if let Some((i, o)) = m.take("-gpgpu_dram_scheduler") {
        m.cfg.dram.scheduler = match uint(&o)? {
            0 => crate::config::DramScheduler::Fifo,
            1 => crate::config::DramScheduler::Frfcfs,
            _ => {
                return Err(bad_value(
                    &o,
                    "unknown DRAM scheduler",
                    "0 (FIFO), 1 (FR-FCFS)",
                ))
            }
        };
        m.record((i, &o), &["dram.scheduler"], "");
    }
    for (name, key) in [
        ("-gpgpu_frfcfs_dram_sched_queue_size", "dram.sched_queue"),
        ("-gpgpu_dram_return_queue_size", "dram.return_queue"),
    ] {
        if let Some((i, o)) = m.take(name) {
            let v = uint(&o)?;
            if v == 0 {
                return Err(bad_value(
                    &o,
                    "an unlimited queue is not modelled",
                    "1 or more",
                ));
            }
            if key == "dram.sched_queue" {
                m.cfg.dram.sched_queue = v;
            } else {
                m.cfg.dram.return_queue = v;
            }
            m.record((i, &o), &[key], "");
        }
    }
    m.scalar("-dram_latency", "dram.latency", uint, |c, v| {
        c.dram.latency = v
    })?;
    m.must_be(
        "-gpgpu_simple_dram_model",
        false,
        "bank-timing DRAM model, as simulated",
        "a fixed-latency DRAM is not modelled",
    )?;
    m.scalar("-icnt_flit_size", "icnt.flit_bytes", positive, |c, v| {
        c.icnt.flit_bytes = v
    })?;
    m.scalar(
        "-gpgpu_n_cluster_ejection_buffer_size",
        "icnt.ejection_buffer",
        positive,
        |c, v| c.icnt.ejection_buffer = v,
    )?;
    m.scalar(
        "-icnt_in_buffer_limit",
        "icnt.in_buffer_flits",
        positive,
        |c, v| c.icnt.in_buffer_flits = v,
    )
}
