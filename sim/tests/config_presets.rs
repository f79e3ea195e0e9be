//! Presets, key-by-key overrides and config error messages (simulator §1, §6.3).

use sim::config::{GpuConfig, SchedPolicy};

fn tmp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sim-config-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn preset_names_and_aliases() {
    assert_eq!(
        GpuConfig::preset_names(),
        &[
            "gtx480",
            "gtx780",
            "gtx1080ti",
            "v100",
            "gf8800gtx_like",
            "vortex_like"
        ]
    );
    assert_eq!(
        GpuConfig::preset("gtx480_like").unwrap(),
        GpuConfig::preset("gtx480").unwrap()
    );
    assert_eq!(
        GpuConfig::preset("kepler_ch6").unwrap(),
        GpuConfig::preset("gtx780").unwrap()
    );
    let tl = GpuConfig::preset("gtx480_tl").unwrap();
    assert_eq!(tl.sched.policy, SchedPolicy::TwoLevel);
    assert_eq!(tl.sched.two_level.active_per_sched, 6);
    assert!(GpuConfig::preset("gtx9999").is_err());
}

// The V100's public figures (Tesla V100 whitepaper): 80 SMs of four sub-cores at 1,530 MHz,
// 16 FP32/INT32, 8 FP64 and 4 SFU lanes per sub-core, 6 MB of L2, four HBM2 stacks of eight
// 128-bit channels at 877 MHz, double data rate (about 900 GB/s).
#[test]
fn v100_matches_its_public_figures() {
    let g = GpuConfig::preset("v100").unwrap();
    assert_eq!(
        (g.gpu.n_sm, g.gpu.core_mhz, g.sm.n_subcores),
        (80, 1530.0, 4)
    );
    assert_eq!(
        (
            g.units.n_sp,
            g.units.sp_lanes,
            g.units.n_int,
            g.units.n_dp,
            g.units.dp_lanes
        ),
        (4, 16, 4, 4, 8)
    );
    assert_eq!((g.units.n_sfu, g.units.sfu_lanes), (4, 4));
    let l2_bytes = g.l2.size_bytes() * u64::from(g.mem.n_channels * g.mem.subparts_per_channel);
    assert_eq!(l2_bytes, 6 * 1024 * 1024);
    assert_eq!(g.mem.n_channels, 32);
    let gbs = g.dram_peak_bw_bytes_per_s() / 1e9;
    assert!((gbs - 898.0).abs() < 1.0, "{gbs} GB/s");
    // The unified 128 KB array: 96 KB of shared memory beside a 32 KB L1.
    assert_eq!(g.sm.shmem_bytes + g.l1d.size_bytes() as u32, 128 * 1024);
}

// control-flow spec §5.8: the DWF study's 8800 GTX-like baseline.
#[test]
fn gf8800gtx_like_matches_its_table() {
    let g = GpuConfig::preset("gf8800gtx_like").unwrap();
    assert_eq!(
        (g.gpu.n_sm, g.gpu.core_mhz, g.gpu.dram_mhz),
        (16, 650.0, 650.0)
    );
    assert_eq!(
        (g.gpu.warp_size, g.units.sp_lanes, g.units.n_sp),
        (32, 8, 1)
    );
    assert_eq!((g.sm.max_threads, g.sm.n_registers), (768, 8192));
    assert_eq!(g.mem.n_channels, 8);
    // 8 B per DRAM cycle per module.
    assert!((g.dram_peak_bw_bytes_per_s() / 8.0 / 650e6 - 8.0).abs() < 1e-9);
    let t = &g.dram.timing;
    assert_eq!(
        (t.cl, t.rp, t.rc, t.ras, t.rcd, t.rrd),
        (9, 13, 34, 21, 12, 8)
    );
    assert_eq!(g.l1d.size_bytes(), 512 * 1024);
    assert_eq!(
        (g.l1d.assoc, g.l1d.line_bytes, g.l1d.banks, g.l1d.latency),
        (8, 64, 16, 10)
    );
    assert!(g.frontend.perfect_icache);
    assert_eq!(g.dwf.pool_entries, 128);
    assert_eq!((g.dwf.pc_lut_entries, g.dwf.pc_lut_ways), (64, 4));
    assert_eq!((g.dwf.mheap_lut_entries, g.dwf.mheap_lut_ways), (128, 8));
    assert_eq!(g.dwf.heap_entries, 64);
    assert_eq!(
        g.reconv.stack_update_at,
        sim::config::reconv::StackUpdateAt::Writeback
    );
    assert_eq!(GpuConfig::preset("gf8800gtx").unwrap(), g);
}

#[test]
fn preset_values_match_the_tables() {
    let f = GpuConfig::preset("gtx480").unwrap();
    assert_eq!(
        (f.gpu.n_sm, f.gpu.core_mhz, f.gpu.dram_mhz),
        (15, 700.0, 924.0)
    );
    assert_eq!(
        (f.sm.max_warps, f.sm.max_threads, f.sm.max_ctas),
        (48, 1536, 8)
    );
    assert_eq!(f.rf_bytes(), 128 * 1024);
    assert_eq!(f.rf_entries(), 1024);
    assert_eq!(f.icache.size_bytes(), 2 * 1024);
    assert_eq!(f.l1d.size_bytes(), 16 * 1024);
    assert_eq!(f.const_cache.size_bytes(), 8 * 1024);
    assert_eq!(f.tex_cache.size_bytes(), 12 * 1024);
    assert_eq!(f.l2_total_bytes(), 768 * 1024);
    assert_eq!(f.dram_burst_bytes(), 64);
    assert!((f.dram_peak_bw_bytes_per_s() / 1e9 - 177.4).abs() < 0.1);
    assert_eq!(f.latency.int.div, [145, 8]);
    assert_eq!(f.latency.sfu, [8, 8]);

    let k = GpuConfig::preset("gtx780").unwrap();
    assert_eq!(k.gpu.core_mhz, 863.0);
    assert_eq!((k.sched.n_per_sm, k.sched.issue_per_sched), (4, 2));
    assert_eq!(k.rf_bytes(), 256 * 1024);
    assert_eq!(k.rf.n_banks, 24);
    // 2048 entries over 24 banks: 8 banks get 86 rows, 16 get 85.
    let rows: Vec<u64> = (0..24).map(|b| k.rf_bank_rows(b)).collect();
    assert_eq!(rows.iter().sum::<u64>(), 2048);
    assert_eq!(k.l2_total_bytes(), 1536 * 1024);
    assert_eq!(k.dram_burst_bytes(), 32);
    assert!((k.dram_peak_bw_bytes_per_s() / 1e9 - 288.4).abs() < 0.1);
    assert_eq!(k.latency.sfu, [20, 2]);

    let p = GpuConfig::preset("gtx1080ti").unwrap();
    assert_eq!(
        (p.gpu.n_sm, p.gpu.core_mhz, p.sm.n_subcores),
        (28, 1480.0, 4)
    );
    assert_eq!(p.l1d.size_bytes(), 48 * 1024);
    assert_eq!(p.l2_total_bytes(), 2816 * 1024);
    assert!((p.dram_peak_bw_bytes_per_s() / 1e9 - 484.0).abs() < 0.1);
    assert_eq!(p.gpu.kernel_launch_latency, 5000);
}

#[test]
fn round_trip_full_file() {
    for n in GpuConfig::preset_names() {
        let c = GpuConfig::preset(n).unwrap();
        let text = c.to_toml_string();
        let back = GpuConfig::from_toml_str(&text, "dump.toml").unwrap();
        assert_eq!(back, c);
        assert_eq!(back.hash_hex(), c.hash_hex());
    }
}

#[test]
fn user_file_overrides_key_by_key() {
    let p = tmp_file(
        "ovr.toml",
        "base = \"gtx480\"\n[sched]\npolicy = \"lrr\"\n[sched.two_level]\nactive_per_sched = 8\n\
         [latency]\nint = { div = [100, 4] }\n[l1d]\nsets = 64\n",
    );
    let c = GpuConfig::from_toml_file(&p).unwrap();
    let base = GpuConfig::preset("gtx480").unwrap();
    assert_eq!(c.sched.policy, SchedPolicy::Lrr);
    assert_eq!(c.sched.two_level.active_per_sched, 8);
    assert_eq!(c.sched.two_level.inner, base.sched.two_level.inner);
    assert_eq!(c.latency.int.div, [100, 4]);
    assert_eq!(c.latency.int.add, base.latency.int.add);
    assert_eq!(c.l1d.sets, 64);
    assert_eq!(c.l1d.assoc, base.l1d.assoc);
    assert_eq!(c.gpu, base.gpu);
}

#[test]
fn unknown_key_names_file_and_line() {
    let p = tmp_file(
        "bad_key.toml",
        "base = \"gtx780\"\n\n[sched]\npolcy = \"lrr\"\n",
    );
    let e = GpuConfig::from_toml_file(&p).unwrap_err().to_string();
    assert!(e.contains("bad_key.toml"), "{e}");
    assert!(e.contains("line 4"), "{e}");
    assert!(e.contains("sched.polcy"), "{e}");
}

#[test]
fn wrong_type_names_line() {
    let p = tmp_file(
        "bad_type.toml",
        "base = \"gtx480\"\n[gpu]\nname = \"x\"\nn_sm = \"fifteen\"\n",
    );
    let e = GpuConfig::from_toml_file(&p).unwrap_err().to_string();
    assert!(e.contains("bad_type.toml") && e.contains("line 4"), "{e}");
    let p = tmp_file(
        "bad_policy.toml",
        "base = \"gtx480\"\n[sched]\npolicy = \"fastest\"\n",
    );
    let e = GpuConfig::from_toml_file(&p).unwrap_err().to_string();
    assert!(e.contains("line 3") && e.contains("fastest"), "{e}");
}

#[test]
fn full_file_missing_key_and_bad_base() {
    let e = GpuConfig::from_toml_str("[sim]\nseed = 1\n", "partial.toml")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("partial.toml") && e.contains("missing field"),
        "{e}"
    );
    let e = GpuConfig::from_toml_str("base = \"gtx9\"\n", "b.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 1") && e.contains("gtx9"), "{e}");
    let e = GpuConfig::from_toml_str("base = \"gtx480\"\n[gpu\n", "syn.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("syn.toml") && e.contains("line 2"), "{e}");
    let p = std::path::Path::new("/nonexistent/dir/cfg.toml");
    let e = GpuConfig::from_toml_file(p).unwrap_err().to_string();
    assert!(e.contains("/nonexistent/dir/cfg.toml"), "{e}");
}

#[test]
fn validation_rejects_nonsense() {
    let e = GpuConfig::from_toml_str("base = \"gtx480\"\n[gpu]\nn_sm = 0\n", "z.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("gpu.n_sm"), "{e}");
}

/// Spec keys whose non-baseline values are not modelled are refused, naming the key.
#[test]
fn unimplemented_options_are_refused() {
    for (text, key) in [
        ("[sim]\nthreads = 4\n", "sim.threads"),
        ("[stats]\nepoch_cycles = 1000\n", "stats.epoch_cycles"),
        ("[stats]\ntimeline_dump = true\n", "stats.timeline_dump"),
        ("[stats]\noutput = \"jsonl\"\n", "stats.output"),
        (
            "[sched.ooo]\nmode = \"loog\"\nloog_n_cu = 99\n",
            "sched.ooo.loog_n_cu",
        ),
        ("[sched.ooo]\nib_depth = 0\n", "sched.ooo.ib_depth"),
        ("[hooks]\nunit_gate = \"gates\"\n", "hooks.unit_gate"),
    ] {
        let e = GpuConfig::from_toml_str(&format!("base = \"gtx480\"\n{text}"), "u.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains(key) && e.contains("u.toml"), "{text}: {e}");
    }
    // the baseline values are accepted
    let ok = "base = \"gtx480\"\n[sim]\nthreads = 1\n[sched.ooo]\nmode = \"none\"\n";
    assert!(GpuConfig::from_toml_str(ok, "ok.toml").is_ok());
}
