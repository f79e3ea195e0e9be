//! Renderer of `gpuenergy presets --import`: the options mapped onto configuration keys, the
//! options not modelled, and every key in which the imported configuration differs from its
//! base preset, as aligned text or JSON.

use sim::config::gpgpusim::{differing_keys, distance_list, Imported};
use sim::config::GpuConfig;

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
pub fn import_json(imp: &Imported, base: &GpuConfig, out: &str) -> serde_json::Value {
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
    serde_json::json!({
        "sources": imp.sources,
        "out": out,
        "base": imp.base,
        "base_distances": distances,
        "config_hash": imp.config.hash_hex(),
        "mapped": mapped,
        "unmodelled": unmodelled,
        "differs_from_base": diff,
    })
}
