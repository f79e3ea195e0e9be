//! Keys the schema accepts but the timing model does not read ([`UNREAD_KEYS`]): a value no
//! preset carries is refused on load, and the GPGPU-Sim importer resets such values.

use super::tables::{get_path, set_path};
use super::PRESETS;
use crate::config::schema::{BankGroupIndex, DramColumnTiming, GpuConfig};

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
        "dram.scheduler",
        "ready banks are served out of order, each bank in arrival order (FR-FCFS across banks; FIFO is not modelled)",
    ),
    ("dram.return_queue", "the DRAM reply queue has no limit"),
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
        "tex_cache.write_policy",
        "the texture cache is never written",
    ),
    (
        "tex_cache.alloc",
        "a texture-cache line is allocated when its fill returns",
    ),
    (
        "tex_cache.write_alloc",
        "the texture cache is never written",
    ),
    (
        "tex_cache.miss_queue",
        "texture-cache misses go to the interconnect with no queue limit",
    ),
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

/// Schema keys read only with `dram.column_timing = "bank_groups"`: under the default
/// `"per_bank"` spacing they are refused, as [`UNREAD_KEYS`] are, when they carry a value no
/// per-bank preset carries (`dram.bank_group_index`: anything but its default).
pub const BANK_GROUP_KEYS: &[(&str, &str)] = &[
    (
        "dram.n_bank_groups",
        "with dram.column_timing = \"per_bank\" bank groups are not modelled: tCCDL spaces \
         the column commands of one bank",
    ),
    (
        "dram.timing.ccd",
        "with dram.column_timing = \"per_bank\" column spacing between banks is not \
         modelled (tCCDL spaces one bank's columns)",
    ),
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

/// Per [`UNREAD_KEYS`] entry, in order: its path and the values the presets carry
/// ([`preset_values`]). Parsed from the embedded preset texts once per process: every
/// configuration built (a sweep builds thousands) is checked against them.
fn honoured_values() -> &'static [(Vec<String>, Vec<toml::Value>)] {
    static HONOURED: std::sync::OnceLock<Vec<(Vec<String>, Vec<toml::Value>)>> =
        std::sync::OnceLock::new();
    HONOURED.get_or_init(|| honoured_of(UNREAD_KEYS))
}

/// As [`honoured_values`], for [`BANK_GROUP_KEYS`], from the presets with per-bank spacing (a
/// preset with bank groups, `v100`, reads its values; they say nothing of a per-bank machine).
fn bank_group_honoured() -> &'static [(Vec<String>, Vec<toml::Value>)] {
    static HONOURED: std::sync::OnceLock<Vec<(Vec<String>, Vec<toml::Value>)>> =
        std::sync::OnceLock::new();
    HONOURED.get_or_init(|| {
        honoured_of_presets(BANK_GROUP_KEYS, |t| {
            get_path(t, &["dram".to_string(), "column_timing".to_string()])
                .is_none_or(|v| v.as_str() == Some("per_bank"))
        })
    })
}

/// Per entry of `keys`: its path and the values the embedded presets carry.
fn honoured_of(keys: &[(&str, &str)]) -> Vec<(Vec<String>, Vec<toml::Value>)> {
    honoured_of_presets(keys, |_| true)
}

/// As [`honoured_of`], over the embedded presets that `keep` accepts.
fn honoured_of_presets(
    keys: &[(&str, &str)],
    keep: impl Fn(&toml::Table) -> bool,
) -> Vec<(Vec<String>, Vec<toml::Value>)> {
    let presets: Vec<toml::Table> = PRESETS
        .iter()
        .map(|(_, text)| toml::from_str(text).expect("embedded preset is TOML"))
        .filter(|t| keep(t))
        .collect();
    keys.iter()
        .map(|(key, _)| {
            (
                key.split('.').map(str::to_string).collect(),
                preset_values(&presets, key),
            )
        })
        .collect()
}

/// Refusals for [`UNREAD_KEYS`] carrying a value no preset carries, and, under
/// `dram.column_timing = "per_bank"`, for [`BANK_GROUP_KEYS`] likewise and for a
/// `dram.bank_group_index` other than its default.
pub(super) fn unread_key_errors(cfg: &GpuConfig) -> Vec<String> {
    let t = toml::Table::try_from(cfg).expect("config serialises");
    let mut bad = Vec::new();
    let mut check = |keys: &[(&str, &str)], honoured_values: &[(Vec<String>, Vec<toml::Value>)]| {
        for ((key, why), (path, honoured)) in keys.iter().zip(honoured_values) {
            let Some(v) = get_path(&t, path) else {
                continue;
            };
            if !honoured.contains(v) {
                let list: Vec<String> = honoured.iter().map(|h| h.to_string()).collect();
                bad.push(format!(
                    "'{key}' = {v}: not modelled ({why}); only the preset value{} {} {} \
                     honoured",
                    if list.len() == 1 { "" } else { "s" },
                    list.join(" or "),
                    if list.len() == 1 { "is" } else { "are" },
                ));
            }
        }
    };
    check(UNREAD_KEYS, honoured_values());
    if cfg.dram.column_timing == DramColumnTiming::PerBank {
        check(BANK_GROUP_KEYS, bank_group_honoured());
        if cfg.dram.bank_group_index != BankGroupIndex::default() {
            bad.push(
                "'dram.bank_group_index' = \"low_bits\": not modelled with \
                 dram.column_timing = \"per_bank\" (bank groups are not modelled); only \
                 \"high_bits\" is honoured, or set dram.column_timing = \"bank_groups\""
                    .to_string(),
            );
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
    let mut reset = Vec::new();
    for ((key, why), (path, honoured)) in UNREAD_KEYS.iter().zip(honoured_values()) {
        let (Some(v), Some(bv)) = (get_path(&t, path), get_path(&bt, path)) else {
            continue;
        };
        if !honoured.contains(v) {
            let bv = bv.clone();
            set_path(&mut t, path, bv);
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
