//! The logic component kinds, their size parameters and the structural forms used both by the
//! analytical defaults and by calibration fits.

use std::collections::BTreeMap;

/// A kind of parametric logic block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogicKind {
    /// Integer ALU (add/sub, logic, shift, compare), registered, width `W`.
    Alu32,
    /// Integer multiplier, width `W`.
    Imul32,
    /// IEEE-754 single-precision adder.
    Fadd32,
    /// IEEE-754 single-precision multiplier.
    Fmul32,
    /// IEEE-754 single-precision fused multiply-add.
    Ffma32,
    /// Special-function lane (table lookup + quadratic interpolation), `TBITS` table index bits.
    SfuLane,
    /// Register array of flip-flops: `N` entries × `W` bits, one write and one read port.
    FlopArray,
    /// Latch-based register array: `N` × `W`.
    LatchArray,
    /// Content-addressable memory: `E` entries × `W` tag bits, parallel match.
    Cam,
    /// Full crossbar: `N` inputs × `N` outputs of `W` bits.
    Crossbar,
    /// Round-robin arbiter over `N` requesters.
    ArbRr,
    /// Fixed-priority arbiter over `N` requesters.
    ArbFixed,
    /// Dependence matrix: `N` × `N` bits with wakeup/ready logic.
    DepMatrix,
    /// Scoreboard: `N` warps × `R` pending-register entries compared against operands.
    Scoreboard,
    /// Power-gating controller: `N` domains with idle counters of `D` bits.
    PgController,
    /// Ripple/prefix adder of `W` bits (building block).
    Adder,
    /// `N`-to-1 multiplexer of `W` bits (building block).
    Mux,
}

impl LogicKind {
    /// Every kind.
    pub const ALL: [LogicKind; 17] = [
        LogicKind::Alu32,
        LogicKind::Imul32,
        LogicKind::Fadd32,
        LogicKind::Fmul32,
        LogicKind::Ffma32,
        LogicKind::SfuLane,
        LogicKind::FlopArray,
        LogicKind::LatchArray,
        LogicKind::Cam,
        LogicKind::Crossbar,
        LogicKind::ArbRr,
        LogicKind::ArbFixed,
        LogicKind::DepMatrix,
        LogicKind::Scoreboard,
        LogicKind::PgController,
        LogicKind::Adder,
        LogicKind::Mux,
    ];

    /// Name as used on the command line, in overlays and in synthesis records.
    pub fn name(self) -> &'static str {
        match self {
            LogicKind::Alu32 => "alu32",
            LogicKind::Imul32 => "imul32",
            LogicKind::Fadd32 => "fadd32",
            LogicKind::Fmul32 => "fmul32",
            LogicKind::Ffma32 => "ffma32",
            LogicKind::SfuLane => "sfu_lane",
            LogicKind::FlopArray => "flop_array",
            LogicKind::LatchArray => "latch_array",
            LogicKind::Cam => "cam",
            LogicKind::Crossbar => "crossbar",
            LogicKind::ArbRr => "arb_rr",
            LogicKind::ArbFixed => "arb_fixed",
            LogicKind::DepMatrix => "dep_matrix",
            LogicKind::Scoreboard => "scoreboard",
            LogicKind::PgController => "pg_controller",
            LogicKind::Adder => "adder",
            LogicKind::Mux => "mux",
        }
    }

    /// Parse a name (case-insensitive, `-` accepted for `_`).
    pub fn parse(s: &str) -> Option<LogicKind> {
        let n = s.trim().to_ascii_lowercase().replace('-', "_");
        LogicKind::ALL.into_iter().find(|k| k.name() == n)
    }

    /// Size parameters with their default values.
    pub fn default_params(self) -> BTreeMap<String, u32> {
        let p: &[(&str, u32)] = match self {
            LogicKind::Alu32 | LogicKind::Imul32 | LogicKind::Adder => &[("W", 32)],
            LogicKind::Fadd32 | LogicKind::Fmul32 | LogicKind::Ffma32 => &[],
            LogicKind::SfuLane => &[("TBITS", 6)],
            LogicKind::FlopArray | LogicKind::LatchArray => &[("N", 16), ("W", 32)],
            LogicKind::Cam => &[("E", 16), ("W", 16)],
            LogicKind::Crossbar | LogicKind::Mux => &[("N", 4), ("W", 32)],
            LogicKind::ArbRr | LogicKind::ArbFixed | LogicKind::DepMatrix => &[("N", 16)],
            LogicKind::Scoreboard => &[("N", 16), ("R", 4)],
            LogicKind::PgController => &[("N", 4), ("D", 3)],
        };
        p.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    /// Operations per cycle of the block as synthesised (one result, lookup, grant or transfer).
    pub fn ops_per_cycle(self) -> f64 {
        1.0
    }
}

impl std::fmt::Display for LogicKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The structural linear form of a quantity (`area_m2`, `leakage_w`, `energy_per_op_j`,
/// `delay_s`) of a kind: the hardware's dominant term first.
///
/// Area, leakage and energy scale with the amount of hardware: an array of N×W cells with a
/// read mux (`N*W`, per-column `W`, per-row `N`), a crossbar's N² W crosspoints, a CAM's E·W
/// match cells, a multiplier's W² partial-product cells, an arbiter's N·⌈log₂N⌉ prefix tree.
/// Delay scales with logic depth: ⌈log₂⌉ of the fan-in or width.
pub fn default_form(kind: LogicKind, quantity: &str) -> &'static [&'static str] {
    use LogicKind::*;
    if quantity == "delay_s" {
        return match kind {
            Alu32 | Imul32 | Adder => &["clog2(W)", "1"],
            Fadd32 | Fmul32 | Ffma32 => &["1"],
            SfuLane => &["TBITS", "1"],
            FlopArray | LatchArray | Crossbar | Mux => &["clog2(N)", "clog2(W)", "1"],
            Cam => &["clog2(E)", "clog2(W)", "1"],
            ArbRr | ArbFixed | DepMatrix => &["clog2(N)", "1"],
            Scoreboard => &["clog2(N)", "clog2(R)", "1"],
            PgController => &["clog2(N)", "D", "1"],
        };
    }
    match kind {
        Alu32 | Adder => &["W*clog2(W)", "W", "1"],
        Imul32 => &["W^2", "W", "1"],
        Fadd32 | Fmul32 | Ffma32 => &["1"],
        SfuLane => &["pow2(TBITS)", "TBITS", "1"],
        FlopArray | LatchArray => &["N*W", "W", "N", "1"],
        Cam => &["E*W", "E", "W", "1"],
        Crossbar | Mux => &["N^2*W", "N*W", "1"],
        ArbRr => &["N*clog2(N)", "N", "1"],
        ArbFixed => &["N*clog2(N)", "N", "1"],
        DepMatrix => &["N^2", "N", "1"],
        Scoreboard => &["N*R", "N", "R", "1"],
        PgController => &["N*D", "N", "1"],
    }
}
