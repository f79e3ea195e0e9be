//! The configuration as TOML tables: the full schema table with the default-hidden tables,
//! overlaying a user table onto a base key by key, dotted key paths, and the line a key sits
//! on in a file (for messages).

use crate::config::schema::GpuConfig;

/// `cfg` as a TOML table with every schema key, including the tables that are not serialised
/// while they hold their defaults (`[pg]`, `[sched.gates]`, `[fold]`, `[origami]`, `[physical]`,
/// `[prf]`, `[afrf]`, `[mrf]`, `[rfc]`, the registered technique sections
/// (`config::technique::SECTIONS`), `[metrics]`, `rf.latency`, the tensor-core keys
/// `units.n_tensor`, `units.tensor_macs_per_cycle` and `latency.tensor`),
/// so that a user file or `--set` may override
/// their keys on a base preset.
pub(super) fn schema_table(cfg: &GpuConfig) -> toml::Table {
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
    for s in crate::config::technique::SECTIONS {
        t.entry(s.name)
            .or_insert_with(|| toml::Value::Table((s.table)(cfg)));
    }
    t.entry("metrics").or_insert_with(|| {
        toml::Value::Table(toml::Table::try_from(&cfg.metrics).expect("metrics serialises"))
    });
    {
        // The [dram] keys added after the presets are skipped at their defaults; write them.
        let d = &cfg.dram;
        if let Some(toml::Value::Table(dt)) = t.get_mut("dram") {
            for (k, x) in [
                ("kind", toml::Value::try_from(d.kind)),
                ("column_timing", toml::Value::try_from(d.column_timing)),
                (
                    "bank_group_index",
                    toml::Value::try_from(d.bank_group_index),
                ),
            ] {
                dt.entry(k).or_insert(x.expect("serialises"));
            }
        }
    }
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
    if let Some(toml::Value::Table(u)) = t.get_mut("units") {
        u.entry("n_tensor")
            .or_insert_with(|| toml::Value::Integer(cfg.units.n_tensor as i64));
        u.entry("tensor_macs_per_cycle")
            .or_insert_with(|| toml::Value::Integer(cfg.units.tensor_macs_per_cycle as i64));
    }
    if let Some(toml::Value::Table(l)) = t.get_mut("l1d") {
        l.entry("unified_kb")
            .or_insert_with(|| toml::Value::Integer(cfg.l1d.unified_kb as i64));
    }
    if let Some(toml::Value::Table(s)) = t.get_mut("shmem") {
        s.entry("carveout_kb").or_insert_with(|| {
            toml::Value::Array(
                cfg.shmem
                    .carveout_kb
                    .iter()
                    .map(|&x| toml::Value::Integer(x as i64))
                    .collect(),
            )
        });
    }
    if let Some(toml::Value::Table(l)) = t.get_mut("latency") {
        l.entry("tensor").or_insert_with(|| {
            toml::Value::Array(
                cfg.latency
                    .tensor
                    .iter()
                    .map(|&x| toml::Value::Integer(x as i64))
                    .collect(),
            )
        });
    }
    if let Some(toml::Value::Table(sched)) = t.get_mut("sched") {
        sched.entry("gates").or_insert_with(|| {
            toml::Value::Table(toml::Table::try_from(&cfg.sched.gates).expect("serialises"))
        });
        if let Some(toml::Value::Table(ooo)) = sched.get_mut("ooo") {
            for (k, x) in cfg.sched.ooo.keys_with_values() {
                ooo.entry(k).or_insert(x);
            }
        }
    }
    t
}
/// 1-based line of byte offset `pos` in `text`.
pub(super) fn line_of(text: &str, pos: usize) -> usize {
    text[..pos.min(text.len())].matches('\n').count() + 1
}

/// Best-effort line of the key `path` (dotted, e.g. `sched.two_level.inner`) in a TOML text:
/// tracks `[table]` headers and matches `key =` lines, dotted keys and inline-table keys.
pub(super) fn find_key_line(text: &str, path: &[String]) -> Option<usize> {
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
pub(super) fn merge(
    base: &mut toml::Table,
    user: &toml::Table,
    path: &mut Vec<String>,
) -> Result<(), String> {
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

pub(super) fn get_path<'a>(t: &'a toml::Table, path: &[String]) -> Option<&'a toml::Value> {
    let (first, rest) = path.split_first()?;
    let v = t.get(first)?;
    if rest.is_empty() {
        Some(v)
    } else {
        get_path(v.as_table()?, rest)
    }
}

pub(super) fn set_path(t: &mut toml::Table, path: &[String], v: toml::Value) {
    let (first, rest) = path.split_first().expect("non-empty path");
    if rest.is_empty() {
        t.insert(first.clone(), v);
    } else if let Some(toml::Value::Table(sub)) = t.get_mut(first) {
        set_path(sub, rest, v);
    }
}

/// Reads one `--set` value: a TOML value when it parses as one, else the text as a string.
pub(super) fn parse_override_value(raw: &str) -> toml::Value {
    let raw = raw.trim();
    match toml::from_str::<toml::Table>(&format!("v = {raw}")) {
        Ok(mut t) => t
            .remove("v")
            .unwrap_or_else(|| toml::Value::String(raw.to_string())),
        Err(_) => toml::Value::String(raw.to_string()),
    }
}

/// Sets the dotted `path` in `t`, creating the tables on the way.
pub(super) fn set_path_creating(t: &mut toml::Table, path: &[String], v: toml::Value) {
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
pub(super) fn first_bad_key(base: &toml::Table, user: &toml::Table) -> Option<(String, String)> {
    first_bad_key_by(base, user, |t| {
        toml::Value::Table(t).try_into::<GpuConfig>().map(|_| ())
    })
}

/// As [`first_bad_key`], with `build` the deserialisation that fails.
pub(super) fn first_bad_key_by(
    base: &toml::Table,
    user: &toml::Table,
    build: impl Fn(toml::Table) -> Result<(), toml::de::Error>,
) -> Option<(String, String)> {
    let mut leaves = Vec::new();
    leaf_paths(user, &mut Vec::new(), &mut leaves);
    for p in leaves {
        let mut one = base.clone();
        set_path(&mut one, &p, get_path(user, &p)?.clone());
        if let Err(e) = build(one) {
            return Some((p.join("."), e.message().to_string()));
        }
    }
    None
}

/// The dotted key on the line that holds byte `pos` of a TOML text as the serialiser writes it
/// (`[table]` headers and `key = value` lines): a header's path, or the key's table path and
/// the key.
pub(super) fn key_path_at(text: &str, pos: usize) -> Vec<String> {
    let target = line_of(text, pos);
    let split = |s: &str| -> Vec<String> {
        s.split('.')
            .map(|p| p.trim().trim_matches('"').to_string())
            .collect()
    };
    let mut table: Vec<String> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let header = line.starts_with('[');
        if header {
            table = split(line.trim_matches(|c| c == '[' || c == ']'));
        }
        if i + 1 == target {
            if let (false, Some((key, _))) = (header, line.split_once('=')) {
                table.extend(split(key));
            }
            break;
        }
    }
    table
}
