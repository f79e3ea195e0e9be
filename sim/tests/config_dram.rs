//! The `[dram]` keys `kind`, `column_timing` and `bank_group_index`: defaults that leave every
//! preset's text (and so its hash) as it was, the values each accepts, and the refusals of the
//! bank-group keys that per-bank spacing does not read.

use sim::config::{BankGroupIndex, DramColumnTiming, DramKind, GpuConfig};

fn load(extra: &str) -> Result<GpuConfig, String> {
    GpuConfig::from_toml_str(&format!("base = \"gtx480\"\n{extra}"), "user.toml")
        .map_err(|e| e.to_string())
}

#[test]
fn presets_default_to_gddr5_per_bank_and_keep_their_text() {
    // v100 sets the three keys (HBM2 with Accel-Sim QV100's bank-group timing)
    let v = GpuConfig::preset("v100").unwrap();
    assert_eq!(
        (v.dram.kind, v.dram.column_timing, v.dram.bank_group_index),
        (
            DramKind::Hbm2,
            DramColumnTiming::BankGroups,
            BankGroupIndex::LowBits
        )
    );
    for name in GpuConfig::preset_names().iter().filter(|n| **n != "v100") {
        let c = GpuConfig::preset(name).unwrap();
        assert_eq!(c.dram.kind, DramKind::Gddr5);
        assert_eq!(c.dram.column_timing, DramColumnTiming::PerBank);
        assert_eq!(c.dram.bank_group_index, BankGroupIndex::HighBits);
        let text = c.to_toml_string();
        for key in ["kind", "column_timing", "bank_group_index"] {
            assert!(
                !text.lines().any(|l| l.starts_with(&format!("{key} ="))),
                "{name}: {key} written at its default"
            );
        }
        let full = c.to_full_toml_string();
        for line in [
            "kind = \"gddr5\"",
            "column_timing = \"per_bank\"",
            "bank_group_index = \"high_bits\"",
        ] {
            assert!(full.contains(line), "{name}: full dump lacks {line}");
        }
    }
}

#[test]
fn every_kind_loads_and_an_unknown_one_names_the_allowed_values() {
    for (v, kind) in [
        ("gddr5", DramKind::Gddr5),
        ("gddr5x", DramKind::Gddr5x),
        ("hbm2", DramKind::Hbm2),
    ] {
        let c = load(&format!("[dram]\nkind = \"{v}\"\n")).unwrap();
        assert_eq!(c.dram.kind, kind);
        // a non-default value is written, and loads back
        let back = GpuConfig::from_toml_str(&c.to_toml_string(), "dump.toml").unwrap();
        assert_eq!(back, c);
    }
    let e = load("[dram]\nkind = \"hbm3\"\n").unwrap_err();
    assert!(e.contains("user.toml") && e.contains("line 3"), "{e}");
    for v in ["kind", "gddr5", "gddr5x", "hbm2"] {
        assert!(e.contains(v), "{e}");
    }
    let e = load("[dram]\ncolumn_timing = \"per_group\"\n").unwrap_err();
    assert!(e.contains("per_bank") && e.contains("bank_groups"), "{e}");
}

#[test]
fn bank_group_keys_are_refused_off_their_preset_values_under_per_bank() {
    for (extra, key) in [
        ("[dram]\nn_bank_groups = 8\n", "'dram.n_bank_groups' = 8"),
        ("[dram.timing]\nccd = 1\n", "'dram.timing.ccd' = 1"),
        (
            "[dram]\nbank_group_index = \"low_bits\"\n",
            "'dram.bank_group_index'",
        ),
    ] {
        let e = load(extra).unwrap_err();
        assert!(e.contains(key) && e.contains("not modelled"), "{e}");
        assert!(e.contains("per_bank"), "{e}");
        // With bank-group spacing the same values are read, and accepted.
        let with = match extra.strip_prefix("[dram]\n") {
            Some(rest) => format!("[dram]\ncolumn_timing = \"bank_groups\"\n{rest}"),
            None => format!("[dram]\ncolumn_timing = \"bank_groups\"\n{extra}"),
        };
        let c = load(&with).unwrap();
        assert_eq!(c.dram.column_timing, DramColumnTiming::BankGroups);
    }
}

#[test]
fn bank_groups_must_split_the_banks_evenly() {
    let e = load("[dram]\ncolumn_timing = \"bank_groups\"\nn_bank_groups = 3\n").unwrap_err();
    assert!(
        e.contains("'dram.n_bank_groups' = 3") && e.contains("must divide"),
        "{e}"
    );
    // per-bank spacing reads no groups: 3 is refused there as an unread value instead
    let e = load("[dram]\nn_bank_groups = 3\n").unwrap_err();
    assert!(e.contains("not modelled"), "{e}");
}
