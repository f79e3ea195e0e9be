//! The memory system's tables of the simulator §6.3 schema: the caches (policies and the
//! common cache table), `[shmem]`, `[mem]`, `[icnt]` and `[dram]`.

use serde::{Deserialize, Serialize};

/// Line replacement policy (`replacement`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Replacement {
    /// Least recently used.
    Lru,
    /// First in, first out.
    Fifo,
}

/// Write policy of a cache (`write_policy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WritePolicy {
    /// Read only.
    Ro,
    /// Write-back.
    Wb,
    /// Write-through.
    Wt,
    /// Write-back for local memory, write-through for global.
    LocalWbGlobalWt,
}

/// When a missing line is allocated (`alloc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllocPolicy {
    /// Reserve a line when the miss is sent.
    OnMiss,
    /// Allocate the line when the fill returns.
    OnFill,
    /// Allocate on fill, with MSHRs = sets × ways × 4 (streaming L1).
    Streaming,
}

/// What a write miss allocates (`write_alloc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteAlloc {
    /// No allocation; the write goes on to the next level.
    None,
    /// Allocate and fetch the line.
    Allocate,
    /// Allocate without fetching, keep byte masks, fetch on a partial read.
    LazyFetchOnRead,
}

/// Set-index function (`set_index`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetIndex {
    /// Line address modulo the number of sets.
    Linear,
    /// `(line ^ (line >> log2 sets)) mod sets`.
    Hash,
    /// An XOR fold of the line address.
    Ipoly,
}

macro_rules! cache_struct {
    ($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $extra:ident : $ty:ty),* }) => {
        $(#[$m])*
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// `sets`: number of sets.
            pub sets: u32,
            /// `line_bytes`: line size in bytes.
            pub line_bytes: u32,
            /// `assoc`: ways per set.
            pub assoc: u32,
            /// Sector size; equal to `line_bytes` for a non-sector cache.
            pub sector_bytes: u32,
            /// `replacement`: line replacement policy.
            pub replacement: Replacement,
            /// `write_policy`: write policy.
            pub write_policy: WritePolicy,
            /// `alloc`: when a missing line is allocated.
            pub alloc: AllocPolicy,
            /// `write_alloc`: what a write miss allocates. Not modelled (`UNREAD_KEYS`).
            pub write_alloc: WriteAlloc,
            /// `set_index`: set-index function.
            pub set_index: SetIndex,
            /// `mshr_entries`: miss status holding registers (outstanding line misses).
            pub mshr_entries: u32,
            /// Requests one MSHR entry may merge.
            pub mshr_merge: u32,
            /// `miss_queue`: misses waiting to go to the next level. Not modelled (`UNREAD_KEYS`).
            pub miss_queue: u32,
            /// Hit latency in cycles of the cache's clock domain.
            pub latency: u32,
            /// `banks`: data banks.
            pub banks: u32,
            $($(#[$fm])* pub $extra: $ty,)*
        }
        impl $name {
            /// Data capacity in bytes (sets × line × assoc).
            pub fn size_bytes(&self) -> u64 {
                self.sets as u64 * self.line_bytes as u64 * self.assoc as u64
            }
            /// The keys common to every cache.
            pub fn geometry(&self) -> CacheConfig {
                CacheConfig {
                    sets: self.sets,
                    line_bytes: self.line_bytes,
                    assoc: self.assoc,
                    sector_bytes: self.sector_bytes,
                    replacement: self.replacement,
                    write_policy: self.write_policy,
                    alloc: self.alloc,
                    write_alloc: self.write_alloc,
                    set_index: self.set_index,
                    mshr_entries: self.mshr_entries,
                    mshr_merge: self.mshr_merge,
                    miss_queue: self.miss_queue,
                    latency: self.latency,
                    banks: self.banks,
                }
            }
        }
    };
}

cache_struct!(
    /// `[icache]`, `[const_cache]`, `[tex_cache]`: a set-associative cache (§2.7).
    CacheConfig {}
);
cache_struct!(
    /// `[l1d]`: L1 data cache.
    L1dConfig {
        /// Global loads bypass L1 (Kepler, Pascal).
        skip_global: bool,
        /// `l1d.unified_kb`: the L1 data cache and shared memory are one array of this many
        /// KB (Volta and later); each launch gives shared memory the smallest of
        /// `shmem.carveout_kb` its resident CTAs need and the L1 the rest
        /// ([`GpuConfig::l1d_carveout`]). The array is also the texture cache: texture
        /// fetches go through the L1D, and `[tex_cache]` is never looked up. 0 (the
        /// default): two arrays, `l1d` as given, and texture fetches through `[tex_cache]`.
        #[serde(default, skip_serializing_if = "crate::config::schema::is_zero_u32")]
        unified_kb: u32
    }
);
cache_struct!(
    /// `[l2]`: one L2 slice (one per memory sub-partition).
    L2Config {
        /// Cycles in the ROP FIFO before the tag access (L2 clock).
        rop_latency: u32,
        /// Extra L2 cycles of an atomic operation [G: 4].
        atomic_latency: u32
    }
);

/// `[shmem]`: shared memory banks (§2.6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShmemSection {
    /// `shmem.banks`: banks.
    pub banks: u32,
    /// `shmem.bank_bytes`: width of one bank in bytes.
    pub bank_bytes: u32,
    /// `shmem.latency`: core cycles from the last conflict pass until the data returns.
    pub latency: u32,
    /// Identical words broadcast (count once toward the conflict degree).
    pub broadcast: bool,
    /// `shmem.carveout_kb`: the shared-memory sizes, KB, ascending, that a unified L1/shared
    /// array (`l1d.unified_kb`) can give shared memory (Volta: 0, 8, 16, 32, 64, 96). Empty
    /// (the default) without a unified array.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carveout_kb: Vec<u32>,
}

/// `[mem]`: memory partitions and address map (§2.7).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemSection {
    /// `mem.n_channels`: DRAM channels (memory partitions).
    pub n_channels: u32,
    /// `mem.subparts_per_channel`: sub-partitions (L2 slices) per channel.
    pub subparts_per_channel: u32,
    /// `mem.channel_interleave_bytes`: bytes of one address chunk mapped to one channel.
    pub channel_interleave_bytes: u32,
    /// Channel-local address bit map, MSB first: R row, B bank, C column, S byte, 0 unused.
    pub addr_map: String,
    /// `mem.memcpy_fills_l2`: host-to-device copies are written through the L2, leaving the
    /// copied sectors valid for the next launch (GPGPU-Sim `-gpgpu_perf_sim_memcpy`). Default
    /// false.
    #[serde(default)]
    pub memcpy_fills_l2: bool,
    /// `mem.flush_l2_between_launches`: every launch starts with an empty L2. Default false: a
    /// launch finds the L2 as the previous launch of the same program left it.
    #[serde(default)]
    pub flush_l2_between_launches: bool,
}

/// `[icnt]`: simplified crossbar interconnect (§2.8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IcntSection {
    /// `icnt.flit_bytes`: bytes per flit.
    pub flit_bytes: u32,
    /// Fixed traversal latency in icnt cycles [G: 4].
    pub latency: u32,
    /// `icnt.in_buffer_flits`: flits of one input buffer (credit-based). Not modelled
    /// (`UNREAD_KEYS`).
    pub in_buffer_flits: u32,
    /// `icnt.ejection_buffer`: entries of one ejection buffer. Not modelled (`UNREAD_KEYS`).
    pub ejection_buffer: u32,
}

/// DRAM timing model (`dram.model`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DramModel {
    /// Bank and bus timing of one channel.
    Simple,
    /// Adds per-chip constraint counters.
    Full,
}

/// DRAM request scheduler (`dram.scheduler`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DramScheduler {
    /// First-ready FCFS: the oldest row hit, else the oldest request.
    Frfcfs,
    /// First come, first served.
    Fifo,
}

/// Kind of DRAM device (`dram.kind`): selects the energy figures of the off-chip memory and,
/// for a stacked memory, its background power (models crate, `gpu::dram`). The timing model
/// reads the `[dram]` geometry and `[dram.timing]` keys, whatever the kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DramKind {
    /// GDDR5 (JESD212): the default, and the kind of every preset without the key.
    #[default]
    Gddr5,
    /// GDDR5X (JESD232): costed with the GDDR5 figures (no separate published breakdown).
    Gddr5x,
    /// HBM2 (JESD235A): stacked DRAM, eight 128-bit channels per stack.
    Hbm2,
}

/// How column commands are spaced (`dram.column_timing`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DramColumnTiming {
    /// tCCDL spaces the column commands of one bank; `dram.n_bank_groups`,
    /// `dram.bank_group_index` and `dram.timing.ccd` are not read (and only their preset
    /// values are accepted). The default.
    #[default]
    PerBank,
    /// Bank groups: tCCD (tCCDS) spaces any two column commands of a channel and tCCDL two
    /// column commands to banks of the same group, as GPGPU-Sim's `dram.cc` and the bank-group
    /// rules of JESD235A (HBM2) and JESD212 (GDDR5) do.
    BankGroups,
}

/// Which bits of the bank number name its bank group (`dram.bank_group_index`), as
/// GPGPU-Sim's `-dram_bnkgrp_indexing_policy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BankGroupIndex {
    /// Group = bank / (banks / groups) (GPGPU-Sim policy 0, its default).
    #[default]
    HighBits,
    /// Group = bank mod groups (GPGPU-Sim policy 1, Accel-Sim's HBM2 configurations).
    LowBits,
}

/// `[dram.timing]`, in DRAM cycles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DramTiming {
    /// tCCD: column command to column command of the channel (tCCDS with bank groups). Read
    /// with `dram.column_timing = "bank_groups"`.
    pub ccd: u32,
    /// tCCDL: column to column within one bank group (within one bank with
    /// `dram.column_timing = "per_bank"`).
    pub ccdl: u32,
    /// tRRD: activate to activate in another bank.
    pub rrd: u32,
    /// tRCD: activate to column command.
    pub rcd: u32,
    /// tRAS: activate to precharge.
    pub ras: u32,
    /// tRP: precharge to activate.
    pub rp: u32,
    /// tRC: activate to activate in the same bank.
    pub rc: u32,
    /// CL: read command to data.
    pub cl: u32,
    /// WL: write command to data.
    pub wl: u32,
    /// tCDLR: last write data to read command.
    pub cdlr: u32,
    /// tWR: write recovery, last write data to precharge.
    pub wr: u32,
    /// tRTPL: read to precharge. Not modelled (`UNREAD_KEYS`).
    pub rtpl: u32,
}

/// `[dram]`: one DRAM channel (§2.8). An HBM2 pseudo-channel (JESD235A pseudo-channel mode:
/// 64 bits, burst length 4, its own 16 banks in 4 bank groups) is configured as a channel of
/// its own: the two pseudo-channels of a 128-bit channel share only the command bus, whose row
/// and column halves issue one command per clock each, enough for both (a column command per
/// pseudo-channel every 2 clocks at BL4), so the shared bus is not modelled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DramSection {
    /// `dram.kind`: the DRAM device, for its energy and background power (default `"gddr5"`).
    #[serde(default, skip_serializing_if = "is_default")]
    pub kind: DramKind,
    /// `dram.model`: timing model.
    pub model: DramModel,
    /// `dram.chips_per_channel`: DRAM chips on one channel.
    pub chips_per_channel: u32,
    /// `dram.bus_bytes_per_chip`: data-bus width of one chip in bytes.
    pub bus_bytes_per_chip: u32,
    /// `dram.burst_length`: data transfers per burst.
    pub burst_length: u32,
    /// Data transfers per command clock (4 = QDR).
    pub data_cmd_ratio: u32,
    /// `dram.n_banks`: banks per chip.
    pub n_banks: u32,
    /// `dram.n_bank_groups`: bank groups per chip; must divide `dram.n_banks`. Read with
    /// `dram.column_timing = "bank_groups"`.
    pub n_bank_groups: u32,
    /// `dram.column_timing`: how column commands are spaced (default `"per_bank"`).
    #[serde(default, skip_serializing_if = "is_default")]
    pub column_timing: DramColumnTiming,
    /// `dram.bank_group_index`: which bits of the bank number name its group (default
    /// `"high_bits"`). Read with `dram.column_timing = "bank_groups"`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub bank_group_index: BankGroupIndex,
    /// The spec's queue policy. The timing model's reservation-based memory side serves a
    /// channel's ready banks out of order, as FR-FCFS does (a request waiting for its bank does
    /// not hold up another bank's access), and each bank's requests in arrival order (a younger
    /// row hit does not pass an older row miss of its bank); `"fifo"` is not modelled.
    pub scheduler: DramScheduler,
    /// `dram.sched_queue`: entries of the scheduler queue. A request waits in it from its
    /// arrival until its column command; one that finds it full enters when a request leaves,
    /// which bounds how far the channel reorders.
    pub sched_queue: u32,
    /// `dram.return_queue`: entries of the reply queue. Not modelled (`UNREAD_KEYS`).
    pub return_queue: u32,
    /// `dram.latency`: fixed latency added to every DRAM access, in core cycles (GPGPU-Sim's
    /// `-dram_latency`, counted on the core clock).
    pub latency: u32,
    /// `[dram.timing]`: command timing constraints.
    pub timing: DramTiming,
}

/// A key at its default is not serialised, so that configurations without the `[dram]` keys
/// added later (`kind`, `column_timing`, `bank_group_index`) keep their text and hash;
/// `GpuConfig::to_full_toml_string` writes them all.
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}
