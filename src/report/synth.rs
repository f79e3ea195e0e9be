//! Renderers of `gpuenergy synth`: the list of synthesisable components, the table of
//! synthesis results (area, leakage, energy per operation and critical path of each run, as
//! the normalised `record.json` holds them) and `record.json` itself with the run metadata
//! (`run`, [`crate::provenance::RunInfo`]) before the record's fields.

use calibration::SynthRecord;
use std::fmt::Write;

/// The component names, one a line.
pub fn names(names: &[String]) -> String {
    let mut s = String::new();
    for n in names {
        let _ = writeln!(s, "{n}");
    }
    s
}

/// `synth --component list`: each registered component with its description and size
/// parameters (default, sweep grid, what it sizes).
pub fn component_list(specs: &[::calibration::rtl::ComponentSpec]) -> String {
    let mut s = String::new();
    for c in specs {
        let _ = writeln!(s, "{:<14} {}", c.name, c.description);
        if c.params.is_empty() {
            let _ = writeln!(s, "{:<14}   (no size parameters)", "");
        }
        for p in c.params {
            let grid: Vec<String> = p.sweep.iter().map(|v| v.to_string()).collect();
            let _ = writeln!(
                s,
                "{:<14}   {}={} (sweep {}): {}",
                "",
                p.name,
                p.default,
                grid.join(","),
                p.description
            );
        }
    }
    s
}

/// The header line of the results table.
pub fn header() -> String {
    format!(
        "{:<14} {:<22} {:>12} {:>12} {:>14} {:>10}\n",
        "component", "params", "area_um2", "leakage_uw", "energy_pj_op", "path_ps"
    )
}

/// One line of the results table: component, parameters, area (um^2), leakage (uW), energy per
/// operation (pJ) and critical path (ps; `-` when timing reported none).
pub fn row(rec: &SynthRecord) -> String {
    let p: Vec<String> = rec.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!(
        "{:<14} {:<22} {:>12.3} {:>12.4} {:>14.5} {:>10}\n",
        rec.component,
        p.join(","),
        rec.area_m2 * 1e12,
        rec.leakage_w * 1e6,
        rec.energy_per_op_j * 1e12,
        rec.critical_path_s
            .map(|d| format!("{:.1}", d * 1e12))
            .unwrap_or_else(|| "-".into())
    )
}

/// The text of a run's `record.json`: the `run` object (what produced the record), then the
/// record's own fields, which [`SynthRecord::from_json`] reads back (it ignores `run`).
pub fn record_json(run: &crate::provenance::RunInfo, rec: &SynthRecord) -> String {
    super::json_struct_with_run(run, rec).expect("a synthesis record serialises") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_record_carries_the_run_and_reads_back() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("calibration/goldens/asap7-rvt-tt/alu32/WIDTH=16/record.json");
        let rec = SynthRecord::load(&path).unwrap();
        let mut run = crate::provenance::RunInfo::for_command();
        run.flavour = rec.flavour.clone();
        run.vdd_v = rec.vdd_v;
        let text = record_json(&run, &rec);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["run"]["tool"], "gpuenergy", "{text}");
        assert_eq!(v["run"]["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(v["run"]["flavour"], rec.flavour.as_str());
        assert!(text.trim_start().starts_with("{\n  \"run\""), "{text}");
        assert_eq!(SynthRecord::from_json(&text, &path).unwrap(), rec);
    }

    #[test]
    fn a_committed_record_renders_in_the_header_columns() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("calibration/goldens/asap7-rvt-tt/alu32/WIDTH=16/record.json");
        let rec = SynthRecord::load(&path).unwrap();
        let line = row(&rec);
        assert!(line.starts_with("alu32          WIDTH=16 "), "{line}");
        assert_eq!(line.len(), header().len(), "{line}");
        assert!(line.ends_with('\n'));
        assert_eq!(names(&["a".into(), "b".into()]), "a\nb\n");
    }
}
