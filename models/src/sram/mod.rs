//! CACTI-class SRAM array model.
//!
//! Given capacity, access width, ports, banks, cell type and a technology at an operating
//! point, [`evaluate`] searches the subarray organisations ([`organisation`]) and, for each,
//! builds a circuit-level estimate: logical-effort row decoders and wordline drivers
//! ([`decoder`]), bitlines with precharge, column muxes, sense amplifiers and write drivers
//! ([`bitline`]), multi-port cell growth ([`cell`]), and repeated-wire H-trees inside and
//! between banks ([`htree`]). It returns the organisation that minimises the objective
//! (default, as CACTI's: energy × delay² among organisations within 20 % of the fastest).
//!
//! Structure and device data follow CACTI (Thoziyoor et al., "CACTI 5.1", HPL-2008-20;
//! Muralimanohar et al., "CACTI 6.0", HPL-2009-85) and the ITRS tables in `techlib`:
//! mats of 2 × 2 subarrays, all subarrays of an active mat precharging and sensing, H-trees to
//! mats with all ports' address and data bundles, bitline swing max(5 % Vdd, 80 mV),
//! latch-type sense amplifiers (τ = C/g_m), one bitline-periphery strip and one decoder per port
//! and subarray, cells grown by a wordline and a bitline pair (or a single read bitline) per
//! extra port ([`cell`]), and check bits stored with the data
//! ([`calib::Calib::ecc_bits_per_data_bit`], one per byte as in CACTI's default configuration).
//! Inside a bank the row address is distributed to every mat, and an access switches only its
//! own port's address and data tree; between banks one bus tree reaches every bank, carrying a
//! data-out bus per reading port and a data-in bus per writing port (a read-write port has
//! both), its per-access energy the path from the bank to the port with all reading (writing)
//! ports' data buses driven.
//!
//! # Calibration
//! A handful of global factors ([`calib::Calib`], `models/data/sram_calib.toml`) scale
//! component classes (periphery area, routing pitch, array and routing delay, array, bitline,
//! bank-routing, address-distribution and inter-bank routing energy, per-flavour energy,
//! periphery and routing leakage). They are fitted by code ([`fit::fit_planar`],
//! `cargo run --release -p models --example sram_fit -- --write`) to the CACTI 7 results in
//! `shared/reference/cacti7_train.csv`, once on all rows and once on a training split, and the
//! fit writes the measured accuracy (all rows; held-out rows with the training-split factors)
//! into the same file ([`recorded_accuracy`]). The accuracy test (`tests/sram_cacti.rs`)
//! re-measures both and fails if the recorded figures are stale.
//!
//! # FinFET / near threshold
//! `finfet7` runs the same structure with the same structural factors as the planar nodes
//! (fitted to CACTI), on the FinFET device, 8T cell and wire data of `techlib`. Three scalars
//! are fitted ([`fit::fit_finfet`]) to the MRF/SRF register-file rows: a leakage multiplier, a
//! dynamic-energy multiplier (the structure alone lands within about 15 % of the MRF energy;
//! that error is recorded too) and the energy of the level shifters that lift the read data of
//! an array running below the node's nominal supply to the nominal-supply datapath
//! ([`calib::Calib::level_shift_j_per_bit`]). That per-bit term, absent at nominal supply, is
//! the mechanism that makes E/V² of the near-threshold array larger than at super-threshold.
//!
//! # Lane-sliced banked storage
//! A GPU register file is not one array with a 128-byte bus: every SIMT lane owns a 4-byte
//! slice of each bank next to its datapath, so a warp-wide access reads one small bank slice per
//! lane and no wire crosses the whole structure (Gebhart et al., "Energy-efficient mechanisms
//! for managing thread context in throughput processors", ISCA 2011, model the main register
//! file the same way). [`evaluate_sliced`] models `lanes` such slices: each slice is a banked
//! array of `capacity / lanes` bytes read `block / lanes` bytes at a time, with its own
//! bank-to-port routing scaling with the slice footprint; area, energy per access and leakage
//! are the slice's times the lane count.
//!
//! # One physical design per run
//! The organisation is chosen at a design point ([`SramTech::design`]: the node's nominal
//! supply, back gates tied, unless [`sram_tech_designed_at`] names another design supply) and
//! then evaluated at the operating point: area never depends on the operating supply.
//!
//! Longer than 600 lines: the public API (specification, result, errors, organisation search
//! and lane slicing) with its documentation; the circuit models are in the submodules.

mod array;
pub use array::level_shift_gap as array_level_shift_gap;
pub mod bitline;
pub mod calib;
pub mod cell;
pub mod circuit;
pub mod decoder;
pub mod fit;
pub mod htree;
pub mod organisation;
pub mod reference;
pub mod tech;
mod techlib_bridge;

pub use calib::{recorded_accuracy, AccuracySplit, SramAccuracy};
pub use cell::Ports;
pub use organisation::Organisation;
pub use tech::{CellParams, DeviceParams, SramTech, WireParams};
pub use techlib_bridge::{
    is_finfet_node, sram_tech, sram_tech_designed_at, BackGate, Flavour, TechRequest,
};

use serde::{Deserialize, Serialize};

/// Bit-cell type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CellKind {
    /// Six-transistor cell, differential read and write through the same ports.
    SixT,
    /// Eight-transistor cell: 6T write port plus a decoupled single-ended read stack.
    EightT,
}

/// What the organisation search minimises.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Objective {
    /// Minimise `(t/t_min)² · (E/E_min)` among organisations whose access time is within
    /// `max_delay_deviation` of the fastest (CACTI's "ED^2" mode). Default, deviation 0.2.
    EnergyDelaySquared {
        /// Largest accepted access time as a fraction above the fastest organisation's.
        max_delay_deviation: f64,
    },
    /// Minimise the weighted sum of normalised access time, read energy, leakage, area and
    /// cycle time among organisations within `max_delay_deviation` of the fastest.
    Weighted {
        /// Weight of access time over the fastest candidate's.
        delay: f64,
        /// Weight of read energy over the lowest candidate's.
        dynamic: f64,
        /// Weight of leakage power over the lowest candidate's.
        leakage: f64,
        /// Weight of area over the smallest candidate's.
        area: f64,
        /// Weight of cycle time over the shortest candidate's.
        cycle: f64,
        /// Largest accepted access time as a fraction above the fastest organisation's.
        max_delay_deviation: f64,
    },
}

impl Default for Objective {
    fn default() -> Self {
        Objective::EnergyDelaySquared {
            max_delay_deviation: 0.2,
        }
    }
}

/// An SRAM array to model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SramSpec {
    /// Total capacity of data bits in bytes, all banks (check bits come on top).
    pub capacity_bytes: u64,
    /// Bytes per access (one row of the logical array). Power of two.
    pub block_bytes: u64,
    /// Read-write ports (each reads or writes one block per access).
    pub rw_ports: u32,
    /// Read-only ports (single-ended read bitline on an 8T cell).
    pub read_ports: u32,
    /// Write-only ports.
    pub write_ports: u32,
    /// Independent banks, each `capacity_bytes / banks` (any positive count).
    pub banks: u32,
    /// Bit-cell type.
    pub cell: CellKind,
    /// What the organisation search minimises.
    pub objective: Objective,
}

impl SramSpec {
    /// A single-bank, one read-write-port 6T array.
    pub fn new(capacity_bytes: u64, block_bytes: u64) -> Self {
        SramSpec {
            capacity_bytes,
            block_bytes,
            rw_ports: 1,
            read_ports: 0,
            write_ports: 0,
            banks: 1,
            cell: CellKind::SixT,
            objective: Objective::default(),
        }
    }
}

/// Area, energy, leakage and delay of one component class (all banks for area and leakage;
/// one access for energy; its share of the access path for delay).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct ComponentCost {
    /// Layout area, all banks (m²).
    pub area_m2: f64,
    /// Energy this component spends in one read access (J).
    pub read_energy_j: f64,
    /// Energy this component spends in one write access (J).
    pub write_energy_j: f64,
    /// Subthreshold + gate leakage, all banks (W).
    pub leakage_w: f64,
    /// The gate-leakage part (W).
    pub gate_leakage_w: f64,
    /// This component's share of the access time (s).
    pub delay_s: f64,
}

/// Per-component breakdown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Breakdown {
    /// Row predecoders and decoders (excluding the wordline driver's wire delay).
    pub decoder: ComponentCost,
    /// Wordline charging by its driver (energy and delay; area sits with the decoder).
    pub wordline: ComponentCost,
    /// Bitline swing, precharge and write drivers.
    pub bitline: ComponentCost,
    /// Sense amplifiers (read only).
    pub sense_amp: ComponentCost,
    /// Column multiplexers.
    pub mux: ComponentCost,
    /// H-trees inside and between banks, address distribution, bank-edge latches and
    /// near-threshold level shifters; its area is what the other classes leave of the total.
    pub routing: ComponentCost,
    /// The bit cells themselves (area and leakage).
    pub cells: ComponentCost,
}

/// Result of modelling one array (SI units).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SramResult {
    /// Footprint of all banks including inter-bank routing (m²), at the design point.
    pub area_m2: f64,
    /// Height of the footprint (m).
    pub height_m: f64,
    /// Width of the footprint (m).
    pub width_m: f64,
    /// Random access time: address in at the port to data out at the port (s).
    pub access_time_s: f64,
    /// Shortest time between accesses to one bank: the slower of the decode and the
    /// wordline–bitline–sense–precharge path, or half the routing delay (s).
    pub cycle_time_s: f64,
    /// Energy of one read (one bank, one port, including routing to it) (J).
    pub read_energy_j: f64,
    /// Energy of one write (one bank, one port, including routing to it) (J).
    pub write_energy_j: f64,
    /// Subthreshold + gate leakage of all banks (W).
    pub leakage_w: f64,
    /// Subthreshold + gate leakage of one bank with the top-level routing to it (W): CACTI's
    /// per-bank figure, which the CACTI comparisons use. The banks share one top-level route,
    /// so `leakage_w` = banks × (`leakage_bank_w` − `leakage_top_route_w`) +
    /// `leakage_top_route_w`, not banks × `leakage_bank_w`.
    pub leakage_bank_w: f64,
    /// Subthreshold + gate leakage of the top-level routing the banks share (W), counted once
    /// in `leakage_w` and in every bank's `leakage_bank_w`.
    pub leakage_top_route_w: f64,
    /// Gate-leakage part of one bank's leakage (W).
    pub gate_leakage_bank_w: f64,
    /// The chosen subarray organisation.
    pub organisation: Organisation,
    /// Per-component split of area, energies, leakage and delay.
    pub breakdown: Breakdown,
}

/// Invalid model input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SramError {
    /// `capacity_bytes` is zero.
    #[error("capacity must be positive")]
    ZeroCapacity,
    /// `block_bytes` is zero.
    #[error("block size must be positive")]
    ZeroBlock,
    /// `block_bytes` is not a power of two.
    #[error("block size {block} bytes must be a power of two")]
    BlockNotPowerOfTwo {
        /// The offending block size in bytes.
        block: u64,
    },
    /// One block does not fit in one bank.
    #[error("block size {block} bytes is larger than the capacity per bank {per_bank} bytes")]
    BlockLargerThanBank {
        /// Block size in bytes.
        block: u64,
        /// Capacity of one bank in bytes.
        per_bank: u64,
    },
    /// The capacity is not a whole number of blocks.
    #[error("capacity {capacity} bytes is not a multiple of the block size {block} bytes")]
    CapacityNotMultipleOfBlock {
        /// Capacity in bytes.
        capacity: u64,
        /// Block size in bytes.
        block: u64,
    },
    /// `banks` is zero.
    #[error("bank count must be positive")]
    ZeroBanks,
    /// All three port counts are zero.
    #[error("the array needs at least one port")]
    NoPorts,
    /// No port can read, or none can write.
    #[error("the array needs a port that can read and one that can write")]
    NoReadOrWritePort,
    /// A numeric input lies outside what the model supports.
    #[error("{what} = {value} is out of the supported range ({range})")]
    OutOfRange {
        /// Name of the input.
        what: &'static str,
        /// The value given.
        value: f64,
        /// The allowed range, in words.
        range: &'static str,
    },
    /// The lane count of a sliced structure does not divide its block or capacity.
    #[error(
        "{lanes} lanes must divide the block ({block} bytes) and the capacity ({capacity} bytes)"
    )]
    LanesDontDivide {
        /// Lane (slice) count.
        lanes: u32,
        /// Block size in bytes.
        block: u64,
        /// Capacity in bytes.
        capacity: u64,
    },
    /// The technology could not be built, or its parameters gave a non-finite result.
    #[error("technology: {0}")]
    Tech(String),
}

/// Check a spec without modelling it.
pub fn validate(spec: &SramSpec) -> Result<(), SramError> {
    if spec.capacity_bytes == 0 {
        return Err(SramError::ZeroCapacity);
    }
    if spec.block_bytes == 0 {
        return Err(SramError::ZeroBlock);
    }
    if !spec.block_bytes.is_power_of_two() {
        return Err(SramError::BlockNotPowerOfTwo {
            block: spec.block_bytes,
        });
    }
    if spec.banks == 0 {
        return Err(SramError::ZeroBanks);
    }
    if !spec.capacity_bytes.is_multiple_of(spec.block_bytes) {
        return Err(SramError::CapacityNotMultipleOfBlock {
            capacity: spec.capacity_bytes,
            block: spec.block_bytes,
        });
    }
    let per_bank = spec.capacity_bytes / spec.banks as u64;
    if spec.block_bytes > per_bank {
        return Err(SramError::BlockLargerThanBank {
            block: spec.block_bytes,
            per_bank,
        });
    }
    let ports = spec.rw_ports + spec.read_ports + spec.write_ports;
    if ports == 0 {
        return Err(SramError::NoPorts);
    }
    if spec.rw_ports + spec.read_ports == 0 || spec.rw_ports + spec.write_ports == 0 {
        return Err(SramError::NoReadOrWritePort);
    }
    if ports > 32 {
        return Err(SramError::OutOfRange {
            what: "ports",
            value: ports as f64,
            range: "1..=32",
        });
    }
    if spec.banks > 4096 {
        return Err(SramError::OutOfRange {
            what: "banks",
            value: spec.banks as f64,
            range: "1..=4096",
        });
    }
    if spec.capacity_bytes > (1u64 << 36) {
        return Err(SramError::OutOfRange {
            what: "capacity_bytes",
            value: spec.capacity_bytes as f64,
            range: "up to 64 GiB",
        });
    }
    if spec.block_bytes > 4096 {
        return Err(SramError::OutOfRange {
            what: "block_bytes",
            value: spec.block_bytes as f64,
            range: "up to 4096",
        });
    }
    let dev = match spec.objective {
        Objective::EnergyDelaySquared {
            max_delay_deviation,
        } => max_delay_deviation,
        Objective::Weighted {
            delay,
            dynamic,
            leakage,
            area,
            cycle,
            max_delay_deviation,
        } => {
            for w in [delay, dynamic, leakage, area, cycle] {
                if !(w.is_finite() && w >= 0.0) {
                    return Err(SramError::OutOfRange {
                        what: "objective weight",
                        value: w,
                        range: "finite, >= 0",
                    });
                }
            }
            max_delay_deviation
        }
    };
    if !(dev.is_finite() && dev >= 0.0) {
        return Err(SramError::OutOfRange {
            what: "max_delay_deviation",
            value: dev,
            range: "finite, >= 0",
        });
    }
    Ok(())
}

/// Model `spec` in technology `tech` with the embedded calibration (planar, or planar plus the
/// FinFET scalars).
pub fn evaluate(spec: &SramSpec, tech: &SramTech) -> Result<SramResult, SramError> {
    evaluate_with(spec, tech, &calib::for_tech(tech))
}

/// Model `spec` with explicit calibration factors (used by the fitting routine).
///
/// The organisation is searched at the technology's design point ([`SramTech::design`]) and
/// the chosen organisation is then evaluated at the operating point; area, height, width and the
/// per-component areas are those of the design (they never depend on the operating supply).
pub fn evaluate_with(
    spec: &SramSpec,
    tech: &SramTech,
    calib: &calib::Calib,
) -> Result<SramResult, SramError> {
    let design = tech.design_tech();
    let results = evaluate_all(spec, design, calib)?;
    let best = select(&results, &spec.objective);
    let d = results[best];
    let r = if std::ptr::eq(design, tech) {
        d
    } else {
        let mut r = evaluate_one(spec, tech, calib, &d.organisation)?;
        r.area_m2 = d.area_m2;
        r.height_m = d.height_m;
        r.width_m = d.width_m;
        let b = &mut r.breakdown;
        let db = &d.breakdown;
        b.decoder.area_m2 = db.decoder.area_m2;
        b.wordline.area_m2 = db.wordline.area_m2;
        b.bitline.area_m2 = db.bitline.area_m2;
        b.sense_amp.area_m2 = db.sense_amp.area_m2;
        b.mux.area_m2 = db.mux.area_m2;
        b.routing.area_m2 = db.routing.area_m2;
        b.cells.area_m2 = db.cells.area_m2;
        r
    };
    check_finite(&r)?;
    Ok(r)
}

/// Check a lane count for [`evaluate_sliced`].
pub fn validate_lanes(spec: &SramSpec, lanes: u32) -> Result<(), SramError> {
    if lanes == 0 || lanes > 1024 {
        return Err(SramError::OutOfRange {
            what: "lanes",
            value: lanes as f64,
            range: "1..=1024",
        });
    }
    let l = lanes as u64;
    if !spec.block_bytes.is_multiple_of(l) || !spec.capacity_bytes.is_multiple_of(l) {
        return Err(SramError::LanesDontDivide {
            lanes,
            block: spec.block_bytes,
            capacity: spec.capacity_bytes,
        });
    }
    Ok(())
}

/// The spec of one lane slice of `spec` split into `lanes` slices.
pub fn lane_slice(spec: &SramSpec, lanes: u32) -> SramSpec {
    let l = lanes.max(1) as u64;
    SramSpec {
        capacity_bytes: spec.capacity_bytes / l,
        block_bytes: spec.block_bytes / l,
        ..spec.clone()
    }
}

/// Model a lane-sliced banked structure (module doc): `lanes` independent slices side by side,
/// each a banked array of `capacity / lanes` bytes accessed `block / lanes` bytes at a time; one
/// access reads or writes every slice. Area, energies, leakage (and the breakdown) are the
/// slice's times `lanes`; timing is the slice's. `lanes = 1` is [`evaluate`].
pub fn evaluate_sliced(
    spec: &SramSpec,
    lanes: u32,
    tech: &SramTech,
) -> Result<SramResult, SramError> {
    evaluate_sliced_with(spec, lanes, tech, &calib::for_tech(tech))
}

/// [`evaluate_sliced`] with explicit calibration factors.
pub fn evaluate_sliced_with(
    spec: &SramSpec,
    lanes: u32,
    tech: &SramTech,
    calib: &calib::Calib,
) -> Result<SramResult, SramError> {
    validate(spec)?;
    validate_lanes(spec, lanes)?;
    let slice = lane_slice(spec, lanes);
    let r = evaluate_with(&slice, tech, calib)?;
    Ok(scale_result(&r, lanes as f64))
}

fn scale_result(r: &SramResult, k: f64) -> SramResult {
    let sc = |c: &ComponentCost| ComponentCost {
        area_m2: c.area_m2 * k,
        read_energy_j: c.read_energy_j * k,
        write_energy_j: c.write_energy_j * k,
        leakage_w: c.leakage_w * k,
        gate_leakage_w: c.gate_leakage_w * k,
        delay_s: c.delay_s,
    };
    let b = &r.breakdown;
    SramResult {
        area_m2: r.area_m2 * k,
        height_m: r.height_m,
        width_m: r.width_m * k,
        access_time_s: r.access_time_s,
        cycle_time_s: r.cycle_time_s,
        read_energy_j: r.read_energy_j * k,
        write_energy_j: r.write_energy_j * k,
        leakage_w: r.leakage_w * k,
        leakage_bank_w: r.leakage_bank_w * k,
        leakage_top_route_w: r.leakage_top_route_w * k,
        gate_leakage_bank_w: r.gate_leakage_bank_w * k,
        organisation: r.organisation,
        breakdown: Breakdown {
            decoder: sc(&b.decoder),
            wordline: sc(&b.wordline),
            bitline: sc(&b.bitline),
            sense_amp: sc(&b.sense_amp),
            mux: sc(&b.mux),
            routing: sc(&b.routing),
            cells: sc(&b.cells),
        },
    }
}

/// Evaluate one given organisation.
pub fn evaluate_one(
    spec: &SramSpec,
    tech: &SramTech,
    calib: &calib::Calib,
    o: &Organisation,
) -> Result<SramResult, SramError> {
    validate(spec)?;
    let prep = prepare(spec, tech, calib);
    let dec = array::subarray_decoder(&prep, o.rows, o.cols);
    Ok(array::evaluate(&prep, o, &dec))
}

fn prepare<'a>(spec: &SramSpec, tech: &'a SramTech, calib: &'a calib::Calib) -> array::Prep<'a> {
    let ports = Ports {
        rw: spec.rw_ports,
        rd: spec.read_ports,
        wr: spec.write_ports,
    };
    array::Prep {
        tech,
        cell: cell::cell_figures(tech, spec.cell, ports),
        ports,
        word_bits: spec.block_bytes * 8,
        bank_bits: (spec.capacity_bytes * 8).div_ceil(spec.banks as u64),
        banks: spec.banks,
        // repeaters are sized on the design point's devices (one layout)
        rep_semi: circuit::repeated_wire_designed(
            tech,
            &tech.periph,
            &tech.wire_semi,
            tech.design_tech(),
            &tech.design_tech().periph,
        ),
        rep_global: circuit::repeated_wire_designed(
            tech,
            &tech.periph,
            &tech.wire_global,
            tech.design_tech(),
            &tech.design_tech().periph,
        ),
        calib,
    }
}

/// Every organisation the search considers, each fully evaluated (design-space exploration).
pub fn evaluate_all(
    spec: &SramSpec,
    tech: &SramTech,
    calib: &calib::Calib,
) -> Result<Vec<SramResult>, SramError> {
    validate(spec)?;
    let prep = prepare(spec, tech, calib);
    let mut orgs = Vec::with_capacity(256);
    organisation::candidates(prep.bank_bits, prep.word_bits, &mut orgs);
    // the decoder depends only on the subarray's rows and columns: build each once
    let mut decs: Vec<((u32, u32), decoder::DecoderCost)> = Vec::with_capacity(64);
    let mut results: Vec<SramResult> = Vec::with_capacity(orgs.len());
    for o in &orgs {
        let key = (o.rows, o.cols);
        let dec = match decs.iter().find(|(k, _)| *k == key) {
            Some((_, d)) => *d,
            None => {
                let d = array::subarray_decoder(&prep, o.rows, o.cols);
                decs.push((key, d));
                d
            }
        };
        results.push(array::evaluate(&prep, o, &dec));
    }
    Ok(results)
}

fn check_finite(r: &SramResult) -> Result<(), SramError> {
    let vals = [
        r.area_m2,
        r.access_time_s,
        r.cycle_time_s,
        r.read_energy_j,
        r.write_energy_j,
        r.leakage_w,
    ];
    if vals.iter().all(|v| v.is_finite() && *v >= 0.0) {
        Ok(())
    } else {
        Err(SramError::Tech(
            "technology parameters produced a non-finite or negative result".into(),
        ))
    }
}

/// Index of the organisation minimising the objective (ties: first, i.e. deterministic).
fn select(results: &[SramResult], obj: &Objective) -> usize {
    let min_of =
        |f: &dyn Fn(&SramResult) -> f64| results.iter().map(f).fold(f64::INFINITY, f64::min);
    let t_min = min_of(&|r| r.access_time_s).max(1e-30);
    let dev = match obj {
        Objective::EnergyDelaySquared {
            max_delay_deviation,
        } => *max_delay_deviation,
        Objective::Weighted {
            max_delay_deviation,
            ..
        } => *max_delay_deviation,
    };
    let ok = |r: &SramResult| r.access_time_s <= t_min * (1.0 + dev) * (1.0 + 1e-12);
    let e_min = min_of(&|r| r.read_energy_j).max(1e-30);
    let l_min = min_of(&|r| r.leakage_w).max(1e-30);
    let a_min = min_of(&|r| r.area_m2).max(1e-30);
    let c_min = min_of(&|r| r.cycle_time_s).max(1e-30);
    let mut best = 0usize;
    let mut best_cost = f64::INFINITY;
    for (i, r) in results.iter().enumerate() {
        if !ok(r) {
            continue;
        }
        let cost = match obj {
            Objective::EnergyDelaySquared { .. } => {
                let d = r.access_time_s / t_min;
                d * d * (r.read_energy_j / e_min)
            }
            Objective::Weighted {
                delay,
                dynamic,
                leakage,
                area,
                cycle,
                ..
            } => {
                delay * r.access_time_s / t_min
                    + dynamic * r.read_energy_j / e_min
                    + leakage * r.leakage_w / l_min
                    + area * r.area_m2 / a_min
                    + cycle * r.cycle_time_s / c_min
            }
        };
        if cost < best_cost {
            best_cost = cost;
            best = i;
        }
    }
    best
}
