//! Loading configurations: embedded presets, user files that override a preset key by key, and
//! error messages that name the file and the line.

use super::schema::{GpuConfig, SchedPolicy};
use crate::SimError;

/// Preset names, in the order `gpuenergy presets` lists them.
pub const PRESET_NAMES: [&str; 5] = [
    "gtx480",
    "gtx780",
    "gtx1080ti",
    "gf8800gtx_like",
    "vortex_like",
];

/// The embedded preset files `(name, TOML text)`.
pub const PRESETS: [(&str, &str); 5] = [
    ("gtx480", include_str!("../../presets/gtx480.toml")),
    ("gtx780", include_str!("../../presets/gtx780.toml")),
    ("gtx1080ti", include_str!("../../presets/gtx1080ti.toml")),
    (
        "gf8800gtx_like",
        include_str!("../../presets/gf8800gtx_like.toml"),
    ),
    (
        "vortex_like",
        include_str!("../../presets/vortex_like.toml"),
    ),
];

/// Schema keys that no model reads, with what the model does instead. The simulator and the
/// energy models behave the same under every value of such a key, so a configuration may carry
/// only a value one of the presets carries (that is what the presets were checked with); any
/// other value is refused by [`GpuConfig::validate`] naming the key, its value and the values
/// honoured, rather than silently ignored. A key read by a model must not appear here
/// (`sim/tests/config_keys_audit.rs` lists every schema key as read or refused).
pub const UNREAD_KEYS: &[(&str, &str)] = &[
    (
        "reconv.call_entries",
        "the PTX subset has no call instruction, so no CALL or RET ever reaches the stack \
         (SimtStack::call and SimtStack::ret implement both settings)",
    ),
    (
        "sim.seed",
        "no component draws random numbers: results are deterministic without a seed",
    ),
    (
        "sim.frontend",
        "the command chooses the front end (`simulate --trace DIR` reads traces, otherwise PTX)",
    ),
    (
        "sim.trace_path",
        "trace directories are named on the command line (`--trace DIR`)",
    ),
    (
        "sm.max_barriers_per_cta",
        "barrier ids are not counted against a per-CTA limit",
    ),
    (
        "latency.trace.int",
        "trace instructions take the latency of their class in [latency.int]",
    ),
    (
        "latency.trace.sp",
        "trace instructions take the latency of their class in [latency.fp]",
    ),
    (
        "latency.trace.dp",
        "trace instructions take the latency of their class in [latency.dp]",
    ),
    (
        "latency.trace.sfu",
        "trace MUFU instructions take `latency.sfu`",
    ),
    (
        "latency.trace.fp16_ii_halved",
        "FP16 pair instructions take the initiation interval of their class",
    ),
    (
        "icnt.in_buffer_flits",
        "the crossbar has no input-buffer limit (fixed latency plus flit serialisation)",
    ),
    (
        "icnt.ejection_buffer",
        "the crossbar has no ejection-buffer limit",
    ),
    (
        "dram.model",
        "one DRAM timing model (bank and bus timing) is simulated",
    ),
    (
        "dram.n_bank_groups",
        "bank groups are not modelled: tCCDL spaces the column commands of one bank",
    ),
    (
        "dram.scheduler",
        "requests are served in the order they arrive (FR-FCFS reordering is not modelled)",
    ),
    ("dram.return_queue", "the DRAM reply queue has no limit"),
    (
        "dram.timing.ccd",
        "column spacing between banks is not modelled (tCCDL spaces one bank's columns)",
    ),
    (
        "dram.timing.rtpl",
        "read-to-precharge spacing is not modelled",
    ),
    (
        "trace.max_cta_buffer_mb",
        "a compressed trace is always decompressed to a spill file",
    ),
    (
        "icache.write_policy",
        "the instruction cache is never written",
    ),
    (
        "icache.alloc",
        "an instruction-cache line is allocated when its fill returns",
    ),
    (
        "icache.write_alloc",
        "the instruction cache is never written",
    ),
    (
        "icache.mshr_entries",
        "instruction-cache misses merge per line with no MSHR limit",
    ),
    (
        "icache.mshr_merge",
        "instruction-cache misses merge per line with no MSHR limit",
    ),
    (
        "icache.miss_queue",
        "instruction-cache misses go to the L2 with no queue limit",
    ),
    (
        "icache.latency",
        "an instruction-cache hit delivers in the fetch cycle",
    ),
    (
        "l1d.write_alloc",
        "writes follow `l1d.write_policy` and never allocate",
    ),
    (
        "l1d.miss_queue",
        "L1D misses go to the interconnect with no queue limit",
    ),
    (
        "const_cache.write_policy",
        "the constant cache is never written",
    ),
    (
        "const_cache.alloc",
        "a constant-cache line is allocated when its fill returns",
    ),
    (
        "const_cache.write_alloc",
        "the constant cache is never written",
    ),
    (
        "const_cache.miss_queue",
        "constant-cache misses go to the interconnect with no queue limit",
    ),
    (
        "tex_cache.sector_bytes",
        "texture fetches are not timed; only the cache geometry enters the area and energy models",
    ),
    ("tex_cache.replacement", "texture fetches are not timed"),
    ("tex_cache.write_policy", "texture fetches are not timed"),
    ("tex_cache.alloc", "texture fetches are not timed"),
    ("tex_cache.write_alloc", "texture fetches are not timed"),
    ("tex_cache.set_index", "texture fetches are not timed"),
    ("tex_cache.mshr_entries", "texture fetches are not timed"),
    ("tex_cache.mshr_merge", "texture fetches are not timed"),
    ("tex_cache.miss_queue", "texture fetches are not timed"),
    ("tex_cache.latency", "texture fetches are not timed"),
    ("l2.write_policy", "the L2 is modelled as write-back"),
    ("l2.alloc", "L2 misses are timed without MSHR allocation"),
    (
        "l2.write_alloc",
        "L2 writes are modelled as write-back without write allocation",
    ),
    (
        "l2.mshr_entries",
        "L2 misses are timed without an MSHR limit",
    ),
    ("l2.mshr_merge", "L2 misses are timed without an MSHR limit"),
    ("l2.miss_queue", "L2 misses go to DRAM with no queue limit"),
];

/// The values the presets carry for the dotted key `key`, as TOML values (read from the preset
/// texts themselves, so checking them never loads a preset through [`GpuConfig::validate`]).
fn preset_values(presets: &[toml::Table], key: &str) -> Vec<toml::Value> {
    let path: Vec<String> = key.split('.').map(str::to_string).collect();
    let mut out: Vec<toml::Value> = Vec::new();
    for t in presets {
        if let Some(v) = get_path(t, &path) {
            if !out.contains(v) {
                out.push(v.clone());
            }
        }
    }
    out
}

/// Refusals for [`UNREAD_KEYS`] carrying a value no preset carries.
fn unread_key_errors(cfg: &GpuConfig) -> Vec<String> {
    let t = toml::Table::try_from(cfg).expect("config serialises");
    let presets: Vec<toml::Table> = PRESETS
        .iter()
        .map(|(_, text)| toml::from_str(text).expect("embedded preset is TOML"))
        .collect();
    let mut bad = Vec::new();
    for (key, why) in UNREAD_KEYS {
        let path: Vec<String> = key.split('.').map(str::to_string).collect();
        let Some(v) = get_path(&t, &path) else {
            continue;
        };
        let honoured = preset_values(&presets, key);
        if !honoured.contains(v) {
            let list: Vec<String> = honoured.iter().map(|h| h.to_string()).collect();
            bad.push(format!(
                "'{key}' = {v}: not modelled ({why}); only the preset value{} {} {} honoured",
                if list.len() == 1 { "" } else { "s" },
                list.join(" or "),
                if list.len() == 1 { "is" } else { "are" },
            ));
        }
    }
    bad
}

/// Sets every [`UNREAD_KEYS`] key of `cfg` that carries a value no preset carries back to its
/// value in `base`; returns `(key, why it is not modelled)` for each key reset. The GPGPU-Sim
/// importer uses this so that an imported option behind an unread key is reported as not
/// modelled instead of making the configuration unloadable.
pub(crate) fn reset_unread_keys(cfg: &mut GpuConfig, base: &GpuConfig) -> Vec<(String, String)> {
    let mut t = toml::Table::try_from(&*cfg).expect("config serialises");
    let bt = toml::Table::try_from(base).expect("config serialises");
    let presets: Vec<toml::Table> = PRESETS
        .iter()
        .map(|(_, text)| toml::from_str(text).expect("embedded preset is TOML"))
        .collect();
    let mut reset = Vec::new();
    for (key, why) in UNREAD_KEYS {
        let path: Vec<String> = key.split('.').map(str::to_string).collect();
        let (Some(v), Some(bv)) = (get_path(&t, &path), get_path(&bt, &path)) else {
            continue;
        };
        if !preset_values(&presets, key).contains(v) {
            let bv = bv.clone();
            set_path(&mut t, &path, bv);
            reset.push((key.to_string(), why.to_string()));
        }
    }
    if !reset.is_empty() {
        *cfg = toml::Value::Table(t)
            .try_into()
            .expect("base values deserialise");
    }
    reset
}

/// `cfg` as a TOML table with every schema key, including the tables that are not serialised
/// while they hold their defaults (`[pg]`, `[sched.gates]`, `[fold]`, `[origami]`, `[physical]`,
/// `[prf]`, `[afrf]`, `[mrf]`, `[rfc]`, `[tric]`, `[coma]`, `[energy]`, `[metrics]`,
/// `rf.latency`),
/// so that a user file or `--set` may override
/// their keys on a base preset.
fn schema_table(cfg: &GpuConfig) -> toml::Table {
    let mut t = toml::Table::try_from(cfg).expect("config serialises");
    t.entry("pg").or_insert_with(|| {
        toml::Value::Table(toml::Table::try_from(&cfg.pg).expect("pg serialises"))
    });
    t.entry("fold").or_insert_with(|| {
        toml::Value::Table(toml::Table::try_from(&cfg.fold).expect("fold serialises"))
    });
    t.entry("origami").or_insert_with(|| {
        toml::Value::Table(toml::Table::try_from(&cfg.origami).expect("origami serialises"))
    });
    t.entry("physical").or_insert_with(|| {
        toml::Value::Table(toml::Table::try_from(&cfg.physical).expect("physical serialises"))
    });
    for (name, table) in [
        ("prf", toml::Table::try_from(&cfg.prf)),
        ("afrf", toml::Table::try_from(&cfg.afrf)),
        ("mrf", toml::Table::try_from(&cfg.mrf)),
        ("rfc", toml::Table::try_from(&cfg.rfc)),
    ] {
        t.entry(name)
            .or_insert_with(|| toml::Value::Table(table.expect("section serialises")));
    }
    t.entry("tric").or_insert_with(|| {
        toml::Value::Table(toml::Table::try_from(&cfg.tric).expect("tric serialises"))
    });
    t.entry("coma").or_insert_with(|| {
        toml::Value::Table(toml::Table::try_from(&cfg.coma).expect("coma serialises"))
    });
    t.entry("energy").or_insert_with(|| {
        toml::Value::Table(toml::Table::try_from(&cfg.energy).expect("energy serialises"))
    });
    t.entry("metrics").or_insert_with(|| {
        toml::Value::Table(toml::Table::try_from(&cfg.metrics).expect("metrics serialises"))
    });
    {
        // The DWF scheduler keys are skipped at their defaults; write them all.
        let d = &cfg.dwf;
        let e = t.entry("dwf").or_insert_with(|| {
            toml::Value::Table(toml::Table::try_from(d).expect("dwf serialises"))
        });
        if let toml::Value::Table(dt) = e {
            for (k, x) in [
                (
                    "policy",
                    toml::Value::try_from(d.policy).expect("serialises"),
                ),
                ("lane_aware", toml::Value::Boolean(d.lane_aware)),
                ("swizzle", toml::Value::Boolean(d.swizzle)),
                (
                    "infinite_resources",
                    toml::Value::Boolean(d.infinite_resources),
                ),
            ] {
                dt.entry(k).or_insert(x);
            }
        }
    }
    t.entry("opt").or_insert_with(|| {
        toml::Value::Table(toml::Table::try_from(&cfg.opt).expect("opt serialises"))
    });
    {
        // Every reconv key is skipped at its default; write them all.
        let r = &cfg.reconv;
        let v = |x: Result<toml::Value, toml::ser::Error>| x.expect("serialises");
        let e = t
            .entry("reconv")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if let toml::Value::Table(rt) = e {
            for (k, x) in [
                ("mode", v(toml::Value::try_from(r.mode))),
                (
                    "stack_update_at",
                    v(toml::Value::try_from(r.stack_update_at)),
                ),
                ("issue_flush", toml::Value::Boolean(r.issue_flush)),
                ("max_depth", toml::Value::Integer(r.max_depth as i64)),
                ("push_order", v(toml::Value::try_from(r.push_order))),
                ("call_entries", toml::Value::Boolean(r.call_entries)),
                ("counters", toml::Value::Boolean(r.counters)),
            ] {
                rt.entry(k).or_insert(x);
            }
        }
    }
    if let Some(toml::Value::Table(rf)) = t.get_mut("rf") {
        rf.entry("latency")
            .or_insert_with(|| toml::Value::Integer(cfg.rf.latency as i64));
    }
    if let Some(toml::Value::Table(sched)) = t.get_mut("sched") {
        sched.entry("gates").or_insert_with(|| {
            toml::Value::Table(toml::Table::try_from(&cfg.sched.gates).expect("serialises"))
        });
        if let Some(toml::Value::Table(ooo)) = sched.get_mut("ooo") {
            let o = &cfg.sched.ooo;
            let v = |x: Result<toml::Value, toml::ser::Error>| x.expect("serialises");
            for (k, x) in [
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
            ] {
                ooo.entry(k).or_insert(x);
            }
        }
    }
    t
}

fn preset_text(name: &str) -> Option<&'static str> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

fn cfg_err(file: &str, msg: impl Into<String>) -> SimError {
    SimError::Config {
        file: file.to_string(),
        msg: msg.into(),
    }
}

/// 1-based line of byte offset `pos` in `text`.
fn line_of(text: &str, pos: usize) -> usize {
    text[..pos.min(text.len())].matches('\n').count() + 1
}

/// Best-effort line of the key `path` (dotted, e.g. `sched.two_level.inner`) in a TOML text:
/// tracks `[table]` headers and matches `key =` lines, dotted keys and inline-table keys.
fn find_key_line(text: &str, path: &[String]) -> Option<usize> {
    let mut table: Vec<String> = Vec::new();
    let last = path.last()?;
    let mut fallback = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') && !line.starts_with("[[") {
            let inner = line.trim_start_matches('[').trim_end_matches(']');
            table = inner.split('.').map(|s| s.trim().to_string()).collect();
            if table == path {
                return Some(i + 1);
            }
            continue;
        }
        let Some((key, _)) = line.split_once('=') else {
            continue;
        };
        let mut full = table.clone();
        full.extend(key.split('.').map(|s| s.trim().to_string()));
        if full == path {
            return Some(i + 1);
        }
        // An inline table on this line (e.g. `int = { add = [4, 1] }`) or a deeper key.
        if path.starts_with(&full) && line.contains(&format!("{last} ")) {
            return Some(i + 1);
        }
        if path.starts_with(&full) && fallback.is_none() {
            fallback = Some(i + 1);
        }
        if path.starts_with(&table) && !table.is_empty() && fallback.is_none() {
            fallback = None;
        }
    }
    fallback
}

/// Overlays `user` onto `base` key by key. Every user key must exist in `base` (same schema);
/// tables merge recursively, every other value replaces the base value. Returns the dotted path
/// of the first unknown key.
fn merge(base: &mut toml::Table, user: &toml::Table, path: &mut Vec<String>) -> Result<(), String> {
    for (k, v) in user {
        path.push(k.clone());
        match base.get_mut(k) {
            None => return Err(path.join(".")),
            Some(toml::Value::Table(bt)) => match v {
                toml::Value::Table(ut) => merge(bt, ut, path)?,
                _ => {
                    // A table replaced by a scalar: let deserialisation report the type.
                    base.insert(k.clone(), v.clone());
                }
            },
            Some(slot) => *slot = v.clone(),
        }
        path.pop();
    }
    Ok(())
}

impl GpuConfig {
    /// Names of the built-in presets.
    pub fn preset_names() -> &'static [&'static str] {
        &PRESET_NAMES
    }

    /// A built-in preset by name (`gtx480`, `gtx780`, `gtx1080ti`, `gf8800gtx_like`,
    /// `vortex_like`; the spec's `*_like` names, `gf8800gtx`, `vortex` and `kepler_ch6` are
    /// accepted as aliases; `gtx480_tl` is gtx480 with the two-level scheduler).
    pub fn preset(name: &str) -> Result<GpuConfig, SimError> {
        let (canon, two_level) = match name {
            "gtx480" | "gtx480_like" => ("gtx480", false),
            "gtx480_tl" => ("gtx480", true),
            "gtx780" | "gtx780_like" | "kepler_ch6" => ("gtx780", false),
            "gtx1080ti" | "gtx1080ti_like" => ("gtx1080ti", false),
            "gf8800gtx_like" | "gf8800gtx" => ("gf8800gtx_like", false),
            "vortex_like" | "vortex" => ("vortex_like", false),
            _ => {
                return Err(cfg_err(
                    name,
                    format!(
                        "unknown preset '{name}' (expected one of {})",
                        PRESET_NAMES.join(", ")
                    ),
                ))
            }
        };
        let text = preset_text(canon).expect("embedded preset");
        let file = format!("<preset {canon}>");
        let mut cfg = Self::parse_full(text, &file)?;
        if two_level {
            cfg.sched.policy = SchedPolicy::TwoLevel;
        }
        Ok(cfg)
    }

    /// Reads a configuration file: either a full file of the schema, or a file with
    /// `base = "<preset>"` at the top whose keys override that preset one by one.
    pub fn from_toml_file(path: &std::path::Path) -> Result<GpuConfig, SimError> {
        let text = std::fs::read_to_string(path).map_err(|e| SimError::Io {
            path: path.display().to_string(),
            source: e,
        })?;
        Self::from_toml_str(&text, &path.display().to_string())
    }

    /// As [`GpuConfig::from_toml_file`] for text already in memory; `file` names it in errors.
    pub fn from_toml_str(text: &str, file: &str) -> Result<GpuConfig, SimError> {
        let user: toml::Table = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
            cfg_err(file, format!("line {line}: {}", e.message()))
        })?;
        let Some(base) = user.get("base") else {
            return Self::parse_full(text, file);
        };
        let base_line = find_key_line(text, &["base".to_string()]).unwrap_or(1);
        let Some(base_name) = base.as_str() else {
            return Err(cfg_err(
                file,
                format!("line {base_line}: 'base' must be a preset name string"),
            ));
        };
        let base_cfg = Self::preset(base_name).map_err(|_| {
            cfg_err(
                file,
                format!(
                    "line {base_line}: unknown base preset '{base_name}' (expected one of {})",
                    PRESET_NAMES.join(", ")
                ),
            )
        })?;
        let mut merged = schema_table(&base_cfg);
        let mut overlay = user.clone();
        overlay.remove("base");
        let mut path = Vec::new();
        if let Err(key) = merge(&mut merged, &overlay, &mut path) {
            let parts: Vec<String> = key.split('.').map(str::to_string).collect();
            let line = find_key_line(text, &parts).unwrap_or(0);
            return Err(cfg_err(
                file,
                format!("line {line}: unknown key '{key}' (not in the configuration schema)"),
            ));
        }
        let base_table = schema_table(&base_cfg);
        let cfg: GpuConfig =
            toml::Value::Table(merged)
                .try_into()
                .map_err(|e: toml::de::Error| {
                    let (key, msg) = first_bad_key(&base_table, &overlay)
                        .unwrap_or_else(|| (String::new(), e.message().to_string()));
                    let parts: Vec<String> = key.split('.').map(str::to_string).collect();
                    let line = find_key_line(text, &parts).unwrap_or(0);
                    cfg_err(file, format!("line {line}: '{key}': {msg}"))
                })?;
        cfg.validate(file)?;
        Ok(cfg)
    }

    fn parse_full(text: &str, file: &str) -> Result<GpuConfig, SimError> {
        let cfg: GpuConfig = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(0);
            cfg_err(file, format!("line {line}: {}", e.message()))
        })?;
        cfg.validate(file)?;
        Ok(cfg)
    }

    /// This configuration with single keys overridden, as the command line's `--set key=value`
    /// and named techniques give them: each `(dotted key, value)` pair replaces one schema key.
    /// A value is read as a TOML value (`14`, `true`, `0.7`, `"Gt"`, `[4, 1]`) and, when it is
    /// not one, as a bare string (`pg.policy=Conventional`). `origin` names where the pairs come
    /// from in errors (e.g. `--set`). Unknown keys, values of the wrong type and values the
    /// model refuses are errors naming the key; the result is validated like a loaded file.
    pub fn with_overrides(
        &self,
        pairs: &[(String, String)],
        origin: &str,
    ) -> Result<GpuConfig, SimError> {
        if pairs.is_empty() {
            return Ok(self.clone());
        }
        let base = schema_table(self);
        let mut merged = base.clone();
        let mut overlay = toml::Table::new();
        for (key, raw) in pairs {
            let path: Vec<String> = key.split('.').map(|s| s.trim().to_string()).collect();
            if key.trim().is_empty() || path.iter().any(|p| p.is_empty()) {
                return Err(cfg_err(
                    origin,
                    format!("'{key}': expected a dotted key such as pg.bet"),
                ));
            }
            let value = parse_override_value(raw);
            let mut one = toml::Table::new();
            set_path_creating(&mut one, &path, value.clone());
            if let Err(k) = merge(&mut merged, &one, &mut Vec::new()) {
                return Err(cfg_err(
                    origin,
                    format!("'{k}': unknown key (not in the configuration schema; see `gpuenergy presets --dump gtx480`)"),
                ));
            }
            set_path_creating(&mut overlay, &path, value);
        }
        let cfg: GpuConfig =
            toml::Value::Table(merged)
                .try_into()
                .map_err(|e: toml::de::Error| {
                    let (key, msg) = first_bad_key(&base, &overlay)
                        .unwrap_or_else(|| (String::new(), e.message().to_string()));
                    cfg_err(origin, format!("'{key}': {msg}"))
                })?;
        cfg.validate(origin)?;
        Ok(cfg)
    }

    /// The resolved configuration as TOML: every key, except the tables that hold all their
    /// defaults and are written only when set (`[pg]`, `[sched.gates]`, `[fold]`, `[origami]`,
    /// `[physical]`, `[prf]`, `[afrf]`, `[mrf]`, `[rfc]`), so that the text, and the hash of every output, of a configuration
    /// without them does not change when such a table is added to the schema.
    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).expect("config serialises")
    }

    /// The resolved configuration as a full TOML file with every schema key, the default-only
    /// tables included (what `gpuenergy presets --dump` prints, so that every knob is seen).
    pub fn to_full_toml_string(&self) -> String {
        toml::to_string(&schema_table(self)).expect("config serialises")
    }

    /// FNV-1a-64 of the resolved TOML text: the config hash stored in every output.
    pub fn hash_hex(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.to_toml_string().bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{h:016x}")
    }

    /// Checks the values the timing model relies on (non-zero counts, powers of two).
    pub fn validate(&self, file: &str) -> Result<(), SimError> {
        let mut bad = Vec::new();
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
        bad.extend(self.fold_errors());
        self.physical.check(&mut bad);
        bad.extend(self.prf_errors());
        // Keys the spec defines whose non-baseline values this simulator does not model yet:
        // refused rather than silently ignored.
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
        if self.stats.output != super::schema::StatsOutput::Json {
            bad.push("'stats.output': only \"json\" is implemented".into());
        }
        bad.extend(self.ooo_errors());
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
        self.pg.check(&mut bad);
        if !(1..=64).contains(&self.rf.latency) {
            bad.push(format!(
                "'rf.latency' = {}: must be in 1..=64 cycles",
                self.rf.latency
            ));
        }
        self.tric.check(&mut bad);
        self.coma.check(&mut bad);
        self.energy.check(&mut bad);
        self.metrics.check(&mut bad);
        self.opt.check(&mut bad);
        self.reconv.check(&mut bad);
        self.dwf.check(self.gpu.warp_size, &mut bad);
        if self.reconv.stack_update_at != super::reconv::StackUpdateAt::Fetch
            && self.sched.ooo.mode != super::schema::OooMode::None
        {
            bad.push(
                "'reconv.stack_update_at' other than \"fetch\" is modelled on the in-order issue \
                 path only (the out-of-order issue stage keeps its own fetch rule)"
                    .into(),
            );
        }
        if self.reconv.mode != super::reconv::ReconvMode::Pdom
            && self.sched.ooo.mode != super::schema::OooMode::None
        {
            bad.push(format!(
                "'reconv.mode' = \"{}\" runs on the reference-mode model, which has no \
                 out-of-order issue stage (sched.ooo.mode must be \"none\")",
                self.reconv.mode.as_str()
            ));
        }
        if self.reconv.counters && self.sched.ooo.mode != super::schema::OooMode::None {
            bad.push(
                "'reconv.counters' = true: the SIMD-efficiency counters are kept by the in-order \
                 issue path only (sched.ooo.mode must be \"none\")"
                    .into(),
            );
        }
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
}

/// Leaf key paths of a TOML table (tables recurse; arrays and scalars are leaves).
fn leaf_paths(t: &toml::Table, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    for (k, v) in t {
        prefix.push(k.clone());
        match v {
            toml::Value::Table(sub) => leaf_paths(sub, prefix, out),
            _ => out.push(prefix.clone()),
        }
        prefix.pop();
    }
}

fn get_path<'a>(t: &'a toml::Table, path: &[String]) -> Option<&'a toml::Value> {
    let (first, rest) = path.split_first()?;
    let v = t.get(first)?;
    if rest.is_empty() {
        Some(v)
    } else {
        get_path(v.as_table()?, rest)
    }
}

fn set_path(t: &mut toml::Table, path: &[String], v: toml::Value) {
    let (first, rest) = path.split_first().expect("non-empty path");
    if rest.is_empty() {
        t.insert(first.clone(), v);
    } else if let Some(toml::Value::Table(sub)) = t.get_mut(first) {
        set_path(sub, rest, v);
    }
}

/// Reads one `--set` value: a TOML value when it parses as one, else the text as a string.
fn parse_override_value(raw: &str) -> toml::Value {
    let raw = raw.trim();
    match toml::from_str::<toml::Table>(&format!("v = {raw}")) {
        Ok(mut t) => t
            .remove("v")
            .unwrap_or_else(|| toml::Value::String(raw.to_string())),
        Err(_) => toml::Value::String(raw.to_string()),
    }
}

/// Sets the dotted `path` in `t`, creating the tables on the way.
fn set_path_creating(t: &mut toml::Table, path: &[String], v: toml::Value) {
    let (first, rest) = path.split_first().expect("non-empty path");
    if rest.is_empty() {
        t.insert(first.clone(), v);
        return;
    }
    let sub = t
        .entry(first.clone())
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    if !sub.is_table() {
        *sub = toml::Value::Table(toml::Table::new());
    }
    if let toml::Value::Table(sub) = sub {
        set_path_creating(sub, rest, v);
    }
}

/// The first user key (dotted) that alone makes the base configuration fail to deserialise,
/// with the error message: locates type errors that serde reports without a key.
fn first_bad_key(base: &toml::Table, user: &toml::Table) -> Option<(String, String)> {
    let mut leaves = Vec::new();
    leaf_paths(user, &mut Vec::new(), &mut leaves);
    for p in leaves {
        let mut one = base.clone();
        set_path(&mut one, &p, get_path(user, &p)?.clone());
        if let Err(e) = toml::Value::Table(one).try_into::<GpuConfig>() {
            return Some((p.join("."), e.message().to_string()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_replace_single_keys() {
        let base = GpuConfig::preset("gtx480").unwrap();
        let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let c = base
            .with_overrides(
                &pairs(&[
                    ("sched.policy", "lrr"),
                    ("gpu.n_sm", "4"),
                    ("units.sp_lanes", "8"),
                ]),
                "--set",
            )
            .unwrap();
        assert_eq!(c.sched.policy, SchedPolicy::Lrr);
        assert_eq!(c.gpu.n_sm, 4);
        assert_eq!(c.units.sp_lanes, 8);
        // untouched keys keep their values, and no pair gives the same configuration
        assert_eq!(c.l1d, base.l1d);
        assert_eq!(base.with_overrides(&[], "--set").unwrap(), base);
        // a quoted string and a bare one read the same
        let q = base
            .with_overrides(&pairs(&[("sched.policy", "\"lrr\"")]), "--set")
            .unwrap();
        assert_eq!(q.sched.policy, SchedPolicy::Lrr);
    }

    #[test]
    fn overrides_name_the_bad_key() {
        let base = GpuConfig::preset("gtx480").unwrap();
        let bad = |k: &str, v: &str| {
            base.with_overrides(&[(k.to_string(), v.to_string())], "--set")
                .unwrap_err()
                .to_string()
        };
        let e = bad("sched.polcy", "lrr");
        assert!(
            e.contains("--set") && e.contains("sched.polcy") && e.contains("unknown key"),
            "{e}"
        );
        let e = bad("gpu.n_sm", "many");
        assert!(e.contains("gpu.n_sm"), "{e}");
        let e = bad("gpu.n_sm", "0");
        assert!(e.contains("gpu.n_sm") && e.contains("positive"), "{e}");
        let e = bad("sched.policy", "fastest");
        assert!(e.contains("sched.policy") && e.contains("expected"), "{e}");
        let e = bad("", "1");
        assert!(e.contains("dotted key"), "{e}");
    }

    #[test]
    fn presets_parse_and_validate() {
        for n in PRESET_NAMES {
            let c = GpuConfig::preset(n).unwrap();
            assert_eq!(c.gpu.name, n);
        }
    }

    #[test]
    fn key_line_finder() {
        let t = "base = \"gtx480\"\n[sched]\npolicy = \"lrr\"\n[sched.two_level]\nfoo = 1\n";
        let p: Vec<String> = ["sched", "two_level", "foo"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(find_key_line(t, &p), Some(5));
    }
}
