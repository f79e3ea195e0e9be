//! `gpuenergy presets --import`: GPGPU-Sim / Accel-Sim configurations converted into gpuenergy
//! TOML. The option files are built here from `(option, value)` pairs describing the values of
//! GPGPU-Sim's tested Pascal TITAN X (SM6_TITANX) and Fermi GTX 480 (SM2_GTX480) configurations
//! and Accel-Sim's TITAN X `trace.config`: the options the mapping uses plus a few it does not.

use sim::config::{AllocPolicy, GpuConfig, SchedPolicy, SetIndex, WritePolicy};
use std::path::{Path, PathBuf};

mod common;
use common::gpuenergy;

/// Pascal TITAN X (GP102) as GPGPU-Sim describes it.
const TITANX: &[(&str, &str)] = &[
    ("-gpgpu_ptx_force_max_capability", "61"),
    ("-gpgpu_ignore_resources_limitation", "1"),
    ("-gpgpu_kernel_launch_latency", "5000"),
    ("-gpgpu_perf_sim_memcpy", "1"),
    ("-gpgpu_compute_capability_major", "6"),
    ("-gpgpu_n_clusters", "28"),
    ("-gpgpu_n_cores_per_cluster", "1"),
    ("-gpgpu_n_mem", "12"),
    ("-gpgpu_n_sub_partition_per_mchannel", "2"),
    ("-gpgpu_clock_gated_lanes", "1"),
    ("-gpgpu_clock_domains", "1417.0:1417.0:1417.0:2500.0"),
    ("-gpgpu_shader_registers", "65536"),
    ("-gpgpu_occupancy_sm_number", "62"),
    ("-gpgpu_shader_core_pipeline", "2048:32"),
    ("-gpgpu_shader_cta", "32"),
    ("-gpgpu_simd_model", "1"),
    ("-gpgpu_pipeline_widths", "4,0,0,4,4,4,0,0,4,4,8"),
    ("-gpgpu_num_sp_units", "4"),
    ("-gpgpu_num_sfu_units", "4"),
    ("-ptx_opcode_latency_int", "4,13,4,5,145,32"),
    ("-ptx_opcode_initiation_int", "1,1,1,1,4,4"),
    ("-ptx_opcode_latency_fp", "4,13,4,4,39"),
    ("-ptx_opcode_initiation_fp", "1,2,1,1,4"),
    ("-ptx_opcode_latency_dp", "8,19,8,8,330"),
    ("-ptx_opcode_initiation_dp", "8,8,8,8,130"),
    ("-ptx_opcode_initiation_sfu", "4"),
    ("-ptx_opcode_latency_sfu", "20"),
    ("-gpgpu_sub_core_model", "1"),
    ("-gpgpu_enable_specialized_operand_collector", "0"),
    ("-gpgpu_operand_collector_num_units_gen", "8"),
    ("-gpgpu_operand_collector_num_in_ports_gen", "8"),
    ("-gpgpu_operand_collector_num_out_ports_gen", "8"),
    ("-gpgpu_num_reg_banks", "16"),
    ("-gpgpu_reg_file_port_throughput", "2"),
    ("-gpgpu_shmem_num_banks", "32"),
    ("-gpgpu_shmem_limited_broadcast", "0"),
    ("-gpgpu_shmem_warp_parts", "1"),
    ("-gpgpu_coalesce_arch", "61"),
    ("-gpgpu_num_sched_per_core", "4"),
    ("-gpgpu_scheduler", "gto"),
    ("-gpgpu_max_insn_issue_per_warp", "2"),
    ("-gpgpu_dual_issue_diff_exec_units", "1"),
    ("-gpgpu_l1_banks", "2"),
    ("-gpgpu_cache:dl1", "S:4:128:96,L:L:s:N:L,A:256:8,16:0,32"),
    ("-gpgpu_cache:dl1PrefL1", "S:4:128:96,L:L:s:N:L,A:256:8,16:0,32"),
    ("-gpgpu_shmem_size", "98304"),
    ("-gpgpu_shmem_sizeDefault", "98304"),
    ("-gpgpu_gmem_skip_L1D", "1"),
    ("-icnt_flit_size", "40"),
    ("-gpgpu_n_cluster_ejection_buffer_size", "32"),
    ("-gpgpu_l1_latency", "82"),
    ("-gpgpu_smem_latency", "24"),
    ("-gpgpu_flush_l1_cache", "1"),
    ("-gpgpu_cache:dl2", "S:64:128:16,L:B:m:L:P,A:256:64,16:0,32"),
    ("-gpgpu_cache:dl2_texture_only", "0"),
    ("-gpgpu_dram_partition_queues", "32:32:32:32"),
    ("-gpgpu_memory_partition_indexing", "4"),
    ("-gpgpu_cache:il1", "N:8:128:4,L:R:f:N:L,S:2:48,4"),
    ("-gpgpu_inst_fetch_throughput", "8"),
    ("-gpgpu_tex_cache:l1", "N:16:128:24,L:R:m:N:L,T:128:4,128:2"),
    ("-gpgpu_const_cache:l1", "N:128:64:2,L:R:f:N:L,S:2:64,4"),
    ("-gpgpu_perfect_inst_const_cache", "1"),
    ("-network_mode", "1"),
    ("-inter_config_file", "config_pascal_islip.icnt"),
    ("-gpgpu_l2_rop_latency", "120"),
    ("-dram_latency", "100"),
    ("-gpgpu_dram_scheduler", "1"),
    ("-gpgpu_frfcfs_dram_sched_queue_size", "64"),
    ("-gpgpu_dram_return_queue_size", "64"),
    ("-gpgpu_n_mem_per_ctrlr", "1"),
    ("-gpgpu_dram_buswidth", "4"),
    ("-gpgpu_dram_burst_length", "8"),
    ("-dram_data_command_freq_ratio", "4  # QDR"),
    (
        "-gpgpu_mem_addr_mapping",
        "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS",
    ),
    (
        "-gpgpu_dram_timing_opt",
        "\"nbk=16:CCD=2:RRD=8:RCD=16:RAS=37:RP=16:RC=52:\n    CL=16:WL=6:CDLR=7:WR=16:nbkgrp=4:CCDL=4:RTPL=3\"",
    ),
    ("-dram_bnk_indexing_policy", "0"),
    ("-gpgpu_memlatency_stat", "14"),
    ("-visualizer_enabled", "0"),
];

/// Fermi GTX 480 as GPGPU-Sim describes it.
const GTX480: &[(&str, &str)] = &[
    ("-gpgpu_ptx_force_max_capability", "20"),
    ("-gpgpu_n_clusters", "15"),
    ("-gpgpu_n_cores_per_cluster", "1"),
    ("-gpgpu_n_mem", "6"),
    ("-gpgpu_n_sub_partition_per_mchannel", "2"),
    ("-gpgpu_clock_domains", "700.0:700.0:700.0:924.0"),
    ("-gpgpu_shader_registers", "32768"),
    ("-gpgpu_shader_core_pipeline", "1536:32"),
    ("-gpgpu_shader_cta", "8"),
    ("-gpgpu_pipeline_widths", "2,0,0,1,1,2,0,0,1,1,2"),
    ("-gpgpu_num_sp_units", "2"),
    ("-gpgpu_num_sfu_units", "1"),
    ("-gpgpu_num_dp_units", "0"),
    ("-ptx_opcode_latency_int", "4,13,4,5,145,32"),
    ("-ptx_opcode_initiation_int", "1,2,2,1,8,4"),
    ("-ptx_opcode_latency_fp", "4,13,4,5,39"),
    ("-ptx_opcode_initiation_fp", "1,2,1,1,4"),
    ("-ptx_opcode_latency_dp", "8,19,8,8,330"),
    ("-ptx_opcode_initiation_dp", "8,16,8,8,130"),
    ("-gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:H,S:64:8,8"),
    ("-gpgpu_shmem_size", "49152"),
    ("-icnt_flit_size", "40"),
    ("-gpgpu_gmem_skip_L1D", "0"),
    ("-gpgpu_n_cluster_ejection_buffer_size", "32"),
    ("-gpgpu_l1_latency", "35"),
    ("-gpgpu_smem_latency", "26"),
    ("-gpgpu_cache:dl2", "S:64:128:8,L:B:m:L:L,A:256:4,4:0,32"),
    ("-gpgpu_cache:il1", "N:4:128:4,L:R:f:N:L,S:2:32,4"),
    ("-gpgpu_tex_cache:l1", "N:4:128:24,L:R:m:N:L,T:128:4,128:2"),
    ("-gpgpu_const_cache:l1", "N:64:64:2,L:R:f:N:L,S:2:32,4"),
    ("-gpgpu_operand_collector_num_units_sp", "6"),
    ("-gpgpu_operand_collector_num_units_sfu", "8"),
    ("-gpgpu_operand_collector_num_in_ports_sp", "2"),
    ("-gpgpu_operand_collector_num_out_ports_sp", "2"),
    ("-gpgpu_num_reg_banks", "16"),
    ("-gpgpu_shmem_num_banks", "32"),
    ("-gpgpu_shmem_limited_broadcast", "0"),
    ("-gpgpu_shmem_warp_parts", "1"),
    ("-gpgpu_coalesce_arch", "20"),
    ("-gpgpu_max_insn_issue_per_warp", "1"),
    ("-network_mode", "1"),
    ("-inter_config_file", "config_fermi_islip.icnt"),
    ("-gpgpu_l2_rop_latency", "120"),
    ("-dram_latency", "100"),
    ("-gpgpu_dram_scheduler", "1"),
    ("-gpgpu_frfcfs_dram_sched_queue_size", "64"),
    ("-gpgpu_dram_return_queue_size", "116"),
    ("-gpgpu_n_mem_per_ctrlr", "2"),
    ("-gpgpu_dram_buswidth", "4"),
    ("-gpgpu_dram_burst_length", "8"),
    ("-dram_data_command_freq_ratio", "4"),
    (
        "-gpgpu_mem_addr_mapping",
        "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS",
    ),
    (
        "-gpgpu_dram_timing_opt",
        "\"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n    CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2\"",
    ),
    ("-gpgpu_num_sched_per_core", "2"),
    ("-gpgpu_scheduler", "gto"),
    ("-power_simulation_enabled", "1"),
];

/// Accel-Sim's TITAN X trace-mode latencies.
const TRACE: &[(&str, &str)] = &[
    ("-trace_opcode_latency_initiation_int", "4,1"),
    ("-trace_opcode_latency_initiation_sp", "4,1"),
    ("-trace_opcode_latency_initiation_dp", "20,8"),
    ("-trace_opcode_latency_initiation_sfu", "20,4"),
];

/// A scratch directory for one test.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpuenergy-import-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `pairs` as an option file (`# comment`, then `-option value` per line).
fn write_options(path: &Path, pairs: &[(&str, &str)], extra: &str) {
    let mut t = String::from("# written by the import test\n");
    for (o, v) in pairs {
        t.push_str(&format!("{o} {v}\n"));
    }
    t.push_str(extra);
    std::fs::write(path, t).unwrap();
}

/// Runs the import; returns (stdout, the resolved configuration, the TOML text).
fn import(config: &Path, trace: Option<&Path>, out: &Path) -> (String, GpuConfig, String) {
    let mut args = vec![
        "presets",
        "--import",
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    if let Some(t) = trace {
        args.extend(["--trace-config", t.to_str().unwrap()]);
    }
    let o = gpuenergy(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cfg = GpuConfig::from_toml_file(out).expect("the output loads");
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        cfg,
        std::fs::read_to_string(out).unwrap(),
    )
}

#[test]
fn titanx_import_maps_lists_and_simulates() {
    let dir = scratch("titanx");
    let cfg_path = dir.join("SM6_TITANX").join("gpgpusim.config");
    std::fs::create_dir_all(cfg_path.parent().unwrap()).unwrap();
    let trace = dir.join("trace.config");
    write_options(&cfg_path, TITANX, "");
    write_options(&trace, TRACE, "");
    let out = dir.join("titanx.toml");
    let (stdout, c, toml) = import(&cfg_path, Some(&trace), &out);

    assert_eq!(c.gpu.name, "SM6_TITANX");
    assert_eq!(c.gpu.n_sm, 28);
    assert_eq!(
        (c.gpu.core_mhz, c.gpu.l2_mhz, c.gpu.dram_mhz),
        (1417.0, 1417.0, 2500.0)
    );
    assert_eq!(
        (c.sm.max_warps, c.sm.max_ctas, c.sm.n_registers),
        (64, 32, 65536)
    );
    assert_eq!((c.sm.n_subcores, c.sched.n_per_sm), (4, 4));
    assert_eq!(c.sched.policy, SchedPolicy::Gto);
    assert_eq!((c.rf.n_banks, c.rf.ports_per_bank), (16, 2));
    assert_eq!(
        (c.opcoll.units.gen, c.opcoll.units.sp, c.opcoll.units.mem),
        (8, 0, 0)
    );
    assert_eq!(c.latency.int.div, [145, 4]);
    assert_eq!(c.latency.fp.mad, [4, 1]);
    assert_eq!(c.latency.dp.max, [19, 8]);
    assert_eq!(c.latency.sfu, [20, 4]);
    assert_eq!(c.latency.trace.dp, [20, 8]);
    assert_eq!(c.l1d.size_bytes(), 48 * 1024);
    assert_eq!(
        (c.l1d.sector_bytes, c.l1d.alloc),
        (32, AllocPolicy::Streaming)
    );
    assert_eq!(
        (c.l1d.latency, c.l1d.banks, c.l1d.skip_global),
        (82, 2, true)
    );
    assert_eq!(c.tex_cache.size_bytes(), 48 * 1024);
    assert_eq!(c.const_cache.size_bytes(), 16 * 1024);
    assert_eq!(c.icache.size_bytes(), 4 * 1024);
    assert_eq!(
        (c.l2.set_index, c.l2.write_policy),
        (SetIndex::Ipoly, WritePolicy::Wb)
    );
    assert_eq!(c.l2_total_bytes(), 3 * 1024 * 1024);
    assert_eq!(c.frontend.fetch_throughput, 8);
    assert_eq!(c.mem.n_channels, 12);
    assert_eq!(c.mem.addr_map, "0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS");
    assert_eq!((c.dram.n_banks, c.dram.n_bank_groups), (16, 4));
    assert_eq!(
        (c.dram.timing.rcd, c.dram.timing.rc, c.dram.timing.rtpl),
        (16, 52, 3)
    );
    assert!((c.dram_peak_bw_bytes_per_s() - 480e9).abs() < 1e6);
    // GPGPU-Sim semantics: both halves of the perfect instruction/constant cache, the launch
    // latency before every kernel, copies written through the L2
    assert!(c.frontend.perfect_icache && c.compat.perfect_const_cache);
    assert!(c.compat.launch_latency_first);
    assert_eq!(c.gpu.kernel_launch_latency, 5000);
    assert!(c.mem.memcpy_fills_l2);
    assert!(!c.mem.flush_l2_between_launches);

    // The base is the closest preset and the header says so.
    assert!(
        stdout.contains("base preset: gtx1080ti (closest"),
        "{stdout}"
    );
    assert!(toml.contains("# Base preset: gtx1080ti, the closest built-in preset"));
    // Options not modelled: on stdout and as comments, with name and value.
    for (o, v) in [
        ("-gpgpu_memory_partition_indexing", "4"),
        ("-inter_config_file", "config_pascal_islip.icnt"),
        ("-gpgpu_clock_gated_lanes", "1"),
        ("-gpgpu_shmem_sizeDefault", "98304"),
    ] {
        let line = format!("{o} {v}");
        assert!(stdout.contains(&line), "stdout lacks {line}");
        assert!(toml.contains(&format!("#   {line} (")), "TOML lacks {line}");
    }
    // A mapped option is annotated where it lands.
    assert!(toml.contains("n_sm = 28  # -gpgpu_n_clusters ("), "{toml}");
    assert!(stdout.contains("differs from gtx1080ti in"), "{stdout}");
    // The run metadata: the table's first line and the written file's comment header.
    assert!(stdout.starts_with("gpuenergy "), "{stdout}");
    assert!(
        toml.starts_with("# Written by gpuenergy ") && toml.contains("\n# Run: gpuenergy "),
        "{toml}"
    );

    // The output simulates.
    let sim = gpuenergy(&[
        "simulate",
        "--config",
        out.to_str().unwrap(),
        "--workload",
        "histo",
        "--format",
        "json",
    ]);
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&sim.stdout).unwrap();
    assert!(v["cycles"].as_u64().unwrap() > 0, "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gtx480_import_with_the_titanx_trace_config() {
    let dir = scratch("gtx480");
    let cfg_path = dir.join("gtx480.config");
    let trace = dir.join("trace.config");
    write_options(&cfg_path, GTX480, "");
    write_options(&trace, TRACE, "");
    let out = dir.join("gtx480.toml");
    let (stdout, c, _) = import(&cfg_path, Some(&trace), &out);
    assert!(stdout.contains("base preset: gtx480 (closest"), "{stdout}");
    assert_eq!(c.gpu.name, "gtx480");
    assert_eq!(
        (c.gpu.n_sm, c.gpu.core_mhz, c.gpu.dram_mhz),
        (15, 700.0, 924.0)
    );
    assert_eq!((c.sm.max_warps, c.sm.max_ctas), (48, 8));
    assert_eq!((c.sched.n_per_sm, c.sm.n_subcores), (2, 1));
    assert_eq!((c.opcoll.units.sp, c.opcoll.units.sfu), (6, 8));
    assert_eq!(c.latency.int.mul, [4, 2]);
    assert_eq!(c.latency.dp.max, [19, 16]);
    assert_eq!(c.l1d.size_bytes(), 16 * 1024);
    assert_eq!((c.l1d.set_index, c.l1d.mshr_entries), (SetIndex::Hash, 64));
    assert_eq!(c.l2_total_bytes(), 768 * 1024);
    assert_eq!(c.dram.chips_per_channel, 2);
    assert_eq!(c.dram.timing.ras, 28);
    assert_eq!(c.latency.trace.sfu, [20, 4]);
    assert!((c.dram_peak_bw_bytes_per_s() - 177.408e9).abs() < 1e6);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unhonourable_values_exit_2_naming_file_line_option_and_allowed_values() {
    let dir = scratch("bad");
    let cfg_path = dir.join("gpgpusim.config");
    let out = dir.join("bad.toml");
    let line = TITANX.len() + 3; // header comment + two-line DRAM timing value
    for (extra, needles) in [
        (
            "-gpgpu_scheduler warp_limiting:2:4\n",
            vec!["-gpgpu_scheduler", "warp_limiting:2:4", "lrr, gto"],
        ),
        (
            "-gpgpu_cache:dl2 S:64:128:16,F:B:m:L:X,A:256:64,16:0,32\n",
            vec!["-gpgpu_cache:dl2", "set-index", "L (linear)"],
        ),
        (
            "-gpgpu_shader_core_pipeline 2048:64\n",
            vec![
                "-gpgpu_shader_core_pipeline",
                "warp size",
                "<threads per SM>:32",
            ],
        ),
    ] {
        write_options(&cfg_path, TITANX, extra);
        let o = gpuenergy(&[
            "presets",
            "--import",
            cfg_path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.contains("gpgpusim.config"), "{err}");
        assert!(err.contains(&format!("line {line}")), "{err}");
        for n in needles {
            assert!(err.contains(n), "expected '{n}' in: {err}");
        }
        assert!(!out.exists(), "no output on error");
    }
    // A missing --out and an unknown base are refused too.
    let o = gpuenergy(&["presets", "--import", cfg_path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    write_options(&cfg_path, TITANX, "");
    let o = gpuenergy(&[
        "presets",
        "--import",
        cfg_path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--base",
        "gtx9999",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("gtx480, gtx780, gtx1080ti"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn out_of_range_empty_and_self_overwriting_imports_are_refused() {
    let dir = scratch("range");
    let cfg_path = dir.join("gpgpusim.config");
    let out = dir.join("out.toml");
    let line = TITANX.len() + 3;
    // Values outside a key's physical range, including one beyond TOML's integer range: the
    // error names the key, its range, and the option, file and line that set it.
    for (extra, key, range) in [
        ("-gpgpu_n_clusters 99999\n", "gpu.n_sm", "1..=4096"),
        (
            "-gpgpu_kernel_launch_latency 18446744073709551615\n",
            "gpu.kernel_launch_latency",
            "0..=10000000 cycles",
        ),
        (
            "-gpgpu_clock_domains 1e12:1417.0:1417.0:2500.0\n",
            "gpu.core_mhz",
            "1..=100000 MHz",
        ),
    ] {
        write_options(&cfg_path, TITANX, extra);
        let err = common::refused(&[
            "presets",
            "--import",
            cfg_path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        for n in [key, range, &format!("gpgpusim.config:{line}")] {
            assert!(err.contains(n), "expected '{n}' in: {err}");
        }
        assert!(!out.exists(), "no output on error");
    }
    // A file with no options is not a configuration.
    std::fs::write(&cfg_path, "# nothing here\n\n").unwrap();
    let err = common::refused(&[
        "presets",
        "--import",
        cfg_path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(err.contains("no options found"), "{err}");
    // --out naming an input would overwrite it: refused, the input left as it was.
    write_options(&cfg_path, TITANX, "");
    let before = std::fs::read(&cfg_path).unwrap();
    let err = common::refused(&[
        "presets",
        "--import",
        cfg_path.to_str().unwrap(),
        "--out",
        cfg_path.to_str().unwrap(),
    ]);
    assert!(err.contains("would overwrite"), "{err}");
    assert_eq!(std::fs::read(&cfg_path).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}
