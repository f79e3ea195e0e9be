//! Unit tests of the GPGPU-Sim import: option values that describe the Pascal TITAN X
//! configuration of GPGPU-Sim's tested configurations (written here as `(option, value)` pairs,
//! not copied from the file), mapped values, the closest-preset choice, refused values and the
//! TOML round trip.

use super::*;
use crate::config::{AllocPolicy, InnerPolicy, SchedPolicy, SetIndex};

/// Option text from `(option, value)` pairs, one per line.
fn text(pairs: &[(&str, &str)]) -> String {
    pairs.iter().map(|(o, v)| format!("{o} {v}\n")).collect()
}

/// The options of a Pascal TITAN X description that the mapping uses, plus a few it does not.
const TITANX: [(&str, &str); 24] = [
    ("-gpgpu_ptx_sim_mode", "0"),
    ("-gpgpu_kernel_launch_latency", "5000"),
    ("-gpgpu_n_clusters", "28"),
    ("-gpgpu_n_cores_per_cluster", "1"),
    ("-gpgpu_n_mem", "12"),
    ("-gpgpu_n_sub_partition_per_mchannel", "2"),
    ("-gpgpu_clock_domains", "1417.0:1417.0:1417.0:2500.0"),
    ("-gpgpu_shader_core_pipeline", "2048:32"),
    ("-gpgpu_pipeline_widths", "4,0,0,4,4,4,0,0,4,4,8"),
    ("-ptx_opcode_latency_int", "4,13,4,5,145,32"),
    ("-ptx_opcode_initiation_int", "1,1,1,1,4,4"),
    ("-gpgpu_sub_core_model", "1"),
    ("-gpgpu_enable_specialized_operand_collector", "0"),
    ("-gpgpu_operand_collector_num_units_gen", "8"),
    ("-gpgpu_num_sched_per_core", "4"),
    ("-gpgpu_scheduler", "gto"),
    ("-gpgpu_cache:dl1", "S:4:128:96,L:L:s:N:L,A:256:8,16:0,32"),
    ("-gpgpu_shmem_size", "98304"),
    ("-gpgpu_cache:dl2", "S:64:128:16,L:B:m:L:P,A:256:64,16:0,32"),
    ("-gpgpu_memlatency_stat", "14"),
    (
        "-gpgpu_mem_addr_mapping",
        "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS",
    ),
    (
        "-gpgpu_dram_timing_opt",
        "\"nbk=16:CCD=2:RRD=8:RCD=16:RAS=37:RP=16:RC=52:\n CL=16:WL=6:CDLR=7:WR=16:nbkgrp=4:CCDL=4:RTPL=3\"",
    ),
    ("-network_mode", "1"),
    ("-gpgpu_cache:il1", "N:8:128:4,L:R:f:N:L,S:2:48,4"),
];

fn import_titanx(extra: &str, base: Option<&str>) -> Result<Imported, SimError> {
    let cfg = text(&TITANX) + extra;
    let trace =
        "-trace_opcode_latency_initiation_dp 20,8\n-trace_opcode_latency_initiation_sfu 20,4\n";
    import(
        &[
            OptionSource {
                file: "gpgpusim.config",
                text: &cfg,
            },
            OptionSource {
                file: "trace.config",
                text: trace,
            },
        ],
        base,
        "titanx",
    )
}

#[test]
fn titanx_maps_the_modelled_options() {
    let imp = import_titanx("", None).unwrap();
    let c = &imp.config;
    assert_eq!(imp.base, "gtx1080ti");
    assert_eq!(c.gpu.name, "titanx");
    assert_eq!(c.gpu.n_sm, 28);
    assert_eq!((c.gpu.core_mhz, c.gpu.dram_mhz), (1417.0, 2500.0));
    assert_eq!(c.gpu.kernel_launch_latency, 5000);
    assert_eq!((c.sm.max_threads, c.sm.max_warps), (2048, 64));
    assert_eq!((c.sm.n_subcores, c.sched.n_per_sm), (4, 4));
    assert_eq!(c.sched.policy, SchedPolicy::Gto);
    assert_eq!((c.opcoll.units.gen, c.opcoll.units.sp), (8, 0));
    assert_eq!(c.latency.int.div, [145, 4]);
    assert_eq!(c.latency.trace.dp, [20, 8]);
    assert_eq!(c.l1d.size_bytes(), 48 * 1024);
    assert_eq!(c.l1d.alloc, AllocPolicy::Streaming);
    assert_eq!(c.l1d.mshr_entries, 256);
    assert_eq!(c.l2.set_index, SetIndex::Ipoly);
    assert_eq!(c.l2_total_bytes(), 24 * 128 * 1024);
    assert_eq!(c.mem.n_channels, 12);
    assert_eq!(c.dram.timing.rc, 52);
    // `icache.alloc` is not modelled: the base preset's value is kept, the option's note says so.
    assert_eq!(c.icache.alloc, AllocPolicy::OnMiss);
    let unmodelled: Vec<&str> = imp
        .unmodelled
        .iter()
        .map(|u| u.option.name.as_str())
        .collect();
    assert_eq!(
        unmodelled,
        [
            "-gpgpu_ptx_sim_mode",
            "-gpgpu_memlatency_stat",
            "-network_mode"
        ]
    );
    assert_eq!(imp.mapped.len() + imp.unmodelled.len(), TITANX.len() + 2);
    // The trace.config option is reported with its own file and line.
    let dp = imp
        .mapped
        .iter()
        .find(|m| m.option.name == "-trace_opcode_latency_initiation_dp")
        .unwrap();
    assert_eq!(dp.option.place(), "trace.config:1");
}

#[test]
fn output_loads_back_identically_and_names_the_options() {
    let imp = import_titanx("", None).unwrap();
    let t = imp.to_toml();
    let back = GpuConfig::from_toml_str(&t, "out.toml").unwrap();
    assert_eq!(back, imp.config);
    assert!(t.contains("# Base preset: gtx1080ti, the closest built-in preset"));
    assert!(t.contains("#   -network_mode 1 (gpgpusim.config:24):"));
    assert!(t.contains("n_sm = 28  # -gpgpu_n_clusters (gpgpusim.config:3), -gpgpu_n_cores_per_cluster (gpgpusim.config:4)"));
}

#[test]
fn named_base_and_later_occurrences() {
    let imp = import_titanx("-gpgpu_n_clusters 15\n", Some("gtx480")).unwrap();
    assert_eq!(imp.base, "gtx480");
    assert!(imp.distances.is_empty());
    assert_eq!(imp.config.gpu.n_sm, 15);
    // gtx480 keys the files do not set stay.
    assert_eq!(imp.config.units.sp_lanes, 16);
}

#[test]
fn two_level_scheduler() {
    let imp = import_titanx("-gpgpu_scheduler two_level_active:6:2:1\n", None).unwrap();
    assert_eq!(imp.config.sched.policy, SchedPolicy::TwoLevel);
    assert_eq!(imp.config.sched.two_level.active_per_sched, 6);
    assert_eq!(imp.config.sched.two_level.inner, InnerPolicy::Gto);
}

#[test]
fn unhonourable_values_name_file_line_option_and_allowed_values() {
    for (extra, needle) in [
        ("-gpgpu_scheduler warp_limiting:2:4\n", "-gpgpu_scheduler"),
        (
            "-gpgpu_cache:dl1 N:32:128:4,L:E:m:N:L,A:64:8,8\n",
            "write policy",
        ),
        ("-gpgpu_shmem_limited_broadcast 1\n", "broadcast"),
        ("-gpgpu_shader_core_pipeline 2048:16\n", "warp size"),
        ("-gpgpu_dram_scheduler 2\n", "0 (FIFO), 1 (FR-FCFS)"),
        (
            "-dram_bnkgrp_indexing_policy 2\n",
            "0 (higher bits), 1 (lower bits)",
        ),
        ("-l2_ideal 1\n", "-l2_ideal"),
    ] {
        let e = import_titanx(extra, None).unwrap_err().to_string();
        assert!(
            e.contains("gpgpusim.config") && e.contains("line 26"),
            "{e}"
        );
        assert!(e.contains(needle) && e.contains("allowed"), "{e}");
    }
}

#[test]
fn values_that_do_not_fit_the_base_say_so() {
    // Two schedulers in four sub-cores (the gtx1080ti base) cannot be split evenly.
    let e = import_titanx(
        "-gpgpu_num_sched_per_core 2\n-gpgpu_sub_core_model 0\n",
        None,
    );
    assert!(e.is_ok(), "sub-cores follow the schedulers");
    let e = import_titanx("-gpgpu_num_sched_per_core 3\n", Some("gtx1080ti")).unwrap_err();
    let e = e.to_string();
    assert!(e.contains("base preset 'gtx1080ti'"), "{e}");
    assert!(
        e.contains("[set by -gpgpu_sub_core_model 1 (gpgpusim.config:12)]"),
        "{e}"
    );
}

#[test]
fn short_latency_lists_keep_the_base_for_the_rest() {
    // Turing-era files give five integer latencies (no SHFL).
    let imp = import_titanx("-ptx_opcode_latency_int 4,4,4,4,21\n", None).unwrap();
    assert_eq!(imp.config.latency.int.div, [21, 4]);
    assert_eq!(imp.config.latency.int.shfl, [32, 4]);
    let m = imp
        .mapped
        .iter()
        .find(|m| m.option.name == "-ptx_opcode_latency_int")
        .unwrap();
    assert_eq!(m.keys.len(), 5);
    assert!(m.note.contains("SHFL not given"), "{}", m.note);
    assert!(import_titanx("-ptx_opcode_latency_int 1,2,3,4,5,6,7\n", None).is_err());
}

#[test]
fn dram_timing_brings_bank_groups_and_their_index() {
    // GPGPU-Sim spaces column commands by tCCD per channel and tCCDL per bank group.
    let imp = import_titanx("", None).unwrap();
    let d = &imp.config.dram;
    assert_eq!(d.column_timing, crate::config::DramColumnTiming::BankGroups);
    assert_eq!(d.bank_group_index, crate::config::BankGroupIndex::HighBits);
    assert_eq!((d.n_bank_groups, d.timing.ccd, d.timing.ccdl), (4, 2, 4));
    let imp = import_titanx("-dram_bnkgrp_indexing_policy 1\n", None).unwrap();
    assert_eq!(
        imp.config.dram.bank_group_index,
        crate::config::BankGroupIndex::LowBits
    );
    assert!(imp
        .mapped
        .iter()
        .any(|m| m.keys == ["dram.bank_group_index".to_string()]));
}

#[test]
fn an_adaptive_unified_array_maps_to_its_carveouts() {
    // Volta's: a 128 KB array, 32 KB of L1 at the largest carve-out (4 sets x 128 B x 64 ways)
    let volta = "-gpgpu_cache:dl1 S:4:128:64,L:T:m:L:L,A:512:8,16:0,32\n\
                 -gpgpu_shmem_size 98304\n\
                 -gpgpu_unified_l1d_size 128\n\
                 -gpgpu_shmem_option 0,8,16,32,64,96\n";
    let imp = import_titanx(&format!("{volta}-gpgpu_adaptive_cache_config 1\n"), None).unwrap();
    let c = &imp.config;
    assert_eq!(c.l1d.unified_kb, 128);
    assert_eq!(c.shmem.carveout_kb, [0, 8, 16, 32, 64, 96]);
    c.validate("imported").unwrap();
    // a launch without shared memory gets the whole array: 256 ways, as GPGPU-Sim's
    // max_assoc x (1 - 0/128)
    assert_eq!(c.l1d_carveout(0, 4).unwrap().l1d_assoc, 256);
    assert!(imp
        .mapped
        .iter()
        .any(|m| m.option.name == "-gpgpu_shmem_option"
            && m.keys == ["shmem.carveout_kb".to_string()]));
    // without the adaptive configuration GPGPU-Sim keeps -gpgpu_cache:dl1: nothing is carved
    let imp = import_titanx(&format!("{volta}-gpgpu_adaptive_cache_config 0\n"), None).unwrap();
    assert_eq!(imp.config.l1d.unified_kb, 0);
    assert!(imp.config.shmem.carveout_kb.is_empty());
    let skipped: Vec<&str> = imp
        .unmodelled
        .iter()
        .filter(|u| u.reason.contains("no carve-out"))
        .map(|u| u.option.name.as_str())
        .collect();
    assert_eq!(skipped.len(), 3, "{skipped:?}");
    // adaptive with a unified size but no carve-outs: refused, naming the option
    let e = import_titanx(
        "-gpgpu_unified_l1d_size 128\n-gpgpu_adaptive_cache_config 1\n",
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("-gpgpu_shmem_option"), "{e}");
}

#[test]
fn ptx_mode_tensor_cores_map_to_their_units_latency_and_throughput() {
    let volta = "-gpgpu_tensor_core_avail 1\n-gpgpu_num_tensor_core_units 4\n\
                 -ptx_opcode_latency_tesnor 64\n-ptx_opcode_initiation_tensor 64\n\
                 -trace_opcode_latency_initiation_tensor 2,2\n";
    let imp = import_titanx(volta, None).unwrap();
    let c = &imp.config;
    assert_eq!(c.units.n_tensor, 4);
    assert_eq!(c.latency.tensor, [64, 64]);
    assert_eq!(c.units.tensor_macs_per_cycle, 64);
    // an m16n16k16 product times as GPGPU-Sim's: latency 64, the next one 64 cycles later
    let e = crate::timing::classify_op(
        c,
        crate::inst::Family::Tensor,
        crate::inst::OpClass::MmaF16Macs4096,
    );
    assert_eq!((e.latency, e.ii), (64, 64));
    assert!(imp.unmodelled.iter().any(|u| u.option.name
        == "-trace_opcode_latency_initiation_tensor"
        && u.reason.contains("HMMA")));
    // not available: no tensor cores, whatever the base had
    let imp = import_titanx(
        "-gpgpu_tensor_core_avail 0\n-gpgpu_num_tensor_core_units 4\n",
        Some("v100"),
    )
    .unwrap();
    assert_eq!(imp.config.units.n_tensor, 0);
    // available without a unit count: refused, naming the option
    let e = import_titanx("-gpgpu_tensor_core_avail 1\n", None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("-gpgpu_num_tensor_core_units"), "{e}");
}
