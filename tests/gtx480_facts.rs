//! The GTX480 preset at 40 nm, on the whole test suite, next to the public facts for that chip
//! (die 529 mm², board power up to 250 W). Printed, not tuned: docs/accuracy.md explains the
//! gap, and the figures it quotes ("about N mm²", "about P W (leakage about L %)") must be this
//! run's, rounded as quoted, so that they cannot go stale.
//! Run: `cargo test --release --test gtx480_facts -- --nocapture`.

use std::process::Command;

#[test]
fn gtx480_at_40nm_next_to_public_facts() {
    let out = Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args([
            "estimate", "--tech", "40nm", "--preset", "gtx480", "--format", "json",
        ])
        .env("CI", "1")
        .output()
        .expect("run gpuenergy");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let area_mm2 = v["area_m2"].as_f64().unwrap() * 1e6;
    let ws = v["workloads"].as_array().unwrap();
    let (mut e, mut t, mut leak) = (0.0, 0.0, 0.0);
    for w in ws {
        e += w["energy_j"].as_f64().unwrap();
        t += w["runtime_s"].as_f64().unwrap();
        leak += w["leakage_j"].as_f64().unwrap();
    }
    let power_w = e / t;
    let leak_share = leak / e;
    println!(
        "GTX480 preset, 40 nm hp, 350 K, {} test-size workloads:",
        ws.len()
    );
    println!("  chip area     {area_mm2:8.1} mm2   (public: die 529 mm2)");
    println!("  average power {power_w:8.1} W     (public: board power up to 250 W)");
    println!("  leakage share {:8.1} %", 100.0 * leak_share);
    assert!(area_mm2 > 0.0 && power_w > 0.0 && leak_share > 0.0 && leak_share < 1.0);

    let doc_path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/accuracy.md");
    let doc = std::fs::read_to_string(doc_path).expect("docs/accuracy.md");
    let row = |label: &str| {
        doc.lines()
            .find(|l| l.starts_with(&format!("| {label} |")))
            .unwrap_or_else(|| panic!("docs/accuracy.md has no '| {label} |' row"))
            .to_string()
    };
    let quoted = [
        (row("chip area"), format!("about {:.0} mm²", area_mm2)),
        (
            row("average power"),
            format!(
                "about {:.1} W (leakage about {:.0} %)",
                power_w,
                100.0 * leak_share
            ),
        ),
    ];
    for (line, want) in quoted {
        assert!(
            line.contains(&want),
            "docs/accuracy.md quotes `{line}`; this run gives `{want}`"
        );
    }
}
