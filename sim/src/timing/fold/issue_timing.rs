//! Issue timing of a folded SP instruction as a pure description (power-gating §6 "Issue and
//! pipeline").
//!
//! With issue at cycle `s`, latency `L` and initiation interval `II`:
//! - sub-warp 0 issues at `s` and sub-warp 1 at `s + II`, on the same SP; the SP port stays busy
//!   until the second one is accepted, `2·II` cycles (one pass: `II`);
//! - each pass occupies its lanes for `L` cycles from its own issue (§1.1: cycles
//!   `s…s+L−1`), so the lanes of a folded instruction are busy `s…s+II+L−1` where both passes
//!   use them;
//! - a result-collection buffer merges the halves and write-back follows the later one: the
//!   folded latency is `L + II`; an unfolded result bypasses the buffer (`L`);
//! - the fold hardware adds `fold.extra_stages` stages (shift before EX, re-shift after EX). They
//!   add dependency latency; they count as busy cycles for gating only with
//!   `fold.extra_stages_busy`.

use crate::config::fold::FoldSection;

/// The extra pipeline stages one SP instruction goes through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExtraStages {
    /// Stages added to the instruction's latency.
    pub cycles: u32,
    /// The stages also count as busy cycles of the lanes.
    pub busy: bool,
}

impl ExtraStages {
    /// The extra stages of one SP instruction: none without fold hardware; with it,
    /// `fold.extra_stages` for every SP instruction under `fold.extra_stages_always`, otherwise
    /// only for an instruction that is folded or shifted (`transformed`).
    pub fn for_instruction(cfg: &FoldSection, hardware_present: bool, transformed: bool) -> Self {
        if hardware_present && (cfg.extra_stages_always || transformed) {
            ExtraStages {
                cycles: cfg.extra_stages,
                busy: cfg.extra_stages_busy,
            }
        } else {
            ExtraStages::default()
        }
    }
}

/// When the passes of one SP instruction issue, how long they hold the port and the lanes, and
/// when the result is ready, relative to the issue cycle of the first pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IssueTiming {
    /// Passes (1, or 2 when folded).
    pub n_passes: u8,
    /// Cycles after the first pass at which pass `i` issues (`i · II`).
    pub pass_offset_cycles: [u32; 2],
    /// Cycles the SP issue port is held (`n_passes · II`).
    pub port_busy_cycles: u32,
    /// Cycles each pass keeps its lanes busy from its own issue (`L`, plus the extra stages
    /// when they count as busy).
    pub lane_busy_cycles: u32,
    /// Cycles from the first issue until the result can be read: `L + (n_passes − 1)·II` plus
    /// the extra stages.
    pub result_latency_cycles: u32,
}

impl IssueTiming {
    /// The timing of an instruction of `n_passes` passes (0 is read as 1), latency `latency`
    /// and initiation interval `ii` (0 is read as 1) through `extra` stages.
    pub fn new(n_passes: u8, latency: u32, ii: u32, extra: ExtraStages) -> IssueTiming {
        let n = n_passes.clamp(1, 2);
        let ii = ii.max(1);
        IssueTiming {
            n_passes: n,
            pass_offset_cycles: [0, if n == 2 { ii } else { 0 }],
            port_busy_cycles: n as u32 * ii,
            lane_busy_cycles: latency + if extra.busy { extra.cycles } else { 0 },
            result_latency_cycles: latency + (n as u32 - 1) * ii + extra.cycles,
        }
    }

    /// The cycles `[start, end)` in which pass `pass` keeps its lanes busy, for a first issue
    /// at `issue_cycle`.
    pub fn pass_busy(&self, issue_cycle: u64, pass: usize) -> (u64, u64) {
        let start = issue_cycle + self.pass_offset_cycles[pass.min(1)] as u64;
        (start, start + self.lane_busy_cycles as u64)
    }
}

/// The issue port of one SP: it accepts a new instruction only once the previous one's passes
/// have all been accepted (`port_busy_cycles` after its issue).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpPort {
    free_at_cycle: u64,
}

impl SpPort {
    /// True when the port can accept an instruction at `cycle`.
    pub fn can_accept(&self, cycle: u64) -> bool {
        cycle >= self.free_at_cycle
    }

    /// Issues an instruction of timing `t` at `cycle` if the port is free; returns whether it
    /// was accepted.
    pub fn issue(&mut self, cycle: u64, t: &IssueTiming) -> bool {
        if !self.can_accept(cycle) {
            return false;
        }
        self.free_at_cycle = cycle + t.port_busy_cycles as u64;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folded_latency_is_l_plus_ii_and_the_port_is_held_twice() {
        let none = ExtraStages::default();
        let f = IssueTiming::new(2, 4, 2, none);
        assert_eq!(f.pass_offset_cycles, [0, 2]);
        assert_eq!(f.port_busy_cycles, 4);
        assert_eq!(f.result_latency_cycles, 6);
        assert_eq!(f.pass_busy(10, 1), (12, 16));
        let u = IssueTiming::new(1, 4, 2, none);
        assert_eq!((u.port_busy_cycles, u.result_latency_cycles), (2, 4));
        let cfg = FoldSection::default();
        let x = ExtraStages::for_instruction(&cfg, true, false);
        assert_eq!(
            x,
            ExtraStages {
                cycles: 2,
                busy: false
            }
        );
        let t = IssueTiming::new(2, 4, 1, x);
        assert_eq!(t.result_latency_cycles, 4 + 1 + 2);
        assert_eq!(t.lane_busy_cycles, 4);
        assert_eq!(ExtraStages::for_instruction(&cfg, false, true), none);
        let busy = FoldSection {
            extra_stages_busy: true,
            extra_stages_always: false,
            ..FoldSection::default()
        };
        assert_eq!(ExtraStages::for_instruction(&busy, true, false), none);
        let xb = ExtraStages::for_instruction(&busy, true, true);
        assert_eq!(IssueTiming::new(1, 4, 1, xb).lane_busy_cycles, 6);
    }
}
