//! Per-structure energy, leakage (array and periphery), area and access time of a register file
//! and of the structures the register-file techniques add (register-file spec §4–§7, §9).
//!
//! # Arrays
//! Every array is the chip model's register file (`crate::gpu::chip`, `rf_routing`): `B`
//! independent banks, each split into `lanes` slices (one per SIMT lane, next to its
//! datapath) of `entry_bytes / lanes` bytes per row, each slice one SRAM array with the bank's
//! `ports_per_bank` read-write ports ([`crate::gpu::storage::rf_bank_slices`], 8T cells at
//! FinFET nodes, 6T at planar nodes), evaluated exactly as the chip evaluates it
//! ([`crate::gpu::source::sram_spec`], [`crate::sram::evaluate`]) on the node's technology at
//! the structure's supply ([`crate::sram::sram_tech`], designed at the node's nominal supply
//! with back gates tied: one physical design per array). One access touches the `lanes` slices
//! of one bank; area and leakage count every slice of every bank. The RFC's banks have its own
//! read and write ports.
//!
//! **Bus.** The read and write energies include the bank-to-collector bus of the chip model
//! ([`crate::gpu::chip::rf_bus_transfer_j`]: each lane's bank slices stack in a column, the
//! mean transfer runs `pitch·(B + 1)/2` of semi-global wire). The pitch is the slice height of
//! the structure; in the partitioned RF every bank is an FRF part stacked on an SRF part
//! (§5.2), so the FRF's and the SRF's buses run over a pitch of both parts' heights, each at
//! its own supply. So n = 0 gives the MRF at the SRF supply and n = 63 (FRF = every entry)
//! the MRF at STV exactly, and the MRF's read energy is the chip's register-file read plus its
//! bus energy per operand.
//!
//! **Real row counts.** When the bank count B does not divide the entry count E, `E mod B` banks
//! hold `⌈E/B⌉` rows and the rest `⌊E/B⌋` (the FRF and SRF parts likewise, as the simulator's
//! register-file partition map splits them). A slice of each row count is evaluated; area
//! and leakage are the bank-count-weighted sum, the access energy the entry-weighted mean
//! (accesses spread over entries), the access time and the bus pitch those of the larger banks.
//!
//! **Array vs periphery leakage.** `P_array` is the model's cell leakage (the `cells` class of
//! the breakdown); `P_periph` is everything else (decoders, wordline drivers, sense amplifiers,
//! precharge, H-trees, bank-edge latches, level shifters).
//!
//! **FRF back-gate modes** (§5.1, §6). FRF_high is the array at the FRF supply with back gates
//! tied. FRF_low is the *same* physical design (organisation chosen at the tied design point)
//! re-evaluated with the cell devices of the back-gate-grounded FinFET (techlib: about half the
//! gate capacitance, the raised threshold, the reduced drive and the lower off-current of the
//! front channel alone); the periphery devices and every wire keep their tied-mode values,
//! because only the cells' back gates follow the mode signal. Its energy is whatever the circuit
//! model gives from those devices — no saving is assumed. FRF_low leakage is that array's
//! (`afrf.low_leakage = "model"`) or FRF_high's (`"same_as_high"`). Planar nodes have no back
//! gate: asking for the adaptive FRF there is an error naming `afrf.enabled`.
//!
//! **Back-gate line and mode buffers** (§6). The mode line of every FRF row loads the back
//! gates of the cells' NMOS devices (pull-downs, access and read-stack devices; the pull-ups'
//! back gates are tied to Vdd). Its capacitance per cell is the difference between the tied and
//! the grounded gate capacitance of those devices (the back-gate share of the double-gate
//! capacitance, from techlib), plus one local wire across the cell. A mode switch charges or
//! discharges all of it: `E_bg = C_bg,total × Vdd²` (§6). One buffer per FRF row (per lane
//! slice) drives its line: a fan-out-of-4 chain whose gate equivalents sum to `C_row/(3·C_in)`;
//! the line is one extra local-wire track over the row.
//!
//! # Control structures
//! The COMA mask table (flop array, CU entries × 32 bits, one write port and `mask_read_ports`
//! read ports), the swap-table CAM (`swap_cam`, `table_copies` copies), the pilot counters
//! (`pilot_counters`, 63 × 16 bits), the adaptive-FRF epoch detector (`epoch_counter`) and the
//! RFC tag CAM (`cam`) come from [`crate::logic::model`]: calibrated to synthesis when an
//! overlay is given, analytical otherwise. The counter sort (§5.5, once per kernel) is costed as
//! a bitonic compare-exchange network over the counters padded to a power of two,
//! `P/2 · k(k+1)/2` compare-exchanges (`k = log₂P`), each a `WIDTH`-bit comparator (adder) and
//! two 2:1 muxes of count + id bits.

use super::{default_flavour, sram_flavour, RfError};
use crate::gpu::chip::rf_bus_transfer_j;
use crate::gpu::source::{sram_spec, storage_cell};
use crate::gpu::storage::{rf_bank_slices, StorageSpec};
use crate::logic::{self, LogicKind};
use crate::overlay::Overlay;
use crate::sram::{self, sram_tech, BackGate, SramTech, TechRequest};
use serde::Serialize;
use techlib::{Conditions, Flavour, NodeKind};

/// FRF_low leakage rule (`afrf.low_leakage`, §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub enum LowLeakage {
    /// The array's leakage with the cells' back gates grounded (default).
    #[default]
    Model,
    /// FRF_high's leakage (conservative).
    SameAsHigh,
}

impl LowLeakage {
    /// Parses `model` or `same_as_high`.
    pub fn parse(s: &str) -> Result<LowLeakage, RfError> {
        match s.trim() {
            "model" => Ok(LowLeakage::Model),
            "same_as_high" => Ok(LowLeakage::SameAsHigh),
            _ => Err(RfError::input(
                "afrf.low_leakage",
                s,
                "\"model\" or \"same_as_high\"",
            )),
        }
    }
    /// Name as written in configuration.
    pub fn name(self) -> &'static str {
        match self {
            LowLeakage::Model => "model",
            LowLeakage::SameAsHigh => "same_as_high",
        }
    }
}

/// Which devices of the FRF follow the back-gate mode signal in FRF_low (§6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub enum BackGateScope {
    /// The cells' devices only (default: the mode line is buffered to the cells of every row;
    /// decoders, sense amplifiers and drivers keep tied back gates).
    #[default]
    Cells,
    /// Every device of the array, periphery included (the whole array evaluated on the
    /// back-gate-grounded technology).
    WholeArray,
}

/// The register-file cache of §7.4.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RfcDesign {
    /// Entries (`rfc.entries_per_warp` × active warps).
    pub entries: u32,
    /// Read ports (`rfc.read_ports`).
    pub read_ports: u32,
    /// Write ports (`rfc.write_ports`).
    pub write_ports: u32,
    /// Banks (`rfc.banks`).
    pub banks: u32,
}

/// The GPU-configuration-level description of a register file and its techniques.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RfDesign {
    /// Technology node (`finfet7`, `40nm`, ...).
    pub node: String,
    /// Device flavour (default: LVT at FinFET nodes, HP at planar nodes).
    pub flavour: Option<Flavour>,
    /// Temperature, K.
    pub temperature_k: f64,
    /// Register-file entries per SM (MRF).
    pub entries: u32,
    /// Bytes per entry (128: 32 lanes × 32 bits).
    pub entry_bytes: u32,
    /// SIMT lanes an entry is sliced over.
    pub lanes: u32,
    /// Banks.
    pub banks: u32,
    /// Read-write ports of each bank of the MRF, FRF and SRF (`rf.ports_per_bank`).
    pub ports_per_bank: u32,
    /// Fast registers per warp (`prf.n_fast`); used when `partitioned`.
    pub n_fast: u32,
    /// Maximum resident warps per SM.
    pub max_warps: u32,
    /// Whether the FRF/SRF partition (and its profiling structures) is modelled.
    pub partitioned: bool,
    /// Whether the FRF has the back-gate low mode (`afrf.enabled`).
    pub adaptive_frf: bool,
    /// FRF_low leakage rule.
    pub low_leakage: LowLeakage,
    /// Devices that follow the back-gate mode in FRF_low.
    pub back_gate_scope: BackGateScope,
    /// Super-threshold supply (MRF@STV, FRF), V; default: the node's `stv` point, else nominal.
    pub vdd_stv_v: Option<f64>,
    /// Near-threshold supply (MRF@NTV, SRF; `prf.v_srf`), V; default: the node's `ntv` point.
    pub vdd_ntv_v: Option<f64>,
    /// Write energy equals read energy (`energy.write_equals_read`, default true).
    pub write_equals_read: bool,
    /// The register-file cache, when modelled.
    pub rfc: Option<RfcDesign>,
    /// Operand collector units per SM (mask-table entries).
    pub cu_count: u32,
    /// Read ports of the mask table (one per bank by default: each bank read names its CU).
    pub mask_read_ports: u32,
    /// Swap-table copies (`prf.table_copies`, one per scheduler).
    pub table_copies: u32,
    /// Architectural registers per thread that the pilot counters cover (63).
    pub counter_regs: u32,
    /// Bits per pilot counter (16).
    pub counter_bits: u32,
    /// Adaptive-FRF epoch, cycles (`afrf.epoch`).
    pub epoch_cycles: u32,
    /// Warp instructions dispatched per cycle at most (the epoch count's increment).
    pub issue_width: u32,
    /// Core clock, Hz.
    pub clock_hz: f64,
}

impl RfDesign {
    /// The `kepler_ch6` partitioned RF (§2.5, §5): finfet7, 256 KB, 2048 entries, 24 banks,
    /// n = 4, 64 warps, STV 0.45 V, NTV 0.30 V, 24 CUs, 4 schedulers × 2 issue, 863 MHz.
    pub fn kepler_ch6() -> RfDesign {
        RfDesign {
            node: "finfet7".into(),
            flavour: None,
            temperature_k: 300.0,
            entries: 2048,
            entry_bytes: 128,
            lanes: 32,
            banks: 24,
            ports_per_bank: 1,
            n_fast: 4,
            max_warps: 64,
            partitioned: true,
            adaptive_frf: true,
            low_leakage: LowLeakage::Model,
            back_gate_scope: BackGateScope::Cells,
            vdd_stv_v: Some(0.45),
            vdd_ntv_v: Some(0.30),
            write_equals_read: true,
            rfc: None,
            cu_count: 24,
            mask_read_ports: 24,
            table_copies: 4,
            counter_regs: 63,
            counter_bits: 16,
            epoch_cycles: 50,
            issue_width: 8,
            clock_hz: 863e6,
        }
    }

    /// The `fermi_ch5` RF (§2.5): 128 KB, 1024 entries, 16 banks, 48 warps, 16 CUs, 700 MHz,
    /// 6T at a planar `node`, nominal supply, no partition.
    pub fn fermi_ch5(node: &str) -> RfDesign {
        RfDesign {
            node: node.into(),
            entries: 1024,
            banks: 16,
            max_warps: 48,
            partitioned: false,
            adaptive_frf: false,
            vdd_stv_v: None,
            vdd_ntv_v: None,
            cu_count: 16,
            mask_read_ports: 16,
            issue_width: 2,
            clock_hz: 700e6,
            ..RfDesign::kepler_ch6()
        }
    }

    /// The register file of the simulator configuration `cfg` on `node` with `flavour` devices
    /// at `vdd_v` (the MRF's and FRF's supply), `temperature_k` and core clock `clock_hz`:
    /// `sm.n_registers × 4 / rf.entry_bytes` entries, the lane slices, banks and ports of the
    /// chip model's register file, `sm.max_warps`, the collector units of `opcoll.units`
    /// (one mask-table entry each, one mask-table read port per bank), `prf.*` (n, SRF supply
    /// `prf.v_srf`, swap-table copies), `afrf.*` (epoch, FRF_low leakage rule), the RFC of
    /// `rfc.*` (`entries_per_warp × max_warps` entries) and `energy.write_equals_read`.
    pub fn from_config(
        cfg: &sim::config::GpuConfig,
        node: &str,
        flavour: Flavour,
        vdd_v: f64,
        temperature_k: f64,
        clock_hz: f64,
    ) -> RfDesign {
        let rf_bytes = cfg.sm.n_registers as u64 * 4;
        let entry = cfg.rf.entry_bytes.max(1) as u64;
        let oc = &cfg.opcoll.units;
        let n_cu = (oc.sp + oc.sfu + oc.mem + oc.dp + oc.int + oc.gen).max(1);
        let partitioned = cfg.prf.enabled;
        RfDesign {
            node: node.into(),
            flavour: Some(flavour),
            temperature_k,
            entries: rf_bytes.div_ceil(entry) as u32,
            entry_bytes: entry as u32,
            lanes: crate::gpu::storage::rf_lanes(entry, rf_bytes) as u32,
            banks: cfg.rf.n_banks.max(1),
            ports_per_bank: cfg.rf.ports_per_bank.max(1),
            n_fast: cfg.prf.n_fast,
            max_warps: cfg.sm.max_warps,
            partitioned,
            adaptive_frf: cfg.afrf.enabled,
            low_leakage: match cfg.afrf.low_leakage {
                sim::config::prf::LowLeakage::Model => LowLeakage::Model,
                sim::config::prf::LowLeakage::SameAsHigh => LowLeakage::SameAsHigh,
            },
            back_gate_scope: BackGateScope::Cells,
            vdd_stv_v: Some(vdd_v),
            vdd_ntv_v: partitioned.then_some(cfg.prf.v_srf),
            write_equals_read: cfg.energy.write_equals_read,
            rfc: cfg.rfc.enabled.then(|| RfcDesign {
                entries: cfg.rfc.entries_per_warp * cfg.sm.max_warps,
                read_ports: cfg.rfc.read_ports,
                write_ports: cfg.rfc.write_ports,
                banks: cfg.rfc.banks,
            }),
            cu_count: n_cu,
            mask_read_ports: cfg.rf.n_banks.max(1),
            table_copies: cfg.prf.table_copies,
            counter_regs: 63,
            counter_bits: 16,
            epoch_cycles: cfg.afrf.epoch,
            issue_width: cfg.sched.n_per_sm.max(1) * cfg.sched.issue_per_sched.max(1),
            clock_hz,
        }
    }

    /// FRF entries: `min(n × max_warps, entries)` (0 without the partition).
    pub fn frf_entries(&self) -> u32 {
        if self.partitioned {
            (self.n_fast as u64 * self.max_warps as u64).min(self.entries as u64) as u32
        } else {
            0
        }
    }
    /// SRF entries: the rest of the MRF.
    pub fn srf_entries(&self) -> u32 {
        self.entries - self.frf_entries()
    }
}

/// Energy, leakage, area and timing of one register-file array.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArrayCost {
    /// Structure name (`MRF@STV`, `FRF_high`, ...).
    pub name: String,
    /// Entries.
    pub entries: u32,
    /// Supply, V.
    pub vdd_v: f64,
    /// Energy of one entry read (all lanes), J.
    pub read_energy_j: f64,
    /// Energy of one entry write (all lanes), J.
    pub write_energy_j: f64,
    /// Cell (array) leakage, W.
    pub array_leakage_w: f64,
    /// Periphery leakage, W.
    pub periph_leakage_w: f64,
    /// Area, m².
    pub area_m2: f64,
    /// Access time, s.
    pub access_time_s: f64,
    /// `⌈t_access/t_clk⌉` (at least 1).
    pub access_cycles: u32,
    /// `(rows, banks)` of the larger and the smaller banks.
    pub bank_rows: [(u32, u32); 2],
    /// Decoder share of the read energy (for the COMA fixed fraction), J.
    pub decoder_read_energy_j: f64,
    /// Height of one lane slice of the larger banks, m (the pitch of the bank column).
    pub slice_height_m: f64,
    /// Bank-to-collector bus energy per transfer included in the read and write energies, J.
    pub bus_energy_j: f64,
}

impl ArrayCost {
    /// Total leakage `P_array + P_periph`, W.
    pub fn leakage_w(&self) -> f64 {
        self.array_leakage_w + self.periph_leakage_w
    }

    fn empty(name: &str, vdd_v: f64) -> ArrayCost {
        ArrayCost {
            name: name.into(),
            entries: 0,
            vdd_v,
            read_energy_j: 0.0,
            write_energy_j: 0.0,
            array_leakage_w: 0.0,
            periph_leakage_w: 0.0,
            area_m2: 0.0,
            access_time_s: 0.0,
            access_cycles: 0,
            bank_rows: [(0, 0), (0, 0)],
            decoder_read_energy_j: 0.0,
            slice_height_m: 0.0,
            bus_energy_j: 0.0,
        }
    }
}

/// Energy per operation, leakage, area and delay of one control structure (all copies).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogicStructure {
    /// Structure name.
    pub name: String,
    /// Energy of one operation of one copy (lookup, increment, access, cycle), J.
    pub energy_per_op_j: f64,
    /// Leakage of all copies, W.
    pub leakage_w: f64,
    /// Area of all copies, m².
    pub area_m2: f64,
    /// Critical path, s.
    pub delay_s: f64,
    /// Whether the energy came from a calibration overlay.
    pub calibrated: bool,
}

/// The FRF back-gate mode line and its buffers (§6).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BackGateCost {
    /// Capacitance of the back-gate lines of all FRF rows, F.
    pub line_capacitance_f: f64,
    /// Energy of one mode switch `C × Vdd²`, J.
    pub switch_energy_j: f64,
    /// Area of the extra wiring track, m².
    pub wiring_area_m2: f64,
    /// Area of the row buffers, m².
    pub buffer_area_m2: f64,
    /// Leakage of the row buffers, W.
    pub buffer_leakage_w: f64,
}

/// The RFC (§7.4): the array and its tag CAM.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RfcCost {
    /// The data array.
    pub array: ArrayCost,
    /// The tag CAM (one lookup per operand read).
    pub tag_cam: LogicStructure,
}

/// Every structure of one [`RfDesign`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RfStructures {
    /// Node, as techlib names it.
    pub node: String,
    /// Clock, Hz.
    pub clock_hz: f64,
    /// The monolithic RF at the super-threshold supply.
    pub mrf_stv: ArrayCost,
    /// The monolithic RF at the near-threshold supply (when one is known).
    pub mrf_ntv: Option<ArrayCost>,
    /// The fast RF, back gates tied (partitioned only; entries 0 when n = 0).
    pub frf_high: Option<ArrayCost>,
    /// The fast RF, cell back gates grounded (adaptive FRF only).
    pub frf_low: Option<ArrayCost>,
    /// FRF_low leakage rule used.
    pub low_leakage: LowLeakage,
    /// The slow RF (partitioned only; entries 0 when the FRF holds everything).
    pub srf: Option<ArrayCost>,
    /// The RFC.
    pub rfc: Option<RfcCost>,
    /// The COMA mask table.
    pub mask_table: LogicStructure,
    /// The swap-table CAMs (all copies), partitioned only.
    pub swap_cam: Option<LogicStructure>,
    /// The pilot counters, partitioned only.
    pub pilot_counters: Option<LogicStructure>,
    /// The epoch detector, adaptive FRF only.
    pub epoch_counter: Option<LogicStructure>,
    /// Energy of one sort of the pilot counters, J (partitioned only).
    pub sort_energy_j: f64,
    /// The back-gate mode line, adaptive FRF only.
    pub back_gate: Option<BackGateCost>,
}

fn check(design: &RfDesign) -> Result<(), RfError> {
    let pos = |knob: &str, v: u32| {
        if v == 0 {
            Err(RfError::input(knob, v, "at least 1"))
        } else {
            Ok(())
        }
    };
    pos("rf.entries", design.entries)?;
    pos("rf.entry_bytes", design.entry_bytes)?;
    pos("rf.lanes", design.lanes)?;
    pos("rf.banks", design.banks)?;
    pos("gpu.max_warps", design.max_warps)?;
    pos("rf.collector_units", design.cu_count)?;
    pos("coma.mask_read_ports", design.mask_read_ports)?;
    if design.partitioned {
        pos("prf.table_copies", design.table_copies)?;
        pos("prf.counter_regs", design.counter_regs)?;
        pos("prf.counter_bits", design.counter_bits)?;
        if design.n_fast > 63 {
            return Err(RfError::input("prf.n_fast", design.n_fast, "0..=63"));
        }
    }
    if design.adaptive_frf {
        pos("afrf.epoch", design.epoch_cycles)?;
        pos("sched.issue_width", design.issue_width)?;
    }
    if !design.entry_bytes.is_power_of_two() || !design.entry_bytes.is_multiple_of(design.lanes) {
        return Err(RfError::input(
            "rf.entry_bytes",
            design.entry_bytes,
            "a power of two divisible by the lane count",
        ));
    }
    if !(design.clock_hz.is_finite() && design.clock_hz > 0.0) {
        return Err(RfError::input(
            "sm.clock_mhz",
            design.clock_hz * 1e-6,
            "a clock > 0 MHz",
        ));
    }
    if !(design.temperature_k.is_finite() && (200.0..=500.0).contains(&design.temperature_k)) {
        return Err(RfError::input(
            "temperature_k",
            design.temperature_k,
            "200..=500 K",
        ));
    }
    Ok(())
}

fn op_vdd(node: &techlib::Node, op: &str) -> Option<f64> {
    node.operating_points()
        .into_iter()
        .find(|o| o.name == op)
        .map(|o| o.vdd_v)
}

/// `⌈t/t_clk⌉`, at least 1 (a tolerance of 1e-9 cycle keeps exact multiples exact).
pub fn cycles_of(t_s: f64, clock_hz: f64) -> u32 {
    ((t_s * clock_hz - 1e-9).ceil().max(1.0)) as u32
}

/// Context of one design: node, flavours, cell, technology builder.
struct Ctx<'a> {
    d: &'a RfDesign,
    node: techlib::Node,
    flavour: Flavour,
    finfet: bool,
}

impl Ctx<'_> {
    fn sram_tech(&self, vdd_v: f64, bg: BackGate, what: &'static str) -> Result<SramTech, RfError> {
        let fl = sram_flavour(self.flavour).ok_or_else(|| {
            RfError::input(
                "rf.flavour",
                self.flavour.key(),
                "a logic flavour (hp, lstp, lop, lvt, rvt, slvt)",
            )
        })?;
        sram_tech(&TechRequest {
            node: self.node.name().to_string(),
            flavour: fl,
            vdd_v: Some(vdd_v),
            temperature_k: Some(self.d.temperature_k),
            back_gate: bg,
        })
        .map_err(|error| RfError::Sram {
            structure: what,
            error,
        })
    }

    /// One lane slice of one bank of `rows` rows: the chip model's register-file array
    /// ([`rf_bank_slices`]) with the bank's ports (`ports.0` read, `ports.1` write; `None` for
    /// the MRF/FRF/SRF, whose banks have `ports_per_bank` read-write ports as in the chip).
    fn slice_spec(&self, rows: u32, banks: u32, ports: Option<(u32, u32)>) -> StorageSpec {
        let mut s = rf_bank_slices(
            "register file",
            rows as u64,
            self.d.entry_bytes as u64,
            self.d.lanes as u64,
            banks as u64,
            self.d.ports_per_bank.max(1),
        );
        if let Some((r, w)) = ports {
            if self.finfet {
                (s.rw_ports, s.read_ports, s.write_ports) = (0, r, w);
            } else {
                (s.rw_ports, s.read_ports, s.write_ports) =
                    (1, r.saturating_sub(1), w.saturating_sub(1));
            }
        }
        s
    }

    /// The array of `entries` entries over `banks` independent lane-sliced banks with real row
    /// counts (module doc). Each bank slice is the chip model's register-file array, evaluated
    /// as the chip evaluates it ([`sram_spec`] and [`sram::evaluate`]); an access touches the
    /// `lanes` slices of one bank. The bus energy is added by [`add_bus`].
    #[allow(clippy::too_many_arguments)]
    fn array(
        &self,
        name: &str,
        what: &'static str,
        entries: u32,
        banks: u32,
        ports: Option<(u32, u32)>,
        tech: &SramTech,
        vdd_v: f64,
    ) -> Result<ArrayCost, RfError> {
        if entries == 0 {
            return Ok(ArrayCost::empty(name, vdd_v));
        }
        let b = banks.min(entries);
        let r_lo = entries / b;
        let n_hi = entries % b;
        let r_hi = if n_hi > 0 { r_lo + 1 } else { r_lo };
        let n_lo = b - n_hi;
        let cell = storage_cell(self.node.kind());
        let eval = |rows: u32| -> Result<sram::SramResult, RfError> {
            let spec = sram_spec(&self.slice_spec(rows, b, ports), cell);
            sram::evaluate(&spec, tech).map_err(|error| RfError::Sram {
                structure: what,
                error,
            })
        };
        let hi = eval(r_hi)?;
        let lo = if r_lo == r_hi { hi } else { eval(r_lo)? };
        let lanes = self.d.lanes as f64;
        // per access: the lanes' slices of one bank (entry-weighted over bank sizes); area and
        // leakage: every slice of every bank
        let (wh, wl) = (n_hi as f64 * lanes, n_lo as f64 * lanes);
        let (eh, el) = (
            lanes * (n_hi as f64 * r_hi as f64) / entries as f64,
            lanes * (n_lo as f64 * r_lo as f64) / entries as f64,
        );
        let mix = |f: &dyn Fn(&sram::SramResult) -> f64, a: f64, c: f64| a * f(&hi) + c * f(&lo);
        let read = mix(&|r| r.read_energy_j, eh, el);
        let write = if self.d.write_equals_read {
            read
        } else {
            mix(&|r| r.write_energy_j, eh, el)
        };
        let cells = mix(&|r| r.breakdown.cells.leakage_w, wh, wl);
        let total = mix(&|r| r.leakage_w, wh, wl);
        let t = if n_hi > 0 {
            hi.access_time_s
        } else {
            lo.access_time_s
        };
        Ok(ArrayCost {
            name: name.into(),
            entries,
            vdd_v,
            read_energy_j: read,
            write_energy_j: write,
            array_leakage_w: cells,
            periph_leakage_w: (total - cells).max(0.0),
            area_m2: mix(&|r| r.area_m2, wh, wl),
            access_time_s: t,
            access_cycles: cycles_of(t, self.d.clock_hz),
            bank_rows: [(r_hi, n_hi), (r_lo, n_lo)],
            decoder_read_energy_j: mix(&|r| r.breakdown.decoder.read_energy_j, eh, el),
            slice_height_m: if n_hi > 0 { hi.height_m } else { lo.height_m },
            bus_energy_j: 0.0,
        })
    }

    fn logic_point(&self, vdd_v: f64) -> Result<techlib::TechPoint, RfError> {
        Ok(self.node.at(&Conditions::new(self.flavour)
            .with_vdd(vdd_v)
            .with_temperature(self.d.temperature_k))?)
    }
}

/// Adds the bank-to-collector bus to `a`'s read and write energies: the chip model's bus
/// formula ([`rf_bus_transfer_j`]) for `a`'s banks stacked at `pitch_m` in each lane's column,
/// on the array technology's semi-global wire at `a`'s supply.
fn add_bus(ctx: &Ctx<'_>, a: &mut ArrayCost, banks: u32, pitch_m: f64, tech: &SramTech) {
    if a.entries == 0 {
        return;
    }
    let spec = ctx.slice_spec(a.bank_rows[0].0, banks.min(a.entries), None);
    let bus = rf_bus_transfer_j(&spec, pitch_m, tech.wire_semi.c_f_per_m, a.vdd_v);
    a.read_energy_j += bus;
    a.write_energy_j += bus;
    a.bus_energy_j = bus;
}

fn logic_structure(
    name: &str,
    what: &'static str,
    kind: LogicKind,
    p: &[(&str, u32)],
    copies: u32,
    tech: &techlib::TechPoint,
    overlay: Option<&Overlay>,
) -> Result<LogicStructure, RfError> {
    let c =
        logic::model(kind, &logic::params(p), tech, overlay).map_err(|error| RfError::Logic {
            structure: what,
            error,
        })?;
    Ok(LogicStructure {
        name: name.into(),
        energy_per_op_j: c.energy_per_op_j,
        leakage_w: c.leakage_w * copies as f64,
        area_m2: c.area_m2 * copies as f64,
        delay_s: c.delay_s,
        calibrated: c.calibrated[2],
    })
}

fn clog2(x: u32) -> u32 {
    if x <= 1 {
        1
    } else {
        32 - (x - 1).leading_zeros()
    }
}

/// Energy of one bitonic sort of `n` counters of `bits` bits carrying 6-bit ids (module doc), J.
fn sort_energy_j(
    n: u32,
    bits: u32,
    tech: &techlib::TechPoint,
    overlay: Option<&Overlay>,
) -> Result<f64, RfError> {
    let p = n.max(2).next_power_of_two();
    let k = p.trailing_zeros();
    let exchanges = (p / 2) as f64 * (k * (k + 1) / 2) as f64;
    let cmp = logic::model(
        LogicKind::Adder,
        &logic::params(&[("WIDTH", bits)]),
        tech,
        overlay,
    )
    .map_err(|error| RfError::Logic {
        structure: "sort comparator",
        error,
    })?;
    let mux = logic::model(
        LogicKind::Mux,
        &logic::params(&[("N", 2), ("WIDTH", bits + 6)]),
        tech,
        overlay,
    )
    .map_err(|error| RfError::Logic {
        structure: "sort mux",
        error,
    })?;
    Ok(exchanges * (cmp.energy_per_op_j + 2.0 * mux.energy_per_op_j))
}

/// Back-gate line of the FRF (module doc).
fn back_gate_cost(
    ctx: &Ctx<'_>,
    frf_entries: u32,
    tied: &SramTech,
    grounded: &SramTech,
    logic_tech: &techlib::TechPoint,
) -> BackGateCost {
    let c = &tied.cell;
    let w_nmos_total =
        2.0 * c.w_nmos_m + 2.0 * c.w_access_m + c.w_read_access_m + c.w_read_driver_m;
    let c_bg_per_m = (tied.cell_dev.c_gate_per_m() - grounded.cell_dev.c_gate_per_m()).max(0.0);
    let cells = frf_entries as f64 * ctx.d.entry_bytes as f64 * 8.0;
    let cell_w = c.width_m * c.eight_t_width_factor;
    let line_len = cells * cell_w;
    let cap = cells * w_nmos_total * c_bg_per_m + line_len * tied.wire_local.c_f_per_m;
    let vdd = tied.periph.vdd_v;
    // rows: one per entry per lane slice
    let rows = frf_entries as f64 * ctx.d.lanes as f64;
    let c_row = if rows > 0.0 { cap / rows } else { 0.0 };
    let d = logic_tech.device();
    let w_min = d.fin_width_m.unwrap_or(4.0 * logic_tech.feature_size_m);
    // last stage sized to swing its row's line within half a clock cycle
    // (0.69·R_on·C_row ≤ t_clk/2), driven by a fan-out-of-4 chain from a minimum inverter:
    // the chain's devices sum to (w_last/w_min)·(1 + 1/4 + 1/16 + …) = (4/3)·w_last/w_min
    // minimum inverters, counted as gate equivalents
    let r_on_ohm_m = d.r_nch_on_ohm_m();
    let t_half = 0.5 / ctx.d.clock_hz;
    let w_last = (0.69 * c_row * r_on_ohm_m / t_half).max(w_min);
    let ge_per_row = 4.0 / 3.0 * w_last / w_min;
    let ge = rows * ge_per_row;
    BackGateCost {
        line_capacitance_f: cap,
        switch_energy_j: cap * vdd * vdd,
        wiring_area_m2: line_len * tied.wire_local.pitch_m,
        buffer_area_m2: ge * logic::area_per_ge_m2(logic_tech),
        buffer_leakage_w: ge * 2.0 * w_min * logic_tech.i_off_a_per_m() * logic_tech.vdd_v(),
    }
}

fn context(design: &RfDesign) -> Result<Ctx<'_>, RfError> {
    check(design)?;
    let node = techlib::node(&design.node)?;
    let finfet = node.kind() == NodeKind::Finfet;
    let flavour = match design.flavour {
        Some(f) => f,
        None => default_flavour(&design.node)?,
    };
    Ok(Ctx {
        d: design,
        node,
        flavour,
        finfet,
    })
}

/// The super-threshold supply of `design`: `vdd_stv_v`, else the node's `stv` point, else the
/// flavour's nominal supply, V.
pub fn stv_supply_v(design: &RfDesign) -> Result<f64, RfError> {
    let ctx = context(design)?;
    let v = match design.vdd_stv_v {
        Some(v) => v,
        None => match op_vdd(&ctx.node, "stv") {
            Some(v) => v,
            None => ctx.node.nominal_vdd_v(ctx.flavour)?,
        },
    };
    if !(v.is_finite() && v > 0.0 && v <= 5.0) {
        return Err(RfError::input("rf.vdd_stv_v", v, "a supply in (0, 5] V"));
    }
    Ok(v)
}

/// The SRAM model's technology for `design`'s arrays at `vdd_v` with back gates `bg` (designed
/// at the node's nominal supply, back gates tied).
pub fn array_tech(design: &RfDesign, vdd_v: f64, bg: BackGate) -> Result<SramTech, RfError> {
    context(design)?.sram_tech(vdd_v, bg, "array")
}

/// The techlib point of `design`'s control logic at `vdd_v`.
pub fn logic_tech(design: &RfDesign, vdd_v: f64) -> Result<techlib::TechPoint, RfError> {
    context(design)?.logic_point(vdd_v)
}

/// Evaluates every structure of `design` (module doc); control structures are calibrated by
/// `overlay` where it has them.
pub fn evaluate(design: &RfDesign, overlay: Option<&Overlay>) -> Result<RfStructures, RfError> {
    let ctx = context(design)?;
    let node = ctx.node.clone();
    let finfet = ctx.finfet;
    let v_stv = stv_supply_v(design)?;
    let v_ntv = design.vdd_ntv_v.or_else(|| op_vdd(&node, "ntv"));
    if let Some(v) = v_ntv {
        if !(v.is_finite() && v > 0.0 && v <= 5.0) {
            return Err(RfError::input("prf.v_srf", v, "a supply in (0, 5] V"));
        }
    }
    if design.adaptive_frf && !finfet {
        return Err(RfError::input(
            "afrf.enabled",
            format!("true at planar node {}", node.name()),
            "false: planar devices have no back gate",
        ));
    }
    if design.adaptive_frf && !design.partitioned {
        return Err(RfError::input(
            "afrf.enabled",
            "true without the partitioned RF",
            "prf.enabled = true",
        ));
    }
    let ports = None;
    let t_stv = ctx.sram_tech(v_stv, BackGate::Vdd, "MRF@STV")?;
    let mut mrf_stv = ctx.array(
        "MRF@STV",
        "MRF@STV",
        design.entries,
        design.banks,
        ports,
        &t_stv,
        v_stv,
    )?;
    let h = mrf_stv.slice_height_m;
    add_bus(&ctx, &mut mrf_stv, design.banks, h, &t_stv);
    let t_ntv = match v_ntv {
        Some(v) => Some(ctx.sram_tech(v, BackGate::Vdd, "MRF@NTV")?),
        None => None,
    };
    let mrf_ntv = match (&t_ntv, v_ntv) {
        (Some(t), Some(v)) => {
            let mut a = ctx.array(
                "MRF@NTV",
                "MRF@NTV",
                design.entries,
                design.banks,
                ports,
                t,
                v,
            )?;
            let h = a.slice_height_m;
            add_bus(&ctx, &mut a, design.banks, h, t);
            Some(a)
        }
        _ => None,
    };
    let logic_tech = ctx.logic_point(v_stv)?;
    let (mut frf_high, mut frf_low, mut srf) = (None, None, None);
    let (mut swap_cam, mut pilot_counters, mut epoch_counter, mut back_gate) =
        (None, None, None, None);
    let mut sort_e = 0.0;
    if design.partitioned {
        let (Some(t_n), Some(v_n)) = (&t_ntv, v_ntv) else {
            return Err(RfError::input(
                "prf.v_srf",
                format!("(none: node {} has no ntv point)", node.name()),
                "an explicit SRF supply",
            ));
        };
        let nf = design.frf_entries();
        let mut hi = ctx.array(
            "FRF_high",
            "FRF_high",
            nf,
            design.banks,
            ports,
            &t_stv,
            v_stv,
        )?;
        let mut sr = ctx.array(
            "SRF",
            "SRF",
            design.srf_entries(),
            design.banks,
            ports,
            t_n,
            v_n,
        )?;
        // each bank is an FRF part stacked on an SRF part: the column pitch is both parts'
        let pitch = hi.slice_height_m + sr.slice_height_m;
        add_bus(&ctx, &mut hi, design.banks, pitch, &t_stv);
        add_bus(&ctx, &mut sr, design.banks, pitch, t_n);
        srf = Some(sr);
        if design.adaptive_frf {
            let grounded = ctx.sram_tech(v_stv, BackGate::Gnd, "FRF_low")?;
            let hybrid = match design.back_gate_scope {
                BackGateScope::Cells => {
                    let mut h = t_stv.clone();
                    h.cell_dev = grounded.cell_dev;
                    h.node = format!("{} (cell back gates grounded)", t_stv.node);
                    h.design = Some(Box::new(t_stv.design_tech().clone()));
                    h
                }
                BackGateScope::WholeArray => grounded.clone(),
            };
            let mut lo = ctx.array(
                "FRF_low",
                "FRF_low",
                nf,
                design.banks,
                ports,
                &hybrid,
                v_stv,
            )?;
            add_bus(&ctx, &mut lo, design.banks, pitch, &hybrid);
            if design.low_leakage == LowLeakage::SameAsHigh {
                lo.array_leakage_w = hi.array_leakage_w;
                lo.periph_leakage_w = hi.periph_leakage_w;
            }
            frf_low = Some(lo);
            back_gate = Some(back_gate_cost(&ctx, nf, &t_stv, &grounded, &logic_tech));
            let w = clog2(design.epoch_cycles * design.issue_width + 1);
            let ew = clog2(design.epoch_cycles);
            epoch_counter = Some(logic_structure(
                "epoch counter",
                "epoch_counter",
                LogicKind::EpochCounter,
                &[
                    ("W", w),
                    ("EW", ew),
                    ("EPOCH", design.epoch_cycles),
                    ("IW", clog2(design.issue_width + 1)),
                ],
                1,
                &logic_tech,
                overlay,
            )?);
        }
        frf_high = Some(hi);
        if design.n_fast > 0 {
            swap_cam = Some(logic_structure(
                "swap-table CAM",
                "swap_cam",
                LogicKind::SwapCam,
                &[("N", design.n_fast)],
                design.table_copies,
                &logic_tech,
                overlay,
            )?);
        }
        pilot_counters = Some(logic_structure(
            "pilot counters",
            "pilot_counters",
            LogicKind::PilotCounters,
            &[
                ("NREGS", design.counter_regs),
                ("WIDTH", design.counter_bits),
            ],
            1,
            &logic_tech,
            overlay,
        )?);
        sort_e = sort_energy_j(
            design.counter_regs,
            design.counter_bits,
            &logic_tech,
            overlay,
        )?;
    }
    let mask_table = logic_structure(
        "COMA mask table",
        "mask table",
        LogicKind::FlopArray,
        &[
            ("ENTRIES", design.cu_count),
            ("WIDTH", design.lanes),
            ("RPORTS", design.mask_read_ports),
            ("WPORTS", 1),
        ],
        1,
        &logic_tech,
        overlay,
    )?;
    let rfc = match &design.rfc {
        None => None,
        Some(r) => {
            if r.entries == 0 || r.read_ports == 0 || r.write_ports == 0 || r.banks == 0 {
                return Err(RfError::input(
                    "rfc.entries/read_ports/write_ports/banks",
                    format!(
                        "{}/{}/{}/{}",
                        r.entries, r.read_ports, r.write_ports, r.banks
                    ),
                    "each at least 1",
                ));
            }
            let mut array = ctx.array(
                "RFC",
                "RFC",
                r.entries,
                r.banks,
                Some((r.read_ports, r.write_ports)),
                &t_stv,
                v_stv,
            )?;
            let h = array.slice_height_m;
            add_bus(&ctx, &mut array, r.banks, h, &t_stv);
            let tag_bits = clog2(design.max_warps) + 6;
            let tag_cam = logic_structure(
                "RFC tag CAM",
                "RFC tag CAM",
                LogicKind::Cam,
                &[("ENTRIES", r.entries), ("WIDTH", tag_bits)],
                1,
                &logic_tech,
                overlay,
            )?;
            Some(RfcCost { array, tag_cam })
        }
    };
    Ok(RfStructures {
        node: node.name().to_string(),
        clock_hz: design.clock_hz,
        mrf_stv,
        mrf_ntv,
        frf_high,
        frf_low,
        low_leakage: design.low_leakage,
        srf,
        rfc,
        mask_table,
        swap_cam,
        pilot_counters,
        epoch_counter,
        sort_energy_j: sort_e,
        back_gate,
    })
}

/// `prf.lat_srf = "derived"` and the other derived latencies (§5.3): `⌈t_access/t_clk⌉` of every
/// array, with the access-time ratios behind them (the array model's own ratio, which is neither
/// the inverter chain's 2.44 nor the Ion ratio 3.16 of the reference data).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DerivedLatencies {
    /// MRF at STV, cycles.
    pub mrf_stv: u32,
    /// MRF at NTV, cycles.
    pub mrf_ntv: Option<u32>,
    /// FRF_high, cycles.
    pub frf_high: Option<u32>,
    /// FRF_low, cycles.
    pub frf_low: Option<u32>,
    /// SRF, cycles.
    pub srf: Option<u32>,
    /// RFC, cycles.
    pub rfc: Option<u32>,
    /// t_access(SRF) / t_access(FRF_high).
    pub srf_over_frf_time_ratio: Option<f64>,
    /// t_access(MRF@NTV) / t_access(MRF@STV).
    pub mrf_ntv_over_stv_time_ratio: Option<f64>,
}

impl RfStructures {
    /// The derived latencies of every array (see [`DerivedLatencies`]).
    pub fn derived_latencies(&self) -> DerivedLatencies {
        let cyc = |a: &Option<ArrayCost>| {
            a.as_ref()
                .filter(|a| a.entries > 0)
                .map(|a| a.access_cycles)
        };
        let ratio = |a: Option<&ArrayCost>, b: Option<&ArrayCost>| match (a, b) {
            (Some(a), Some(b)) if a.entries > 0 && b.entries > 0 && b.access_time_s > 0.0 => {
                Some(a.access_time_s / b.access_time_s)
            }
            _ => None,
        };
        DerivedLatencies {
            mrf_stv: self.mrf_stv.access_cycles,
            mrf_ntv: cyc(&self.mrf_ntv),
            frf_high: cyc(&self.frf_high),
            frf_low: cyc(&self.frf_low),
            srf: cyc(&self.srf),
            rfc: self.rfc.as_ref().map(|r| r.array.access_cycles),
            srf_over_frf_time_ratio: ratio(self.srf.as_ref(), self.frf_high.as_ref()),
            mrf_ntv_over_stv_time_ratio: ratio(self.mrf_ntv.as_ref(), Some(&self.mrf_stv)),
        }
    }

    /// Area the partitioned RF adds over the MRF@STV (§9): FRF + SRF + back-gate wiring + mode
    /// buffers + swap CAMs + pilot counters + epoch detector − MRF, m² (0 without the partition).
    pub fn partition_added_area_m2(&self) -> f64 {
        let (Some(f), Some(s)) = (&self.frf_high, &self.srf) else {
            return 0.0;
        };
        let bg = self
            .back_gate
            .as_ref()
            .map_or(0.0, |b| b.wiring_area_m2 + b.buffer_area_m2);
        let ctl: f64 = [&self.swap_cam, &self.pilot_counters, &self.epoch_counter]
            .iter()
            .filter_map(|x| x.as_ref())
            .map(|x| x.area_m2)
            .sum();
        f.area_m2 + s.area_m2 + bg + ctl - self.mrf_stv.area_m2
    }
}
