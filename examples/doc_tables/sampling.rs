//! Kernel sampling against full simulation (docs/estimate.md, "Kernel sampling"): each input
//! estimated twice by the `gpuenergy` binary built beside this example, once with `--sample
//! kernels`, and the sampled run's cycles and energy set against the full run's.

use super::markdown::{pct, table};
use anyhow::{anyhow, bail, Context, Result};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// The inputs of the table: program files with many launches, and built-in workloads.
const INPUTS: &[&[&str]] = &[
    &["--program", "tests/data/programs/iterate.toml"],
    &["--program", "tests/data/programs/atomics_loop.toml"],
    &["--program", "tests/data/programs/phases.toml"],
    &["--program", "tests/data/programs/sizes.toml"],
    &["--program", "tests/data/programs/iterate_short.toml"],
    &["--workload", "gaussian"],
    &["--workload", "bfs"],
];

/// The `gpuenergy` binary of this build: `target/release/gpuenergy` beside
/// `target/release/examples/`.
fn binary() -> Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .ok_or_else(|| anyhow!("no folder above {}", exe.display()))?;
    let bin = dir.join("gpuenergy");
    if !bin.exists() {
        bail!("{} is not built (cargo build --release)", bin.display());
    }
    Ok(bin)
}

/// `gpuenergy ARGS --format json -q`: its JSON document.
fn run_json(bin: &PathBuf, args: &[&std::ffi::OsStr]) -> Result<Value> {
    let out = Command::new(bin)
        .args(args)
        .args(["--format", "json", "-q"])
        .output()
        .with_context(|| format!("running {}", bin.display()))?;
    if !out.status.success() {
        bail!("{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    Ok(serde_json::from_slice(&out.stdout)?)
}

/// `gpuenergy estimate INPUT --format json -q [extra]`: the first workload's record.
fn estimate(bin: &PathBuf, input: &[&str], extra: &[&str]) -> Result<Value> {
    let args: Vec<&std::ffi::OsStr> = std::iter::once("estimate")
        .chain(input.iter().copied())
        .chain(extra.iter().copied())
        .map(std::ffi::OsStr::new)
        .collect();
    let v = run_json(bin, &args)?;
    v["workloads"][0]
        .as_object()
        .map(|o| Value::Object(o.clone()))
        .ok_or_else(|| anyhow!("estimate {input:?}: no workload record"))
}

fn num(v: &Value, what: &str) -> Result<f64> {
    v.as_f64().ok_or_else(|| anyhow!("no {what} in the record"))
}

/// The sampling table.
pub(super) fn sampling() -> Result<String> {
    let bin = binary()?;
    let mut rows = Vec::new();
    for input in INPUTS {
        let full = estimate(&bin, input, &[])?;
        let s = estimate(&bin, input, &["--sample", "kernels"])?;
        let smp = &s["sample"];
        let rel = |key: &str| -> Result<f64> {
            let (a, b) = (num(&s[key], key)?, num(&full[key], key)?);
            Ok((a - b).abs() / b)
        };
        let name = match input[0] {
            "--program" => input[1].rsplit('/').next().unwrap_or(input[1]).to_string(),
            _ => format!("{} (test)", input[1]),
        };
        rows.push(vec![
            name,
            format!("{}", num(&smp["launches"], "launches")?),
            format!("{}", num(&smp["clusters"], "clusters")?),
            format!("{}", num(&smp["timed_launches"], "timed launches")?),
            format!("{:.1}x", num(&smp["work_speedup"], "work speed-up")?),
            pct(Some(rel("cycles")?), 2),
            pct(smp["estimated_error"]["cycles"].as_f64(), 2),
            pct(Some(rel("energy_j")?), 2),
            pct(smp["estimated_error"]["energy"].as_f64(), 2),
        ]);
    }
    Ok(table(
        &[
            "input",
            "launches",
            "clusters",
            "timed",
            "work speed-up",
            "cycles error",
            "estimated",
            "energy error",
            "estimated",
        ],
        &rows,
    ))
}

/// `optimize` with and without kernel sampling on a program of many launches (docs/estimate.md,
/// "Sampling in optimize, sweep and Python"): the choice, the figures of the baseline and the
/// chosen design, the simulated runs and what sampling timed. Each search starts from an empty
/// Activity cache of its own.
pub(super) fn sampling_optimize() -> Result<String> {
    let bin = binary()?;
    let dir = std::env::temp_dir().join(format!("gpuenergy-doc-optimize-{}", std::process::id()));
    let mut rows = Vec::new();
    for (label, extra) in [
        ("full", &[][..]),
        ("--sample kernels", &["--sample", "kernels"][..]),
    ] {
        let cache = dir.join(label.trim_start_matches('-'));
        let _ = std::fs::remove_dir_all(&cache);
        let fixed = [
            "optimize",
            "--tech",
            "finfet7",
            "--program",
            "tests/data/programs/iterate_short.toml",
            "--space",
            "gating",
            "--area-budget",
            "10%",
            "--cache-dir",
        ];
        let args: Vec<&std::ffi::OsStr> = fixed
            .iter()
            .map(std::ffi::OsStr::new)
            .chain(std::iter::once(cache.as_os_str()))
            .chain(extra.iter().map(std::ffi::OsStr::new))
            .collect();
        let v = run_json(&bin, &args)?;
        let (b, c) = (&v["baseline"], &v["verified"]);
        let s = &v["sample"];
        let timed = if s.is_null() {
            "every launch".to_string()
        } else {
            format!(
                "{} of {}",
                num(&s["chosen"]["timed_launches"], "timed launches")?,
                num(&s["chosen"]["launches"], "launches")?
            )
        };
        rows.push(vec![
            label.to_string(),
            v["chosen_name"].as_str().unwrap_or("?").to_string(),
            format!("{:.4e}", num(&b["energy_j"], "baseline energy")?),
            format!("{:.4e}", num(&c["energy_j"], "chosen energy")?),
            pct(v["saving_vs_baseline"].as_f64(), 2),
            pct(c["slowdown"].as_f64(), 2),
            format!("{}", num(&v["effort"]["cache_misses"], "simulated runs")?),
            timed,
            pct(s["chosen"]["cycles_error"].as_f64(), 2),
            pct(s["chosen"]["energy_error"].as_f64(), 2),
        ]);
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(table(
        &[
            "search",
            "chosen",
            "baseline J",
            "chosen J",
            "saving",
            "slowdown",
            "runs simulated",
            "launches timed per run",
            "estimated cycles error",
            "estimated energy error",
        ],
        &rows,
    ))
}
