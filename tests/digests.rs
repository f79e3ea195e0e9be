//! Result digests: pins what the simulator counts and what the cost model makes of it, so that a
//! refactor that should not change results provably does not.
//!
//! For every preset of `sim/presets/*.toml` and every built-in workload at the `test` size, the
//! workload is simulated and costed through [`gpuenergy::study::Study`] at the default technology
//! point of `gpuenergy estimate` (finfet7, its `stv` operating point, the default device flavour,
//! 350 K, no calibration overlay, idle SMs gated). Each run's `Activity` JSON and its costed
//! result's JSON (the `workloads[]` entry of `estimate --format json`) are hashed with 64-bit
//! FNV-1a, and so is each preset's report with no workload (the technology point, the chip's area
//! and leakage and the static component tree). Neither record holds a wall-clock or rate field, so
//! nothing is dropped before hashing. A pair that the configuration refuses (a CTA that does not
//! fit on an SM, say) is recorded as its error text.
//!
//! The goldens are `tests/data/digests/test_size.txt`, one line per preset × workload ×
//! {`activity`, `estimate`} plus one `(static)` line per preset. A mismatch lists every differing
//! line with its preset and workload.
//!
//! Regenerating the goldens is for a stated model change only (a commit that says which results
//! change and why):
//!
//! ```text
//! GPUENERGY_BLESS=1 cargo test --release --test digests
//! ```
//!
//! rewrites the file from the current code and passes; review its diff before committing it.

use gpuenergy::digest::{fnv1a, FNV_OFFSET};
use gpuenergy::study::{tech_choice, Study};
use rayon::prelude::*;
use sim::config::GpuConfig;
use sim::workloads::{self, Workload};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The golden file, relative to the repository root.
const GOLDEN: &str = "tests/data/digests/test_size.txt";

/// The environment variable that rewrites the goldens instead of comparing.
const BLESS_VAR: &str = "GPUENERGY_BLESS";

/// The presets shipped in `sim/presets/`, by file stem, sorted.
fn presets(root: &Path) -> Vec<String> {
    let dir = root.join("sim/presets");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            if p.extension()? != "toml" {
                return None;
            }
            Some(p.file_stem()?.to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    names
}

/// `fnv1a:` and the 16 hex digits of the FNV-1a hash of `text`.
fn digest(text: &str) -> String {
    format!("fnv1a:{:016x}", fnv1a(FNV_OFFSET, text.as_bytes()))
}

/// An error recorded in place of a digest, on one line: the error and its causes, joined by `: `.
fn refused(e: impl std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(&format!(": {c}"));
        cause = c.source();
    }
    format!("error: {}", text.replace('\n', "\\n"))
}

/// The study every digest is computed with: `preset` at `estimate`'s default technology point,
/// one workload at a time on the calling thread.
fn study(preset: &str) -> Result<Study, String> {
    let cfg = GpuConfig::preset(preset).map_err(refused)?;
    let tech = tech_choice("finfet7", None, None, None, 350.0).map_err(|e| refused(&*e))?;
    Ok(Study::new(cfg, tech, None).parallel(false))
}

/// The lines of one preset with no workload: the report of the static view.
fn static_lines(preset: &str) -> Vec<(String, String)> {
    let key = format!("{preset} (static) estimate");
    let value = study(preset).and_then(|s| {
        let report = s.run(&[]).map_err(refused)?;
        gpuenergy::report::json::render(&report)
            .map(|j| digest(&j))
            .map_err(refused)
    });
    vec![(key, value.unwrap_or_else(|e| e))]
}

/// The `activity` and `estimate` lines of `workload` on `preset`, as `Study::run` computes them:
/// the chip at the technology point, the configuration it times (`pg.bet`, derived latencies),
/// the simulation, then the cost of the Activity.
fn pair_lines(preset: &str, w: &dyn Workload) -> Vec<(String, String)> {
    let name = w.info().name;
    let key = |kind: &str| format!("{preset} {name} {kind}");
    let run = || -> Result<(String, Result<String, String>), String> {
        let s = study(preset)?;
        let src = s.cost_source().map_err(refused)?;
        let chip = s.chip(&src).map_err(refused)?;
        let timed = s.variant(s.timed_config(&chip).map_err(refused)?);
        let act = timed.simulate(w).map_err(refused)?;
        let estimate = s
            .cost(&chip, &src.label, name, &act)
            .map_err(refused)
            .and_then(|r| serde_json::to_string_pretty(&r).map_err(refused))
            .map(|j| digest(&j));
        Ok((digest(&act.to_json()), estimate))
    };
    let (activity, estimate) = match run() {
        Ok((a, e)) => (a, e.unwrap_or_else(|e| e)),
        // nothing to cost without an Activity: both lines carry the refusal
        Err(e) => (e.clone(), e),
    };
    vec![(key("activity"), activity), (key("estimate"), estimate)]
}

/// The digest lines of one job (`KEY VALUE` pairs), its label and the seconds it took.
type JobResult = (Vec<(String, String)>, String, f64);

/// Every digest line of the current code, keyed by `PRESET WORKLOAD KIND`, with the seconds each
/// preset × workload pair took.
fn compute(root: &Path) -> (BTreeMap<String, String>, Vec<(String, f64)>) {
    let presets = presets(root);
    let all = workloads::all();
    let jobs: Vec<(&str, Option<&dyn Workload>)> = presets
        .iter()
        .flat_map(|p| {
            std::iter::once((p.as_str(), None))
                .chain(all.iter().map(move |w| (p.as_str(), Some(*w))))
        })
        .collect();
    let done: Vec<JobResult> = jobs
        .par_iter()
        .map(|(p, w)| {
            let t0 = Instant::now();
            let (lines, label) = match w {
                None => (static_lines(p), format!("{p} (static)")),
                Some(w) => (pair_lines(p, *w), format!("{p} {}", w.info().name)),
            };
            (lines, label, t0.elapsed().as_secs_f64())
        })
        .collect();
    let mut map = BTreeMap::new();
    let mut times = Vec::new();
    for (lines, label, s) in done {
        map.extend(lines);
        times.push((label, s));
    }
    (map, times)
}

/// The golden file's text for `lines`: a header saying how it is made, then `KEY VALUE` lines.
fn render(lines: &BTreeMap<String, String>) -> String {
    let mut out = String::from(
        "# Result digests of every preset x built-in workload at the `test` size (tests/digests.rs).\n\
         # Regenerate only for a stated model change: GPUENERGY_BLESS=1 cargo test --release --test digests\n",
    );
    for (k, v) in lines {
        out.push_str(&format!("{k} {v}\n"));
    }
    out
}

/// Parses the golden file: `PRESET WORKLOAD KIND VALUE` lines (`#` starts a comment line).
fn parse(text: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut it = line.splitn(4, ' ');
        let (Some(p), Some(w), Some(k), Some(v)) = (it.next(), it.next(), it.next(), it.next())
        else {
            panic!(
                "{GOLDEN}:{}: expected `PRESET WORKLOAD KIND VALUE`, got {line:?}",
                n + 1
            );
        };
        map.insert(format!("{p} {w} {k}"), v.to_string());
    }
    map
}

#[test]
fn every_preset_and_workload_gives_the_pinned_results() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let t0 = Instant::now();
    let (now, mut times) = compute(&root);
    times.sort_by(|a, b| b.1.total_cmp(&a.1));
    eprintln!(
        "digests: {} lines in {:.1} s; slowest pairs: {}",
        now.len(),
        t0.elapsed().as_secs_f64(),
        times
            .iter()
            .take(8)
            .map(|(l, s)| format!("{l} {s:.2} s"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert!(
        now.keys().any(|k| k.starts_with("gtx480 ")),
        "no gtx480 lines: the preset folder was not found"
    );
    let path = root.join(GOLDEN);
    if std::env::var_os(BLESS_VAR).is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, render(&now)).unwrap();
        eprintln!("digests: {BLESS_VAR}=1, wrote {}", path.display());
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "reading {}: {e} (generate it with {BLESS_VAR}=1 on a commit whose results are right)",
            path.display()
        )
    });
    let golden = parse(&text);
    let mut bad = Vec::new();
    for (k, v) in &now {
        match golden.get(k) {
            Some(g) if g == v => {}
            Some(g) => bad.push(format!("{k}: golden {g}, now {v}")),
            None => bad.push(format!("{k}: not in the goldens, now {v}")),
        }
    }
    for (k, g) in &golden {
        if !now.contains_key(k) {
            bad.push(format!("{k}: in the goldens ({g}), not computed now"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} result digests differ from {GOLDEN} (PRESET WORKLOAD KIND):\n{}\n\
         A refactor must keep these byte-identical; a stated model change regenerates them with \
         {BLESS_VAR}=1.",
        bad.len(),
        now.len(),
        bad.join("\n")
    );
}
