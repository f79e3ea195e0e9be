//! The `[fold]` and `[origami]` tables: defaults, range checks, enum errors that list the
//! allowed values, and the combinations the model refuses (each error naming both keys).

use sim::config::fold::{FoldSection, OrigamiSection};
use sim::config::pg::PgPolicy;
use sim::config::GpuConfig;

fn load(extra: &str) -> Result<GpuConfig, String> {
    GpuConfig::from_toml_str(&format!("base = \"gtx480\"\n{extra}\n"), "user.toml")
        .map_err(|e| e.to_string())
}

#[test]
fn presets_get_the_spec_defaults() {
    for name in GpuConfig::preset_names() {
        let cfg = GpuConfig::preset(name).unwrap();
        assert_eq!(cfg.fold, FoldSection::default());
        assert_eq!(cfg.origami, OrigamiSection::default());
    }
    let f = FoldSection::default();
    assert!(!f.enabled);
    assert_eq!(f.n_phase, 300);
    assert_eq!(
        (f.aggressive_frac, f.conservative_frac, f.disable_util),
        (0.70, 0.40, 0.90)
    );
    assert_eq!(
        (f.n_pipeflush, f.extra_stages, f.eager_idle_detect),
        (19, 2, 1)
    );
    let o = OrigamiSection::default();
    assert!(o.grouping && o.lane_shifting);
    assert_eq!(o.force_switch_phases, 2);
    // The dump names every key, so a user sees the knobs.
    let text = GpuConfig::preset("gtx480").unwrap().to_full_toml_string();
    assert!(
        text.contains("[fold]") && text.contains("[origami]"),
        "{text}"
    );
    assert!(text.contains("fold_window = \"PhaseStart\""), "{text}");
}

#[test]
fn a_full_file_may_omit_the_tables_or_give_part_of_one() {
    let mut t: toml::Table =
        toml::from_str(&GpuConfig::preset("gtx480").unwrap().to_full_toml_string()).unwrap();
    t.remove("fold");
    t.remove("origami");
    let text = toml::to_string(&t).unwrap();
    let cfg = GpuConfig::from_toml_str(&text, "full.toml").unwrap();
    assert_eq!(cfg.fold, FoldSection::default());
    let part = format!("{text}\n[fold]\nenabled = false\n");
    let cfg = GpuConfig::from_toml_str(&part, "full.toml").unwrap();
    assert_eq!(cfg.fold, FoldSection::default());
}

#[test]
fn folding_and_origami_load_and_bad_combinations_name_both_keys() {
    // the techniques' knob sets load
    load("fold.enabled = true").unwrap();
    load(
        "fold.enabled = true\npg.policy = \"Conventional\"\npg.granularity = \"LaneGroup\"\n\
         sched.policy = \"origami\"\norigami.lane_shifting = true",
    )
    .unwrap();
    load("fold.enabled = true\nfold.n_phase = 200\nfold.fold_window = \"PhaseEnd\"").unwrap();
    // a fold key with folding off would be ignored
    let e = load("fold.n_phase = 200").unwrap_err();
    assert!(e.contains("user.toml"), "{e}");
    assert!(
        e.contains("'fold.n_phase' = 200") && e.contains("'fold.enabled' = false"),
        "{e}"
    );
    // an origami key without the Origami scheduler
    let e = load("fold.enabled = true\norigami.lane_shifting = false").unwrap_err();
    assert!(
        e.contains("'origami.lane_shifting' = false") && e.contains("'sched.policy'"),
        "{e}"
    );
    // the Origami scheduler without folding
    let e = load("sched.policy = \"origami\"").unwrap_err();
    assert!(
        e.contains("'sched.policy' = \"origami\"") && e.contains("'fold.enabled' = false"),
        "{e}"
    );
    // eager gating needs lane domains
    let e = load("fold.enabled = true\npg.policy = \"Conventional\"").unwrap_err();
    assert!(
        e.contains("'fold.eager_gating' = true") && e.contains("'pg.granularity'"),
        "{e}"
    );
    load("fold.enabled = true\nfold.eager_gating = false\npg.policy = \"Conventional\"").unwrap();
    // the lane policy must be the controllers' policy
    let e =
        load("fold.enabled = true\npg.policy = \"NaiveBlackout\"\npg.granularity = \"LaneGroup\"")
            .unwrap_err();
    assert!(
        e.contains("'fold.lane_pg_policy' = \"Conventional\"")
            && e.contains("'pg.policy' = \"NaiveBlackout\""),
        "{e}"
    );
    let e = load("fold.enabled = true\nfold.lane_pg_policy = \"NaiveBlackout\"").unwrap_err();
    assert!(e.contains("'pg.policy' = \"None\""), "{e}");
    // the lane domains run their own policy: set explicitly, it may differ from pg.policy
    let lane = "fold.enabled = true\npg.granularity = \"LaneGroup\"\n";
    let c = load(&format!(
        "{lane}pg.policy = \"Conventional\"\npg.gate_sfu = true\n\
         fold.lane_pg_policy = \"NaiveBlackout\""
    ))
    .unwrap();
    assert_eq!(c.lane_policy_in_effect(), Some(PgPolicy::NaiveBlackout));
    let c = load(&format!(
        "{lane}pg.policy = \"NaiveBlackout\"\nfold.lane_pg_policy = \"None\""
    ))
    .unwrap();
    assert_eq!(c.lane_policy_in_effect(), Some(PgPolicy::None));
    // lanes are never coordinated
    let e = load(&format!(
        "{lane}pg.policy = \"Conventional\"\nfold.lane_pg_policy = \"CoordinatedBlackout\""
    ))
    .unwrap_err();
    assert!(
        e.contains("'fold.lane_pg_policy' = \"CoordinatedBlackout\"") && e.contains("SP clusters"),
        "{e}"
    );
    // at SP-cluster granularity there are no lane domains
    let e = load(
        "fold.enabled = true\nfold.eager_gating = false\npg.policy = \"Conventional\"\n\
         fold.lane_pg_policy = \"NaiveBlackout\"",
    )
    .unwrap_err();
    assert!(
        e.contains("'fold.lane_pg_policy' = \"NaiveBlackout\"") && e.contains("'pg.granularity'"),
        "{e}"
    );
    // without folding every domain runs pg.policy
    let c = load("pg.policy = \"NaiveBlackout\"\npg.granularity = \"LaneGroup\"").unwrap();
    assert_eq!(c.lane_policy_in_effect(), None);
    // Defaults written out explicitly load.
    load("fold.enabled = false\nfold.n_phase = 300\norigami.force_switch_phases = 2").unwrap();
}

#[test]
fn bad_values_name_the_key_and_what_is_allowed() {
    for (kv, want) in [
        (
            "fold.n_phase = 0",
            "'fold.n_phase' = 0: a phase must be at least 1 cycle",
        ),
        (
            "fold.aggressive_frac = 1.5",
            "'fold.aggressive_frac' = 1.5: must be a fraction in (0, 1]",
        ),
        (
            "fold.conservative_frac = 0.0",
            "'fold.conservative_frac' = 0: must be a fraction in (0, 1]",
        ),
        (
            "fold.disable_util = -0.1",
            "'fold.disable_util' = -0.1: must be a fraction in (0, 1]",
        ),
        ("fold.eager_idle_detect = 8", "3 bits, so at most 7"),
        (
            "origami.force_switch_phases = 0",
            "M must be at least 1 phase",
        ),
        ("units.sub_cluster_lanes = 6", "allowed: 2, 4, 8, 16, 32"),
    ] {
        let e = load(kv).unwrap_err();
        assert!(e.contains(want), "{kv}: {e}");
    }
    for (kv, allowed) in [
        (
            "fold.fold_window = \"Middle\"",
            ["PhaseStart", "PhaseEnd"].as_slice(),
        ),
        ("fold.util_count = \"All\"", &["AllIssued", "SpIssued"]),
        ("fold.type_count_source = \"x\"", &["ActiveSet", "AllWarps"]),
        ("fold.fold_tie = \"x\"", &["IntMajority", "FpMajority"]),
        (
            "fold.lane_pg_policy = \"x\"",
            &[
                "None",
                "Conventional",
                "NaiveBlackout",
                "CoordinatedBlackout",
            ],
        ),
        (
            "origami.group_tie = \"x\"",
            &["KeepCurrent", "Full", "Partial"],
        ),
        (
            "origami.fold_compaction = \"x\"",
            &["LeftCompact", "PositionPreserving"],
        ),
        ("units.lane_map = \"x\"", &["Identity", "DoublePumped16"]),
    ] {
        let e = load(kv).unwrap_err();
        let key = kv.split(' ').next().unwrap();
        assert!(e.contains(&format!("'{key}'")), "{kv}: {e}");
        assert!(e.contains("line 2"), "{kv}: {e}");
        for a in allowed {
            assert!(e.contains(a), "{kv}: {e}");
        }
    }
    let e = load("fold.no_such_knob = 1").unwrap_err();
    assert!(e.contains("unknown key 'fold.no_such_knob'"), "{e}");
}
