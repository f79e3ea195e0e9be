//! The chip model: every component of an SM and of the chip, sized from `GpuConfig`, costed at
//! one technology point, and combined with an `Activity` into an [`Estimate`](super::Estimate)
//! (the tree itself is built in `tree.rs`).
//!
//! Energy = Σ events × energy per event (lane-proportional for the lane-gated datapaths: an
//! inactive lane's operands are not clocked in, so it does not switch) + leakage power × run
//! time + clock energy per cycle. Storage structures come from the SRAM model, logic blocks from
//! [`crate::logic`]; off-chip DRAM from [`super::dram`]; wires of the interconnect and the clock
//! tree from techlib's wire RC. No coefficient here is tuned to a published chip number.
//!
//! Every leaf records the [`Source`] of its numbers: what the [`CostSource`] said for arrays
//! and logic blocks, [`Source::Wire`] for the clock trees, the published figures for DRAM, and
//! [`Source::Mixed`] for the interconnect (crossbar logic plus global wires). The pipeline
//! registers' latch energy added to the datapath leaves comes from the clock-pin capacitance;
//! the leaves carry their datapath's source.

use super::dram::DramParams;
use super::estimate::{IdleSms, Source};
use super::storage::{storage_specs, Scope, StorageSpec};
use crate::logic::{LogicKind, ModelError};
use crate::sram::SramError;
use sim::config::GpuConfig;
use std::collections::BTreeMap;

/// Area, leakage and energy per event of one component instance.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct UnitCost {
    /// Silicon area, m².
    pub area_m2: f64,
    /// Leakage power, W.
    pub leakage_w: f64,
    /// Energy of one read / operation.
    pub read_j: f64,
    /// Energy of one write (equal to `read_j` for logic).
    pub write_j: f64,
}

impl UnitCost {
    /// The cost of `k` instances: every figure times `k`.
    pub fn scaled(self, k: f64) -> UnitCost {
        UnitCost {
            area_m2: self.area_m2 * k,
            leakage_w: self.leakage_w * k,
            read_j: self.read_j * k,
            write_j: self.write_j * k,
        }
    }
}

/// A unit cost and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Costed {
    /// The cost.
    pub cost: UnitCost,
    /// Where the cost came from.
    pub source: Source,
}

/// Why a component could not be costed.
#[derive(Debug, thiserror::Error)]
pub enum CostError {
    /// The SRAM model rejected the array.
    #[error(transparent)]
    Sram(#[from] SramError),
    /// The logic model rejected the block (parameters, overlay).
    #[error(transparent)]
    Logic(#[from] ModelError),
}

/// Why the chip model could not be built: the component that failed and why.
#[derive(Debug, thiserror::Error)]
pub enum ChipError {
    /// A storage array.
    #[error("{component}: {error}")]
    Storage {
        /// Name of the array.
        component: String,
        /// What went wrong.
        error: CostError,
    },
    /// A logic block.
    #[error("{component} ({kind}): {error}")]
    Logic {
        /// Name of the component.
        component: String,
        /// Its logic kind.
        kind: LogicKind,
        /// What went wrong.
        error: CostError,
    },
    /// A size key of the configuration is over its bound ([`super::limits`]).
    #[error(transparent)]
    Size(#[from] super::limits::SizeLimitError),
}

/// Name of the tensor cores' leaf: every slice of every tensor core of an SM.
pub const TENSOR_CORES: &str = "tensor cores";

/// Where component costs come from: the SRAM model for arrays, logic models for the rest.
pub trait CostSource {
    /// Cost of one SRAM array (all its banks).
    fn sram(&self, spec: &StorageSpec) -> Result<Costed, CostError>;
    /// Cost of one logic component of `kind` with size parameters.
    fn logic(&self, kind: LogicKind, params: &[(&str, u32)]) -> Result<Costed, CostError>;
    /// Supply voltage.
    fn vdd_v(&self) -> f64;
    /// Core clock relative to the configuration's (1 at the node's nominal operating point).
    fn clock_scale(&self) -> f64 {
        1.0
    }
    /// Capacitance per metre of a global wire (interconnect, clock trunk).
    fn global_wire_c_f_per_m(&self) -> f64;
    /// Input capacitance of a minimum flop's clock pin.
    fn clock_pin_c_f(&self) -> f64;
    /// Height of one array of `spec` (m): the pitch at which the register file's bank slices
    /// stack in a lane's column, which sets how far the operand crossbar's wires run.
    fn sram_height_m(&self, spec: &StorageSpec) -> Result<f64, CostError>;
    /// Capacitance per metre of the semi-global wire that carries buses between arrays and
    /// logic inside an SM.
    fn bus_wire_c_f_per_m(&self) -> f64;
}

/// The costed hardware of one configuration at one technology point.
#[derive(Clone, Debug)]
pub struct ChipModel {
    /// SMs on the chip (`gpu.n_sm`).
    pub n_sm: u32,
    /// Core clock, Hz: `gpu.core_mhz` times the cost source's clock scale.
    pub core_clock_hz: f64,
    /// Supply, V.
    pub vdd_v: f64,
    /// Per-SM storage arrays by name.
    pub sm_storage: BTreeMap<String, UnitCost>,
    /// Chip-level storage arrays by name (per instance) and their instance counts.
    pub chip_storage: BTreeMap<String, (u32, UnitCost)>,
    /// Per-SM logic components by name: (instances per SM, cost per instance).
    pub sm_logic: BTreeMap<String, (u32, UnitCost)>,
    /// Per-lane-operation energy of each datapath by op class, per pipe ("int", "fp", "sfu",
    /// "dp", "ldst").
    pub op_energy_j: BTreeMap<(String, String), f64>,
    /// Interconnect: energy per flit, area and leakage of the crossbar.
    pub icnt_flit_j: f64,
    /// The crossbar's cost (per instance; `read_j` is its logic energy per flit).
    pub icnt: UnitCost,
    /// Memory controllers: per channel, energy per DRAM request handled.
    pub mc: UnitCost,
    /// DRAM channels, one memory controller each (`mem.n_channels`).
    pub n_channels: u32,
    /// Off-chip DRAM energy parameters (by `dram.kind`; burst size from the `dram.*` keys).
    pub dram: DramParams,
    /// Clock-distribution energy per SM per core cycle, and per chip cycle for the uncore.
    pub clock_sm_j_per_cycle: f64,
    /// Uncore clock-distribution energy per core cycle (a global-wire tree across the die), J.
    pub clock_uncore_j_per_cycle: f64,
    /// Pipeline registers: energy per lane-operation (operands + result latched).
    pub pipe_reg_j_per_lane_op: f64,
    /// Source of each storage array's and logic component's cost, by component name
    /// (including "interconnect" and "memory controllers").
    pub sources: BTreeMap<String, Source>,
    /// Whether SMs without a resident CTA leak ([`IdleSms`]; default: power-gated).
    pub idle_sms: IdleSms,
}

fn lane_params(n: u32) -> u32 {
    n.max(1)
}

/// Switching probability of a data wire per transfer (uncorrelated random data).
const DATA_ACTIVITY: f64 = 0.5;

/// The wires between the register-file banks and the operand collectors.
///
/// Each lane's slices of the `B` independent banks stack in a column at the pitch `h` of one
/// slice (the SRAM model's array height), with the crossbar and the collectors at its foot. Bank
/// `i` (1 at the foot … `B` at the top) drives its own read bus of one lane-slice word down
/// `i·h` of wire, so that every bank can deliver in the same cycle; the mean read traverses
/// `h·(B + 1)/2`. A write travels the same mean distance up the column's shared write bus.
/// The column is short (`B·h` for GTX480's 16 banks: 2.0 mm at 90 nm, 0.9 mm at 40 nm, 0.2 mm
/// at finfet7; its distributed RC delay is tens of picoseconds, far below a cycle), so the
/// bank's output driver drives it unrepeated: the energy per transfer is the wire's charge,
/// `lanes × bits × α × c_wire × h·(B + 1)/2 × Vdd²` with α = 0.5 (random data) on the SM's
/// semi-global layer, charged to the operand crossbar per operand and to the register file per
/// write. The drivers are the arrays' own (their leakage is in the arrays); the buses run on
/// the upper layers over the banks and take no area of their own.
fn rf_routing(
    cfg: &GpuConfig,
    src: &dyn CostSource,
    sm_storage: &mut BTreeMap<String, UnitCost>,
    sm_logic: &mut BTreeMap<String, (u32, UnitCost)>,
    sources: &mut BTreeMap<String, Source>,
) -> Result<(), ChipError> {
    let Some(transfer_j) = rf_bus_energy_j(cfg, src)? else {
        return Ok(());
    };
    if let Some(x) = sm_logic.get_mut("operand crossbar") {
        x.1.read_j += transfer_j;
        x.1.write_j += transfer_j;
        sources.insert("operand crossbar".into(), Source::Mixed);
    }
    if let Some(c) = sm_storage.get_mut("register file") {
        c.write_j += transfer_j;
    }
    Ok(())
}

/// Energy of one transfer on the bus between a register-file bank and the operand collectors
/// (see [`rf_routing`]) for `cfg` costed by `src`, J; `None` when `cfg` has no register file.
pub fn rf_bus_energy_j(cfg: &GpuConfig, src: &dyn CostSource) -> Result<Option<f64>, ChipError> {
    let Some(rf) = storage_specs(cfg)
        .into_iter()
        .find(|s| s.name == "register file")
    else {
        return Ok(None);
    };
    let h_m = src.sram_height_m(&rf).map_err(|error| ChipError::Storage {
        component: rf.name.clone(),
        error,
    })?;
    Ok(Some(rf_bus_transfer_j(
        &rf,
        h_m,
        src.bus_wire_c_f_per_m(),
        src.vdd_v(),
    )))
}

/// The bank-to-collector bus formula of [`rf_routing`] for the lane-sliced banks `rf`
/// (`rf.instances / rf.accessed` banks of `rf.accessed` slices, `rf.block_bytes` per slice)
/// stacked at the pitch `pitch_m` in each lane's column, on a wire of `c_wire_f_per_m` at
/// `vdd_v`: `lanes × bits × α × c_wire × pitch·(B + 1)/2 × Vdd²`, J per transfer.
pub fn rf_bus_transfer_j(rf: &StorageSpec, pitch_m: f64, c_wire_f_per_m: f64, vdd_v: f64) -> f64 {
    let banks = (rf.instances / rf.accessed.max(1)).max(1) as f64;
    let lanes = rf.accessed.max(1) as f64;
    let bits = (rf.block_bytes * 8) as f64;
    let mean_m = pitch_m * (banks + 1.0) / 2.0;
    lanes * bits * DATA_ACTIVITY * c_wire_f_per_m * mean_m * vdd_v * vdd_v
}

impl ChipModel {
    /// Sizes and costs every component of `cfg` with `src`.
    pub fn build(cfg: &GpuConfig, src: &dyn CostSource) -> Result<ChipModel, ChipError> {
        super::limits::check_sizes(cfg)?;
        let vdd = src.vdd_v();
        let mut sources = BTreeMap::new();
        let (mut sm_storage, chip_storage) = storage_costs(cfg, src, &mut sources)?;
        let mut sm_logic = sm_logic_costs(cfg, src, &mut sources)?;
        let logic = |name: &str, kind: LogicKind, p: &[(&str, u32)]| {
            src.logic(kind, p).map_err(|error| ChipError::Logic {
                component: name.to_string(),
                kind,
                error,
            })
        };
        let u = &cfg.units;
        let max_warps = cfg.sm.max_warps;
        let entry_bits = rf_entry_bits(cfg);
        let n_cu = n_collector_units(cfg);
        let sp_lanes = u.n_sp * u.sp_lanes;

        // Per-op-class energy per lane, by pipe.
        let op_energy_j = op_energies(&sm_logic, src);

        // Interconnect: a crossbar between SMs and L2 slices carrying flits; each flit also
        // drives a global wire across half the die side (the average distance in a crossbar
        // whose ports sit on the die edge), C·V² per toggling bit with activity ½.
        let slices = cfg.mem.n_channels * cfg.mem.subparts_per_channel;
        let ports = (cfg.gpu.n_sm + slices).clamp(2, 64);
        let flit_bits = cfg.icnt.flit_bytes * 8;
        let icnt = logic(
            "interconnect",
            LogicKind::Crossbar,
            &[("N", ports), ("WIDTH", flit_bits)],
        )?
        .cost;
        sources.insert("interconnect".into(), Source::Mixed);
        rf_routing(cfg, src, &mut sm_storage, &mut sm_logic, &mut sources)?;
        let sm_area: f64 = sm_storage.values().map(|c| c.area_m2).sum::<f64>()
            + sm_logic
                .values()
                .map(|(n, c)| *n as f64 * c.area_m2)
                .sum::<f64>();
        let chip_area = sm_area * cfg.gpu.n_sm as f64
            + chip_storage
                .values()
                .map(|(n, c)| *n as f64 * c.area_m2)
                .sum::<f64>();
        let die_side_m = chip_area.max(0.0).sqrt();
        let wire_c = src.global_wire_c_f_per_m();
        let icnt_flit_j =
            icnt.read_j + 0.5 * flit_bits as f64 * wire_c * (die_side_m / 2.0) * vdd * vdd;
        let mc = logic(
            "memory controllers",
            LogicKind::Cam,
            &[("ENTRIES", cfg.dram.sched_queue.max(2)), ("WIDTH", 32)],
        )?;
        sources.insert("memory controllers".into(), mc.source);
        let mc = mc.cost;

        // Clock: an H-tree over each SM (total length ≈ 1.5 × side × log2 of the leaf count
        // ratio, here the standard 2-level closed form 3 × side) plus one clock pin per flop bit
        // of the SM's logic (flop arrays, pipeline registers ≈ 3 operands × 32 bits per lane).
        let sm_side = sm_area.max(0.0).sqrt();
        let flop_bits = (max_warps * cfg.frontend.ibuffer_entries * 64
            + n_cu * 3 * entry_bits
            + sp_lanes * 3 * 32 * 2) as f64;
        let pin_c = src.clock_pin_c_f();
        let clock_sm_j_per_cycle = (3.0 * sm_side * wire_c + flop_bits * pin_c) * vdd * vdd;
        let clock_uncore_j_per_cycle = 3.0 * die_side_m * wire_c * vdd * vdd;
        // Pipeline registers: each lane-op latches 3 × 32-bit operands and a 32-bit result,
        // half the bits toggling.
        let pipe_reg_j_per_lane_op = 0.5 * 4.0 * 32.0 * pin_c * 2.0 * vdd * vdd;
        Ok(ChipModel {
            n_sm: cfg.gpu.n_sm,
            core_clock_hz: cfg.gpu.core_mhz * 1e6 * src.clock_scale(),
            vdd_v: vdd,
            sm_storage,
            chip_storage,
            sm_logic,
            op_energy_j,
            icnt_flit_j,
            icnt,
            mc,
            n_channels: cfg.mem.n_channels,
            dram: DramParams::of_config(cfg),
            clock_sm_j_per_cycle,
            clock_uncore_j_per_cycle,
            pipe_reg_j_per_lane_op,
            sources,
            idle_sms: IdleSms::default(),
        })
    }
}

/// Every storage array of `cfg` costed with `src`: per SM (area and leakage of every array,
/// energy of the arrays one access touches) and chip-level (per instance, with the instance
/// count); each one's source goes into `sources`.
fn storage_costs(
    cfg: &GpuConfig,
    src: &dyn CostSource,
    sources: &mut BTreeMap<String, Source>,
) -> Result<StorageCosts, ChipError> {
    let mut sm_storage = BTreeMap::new();
    let mut chip_storage = BTreeMap::new();
    for s in storage_specs(cfg) {
        let Costed { cost: c, source } = src.sram(&s).map_err(|error| ChipError::Storage {
            component: s.name.clone(),
            error,
        })?;
        sources.insert(s.name.clone(), source);
        match s.scope {
            Scope::PerSm => {
                // Area and leakage of every array; energy of the arrays one access touches.
                let all = c.scaled(s.instances as f64);
                let touched = c.scaled(s.accessed as f64);
                sm_storage.insert(
                    s.name.clone(),
                    UnitCost {
                        read_j: touched.read_j,
                        write_j: touched.write_j,
                        ..all
                    },
                );
            }
            Scope::Chip => {
                // per slice: the `accessed` arrays one access reads together
                let per = s.accessed.max(1);
                chip_storage.insert(s.name.clone(), (s.instances / per, c.scaled(per as f64)));
            }
        }
    }
    Ok((sm_storage, chip_storage))
}

/// Per-SM and chip-level storage costs by array name ([`storage_costs`]).
type StorageCosts = (
    BTreeMap<String, UnitCost>,
    BTreeMap<String, (u32, UnitCost)>,
);

/// Bits of one register-file entry (`rf.entry_bytes`), the width of an operand collector's
/// operand and of the bank-to-collector crossbar.
fn rf_entry_bits(cfg: &GpuConfig) -> u32 {
    cfg.rf.entry_bytes.max(1) * 8
}

/// Collector units per SM over every class (at least 1).
fn n_collector_units(cfg: &GpuConfig) -> u32 {
    let oc = &cfg.opcoll.units;
    (oc.sp + oc.sfu + oc.mem + oc.dp + oc.int + oc.gen).max(1)
}

/// The per-SM logic components of `cfg` costed with `src`, by name: (instances per SM, cost
/// per instance); each one's source goes into `sources`.
fn sm_logic_costs(
    cfg: &GpuConfig,
    src: &dyn CostSource,
    sources: &mut BTreeMap<String, Source>,
) -> Result<BTreeMap<String, (u32, UnitCost)>, ChipError> {
    let u = &cfg.units;
    let max_warps = cfg.sm.max_warps;
    let n_sched = cfg.sched.n_per_sm.max(1);
    let mut sm_logic: BTreeMap<String, (u32, UnitCost)> = BTreeMap::new();
    let logic = |name: &str, kind: LogicKind, p: &[(&str, u32)]| {
        src.logic(kind, p).map_err(|error| ChipError::Logic {
            component: name.to_string(),
            kind,
            error,
        })
    };
    let mut put = |sm_logic: &mut BTreeMap<String, (u32, UnitCost)>,
                   name: &str,
                   n: u32,
                   kind: LogicKind,
                   p: &[(&str, u32)]|
     -> Result<(), ChipError> {
        let c = logic(name, kind, p)?;
        sm_logic.insert(name.to_string(), (n, c.cost));
        sources.insert(name.to_string(), c.source);
        Ok(())
    };
    // Front end: fetched instruction register and the per-warp instruction buffers, the
    // decoder as one ALU-lane equivalent of gates. The I-buffers and the scoreboards below are
    // the in-order baseline of issue-stage spec §4 (`issue_bits::BaselineIssue`), the same
    // design every issue-stage comparison measures against: per warp, `ib_entries` entries of
    // `E_b` bits, one read and one write port.
    let base = crate::issue_bits::BaselineIssue::of_config(cfg);
    let bf = &base.fields;
    put(&mut sm_logic, "fetch/decode", 1, LogicKind::Alu32, &[])?;
    put(
        &mut sm_logic,
        "instruction buffer",
        max_warps,
        LogicKind::FlopArray,
        &[
            ("ENTRIES", base.ib_entries),
            ("WIDTH", bf.baseline_entry_bits() as u32),
            ("RPORTS", 1),
            ("WPORTS", 1),
        ],
    )?;
    put(
        &mut sm_logic,
        "warp scheduler",
        n_sched,
        LogicKind::ArbRr,
        &[("N", (max_warps / n_sched).max(2))],
    )?;
    // One scoreboard per warp slot (§4): a pending-write bit and a `Cw`-bit pending-read
    // counter for each of the `A` architectural registers, checked against the GPR and
    // predicate sources of an instruction.
    put(
        &mut sm_logic,
        "scoreboard",
        max_warps,
        LogicKind::Scoreboard,
        &[
            ("NREGS", base.arch_regs.max(1)),
            ("NSRC", (bf.gpr_srcs + bf.pred_srcs).max(1)),
            ("RCW", base.reader_ctr_bits.max(1)),
        ],
    )?;
    // Operand collectors: one 3-operand entry of one warp-register (`rf.entry_bytes`, 1024
    // bits on every preset) per collector unit, and the bank-to-collector crossbar of one
    // warp-register per port.
    let entry_bits = rf_entry_bits(cfg);
    let n_cu = n_collector_units(cfg);
    put(
        &mut sm_logic,
        "operand collectors",
        1,
        LogicKind::FlopArray,
        &[
            ("ENTRIES", n_cu * 3),
            ("WIDTH", entry_bits),
            ("RPORTS", 1),
            ("WPORTS", 1),
        ],
    )?;
    let xbar_n = cfg.rf.n_banks.max(n_cu).min(32);
    put(
        &mut sm_logic,
        "operand crossbar",
        1,
        LogicKind::Crossbar,
        &[("N", xbar_n), ("WIDTH", entry_bits)],
    )?;
    // Datapaths: every SP lane has an integer ALU, an integer multiplier and an FMA unit.
    let sp_lanes = u.n_sp * u.sp_lanes;
    put(
        &mut sm_logic,
        "SP integer ALUs",
        lane_params(sp_lanes),
        LogicKind::Alu32,
        &[],
    )?;
    put(
        &mut sm_logic,
        "SP integer multipliers",
        lane_params(sp_lanes),
        LogicKind::Imul32,
        &[],
    )?;
    put(
        &mut sm_logic,
        "SP FP units",
        lane_params(sp_lanes),
        LogicKind::Ffma32,
        &[],
    )?;
    if u.n_sfu * u.sfu_lanes > 0 {
        put(
            &mut sm_logic,
            "SFU lanes",
            u.n_sfu * u.sfu_lanes,
            LogicKind::SfuLane,
            &[],
        )?;
    }
    if u.n_dp * u.dp_lanes > 0 {
        put(
            &mut sm_logic,
            "DP lanes",
            u.n_dp * u.dp_lanes,
            LogicKind::Ffma32,
            &[],
        )?;
        // Double precision: the multiplier array grows with the square of the mantissa
        // width (53/24)² (array-multiplier complexity), which dominates an FMA.
        let (n, c) = sm_logic["DP lanes"];
        sm_logic.insert("DP lanes".into(), (n, c.scaled(DP_SCALE)));
    }
    if u.n_tensor > 0 {
        // Tensor cores: `units.tensor_macs_per_cycle` multiply-accumulates per core and cycle
        // from dot-product slices of four binary16 products (`logic::tensor_core`); the
        // instance is one slice, whose energy per operation is one multiply-accumulate.
        let per_slice = crate::logic::tensor_core::DotSlice::HDOT4_F32ACC.products;
        put(
            &mut sm_logic,
            TENSOR_CORES,
            u.n_tensor * u.tensor_macs_per_cycle.div_ceil(per_slice),
            LogicKind::Hdot4F32Acc,
            &[],
        )?;
    }
    let ldst_lanes = (u.n_ldst * u.ldst_lanes).max(1);
    put(
        &mut sm_logic,
        "LD/ST address units",
        ldst_lanes,
        LogicKind::Alu32,
        &[],
    )?;
    put(
        &mut sm_logic,
        "LD/ST coalescer",
        u.n_ldst.max(1),
        LogicKind::Cam,
        &[("ENTRIES", 32), ("WIDTH", 32)],
    )?;
    Ok(sm_logic)
}

/// Energy per lane of each op class on each pipe (`int`, `fp`, `sfu`, `dp`, `ldst`), from the
/// lanes' logic costs in `sm_logic` and, where a unit is absent, `src`'s.
fn op_energies(
    sm_logic: &BTreeMap<String, (u32, UnitCost)>,
    src: &dyn CostSource,
) -> BTreeMap<(String, String), f64> {
    let cost = |name: &str| sm_logic.get(name).map(|x: &(u32, UnitCost)| x.1.read_j);
    let alu = cost("SP integer ALUs").unwrap_or(0.0);
    let imul = cost("SP integer multipliers").unwrap_or(0.0);
    let fma = cost("SP FP units").unwrap_or(0.0);
    let op_j = |kind: LogicKind| src.logic(kind, &[]).map(|c| c.cost.read_j).ok();
    let fadd = op_j(LogicKind::Fadd32).unwrap_or(fma);
    let fmul = op_j(LogicKind::Fmul32).unwrap_or(fma);
    let sfu = cost("SFU lanes").unwrap_or_else(|| op_j(LogicKind::SfuLane).unwrap_or(fma));
    let dp = fma * DP_SCALE;
    let mut op_energy_j = BTreeMap::new();
    for class in OP_CLASSES {
        let int_e = match *class {
            "MUL" | "MAD" => imul + alu,
            "DIV" => sfu,
            _ => alu,
        };
        let fp_e = match *class {
            "ADD" | "MAX" | "SETP" | "CVT" | "MOV" => fadd,
            "MUL" => fmul,
            _ => fma,
        };
        op_energy_j.insert(("int".to_string(), class.to_string()), int_e);
        op_energy_j.insert(("fp".to_string(), class.to_string()), fp_e);
        op_energy_j.insert(("sfu".to_string(), class.to_string()), sfu);
        op_energy_j.insert(("dp".to_string(), class.to_string()), dp);
        op_energy_j.insert(("ldst".to_string(), class.to_string()), alu);
    }
    op_energy_j
}

/// Area/energy ratio of a double- to a single-precision FMA: (53/24)².
pub const DP_SCALE: f64 = (53.0 / 24.0) * (53.0 / 24.0);

const OP_CLASSES: &[&str] = &[
    "ADD",
    "MAX",
    "MUL",
    "MAD",
    "DIV",
    "SHFL",
    "CVT",
    "MOV",
    "LOGIC",
    "SETP",
    "SIN",
    "COS",
    "EX2",
    "LG2",
    "RSQRT",
    "RCP",
    "SQRT",
    "BRANCH",
    "EXIT",
    "NOP",
    "LOAD",
    "STORE",
    "ATOMIC",
    "REDUCTION",
    "MEMBAR",
    "BARRIER",
];
