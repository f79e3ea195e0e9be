//! `[sched.ooo]`, the out-of-order issue variants (issue-stage §2, §3): the table's keys with
//! their defaults, and its checks: range checks of the SOCGPU and LOOG knobs and the combinations
//! their issue paths do not model, each error naming its key.

use super::pg::PgPolicy;
use super::ranges::{r, Range};
use super::schema::{GpuConfig, SchedPolicy};
use serde::{Deserialize, Serialize};

/// The physical ranges of the `[sched.ooo]` keys (the outer bound `config::ranges` applies to
/// every numeric key; [`GpuConfig::ooo_errors`] keeps the finer rules).
pub(crate) const RANGES: &[Range] = &[
    r(
        "sched.ooo.loog_rrs_factor",
        0.0,
        4.0,
        "entries per collector unit",
    ),
    r("sched.ooo.ib_depth", 1.0, 256.0, "entries"),
    r("sched.ooo.*", 0.0, 256.0, "(count)"),
];

impl GpuConfig {
    /// Errors of `[sched.ooo]`. Called by [`GpuConfig::validate`].
    ///
    /// - `sched.ooo.ib_depth` must be in 1..=64 (the dependence matrix keeps one 64-bit row
    ///   per entry) and `sched.ooo.ready_ctr_bits` in 0..=16 (0 = ⌈log2 N⌉ + 2).
    /// - The LOOG knobs are checked by [`GpuConfig::loog_errors`].
    /// - The SOCGPU and LOOG issue paths have no power-gating or folding hooks and order warps
    ///   by the schedulers that read only age and issue history: with `"socgpu"` or `"loog"`,
    ///   `pg.policy` must be "None", `fold.enabled` false, and `sched.policy` one of lrr, gto,
    ///   oldest, youngest.
    pub fn ooo_errors(&self) -> Vec<String> {
        let mut bad = Vec::new();
        let o = &self.sched.ooo;
        if !(1..=64).contains(&o.ib_depth) {
            bad.push(format!(
                "'sched.ooo.ib_depth' = {}: must be in 1..=64 entries",
                o.ib_depth
            ));
        }
        if o.ready_ctr_bits > 16 {
            bad.push(format!(
                "'sched.ooo.ready_ctr_bits' = {}: must be in 0..=16 (0 = ceil(log2 ib_depth) + 2)",
                o.ready_ctr_bits
            ));
        }
        bad.extend(self.loog_errors());
        match o.mode {
            OooMode::None => {}
            OooMode::Socgpu | OooMode::Loog => {
                let m = if o.mode == OooMode::Socgpu {
                    "socgpu"
                } else {
                    "loog"
                };
                if self.pg.policy != PgPolicy::None {
                    bad.push(format!(
                        "'sched.ooo.mode' = \"{m}\" with 'pg.policy' not \"None\": the \
                         out-of-order issue path has no power-gating hooks"
                    ));
                }
                if self.fold.enabled {
                    bad.push(format!(
                        "'sched.ooo.mode' = \"{m}\" with 'fold.enabled' = true: the \
                         out-of-order issue path does not fold warps"
                    ));
                }
                if !matches!(
                    self.sched.policy,
                    SchedPolicy::Lrr
                        | SchedPolicy::Gto
                        | SchedPolicy::Oldest
                        | SchedPolicy::Youngest
                ) {
                    bad.push(format!(
                        "'sched.policy' = \"{}\" with 'sched.ooo.mode' = \"{m}\": allowed \
                         lrr, gto, oldest, youngest",
                        String::from(self.sched.policy.clone())
                    ));
                }
            }
        }
        bad
    }

    /// The LOOG knobs' errors (issue-stage §3.3), checked whatever the mode so that a file
    /// carrying a bad value is refused even before the mode is switched on:
    /// - `sched.ooo.loog_n_cu`: 0 (the RTL default) or 1..=64 CUs per slice;
    /// - `sched.ooo.loog_rrs_factor`: 0 (no RRS) or above 1 up to 4 (R = ⌈N_cu × factor⌉ ≤ 256;
    ///   R > N_cu so that a CU waiting to dispatch always finds an entry eventually);
    /// - `sched.ooo.loog_wb_buffers`: 1, or 2 with more than 12 CUs (each buffer feeds half
    ///   the CUs);
    /// - `sched.ooo.loog_uuid_bits`: 4..=32 (two MSBs split the age window, §3.1);
    /// - `sched.ooo.loog_rf_read_ports`: 1 up to the slice's CUs and the slice's share of the
    ///   register file's bank ports (`rf.n_banks × rf.ports_per_bank / sched.n_per_sm`): more
    ///   concurrent operand reads than the register file can feed are refused.
    pub fn loog_errors(&self) -> Vec<String> {
        let mut bad = Vec::new();
        let o = &self.sched.ooo;
        let n_cu = self.loog_n_cu();
        if o.loog_n_cu > 64 {
            bad.push(format!(
                "'sched.ooo.loog_n_cu' = {}: must be 0 (min(16, warps per slice x \
                 sched.issue_per_sched)) or in 1..=64",
                o.loog_n_cu
            ));
        }
        let f = o.loog_rrs_factor;
        if !(f == 0.0 || (f > 1.0 && f <= 4.0)) {
            bad.push(format!(
                "'sched.ooo.loog_rrs_factor' = {f}: must be 0 (no RRS) or above 1 up to 4 (the \
                 design space is 1.5, 2, 2.5; with R <= N_cu every entry may be held by CUs \
                 waiting to dispatch, which then need a free entry)"
            ));
        }
        match o.loog_wb_buffers {
            1 => {}
            2 if n_cu > 12 => {}
            2 => bad.push(format!(
                "'sched.ooo.loog_wb_buffers' = 2 with {n_cu} CUs per slice: two write-back \
                 buffers are for more than 12 CUs (allowed: 1)"
            )),
            n => bad.push(format!(
                "'sched.ooo.loog_wb_buffers' = {n}: allowed 1, or 2 with more than 12 CUs"
            )),
        }
        if !(4..=32).contains(&o.loog_uuid_bits) {
            bad.push(format!(
                "'sched.ooo.loog_uuid_bits' = {}: must be in 4..=32 (8 as the thesis, 20 as \
                 the RTL)",
                o.loog_uuid_bits
            ));
        }
        let slices = self.sched.n_per_sm.max(1);
        let feed = (self.rf.n_banks * self.rf.ports_per_bank / slices).max(1);
        let p = o.loog_rf_read_ports;
        if p == 0 || p > feed || (p > n_cu && o.loog_n_cu <= 64) {
            bad.push(format!(
                "'sched.ooo.loog_rf_read_ports' = {p}: must be in 1..={} (the slice's {n_cu} \
                 CUs, and the {feed} bank ports of the register file per slice: rf.n_banks x \
                 rf.ports_per_bank / sched.n_per_sm)",
                feed.min(n_cu.max(1))
            ));
        }
        if o.loog_defer_load_consumers && !o.loog_ready_first {
            bad.push(
                "'sched.ooo.loog_defer_load_consumers' = true needs \
                 'sched.ooo.loog_ready_first' = true (it refines the ready-first order)"
                    .to_string(),
            );
        }
        for (k, n) in [
            ("loog_lq_entries", o.loog_lq_entries),
            ("loog_sq_entries", o.loog_sq_entries),
        ] {
            if !(1..=64).contains(&n) {
                bad.push(format!(
                    "'sched.ooo.{k}' = {n}: must be in 1..=64 (memory-queue entries per issue \
                     slice, used with sched.ooo.loog_lsq)"
                ));
            }
        }
        bad
    }

    /// LOOG issue slices per SM: one per warp scheduler (issue-stage §3 [G]: one LOOG instance
    /// per sub-core).
    pub fn loog_slices(&self) -> u32 {
        self.sched.n_per_sm.max(1)
    }

    /// LOOG collector units per slice: `sched.ooo.loog_n_cu`, or when 0 the RTL default
    /// `min(16, W · issue width)` with W the warps of one slice (issue-stage §3.3).
    pub fn loog_n_cu(&self) -> u32 {
        let o = &self.sched.ooo;
        if o.loog_n_cu != 0 {
            return o.loog_n_cu;
        }
        let w = self.sm.max_warps.div_ceil(self.loog_slices()).max(1);
        (w * self.sched.issue_per_sched.max(1)).min(16)
    }

    /// LOOG result-reservation-station entries per slice: ⌈N_cu × `loog_rrs_factor`⌉, 0 without
    /// an RRS.
    pub fn loog_rrs_entries(&self) -> u32 {
        let f = self.sched.ooo.loog_rrs_factor;
        if f <= 0.0 {
            0
        } else {
            ((self.loog_n_cu() as f64 * f).ceil() as u32).min(256)
        }
    }

    /// Instructions a warp's fetch buffer holds, the bound on one fetch group: SOCGPU's
    /// per-warp instruction buffer (`sched.ooo.ib_depth`) under `sched.ooo.mode = "socgpu"`,
    /// else the in-order I-buffer (`frontend.ibuffer_entries`, LOOG's IBuffer too).
    pub fn fetch_buffer_entries(&self) -> u32 {
        if self.sched.ooo.mode == OooMode::Socgpu {
            self.sched.ooo.ib_depth
        } else {
            self.frontend.ibuffer_entries
        }
    }

    /// Whether a dependent instruction takes its chained operand from its producer's result
    /// broadcast rather than reading it from the register file after the producer's write-back:
    /// LOOG's collector units capture it (issue-stage §3.2 steps 2–4).
    pub fn chained_operand_captured(&self) -> bool {
        self.sched.ooo.mode == OooMode::Loog
    }
}

impl OooSection {
    /// Every key of `[sched.ooo]` with its value, including the keys that are not serialised
    /// while they hold their defaults (so that a user file or `--set` may override them on a
    /// base preset).
    pub(crate) fn keys_with_values(&self) -> Vec<(&'static str, toml::Value)> {
        let o = self;
        let v = |x: Result<toml::Value, toml::ser::Error>| x.expect("serialises");
        vec![
            ("ib_depth", v(toml::Value::try_from(o.ib_depth))),
            ("local_policy", v(toml::Value::try_from(o.local_policy))),
            ("ready_ctr_bits", v(toml::Value::try_from(o.ready_ctr_bits))),
            ("ib_refill", v(toml::Value::try_from(o.ib_refill))),
            ("mem_order", v(toml::Value::try_from(o.mem_order))),
            ("dual", v(toml::Value::try_from(o.dual))),
            ("loog_n_cu", v(toml::Value::try_from(o.loog_n_cu))),
            (
                "loog_rrs_factor",
                v(toml::Value::try_from(o.loog_rrs_factor)),
            ),
            (
                "loog_wb_buffers",
                v(toml::Value::try_from(o.loog_wb_buffers)),
            ),
            ("loog_uuid_bits", v(toml::Value::try_from(o.loog_uuid_bits))),
            (
                "loog_rf_arbiter",
                v(toml::Value::try_from(o.loog_rf_arbiter)),
            ),
            (
                "loog_rf_read_ports",
                v(toml::Value::try_from(o.loog_rf_read_ports)),
            ),
            (
                "loog_rrs_dispatch_needs_free_slot",
                v(toml::Value::try_from(o.loog_rrs_dispatch_needs_free_slot)),
            ),
            (
                "loog_ready_first",
                v(toml::Value::try_from(o.loog_ready_first)),
            ),
            (
                "loog_defer_load_consumers",
                v(toml::Value::try_from(o.loog_defer_load_consumers)),
            ),
            ("loog_lsq", v(toml::Value::try_from(o.loog_lsq))),
            (
                "loog_lq_entries",
                v(toml::Value::try_from(o.loog_lq_entries)),
            ),
            (
                "loog_sq_entries",
                v(toml::Value::try_from(o.loog_sq_entries)),
            ),
        ]
    }
}

/// `[sched.ooo]`: out-of-order issue variant (issue-stage); the baseline is `none`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OooSection {
    /// `sched.ooo.mode`: issue-stage variant.
    pub mode: OooMode,
    /// `sched.ooo.ib_depth`: SOCGPU instruction-buffer entries per warp, N (issue-stage §2.1;
    /// 1..=64, default 8).
    #[serde(
        default = "default_ib_depth",
        skip_serializing_if = "is_default_ib_depth"
    )]
    pub ib_depth: u32,
    /// `sched.ooo.local_policy`: SOCGPU intra-warp selection among the candidates (§2.3).
    #[serde(default, skip_serializing_if = "is_default")]
    pub local_policy: OooLocalPolicy,
    /// `sched.ooo.ready_ctr_bits`: width C of the MostReady/LeastReady counters; 0 selects
    /// the default ⌈log2 N⌉ + 2 [G].
    #[serde(default, skip_serializing_if = "is_default")]
    pub ready_ctr_bits: u32,
    /// `sched.ooo.ib_refill`: when a warp's SOCGPU buffer may fetch again [G].
    #[serde(default, skip_serializing_if = "is_default")]
    pub ib_refill: IbRefill,
    /// `sched.ooo.mem_order`: memory ordering among one warp's SOCGPU entries [G].
    #[serde(default, skip_serializing_if = "is_default")]
    pub mem_order: OooMemOrder,
    /// `sched.ooo.dual`: SOCGPU second issue of a warp in one cycle (§2.7); in effect only with
    /// `sched.max_issue_per_warp` ≥ 2.
    #[serde(default, skip_serializing_if = "is_default")]
    pub dual: OooDual,
    /// `sched.ooo.loog_n_cu`: LOOG collector units (reservation stations) per issue slice,
    /// N_cu (issue-stage §3.3; 1..=64); 0 selects the RTL's default
    /// `min(16, warps per slice × sched.issue_per_sched)`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub loog_n_cu: u32,
    /// `sched.ooo.loog_rrs_factor`: result-reservation-station entries per slice as a multiple
    /// of N_cu, R = ⌈N_cu × factor⌉ (§3.3: 1.5, 2 or 2.5); 0 = no RRS (the default).
    #[serde(default, skip_serializing_if = "is_default")]
    pub loog_rrs_factor: f64,
    /// `sched.ooo.loog_wb_buffers`: write-back broadcast buffers per slice, 1 (the default)
    /// or 2 (only with more than 12 CUs, §3.3).
    #[serde(default = "default_one", skip_serializing_if = "is_default_one")]
    pub loog_wb_buffers: u32,
    /// `sched.ooo.loog_uuid_bits`: width U of the per-warp UUID counter (§3.1; 8 as in the
    /// thesis, the default, or 20 as in the RTL; 4..=32).
    #[serde(
        default = "default_uuid_bits",
        skip_serializing_if = "is_default_uuid_bits"
    )]
    pub loog_uuid_bits: u32,
    /// `sched.ooo.loog_rf_arbiter`: the slice's register-file read arbiter (§3.2 step 3).
    #[serde(default, skip_serializing_if = "is_default")]
    pub loog_rf_arbiter: LoogRfArbiter,
    /// `sched.ooo.loog_rf_read_ports`: CUs of one slice granted the register file at once,
    /// each reading one operand per cycle from its operand's bank (§3 [G]: the Vortex RF has
    /// one read port; 1, the default, up to the slice's bank ports).
    #[serde(default = "default_one", skip_serializing_if = "is_default_one")]
    pub loog_rf_read_ports: u32,
    /// `sched.ooo.loog_rrs_dispatch_needs_free_slot`: with an RRS, a dispatch that writes back
    /// also needs a free RRS entry in that cycle (§3.2 step 5; on by default, as the RTL).
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub loog_rrs_dispatch_needs_free_slot: bool,
    /// `sched.ooo.loog_ready_first`: the allocation stage tries, in the inter-warp policy's
    /// order, first the warps whose I-buffer head reads no register renamed to a producer
    /// still waiting in a CU (undispatched), then the others (§3.2 step 1 [G]: the source's
    /// round-robin arbiter does not say; without it a greedy or age-ordered policy lets one
    /// warp's dependent chain fill every CU). On by default; off: the policy's order alone.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub loog_ready_first: bool,
    /// `sched.ooo.loog_defer_load_consumers`: with `loog_ready_first`, a head that reads the
    /// result of a global or local load still in flight (dispatched, result not yet back) also
    /// goes after the others [G]. Off by default (the ready-first order defers only heads
    /// whose producer has not dispatched). A load's consumers would otherwise hold their CUs
    /// for the whole memory latency while other warps have work that can go.
    #[serde(default, skip_serializing_if = "is_false")]
    pub loog_defer_load_consumers: bool,
    /// `sched.ooo.loog_lsq`: LOOG's memory queues (§3.2 "Original LOOG memory queues"; off by
    /// default, when the LD/ST-unit instructions of a warp dispatch in order). On: loads and
    /// stores reserve load-/store-queue entries at allocation, and a ready memory instruction
    /// may pass older ones of its warp except an older store whose address is unresolved, an
    /// older store whose address range overlaps its own (a store also waits for an older
    /// overlapping load), and an older memory barrier.
    #[serde(default, skip_serializing_if = "is_false")]
    pub loog_lsq: bool,
    /// `sched.ooo.loog_lq_entries`: load-queue entries per issue slice with `loog_lsq`
    /// (1..=64; 8 by default [G]: the source does not size them).
    #[serde(
        default = "default_lsq_entries",
        skip_serializing_if = "is_default_lsq_entries"
    )]
    pub loog_lq_entries: u32,
    /// `sched.ooo.loog_sq_entries`: store-queue entries per issue slice with `loog_lsq`
    /// (1..=64; 8 by default [G]).
    #[serde(
        default = "default_lsq_entries",
        skip_serializing_if = "is_default_lsq_entries"
    )]
    pub loog_sq_entries: u32,
}

fn default_lsq_entries() -> u32 {
    8
}

fn is_default_lsq_entries(v: &u32) -> bool {
    *v == default_lsq_entries()
}

fn is_false(v: &bool) -> bool {
    !*v
}

fn default_one() -> u32 {
    1
}

fn is_default_one(v: &u32) -> bool {
    *v == 1
}

fn default_uuid_bits() -> u32 {
    8
}

fn is_default_uuid_bits(v: &u32) -> bool {
    *v == default_uuid_bits()
}

fn default_true() -> bool {
    true
}

fn is_true(v: &bool) -> bool {
    *v
}

/// LOOG register-file read arbiter (`sched.ooo.loog_rf_arbiter`, issue-stage §3.2 step 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoogRfArbiter {
    /// `"id"`: the lowest-index requesting CU (the default).
    #[default]
    Id,
    /// `"rr"`: round-robin from after the last granted CU.
    Rr,
    /// `"rr_alloc"`: round-robin grants, and CUs allocated round-robin instead of
    /// lowest-index-free.
    RrAlloc,
}

fn default_ib_depth() -> u32 {
    8
}

// The SOCGPU keys are serialised only when they leave their defaults, so that configurations
// without them hash as before.
fn is_default_ib_depth(v: &u32) -> bool {
    *v == default_ib_depth()
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// SOCGPU local selection policy (`sched.ooo.local_policy`, issue-stage §2.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooLocalPolicy {
    /// `"first"`: the lowest physical index (the default).
    #[default]
    First,
    /// `"older"`: the smallest seniority.
    Older,
    /// `"younger"`: the largest seniority.
    Younger,
    /// `"most_ready"`: the largest ready counter.
    MostReady,
    /// `"least_ready"`: the smallest ready counter.
    LeastReady,
    /// `"random"`: uniform, from a seeded stream per warp.
    Random,
}

impl OooLocalPolicy {
    /// True for the policies that keep per-entry ready counters.
    pub fn uses_ready_ctr(self) -> bool {
        matches!(self, OooLocalPolicy::MostReady | OooLocalPolicy::LeastReady)
    }
}

/// When a warp's SOCGPU buffer is refilled (`sched.ooo.ib_refill`, issue-stage §2.1 [G]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IbRefill {
    /// `"when_empty"`: only an empty buffer fetches.
    WhenEmpty,
    /// `"when_free_ge_fetch_width"`: a buffer with at least `frontend.fetch_width` free
    /// entries (all of them when N is smaller) fetches (the default).
    #[default]
    WhenFreeGeFetchWidth,
}

/// Memory ordering of one warp's SOCGPU entries (`sched.ooo.mem_order`, §2.2 [G]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooMemOrder {
    /// `"none"`: no load/store ordering beyond register dependences (as the source).
    #[default]
    None,
    /// `"same_warp_in_order"`: a memory instruction also depends on every older memory entry.
    SameWarpInOrder,
}

/// SOCGPU dual issue (`sched.ooo.dual`, issue-stage §2.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooDual {
    /// `"off"`: single issue per warp.
    Off,
    /// `"plain"`: the local policy's second choice, tried once (the default).
    #[default]
    Plain,
    /// `"smart"`: the local policy re-run over the candidates of another, free unit.
    Smart,
}

/// Issue-stage variant (`sched.ooo.mode`); all three are simulated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OooMode {
    /// `"none"`: the in-order baseline with a scoreboard.
    None,
    /// `"socgpu"`: per-warp out-of-order issue from an instruction buffer with a dependence matrix.
    Socgpu,
    /// `"loog"`: collector units used as reservation stations.
    Loog,
}
