//! `docs/config-keys.md` is the configuration-key reference as `gpuenergy presets --keys`
//! generates it from the schema, byte for byte: a key added, renamed, re-documented or given
//! another range or preset value fails here until the page is regenerated with
//! `GPUENERGY_BLESS_DOCS=1 cargo test --release --test config_keys_doc`. The generator itself
//! fails (and so does this test) on a key without a meaning or a number without a unit.

use std::path::PathBuf;
use std::process::Command;

fn page() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/config-keys.md")
}

fn generated() -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(["presets", "--keys"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "presets --keys failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_page_is_the_generated_reference() {
    let fresh = generated();
    if std::env::var_os("GPUENERGY_BLESS_DOCS").is_some() {
        std::fs::write(page(), &fresh).unwrap();
        return;
    }
    let quoted = std::fs::read_to_string(page()).unwrap_or_default();
    if quoted != fresh {
        let at = quoted
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| quoted.lines().count().min(fresh.lines().count()));
        panic!(
            "docs/config-keys.md differs from `gpuenergy presets --keys` at line {}:\n  page:  {}\n  fresh: {}\n\
             regenerate with GPUENERGY_BLESS_DOCS=1 cargo test --release --test config_keys_doc",
            at + 1,
            quoted.lines().nth(at).unwrap_or("(end)"),
            fresh.lines().nth(at).unwrap_or("(end)")
        );
    }
}

#[test]
fn every_key_of_every_preset_has_a_row_with_meaning_and_every_number_a_unit() {
    let out = Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args(["presets", "--keys", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    // The keys of the full files `presets --dump` prints, of every preset.
    let mut keys = std::collections::BTreeSet::new();
    for preset in [
        "gtx480",
        "gtx780",
        "gtx1080ti",
        "v100",
        "gf8800gtx_like",
        "vortex_like",
    ] {
        let dump = Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
            .args(["presets", "--dump", preset])
            .output()
            .unwrap();
        let t: toml::Table = toml::from_str(&String::from_utf8_lossy(&dump.stdout)).unwrap();
        fn walk(t: &toml::Table, p: &str, out: &mut std::collections::BTreeSet<String>) {
            for (k, v) in t {
                let key = if p.is_empty() {
                    k.clone()
                } else {
                    format!("{p}.{k}")
                };
                match v {
                    toml::Value::Table(s) => walk(s, &key, out),
                    _ => {
                        out.insert(key);
                    }
                }
            }
        }
        walk(&t, "", &mut keys);
    }
    let documented: std::collections::BTreeSet<String> = rows
        .iter()
        .map(|r| r["key"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(documented, keys, "rows differ from the presets' keys");
    assert!(keys.len() > 300, "{} keys", keys.len());
    for r in &rows {
        let key = r["key"].as_str().unwrap();
        assert!(
            r["meaning"].as_str().is_some_and(|m| m.len() > 3),
            "{key}: no meaning"
        );
        if matches!(
            r["kind"].as_str(),
            Some("integer" | "number" | "number list")
        ) {
            assert!(
                r["unit"].as_str().is_some_and(|u| !u.is_empty()) && r["min"].is_number(),
                "{key}: a number without unit or range: {r}"
            );
        }
        assert!(r["presets"]["gtx480"].is_string(), "{key}: no gtx480 value");
    }
    // Spot checks against the loader: the range the reference states is the one it enforces.
    let core = rows.iter().find(|r| r["key"] == "gpu.core_mhz").unwrap();
    assert_eq!(core["unit"], "MHz");
    assert_eq!(core["max"], 100000.0);
    let refused = Command::new(env!("CARGO_BIN_EXE_gpuenergy"))
        .args([
            "simulate",
            "--workload",
            "hotspot",
            "--set",
            "gpu.core_mhz=100001",
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let policy = rows.iter().find(|r| r["key"] == "sched.policy").unwrap();
    assert_eq!(policy["kind"], "choice", "{policy}");
    assert!(policy["allowed"].as_str().unwrap().contains("gto"));
}
