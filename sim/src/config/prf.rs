//! `[prf]`, `[afrf]`, `[mrf]` and `[rfc]`: the knobs of the partitioned register file (fast
//! FRF at STV + slow SRF at NTV, with pilot-warp profiling and a swap table), the adaptive FRF
//! (back-gate dual mode), the monolithic-RF baselines MRF@STV / MRF@NTV and the register-file
//! cache baseline (register-file spec §5, §6, §7.1, §7.2, §7.4, §12).
//!
//! The mechanisms these knobs drive live in `timing::rf`.
//!
//! **Defaults differ from the spec's config sketch on purpose:** the sketch writes
//! `[prf] enabled = true` and `[afrf] enabled = true`; here both default to `false`, so the
//! default machine is the plain monolithic RF (MRF@STV with `mrf.lat = 1`) and every preset
//! keeps its behaviour, text and hash. Every other default is the spec's.
//!
//! The SM runs them through `timing::rf::PrfOrg` whenever one of `prf.enabled`, `afrf.enabled`,
//! `rfc.enabled` is on or `[mrf]` leaves its default (MRF@NTV). [`GpuConfig::prf_errors`] checks
//! ranges and refuses the combinations the timing model does not run (naming both keys). Keys that
//! only the energy and area models read (`prf.v_srf`, `prf.v_frf`, `prf.swap_table`,
//! `prf.table_copies`, `afrf.low_leakage`, `afrf.switch_energy`, `mrf.region`) are accepted and
//! change no timing. `prf.lat_srf = "derived"` is resolved to cycles by the caller (the
//! `gpuenergy` CLI, from the SRAM model); a simulation that receives it unresolved stops at the
//! kernel launch with an error naming the key.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::schema::GpuConfig;

/// Highest architectural register count per thread (6-bit register ids, R0…R62).
pub const MAX_REGS_PER_THREAD: u32 = 63;

/// `[prf]`: partitioned register file (spec §5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PrfSection {
    /// `prf.enabled`: split the RF into FRF + SRF (default false: the plain MRF).
    pub enabled: bool,
    /// `prf.n_fast`: fast slots per warp, n (0..=63; default 4). Physical slots `0..n` are in
    /// the FRF, the rest in the SRF.
    pub n_fast: u32,
    /// `prf.lat_frf_high`: FRF access latency in FRF_high mode, cycles (default 1).
    pub lat_frf_high: u32,
    /// `prf.lat_frf_low`: FRF access latency in FRF_low mode, cycles (default 2).
    pub lat_frf_low: u32,
    /// `prf.lat_srf`: SRF access latency: cycles (default 3) or `"derived"` (⌈t_access(V_SRF) /
    /// t_clk⌉ from the SRAM model, resolved by the caller).
    pub lat_srf: LatSrf,
    /// `prf.write_lat`: write latency: `"same_as_read"` (default) or fixed cycles for every
    /// structure.
    pub write_lat: WriteLat,
    /// `prf.v_srf`: SRF supply voltage, volts (default 0.30, near threshold).
    pub v_srf: f64,
    /// `prf.v_frf`: FRF supply voltage, volts (default 0.45, super threshold).
    pub v_frf: f64,
    /// `prf.swap_table`: swap-table organisation.
    pub swap_table: SwapTableKind,
    /// `prf.table_copies`: copies of the swap table, one per scheduler (default 4; at least 1).
    pub table_copies: u32,
    /// `prf.miss_rule`: partition of a register the swap table does not hold.
    pub miss_rule: MissRule,
    /// `prf.remap_policy`: what happens to live contents when the mapping switches.
    pub remap_policy: RemapPolicy,
    /// `prf.pilot_select`: which warp of the first CTA is the pilot.
    pub pilot_select: PilotSelect,
    /// `prf.pilot_seed`: seed of `pilot_select = "random_in_first_cta"` (default 1); the pick is
    /// a pure function of the seed, the SM and the kernel, so runs are deterministic.
    pub pilot_seed: u64,
    /// `prf.count_dup_sources`: a source register named twice by one instruction counts twice
    /// (default true).
    pub count_dup_sources: bool,
    /// `prf.counter_overflow`: what a 16-bit access counter does at 0xFFFF.
    pub counter_overflow: CounterOverflow,
    /// `prf.sort_latency`: cycles from the pilot's exit until the swap table is filled (default 0).
    pub sort_latency: u32,
    /// `prf.lookup_latency`: cycles a swap-table lookup adds to an access (default 0: hidden).
    pub lookup_latency: u32,
    /// `prf.skip_if_fits`: a kernel with at most n registers per thread is not profiled
    /// (default true).
    pub skip_if_fits: bool,
    /// `prf.max_profiled_kernels`: concurrent kernels per SM that get their own profiling state
    /// (default 1, the one kernel per SM the timing model runs; a kernel beyond the limit keeps
    /// the identity mapping).
    pub max_profiled_kernels: u32,
    /// `prf.reprofile_every_cycles`: re-profile within a kernel every so many cycles (default 0:
    /// never, the source's behaviour; an extension, rules in `timing::rf::kernel_profile`).
    pub reprofile_every_cycles: u64,
}

impl Default for PrfSection {
    fn default() -> Self {
        PrfSection {
            enabled: false,
            n_fast: 4,
            lat_frf_high: 1,
            lat_frf_low: 2,
            lat_srf: LatSrf::Cycles(3),
            write_lat: WriteLat::SameAsRead,
            v_srf: 0.30,
            v_frf: 0.45,
            swap_table: SwapTableKind::Cam,
            table_copies: 4,
            miss_rule: MissRule::Identity,
            remap_policy: RemapPolicy::Instant,
            pilot_select: PilotSelect::FirstWarpFirstCta,
            pilot_seed: 1,
            count_dup_sources: true,
            counter_overflow: CounterOverflow::Saturate,
            sort_latency: 0,
            lookup_latency: 0,
            skip_if_fits: true,
            max_profiled_kernels: 1,
            reprofile_every_cycles: 0,
        }
    }
}

/// `prf.lat_srf`: fixed cycles or derived from the SRAM delay model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LatSrf {
    /// A fixed latency in cycles (≥ 1).
    Cycles(u32),
    /// `"derived"`: ⌈t_access(V_SRF) / t_clk⌉, resolved by the caller from the models.
    Derived,
}

/// `prf.write_lat`: write latency of every structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteLat {
    /// `"same_as_read"`: a write takes its structure's read latency (default).
    SameAsRead,
    /// A fixed write latency in cycles (≥ 1) for every structure.
    Cycles(u32),
}

/// `prf.pilot_select`: the pilot warp among the warps of the kernel's first CTA on the SM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PilotSelect {
    /// `"first_warp_first_cta"`: the CTA's first warp (default).
    FirstWarpFirstCta,
    /// `"random_in_first_cta"`: a warp drawn from `prf.pilot_seed`, the SM and the kernel.
    RandomInFirstCta,
    /// `"index:k"`: the CTA's k-th warp (0-based; k < warps per CTA is a launch-time check).
    Index(u32),
}

/// A TOML scalar for the keys that take either a number or a keyword.
#[derive(Deserialize)]
#[serde(untagged)]
enum NumOrWord {
    Num(i64),
    Word(String),
}

fn cycles_from(v: i64, key: &str) -> Result<u32, String> {
    u32::try_from(v).map_err(|_| format!("'{key}' = {v}: cycles must be an integer 0..=4294967295"))
}

impl<'de> Deserialize<'de> for LatSrf {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match NumOrWord::deserialize(d)? {
            NumOrWord::Num(v) => cycles_from(v, "prf.lat_srf")
                .map(LatSrf::Cycles)
                .map_err(serde::de::Error::custom),
            NumOrWord::Word(w) if w == "derived" => Ok(LatSrf::Derived),
            NumOrWord::Word(w) => Err(serde::de::Error::custom(format!(
                "unknown value \"{w}\", expected cycles (an integer ≥ 1) or \"derived\""
            ))),
        }
    }
}

impl Serialize for LatSrf {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LatSrf::Cycles(c) => s.serialize_i64(*c as i64),
            LatSrf::Derived => s.serialize_str("derived"),
        }
    }
}

impl<'de> Deserialize<'de> for WriteLat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match NumOrWord::deserialize(d)? {
            NumOrWord::Num(v) => cycles_from(v, "prf.write_lat")
                .map(WriteLat::Cycles)
                .map_err(serde::de::Error::custom),
            NumOrWord::Word(w) if w == "same_as_read" => Ok(WriteLat::SameAsRead),
            NumOrWord::Word(w) => Err(serde::de::Error::custom(format!(
                "unknown value \"{w}\", expected \"same_as_read\" or cycles (an integer ≥ 1)"
            ))),
        }
    }
}

impl Serialize for WriteLat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            WriteLat::SameAsRead => s.serialize_str("same_as_read"),
            WriteLat::Cycles(c) => s.serialize_i64(*c as i64),
        }
    }
}

impl PilotSelect {
    /// Parses `"first_warp_first_cta"`, `"random_in_first_cta"` or `"index:k"`; the error lists
    /// the allowed values.
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "first_warp_first_cta" => Ok(PilotSelect::FirstWarpFirstCta),
            "random_in_first_cta" => Ok(PilotSelect::RandomInFirstCta),
            _ => match text.strip_prefix("index:").map(str::parse::<u32>) {
                Some(Ok(k)) => Ok(PilotSelect::Index(k)),
                _ => Err(format!(
                    "unknown value \"{text}\", expected one of \"first_warp_first_cta\", \
                     \"random_in_first_cta\", \"index:k\" (k a warp index in the CTA, from 0)"
                )),
            },
        }
    }
}

impl fmt::Display for PilotSelect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PilotSelect::FirstWarpFirstCta => write!(f, "first_warp_first_cta"),
            PilotSelect::RandomInFirstCta => write!(f, "random_in_first_cta"),
            PilotSelect::Index(k) => write!(f, "index:{k}"),
        }
    }
}

impl<'de> Deserialize<'de> for PilotSelect {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        PilotSelect::parse(&s).map_err(serde::de::Error::custom)
    }
}

impl Serialize for PilotSelect {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

/// `prf.swap_table`: how the swap pairs are stored (spec §5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwapTableKind {
    /// `"cam"`: 2n entries × {orig 6 b, mapped 6 b, valid 1 b}, searched by register id (default).
    Cam,
    /// `"indexed"`: 63 entries × 6 b indexed by register id.
    Indexed,
}

/// `prf.miss_rule`: partition of a register that has no swap-table entry (spec §5.5 step 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissRule {
    /// `"identity"`: slot = r, FRF iff r < n (default).
    Identity,
    /// `"literal_srf"`: every miss goes to the SRF (the source text taken literally).
    LiteralSrf,
}

/// `prf.remap_policy`: moving live contents at the mapping switch (spec §5.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RemapPolicy {
    /// `"instant"`: every warp of the kernel switches in the fill cycle, at no cost (default).
    Instant,
    /// `"new_warps_only"`: warps resident at the switch keep the identity mapping.
    NewWarpsOnly,
    /// `"migrate"`: each resident warp moves its swapped pairs (4 accesses per pair), then switches.
    Migrate,
}

/// `prf.counter_overflow`: a 16-bit access counter at its maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CounterOverflow {
    /// `"saturate"`: the counter stays at 0xFFFF (default).
    Saturate,
    /// `"halve_all"`: every counter is halved, then the increment is applied.
    HalveAll,
}

/// `[afrf]`: adaptive FRF, back-gate dual mode (spec §6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AfrfSection {
    /// `afrf.enabled`: switch the FRF between FRF_high and FRF_low per epoch (default false).
    pub enabled: bool,
    /// `afrf.epoch`: epoch length, cycles (default 50; at least 1).
    pub epoch: u32,
    /// `afrf.threshold`: dispatched warp instructions per epoch below which the next epoch runs
    /// FRF_low (default 85; `threshold_mode = "absolute"`).
    pub threshold: u32,
    /// `afrf.threshold_mode`: absolute count or a ratio of `epoch × issue width`.
    pub threshold_mode: ThresholdMode,
    /// `afrf.threshold_ratio`: the ratio of `threshold_mode = "ratio"` (default 0.20).
    pub threshold_ratio: f64,
    /// `afrf.count_point`: which event the phase detector counts.
    pub count_point: CountPoint,
    /// `afrf.low_leakage`: FRF_low leakage rule.
    pub low_leakage: LowLeakage,
    /// `afrf.switch_latency`: cycles a mode switch takes (default 0).
    pub switch_latency: u32,
    /// `afrf.switch_energy`: energy of a mode switch.
    pub switch_energy: SwitchEnergy,
}

impl Default for AfrfSection {
    fn default() -> Self {
        AfrfSection {
            enabled: false,
            epoch: 50,
            threshold: 85,
            threshold_mode: ThresholdMode::Absolute,
            threshold_ratio: 0.20,
            count_point: CountPoint::DispatchToEx,
            low_leakage: LowLeakage::Model,
            switch_latency: 0,
            switch_energy: SwitchEnergy::Model,
        }
    }
}

/// `afrf.threshold_mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThresholdMode {
    /// `"absolute"`: `afrf.threshold` instructions (default).
    Absolute,
    /// `"ratio"`: round(`afrf.threshold_ratio` × epoch × issue width) instructions.
    Ratio,
}

/// `afrf.count_point`: the event the phase detector counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CountPoint {
    /// `"dispatch_to_ex"`: warp instructions dispatched from a collector to an execution unit.
    DispatchToEx,
    /// `"scheduler_issue"`: warp instructions issued by the schedulers.
    SchedulerIssue,
}

/// `afrf.low_leakage`: leakage of the FRF in FRF_low mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LowLeakage {
    /// `"model"`: the device leakage with the back gate off (default).
    Model,
    /// `"same_as_high"`: FRF_high leakage (conservative).
    SameAsHigh,
}

/// `afrf.switch_energy`: energy of one mode switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwitchEnergy {
    /// `"model"`: back-gate line capacitance of every FRF row × Vdd² (default).
    Model,
    /// `"none"`: switches cost nothing.
    None,
}

/// `[mrf]`: the monolithic RF baselines MRF@STV and MRF@NTV (spec §7.1, §7.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MrfSection {
    /// `mrf.region`: voltage region of the monolithic RF (default `"STV"`).
    pub region: MrfRegion,
    /// `mrf.lat`: access latency of the monolithic RF, cycles (default 1; the MRF@NTV baseline
    /// is `region = "NTV"` with `lat = 3`).
    pub lat: u32,
}

impl Default for MrfSection {
    fn default() -> Self {
        MrfSection {
            region: MrfRegion::Stv,
            lat: 1,
        }
    }
}

impl MrfSection {
    /// The MRF@STV baseline: 0.45 V-region array, 1-cycle access.
    pub fn stv() -> Self {
        MrfSection::default()
    }

    /// The MRF@NTV baseline: near-threshold array, 3-cycle access for every access.
    pub fn ntv() -> Self {
        MrfSection {
            region: MrfRegion::Ntv,
            lat: 3,
        }
    }
}

/// `mrf.region`: the voltage region of the monolithic RF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MrfRegion {
    /// `"STV"`: super-threshold (`prf.v_frf`).
    #[serde(rename = "STV")]
    Stv,
    /// `"NTV"`: near-threshold (`prf.v_srf`).
    #[serde(rename = "NTV")]
    Ntv,
}

/// `[rfc]`: the register-file cache baseline (spec §7.4, after Gebhart et al., ISCA 2011).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RfcSection {
    /// `rfc.enabled`: put an RFC in front of the MRF (default false).
    pub enabled: bool,
    /// `rfc.entries_per_warp`: RFC entries per active warp (default 6; at least 1).
    pub entries_per_warp: u32,
    /// `rfc.read_ports`: RFC reads per cycle, all banks together (default 2).
    pub read_ports: u32,
    /// `rfc.write_ports`: RFC writes per cycle, all banks together (default 1).
    pub write_ports: u32,
    /// `rfc.banks`: RFC banks, 1…8 (default 1); warp slot w uses bank `w mod banks`.
    pub banks: u32,
    /// `rfc.replacement`: per-warp replacement.
    pub replacement: RfcReplacement,
    /// `rfc.alloc_on_read_miss`: a read miss also allocates (default false).
    pub alloc_on_read_miss: bool,
    /// `rfc.liveness`: which evicted values are written back.
    pub liveness: RfcLiveness,
    /// `rfc.lat`: RFC access latency, cycles (default 1).
    pub lat: u32,
}

impl Default for RfcSection {
    fn default() -> Self {
        RfcSection {
            enabled: false,
            entries_per_warp: 6,
            read_ports: 2,
            write_ports: 1,
            banks: 1,
            replacement: RfcReplacement::Fifo,
            alloc_on_read_miss: false,
            liveness: RfcLiveness::None,
            lat: 1,
        }
    }
}

impl RfcSection {
    /// RFC entries per SM: `entries_per_warp × active_warps` (the two-level active set summed
    /// over the schedulers).
    pub fn capacity_entries(&self, active_warps: u32) -> u64 {
        self.entries_per_warp as u64 * active_warps as u64
    }
}

/// `rfc.replacement`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RfcReplacement {
    /// `"fifo"`: evict the warp's oldest allocation (default).
    Fifo,
    /// `"lru"`: evict the warp's least recently read or written entry.
    Lru,
}

/// `rfc.liveness`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RfcLiveness {
    /// `"none"`: every evicted or flushed dirty value is written back (default).
    None,
    /// `"oracle"`: an evicted or flushed value that its warp never reads again before writing
    /// it next (or exiting) is dropped without a write-back (decided exactly by the warp's
    /// next access to the register; `timing::rf::RfCache`).
    Oracle,
}

macro_rules! default_only {
    ($($t:ty),*) => {$(
        impl $t {
            /// True when every key holds its default (the table is then not serialised, so that
            /// configurations without it keep their text and hash).
            pub fn is_default(&self) -> bool {
                *self == <$t>::default()
            }
        }
    )*};
}
default_only!(PrfSection, AfrfSection, MrfSection, RfcSection);

/// ⌈log2(x + 1)⌉: bits of a counter that must hold 0..=x.
pub fn counter_bits(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// round(`v`) after rounding the product to 1e-9, so that a decimal ratio times an integer
/// (0.2 × 400 = 80.00000000000001) is not pushed over a .5 boundary by binary error; halves
/// round away from zero.
fn round_decimal(v: f64) -> u64 {
    ((v * 1e9).round() / 1e9).round().max(0.0) as u64
}

impl AfrfSection {
    /// Counter width of the phase detector, ⌈log2(epoch × issue_width + 1)⌉ bits (spec §6: 9 for
    /// 50 × 8 = 400).
    pub fn counter_width_bits(&self, issue_width: u32) -> u32 {
        counter_bits(self.epoch as u64 * issue_width as u64)
    }

    /// The threshold in force: `threshold` (absolute) or round(`threshold_ratio` × epoch ×
    /// issue width) (ratio), dispatched instructions per epoch.
    pub fn threshold_insts(&self, issue_width: u32) -> u64 {
        match self.threshold_mode {
            ThresholdMode::Absolute => self.threshold as u64,
            ThresholdMode::Ratio => {
                round_decimal(self.threshold_ratio * self.epoch as f64 * issue_width as f64)
            }
        }
    }

    /// Range errors of `[afrf]`, each naming its key. `issue_width` is the SM's warp
    /// instructions per cycle (schedulers × issue per scheduler). The bound threshold ≤
    /// 2^width depends on the machine's issue width, so it is checked only while
    /// `afrf.enabled` (a preset with a narrower issue stage keeps loading with the default 85).
    pub fn range_errors(&self, issue_width: u32, bad: &mut Vec<String>) {
        if self.epoch == 0 {
            bad.push("'afrf.epoch' = 0: an epoch must be at least 1 cycle".into());
        }
        if self.epoch > 0 && self.switch_latency >= self.epoch {
            bad.push(format!(
                "'afrf.switch_latency' = {}: a mode switch must complete inside an epoch of {} \
                 cycles (at most {})",
                self.switch_latency,
                self.epoch,
                self.epoch - 1
            ));
        }
        if !(self.threshold_ratio.is_finite() && (0.0..=1.0).contains(&self.threshold_ratio)) {
            bad.push(format!(
                "'afrf.threshold_ratio' = {}: must be a fraction in [0, 1]",
                self.threshold_ratio
            ));
        }
        if self.enabled && self.epoch > 0 && self.threshold_mode == ThresholdMode::Absolute {
            let width = self.counter_width_bits(issue_width.max(1));
            let max = 1u64 << width;
            if self.threshold as u64 > max {
                bad.push(format!(
                    "'afrf.threshold' = {}: the {width}-bit epoch counter (epoch {} × issue \
                     width {}) reaches at most {}, so the threshold must be at most 2^{width} = \
                     {max}",
                    self.threshold,
                    self.epoch,
                    issue_width.max(1),
                    max - 1
                ));
            }
        }
    }
}

impl PrfSection {
    /// Resets the keys only the cost models read (the supplies `v_srf`, `v_frf`; the simulator
    /// sees the derived `lat_srf`) to their defaults.
    pub fn reset_cost_only_keys(&mut self) {
        let d = PrfSection::default();
        self.v_srf = d.v_srf;
        self.v_frf = d.v_frf;
    }

    /// The SRF latency in cycles, with `derived_cycles` standing for `"derived"` (computed by
    /// the caller from the SRAM delay at `v_srf`).
    pub fn srf_latency_cycles(&self, derived_cycles: u32) -> u32 {
        match self.lat_srf {
            LatSrf::Cycles(c) => c,
            LatSrf::Derived => derived_cycles,
        }
    }

    /// Range errors of `[prf]`, each naming its key.
    pub fn range_errors(&self, bad: &mut Vec<String>) {
        if self.n_fast > MAX_REGS_PER_THREAD {
            bad.push(format!(
                "'prf.n_fast' = {}: must be 0..=63 (6-bit register ids)",
                self.n_fast
            ));
        }
        for (k, v) in [
            ("lat_frf_high", self.lat_frf_high),
            ("lat_frf_low", self.lat_frf_low),
        ] {
            if v == 0 {
                bad.push(format!("'prf.{k}' = 0: a latency must be at least 1 cycle"));
            }
        }
        if self.lat_srf == LatSrf::Cycles(0) {
            bad.push(
                "'prf.lat_srf' = 0: a latency must be at least 1 cycle (or \"derived\")".into(),
            );
        }
        if self.write_lat == WriteLat::Cycles(0) {
            bad.push(
                "'prf.write_lat' = 0: a latency must be at least 1 cycle (or \"same_as_read\")"
                    .into(),
            );
        }
        for (k, v) in [("v_srf", self.v_srf), ("v_frf", self.v_frf)] {
            if !(v.is_finite() && v > 0.0 && v <= 2.0) {
                bad.push(format!(
                    "'prf.{k}' = {v}: must be a supply voltage in (0, 2] V"
                ));
            }
        }
        if self.table_copies == 0 {
            bad.push("'prf.table_copies' = 0: at least one swap-table copy".into());
        }
    }

    /// The stability check of `prf.v_srf`: it must be at least `floor_v`, the lowest voltage at
    /// which the SRF cell keeps its data (the caller derives it from the SNM and variability
    /// models). `None` when the voltage is high enough.
    pub fn v_srf_error(&self, floor_v: f64) -> Option<String> {
        if self.v_srf >= floor_v {
            None
        } else {
            Some(format!(
                "'prf.v_srf' = {} V is below the stability floor of {floor_v} V",
                self.v_srf
            ))
        }
    }

    /// The structural check of the split: the FRF needs `n_fast × max_warps` entries, which must
    /// fit in the `rf_entries` of the monolithic RF.
    pub fn structure_error(&self, max_warps: u32, rf_entries: u64) -> Option<String> {
        let frf = self.n_fast as u64 * max_warps as u64;
        (frf > rf_entries).then(|| {
            format!(
                "'prf.n_fast' = {}: the FRF would need n_fast × sm.max_warps = {} × {max_warps} = \
                 {frf} entries, more than the {rf_entries} entries of the register file (at most \
                 {})",
                self.n_fast,
                self.n_fast,
                rf_entries / max_warps.max(1) as u64
            )
        })
    }

    /// The launch-time check for a kernel with `regs_per_thread` registers per thread and
    /// `warps_per_cta` warps per CTA: the register count must have 6-bit ids (≤ 63), a
    /// `pilot_select = "index:k"` must name a warp of the CTA, and with `skip_if_fits = false`
    /// n must not exceed the kernel's registers per thread (profiling would rank registers that
    /// do not exist). Returns whether the kernel is profiled (`false` when it fits in the FRF
    /// and `skip_if_fits` is on).
    pub fn launch_check(&self, regs_per_thread: u32, warps_per_cta: u32) -> Result<bool, String> {
        if regs_per_thread > MAX_REGS_PER_THREAD {
            return Err(format!(
                "a kernel with {regs_per_thread} registers per thread: the partitioned RF \
                 addresses at most 63 (6-bit register ids)"
            ));
        }
        if let PilotSelect::Index(k) = self.pilot_select {
            if k >= warps_per_cta {
                return Err(format!(
                    "'prf.pilot_select' = \"index:{k}\": the kernel's CTA has {warps_per_cta} \
                     warps (allowed: index:0 to index:{})",
                    warps_per_cta.saturating_sub(1)
                ));
            }
        }
        let fits = regs_per_thread <= self.n_fast;
        if fits && !self.skip_if_fits && self.n_fast > regs_per_thread {
            return Err(format!(
                "'prf.n_fast' = {}: more than the kernel's {regs_per_thread} registers per \
                 thread while 'prf.skip_if_fits' = false (set it to true, or n_fast ≤ \
                 {regs_per_thread})",
                self.n_fast
            ));
        }
        Ok(!(fits && self.skip_if_fits))
    }
}

impl RfcSection {
    /// Range errors of `[rfc]`, each naming its key.
    pub fn range_errors(&self, bad: &mut Vec<String>) {
        for (k, v) in [
            ("entries_per_warp", self.entries_per_warp),
            ("read_ports", self.read_ports),
            ("write_ports", self.write_ports),
            ("lat", self.lat),
        ] {
            if v == 0 {
                bad.push(format!("'rfc.{k}' = 0: must be at least 1"));
            }
        }
        if !(1..=8).contains(&self.banks) {
            bad.push(format!("'rfc.banks' = {}: must be 1..=8", self.banks));
        }
    }
}

/// Warp instructions an SM of `cfg` can issue per cycle: schedulers × issue per scheduler.
pub fn sm_issue_width(cfg: &GpuConfig) -> u32 {
    cfg.sched.n_per_sm * cfg.sched.issue_per_sched
}

impl GpuConfig {
    /// Errors of `[prf]`, `[afrf]`, `[mrf]` and `[rfc]`: range checks, combinations the timing
    /// model does not run (each naming both keys). Called by
    /// [`GpuConfig::validate`].
    pub fn prf_errors(&self) -> Vec<String> {
        let mut bad = Vec::new();
        self.prf.range_errors(&mut bad);
        self.afrf.range_errors(sm_issue_width(self), &mut bad);
        if self.mrf.lat == 0 {
            bad.push("'mrf.lat' = 0: a latency must be at least 1 cycle".into());
        }
        self.rfc.range_errors(&mut bad);
        if self.prf.enabled {
            let entries = self.sm.n_registers as u64 / self.gpu.warp_size.max(1) as u64;
            bad.extend(self.prf.structure_error(self.sm.max_warps, entries));
        }
        if self.prf.reprofile_every_cycles > 0 && !self.prf.enabled {
            bad.push(format!(
                "'prf.reprofile_every_cycles' = {} needs 'prf.enabled' = true: only the \
                 partitioned RF profiles (allowed: 0 = never, or a number of cycles ≥ 1 with the \
                 partition on)",
                self.prf.reprofile_every_cycles
            ));
        }
        if self.afrf.enabled && !self.prf.enabled {
            bad.push(
                "'afrf.enabled' = true needs 'prf.enabled' = true: the adaptive FRF is the fast \
                 partition of the partitioned RF"
                    .into(),
            );
        }
        if self.rfc.enabled && self.prf.enabled {
            bad.push(
                "'rfc.enabled' = true with 'prf.enabled' = true: the RF cache is a baseline in \
                 front of the monolithic RF, not of the partitioned one (turn one of them off)"
                    .into(),
            );
        }
        let org =
            self.prf.enabled || self.afrf.enabled || self.rfc.enabled || !self.mrf.is_default();
        for s in crate::config::technique::SECTIONS {
            if let Some(msg) = s.plain_rf_only {
                if org && (s.enabled)(self) {
                    bad.push(msg.into());
                }
            }
        }
        if org && self.rf.latency != 1 {
            bad.push(format!(
                "'rf.latency' = {} with the partitioned RF, an MRF baseline or the RF cache \
                 ('prf.enabled', 'rfc.enabled', '[mrf]'): their latencies are 'mrf.lat', \
                 'prf.lat_*' and 'rfc.lat' (leave rf.latency at 1)",
                self.rf.latency
            ));
        }
        bad
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_width_matches_the_spec() {
        assert_eq!(counter_bits(400), 9);
        assert_eq!(counter_bits(0), 0);
        assert_eq!(counter_bits(1), 1);
        assert_eq!(counter_bits(255), 8);
        assert_eq!(counter_bits(256), 9);
        let a = AfrfSection::default();
        assert_eq!(a.counter_width_bits(8), 9);
    }

    #[test]
    fn ratio_threshold_rounds_the_decimal_product() {
        let r = |ratio, epoch| AfrfSection {
            threshold_mode: ThresholdMode::Ratio,
            threshold_ratio: ratio,
            epoch,
            ..AfrfSection::default()
        };
        assert_eq!(r(0.20, 50).threshold_insts(8), 80);
        assert_eq!(r(0.2125, 50).threshold_insts(8), 85);
        // 0.25 × 10 = 2.5 rounds away from zero; 0.15 × 10 is 1.5000000000000002 in binary
        // and rounds to 2 through the decimal step as well.
        assert_eq!(r(0.25, 10).threshold_insts(1), 3);
        assert_eq!(r(0.15, 10).threshold_insts(1), 2);
        assert_eq!(r(0.35, 10).threshold_insts(1), 4);
    }

    #[test]
    fn pilot_select_parses_and_lists_the_alternatives() {
        assert_eq!(PilotSelect::parse("index:3"), Ok(PilotSelect::Index(3)));
        let e = PilotSelect::parse("index:x").unwrap_err();
        assert!(
            e.contains("first_warp_first_cta") && e.contains("index:k"),
            "{e}"
        );
        for p in [
            PilotSelect::FirstWarpFirstCta,
            PilotSelect::RandomInFirstCta,
            PilotSelect::Index(7),
        ] {
            assert_eq!(PilotSelect::parse(&p.to_string()), Ok(p));
        }
    }

    #[test]
    fn launch_check_names_the_knob() {
        let p = PrfSection::default();
        assert_eq!(p.launch_check(20, 8), Ok(true));
        assert_eq!(p.launch_check(4, 8), Ok(false));
        assert!(p.launch_check(64, 8).unwrap_err().contains("63"));
        let strict = PrfSection {
            skip_if_fits: false,
            ..PrfSection::default()
        };
        assert!(strict
            .launch_check(3, 8)
            .unwrap_err()
            .contains("'prf.n_fast'"));
        assert_eq!(strict.launch_check(4, 8), Ok(true));
        let idx = PrfSection {
            pilot_select: PilotSelect::Index(8),
            ..PrfSection::default()
        };
        let e = idx.launch_check(20, 8).unwrap_err();
        assert!(
            e.contains("'prf.pilot_select'") && e.contains("index:7"),
            "{e}"
        );
    }

    #[test]
    fn v_srf_floor_and_structure() {
        let p = PrfSection::default();
        assert!(p.v_srf_error(0.25).is_none());
        assert!(p.v_srf_error(0.30).is_none());
        assert!(p.v_srf_error(0.31).unwrap().contains("'prf.v_srf'"));
        assert!(p.structure_error(64, 2048).is_none());
        let big = PrfSection {
            n_fast: 33,
            ..PrfSection::default()
        };
        let e = big.structure_error(64, 2048).unwrap();
        assert!(e.contains("at most 32"), "{e}");
    }
}
