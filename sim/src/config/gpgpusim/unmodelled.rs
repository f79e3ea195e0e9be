//! Why a GPGPU-Sim option that the import maps to no key has no effect on the simulation.

/// Why an option the mapping does not consume has no effect.
pub(super) fn unmodelled_reason(name: &str) -> &'static str {
    let n = name.trim_start_matches('-');
    match n {
        "gpgpu_registers_per_block" => "per-CTA register limit not modelled",
        "gpgpu_shmem_sizeDefault"
        | "gpgpu_shmem_size_PrefL1"
        | "gpgpu_shmem_size_PrefShared"
        | "gpgpu_cache:dl1PrefL1"
        | "gpgpu_cache:dl1PrefShared" => {
            "the per-kernel cache preference (cudaFuncCachePreferL1/Shared of Fermi and \
             Kepler) is not modelled (-gpgpu_shmem_size and -gpgpu_cache:dl1 are used)"
        }
        "gpgpu_memory_partition_indexing"
        | "gpgpu_mem_address_mask"
        | "dram_bnk_indexing_policy"
        | "gpgpu_mem_addr_test" => {
            "address hashing not modelled (simplified address map, simulator §2.7)"
        }
        "network_mode"
        | "inter_config_file"
        | "icnt_out_buffer_limit"
        | "icnt_subnets"
        | "icnt_arbiter_algo"
        | "icnt_verbose"
        | "icnt_grant_cycles" => "interconnect is the simplified crossbar of simulator §2.8",
        "gpgpu_dram_partition_queues"
        | "dram_dual_bus_interface"
        | "dram_seperate_write_queue_enable"
        | "dram_write_queue_size"
        | "dram_elimnate_rw_turnaround"
        | "gpgpu_n_ldst_response_buffer_size"
        | "gpgpu_mem_unit_ports" => "queue or port structure not modelled",
        "gpgpu_l1_banks_byte_interleaving"
        | "gpgpu_l1_banks_hashing_function"
        | "gpgpu_l1_cache_write_ratio" => "L1 bank interleaving and write ratio not modelled",
        "gpgpu_flush_l1_cache" => "the L1 always starts empty at a launch (as with the flush on)",
        "gpgpu_num_mem_units" => "not connected to anything in GPGPU-Sim either",
        "gpgpu_reg_bank_use_warp_id" => {
            "GPGPU-Sim's bank function adds the warp id regardless (rf.bank_map keeps the base)"
        }
        "gpgpu_operand_collector_num_units_tensor_core"
        | "gpgpu_operand_collector_num_in_ports_tensor_core"
        | "gpgpu_operand_collector_num_out_ports_tensor_core" => {
            "tensor-core instructions read their operands through the generic collectors"
        }
        "trace_opcode_latency_initiation_tensor" => {
            "trace-driven tensor instructions (SASS HMMA) are not decoded; the PTX-mode \
             tensor options time wmma/mma products"
        }
        "gpgpu_clock_gated_lanes"
        | "gpgpu_clock_gated_reg_file"
        | "n_regfile_gating_group"
        | "power_simulation_enabled"
        | "gpuwattch_xml_file" => {
            "GPGPU-Sim power-model setting (energy comes from gpuenergy's models)"
        }
        "gpgpu_max_insn" | "gpgpu_max_cta" | "gpgpu_max_completed_cta" => {
            "run limit not modelled (sim.max_warp_insts counts warp instructions)"
        }
        "gpgpu_max_concurrent_kernel" | "gpgpu_concurrent_kernel_sm" => "kernels run one at a time",
        "gpgpu_simd_model" => "reconvergence uses the simulator's own SIMT stack",
        "trace" => "trace directory is given to `gpuenergy simulate --trace`",
        _ if n.starts_with("specialized_unit_")
            || n.starts_with("trace_opcode_latency_initiation_spec_op_") =>
        {
            "specialized units not modelled"
        }
        _ if n.starts_with("gpgpu_ptx_")
            || n.starts_with("ptx_")
            || n.starts_with("gpgpu_compute_capability")
            || n == "gpgpu_occupancy_sm_number"
            || n == "gpgpu_local_mem_map"
            || n == "gpgpu_experimental_lib_support"
            || n.starts_with("checkpoint")
            || n.starts_with("resume")
            || n.starts_with("gpgpu_cdp")
            || n == "cdp_latency" =>
        {
            "functional-simulation setting of GPGPU-Sim (the simulator has its own front ends)"
        }
        _ if n.starts_with("gpgpu_stack_size")
            || n.starts_with("gpgpu_heap_size")
            || n.starts_with("gpgpu_runtime_") && n != "gpgpu_runtime_stat" =>
        {
            "CUDA device-runtime limit not simulated"
        }
        _ if n.contains("stat")
            || n.starts_with("visualizer")
            || n.starts_with("trace_")
            || n.starts_with("liveness")
            || n == "gpgpu_deadlock_detect"
            || n == "gpgpu_warpdistro_shader"
            || n == "gpgpu_warp_issue_shader"
            || n == "gpgpu_cflog_interval"
            || n == "gpgpu_simt_core_sim_order" =>
        {
            "statistics, debug or simulation-control setting of GPGPU-Sim"
        }
        _ => "not an option the simulator models",
    }
}
