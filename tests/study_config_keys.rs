//! Every key of the configuration-file tables that are not the machine's — the register-file
//! energy accounting's `[energy]` and the optimiser's `[opt]`, read by the study configuration
//! (`gpuenergy::study_config::StudyConfig`) — is read, with where, and checked naming the key.
//! The machine's keys are audited in `sim/tests/config_keys_audit.rs`.

use gpuenergy::study_config::{StudyConfig, OTHER_TABLES};

/// Keys read, with where.
const READ: &[(&str, &str)] = &[
    ("energy.calibration", "src/rfcost.rs (calibrated)"),
    (
        "energy.write_equals_read",
        "models/src/rf/structures/design.rs (RfDesign::from_config)",
    ),
    (
        "energy.fixed_ratio_sweep",
        "src/compare/mod.rs (fixed-ratio totals)",
    ),
    ("opt.area_budget", "src/cli/optimize.rs (solve)"),
    ("opt.max_slowdown", "src/cli/optimize.rs (solve)"),
    ("opt.objective", "src/cli/optimize.rs (solve)"),
    ("opt.snm_min", "src/cli/optimize.rs (solve)"),
];

#[test]
fn every_key_of_the_other_tables_is_read() {
    let full: toml::Table =
        toml::from_str(&StudyConfig::preset("gtx480").unwrap().to_full_toml_string()).unwrap();
    let mut keys = Vec::new();
    for table in OTHER_TABLES {
        let t = full[table].as_table().expect("a table");
        keys.extend(t.keys().map(|k| format!("{table}.{k}")));
    }
    keys.sort();
    let mut read: Vec<String> = READ.iter().map(|(k, _)| k.to_string()).collect();
    read.sort();
    assert_eq!(keys, read, "keys without a decision, or stale entries");
    for (_, place) in READ {
        let file = place.split(' ').next().unwrap();
        assert!(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(file)
                .exists(),
            "{place}"
        );
    }
}

#[test]
fn opt_keys_are_range_checked_naming_the_key() {
    let plain = StudyConfig::preset("gtx480").unwrap().to_toml_string();
    assert!(
        !plain.contains("[opt]") && !plain.contains("[energy]"),
        "a table written while at its defaults"
    );
    for (text, needle) in [
        ("opt.area_budget = \"2\"", "'opt.area_budget'"),
        ("opt.area_budget = \"-1%\"", "'opt.area_budget'"),
        ("opt.max_slowdown = -0.1", "'opt.max_slowdown'"),
        ("opt.snm_min = 2.0", "'opt.snm_min'"),
        ("opt.objective = \"power\"", "edp"),
        (
            "energy.fixed_ratio_sweep = [1.0, -2.0]",
            "'energy.fixed_ratio_sweep'",
        ),
        ("energy.calibration = \"rows\"", "paper_rows"),
    ] {
        let src = format!("base = \"gtx480\"\n{text}\n");
        let err = StudyConfig::from_toml_str(&src, "user.toml")
            .expect_err(text)
            .to_string();
        assert!(
            err.contains(needle) && err.contains("user.toml"),
            "{text}: {err}"
        );
    }
    let src = "base = \"gtx480\"\n[opt]\narea_budget = \"1.5mm2\"\nmax_slowdown = 0.1\n\
               objective = \"ed2p\"\nsnm_min = 0.05\n";
    let cfg = StudyConfig::from_toml_str(src, "user.toml").unwrap();
    assert_eq!(
        cfg.opt.objective,
        gpuenergy::study_config::opt::OptObjective::Ed2p
    );
    assert_eq!(cfg.opt.area_budget, "1.5mm2");
    assert_eq!(
        cfg.machine,
        sim::config::GpuConfig::preset("gtx480").unwrap()
    );
}
