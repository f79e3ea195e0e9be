//! Renderers of the listing commands: the built-in GPU presets (`gpuenergy presets`) and the
//! built-in workloads (`gpuenergy workloads`), as aligned text tables or JSON.

use sim::config::GpuConfig;
use sim::workloads::{self, character_words};

/// The presets as JSON: per preset its name, configuration hash and every resolved field.
pub fn presets_json(cfgs: &[GpuConfig]) -> serde_json::Value {
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
    serde_json::Value::Array(list)
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

/// The named techniques as a JSON array: name, summary, knobs set, knobs defaulted, and the
/// techniques each composes with.
pub fn techniques_json() -> serde_json::Result<String> {
    use crate::technique::{composes_with, TECHNIQUES};
    let pairs = |v: &[(&str, &str)]| -> serde_json::Map<String, serde_json::Value> {
        v.iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::String(v.to_string())))
            .collect()
    };
    let list: Vec<serde_json::Value> = TECHNIQUES
        .iter()
        .map(|t| {
            serde_json::json!({
                "name": t.name,
                "summary": t.summary,
                "sets": pairs(t.sets),
                "defaults": pairs(t.defaults),
                "composes_with": composes_with(t),
            })
        })
        .collect();
    serde_json::to_string_pretty(&list)
}

/// The named techniques as text: one block per technique with its knobs and what it composes
/// with.
pub fn techniques_table() -> String {
    use crate::technique::{composes_with, TECHNIQUES};
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Techniques (use with --technique NAME, combine with '+', override knobs with --set KEY=VALUE)\n"
    );
    for t in TECHNIQUES {
        let _ = writeln!(s, "{}", t.name);
        let _ = writeln!(s, "  {}", t.summary);
        let knobs = |v: &[(&str, &str)]| {
            v.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = writeln!(s, "  sets:          {}", knobs(t.sets));
        if !t.defaults.is_empty() {
            let _ = writeln!(
                s,
                "  unless set:    {}   (by another technique of the combination, or --set)",
                knobs(t.defaults)
            );
        }
        let c = composes_with(t);
        let _ = writeln!(
            s,
            "  composes with: {}\n",
            if c.is_empty() {
                "-".to_string()
            } else {
                c.join(", ")
            }
        );
    }
    s
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
