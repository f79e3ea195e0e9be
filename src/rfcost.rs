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
    /// Leakage power of every SM's copy, fully powered, W.
    pub leakage_w: f64,
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
    /// The §8 model of every SM's copy ([`RfEnergyModel::replicated`]): the structures'
    /// leakage power fully powered.
    model: RfEnergyModel,
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

/// The register-file design of `cfg`'s techniques at the chip's point: the design, its
/// structures evaluated, the techniques' models and the §8 model of every SM's copy
/// (`partitioned`: the FRF and SRF replace the MRF).
struct Model {
    design: RfDesign,
    structures: RfStructures,
    techniques: Vec<RfTechniqueModel>,
    model: RfEnergyModel,
    partitioned: bool,
}

/// The [`Model`] of `cfg` (every registered technique's checks first); `partitioned_run`: a
/// run whose counts show FRF or SRF accesses uses the partition whatever the design says.
fn model(
    cfg: &GpuConfig,
    energy: &EnergySection,
    tech: &techlib::ResolvedPoint,
    chip: &ChipModel,
    overlay: Option<&models::overlay::Overlay>,
    partitioned_run: bool,
) -> Result<Model, RfError> {
    for t in TECHNIQUES {
        t.check(cfg)?;
    }
    let d = design(cfg, energy, tech, chip)?;
    let s = evaluate(&d, overlay)?;
    let partitioned = d.partitioned || partitioned_run;
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
    let model = m.replicated(chip.n_sm as u64, units_per_entry(cfg, &d));
    Ok(Model {
        design: d,
        structures: s,
        techniques: models,
        model,
        partitioned,
    })
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
    let Model {
        design: d,
        structures: s,
        techniques: models,
        model: mm,
        partitioned,
    } = model(
        cfg,
        energy,
        tech,
        chip,
        overlay,
        c.frf_high.rd.accesses + c.srf.rd.accesses > 0,
    )?;
    let region = match cfg.mrf.region {
        sim::config::prf::MrfRegion::Stv => MrfRegion::Stv,
        sim::config::prf::MrfRegion::Ntv => MrfRegion::Ntv,
    };
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
    let n_sm = chip.n_sm as u64;
    let added = added_structures(&s, &models, Some(&energy), &mm, n_sm as f64);
    let n = n_sm as f64;
    let mut area = 0.0;
    if mm.mrf.entries > 0 {
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
        model: mm,
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
/// `n_sm` SMs, leakage power from the §8 model of every SM's copy `m`. `e`: the run's §8
/// energy (`None` without a run: no energy).
fn added_structures(
    s: &RfStructures,
    models: &[RfTechniqueModel],
    e: Option<&RfEnergy>,
    m: &RfEnergyModel,
    n_sm: f64,
) -> Vec<AddedStructure> {
    let mut v = Vec::new();
    let mut push = |name: &str, area_m2: f64, dyn_terms: &[&str], leak: &str| {
        let of = |t: &str| e.map_or(0.0, |e| term(e, t));
        v.push(AddedStructure {
            name: name.to_string(),
            area_m2: area_m2 * n_sm,
            dynamic_j: dyn_terms.iter().fold(0.0, |a, t| a + of(t)),
            leakage_j: of(&format!("{leak} leakage")),
            leakage_w: m
                .overhead
                .added_leakage_w
                .iter()
                .filter(|(n, _)| n == leak)
                .fold(0.0, |a, (_, w)| a + w),
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

/// One leaf that takes the register-file leaf's place: a structure with entries or an added
/// structure, over every SM.
struct Leaf {
    name: String,
    /// A structure with entries (it keeps the register-file leaf's source) or an added one
    /// (analytical).
    with_entries: bool,
    area_m2: f64,
    dynamic_j: f64,
    /// Leakage energy over the whole run on every SM, J (scaled by the powered share).
    leakage_j: f64,
    /// Leakage power fully powered, W.
    leakage_w: f64,
}

/// The edit that replaces the register-file leaf (in every SM's register-file group) with
/// `leaves` (module doc); a structure with entries and nothing to show (no area, energy or
/// leakage) is left out. Each leaf's `leakage_w` is its leakage power with every entry powered
/// (as every leaf of the tree), whatever power states the run kept its entries in.
fn edit(leaves: Vec<Leaf>, runtime_s: f64) -> Edit {
    Edit::Replace {
        part: Part::RegisterFile,
        with: Box::new(move |old: &Node| {
            let full = old.leakage_w * runtime_s;
            let powered = if full > 0.0 {
                old.leakage_j / full
            } else {
                1.0
            };
            leaves
                .iter()
                .filter(|l| {
                    !l.with_entries
                        || l.area_m2 > 0.0
                        || l.dynamic_j > 0.0
                        || l.leakage_j > 0.0
                        || l.leakage_w > 0.0
                })
                .map(|l| Node {
                    name: l.name.clone(),
                    source: if l.with_entries {
                        old.source.clone()
                    } else {
                        Source::Analytical
                    },
                    instances: old.instances,
                    area_m2: l.area_m2,
                    dynamic_j: l.dynamic_j,
                    leakage_j: l.leakage_j * powered,
                    leakage_w: l.leakage_w,
                    ..Node::default()
                })
                .collect()
        }),
    }
}

/// Area per SM of the structures with entries (MRF, FRF, SRF, RFC): the MRF at the region
/// the run uses unless the partition replaces it, the FRF and SRF with the partition.
fn entry_areas_m2(cfg: &GpuConfig, s: &RfStructures, partitioned: bool) -> [f64; 4] {
    let mrf = match cfg.mrf.region {
        sim::config::prf::MrfRegion::Stv => Some(&s.mrf_stv),
        sim::config::prf::MrfRegion::Ntv => s.mrf_ntv.as_ref(),
    };
    let area = |a: Option<&models::rf::structures::ArrayCost>| a.map_or(0.0, |a| a.area_m2);
    if partitioned {
        [
            0.0,
            area(s.frf_high.as_ref()),
            area(s.srf.as_ref()),
            area(s.rfc.as_ref().map(|r| &r.array)),
        ]
    } else {
        [area(mrf), 0.0, 0.0, area(s.rfc.as_ref().map(|r| &r.array))]
    }
}

/// Leakage power of the structures with entries (MRF, FRF, SRF, RFC) in the §8 model of every
/// SM's copy `m`, every entry powered (the FRF in its high mode), W.
fn entry_leakage_w(m: &RfEnergyModel) -> [f64; 4] {
    let w = |s: &models::rf::accounting::StructureModel| s.array_leakage_w + s.periph_leakage_w;
    [w(&m.mrf), w(&m.frf_high), w(&m.srf), w(&m.rfc)]
}

/// The leaves of the added structures `added`.
fn added_leaves(added: &[AddedStructure]) -> impl Iterator<Item = Leaf> + '_ {
    added.iter().map(|a| Leaf {
        name: a.name.clone(),
        with_entries: false,
        area_m2: a.area_m2,
        dynamic_j: a.dynamic_j,
        leakage_j: a.leakage_j,
        leakage_w: a.leakage_w,
    })
}

/// The edit that puts the register-file structures of `cfg`'s techniques into the static
/// tree of the chip (no run): the same leaves a run's edit gives ([`cost_with_edit`]), with
/// their area and their leakage power every entry powered, and no energy; `None` when no
/// technique is on.
pub fn static_edit(
    cfg: &GpuConfig,
    energy: &EnergySection,
    tech: &techlib::ResolvedPoint,
    chip: &ChipModel,
    overlay: Option<&models::overlay::Overlay>,
) -> Result<Option<Edit>, RfError> {
    if !technique_on(cfg) {
        return Ok(None);
    }
    let m = model(cfg, energy, tech, chip, overlay, false)?;
    let n = chip.n_sm as f64;
    let areas = entry_areas_m2(cfg, &m.structures, m.partitioned);
    let leak = entry_leakage_w(&m.model);
    let mut leaves: Vec<Leaf> = ["MRF", "FRF", "SRF", "RFC"]
        .iter()
        .enumerate()
        .map(|(k, name)| Leaf {
            name: name.to_string(),
            with_entries: true,
            area_m2: areas[k] * n,
            dynamic_j: 0.0,
            leakage_j: 0.0,
            leakage_w: leak[k],
        })
        .collect();
    let added = added_structures(&m.structures, &m.techniques, None, &m.model, n);
    leaves.extend(added_leaves(&added));
    Ok(Some(edit(leaves, 0.0)))
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
        model,
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
    let bus = |a: Option<&models::rf::structures::ArrayCost>| a.map_or(0.0, |a| a.bus_energy_j);
    let (mb, fb, sb) = if partitioned {
        (0.0, bus(s.frf_high.as_ref()), bus(s.srf.as_ref()))
    } else {
        (bus(mrf), 0.0, 0.0)
    };
    let rb = bus(s.rfc.as_ref().map(|r| &r.array));
    let bus_read_j = [
        phi_sum(&c.mrf.rd, &knobs) * mb,
        (phi_sum(&c.frf_high.rd, &knobs) + phi_sum(&c.frf_low.rd, &knobs)) * fb,
        phi_sum(&c.srf.rd, &knobs) * sb,
        phi_sum(&c.rfc.rd, &knobs) * rb,
    ];
    let areas = entry_areas_m2(cfg, &s, partitioned);
    let leak_w = entry_leakage_w(&model);
    let mut leaves: Vec<Leaf> = rf
        .energy
        .structures
        .iter()
        .enumerate()
        .map(|(k, st)| Leaf {
            name: st.name.to_string(),
            with_entries: true,
            area_m2: areas[k] * n,
            // the operand crossbar leaf already charges the read bus
            dynamic_j: (st.dyn_j - bus_read_j[k]).max(0.0),
            leakage_j: st.leak_array_j + st.leak_periph_j,
            leakage_w: leak_w[k],
        })
        .collect();
    leaves.extend(added_leaves(&rf.added));
    let edit = edit(leaves, e.runtime_s);
    Ok(Some((rf, edit)))
}
