//! SOCGPU's per-warp out-of-order issue state (issue-stage spec §2.1, §4): its input struct,
//! the bit-count formulas of §4 term for term (symbols as in [`crate::issue_bits`]), and its
//! structures mapped onto the component models of [`super::cost`], with the baseline's
//! I-buffer and scoreboards as what it removes; and SOCGPU's costing in an estimate
//! ([`SocgpuCost`], registered in [`super::STAGES`]).

use super::cost::{baseline_cost, flops, logic, DesignCost, IssueCostError};
use super::stage::IssueStageCost;
use crate::gpu::{CostSource, Part, TechCostSource};
use crate::issue_bits::{clog2, BaselineIssue, InstFields};
use crate::logic::LogicKind;
use sim::activity::{KernelActivity, SocgpuHwInputs};
use sim::config::{GpuConfig, OooLocalPolicy};

impl BaselineIssue {
    /// The baseline of a SOCGPU configuration: its I-buffer entries per warp, other fields as
    /// [`Default`].
    pub fn from_hw(hw: &SocgpuHwInputs) -> Self {
        BaselineIssue {
            ib_entries: hw.baseline_ib_entries.max(1),
            ..Default::default()
        }
    }
}

/// SOCGPU's local selection policy (issue-stage §2.3), as it sizes the selection logic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelectPolicy {
    /// N-input priority encoder.
    First,
    /// (N−1)-comparator tree of ⌈log2 N⌉-bit seniorities.
    Older,
    /// As `Older`.
    Younger,
    /// (N−1)-comparator tree of C-bit ready counters.
    MostReady,
    /// As `MostReady`.
    LeastReady,
    /// LFSR plus priority encoder.
    Random,
}

impl From<OooLocalPolicy> for SelectPolicy {
    fn from(p: OooLocalPolicy) -> Self {
        match p {
            OooLocalPolicy::First => SelectPolicy::First,
            OooLocalPolicy::Older => SelectPolicy::Older,
            OooLocalPolicy::Younger => SelectPolicy::Younger,
            OooLocalPolicy::MostReady => SelectPolicy::MostReady,
            OooLocalPolicy::LeastReady => SelectPolicy::LeastReady,
            OooLocalPolicy::Random => SelectPolicy::Random,
        }
    }
}

impl SelectPolicy {
    /// Whether the policy keeps per-entry ready counters.
    pub fn uses_ready_ctr(self) -> bool {
        matches!(self, SelectPolicy::MostReady | SelectPolicy::LeastReady)
    }
}

/// SOCGPU's per-warp issue state (issue-stage §2.1, §4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SocgpuIssue {
    /// Entry fields (the baseline's).
    pub fields: InstFields,
    /// N: IB entries per warp.
    pub ib_depth: u32,
    /// The local policy.
    pub policy: SelectPolicy,
    /// C: ready-counter bits (used by MostReady/LeastReady only).
    pub ready_ctr_bits: u32,
    /// Whether the DM diagonal is hard-wired (N(N−1) flops instead of N²).
    pub diag_hardwired: bool,
    /// Instructions fetched per fetch-PC update (`frontend.fetch_width`, 2).
    pub fetch_width: u32,
    /// Bits of the Random policy's LFSR.
    pub lfsr_bits: u32,
}

impl Default for SocgpuIssue {
    /// N = 8, First, C = ⌈log2 N⌉ + 2, hard-wired diagonal, fetch width 2, 16-bit LFSR.
    fn default() -> Self {
        SocgpuIssue {
            fields: InstFields::default(),
            ib_depth: 8,
            policy: SelectPolicy::First,
            ready_ctr_bits: 5,
            diag_hardwired: true,
            fetch_width: 2,
            lfsr_bits: 16,
        }
    }
}

impl SocgpuIssue {
    /// The SOCGPU design of a simulated configuration (the simulator's `timing::ooo::socgpu_hw_inputs`).
    pub fn from_hw(hw: &SocgpuHwInputs) -> Self {
        let n = hw.ib_depth.max(1);
        SocgpuIssue {
            ib_depth: n,
            policy: hw.policy.into(),
            ready_ctr_bits: if hw.ready_ctr_bits > 0 {
                hw.ready_ctr_bits
            } else {
                clog2(n as u64) + 2
            },
            diag_hardwired: hw.dm_bits < n * n,
            ..Default::default()
        }
    }

    /// ⌈log2 N⌉: seniority bits.
    pub fn seniority_bits(&self) -> u32 {
        clog2(self.ib_depth as u64)
    }

    /// `E_s = E_b + 1 (ctl) + 1 (issued) + ⌈log2 N⌉ (seniority) + P (nt_next_pc)`.
    pub fn entry_bits(&self) -> u64 {
        self.fields.baseline_entry_bits()
            + 2
            + self.seniority_bits() as u64
            + self.fields.pc_bits as u64
    }

    /// IB bits: `N · E_s`.
    pub fn ib_bits(&self) -> u64 {
        self.ib_depth as u64 * self.entry_bits()
    }

    /// Ready counters: `N · C` (MostReady/LeastReady only, else 0).
    pub fn ready_ctr_total_bits(&self) -> u64 {
        if self.policy.uses_ready_ctr() {
            self.ib_depth as u64 * self.ready_ctr_bits as u64
        } else {
            0
        }
    }

    /// DM flops: `N²`, or `N(N−1)` with the diagonal hard-wired.
    pub fn dm_bits(&self) -> u64 {
        let n = self.ib_depth as u64;
        if self.diag_hardwired {
            n * n.saturating_sub(1)
        } else {
            n * n
        }
    }

    /// `last_issued_nt_pc` (P) plus the fetch PC register (P).
    pub fn pc_register_bits(&self) -> u64 {
        2 * self.fields.pc_bits as u64
    }

    /// Insert comparators of Rb bits: `N × (nd·(ns+nd) + ns·nd)`.
    pub fn gpr_insert_comparators(&self) -> u64 {
        self.ib_depth as u64 * self.fields.gpr_comparators()
    }

    /// Insert comparators of Pb bits: `N × (npd·(nps+npd) + nps·npd)`.
    pub fn pred_insert_comparators(&self) -> u64 {
        self.ib_depth as u64 * self.fields.pred_comparators()
    }

    /// a3: N magnitude comparators of P bits.
    pub fn a3_comparators(&self) -> u64 {
        self.ib_depth as u64
    }

    /// Comparators of the selection tree and their width: (N−1) of ⌈log2 N⌉ bits
    /// (Older/Younger) or of C bits (Most/LeastReady); none for First and Random (a priority
    /// encoder).
    pub fn selection_comparators(&self) -> (u64, u32) {
        let n1 = (self.ib_depth as u64).saturating_sub(1);
        match self.policy {
            SelectPolicy::Older | SelectPolicy::Younger => (n1, self.seniority_bits().max(1)),
            SelectPolicy::MostReady | SelectPolicy::LeastReady => (n1, self.ready_ctr_bits),
            SelectPolicy::First | SelectPolicy::Random => (0, 0),
        }
    }

    /// Every state bit SOCGPU adds per warp: IB, counters, DM and the two PC registers.
    pub fn state_bits(&self) -> u64 {
        self.ib_bits() + self.ready_ctr_total_bits() + self.dm_bits() + self.pc_register_bits()
    }
}

/// SOCGPU's per-warp structures (issue-stage §4) with the baseline's IB and scoreboards as
/// removed. Events are the §5 counters of `sim::activity::SocgpuStats`: `ib_inserts`,
/// `ib_reads`, `dm_row_writes`, `dm_nor_evals`, `dm_column_clears`, `dm_comparisons`,
/// `seniority_updates`, `ready_ctr_increments`, `issued`, `selections` (warp-cycles with a
/// candidate plus smart-dual re-selections).
pub fn socgpu_cost(
    s: &SocgpuIssue,
    base: &BaselineIssue,
    src: &dyn CostSource,
) -> Result<DesignCost, IssueCostError> {
    if s.ib_depth == 0 {
        return Err(IssueCostError::Zero {
            what: "sched.ooo.ib_depth",
        });
    }
    let f = &s.fields;
    let n = s.ib_depth as u64;
    let nf = n as f64;
    let sen = s.seniority_bits().max(1) as u64;
    let mut added = vec![
        flops(
            src,
            "IB entries",
            n,
            s.entry_bits() - s.seniority_bits() as u64,
            1,
            1,
            &["ib_inserts", "ib_reads"],
        )?,
        flops(
            src,
            "IB seniority",
            n,
            sen,
            1,
            1,
            &["ib_inserts", "seniority_updates"],
        )?,
    ];
    if s.policy.uses_ready_ctr() {
        let mut rc = flops(
            src,
            "ready counters",
            n,
            s.ready_ctr_bits as u64,
            1,
            1,
            &["ib_inserts", "ready_ctr_increments"],
        )?;
        let inc = logic(
            src,
            "ready counters",
            LogicKind::Adder,
            &[("WIDTH", s.ready_ctr_bits.max(1))],
            1.0,
            0,
            &[("ready_ctr_increments", 1.0)],
        )?;
        rc.area_m2 += inc.area_m2;
        rc.leakage_w += inc.leakage_w;
        rc.events[1].energy_j += inc.events[0].energy_j;
        rc.model = format!("{} + {}", rc.model, inc.model);
        added.push(rc);
    }
    let mut dm = logic(
        src,
        "dependence matrix",
        LogicKind::DepMatrix,
        &[("N", s.ib_depth)],
        1.0,
        s.dm_bits(),
        &[
            ("dm_row_writes", 1.0 / nf),
            ("dm_nor_evals", 1.0 / nf),
            ("dm_column_clears", 1.0 / nf),
        ],
    )?;
    if !s.diag_hardwired {
        dm.model += " (diagonal stored)";
    }
    added.push(dm);
    let gpr = s.gpr_insert_comparators();
    if gpr > 0 {
        added.push(logic(
            src,
            "insert comparators (GPR)",
            LogicKind::EqCmp,
            &[("N", gpr as u32), ("WIDTH", f.gpr_id_bits.max(1))],
            1.0,
            0,
            &[("dm_comparisons", 1.0 / nf)],
        )?);
    }
    let pred = s.pred_insert_comparators();
    if pred > 0 {
        added.push(logic(
            src,
            "insert comparators (predicate)",
            LogicKind::EqCmp,
            &[("N", pred as u32), ("WIDTH", f.pred_id_bits.max(1))],
            1.0,
            0,
            &[("dm_comparisons", 1.0 / nf)],
        )?);
    }
    // a3: one P-bit magnitude compare per entry, re-evaluated when its entry is written.
    added.push(logic(
        src,
        "a3 comparators",
        LogicKind::Adder,
        &[("WIDTH", f.pc_bits.max(1))],
        s.a3_comparators() as f64,
        0,
        &[("ib_inserts", 1.0)],
    )?);
    added.push(logic(
        src,
        "oldest-entry detect",
        LogicKind::EqCmp,
        &[("N", s.ib_depth), ("WIDTH", sen as u32)],
        1.0,
        0,
        &[("seniority_updates", 1.0 / nf), ("ib_inserts", 1.0 / nf)],
    )?);
    // Flush detector and fetch PC: two P-bit registers and a P-bit equality compare.
    let mut pcs = flops(
        src,
        "flush PC registers",
        2,
        f.pc_bits as u64,
        1,
        1,
        &["issued", "ib_inserts"],
    )?;
    pcs.events[1].energy_j /= s.fetch_width.max(1) as f64;
    let eq = logic(
        src,
        "flush compare",
        LogicKind::EqCmp,
        &[("N", 1), ("WIDTH", f.pc_bits.max(1))],
        1.0,
        0,
        &[("issued", 1.0)],
    )?;
    pcs.area_m2 += eq.area_m2;
    pcs.leakage_w += eq.leakage_w;
    pcs.events[0].energy_j += eq.events[0].energy_j;
    pcs.model = format!("{} + {}", pcs.model, eq.model);
    added.push(pcs);
    // Local selection.
    let mut sel = logic(
        src,
        "local selection",
        LogicKind::ArbFixed,
        &[("N", s.ib_depth.max(2))],
        1.0,
        0,
        &[("selections", 1.0)],
    )?;
    let (ncmp, wcmp) = s.selection_comparators();
    if ncmp > 0 {
        let tree = logic(
            src,
            "local selection",
            LogicKind::Adder,
            &[("WIDTH", wcmp.max(1))],
            ncmp as f64,
            0,
            &[("selections", ncmp as f64)],
        )?;
        sel.area_m2 += tree.area_m2;
        sel.leakage_w += tree.leakage_w;
        sel.events[0].energy_j += tree.events[0].energy_j;
        sel.model = format!("{} + {}", sel.model, tree.model);
    }
    if s.policy == SelectPolicy::Random {
        let lfsr = flops(
            src,
            "local selection",
            1,
            s.lfsr_bits as u64,
            1,
            1,
            &["selections"],
        )?;
        sel.area_m2 += lfsr.area_m2;
        sel.leakage_w += lfsr.leakage_w;
        sel.bits += lfsr.bits;
        sel.events[0].energy_j += lfsr.events[0].energy_j;
        sel.model = format!("{} + {}", sel.model, lfsr.model);
    }
    added.push(sel);
    let b = baseline_cost(base, src)?;
    Ok(DesignCost {
        design: "socgpu",
        per: "warp",
        added,
        removed: b.added,
        line_items: b.line_items,
    })
}

// ---------------------------------------------------------------------------------------------
// In an estimate (issue-stage §2.1, §4, §5): SOCGPU's instruction buffer, dependence matrix,
// insert and a3 comparators, flush registers and local selection, one copy per warp, replace
// both the in-order I-buffer ("front end/instruction buffer") and the scoreboards
// ("issue/scoreboard") of the tree (its buffer and dependence matrix replace them, §2.1): one
// leaf per SOCGPU structure in the "issue" group, area and leakage of one warp's copy × warps
// per SM × SMs, dynamic energy from the §5 counters of `KernelActivity::socgpu`.

/// SOCGPU's costing (`sched.ooo.mode = "socgpu"`).
pub struct SocgpuCost;

impl IssueStageCost for SocgpuCost {
    fn design(
        &self,
        cfg: &GpuConfig,
        base: &BaselineIssue,
        src: &TechCostSource,
    ) -> Option<Result<DesignCost, IssueCostError>> {
        let hw = SocgpuHwInputs::of_config(cfg)?;
        Some(socgpu_cost(&SocgpuIssue::from_hw(&hw), base, src))
    }

    /// The §5 counters of `KernelActivity::socgpu`; the buffer reads are SOCGPU's own.
    fn counter(&self, k: &KernelActivity, c: &str) -> Option<f64> {
        let x = k.socgpu.as_ref()?;
        let v = match c {
            "ib_inserts" => x.ib_inserts,
            "ib_reads" => x.ib_reads,
            "dm_row_writes" => x.dm_row_writes,
            "dm_nor_evals" => x.dm_nor_evals,
            "dm_column_clears" => x.dm_column_clears,
            "dm_comparisons" => x.dm_comparisons,
            "seniority_updates" => x.seniority_updates,
            "ready_ctr_increments" => x.ready_ctr_increments,
            "issued" => x.issued,
            "selections" => {
                x.candidate_hist.iter().skip(1).sum::<u64>() + x.smart_dual_reselections
            }
            _ => return None,
        };
        Some(v as f64)
    }

    /// One copy per warp.
    fn copies_per_sm(&self, cfg: &GpuConfig) -> u32 {
        cfg.sm.max_warps
    }

    /// Its buffer and dependence matrix replace the I-buffer and the scoreboards (§2.1).
    fn replaces(&self) -> &'static [Part] {
        &[Part::InstructionBuffer, Part::Scoreboard]
    }

    fn leaf_prefix(&self) -> &'static str {
        "SOCGPU"
    }

    fn ib_depth(&self, cfg: &GpuConfig) -> Option<u32> {
        Some(cfg.sched.ooo.ib_depth)
    }
}
