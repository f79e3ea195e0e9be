//! `gpuenergy trace --form`: the default stock form (what stock Accel-Sim parses), the rich form
//! behind the flag, both read back by `gpuenergy simulate --trace` with equal instruction counts,
//! and a bad form refused with exit status 2.

use std::path::Path;

mod common;
use common::gpuenergy;

fn ok(args: &[&str]) -> String {
    let out = gpuenergy(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn simulate_json(dir: &Path) -> serde_json::Value {
    let out = ok(&[
        "simulate",
        "--preset",
        "gtx1080ti",
        "--trace",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    serde_json::from_str(&out).expect("valid JSON")
}

#[test]
fn trace_writes_stock_form_by_default_and_rich_on_request() {
    let base = std::env::temp_dir().join(format!("gpuenergy-cli-form-{}", std::process::id()));
    let (stock, rich) = (base.join("stock"), base.join("rich"));
    let _ = std::fs::remove_dir_all(&base);
    let s = ok(&[
        "trace",
        "--workload",
        "nw",
        "--out",
        stock.to_str().unwrap(),
    ]);
    assert!(s.contains("(stock form)"), "{s}");
    let r = ok(&[
        "trace",
        "--workload",
        "nw",
        "--out",
        rich.to_str().unwrap(),
        "--form",
        "rich",
    ]);
    assert!(r.contains("(rich form)"), "{r}");

    let stock_text = std::fs::read_to_string(stock.join("kernel-1.traceg")).unwrap();
    let rich_text = std::fs::read_to_string(rich.join("kernel-1.traceg")).unwrap();
    assert!(
        !stock_text.contains("-gpuenergy"),
        "stock header has a gpuenergy key"
    );
    assert!(rich_text.contains("-gpuenergy explicit regs = 1"));
    // Stock lines: at most one destination, no predicate operands.
    let hex = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_hexdigit());
    let mut lines = 0;
    for l in stock_text.lines() {
        let t: Vec<&str> = l.split_whitespace().collect();
        if t.len() < 4 || t[1].len() != 8 || !hex(t[0]) || !hex(t[1]) {
            continue; // not an instruction line
        }
        lines += 1;
        assert!(t[2] == "0" || t[2] == "1", "{l}");
        assert!(!t.iter().any(|x| x.starts_with('P')), "{l}");
    }
    assert!(lines > 100, "{lines} instruction lines");
    assert!(
        rich_text.lines().any(|l| l.contains(" P")),
        "rich lists predicates"
    );

    let (a, b) = (simulate_json(&stock), simulate_json(&rich));
    assert_eq!(a["warp_instructions"], b["warp_instructions"]);
    assert!(a["cycles"].as_u64().unwrap() > 0 && b["cycles"].as_u64().unwrap() > 0);
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn trace_help_documents_the_form_flag_and_bad_forms_exit_2() {
    let help = ok(&["trace", "--help"]);
    assert!(help.contains("--form") && help.contains("stock") && help.contains("rich"));
    let out = gpuenergy(&[
        "trace",
        "--workload",
        "nw",
        "--out",
        "/nonexistent-dir-never-created",
        "--form",
        "fancy",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("stock") && err.contains("rich"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
