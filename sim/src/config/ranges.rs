//! The physical range of every numeric configuration key.
//!
//! Each key of the machine description has a range a real GPU (or a deliberately extreme
//! design study) lies in: clocks from 1 MHz to 100 GHz (the logic-depth check of the costing
//! refuses clocks the node's gates cannot reach), unit counts up to a few hundred,
//! latencies up to 10^4–10^6 cycles. A value outside its range is refused with the key, the
//! value, the range and its unit, whether it comes from a preset, `--config`, `--set` or
//! `presets --import`: one table serves all of them, through [`GpuConfig::validate`]. The
//! bounds also keep every derived quantity (cycle counts, per-SM arrays, table sizes) inside
//! the integer types the timing model counts in, so that no value the check accepts can
//! exhaust memory or wrap a counter.
//!
//! The section checks (`pg.check`, `physical.check`, …) keep their finer rules (combinations,
//! powers of two, the literature range of a technique's parameter); this table is the outer
//! bound every key has. `tests` checks that every numeric key of every preset's full schema has
//! an entry, so a new key cannot go unbounded.

use crate::config::schema::GpuConfig;
use crate::config::technique::SECTIONS;

/// One bound: a key pattern, the smallest and largest allowed value, and the unit the message
/// names. A pattern is a dotted key, `prefix.*` (every key below the prefix) or `*.suffix`
/// (every key ending in the suffix); the first matching entry applies. An array key's
/// elements are each checked against the entry.
pub(crate) struct Range {
    pub(crate) key: &'static str,
    lo: f64,
    hi: f64,
    unit: &'static str,
}

/// A [`Range`] entry.
pub(crate) const fn r(key: &'static str, lo: f64, hi: f64, unit: &'static str) -> Range {
    Range { key, lo, hi, unit }
}

/// Largest cycle count a latency key may take (10^6 cycles: a millisecond at 1 GHz).
pub(crate) const MAX_LATENCY_CYCLES: f64 = 1e6;
/// Largest count of a queue, table or buffer (entries).
const MAX_ENTRIES: f64 = 1_048_576.0;

/// The table, most specific entries first; the registered technique sections' own entries
/// (`config::technique::SECTIONS`) follow it.
const RANGES: &[Range] = &[
    // Clocks.
    r("gpu.core_mhz", 1.0, 100_000.0, "MHz"),
    r("gpu.icnt_mhz", 1.0, 100_000.0, "MHz"),
    r("gpu.l2_mhz", 1.0, 100_000.0, "MHz"),
    r("gpu.dram_mhz", 1.0, 100_000.0, "MHz"),
    r("gpu.n_sm", 1.0, 4096.0, "SMs"),
    r("gpu.warp_size", 32.0, 32.0, "threads"),
    r("gpu.kernel_launch_latency", 0.0, 1e7, "cycles"),
    r("gpu.cta_launch_latency", 0.0, 1e7, "cycles"),
    // The SM's resources.
    r("sm.max_threads", 1.0, 8192.0, "threads"),
    r("sm.max_warps", 1.0, 256.0, "warps"),
    r("sm.max_ctas", 1.0, 256.0, "CTAs"),
    r("sm.max_barriers_per_cta", 1.0, 64.0, "barriers"),
    r("sm.n_registers", 1.0, 1_048_576.0, "32-bit registers"),
    r("sm.reg_alloc_granularity", 1.0, 1024.0, "registers"),
    r("sm.n_subcores", 1.0, 16.0, "sub-cores"),
    r("sm.shmem_bytes", 0.0, 16_777_216.0, "bytes"),
    r("sm.shmem_per_cta", 0.0, 16_777_216.0, "bytes"),
    r("l1d.unified_kb", 0.0, 16_384.0, "KB"),
    r("shmem.carveout_kb", 0.0, 16_384.0, "KB"),
    r("frontend.*", 1.0, 64.0, "instructions"),
    r("sched.fetch_group_size", 1.0, 256.0, "warps"),
    r("sched.issue_per_sched", 1.0, 16.0, "instructions per cycle"),
    r(
        "sched.max_issue_per_warp",
        1.0,
        16.0,
        "instructions per cycle",
    ),
    r("sched.n_per_sm", 1.0, 64.0, "schedulers"),
    r("sched.two_level.active_per_sched", 1.0, 256.0, "warps"),
    r("sched.gates.max_hp_hold", 0.0, MAX_LATENCY_CYCLES, "cycles"),
    r("rf.n_banks", 1.0, 256.0, "banks"),
    r("rf.ports_per_bank", 1.0, 16.0, "ports"),
    r("rf.entry_bytes", 1.0, 4096.0, "bytes"),
    r("rf.latency", 1.0, 64.0, "cycles"),
    r("opcoll.*", 0.0, 256.0, "(count)"),
    r("units.n_sp", 1.0, 64.0, "units"),
    r("units.n_ldst", 1.0, 64.0, "units"),
    r("units.n_*", 0.0, 64.0, "units"),
    r(
        "units.tensor_macs_per_cycle",
        1.0,
        65_536.0,
        "multiply-accumulates per cycle",
    ),
    r("units.*_lanes", 1.0, 32.0, "lanes"),
    r("units.width.ex_wb", 1.0, 256.0, "results per cycle"),
    r("units.width.*", 0.0, 256.0, "instructions per cycle"),
    // [latency, initiation interval] pairs: a result needs at least a cycle, and a unit
    // accepts at most one instruction per cycle.
    r("latency.*", 1.0, MAX_LATENCY_CYCLES, "cycles"),
    r(
        "compat.unlisted_opcode_latency",
        0.0,
        MAX_LATENCY_CYCLES,
        "cycles",
    ),
    // Caches.
    r("*.sets", 1.0, MAX_ENTRIES, "sets"),
    r("*.assoc", 1.0, 1024.0, "ways"),
    r("*.line_bytes", 1.0, 4096.0, "bytes"),
    r("*.sector_bytes", 1.0, 4096.0, "bytes"),
    r("*.banks", 1.0, 256.0, "banks"),
    r("*.miss_queue", 1.0, MAX_ENTRIES, "entries"),
    r("*.mshr_entries", 1.0, MAX_ENTRIES, "entries"),
    r("*.mshr_merge", 1.0, 1024.0, "requests"),
    r("l2.atomic_latency", 1.0, MAX_LATENCY_CYCLES, "cycles"),
    r("l2.rop_latency", 0.0, MAX_LATENCY_CYCLES, "cycles"),
    r("shmem.banks", 1.0, 256.0, "banks"),
    r("shmem.bank_bytes", 1.0, 256.0, "bytes"),
    r("shmem.latency", 1.0, MAX_LATENCY_CYCLES, "cycles"),
    r("*.latency", 1.0, MAX_LATENCY_CYCLES, "cycles"),
    // Memory system.
    r("mem.n_channels", 1.0, 1024.0, "channels"),
    r("mem.subparts_per_channel", 1.0, 64.0, "sub-partitions"),
    r("mem.channel_interleave_bytes", 1.0, 16_777_216.0, "bytes"),
    r("icnt.flit_bytes", 1.0, 4096.0, "bytes"),
    r("icnt.*", 1.0, MAX_ENTRIES, "flits"),
    // Bank-group timings are 0 on parts without bank groups (GPGPU-Sim's GDDR5 configurations).
    r("dram.timing.ccdl", 0.0, 10_000.0, "DRAM cycles"),
    r("dram.timing.rtpl", 0.0, 10_000.0, "DRAM cycles"),
    r("dram.timing.*", 1.0, 10_000.0, "DRAM cycles"),
    r("dram.n_banks", 1.0, 1024.0, "banks"),
    r("dram.n_bank_groups", 1.0, 1024.0, "bank groups"),
    r("dram.burst_length", 1.0, 256.0, "beats"),
    r("dram.bus_bytes_per_chip", 1.0, 1024.0, "bytes"),
    r("dram.chips_per_channel", 1.0, 256.0, "chips"),
    r("dram.data_cmd_ratio", 1.0, 64.0, "(ratio)"),
    r("dram.*", 1.0, MAX_ENTRIES, "entries"),
    // Techniques.
    r("pg.residual_leak_r", 0.0, 1.0, "(fraction)"),
    r("pg.lane_group_size", 1.0, 32.0, "lanes"),
    r("pg.*", 0.0, MAX_LATENCY_CYCLES, "cycles"),
    r("fold.*_frac", 0.0, 1.0, "(fraction)"),
    r("fold.disable_util", 0.0, 1.0, "(fraction)"),
    r("fold.*", 0.0, MAX_LATENCY_CYCLES, "cycles"),
    r("origami.*", 0.0, 1_000_000.0, "phases"),
    r("physical.alpha", 1.0, 2.0, "(velocity-saturation exponent)"),
    r("physical.beta_buf", 0.0, 10.0, "(ratio)"),
    r("physical.kappa", 0.0, 100.0, "(ratio)"),
    r("physical.p_max", 0.0, 1.0, "(fraction)"),
    r("physical.size_multiplier", 1.0, 1000.0, "(ratio)"),
    r("physical.v_floor", 0.0, 1.0, "(fraction of Vdd)"),
    r("physical.w_sync", 0.0, MAX_LATENCY_CYCLES, "cycles"),
    r("prf.v_frf", 0.05, 2.0, "V"),
    r("prf.v_srf", 0.05, 2.0, "V"),
    r("prf.n_fast", 0.0, 256.0, "registers"),
    r("prf.pilot_seed", 0.0, 1.8e19, "(seed)"),
    r("prf.max_profiled_kernels", 0.0, MAX_ENTRIES, "kernels"),
    r("prf.table_copies", 1.0, 256.0, "copies"),
    r("prf.*", 0.0, 1e9, "cycles"),
    r("afrf.threshold_ratio", 0.0, 1.0, "(fraction)"),
    r(
        "afrf.threshold",
        0.0,
        1e9,
        "dispatched instructions per epoch",
    ),
    r("afrf.*", 0.0, 1e9, "cycles"),
    r("mrf.lat", 1.0, 64.0, "cycles"),
    r("rfc.entries_per_warp", 1.0, 256.0, "entries"),
    r("rfc.*", 1.0, 64.0, "(count or cycles)"),
    r("reconv.max_depth", 0.0, 1_000_000.0, "entries"),
    r("metrics.interaccess_cutoff", 1.0, 1e9, "cycles"),
    r("dwf.die_area_mm2", 1.0, 10_000.0, "mm^2"),
    r("dwf.*_bits", 1.0, 64.0, "bits"),
    r("dwf.simd_width", 1.0, 32.0, "lanes"),
    r("dwf.*", 1.0, 1e7, "entries"),
    // Simulation control.
    r("sim.max_cycles", 0.0, 1e15, "cycles (0: no limit)"),
    r(
        "sim.max_warp_insts",
        0.0,
        1e15,
        "warp instructions (0: no limit)",
    ),
    r("sim.seed", 0.0, 1.8e19, "(seed)"),
    r("sim.threads", 1.0, 1024.0, "threads"),
    r("stats.epoch_cycles", 0.0, 1e12, "cycles"),
    r("stats.idle_hist_exact_max", 1.0, 1_000_000.0, "cycles"),
    r("stats.idle_hist_log2_max", 1.0, 63.0, "(log2 cycles)"),
    r("stats.pilot_warp", 0.0, 1e9, "(index)"),
    r("trace.max_cta_buffer_mb", 1.0, 1_048_576.0, "MB"),
    r("trace.reader_buffer_kb", 1.0, 1_048_576.0, "KB"),
];

/// True when `key` matches `pattern` (see [`Range`]).
fn matches(pattern: &str, key: &str) -> bool {
    if let Some(prefix) = pattern.strip_suffix(".*") {
        return key.len() > prefix.len()
            && key.starts_with(prefix)
            && key.as_bytes()[prefix.len()] == b'.';
    }
    if let Some(suffix) = pattern.strip_prefix("*.") {
        let suffix_key = key.rsplit('.').next().unwrap_or(key);
        return wildcard(suffix, suffix_key) && key.contains('.');
    }
    if let Some((section, last)) = pattern.rsplit_once('.') {
        if last.contains('*') {
            return key
                .rsplit_once('.')
                .is_some_and(|(s, l)| s == section && wildcard(last, l));
        }
    }
    pattern == key
}

/// `*` in `pattern` (at most one) matching any run of characters of `name`.
fn wildcard(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((a, b)) => name.len() >= a.len() + b.len() && name.starts_with(a) && name.ends_with(b),
    }
}

/// The range entry of `key`, if the table has one.
fn range_of(key: &str) -> Option<&'static Range> {
    // Every configuration built is checked key by key (a sweep builds thousands), and the
    // answer depends on the key alone: each thread remembers the entry of each key it has
    // looked up (a few hundred schema keys), instead of matching the patterns again.
    thread_local! {
        static SEEN: std::cell::RefCell<std::collections::HashMap<String, Option<&'static Range>>> =
            std::cell::RefCell::new(std::collections::HashMap::new());
    }
    SEEN.with(|seen| {
        if let Some(&r) = seen.borrow().get(key) {
            return r;
        }
        let r = range_scan(key);
        seen.borrow_mut().insert(key.to_string(), r);
        r
    })
}

/// The first entry of the tables whose pattern matches `key`.
fn range_scan(key: &str) -> Option<&'static Range> {
    RANGES
        .iter()
        .chain(crate::config::ooo::RANGES)
        .chain(SECTIONS.iter().flat_map(|s| s.ranges))
        .find(|r| matches(r.key, key))
}

/// The physical range of the numeric key `key` as (smallest, largest, unit), if the table (or
/// `[sched.ooo]`'s, or a registered technique section's) has one: the bounds
/// `GpuConfig::validate` applies.
pub fn key_range(key: &str) -> Option<(f64, f64, &'static str)> {
    range_of(key).map(|r| (r.lo, r.hi, r.unit))
}

/// Numeric leaves of a serialised configuration, as (dotted key, values); an array's
/// elements are its values.
#[cfg(test)]
fn numeric_leaves(
    v: &serde_json::Value,
    path: &mut Vec<String>,
    out: &mut Vec<(String, Vec<f64>)>,
) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                path.push(k.clone());
                numeric_leaves(x, path, out);
                path.pop();
            }
        }
        serde_json::Value::Number(n) => {
            out.push((path.join("."), vec![n.as_f64().unwrap_or(f64::INFINITY)]));
        }
        serde_json::Value::Array(a) => {
            let nums: Vec<f64> = a.iter().filter_map(serde_json::Value::as_f64).collect();
            if !nums.is_empty() {
                out.push((path.join("."), nums));
            }
        }
        _ => {}
    }
}

/// `v` as the message prints it: integers without a fraction, others in Rust's shortest form.
fn show(v: f64) -> String {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 1e16 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

impl GpuConfig {
    /// Each numeric key outside its physical range, as a message naming the key, the value,
    /// the allowed range and its unit. Reads the configuration through serde, so that every
    /// key set away from its default is seen (a table kept at its defaults is within range by
    /// the presets' test).
    pub(crate) fn range_errors(&self) -> Vec<(String, String)> {
        let Ok(value) = serde_json::to_value(self) else {
            return Vec::new();
        };
        let mut bad = Vec::new();
        check_leaves(&value, &mut String::new(), &mut bad);
        bad
    }
}

/// Checks every numeric leaf of `v` (at dotted key `path`) against its range, in the order
/// [`numeric_leaves`] lists them, appending a message per key out of range to `bad`; an
/// array's first value out of range is the one named.
fn check_leaves(v: &serde_json::Value, path: &mut String, bad: &mut Vec<(String, String)>) {
    let values: Vec<f64> = match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let len = path.len();
                if len > 0 {
                    path.push('.');
                }
                path.push_str(k);
                check_leaves(x, path, bad);
                path.truncate(len);
            }
            return;
        }
        serde_json::Value::Number(n) => vec![n.as_f64().unwrap_or(f64::INFINITY)],
        serde_json::Value::Array(a) => a.iter().filter_map(serde_json::Value::as_f64).collect(),
        _ => return,
    };
    let Some(range) = range_of(path) else {
        return;
    };
    if let Some(v) = values
        .into_iter()
        .find(|v| !(v.is_finite() && *v >= range.lo && *v <= range.hi))
    {
        let key = path.clone();
        bad.push((
            key.clone(),
            format!(
                "'{key}' = {}: must be in {}..={} {}",
                show(v),
                show(range.lo),
                show(range.hi),
                range.unit
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_numeric_key_of_every_preset_has_a_range_and_lies_in_it() {
        for name in GpuConfig::preset_names() {
            let cfg = GpuConfig::preset(name).unwrap();
            let full: toml::Table = toml::from_str(&cfg.to_full_toml_string()).unwrap();
            let json = serde_json::to_value(&full).unwrap();
            let mut leaves = Vec::new();
            numeric_leaves(&json, &mut Vec::new(), &mut leaves);
            assert!(leaves.len() > 200, "{name}: {} numeric keys", leaves.len());
            let unranged: Vec<&String> = leaves
                .iter()
                .map(|(k, _)| k)
                .filter(|k| range_of(k).is_none())
                .collect();
            assert!(
                unranged.is_empty(),
                "{name}: keys without a range: {unranged:?}"
            );
            assert!(
                cfg.range_errors().is_empty(),
                "{name}: {:?}",
                cfg.range_errors()
            );
        }
    }

    #[test]
    fn patterns_match_as_documented() {
        assert!(matches("frontend.*", "frontend.fetch_width"));
        assert!(!matches("frontend.*", "frontendx.a"));
        assert!(matches("*.latency", "l1d.latency"));
        assert!(matches("units.*_lanes", "units.sp_lanes"));
        assert!(!matches("units.*_lanes", "units.width.sp_lanes"));
        assert!(matches("units.n_*", "units.n_sfu"));
        assert!(matches("dwf.*_bits", "dwf.pc_bits"));
        assert_eq!(range_of("l2.latency").unwrap().lo, 1.0);
        assert_eq!(range_of("latency.fp.add").unwrap().key, "latency.*");
    }

    #[test]
    fn values_outside_their_range_are_named_with_range_and_unit() {
        let base = GpuConfig::preset("gtx480").unwrap();
        for (key, value, range) in [
            ("gpu.core_mhz", "1e12", "1..=100000 MHz"),
            ("gpu.dram_mhz", "1e-20", "1..=100000 MHz"),
            ("units.n_sp", "1000000", "1..=64 units"),
            ("latency.fp.add", "[4, 0]", "1..=1000000 cycles"),
            ("dram.chips_per_channel", "0", "1..=256 chips"),
            ("dram.timing.rcd", "0", "1..=10000 DRAM cycles"),
            (
                "gpu.kernel_launch_latency",
                "9223372036854775807",
                "0..=10000000 cycles",
            ),
        ] {
            let e = base
                .with_overrides(&[(key.to_string(), value.to_string())], "--set")
                .unwrap_err()
                .to_string();
            assert!(e.contains(&format!("'{key}' = ")), "{key}={value}: {e}");
            assert!(
                e.contains(&format!("must be in {range}")),
                "{key}={value}: {e}"
            );
        }
    }
}
