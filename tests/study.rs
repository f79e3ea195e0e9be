//! The library pipeline `Study`: provenance of every cost (which model, how accurate), the
//! overlay's cross-validated errors carried into calibrated costs, and results that do not
//! depend on whether the workloads ran in parallel.

use gpuenergy::report;
use gpuenergy::study::{workloads_named, NamedOverlay, Study};
use models::gpu::{sram_accuracy, CvMape, Node, Source};
use models::overlay::{KindFit, Overlay, OverlayReference, QuantityFit};
use sim::config::GpuConfig;
use std::collections::BTreeMap;

fn find<'a>(root: &'a Node, name: &str) -> &'a Node {
    let mut hit = None;
    root.walk(0, &mut |_, n| {
        if hit.is_none() && n.name == name {
            hit = Some(n);
        }
    });
    hit.unwrap_or_else(|| panic!("no node '{name}'"))
}

fn gtx480() -> GpuConfig {
    GpuConfig::preset("gtx480").unwrap()
}

#[test]
fn every_node_says_where_its_numbers_come_from() {
    let r = Study::new(
        gtx480(),
        techlib::ResolvedPoint::named("planar45").unwrap(),
        None,
    )
    .static_only(true)
    .run(&[])
    .unwrap();
    let sram = Source::SramModel {
        accuracy: sram_accuracy(techlib::NodeKind::Planar),
    };
    assert_eq!(find(&r.area, "L1D data").source, sram);
    assert_eq!(find(&r.area, "register file").source, Source::Mixed);
    assert_eq!(find(&r.area, "SP FP units").source, Source::Analytical);
    assert_eq!(find(&r.area, "execution").source, Source::Analytical);
    assert_eq!(find(&r.area, "clock distribution").source, Source::Wire);
    assert_eq!(find(&r.area, "interconnect").source, Source::Mixed);
    assert!(matches!(
        &find(&r.area, "DRAM (off-chip)").source,
        Source::Published { source } if source.contains("MICRO")
    ));
    // A group's source is its children's common one, else mixed.
    r.area.walk(0, &mut |_, n| {
        if !n.children.is_empty() {
            assert_eq!(
                n.source,
                Source::common(n.children.iter().map(|c| &c.source))
            );
        }
    });
    let table = report::table::render(&r);
    assert!(
        table.lines().nth(2).unwrap().ends_with(" source"),
        "{table}"
    );
    assert!(table.contains("\nsource: analytical = "), "{table}");
    assert!(
        table.contains(" wire\n") && table.contains(" published\n"),
        "{table}"
    );
    let csv = report::csv::render(&r);
    let columns = report::csv::report_header().trim_end().split(',').count();
    assert!(csv
        .lines()
        .next()
        .unwrap()
        .starts_with("workload,component,"));
    assert!(
        csv.lines().skip(1).all(|l| l.split(',').count() == columns),
        "{csv}"
    );
}

fn fit(terms: &[&str], coefficients: &[f64], cv_mape_pct: f64) -> QuantityFit {
    QuantityFit {
        form: "alu32".into(),
        terms: terms.iter().map(|t| t.to_string()).collect(),
        coefficients: coefficients.to_vec(),
        n_points: 6,
        fit_mape_pct: 1.0,
        cv_mape_pct,
    }
}

#[test]
fn calibrated_costs_carry_the_overlays_cross_validated_error() {
    let mut kinds = BTreeMap::new();
    kinds.insert(
        "alu32".to_string(),
        KindFit {
            area_m2: Some(fit(&["WIDTH", "1"], &[2e-12, 1e-12], 2.5)),
            energy_per_op_j: Some(fit(&["WIDTH", "1"], &[1e-15, 1e-15], f64::NAN)),
            ..KindFit::default()
        },
    );
    let overlay = Overlay {
        node: "asap7".into(),
        reference: OverlayReference {
            flavour: "rvt".into(),
            corner: "tt".into(),
            vdd_v: 0.7,
            temperature_c: 25.0,
            clock_period_s: 1e-9,
            source: "test".into(),
        },
        kinds,
    };
    let named = NamedOverlay {
        name: "alu-only.toml".into(),
        overlay,
    };
    let r = Study::new(
        gtx480(),
        techlib::ResolvedPoint::named("asap7").unwrap(),
        Some(named),
    )
    .static_only(true)
    .run(&[])
    .unwrap();
    let alu = &find(&r.area, "SP integer ALUs").source;
    let Source::Calibrated {
        overlay,
        cv_mape_pct,
    } = alu
    else {
        panic!("ALUs should be calibrated, got {alu:?}");
    };
    assert_eq!(overlay, "alu-only.toml");
    assert_eq!(cv_mape_pct.area_m2, CvMape::Pct(2.5));
    assert_eq!(cv_mape_pct.leakage_w, CvMape::Analytical);
    assert_eq!(cv_mape_pct.energy_per_op_j, CvMape::NotCrossValidated);
    assert_eq!(find(&r.area, "SP FP units").source, Source::Analytical);
    let json = report::json::render(&r).unwrap();
    assert!(json.contains("\"overlay\": \"alu-only.toml\""), "{json}");
    assert!(json.contains("\"energy_per_op_j\": \"not cross-validated\""));
    assert!(report::table::render(&r).contains("cal a2.5 l- e?"));
}

#[test]
fn parallel_and_serial_runs_give_the_same_report() {
    let list = [
        workloads_named("pathfinder").unwrap()[0],
        workloads_named("hotspot").unwrap()[0],
    ];
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let s2 = seen.clone();
    let par = Study::new(
        gtx480(),
        techlib::ResolvedPoint::named("planar45").unwrap(),
        None,
    )
    .on_progress(move |name, done, total| s2.lock().unwrap().push((name.to_string(), done, total)))
    .run(&list)
    .unwrap();
    let ser = Study::new(
        gtx480(),
        techlib::ResolvedPoint::named("planar45").unwrap(),
        None,
    )
    .parallel(false)
    .run(&list)
    .unwrap();
    assert_eq!(
        report::json::render(&par).unwrap(),
        report::json::render(&ser).unwrap()
    );
    assert_eq!(par.workloads[0].workload, "pathfinder");
    assert_eq!(par.workloads[1].workload, "hotspot");
    let mut seen = seen.lock().unwrap().clone();
    seen.sort_by_key(|s| s.1);
    assert_eq!(seen.len(), 2);
    assert_eq!(seen.iter().map(|s| s.1).collect::<Vec<_>>(), [1, 2]);
    assert!(seen.iter().all(|s| s.2 == 2));
}

#[test]
fn bad_inputs_are_typed_errors_naming_the_problem() {
    let e = techlib::ResolvedPoint::named("planar3")
        .unwrap_err()
        .to_string();
    assert!(e.contains("planar3"), "{e}");
    let e = Study::new(
        gtx480(),
        techlib::ResolvedPoint::named("planar45").unwrap(),
        None,
    )
    .activity("/nonexistent/act.json")
    .run(&[])
    .unwrap_err();
    assert!(e.to_string().contains("/nonexistent/act.json"), "{e}");
    let e = NamedOverlay::load(std::path::Path::new("/nonexistent/ov.toml")).unwrap_err();
    assert!(e.to_string().contains("ov.toml"), "{e}");
}

/// A costing registered after the built-in ones, as a plug-in technique would be: it sees the
/// estimate the built-ins produced, its edit lands in the tree (typed `Part`, no names), the
/// totals include it, and its record is written under its key.
#[test]
fn a_plugin_costing_joins_the_builtin_registry() {
    use gpuenergy::costing::{builtin, CostingError, Record};
    use models::gpu::{Estimate, Part};
    use models::technique::{CostContext, Costing, Edit, TechniqueCost};

    struct Marker;
    impl TechniqueCost<Record, CostingError> for Marker {
        fn key(&self) -> &'static str {
            "marker"
        }
        fn cost(
            &self,
            ctx: &CostContext<'_>,
            e: &Estimate,
            _: &sim::activity::KernelActivity,
        ) -> Result<Option<Costing<Record>>, CostingError> {
            // the issue-stage costing ran before: the tree still has its scoreboard
            let sb = e
                .root
                .find_part(Part::Scoreboard)
                .expect("scoreboard")
                .area_m2;
            let n = ctx.chip.n_sm;
            Ok(Some(Costing {
                edits: vec![Edit::Append {
                    parent: Part::Issue,
                    nodes: vec![Node {
                        name: "marker table".into(),
                        instances: n,
                        area_m2: sb,
                        ..Node::default()
                    }],
                }],
                record: Record::Other(serde_json::json!({ "area_m2": sb })),
            }))
        }
    }

    // a costing with no static form of its own refuses a static study, naming itself; a
    // study with runs still reports (its static tree is the first run's, without energies)
    let mut reg = builtin();
    reg.register(Box::new(Marker));
    let err = Study::new(
        gtx480(),
        techlib::ResolvedPoint::named("planar45").unwrap(),
        None,
    )
    .costings(reg)
    .static_only(true)
    .run(&[])
    .unwrap_err();
    assert!(
        err.to_string().contains("'marker'") && err.to_string().contains("--static"),
        "{err}"
    );
    let w = workloads_named("hotspot").unwrap();
    let base = Study::new(
        gtx480(),
        techlib::ResolvedPoint::named("planar45").unwrap(),
        None,
    )
    .run(&w)
    .unwrap();
    let mut reg = builtin();
    reg.register(Box::new(Marker));
    assert_eq!(reg.keys(), ["gating", "rf", "issue", "dwf", "marker"]);
    let with = Study::new(
        gtx480(),
        techlib::ResolvedPoint::named("planar45").unwrap(),
        None,
    )
    .costings(reg)
    .run(&w)
    .unwrap();
    let (b, m) = (&base.workloads[0], &with.workloads[0]);
    let sb = find(&b.estimate.root, "scoreboard").area_m2;
    assert!(sb > 0.0);
    assert_eq!(find(&m.estimate.root, "marker table").area_m2, sb);
    assert_eq!(find(&with.area, "marker table").area_m2, sb);
    assert_eq!(with.area_m2, m.estimate.root.area_m2);
    let added = m.estimate.root.totals().area_m2 - b.estimate.root.totals().area_m2;
    assert!(
        (added - sb).abs() <= 1e-9 * sb.max(1e-12),
        "{added} vs {sb}"
    );
    assert_eq!(
        m.energy_j, b.energy_j,
        "an area-only structure adds no energy"
    );
    let json = serde_json::to_value(m).unwrap();
    assert_eq!(json["marker"]["area_m2"].as_f64(), Some(sb));
    assert!(json.get("issue").is_some() && json.get("gating").is_none());
    assert!(m.issue().is_some() && m.rf().is_none());
}
