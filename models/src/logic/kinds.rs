//! The logic component kinds, their size parameters and the structural forms used both by the
//! analytical defaults and by calibration fits.

use std::collections::BTreeMap;

/// A kind of parametric logic block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogicKind {
    /// Integer ALU (add/sub, logic, shift, compare), registered, width `WIDTH`.
    Alu32,
    /// Integer multiplier (full product, registered), width `WIDTH`.
    Imul32,
    /// IEEE-754 single-precision adder.
    Fadd32,
    /// IEEE-754 single-precision multiplier.
    Fmul32,
    /// IEEE-754 single-precision fused multiply-add.
    Ffma32,
    /// Special-function lane (reciprocal / rsqrt: table of `2^TBITS` seeds + one Newton step).
    SfuLane,
    /// Register array of flip-flops: `ENTRIES` × `WIDTH` bits, `RPORTS` read and `WPORTS` write ports.
    FlopArray,
    /// Latch-based register array: `ENTRIES` × `WIDTH`, `RPORTS`/`WPORTS` ports.
    LatchArray,
    /// Content-addressable memory: `ENTRIES` × `WIDTH` key bits, parallel match.
    Cam,
    /// `N` equality comparators of `WIDTH` bits with no storage of their own (the compared
    /// operands live in other structures): the register-id match of an instruction buffer's
    /// insert logic, an operand-id check.
    EqCmp,
    /// Full crossbar: `N` inputs × `N` outputs of `WIDTH` bits, one-hot grant per output.
    Crossbar,
    /// Round-robin arbiter over `N` requesters.
    ArbRr,
    /// Fixed-priority arbiter over `N` requesters.
    ArbFixed,
    /// Dependence matrix: `N` × `N` bits with wakeup/ready logic.
    DepMatrix,
    /// Per-warp scoreboard: `NREGS` pending-write bits and `RCW`-bit pending-read counters,
    /// checked for `NSRC` source operands.
    Scoreboard,
    /// Power-gating controller of one domain: `IDLE_W`-bit idle and `BET_W`-bit blackout counters.
    PgController,
    /// Swap table of the partitioned register file: `2·N` entries of 13 bits (original id 6 b,
    /// mapped id 6 b, valid), parallel lookup of a 6-bit register id returning the mapped id.
    SwapCam,
    /// Pilot-warp access counters: `NREGS` saturating counters of `WIDTH` bits, incremented by
    /// index, with a read port for the sort.
    PilotCounters,
    /// Adaptive-FRF phase detector: a `W`-bit count of dispatched instructions (`IW` bits per
    /// cycle) over an `EPOCH`-cycle epoch counted by an `EW`-bit cycle counter, compared with a
    /// threshold at the epoch's end.
    EpochCounter,
    /// Per-entry power-state control (TRIC's, register-file §3.1–§3.4): per entry a 2-bit
    /// OFF/DROWSY/WAKING/ON state, an `HW`-bit hold count and an `LW`-bit wake counter, for `N`
    /// entries addressed by index. Its synthesis records keep the name of the RTL module it is
    /// calibrated on, `tric_ctrl`.
    PowerStateCtrl,
    /// Prefix adder of `WIDTH` bits (building block).
    Adder,
    /// `N`-to-1 multiplexer of `WIDTH` bits (building block).
    Mux,
    /// Tensor-core dot-product slice: four exact binary16 products summed with a binary32
    /// accumulator (truncated alignment, one rounding; `calibration/rtl/hdot4_f32acc.v`), four
    /// multiply-accumulates per cycle. A tensor core is a number of these
    /// ([`super::tensor_core`]).
    Hdot4F32Acc,
}

impl LogicKind {
    /// Every kind.
    pub const ALL: [LogicKind; 23] = [
        LogicKind::Alu32,
        LogicKind::Imul32,
        LogicKind::Fadd32,
        LogicKind::Fmul32,
        LogicKind::Ffma32,
        LogicKind::SfuLane,
        LogicKind::FlopArray,
        LogicKind::LatchArray,
        LogicKind::Cam,
        LogicKind::EqCmp,
        LogicKind::Crossbar,
        LogicKind::ArbRr,
        LogicKind::ArbFixed,
        LogicKind::DepMatrix,
        LogicKind::Scoreboard,
        LogicKind::PgController,
        LogicKind::SwapCam,
        LogicKind::PilotCounters,
        LogicKind::EpochCounter,
        LogicKind::PowerStateCtrl,
        LogicKind::Adder,
        LogicKind::Mux,
        LogicKind::Hdot4F32Acc,
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
            LogicKind::EqCmp => "eq_cmp",
            LogicKind::Crossbar => "crossbar",
            LogicKind::ArbRr => "arb_rr",
            LogicKind::ArbFixed => "arb_fixed",
            LogicKind::DepMatrix => "dep_matrix",
            LogicKind::Scoreboard => "scoreboard",
            LogicKind::PgController => "pg_controller",
            LogicKind::SwapCam => "swap_cam",
            LogicKind::PilotCounters => "pilot_counters",
            LogicKind::EpochCounter => "epoch_counter",
            LogicKind::PowerStateCtrl => "tric_ctrl",
            LogicKind::Adder => "adder",
            LogicKind::Mux => "mux",
            LogicKind::Hdot4F32Acc => "hdot4_f32acc",
        }
    }

    /// Parse a name (case-insensitive, `-` accepted for `_`).
    pub fn parse(s: &str) -> Option<LogicKind> {
        let n = s.trim().to_ascii_lowercase().replace('-', "_");
        LogicKind::ALL.into_iter().find(|k| k.name() == n)
    }

    /// Size parameters with their default values. The names and defaults are those of the
    /// calibration RTL registry (`calibration::rtl`), so synthesis records and overlays line up.
    pub fn default_params(self) -> BTreeMap<String, u32> {
        let p: &[(&str, u32)] = match self {
            LogicKind::Alu32 | LogicKind::Imul32 | LogicKind::Adder => &[("WIDTH", 32)],
            LogicKind::Fadd32 | LogicKind::Fmul32 | LogicKind::Ffma32 | LogicKind::Hdot4F32Acc => {
                &[]
            }
            LogicKind::SfuLane => &[("TBITS", 10)],
            LogicKind::FlopArray | LogicKind::LatchArray => {
                &[("ENTRIES", 16), ("RPORTS", 2), ("WIDTH", 32), ("WPORTS", 1)]
            }
            LogicKind::Cam => &[("ENTRIES", 16), ("WIDTH", 32)],
            LogicKind::EqCmp => &[("N", 8), ("WIDTH", 8)],
            LogicKind::Crossbar | LogicKind::Mux => &[("N", 4), ("WIDTH", 32)],
            LogicKind::ArbRr | LogicKind::ArbFixed | LogicKind::DepMatrix => &[("N", 8)],
            LogicKind::Scoreboard => &[("NREGS", 64), ("NSRC", 3), ("RCW", 2)],
            LogicKind::PgController => &[
                ("BET", 14),
                ("BET_W", 5),
                ("IDLE_W", 4),
                ("WAKE", 3),
                ("WK_W", 3),
            ],
            LogicKind::SwapCam => &[("N", 4)],
            LogicKind::PilotCounters => &[("NREGS", 63), ("WIDTH", 16)],
            LogicKind::EpochCounter => &[("EPOCH", 50), ("EW", 6), ("IW", 4), ("W", 9)],
            LogicKind::PowerStateCtrl => &[("HW", 2), ("LW", 2), ("N", 16)],
        };
        p.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    /// Operations per cycle of the block (as the RTL registry defines them): one word access per
    /// port for storage arrays, one word moved per output for the crossbar, one otherwise.
    pub fn ops_per_cycle(self, p: &BTreeMap<String, u32>) -> f64 {
        let g = |n: &str| p.get(n).copied().unwrap_or(1) as f64;
        match self {
            LogicKind::FlopArray | LogicKind::LatchArray => g("RPORTS") + g("WPORTS"),
            LogicKind::Crossbar => g("N"),
            // one multiply-accumulate per product of the four-element dot product
            LogicKind::Hdot4F32Acc => 4.0,
            _ => 1.0,
        }
    }
}

/// Smallest sizes the structural forms describe: below them logic optimisation collapses the
/// block (a 2-input arbiter is a couple of gates) and the forms do not apply. Calibration fits
/// only records within this range.
pub fn fit_min_params(kind: LogicKind) -> &'static [(&'static str, u32)] {
    match kind {
        LogicKind::ArbRr | LogicKind::ArbFixed => &[("N", 4)],
        _ => &[],
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
/// Area, leakage and energy scale with the amount of hardware: an array's ENTRIES×WIDTH cells
/// and its read muxes per port, a crossbar's N²·WIDTH crosspoints, a CAM's ENTRIES·WIDTH match
/// cells, a multiplier's WIDTH² partial-product cells, an arbiter's N·⌈log₂N⌉ prefix tree, a
/// dependence matrix's N² cells, a scoreboard's NREGS pending bits read by NSRC operand muxes.
/// Delay scales with logic depth: ⌈log₂⌉ of the fan-in or width. The constant term `1` is fitted
/// with either sign (a fixed offset of the asymptotic law); every other coefficient is
/// non-negative. A kind all of whose cells replicate with a size parameter (the crossbar, per
/// bit of WIDTH) has no constant term.
pub fn default_form(kind: LogicKind, quantity: &str) -> &'static [&'static str] {
    use LogicKind::*;
    if quantity == "delay_s" {
        return match kind {
            Alu32 | Imul32 | Adder => &["clog2(WIDTH)", "1"],
            Fadd32 | Fmul32 | Ffma32 | Hdot4F32Acc => &["1"],
            SfuLane => &["TBITS", "1"],
            FlopArray | LatchArray => &["clog2(ENTRIES)", "1"],
            Crossbar | Mux => &["clog2(N)", "1"],
            Cam => &["clog2(ENTRIES)", "clog2(WIDTH)", "1"],
            EqCmp => &["clog2(WIDTH)", "1"],
            ArbRr | ArbFixed | DepMatrix => &["clog2(N)", "1"],
            Scoreboard => &["clog2(NREGS)", "NSRC", "1"],
            PgController => &["IDLE_W", "BET_W", "WK_W", "1"],
            SwapCam => &["clog2(N)", "1"],
            PilotCounters => &["clog2(NREGS)", "WIDTH", "1"],
            EpochCounter => &["W", "IW", "1"],
            PowerStateCtrl => &["clog2(N)", "HW", "LW", "1"],
        };
    }
    let energy = quantity == "energy_per_op_j";
    match kind {
        Alu32 | Adder => &["WIDTH*clog2(WIDTH)", "WIDTH", "1"],
        // Multiplier: WIDTH² partial-product and carry-save cells, each switching a bounded
        // number of times per multiply (calibrated with zero-delay simulated activity, which
        // counts functional transitions, not glitches), plus the WIDTH-bit final adder.
        Imul32 => &["WIDTH^2", "WIDTH", "1"],
        Fadd32 | Fmul32 | Ffma32 | Hdot4F32Acc => &["1"],
        SfuLane if energy => &["pow2(TBITS)", "TBITS", "1"],
        SfuLane => &["pow2(TBITS)*TBITS", "TBITS", "1"],
        // Storage: cells and write logic (ENTRIES·WIDTH, per write port), read muxes per read
        // port; per operation the clocking of all cells is shared by the RPORTS+WPORTS accesses.
        // Per cycle: clocking all cells (E·W), write data fanned out to every entry per write
        // port (E·W·WPORTS), read muxes per read port (E·W·RPORTS); per access ÷ (R+W).
        FlopArray | LatchArray if energy => &[
            "ENTRIES*WIDTH/(RPORTS+WPORTS)",
            "ENTRIES*WIDTH*WPORTS/(RPORTS+WPORTS)",
            "ENTRIES*WIDTH*RPORTS/(RPORTS+WPORTS)",
            "WIDTH",
            "1",
        ],
        FlopArray | LatchArray => &[
            "ENTRIES*WIDTH*RPORTS",
            "ENTRIES*WIDTH*WPORTS",
            "ENTRIES*WIDTH",
            "WIDTH*RPORTS",
            "1",
        ],
        Cam => &["ENTRIES*WIDTH", "ENTRIES", "WIDTH", "1"],
        // Comparators: an XOR per bit and a WIDTH-input AND per comparator, all replicated N
        // times; the constant covers the shared enable.
        EqCmp => &["N*WIDTH", "N", "1"],
        // Crossbar with decoded (one-hot) grants: every cell belongs to one output bit, N
        // crosspoints (in AND grant) ORed through a ⌈log₂N⌉-deep reduction, so area and leakage
        // are N²·W crosspoints plus N·W reduction trees, and nothing is independent of WIDTH
        // (no constant term). Per word moved (N per cycle): the N input pins of the output
        // bit's crosspoints, the ⌈log₂N⌉-deep path to the output and the output itself, each ×W.
        Crossbar if energy => &["N*WIDTH", "clog2(N)*WIDTH", "WIDTH"],
        Crossbar => &["N^2*WIDTH", "N*clog2(N)*WIDTH", "N*WIDTH"],
        // Mux building block (select decoded inside): crosspoints as the crossbar, plus its
        // decoder, which does not scale with WIDTH.
        Mux if energy => &["N*WIDTH", "clog2(N)*WIDTH", "WIDTH", "1"],
        Mux => &["N^2*WIDTH", "N*clog2(N)*WIDTH", "N*WIDTH", "1"],
        // Arbiter energy per arbitration (simulated per-net activity, random requests at 1/2):
        // the N request lines switch, but in the N·⌈log₂N⌉ prefix tree only the nodes on the
        // path to the grant position do (the prefix OR of dense random requests saturates a few
        // positions in), i.e. ⌈log₂N⌉ of them; the grant/pointer update is a fixed cost.
        ArbRr | ArbFixed if energy => &["N", "clog2(N)", "1"],
        ArbRr | ArbFixed => &["N*clog2(N)", "N", "1"],
        DepMatrix => &["N^2", "N", "1"],
        // Scoreboard: per register a pending-write bit and an RCW-bit pending-read counter
        // (NREGS·RCW), read by NSRC operand muxes (NREGS·NSRC), each source's issue incrementing
        // the counter of the register it names (an NSRC-input RCW-bit increment per register,
        // NREGS·NSRC·RCW); the destination check and release are per register (NREGS).
        Scoreboard => &["NREGS*NSRC", "NREGS*RCW", "NREGS*NSRC*RCW", "NREGS", "1"],
        PgController => &["IDLE_W", "BET_W", "WK_W", "1"],
        // Swap table: 2N entries of 13 stored bits with a 6-bit compare each and a 6-bit
        // AND-OR read of the mapped id; everything replicates per entry.
        SwapCam => &["N", "1"],
        // Pilot counters: NREGS×WIDTH state bits with their write-enable and read muxes, one
        // shared WIDTH-bit saturating incrementer, an NREGS-way index decode.
        PilotCounters => &["NREGS*WIDTH", "NREGS", "WIDTH", "1"],
        // Epoch detector: two counters (W and EW bits), the IW-bit dispatch-count adder input
        // and a W-bit threshold compare.
        EpochCounter => &["W", "EW", "IW", "1"],
        // TRIC control: every entry replicates its state, hold-count and wake-counter bits with
        // their next-state logic (N·HW, N·LW, N), and three ⌈log₂N⌉-bit index compares (wake,
        // release, allocation) per entry.
        PowerStateCtrl => &["N*HW", "N*LW", "N*clog2(N)", "N", "1"],
    }
}
