//! Renderers of the listing commands: the built-in GPU presets (`gpuenergy presets`) and the
//! built-in workloads (`gpuenergy workloads`), as aligned text tables or JSON, and the result of
//! `gpuenergy presets --import`.

use sim::config::gpgpusim::{differing_keys, distance_list, Imported};
use sim::config::GpuConfig;
use sim::workloads::{self, character_words};

/// The presets as JSON: per preset its name, configuration hash and every resolved field.
pub fn presets_json(cfgs: &[GpuConfig]) -> serde_json::Result<String> {
    let list: Vec<serde_json::Value> = cfgs
        .iter()
        .map(|c| {
            serde_json::json!({
                "name": c.gpu.name,
                "config_hash": c.hash_hex(),
                "config": c,
            })
        })
        .collect();
    serde_json::to_string_pretty(&list)
}

/// The presets as an aligned text table, one summary line per preset.
pub fn presets_table(cfgs: &[GpuConfig]) -> String {
    let head = [
        "preset",
        "SMs",
        "core MHz",
        "DRAM MHz",
        "warps/SM",
        "threads/SM",
        "CTAs/SM",
        "RF KB/SM",
        "RF banks",
        "sched",
        "policy",
        "L1D KB",
        "smem KB",
        "L2 KB",
        "DRAM GB/s",
    ];
    let rows: Vec<Vec<String>> = cfgs
        .iter()
        .map(|c| {
            vec![
                c.gpu.name.clone(),
                c.gpu.n_sm.to_string(),
                format!("{:.0}", c.gpu.core_mhz),
                format!("{:.0}", c.gpu.dram_mhz),
                c.sm.max_warps.to_string(),
                c.sm.max_threads.to_string(),
                c.sm.max_ctas.to_string(),
                (c.rf_bytes() / 1024).to_string(),
                format!("{}x{}", c.rf.n_banks, c.rf.ports_per_bank),
                format!("{}x{}", c.sched.n_per_sm, c.sched.issue_per_sched),
                String::from(c.sched.policy.clone()),
                (c.l1d.size_bytes() / 1024).to_string(),
                (c.sm.shmem_bytes / 1024).to_string(),
                (c.l2_total_bytes() / 1024).to_string(),
                format!("{:.1}", c.dram_peak_bw_bytes_per_s() / 1e9),
            ]
        })
        .collect();
    let mut w: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.len());
        }
    }
    let mut out = String::new();
    let line = |cells: Vec<&str>, out: &mut String| {
        let s: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == 0 {
                    format!("{c:<0$}", w[i])
                } else {
                    format!("{c:>0$}", w[i])
                }
            })
            .collect();
        out.push_str(s.join("  ").trim_end());
        out.push('\n');
    };
    line(head.to_vec(), &mut out);
    for r in &rows {
        line(r.iter().map(String::as_str).collect(), &mut out);
    }
    out
}

/// The workloads as a JSON array, sorted by name.
pub fn workloads_json() -> serde_json::Result<String> {
    let list: Vec<serde_json::Value> = workloads::all()
        .iter()
        .map(|w| {
            let i = w.info();
            serde_json::json!({
                "name": i.name,
                "suite": i.suite,
                "tags": i.character,
                "character": character_words(i.character),
                "description": i.description,
            })
        })
        .collect();
    serde_json::to_string_pretty(&list)
}

/// The workloads as an aligned text table, sorted by name.
pub fn workloads_table() -> String {
    let rows: Vec<[String; 4]> = workloads::all()
        .iter()
        .map(|w| {
            let i = w.info();
            [
                i.name.to_string(),
                i.suite.to_string(),
                character_words(i.character),
                i.description.to_string(),
            ]
        })
        .collect();
    let head = ["workload", "suite", "character", "description"];
    let mut width = head.map(str::len);
    for r in &rows {
        for (c, cell) in r.iter().enumerate() {
            width[c] = width[c].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: [&str; 4], out: &mut String| {
        let mut s = String::new();
        for (c, cell) in cells.iter().enumerate() {
            if c + 1 == cells.len() {
                s.push_str(cell);
            } else {
                s.push_str(&format!("{cell:<w$}  ", w = width[c]));
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(head, &mut out);
    for r in &rows {
        line([&r[0], &r[1], &r[2], &r[3]], &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_required_fields() {
        let v: serde_json::Value = serde_json::from_str(&workloads_json().unwrap()).unwrap();
        let arr = v.as_array().unwrap();
        assert_eq!(arr.len(), workloads::all().len());
        for o in arr {
            for key in ["name", "suite", "character"] {
                assert!(o[key].is_string(), "{key} missing in {o}");
            }
        }
    }

    #[test]
    fn table_has_header_and_one_line_per_workload() {
        let t = workloads_table();
        assert!(t.starts_with("workload"));
        assert_eq!(t.lines().count(), 1 + workloads::all().len());
    }
}

/// `value` of a TOML leaf as it reads in a configuration file.
fn toml_text(v: &toml::Value) -> String {
    v.to_string()
}

/// `gpuenergy presets --import` as text: where the configuration went, the base preset, every
/// option mapped (with its schema keys), every option not modelled (with the reason) and every
/// key in which the result differs from the base preset.
pub fn import_table(imp: &Imported, base: &GpuConfig, out: &str) -> String {
    let mut s = format!("imported {} -> {out}\n", imp.sources.join(" + "));
    if imp.distances.is_empty() {
        s.push_str(&format!("base preset: {} (named)\n", imp.base));
    } else {
        let d = distance_list(&imp.distances);
        s.push_str(&format!(
            "base preset: {} (closest; keys the import changes: {})\n",
            imp.base,
            d.join(", ")
        ));
    }
    let opt_w = imp
        .mapped
        .iter()
        .map(|m| m.option.name.len() + 1 + m.option.value.len())
        .chain(
            imp.unmodelled
                .iter()
                .map(|u| u.option.name.len() + 1 + u.option.value.len()),
        )
        .max()
        .unwrap_or(0)
        .min(60);
    let place_w = imp
        .mapped
        .iter()
        .map(|m| m.option.place().len())
        .chain(imp.unmodelled.iter().map(|u| u.option.place().len()))
        .max()
        .unwrap_or(0);
    s.push_str(&format!("\nmapped options ({}):\n", imp.mapped.len()));
    for m in &imp.mapped {
        let ov = format!("{} {}", m.option.name, m.option.value);
        let keys = if m.keys.is_empty() {
            "(no key)".to_string()
        } else {
            m.keys.join(", ")
        };
        let note = if m.note.is_empty() {
            String::new()
        } else {
            format!("  [{}]", m.note)
        };
        s.push_str(&format!(
            "  {ov:<opt_w$}  {:<place_w$}  {keys}{note}\n",
            m.option.place()
        ));
    }
    s.push_str(&format!("\nnot modelled ({}):\n", imp.unmodelled.len()));
    for u in &imp.unmodelled {
        let ov = format!("{} {}", u.option.name, u.option.value);
        s.push_str(&format!(
            "  {ov:<opt_w$}  {:<place_w$}  {}\n",
            u.option.place(),
            u.reason
        ));
    }
    let diff = differing_keys(&imp.config, base);
    s.push_str(&format!(
        "\ndiffers from {} in {} keys (key: {} -> imported):\n",
        imp.base,
        diff.len(),
        imp.base
    ));
    let key_w = diff.iter().map(|(k, _, _)| k.len()).max().unwrap_or(0);
    for (k, new, old) in &diff {
        s.push_str(&format!(
            "  {k:<key_w$}  {} -> {}\n",
            toml_text(old),
            toml_text(new)
        ));
    }
    s
}

/// `gpuenergy presets --import --format json`: the same content as [`import_table`].
pub fn import_json(imp: &Imported, base: &GpuConfig, out: &str) -> serde_json::Result<String> {
    let mapped: Vec<serde_json::Value> = imp
        .mapped
        .iter()
        .map(|m| {
            serde_json::json!({
                "option": m.option.name, "value": m.option.value,
                "file": m.option.file, "line": m.option.line,
                "keys": m.keys, "note": m.note,
            })
        })
        .collect();
    let unmodelled: Vec<serde_json::Value> = imp
        .unmodelled
        .iter()
        .map(|u| {
            serde_json::json!({
                "option": u.option.name, "value": u.option.value,
                "file": u.option.file, "line": u.option.line, "reason": u.reason,
            })
        })
        .collect();
    let diff: Vec<serde_json::Value> = differing_keys(&imp.config, base)
        .into_iter()
        .map(|(k, new, old)| serde_json::json!({"key": k, "base": old, "imported": new}))
        .collect();
    let distances: serde_json::Map<String, serde_json::Value> = imp
        .distances
        .iter()
        .map(|(p, n)| (p.clone(), serde_json::json!(n)))
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({
        "sources": imp.sources,
        "out": out,
        "base": imp.base,
        "base_distances": distances,
        "config_hash": imp.config.hash_hex(),
        "mapped": mapped,
        "unmodelled": unmodelled,
        "differs_from_base": diff,
    }))
}
