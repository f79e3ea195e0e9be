//! The TOML schema of simulator §6.3 as serde structs.
//!
//! Every table and every key is documented with its meaning; tags in brackets name the source of
//! the preset values (see the spec): `[G]` marks a gpuenergy choice that is a knob.
//!
//! [`GpuConfig`] and its derived quantities live here, with `[compat]`; the tables are grouped
//! by what they describe: [`machine`] (`[sim]`, `[gpu]`, `[sm]`, `[frontend]`), [`sched`]
//! (`[sched]` and its sub-tables), [`pipeline`] (`[rf]`, `[opcoll]`, `[units]`, `[latency]`),
//! [`memory`] (caches, `[shmem]`, `[mem]`, `[icnt]`, `[dram]`) and [`io`] (`[trace]`, `[stats]`,
//! `[hooks]`). One struct per TOML table, with every key documented beside its field.

mod io;
mod machine;
mod memory;
mod pipeline;
mod sched;

pub use io::*;
pub use machine::*;
pub use memory::*;
pub use pipeline::*;
pub use sched::*;

use serde::{Deserialize, Serialize};

pub use super::pg::{GatesSection, PgSection};

/// Declares [`GpuConfig`] with the fields of the registered technique sections
/// (`config::technique::section_fields`, one per `config::technique::SECTIONS` entry) between
/// `[rfc]` and `[metrics]`, where their tables sit in the serialised file.
macro_rules! gpu_config {
    ($($(#[$meta:meta])* $field:ident: $ty:ty,)*) => {
        /// The whole machine and simulation configuration. It describes only the machine and how it
        /// is simulated: tables of a configuration file that other crates own (the register-file
        /// energy accounting's `[energy]`, the optimiser's `[opt]`) are set aside by
        /// [`GpuConfig::from_toml_str_split`] for their owners.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct GpuConfig {
            /// `[sim]`: run control.
            pub sim: SimSection,
            /// `[gpu]`: chip-level parameters.
            pub gpu: GpuSection,
            /// `[sm]`: per-SM resources.
            pub sm: SmSection,
            /// `[frontend]`: fetch, decode and the I-buffer.
            pub frontend: FrontendSection,
            /// `[sched]`: warp schedulers.
            pub sched: SchedSection,
            /// `[rf]`: banked register file.
            pub rf: RfSection,
            /// `[opcoll]`: operand collector units.
            pub opcoll: OpcollSection,
            /// `[units]`: execution units.
            pub units: UnitsSection,
            /// `[fold]`: warp folding (power-gating §6); defaults when absent (and not written then).
            #[serde(default, skip_serializing_if = "super::fold::FoldSection::is_default")]
            pub fold: super::fold::FoldSection,
            /// `[origami]`: Origami mask grouping and lane shifting (power-gating §7); defaults when
            /// absent (and not written then).
            #[serde(
                default,
                skip_serializing_if = "super::fold::OrigamiSection::is_default"
            )]
            pub origami: super::fold::OrigamiSection,
            /// `[physical]`: sleep-transistor model knobs for `pg.timing = "Physical"` (power-gating
            /// §1.7); defaults when absent (and not written then).
            #[serde(
                default,
                skip_serializing_if = "super::physical::PhysicalSection::is_default"
            )]
            pub physical: super::physical::PhysicalSection,
            /// `[latency]`: per-class latency and initiation interval.
            pub latency: LatencySection,
            /// `[compat]`: GPGPU-Sim compatibility switches.
            pub compat: CompatSection,
            /// `[icache]`: instruction cache.
            pub icache: CacheConfig,
            /// `[l1d]`: L1 data cache.
            pub l1d: L1dConfig,
            /// `[const_cache]`: constant cache.
            pub const_cache: CacheConfig,
            /// `[tex_cache]`: texture cache.
            pub tex_cache: CacheConfig,
            /// `[l2]`: one L2 slice.
            pub l2: L2Config,
            /// `[shmem]`: shared-memory banks.
            pub shmem: ShmemSection,
            /// `[mem]`: memory partitions and address map.
            pub mem: MemSection,
            /// `[icnt]`: SM-to-L2 crossbar.
            pub icnt: IcntSection,
            /// `[dram]`: one DRAM channel.
            pub dram: DramSection,
            /// `[trace]`: Accel-Sim trace reader options.
            pub trace: TraceSection,
            /// `[stats]`: what the Activity record collects.
            pub stats: StatsSection,
            /// `[hooks]`: names of hook implementations registered in code.
            pub hooks: HooksSection,
            /// `[pg]`: power gating of execution pipes (power-gating §10); absent = no gating.
            #[serde(default, skip_serializing_if = "PgSection::is_default")]
            pub pg: PgSection,
            /// `[prf]`: partitioned register file (register-file §5); defaults when absent (not written then).
            #[serde(default, skip_serializing_if = "super::prf::PrfSection::is_default")]
            pub prf: super::prf::PrfSection,
            /// `[afrf]`: adaptive FRF (register-file §6); defaults when absent (not written then).
            #[serde(default, skip_serializing_if = "super::prf::AfrfSection::is_default")]
            pub afrf: super::prf::AfrfSection,
            /// `[mrf]`: monolithic-RF baseline (register-file §7.1, §7.2); defaults when absent.
            #[serde(default, skip_serializing_if = "super::prf::MrfSection::is_default")]
            pub mrf: super::prf::MrfSection,
            /// `[rfc]`: register-file cache baseline (register-file §7.4); defaults when absent.
            #[serde(default, skip_serializing_if = "super::prf::RfcSection::is_default")]
            pub rfc: super::prf::RfcSection,
            $($(#[$meta])* pub $field: $ty,)*
            /// `[metrics]`: register-file characterisation definitions (register-file spec §9);
            /// defaults when absent (and not written then).
            #[serde(default, skip_serializing_if = "MetricsSection::is_default")]
            pub metrics: MetricsSection,
            /// `[reconv]`: PDOM reconvergence stack knobs (control-flow spec §3); defaults when absent
            /// (and not written then).
            #[serde(
                default,
                skip_serializing_if = "super::reconv::ReconvSection::is_default"
            )]
            pub reconv: super::reconv::ReconvSection,
            /// `[dwf]`: dynamic-warp-formation structure sizes for costing (control-flow spec §5.6,
            /// §5.7); defaults when absent (and not written then).
            #[serde(default, skip_serializing_if = "super::reconv::DwfSection::is_default")]
            pub dwf: super::reconv::DwfSection,
        }
    };
}
crate::config::technique::section_fields!(gpu_config);

/// `[compat]`: GPGPU-Sim compatibility switches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompatSection {
    /// 0: classes per §3.1.4. n > 0: MOV, CVT, LOGIC, SETP, control and NOP take latency n, II 1.
    pub unlisted_opcode_latency: u32,
    /// `compat.launch_latency_first`: `gpu.kernel_launch_latency` also precedes the first launch
    /// of a program, as GPGPU-Sim counts it for every kernel; false (default) places it only
    /// between launches (simulator §2.9).
    #[serde(default)]
    pub launch_latency_first: bool,
    /// `compat.perfect_const_cache`: every constant and parameter access hits and the LD/ST unit
    /// serves all of an instruction's distinct addresses in one cycle with no hit latency, as
    /// GPGPU-Sim's `-gpgpu_perfect_inst_const_cache` does for its constant cache (the I-cache
    /// half of that switch is `frontend.perfect_icache`). Default false.
    #[serde(default)]
    pub perfect_const_cache: bool,
}

impl GpuConfig {
    /// This configuration as the simulator sees it: the tables and keys that only the cost
    /// models read (`[physical]` and each section's own, `reset_cost_only_keys`) at their
    /// defaults; the derived integers they lead to are kept.
    pub fn simulated_view(&self) -> GpuConfig {
        let mut c = self.clone();
        c.physical = Default::default();
        c.prf.reset_cost_only_keys();
        for s in crate::config::technique::SECTIONS {
            (s.reset_cost_only_keys)(&mut c);
        }
        c
    }

    /// Core clock in Hz.
    pub fn core_hz(&self) -> f64 {
        self.gpu.core_mhz * 1e6
    }
    /// Interconnect clock in Hz.
    pub fn icnt_hz(&self) -> f64 {
        self.gpu.icnt_mhz * 1e6
    }
    /// L2 clock in Hz.
    pub fn l2_hz(&self) -> f64 {
        self.gpu.l2_mhz * 1e6
    }
    /// DRAM command clock in Hz.
    pub fn dram_hz(&self) -> f64 {
        self.gpu.dram_mhz * 1e6
    }
    /// Register-file capacity per SM in bytes (n_registers × 4).
    pub fn rf_bytes(&self) -> u64 {
        self.sm.n_registers as u64 * 4
    }
    /// RF entries per SM (one entry = one register of one warp).
    pub fn rf_entries(&self) -> u64 {
        self.rf_bytes() / self.rf.entry_bytes.max(1) as u64
    }
    /// Rows of bank `b` (banks get ⌈E/B⌉ or ⌊E/B⌋ rows when B does not divide E).
    pub fn rf_bank_rows(&self, b: u32) -> u64 {
        let e = self.rf_entries();
        let nb = self.rf.n_banks.max(1) as u64;
        e / nb + u64::from((b as u64) < e % nb)
    }
    /// Memory sub-partitions = L2 slices.
    pub fn n_l2_slices(&self) -> u32 {
        self.mem.n_channels * self.mem.subparts_per_channel
    }
    /// Total L2 capacity in bytes.
    pub fn l2_total_bytes(&self) -> u64 {
        self.l2.size_bytes() * self.n_l2_slices() as u64
    }
    /// Bytes moved by one DRAM burst (bus width × burst length).
    pub fn dram_burst_bytes(&self) -> u32 {
        self.dram.chips_per_channel * self.dram.bus_bytes_per_chip * self.dram.burst_length
    }
    /// Peak DRAM bandwidth in bytes/s: channels × chips × bytes per chip × ratio × f_DRAM.
    pub fn dram_peak_bw_bytes_per_s(&self) -> f64 {
        self.mem.n_channels as f64
            * self.dram.chips_per_channel as f64
            * self.dram.bus_bytes_per_chip as f64
            * self.dram.data_cmd_ratio as f64
            * self.dram_hz()
    }
    /// Schedulers per sub-core.
    pub fn scheds_per_subcore(&self) -> u32 {
        (self.sched.n_per_sm / self.sm.n_subcores.max(1)).max(1)
    }
}
