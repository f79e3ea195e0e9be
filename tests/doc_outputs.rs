//! Command outputs quoted in `README.md` and `docs/*.md` are regenerated, never typed, and
//! checked against a fresh run.
//!
//! A quoted output sits between two markers:
//!
//! ````text
//! <!-- output: gpuenergy correlate --reference tests/data/correlate/accelsim-titanx.csv -->
//! ```text
//! (what the command printed on stdout)
//! ```
//! <!-- /output -->
//! ````
//!
//! The command runs from the repository root with the binary this build made (arguments split
//! at spaces; no shell). Lines that report wall-clock time (`done in`, `per s`, `simulate`'s
//! `simulated … warp insts/s` line) are left out.
//! The check compares the quoted text with a fresh run token by token: words exactly, numbers
//! within a relative tolerance of [`DEFAULT_TOLERANCE`] (0.5 %), or the one a marker states
//! (`<!-- output(tolerance=2%): … -->`), so that a model change that moves a quoted figure by
//! more than that fails here until the docs are regenerated.
//!
//! Regenerate every quoted output with one command:
//! `GPUENERGY_BLESS_DOCS=1 cargo test --release --test doc_outputs`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Relative tolerance on a quoted number unless the marker states another.
const DEFAULT_TOLERANCE: f64 = 0.005;

/// One quoted output: where it is and what produced it.
struct Block {
    file: PathBuf,
    /// 1-based line of the opening marker.
    line: usize,
    command: String,
    tolerance: f64,
    /// Line indices (0-based) of the opening and closing markers.
    open: usize,
    close: usize,
    quoted: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn doc_files() -> Vec<PathBuf> {
    let mut v = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    v.extend(docs);
    v
}

fn parse_marker(l: &str) -> Option<(String, f64)> {
    let rest = l.trim().strip_prefix("<!-- output")?;
    let rest = rest.strip_suffix("-->")?.trim_end();
    let (tol, rest) = if let Some(r) = rest.strip_prefix("(tolerance=") {
        let (t, r) = r.split_once(")").expect("tolerance=N%) closes");
        let pct: f64 = t
            .trim_end_matches('%')
            .parse()
            .expect("tolerance is a percentage");
        (pct / 100.0, r)
    } else {
        (DEFAULT_TOLERANCE, rest)
    };
    let cmd = rest.strip_prefix(":")?.trim();
    Some((cmd.to_string(), tol))
}

fn blocks(file: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some((command, tolerance)) = parse_marker(lines[i]) {
            let close = (i + 1..lines.len())
                .find(|&j| lines[j].trim() == "<!-- /output -->")
                .unwrap_or_else(|| panic!("{}:{}: output block not closed", file.display(), i + 1));
            let inner: Vec<&str> = lines[i + 1..close]
                .iter()
                .copied()
                .filter(|l| !l.starts_with("```"))
                .collect();
            out.push(Block {
                file: file.to_path_buf(),
                line: i + 1,
                command,
                tolerance,
                open: i,
                close,
                quoted: inner.join("\n"),
            });
            i = close;
        }
        i += 1;
    }
    out
}

/// Is this line a wall-clock report that differs from run to run?
fn is_timing(l: &str) -> bool {
    l.contains(" done in ")
        || l.contains("per s")
        || l.contains("/s ") && l.contains("wall")
        || l.starts_with("simulated ") && l.ends_with(" warp insts/s)")
}

fn run(b: &Block) -> String {
    let mut args = b.command.split_whitespace();
    assert_eq!(
        args.next(),
        Some("gpuenergy"),
        "{}:{}: a quoted command starts with `gpuenergy`",
        b.file.display(),
        b.line
    );
    let out = Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(args)
        .current_dir(root())
        .env_remove("GPUENERGY_BLESS_DOCS")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}:{}: `{}` failed: {}",
        b.file.display(),
        b.line,
        b.command,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !is_timing(l))
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_string()
}

/// A token's numeric value: digits with an optional sign, decimal point, exponent and a
/// trailing `%` or `x`.
fn number(t: &str) -> Option<f64> {
    let t = t.trim_end_matches(['%', 'x', ',', ';', ')']);
    let t = t.trim_start_matches(['(', '+']);
    if t.is_empty() || !t.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// `None` when `quoted` matches `fresh`, else the first difference.
fn differs(quoted: &str, fresh: &str, tol: f64) -> Option<String> {
    let ql: Vec<&str> = quoted.lines().filter(|l| !is_timing(l)).collect();
    let fl: Vec<&str> = fresh.lines().collect();
    if ql.len() != fl.len() {
        return Some(format!(
            "{} quoted lines against {} printed",
            ql.len(),
            fl.len()
        ));
    }
    for (n, (q, f)) in ql.iter().zip(&fl).enumerate() {
        let qt: Vec<&str> = q.split_whitespace().collect();
        let ft: Vec<&str> = f.split_whitespace().collect();
        let same = qt.len() == ft.len()
            && qt
                .iter()
                .zip(&ft)
                .all(|(a, b)| match (number(a), number(b)) {
                    (Some(x), Some(y)) => x == y || (x - y).abs() <= tol * x.abs().max(y.abs()),
                    _ => a == b,
                });
        if !same {
            return Some(format!(
                "line {} of the output:\n  quoted: {q}\n  now:    {f}",
                n + 1
            ));
        }
    }
    None
}

fn rewrite(file: &Path, blocks: &[(&Block, String)]) {
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    for (b, fresh) in blocks {
        out.extend(lines[i..=b.open].iter().map(|s| s.to_string()));
        out.push("```text".into());
        out.extend(fresh.lines().map(str::to_string));
        out.push("```".into());
        i = b.close;
    }
    out.extend(lines[i..].iter().map(|s| s.to_string()));
    std::fs::write(file, out.join("\n") + "\n").unwrap();
}

#[test]
fn quoted_outputs_match_a_fresh_run() {
    let bless = std::env::var_os("GPUENERGY_BLESS_DOCS").is_some();
    let mut failures = Vec::new();
    let mut count = 0;
    for file in doc_files() {
        let bs = blocks(&file);
        let mut fresh = Vec::new();
        for b in &bs {
            count += 1;
            let now = run(b);
            if !bless {
                if let Some(d) = differs(&b.quoted, &now, b.tolerance) {
                    failures.push(format!(
                        "{}:{}: `{}` (tolerance {} %): {d}",
                        b.file.display(),
                        b.line,
                        b.command,
                        b.tolerance * 100.0
                    ));
                }
            }
            fresh.push((b, now));
        }
        if bless && !fresh.is_empty() {
            rewrite(&file, &fresh);
        }
    }
    assert!(count > 0, "no quoted outputs found");
    assert!(
        failures.is_empty(),
        "quoted outputs differ from a fresh run (regenerate with GPUENERGY_BLESS_DOCS=1 cargo \
         test --release --test doc_outputs):\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_comparison_catches_a_moved_figure() {
    let quoted = "MAPE 2.6 %, r 1.000\nchip area 6.43 mm2";
    assert!(differs(quoted, "MAPE 2.6 %, r 1.000\nchip area 6.43 mm2", 0.005).is_none());
    assert!(differs(quoted, "MAPE 2.61 %, r 1.000\nchip area 6.43 mm2", 0.005).is_none());
    assert!(differs(quoted, "MAPE 4.6 %, r 1.000\nchip area 6.43 mm2", 0.005).is_some());
    assert!(differs(quoted, "MAPE 2.6 %, r 1.000\nchip area 6.43 cm2", 0.005).is_some());
    assert!(differs(quoted, "MAPE 2.6 %, r 1.000", 0.005).is_some());
    assert_eq!(
        parse_marker("<!-- output(tolerance=2%): gpuenergy techs -->"),
        Some(("gpuenergy techs".into(), 0.02))
    );
}
