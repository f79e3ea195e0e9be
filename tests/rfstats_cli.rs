//! `gpuenergy rfstats`: the register-file characterisation in table, JSON and CSV form, its
//! plots, and the refusal of an unknown workload.

mod common;
use common::{ok, refused};

#[test]
fn rfstats_table_json_and_csv_agree() {
    let t = ok(&["rfstats", "--workload", "hotspot", "--quiet"]);
    assert!(t.contains("allocated registers"), "{t}");
    assert!(t.contains("inter-access distance"), "{t}");
    assert!(t.contains("active lanes per warp inst: 1-4:"), "{t}");
    assert!(t.contains("calculate_temp"), "{t}");
    let j = ok(&[
        "rfstats",
        "--workload",
        "hotspot",
        "--format",
        "json",
        "--quiet",
    ]);
    let v: serde_json::Value = serde_json::from_str(&j).expect("JSON parses");
    let c = &v["workloads"][0];
    assert_eq!(c["workload"], "hotspot");
    assert_eq!(v["run"]["config_name"], "gtx480");
    let alloc = c["allocated_fraction"].as_f64().unwrap();
    assert!(alloc > 0.0 && alloc <= 1.0);
    assert!((alloc + c["unallocated_fraction"].as_f64().unwrap() - 1.0).abs() < 1e-12);
    // the active-lane bins and the masked-off instructions count every issued instruction
    let lanes: u64 = c["active_lanes"]["insts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .sum();
    let masked = c["active_lanes"]["masked_off_insts"].as_u64().unwrap();
    assert_eq!(lanes + masked, c["warp_insts"].as_u64().unwrap());
    let ia = &c["inter_access"];
    assert!(ia["count_within_cutoff"].as_u64() <= ia["count"].as_u64());
    assert_eq!(ia["cutoff_cycles"], 3000);
    let k = &c["kernels"][0];
    assert_eq!(k["kernel"], "all");
    let s3 = k["top_shares"][0].as_f64().unwrap();
    let s5 = k["top_shares"][2].as_f64().unwrap();
    assert!(0.0 < s3 && s3 <= s5 && s5 <= 1.0);
    assert!(k["pilot"]["pilots"].as_u64().unwrap() >= 1);
    // CSV: header, four fields a row, the same allocated fraction
    let csv = ok(&[
        "rfstats",
        "--workload",
        "hotspot",
        "--format",
        "csv",
        "--quiet",
    ]);
    let mut lines = csv.lines();
    let head = lines.next().unwrap();
    assert!(
        head.starts_with("workload,kernel,metric,value,version,config_name,config_hash"),
        "{head}"
    );
    let mut found = false;
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), head.split(',').count(), "{l}");
        if f[2] == "allocated_fraction" {
            assert_eq!(f[3].parse::<f64>().unwrap(), alloc);
            found = true;
        }
    }
    assert!(found);
}

#[test]
fn rfstats_cutoff_key_and_plots() {
    let dir = std::env::temp_dir().join(format!("gpuenergy_rfstats_{}", std::process::id()));
    let j = ok(&[
        "rfstats",
        "--workload",
        "bfs",
        "--set",
        "metrics.interaccess_cutoff=10",
        "--format",
        "json",
        "--plot",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    let v: serde_json::Value = serde_json::from_str(&j).unwrap();
    let ia = &v["workloads"][0]["inter_access"];
    assert_eq!(ia["cutoff_cycles"], 10);
    assert!(ia["mean_within_cutoff_cycles"].as_f64().unwrap() <= 10.0);
    for f in ["bfs_active_lanes.svg", "bfs_interaccess.svg"] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rfstats_refuses_bad_input() {
    let e = refused(&["rfstats", "--workload", "nosuch", "--quiet"]);
    assert!(e.contains("nosuch") && e.contains("hotspot"), "{e}");
    let e = refused(&[
        "rfstats",
        "--workload",
        "hotspot",
        "--set",
        "metrics.interaccess_cutoff=0",
        "--quiet",
    ]);
    assert!(e.contains("metrics.interaccess_cutoff"), "{e}");
    refused(&["rfstats", "--workload", "hotspot", "--format", "xml"]);
}
