//! Analytical (uncalibrated) gate-equivalent model of each logic kind.
//!
//! A block is counted as `ge` two-input NAND gate equivalents of combinational logic plus
//! `ff` state bits (flip-flops or latches) and a logic depth `depth_fo4` in FO4 delays. The
//! counts are textbook structure estimates (Weste & Harris, *CMOS VLSI Design*, 4th ed.: ch. 11
//! datapath adders, multipliers and shifters, ch. 12 arrays; a full adder ≈ 7 GE, a 2:1 mux ≈
//! 2.5 GE, an XOR ≈ 2.5 GE, a flip-flop ≈ 4 GE of area), not fitted to anything.
//!
//! Costs from the technology point (all per `techlib` device numbers):
//! - minimum device width `w_min` = one fin (`Device::fin_width_m`) at FinFET nodes, 4 F planar;
//! - area per GE: a NAND2 footprint, 400 F² planar (e.g. a 45 nm NAND2X1 is 0.8 µm² ≈ 394 F²)
//!   and 1800 F² at FinFET nodes, whose nominal "F" is far below the real pitches (the ASAP7
//!   NAND2x1 is 0.08748 µm² = 1785 F² for F = 7 nm; the smallest, NAND2xp33, 0.05832 µm²);
//!   a state bit is 4 GE of area;
//! - switched capacitance per GE toggle: `C_ge = 3·(1 + n2p)·w_min·C_g` (two inputs plus the
//!   output node of a NAND2 with N and P devices); energy of a GE toggle `C_ge·Vdd²`;
//! - clock energy per state bit and cycle: `C_ck·Vdd²` with `C_ck = 4·w_min·C_g` (two clocked
//!   device pairs, charged and discharged once per cycle);
//! - leakage per GE: `2·w_min·I_off·Vdd` (on average two of the four devices are off; stacking
//!   is ignored), a state bit leaks as 4 GE. Checked against the ASAP7 liberty (TT, 0.70 V,
//!   25 °C): the model's 34.1 pW per GE at RVT (2 × the 1-fin `INVxp33`'s 17.06 pW, which the
//!   `asap7` thresholds are fitted to) against the `NAND2xp33`'s state-averaged 30.4 pW (+12 %);
//!   LVT 335 pW against 284 pW (+18 %). The same formula at `finfet7` gives what its device law
//!   gives: 33.5 nW per GE for LVT at 0.45 V, 298 K (`techlib::compare7` explains the ≈ 100×
//!   difference per gate);
//! - energy per operation: `(α·ge·C_ge + ff·C_ck)·Vdd² / ops_per_cycle` with activity α the
//!   average toggles per GE per cycle (0.5 for arithmetic with glitching, 0.15 for control),
//!   and operations per cycle as [`LogicKind::ops_per_cycle`].

use super::kinds::LogicKind;
use std::collections::BTreeMap;

/// Structural counts of one block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GateCounts {
    /// Combinational NAND2 equivalents.
    pub ge: f64,
    /// State bits (flip-flops or latches).
    pub ff: f64,
    /// Average GE toggles per operation divided by `ge`.
    pub activity: f64,
    /// Critical path in FO4 delays.
    pub depth_fo4: f64,
}

fn clog2(x: f64) -> f64 {
    x.max(2.0).log2().ceil()
}

/// Gate counts of `kind` with parameters `p` (missing parameters take their defaults).
pub fn counts(kind: LogicKind, p: &BTreeMap<String, u32>) -> GateCounts {
    let d = kind.default_params();
    let g = |n: &str| p.get(n).or_else(|| d.get(n)).copied().unwrap_or(1) as f64;
    use LogicKind::*;
    let (ge, ff, activity, depth) = match kind {
        Alu32 => {
            let w = g("WIDTH");
            // Prefix adder (1.5·W·log2W), logic unit (4W), barrel shifter (2.5·W·log2W), result mux (3W).
            (
                4.0 * w * clog2(w) + 7.0 * w,
                3.0 * w,
                0.5,
                2.0 * clog2(w) + 6.0,
            )
        }
        Adder => {
            let w = g("WIDTH");
            (1.5 * w * clog2(w) + 2.0 * w, 0.0, 0.5, 2.0 * clog2(w) + 2.0)
        }
        Imul32 => {
            let w = g("WIDTH");
            // W² AND + carry-save full adders (7 GE) and a final 2W adder.
            (
                8.0 * w * w + 3.0 * w * clog2(2.0 * w),
                4.0 * w,
                0.5,
                4.0 * clog2(w) + 2.0 * clog2(2.0 * w) + 4.0,
            )
        }
        Fadd32 => (1800.0, 96.0, 0.5, 40.0),
        Fmul32 => (5200.0, 96.0, 0.5, 45.0),
        Ffma32 => (7500.0, 128.0, 0.5, 60.0),
        Hdot4F32Acc => {
            let c = super::tensor_core::slice_counts(&super::tensor_core::DotSlice::HDOT4_F32ACC);
            (c.ge, c.ff, c.activity, c.depth_fo4)
        }
        SfuLane => {
            let t = g("TBITS");
            // Seed table as logic (2^(T+1) entries of T+4 bits, ≈ ½ GE per bit) + Newton datapath
            // (two ≈ 30×30 multipliers).
            (
                0.5 * (t + 1.0).exp2() * (t + 4.0) + 2.0 * 8.0 * 900.0,
                64.0,
                0.4,
                2.0 * t + 40.0,
            )
        }
        FlopArray | LatchArray => {
            let (n, w, r, wp) = (g("ENTRIES"), g("WIDTH"), g("RPORTS"), g("WPORTS"));
            // Write-enable mux per bit and write port (2.5), read mux tree per read port
            // (2.5 per bit), address decoders (2 per row and port).
            let store = if kind == LatchArray { 0.6 } else { 1.0 };
            (
                2.5 * n * w * (wp + r) + 2.0 * n * (r + wp) * clog2(n),
                store * n * w,
                0.15,
                2.0 * clog2(n) + 4.0,
            )
        }
        Cam => {
            let (e, w) = (g("ENTRIES"), g("WIDTH"));
            // XOR compare per bit (2.5), match AND tree (1 per bit), write decode.
            (
                3.5 * e * w + 3.0 * e * clog2(e),
                e * w,
                0.3,
                clog2(w) + 2.0 * clog2(e) + 4.0,
            )
        }
        EqCmp => {
            let (n, w) = (g("N"), g("WIDTH"));
            // Per comparator: an XOR per bit (2.5 GE) and a WIDTH-input AND tree (≈ 1 GE per
            // bit); no state.
            (3.5 * n * w, 0.0, 0.3, clog2(w) + 3.0)
        }
        Crossbar | Mux => {
            let (n, w) = (g("N"), g("WIDTH"));
            let outs = if kind == Crossbar { n } else { 1.0 };
            // (N−1) mux2 per output bit plus select decode.
            (
                2.5 * outs * (n - 1.0).max(1.0) * w + 4.0 * outs * n,
                0.0,
                0.3,
                2.0 * clog2(n) + 2.0,
            )
        }
        ArbRr => {
            let n = g("N");
            (6.0 * n * clog2(n) + 4.0 * n, n, 0.15, 3.0 * clog2(n) + 4.0)
        }
        ArbFixed => {
            let n = g("N");
            (
                2.0 * n * clog2(n) + 2.0 * n,
                0.0,
                0.15,
                2.0 * clog2(n) + 2.0,
            )
        }
        DepMatrix => {
            let n = g("N");
            // N² state bits, AND per bit, N-input OR per row.
            (2.0 * n * n + 2.0 * n, n * n, 0.15, 2.0 * clog2(n) + 4.0)
        }
        Scoreboard => {
            let (r, s) = (g("NREGS"), g("NSRC"));
            // NREGS pending bits, a read mux per source (2.5 GE per bit), set/clear decoders.
            (2.5 * r * (s + 1.0) + 4.0 * r, r, 0.15, clog2(r) + s + 4.0)
        }
        PgController => {
            let (i, b) = (g("IDLE_W"), g("BET_W"));
            let k = g("WK_W");
            // Saturating counters (≈ 8 GE per bit) and compares, state machine.
            (
                8.0 * (i + b + k) + 4.0 * i + 40.0,
                i + b + k + 2.0,
                0.15,
                i + b + 4.0,
            )
        }
        SwapCam => {
            let e = 2.0 * g("N");
            // Per entry: 13 state bits with write muxes (2.5 GE per bit), a 6-bit XOR compare
            // (2.5 GE per bit) and match AND (1 GE per bit), a 6-bit AND-OR of the mapped id
            // (2.5 GE per bit); write-address decode.
            (
                e * (13.0 * 2.5 + 6.0 * 3.5 + 6.0 * 2.5) + 2.0 * e * clog2(e),
                13.0 * e,
                0.3,
                clog2(6.0) + 2.0 * clog2(e) + 4.0,
            )
        }
        PilotCounters => {
            let (n, w) = (g("NREGS"), g("WIDTH"));
            // Read mux for the increment and the sort port (2 × 2.5 GE per bit), write enable
            // mux (2.5 GE per bit), one shared saturating incrementer (≈ 4 GE per bit) and the
            // NREGS-way index decoders.
            (
                7.5 * n * w + 4.0 * w + 4.0 * n * clog2(n),
                n * w,
                0.15,
                2.0 * clog2(n) + w + 2.0,
            )
        }
        EpochCounter => {
            let (w, ew) = (g("W"), g("EW"));
            // Two counters (≈ 8 GE per bit: adder cell and reset mux), W-bit compare (3 GE per
            // bit), the epoch-end detect and the mode flop.
            (
                8.0 * (w + ew) + 3.0 * w + 3.0 * ew,
                w + ew + 1.0,
                0.15,
                w + 4.0,
            )
        }
        PowerStateCtrl => {
            let (n, hw, lw) = (g("N"), g("HW"), g("LW"));
            // Per entry: the hold counter's ±1 update and saturation (≈ 8 GE per bit), the wake
            // counter's decrement and load mux (≈ 6 GE per bit), the 2-bit state's next-state
            // logic (≈ 12 GE) and three ⌈log₂N⌉-bit index compares (≈ 1.5 GE per bit each).
            (
                n * (8.0 * hw + 6.0 * lw + 12.0 + 4.5 * clog2(n)),
                n * (2.0 + hw + lw),
                0.1,
                clog2(n) + hw + lw + 4.0,
            )
        }
    };
    GateCounts {
        ge,
        ff,
        activity,
        depth_fo4: depth,
    }
}
