//! `[reconv]` and `[dwf]`: branch reconvergence (control-flow spec §3) and the dynamic warp
//! formation structures' sizes and field widths (control-flow spec §5.6, §5.7).
//!
//! Every key has a serde default and each table is skipped when serialising a configuration
//! that leaves it at its default, so presets and user files without these tables load and hash
//! exactly as before. At the defaults the timing model is unchanged: the front end resolves
//! control flow as it fetches (`reconv.stack_update_at = "fetch"`).
//!
//! `[dwf]` holds the design parameters that `timing::dwf_hw_inputs` turns into the bit counts of
//! the DWF scheduler's structures for costing, and the knobs of the DWF thread scheduler that
//! the reference-mode model (`timing::dwf::refmodel`) simulates under `reconv.mode = "dwf"`.

use serde::{Deserialize, Serialize};

/// Largest accepted `reconv.max_depth` (entries).
pub const MAX_STACK_DEPTH_LIMIT: u32 = 1024;

/// `reconv.stack_update_at`: when a warp's PDOM stack takes the update of an executed branch,
/// and so when the warp's next fetch may use the new top of stack (control-flow spec §3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StackUpdateAt {
    /// `"fetch"`: an oracle front end; the stack is updated as the branch is fetched, so a
    /// fetch group runs on past a branch along the path the warp takes [G]. The idealised
    /// default.
    #[default]
    Fetch,
    /// `"issue"`: the stack is updated when the branch issues. A fetch group ends at a branch
    /// (or, with `reconv.issue_flush`, at a branch that redirects the warp), and the warp's next
    /// fetch waits until the branch has left the I-buffer.
    Issue,
    /// `"writeback"`: the stack is updated when the branch writes back ([F] pipeline): a fetch
    /// group ends at a branch and the warp does not fetch again until the branch completes.
    Writeback,
}

/// `reconv.push_order`: which diverged group runs first (control-flow spec §3.2 step 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PushOrderKnob {
    /// `"taken_on_top"`: fall-through pushed first, taken last, so the taken path runs first.
    #[default]
    TakenOnTop,
    /// `"fallthrough_on_top"`: taken pushed first, fall-through last.
    FallthroughOnTop,
}

/// `reconv.mode`: how diverged threads are grouped for issue (control-flow spec §3, §3.4, §4,
/// §5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReconvMode {
    /// `"pdom"`: static warps with the per-warp PDOM stack (default; the cycle-level model).
    #[default]
    Pdom,
    /// `"dwf"`: dynamic warp formation with the `[dwf]` structures and `dwf.policy`
    /// (control-flow spec §4, §5). Needs per-thread control flow (the PTX front end).
    Dwf,
    /// `"mimd"`: any ready thread fills any lane each scheduler cycle (§3.4; an idealisation).
    Mimd,
    /// `"nrec"`: a diverged warp splits into warps that never merge again (§3.4; an
    /// idealisation that needs extra warp contexts).
    Nrec,
}

impl ReconvMode {
    /// Every mode with its key value.
    pub const ALL: [(ReconvMode, &'static str); 4] = [
        (ReconvMode::Pdom, "pdom"),
        (ReconvMode::Dwf, "dwf"),
        (ReconvMode::Mimd, "mimd"),
        (ReconvMode::Nrec, "nrec"),
    ];
    /// The key value (`"pdom"`, ...).
    pub fn as_str(self) -> &'static str {
        ReconvMode::ALL
            .iter()
            .find(|(m, _)| *m == self)
            .map_or("pdom", |(_, s)| s)
    }
}

/// `dwf.policy`: the DWF issue policy (control-flow spec §5.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DwfPolicy {
    /// `"dmaj"`: the most common PC first, all its warps before a new PC (Majority entry,
    /// max-heap and MHeap LUT, §5.5). The default.
    #[default]
    Dmaj,
    /// `"dtime"`: warps in order of creation (FIFO).
    Dtime,
    /// `"dpc"`: the smallest PC first; ties to the oldest warp.
    Dpc,
    /// `"dmin"`: the least frequent PC first (the Majority structure keyed by −CNT).
    Dmin,
    /// `"dpdpri"`: the warp whose threads have passed the fewest reconvergence points first;
    /// ties by DPC.
    Dpdpri,
}

impl DwfPolicy {
    /// Every policy with its key value.
    pub const ALL: [(DwfPolicy, &'static str); 5] = [
        (DwfPolicy::Dmaj, "dmaj"),
        (DwfPolicy::Dtime, "dtime"),
        (DwfPolicy::Dpc, "dpc"),
        (DwfPolicy::Dmin, "dmin"),
        (DwfPolicy::Dpdpri, "dpdpri"),
    ];
    /// The key value (`"dmaj"`, ...).
    pub fn as_str(self) -> &'static str {
        DwfPolicy::ALL
            .iter()
            .find(|(m, _)| *m == self)
            .map_or("dmaj", |(_, s)| s)
    }
}

fn is_pdom(m: &ReconvMode) -> bool {
    *m == ReconvMode::Pdom
}
fn is_dmaj(p: &DwfPolicy) -> bool {
    *p == DwfPolicy::Dmaj
}

fn is_false(b: &bool) -> bool {
    !*b
}
fn is_true(b: &bool) -> bool {
    *b
}
fn yes() -> bool {
    true
}
fn is_zero(v: &u32) -> bool {
    *v == 0
}

/// `[reconv]`: the per-warp PDOM reconvergence stack (control-flow spec §3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReconvSection {
    /// `reconv.mode`: `"pdom"` (default), `"dwf"`, `"mimd"` or `"nrec"`.
    #[serde(default, skip_serializing_if = "is_pdom")]
    pub mode: ReconvMode,
    /// `reconv.stack_update_at`: `"fetch"` (default), `"issue"` or `"writeback"`.
    #[serde(default, skip_serializing_if = "is_fetch")]
    pub stack_update_at: StackUpdateAt,
    /// `reconv.issue_flush`: with `stack_update_at = "issue"`, the front end fetches
    /// sequentially past a branch; when the branch's stack update at issue sends the warp
    /// elsewhere (a taken or divergent branch), the I-buffer entries fetched behind it are
    /// flushed [X]. Off: a fetch group simply ends at every branch.
    #[serde(default, skip_serializing_if = "is_false")]
    pub issue_flush: bool,
    /// `reconv.max_depth`: hardware stack depth in entries; exceeding it is a fatal
    /// diagnostic. 0 (default) means 2 × `gpu.warp_size` (control-flow spec §3.1).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub max_depth: u32,
    /// `reconv.push_order`: `"taken_on_top"` (default) or `"fallthrough_on_top"`.
    #[serde(default, skip_serializing_if = "is_taken_on_top")]
    pub push_order: PushOrderKnob,
    /// `reconv.call_entries`: a uniform CALL pushes a call-kind entry that reconvergence never
    /// tests, and RET pops it [X] (default true).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub call_entries: bool,
    /// `reconv.counters`: collect the reconvergence counters (control-flow spec §6: stack
    /// activity, SIMD-efficiency buckets) into each kernel's `Activity` record (default false,
    /// which leaves the record as it was).
    #[serde(default, skip_serializing_if = "is_false")]
    pub counters: bool,
}

impl Default for ReconvSection {
    fn default() -> Self {
        ReconvSection {
            mode: ReconvMode::Pdom,
            stack_update_at: StackUpdateAt::Fetch,
            issue_flush: false,
            max_depth: 0,
            push_order: PushOrderKnob::TakenOnTop,
            call_entries: true,
            counters: false,
        }
    }
}

fn is_fetch(v: &StackUpdateAt) -> bool {
    *v == StackUpdateAt::Fetch
}
fn is_taken_on_top(v: &PushOrderKnob) -> bool {
    *v == PushOrderKnob::TakenOnTop
}

impl ReconvSection {
    /// True when every key holds its default (the table is then not written).
    pub fn is_default(&self) -> bool {
        *self == ReconvSection::defaults()
    }

    /// The defaults.
    pub fn defaults() -> Self {
        ReconvSection::default()
    }

    /// The stack depth bound for warps of `warp_size` lanes.
    pub fn depth_bound(&self, warp_size: u32) -> u32 {
        if self.max_depth == 0 {
            2 * warp_size
        } else {
            self.max_depth
        }
    }

    /// Range and consistency checks, naming the key.
    pub fn check(&self, bad: &mut Vec<String>) {
        if self.max_depth == 1 || self.max_depth > MAX_STACK_DEPTH_LIMIT {
            bad.push(format!(
                "'reconv.max_depth' = {}: must be 0 (2 x gpu.warp_size) or in \
                 2..={MAX_STACK_DEPTH_LIMIT} entries",
                self.max_depth
            ));
        }
        if self.issue_flush && self.stack_update_at != StackUpdateAt::Issue {
            bad.push(format!(
                "'reconv.issue_flush' = true needs 'reconv.stack_update_at' = \"issue\" (it is \
                 \"{}\")",
                match self.stack_update_at {
                    StackUpdateAt::Fetch => "fetch",
                    StackUpdateAt::Issue => "issue",
                    StackUpdateAt::Writeback => "writeback",
                }
            ));
        }
    }
}

/// `[dwf]`: sizes and field widths of the dynamic-warp-formation scheduler's structures
/// (control-flow spec §5.6 defaults, §5.7 field widths from [F]). Read only by
/// `timing::dwf_hw_inputs`, which the energy and area models cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DwfSection {
    /// SIMD pipeline width `n` in lanes; a warp issues over `warp_size / n` cycles (8).
    pub simd_width: u32,
    /// Warp-pool entries `E_p` (128); the allocator holds as many.
    pub pool_entries: u32,
    /// PC-warp LUT entries `E_l` (64).
    pub pc_lut_entries: u32,
    /// PC-warp LUT associativity (4).
    pub pc_lut_ways: u32,
    /// MHeap LUT entries `E_m` (128).
    pub mheap_lut_entries: u32,
    /// MHeap LUT associativity (8).
    pub mheap_lut_ways: u32,
    /// Max-heap entries `E_h` (64).
    pub heap_entries: u32,
    /// PC field width `P`, bits (24).
    pub pc_bits: u32,
    /// Thread-id field width `tb`, bits (10; 0 = ⌈log2 sm.max_threads⌉).
    pub tid_bits: u32,
    /// Thread-count field width `cnt`, bits (10; 0 = ⌈log2(sm.max_threads + 1)⌉).
    pub cnt_bits: u32,
    /// Register-file registers per core for the decoder-overhead comparison (8192).
    pub rf_regs_per_core: u32,
    /// Die area the chip-level overhead is reported against, mm² (470).
    pub die_area_mm2: u32,
    /// `dwf.policy`: the issue policy, `"dmaj"` (default), `"dtime"`, `"dpc"`, `"dmin"` or
    /// `"dpdpri"` (control-flow spec §5.4).
    #[serde(skip_serializing_if = "is_dmaj")]
    pub policy: DwfPolicy,
    /// `dwf.lane_aware`: a formed warp never holds two threads of one home slot (§5.1;
    /// default true). False: any thread joins any warp and the register read stalls on bank
    /// conflicts.
    #[serde(skip_serializing_if = "is_true")]
    pub lane_aware: bool,
    /// `dwf.swizzle`: thread swizzling of the home slot, `home = (tid mod w) XOR ((tid div w)
    /// mod 2)` (§5.1; default true).
    #[serde(skip_serializing_if = "is_true")]
    pub swizzle: bool,
    /// `dwf.infinite_resources`: no port, size or stall limits on the DWF structures (§5.5; an
    /// idealisation, default false).
    #[serde(skip_serializing_if = "is_false")]
    pub infinite_resources: bool,
}

impl Default for DwfSection {
    fn default() -> Self {
        DwfSection {
            simd_width: 8,
            pool_entries: 128,
            pc_lut_entries: 64,
            pc_lut_ways: 4,
            mheap_lut_entries: 128,
            mheap_lut_ways: 8,
            heap_entries: 64,
            pc_bits: 24,
            tid_bits: 10,
            cnt_bits: 10,
            rf_regs_per_core: 8192,
            die_area_mm2: 470,
            policy: DwfPolicy::Dmaj,
            lane_aware: true,
            swizzle: true,
            infinite_resources: false,
        }
    }
}

impl DwfSection {
    /// True when every key holds its default (the table is then not written).
    pub fn is_default(&self) -> bool {
        *self == DwfSection::default()
    }

    /// Range checks, naming the key; `warp_size` is `gpu.warp_size`.
    pub fn check(&self, warp_size: u32, bad: &mut Vec<String>) {
        let mut range = |k: &str, v: u32, lo: u32, hi: u32| {
            if !(lo..=hi).contains(&v) {
                bad.push(format!("'dwf.{k}' = {v}: must be in {lo}..={hi}"));
            }
        };
        range("simd_width", self.simd_width, 1, 64);
        range("pool_entries", self.pool_entries, 1, 1 << 16);
        range("pc_lut_entries", self.pc_lut_entries, 1, 1 << 16);
        range("pc_lut_ways", self.pc_lut_ways, 1, 64);
        range("mheap_lut_entries", self.mheap_lut_entries, 1, 1 << 16);
        range("mheap_lut_ways", self.mheap_lut_ways, 1, 64);
        range("heap_entries", self.heap_entries, 1, 1 << 16);
        range("pc_bits", self.pc_bits, 8, 64);
        range("tid_bits", self.tid_bits, 0, 32);
        range("cnt_bits", self.cnt_bits, 0, 32);
        range("rf_regs_per_core", self.rf_regs_per_core, 1, 1 << 24);
        range("die_area_mm2", self.die_area_mm2, 1, 10_000);
        if self.simd_width > 0 && !warp_size.is_multiple_of(self.simd_width) {
            bad.push(format!(
                "'dwf.simd_width' = {}: must divide gpu.warp_size ({warp_size})",
                self.simd_width
            ));
        }
        for (k, e, wy) in [
            ("pc_lut", self.pc_lut_entries, self.pc_lut_ways),
            ("mheap_lut", self.mheap_lut_entries, self.mheap_lut_ways),
        ] {
            if wy > 0 && !e.is_multiple_of(wy) {
                bad.push(format!(
                    "'dwf.{k}_ways' = {wy}: must divide 'dwf.{k}_entries' ({e})"
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_clean_and_bad_values_name_the_key() {
        let mut bad = Vec::new();
        ReconvSection::defaults().check(&mut bad);
        DwfSection::default().check(32, &mut bad);
        assert!(bad.is_empty(), "{bad:?}");
        assert_eq!(ReconvSection::defaults().depth_bound(32), 64);
        let r = ReconvSection {
            max_depth: 1,
            issue_flush: true,
            ..ReconvSection::defaults()
        };
        r.check(&mut bad);
        assert!(bad[0].contains("reconv.max_depth"), "{bad:?}");
        assert!(bad[1].contains("reconv.issue_flush"), "{bad:?}");
        let d = DwfSection {
            simd_width: 7,
            pc_lut_ways: 3,
            ..Default::default()
        };
        bad.clear();
        d.check(32, &mut bad);
        assert!(bad.iter().any(|b| b.contains("dwf.simd_width")), "{bad:?}");
        assert!(bad.iter().any(|b| b.contains("dwf.pc_lut_ways")), "{bad:?}");
    }
}
