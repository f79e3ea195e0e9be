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
//! The command runs from the repository root (arguments split at spaces; no shell). It is
//! either `gpuenergy ARGS`, run with the binary this build made, or `cargo run --release [-p
//! CRATE] --example NAME [-- ARGS]`, an example of the workspace (the tables that no command
//! prints, such as aggregates over several runs, come from `examples/doc_tables/`): the
//! example is brought up to date with `cargo build --release --workspace --example NAME` and
//! its binary run. Lines that report
//! wall-clock time (`done in`, `per s`, `simulate`'s `simulated … warp insts/s` line) are left
//! out.
//!
//! The check compares the quoted text with a fresh run token by token: words exactly, numbers
//! within a relative tolerance of [`DEFAULT_TOLERANCE`] (0.5 %), or the one a marker states
//! (`<!-- output(tolerance=2%): … -->`), so that a model change that moves a quoted figure by
//! more than that fails here until the docs are regenerated.
//!
//! A block whose command prints markdown (a table) is marked `<!-- output(markdown): … -->` and
//! written without the text fence, so that the table renders.
//!
//! A block whose command takes minutes (bench-size runs) is marked slow, `<!-- output(slow):
//! … -->` (with a tolerance: `output(slow, tolerance=1%)`): the default test skips it and the
//! ignored test checks it, `cargo test --release --test doc_outputs -- --ignored`. A command
//! with `--size bench` in a block not marked slow is an error, so that the default test stays
//! fast.
//!
//! Regenerate every quoted output with one command each:
//! `GPUENERGY_BLESS_DOCS=1 cargo test --release --test doc_outputs` (the fast blocks) and
//! `GPUENERGY_BLESS_DOCS=1 cargo test --release --test doc_outputs -- --ignored` (the slow
//! ones). `GPUENERGY_DOC_BLOCKS=TEXT` restricts either test, checking or blessing, to the
//! blocks whose command contains `TEXT`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Relative tolerance on a quoted number unless the marker states another.
const DEFAULT_TOLERANCE: f64 = 0.005;

/// One quoted output: where it is and what produced it.
struct Block {
    file: PathBuf,
    /// 1-based line of the opening marker.
    line: usize,
    command: String,
    tolerance: f64,
    /// Checked only by the ignored test.
    slow: bool,
    /// Written as markdown (a table renders), not in a text fence.
    markdown: bool,
    /// Line indices (0-based) of the opening and closing markers.
    open: usize,
    close: usize,
    quoted: String,
}

/// What an opening marker says.
#[derive(Debug, PartialEq)]
struct Marker {
    command: String,
    tolerance: f64,
    slow: bool,
    markdown: bool,
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

/// Parses `<!-- output: CMD -->` or `<!-- output(OPTION, ...): CMD -->`, where an option is
/// `slow`, `markdown` or `tolerance=N%`. `Err` names what is wrong with a line that starts like a marker.
fn parse_marker(l: &str) -> Result<Option<Marker>, String> {
    let Some(rest) = l.trim().strip_prefix("<!-- output") else {
        return Ok(None);
    };
    let Some(rest) = rest.strip_suffix("-->").map(str::trim_end) else {
        return Err("an output marker ends with `-->` on the same line".into());
    };
    let mut m = Marker {
        command: String::new(),
        tolerance: DEFAULT_TOLERANCE,
        slow: false,
        markdown: false,
    };
    let rest = if let Some(r) = rest.strip_prefix('(') {
        let (opts, r) = r
            .split_once(')')
            .ok_or("the options of an output marker close with `)`")?;
        for o in opts.split(',').map(str::trim) {
            if o == "slow" {
                m.slow = true;
            } else if o == "markdown" {
                m.markdown = true;
            } else if let Some(t) = o.strip_prefix("tolerance=") {
                let pct: f64 = t
                    .strip_suffix('%')
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(|| format!("tolerance `{t}` is not a percentage such as 2%"))?;
                m.tolerance = pct / 100.0;
            } else {
                return Err(format!(
                    "unknown output option `{o}` (allowed: slow, markdown, tolerance=N%)"
                ));
            }
        }
        r
    } else {
        rest
    };
    let cmd = rest
        .strip_prefix(':')
        .ok_or("an output marker is `<!-- output: COMMAND -->`")?;
    m.command = cmd.trim().to_string();
    Ok(Some(m))
}

fn blocks(file: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let marker =
            parse_marker(lines[i]).unwrap_or_else(|e| panic!("{}:{}: {e}", file.display(), i + 1));
        if let Some(m) = marker {
            let close = (i + 1..lines.len())
                .find(|&j| lines[j].trim() == "<!-- /output -->")
                .unwrap_or_else(|| panic!("{}:{}: output block not closed", file.display(), i + 1));
            let inner: Vec<&str> = lines[i + 1..close]
                .iter()
                .copied()
                .filter(|l| !l.starts_with("```"))
                .collect();
            // a markdown block's blank first and last lines are layout
            let inner = if m.markdown {
                let first = inner.iter().position(|l| !l.trim().is_empty());
                let last = inner.iter().rposition(|l| !l.trim().is_empty());
                match (first, last) {
                    (Some(a), Some(b)) => inner[a..=b].to_vec(),
                    _ => Vec::new(),
                }
            } else {
                inner
            };
            assert!(
                m.slow || !m.command.contains("--size bench"),
                "{}:{}: a bench-size command takes minutes: mark the block \
                 `<!-- output(slow): … -->`",
                file.display(),
                i + 1
            );
            out.push(Block {
                file: file.to_path_buf(),
                line: i + 1,
                command: m.command,
                tolerance: m.tolerance,
                slow: m.slow,
                markdown: m.markdown,
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

/// How a quoted command is run: the program and its arguments.
fn program(b: &Block) -> (PathBuf, Vec<String>) {
    let words: Vec<&str> = b.command.split_whitespace().collect();
    let at = format!("{}:{}", b.file.display(), b.line);
    match words.first() {
        Some(&"gpuenergy") => (
            PathBuf::from(env!("CARGO_BIN_EXE_gpuenergy")),
            words[1..].iter().map(|s| s.to_string()).collect(),
        ),
        Some(&"cargo") => {
            // cargo run --release [-p CRATE] --example NAME [-- ARGS]
            let split = words.iter().position(|w| *w == "--").unwrap_or(words.len());
            let (build, args) = (&words[1..split], &words[(split + 1).min(words.len())..]);
            let usage = "a quoted cargo command is `cargo run --release [-p CRATE] --example \
                         NAME [-- ARGS]`";
            let mut name = None;
            let mut it = build.iter();
            assert_eq!(it.next(), Some(&"run"), "{at}: {usage}");
            while let Some(w) = it.next() {
                match *w {
                    "--release" => {}
                    "-p" => assert!(it.next().is_some(), "{at}: {usage}"),
                    "--example" => name = it.next().copied(),
                    _ => panic!("{at}: {usage}"),
                }
            }
            assert!(build.contains(&"--release"), "{at}: {usage}");
            let name = name.unwrap_or_else(|| panic!("{at}: {usage}"));
            // built as one target of the whole workspace, so that its dependencies have the
            // features the workspace's build gave them (`-p CRATE` alone would resolve
            // them anew and rebuild the crates below it)
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let mut cmd = Command::new(cargo);
            cmd.args([
                "build",
                "--quiet",
                "--release",
                "--workspace",
                "--example",
                name,
            ])
            .current_dir(root());
            let st = cmd.status().unwrap();
            assert!(st.success(), "{at}: building the example `{name}` failed");
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| root().join("target"));
            let exe = target
                .join("release")
                .join("examples")
                .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
            (exe, args.iter().map(|s| s.to_string()).collect())
        }
        _ => panic!("{at}: a quoted command starts with `gpuenergy` or `cargo run --release`"),
    }
}

fn run(b: &Block) -> String {
    let (exe, args) = program(b);
    let start = Instant::now();
    let out = Command::new(&exe)
        .args(&args)
        .current_dir(root())
        .env_remove("GPUENERGY_BLESS_DOCS")
        .output()
        .unwrap_or_else(|e| panic!("{}:{}: {}: {e}", b.file.display(), b.line, exe.display()));
    eprintln!(
        "{}:{}: `{}` ran in {:.1} s",
        b.file.display(),
        b.line,
        b.command,
        start.elapsed().as_secs_f64()
    );
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
    t.replace('−', "-").parse().ok()
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
        if b.markdown {
            // blank lines around the table, so that it renders
            out.push(String::new());
            out.extend(fresh.lines().map(str::to_string));
            out.push(String::new());
        } else {
            out.push("```text".into());
            out.extend(fresh.lines().map(str::to_string));
            out.push("```".into());
        }
        i = b.close;
    }
    out.extend(lines[i..].iter().map(|s| s.to_string()));
    std::fs::write(file, out.join("\n") + "\n").unwrap();
}

/// Runs the blocks that are `slow` (or not), as `GPUENERGY_DOC_BLOCKS` selects; checks them
/// against the quoted text, or rewrites them under `GPUENERGY_BLESS_DOCS`.
fn check(slow: bool) {
    let bless = std::env::var_os("GPUENERGY_BLESS_DOCS").is_some();
    let only = std::env::var("GPUENERGY_DOC_BLOCKS").ok();
    let mut failures = Vec::new();
    let mut count = 0;
    for file in doc_files() {
        let bs = blocks(&file);
        let mut fresh = Vec::new();
        for b in bs.iter().filter(|b| b.slow == slow) {
            if only
                .as_ref()
                .is_some_and(|o| !b.command.contains(o.as_str()))
            {
                continue;
            }
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
    assert!(
        count > 0 || only.is_some(),
        "no quoted outputs found (slow: {slow})"
    );
    let ignored = if slow { " -- --ignored" } else { "" };
    assert!(
        failures.is_empty(),
        "quoted outputs differ from a fresh run (regenerate with GPUENERGY_BLESS_DOCS=1 cargo \
         test --release --test doc_outputs{ignored}):\n{}",
        failures.join("\n")
    );
}

#[test]
fn quoted_outputs_match_a_fresh_run() {
    check(false);
}

/// The bench-size blocks: tens of minutes on two cores.
#[test]
#[ignore = "bench-size runs: cargo test --release --test doc_outputs -- --ignored"]
fn slow_quoted_outputs_match_a_fresh_run() {
    check(true);
}

#[test]
fn the_comparison_catches_a_moved_figure() {
    let quoted = "MAPE 2.6 %, r 1.000\nchip area 6.43 mm2";
    assert!(differs(quoted, "MAPE 2.6 %, r 1.000\nchip area 6.43 mm2", 0.005).is_none());
    assert!(differs(quoted, "MAPE 2.61 %, r 1.000\nchip area 6.43 mm2", 0.005).is_none());
    assert!(differs(quoted, "MAPE 4.6 %, r 1.000\nchip area 6.43 mm2", 0.005).is_some());
    assert!(differs(quoted, "MAPE 2.6 %, r 1.000\nchip area 6.43 cm2", 0.005).is_some());
    assert!(differs(quoted, "MAPE 2.6 %, r 1.000", 0.005).is_some());
    assert!(differs("| −2.6 % |", "| -2.6 % |", 0.005).is_none());
}

#[test]
fn markers_state_slow_and_tolerance() {
    let m = |l: &str| parse_marker(l).unwrap().unwrap();
    assert_eq!(
        m("<!-- output(tolerance=2%): gpuenergy techs -->"),
        Marker {
            command: "gpuenergy techs".into(),
            tolerance: 0.02,
            slow: false,
            markdown: false
        }
    );
    assert_eq!(
        m("<!-- output(slow, tolerance=1%): gpuenergy techs -->"),
        Marker {
            command: "gpuenergy techs".into(),
            tolerance: 0.01,
            slow: true,
            markdown: false
        }
    );
    assert!(m("<!-- output(slow): gpuenergy techs -->").slow);
    assert!(m("<!-- output(slow, markdown): gpuenergy techs -->").markdown);
    assert!(!m("<!-- output: gpuenergy techs -->").slow);
    assert_eq!(parse_marker("<!-- /output -->").unwrap(), None);
    assert!(parse_marker("<!-- output(fast): gpuenergy techs -->").is_err());
    assert!(parse_marker("<!-- output(tolerance=2): gpuenergy techs -->").is_err());
}
