//! The register-file techniques in an estimate (register-file spec §8, §9): a run with a
//! registered register-file technique ([`models::rf::TECHNIQUES`]), the partitioned RF or the
//! RF cache on is costed with the §8 accounting of [`models::rf::accounting`] — its activity
//! mapped by [`models::rf::counts`], its structures evaluated by [`models::rf::structures`] at
//! the chip model's technology point (the MRF is the chip's own register file, bus included),
//! each technique evaluated by its own [`models::rf::technique::RfTechniqueTerms`] — and the
//! result replaces the register-file leaf of the [`Estimate`] tree.
//!
//! # In the tree
//! Inside each "register file" group, the "register file" leaf gives way to one leaf per
//! structure with entries (`MRF`, `FRF`, `SRF`, `RFC`) carrying the §8 dynamic energy and
//! per-state leakage, and to one leaf per added structure (those of the registered techniques,
//! [`models::rf::technique::AddedPart`], then swap-table CAMs, pilot counters and sort, epoch
//! counter, back-gate line and mode buffers, RFC tag CAM, partition migration) with its area,
//! event energy and leakage. Two adjustments keep the tree's conventions:
//! - the operand crossbar leaf already charges the bank-to-collector bus per operand read, so
//!   the structure leaves carry their §8 dynamic energy less the read bus (`Σφ_rd × E_bus`);
//! - the tree charges an SM's leakage only while it is powered ([`models::gpu::IdleSms`]), so
//!   every §8 leakage (which spans the whole run on every SM) is scaled by the register-file
//!   leaf's powered share `leakage_j / (leakage_w × runtime)`.
//!
//! With no technique on, the tree is left untouched.
//!
//! # Savings
//! [`RfCost`] (the `rf` field of a run) holds the §8 numbers of the run; [`plain_energy`] is the
//! §8 energy of a plain MRF for a run without a technique (the baseline of a comparison), on
//! the same structures, so that a variant with every technique off saves exactly zero.

use models::gpu::{ChipModel, Estimate, Node, Part, Source};
use models::rf::accounting::{
    account, apply_paper_row, phi_sum, AccountingKnobs, MrfRegion, RfCounts, RfEnergy,
    RfEnergyModel, Techniques,
};
use models::rf::counts::counts_from_activity;
use models::rf::structures::{evaluate, RfDesign, RfStructures};
use models::rf::technique::{accounting_order, RfTechniqueModel};
use models::rf::RfError;
use models::rf::{EnergyCalibration, EnergySection, TECHNIQUES};
use models::technique::Edit;
use serde::Serialize;
use sim::activity::KernelActivity;
use sim::config::GpuConfig;

/// One added structure (or the partition's migration traffic) in a run.
#[derive(Clone, Debug, Serialize)]
pub struct AddedStructure {
    /// Name, as its estimate leaf.
    pub name: String,
    /// Area on the chip (all SMs), m².
    pub area_m2: f64,
    /// Event energy over the run, J.
    pub dynamic_j: f64,
    /// Leakage energy over the run (every SM, the whole run), J.
    pub leakage_j: f64,
}

/// Shares of the partitioned RF's accesses (reads and writes) per structure and mode (§9).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct AccessSplit {
    /// FRF accesses in FRF_high.
    pub frf_high: f64,
    /// FRF accesses in FRF_low.
    pub frf_low: f64,
    /// SRF accesses.
    pub srf: f64,
}

/// The §8 cost of a run's register file under its techniques.
#[derive(Clone, Debug, Serialize)]
pub struct RfCost {
    /// The techniques costed: the registered ones the run uses (their names, in registration
    /// order), then `partitioned`, `adaptive_frf`, `rfc`.
    pub techniques: Vec<String>,
    /// The run's §8 energy: per structure, dynamic, leakage, overheads, total.
    pub energy: RfEnergy,
    /// ρ_DROWSY used (1 without a technique that keeps entries in power states).
    pub rho_drowsy: f64,
    /// The fixed fraction of a lane-gated access used (0 without one).
    pub fixed_fraction: f64,
    /// Register-file area on the chip: the structures with entries plus every added
    /// structure, mm².
    pub rf_area_mm2: f64,
    /// The added structures.
    pub added: Vec<AddedStructure>,
    /// Access shares of the partitioned RF; absent without the partition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access_split: Option<AccessSplit>,
}

/// Whether `cfg` runs a register-file technique that the §8 accounting costs.
pub fn technique_on(cfg: &GpuConfig) -> bool {
    TECHNIQUES.iter().any(|t| t.enabled(cfg))
        || cfg.prf.enabled
        || cfg.afrf.enabled
        || cfg.rfc.enabled
        || cfg.mrf != sim::config::prf::MrfSection::default()
}

fn non_mrf(c: &RfCounts) -> bool {
    [c.frf_high, c.frf_low, c.srf, c.rfc]
        .iter()
        .any(|a| a.rd.accesses + a.wr.accesses > 0)
}

/// The register file of `cfg` at the chip's technology point (`tech`, the chip's supply and
/// clock), with the accounting's switches `energy`.
fn design(
    cfg: &GpuConfig,
    energy: &EnergySection,
    tech: &techlib::ResolvedPoint,
    chip: &ChipModel,
) -> Result<RfDesign, RfError> {
    Ok(RfDesign::from_config(
        cfg,
        energy,
        tech.node(),
        tech.flavour(),
        chip.vdd_v,
        tech.temperature_k(),
        chip.core_clock_hz,
    ))
}

/// Units of power-state residency per entry in the run's record: the most any registered
/// technique asks for (1 unless states are kept per entry lane).
fn units_per_entry(cfg: &GpuConfig, d: &RfDesign) -> u64 {
    TECHNIQUES
        .iter()
        .map(|t| t.units_per_entry(cfg, d))
        .max()
        .unwrap_or(1)
}

/// `energy.calibration = "paper_rows"`: the MRF and SRF from the finfet7 reference rows
/// ([`apply_paper_row`], refused for another geometry); `"model"` leaves `m` as it is.
fn calibrated(
    cfg: &GpuConfig,
    energy: &EnergySection,
    m: &mut RfEnergyModel,
) -> Result<(), RfError> {
    if energy.calibration == EnergyCalibration::PaperRows {
        let rows = models::sram::fit::RF_POINTS;
        let eb = cfg.rf.entry_bytes.max(1);
        if m.mrf.entries > 0 {
            apply_paper_row(&mut m.mrf, eb, &rows[0])?;
        }
        if m.srf.entries > 0 {
            apply_paper_row(&mut m.srf, eb, &rows[1])?;
        }
    }
    Ok(())
}

/// The §8 energy of a plain MRF (no technique) for the run `k` of `cfg` at the chip's point,
/// accounted with the switches `energy`: the baseline a comparison measures savings against.
pub fn plain_energy(
    cfg: &GpuConfig,
    energy: &EnergySection,
    tech: &techlib::ResolvedPoint,
    chip: &ChipModel,
    k: &KernelActivity,
) -> Result<RfEnergy, RfError> {
    let d = design(cfg, energy, tech, chip)?;
    let s = evaluate(
        &RfDesign {
            partitioned: false,
            adaptive_frf: false,
            rfc: None,
            ..d.clone()
        },
        None,
    )?;
    let mut m = RfEnergyModel::from_structures(&s, &Techniques::plain(MrfRegion::Stv, d.banks))?;
    calibrated(cfg, energy, &mut m)?;
    let mut c = counts_from_activity(k, chip.core_clock_hz);
    c.mrf_states.residency = None;
    account(&c, &m.replicated(chip.n_sm as u64, 1))
}

/// A costed run with what the estimate's edit needs besides the record.
struct Costed {
    rf: RfCost,
    knobs: AccountingKnobs,
    counts: RfCounts,
    structures: RfStructures,
}

/// Costs the run `k` of `cfg` under its register-file techniques, accounted with the switches
/// `energy`; `None` when none is on. `overlay` calibrates the control structures.
pub fn cost_run(
    cfg: &GpuConfig,
    energy: &EnergySection,
    tech: &techlib::ResolvedPoint,
    chip: &ChipModel,
    k: &KernelActivity,
    overlay: Option<&models::overlay::Overlay>,
) -> Result<Option<RfCost>, RfError> {
    Ok(cost(cfg, energy, tech, chip, k, overlay)?.map(|c| c.rf))
}

fn cost(
    cfg: &GpuConfig,
    energy: &EnergySection,
    tech: &techlib::ResolvedPoint,
    chip: &ChipModel,
    k: &KernelActivity,
    overlay: Option<&models::overlay::Overlay>,
) -> Result<Option<Costed>, RfError> {
    let c = counts_from_activity(k, chip.core_clock_hz);
    if !technique_on(cfg) && !non_mrf(&c) {
        return Ok(None);
    }
    for t in TECHNIQUES {
        t.check(cfg)?;
    }
    let d = design(cfg, energy, tech, chip)?;
    let s = evaluate(&d, overlay)?;
    let partitioned = d.partitioned || c.frf_high.rd.accesses + c.srf.rd.accesses > 0;
    let models: Vec<RfTechniqueModel> = accounting_order()
        .filter(|t| t.enabled(cfg))
        .map(|t| t.model(cfg, &d, &s, overlay))
        .collect::<Result<_, _>>()?;
    let region = match cfg.mrf.region {
        sim::config::prf::MrfRegion::Stv => MrfRegion::Stv,
        sim::config::prf::MrfRegion::Ntv => MrfRegion::Ntv,
    };
    let t = Techniques {
        mrf_region: region,
        techniques: &models,
        partitioned,
        adaptive: d.adaptive_frf,
        rfc: d.rfc.is_some(),
        banks: d.banks,
        epoch_cycles: d.epoch_cycles,
    };
    let mut m = RfEnergyModel::from_structures(&s, &t)?;
    calibrated(cfg, energy, &mut m)?;
    let n_sm = chip.n_sm as u64;
    let mm = m.replicated(n_sm, units_per_entry(cfg, &d));
    let energy = account(&c, &mm)?;
    let mut techniques: Vec<String> = TECHNIQUES
        .iter()
        .filter(|t| t.enabled(cfg))
        .map(|t| t.name().to_string())
        .collect();
    for (on, name) in [
        (partitioned, "partitioned"),
        (d.adaptive_frf, "adaptive_frf"),
        (d.rfc.is_some(), "rfc"),
    ] {
        if on {
            techniques.push(name.to_string());
        }
    }
    let added = added_structures(&s, &models, &energy, n_sm as f64);
    let n = n_sm as f64;
    let mut area = 0.0;
    if m.mrf.entries > 0 {
        let a = match region {
            MrfRegion::Stv => s.mrf_stv.area_m2,
            MrfRegion::Ntv => s.mrf_ntv.as_ref().map_or(0.0, |a| a.area_m2),
        };
        area += a * n;
    }
    if partitioned {
        area += s.frf_high.as_ref().map_or(0.0, |a| a.area_m2) * n;
        area += s.srf.as_ref().map_or(0.0, |a| a.area_m2) * n;
    }
    if let Some(r) = &s.rfc {
        area += r.array.area_m2 * n;
    }
    area += added.iter().map(|a| a.area_m2).sum::<f64>();
    let access_split = partitioned.then(|| {
        let tot = |a: &models::rf::accounting::AccessCounts| (a.rd.accesses + a.wr.accesses) as f64;
        let (h, l, r) = (tot(&c.frf_high), tot(&c.frf_low), tot(&c.srf));
        let sum = (h + l + r).max(1.0);
        AccessSplit {
            frf_high: h / sum,
            frf_low: l / sum,
            srf: r / sum,
        }
    });
    Ok(Some(Costed {
        rf: RfCost {
            techniques,
            rho_drowsy: mm.knobs.rho_drowsy,
            fixed_fraction: mm.knobs.fixed_fraction,
            rf_area_mm2: area * 1e6,
            added,
            access_split,
            energy,
        },
        knobs: mm.knobs,
        counts: c,
        structures: s,
    }))
}

fn term(e: &RfEnergy, name: &str) -> f64 {
    e.overhead_terms
        .iter()
        .filter(|(n, _)| n == name)
        .fold(0.0, |a, x| a + x.1)
}

/// The added structures of a run (module doc): those of the techniques `models` in their
/// order, then those of the partitioned RF, the adaptive FRF and the RF cache; area over
/// `n_sm` SMs.
fn added_structures(
    s: &RfStructures,
    models: &[RfTechniqueModel],
    e: &RfEnergy,
    n_sm: f64,
) -> Vec<AddedStructure> {
    let mut v = Vec::new();
    let mut push = |name: &str, area_m2: f64, dyn_terms: &[&str], leak: &str| {
        v.push(AddedStructure {
            name: name.to_string(),
            area_m2: area_m2 * n_sm,
            dynamic_j: dyn_terms.iter().fold(0.0, |a, t| a + term(e, t)),
            leakage_j: term(e, &format!("{leak} leakage")),
        });
    };
    for p in models.iter().flat_map(|m| &m.added) {
        push(p.name, p.area_m2, p.dyn_terms, p.leakage.unwrap_or(""));
    }
    if let Some(c) = &s.swap_cam {
        push(
            "swap-table CAMs",
            c.area_m2,
            &["swap-table lookups", "swap-table writes"],
            "swap-table CAMs",
        );
    }
    if let Some(c) = &s.pilot_counters {
        push(
            "pilot counters",
            c.area_m2,
            &["pilot-counter increments", "counter sorts"],
            "pilot counters",
        );
        push("partition migration", 0.0, &["migration"], "");
    }
    if let Some(c) = &s.epoch_counter {
        push(
            "epoch counter",
            c.area_m2,
            &["epoch detector"],
            "epoch counter",
        );
    }
    if let Some(b) = &s.back_gate {
        push(
            "back-gate line and mode buffers",
            b.wiring_area_m2 + b.buffer_area_m2,
            &["mode switches"],
            "back-gate mode buffers",
        );
    }
    if let Some(r) = &s.rfc {
        push(
            "RFC tag CAM",
            r.tag_cam.area_m2,
            &["RFC tag checks"],
            "RFC tag CAM",
        );
    }
    v
}

/// The edit that replaces the register-file leaf (in every SM's register-file group) with the
/// structures and added structures of `rf` (module doc). `bus_read_j` is the read bus energy
/// `Σφ_rd × E_bus` of each structure (MRF, FRF, SRF, RFC order), already charged by the operand
/// crossbar; `runtime_s` is the run's.
fn edit(rf: &RfCost, areas_m2: [f64; 4], bus_read_j: [f64; 4], runtime_s: f64) -> Edit {
    let rf = rf.clone();
    Edit::Replace {
        part: Part::RegisterFile,
        with: Box::new(move |old: &Node| {
            let full = old.leakage_w * runtime_s;
            let powered = if full > 0.0 {
                old.leakage_j / full
            } else {
                1.0
            };
            let per_s = |j: f64| if runtime_s > 0.0 { j / runtime_s } else { 0.0 };
            let mut leaves = Vec::new();
            for (k, st) in rf.energy.structures.iter().enumerate() {
                let leak = st.leak_array_j + st.leak_periph_j;
                if areas_m2[k] <= 0.0 && st.dyn_j <= 0.0 && leak <= 0.0 {
                    continue;
                }
                leaves.push(Node {
                    name: st.name.to_string(),
                    source: old.source.clone(),
                    instances: old.instances,
                    area_m2: areas_m2[k],
                    dynamic_j: (st.dyn_j - bus_read_j[k]).max(0.0),
                    leakage_j: leak * powered,
                    leakage_w: per_s(leak),
                    ..Node::default()
                });
            }
            for a in &rf.added {
                leaves.push(Node {
                    name: a.name.clone(),
                    source: Source::Analytical,
                    instances: old.instances,
                    area_m2: a.area_m2,
                    dynamic_j: a.dynamic_j,
                    leakage_j: a.leakage_j * powered,
                    leakage_w: per_s(a.leakage_j),
                    ..Node::default()
                });
            }
            leaves
        }),
    }
}

/// Costs the run `k` of `cfg` under its register-file techniques: the §8 record and the edit
/// that puts it into the estimate `e` of the run (module doc), accounted with the switches
/// `energy`; `None` when no technique is on.
pub fn cost_with_edit(
    cfg: &GpuConfig,
    energy: &EnergySection,
    tech: &techlib::ResolvedPoint,
    chip: &ChipModel,
    k: &KernelActivity,
    overlay: Option<&models::overlay::Overlay>,
    e: &Estimate,
) -> Result<Option<(RfCost, Edit)>, RfError> {
    let Some(Costed {
        rf,
        knobs,
        counts: c,
        structures: s,
    }) = cost(cfg, energy, tech, chip, k, overlay)?
    else {
        return Ok(None);
    };
    // structure areas and read-bus energies, from the same design
    let n = chip.n_sm as f64;
    let mrf = match cfg.mrf.region {
        sim::config::prf::MrfRegion::Stv => Some(&s.mrf_stv),
        sim::config::prf::MrfRegion::Ntv => s.mrf_ntv.as_ref(),
    };
    let partitioned = rf.techniques.iter().any(|t| t == "partitioned");
    let arr = |a: Option<&models::rf::structures::ArrayCost>| {
        a.map_or((0.0, 0.0), |a| (a.area_m2, a.bus_energy_j))
    };
    let (ma, mb) = if partitioned { (0.0, 0.0) } else { arr(mrf) };
    let (fa, fb) = if partitioned {
        arr(s.frf_high.as_ref())
    } else {
        (0.0, 0.0)
    };
    let (sa, sb) = if partitioned {
        arr(s.srf.as_ref())
    } else {
        (0.0, 0.0)
    };
    let (ra, rb) = arr(s.rfc.as_ref().map(|r| &r.array));
    let bus = [
        phi_sum(&c.mrf.rd, &knobs) * mb,
        (phi_sum(&c.frf_high.rd, &knobs) + phi_sum(&c.frf_low.rd, &knobs)) * fb,
        phi_sum(&c.srf.rd, &knobs) * sb,
        phi_sum(&c.rfc.rd, &knobs) * rb,
    ];
    // the backing MRF of an RFC run keeps its area
    let ma = if ma == 0.0 && !partitioned {
        arr(mrf).0
    } else {
        ma
    };
    let edit = edit(&rf, [ma * n, fa * n, sa * n, ra * n], bus, e.runtime_s);
    Ok(Some((rf, edit)))
}
