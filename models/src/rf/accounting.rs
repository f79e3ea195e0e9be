//! Register-file energy accounting (register-file spec §8) and the aggregations of §9.
//!
//! The simulator's activity is mapped onto [`RfCounts`] (plain counts; nothing here depends on
//! the simulator) and accounted against an [`RfEnergyModel`], whose per-access energies and
//! leakages come from [`super::structures`] and from the registered register-file techniques
//! ([`super::technique`]).
//!
//! # Formulae
//! Time base `T = cycles / f_clk`, each run with its own cycle count.
//!
//! **Dynamic** (§8.1): `E_dyn = Σ_p Σ_k E_acc(p, k) · Σφ(p, k)` over structures p (MRF, FRF_high,
//! FRF_low, SRF, RFC) and kinds k (read, write), with
//! `Σφ = f_fixed · N + (1 − f_fixed) · Σ_e a_e/lanes` with a lane-gated access (a technique's
//! [`RfTechniqueModel::lane_gating`]) and `Σφ = N` without (§4.3);
//! the simulator exports `N` and `Σ a_e/lanes` separately so the energy can be recomputed for any
//! `f_fixed` and any technology point.
//!
//! **Leakage** (§8.2): per structure
//! `E_leak,p = P_periph,p · T_p + (P_array,p / N_entries,p) · Σ_s ρ_s · t_p(s) / f_clk`,
//! `t_p(s)` the entry-cycles spent in state s (ON, WAKING, DROWSY, OFF), `ρ_ON = ρ_WAKING = 1`,
//! `ρ_DROWSY` from techlib ([`super::drowsy_ratio`]), `ρ_OFF` the technique's off residual
//! ([`StateKnobs`]). A structure without residency counts (no technique keeps entries in power
//! states) has every entry ON for the whole run. `T_p = T` unless the technique gates the
//! periphery of a bank whose entries are all OFF, when each bank's share `P_periph/B` is removed for the
//! cycles the bank had all entries OFF: `T_p = T − (Σ_banks off-cycles)/(B · f_clk)`.
//! The FRF's leakage follows its mode: with `x` the fraction of cycles in FRF_low,
//! `P_FRF = (1 − x)·P_high + x·P_low`, for the array and the periphery parts (mode and per-entry
//! state taken independent).
//!
//! **Overheads** (§8.3):
//!
//! ```text
//! E_ovh = Σ_techniques Σ_terms N_term·E_term
//!       + N_lookup·E_cam + N_pilot·E_ctr + N_sort·E_sort + N_tablefill·E_cam_wr
//!       + N_epoch·E_epoch + N_mode·E_bg + N_tag·E_tag + E_migrate + Σ_added P_leak·T
//! ```
//!
//! with the registered techniques' terms first ([`super::technique`]: each term counted by
//! events of the technique's Activity record or by cycles), and `E_migrate` the migration reads
//! and writes at the FRF's and SRF's access energies.
//!
//! **Totals and savings** (§8.4): `E_tot = E_dyn + E_leak + E_ovh`;
//! `S_X = 1 − X_tech/X_base` for `X ∈ {dyn, leak, tot}` on the energy basis and on the power
//! basis (`X/T`, each run with its own T).
//!
//! **Fixed ratio** (§8.5): `S_tot(r) = (S_leak + r·S_dyn)/(1 + r)` on the power basis, reported
//! next to the model's `r = P_dyn,base / P_leak,base`.
//!
//! **Aggregation** (§9): over benchmarks i with a technique value `x_i` and a baseline `b_i`,
//! the arithmetic mean of the ratios `x_i/b_i`, their geometric mean, and the total-weighted
//! ratio `Σx_i/Σb_i`, each labelled; a saving is one minus the aggregated ratio (for the
//! arithmetic mean this equals the mean of the savings).

use super::structures::{ArrayCost, RfStructures};
use super::technique::{accounting_order, Counted, EventEnergy, RfTechniqueModel, StateKnobs};
use super::RfError;
use serde::Serialize;

/// Accesses of one kind to one structure.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct KindCounts {
    /// Access events `N`.
    pub accesses: u64,
    /// Σ over the events of the active-lane fraction `a_e / lanes` (equals `accesses` when
    /// every access has all lanes active).
    pub lane_fraction_sum: f64,
}

impl KindCounts {
    /// `n` accesses with all lanes active.
    pub fn full(n: u64) -> KindCounts {
        KindCounts {
            accesses: n,
            lane_fraction_sum: n as f64,
        }
    }
}

/// Reads and writes of one structure (or one FRF mode).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct AccessCounts {
    /// Reads.
    pub rd: KindCounts,
    /// Writes.
    pub wr: KindCounts,
}

/// Entry-cycles spent in each power state, summed over the structure's entries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Residency {
    /// ON entry-cycles.
    pub on: u64,
    /// WAKING entry-cycles.
    pub waking: u64,
    /// DROWSY entry-cycles.
    pub drowsy: u64,
    /// OFF entry-cycles.
    pub off: u64,
}

impl Residency {
    /// Every entry ON for the whole run.
    pub fn all_on(entries: u64, cycles: u64) -> Residency {
        Residency {
            on: entries * cycles,
            ..Residency::default()
        }
    }
    /// Total entry-cycles.
    pub fn total(&self) -> u64 {
        self.on + self.waking + self.drowsy + self.off
    }
}

/// Leakage-state counters of one structure.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct StateCounts {
    /// Per-state residency; `None`: no entry kept in a power state, every entry ON all run.
    pub residency: Option<Residency>,
    /// Σ over banks of the cycles the bank had all entries OFF (for
    /// [`StateKnobs::gate_periphery_if_bank_off`]).
    pub bank_off_cycles: u64,
}

/// A run's register-file activity, as the simulator exports it (§8–§9).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RfCounts {
    /// Cycles of the run.
    pub cycles: u64,
    /// Core clock, Hz.
    pub clock_hz: f64,
    /// MRF accesses (baselines, Warped RF, and the RFC's backing MRF).
    pub mrf: AccessCounts,
    /// MRF leakage states.
    pub mrf_states: StateCounts,
    /// FRF accesses granted in FRF_high.
    pub frf_high: AccessCounts,
    /// FRF accesses granted in FRF_low.
    pub frf_low: AccessCounts,
    /// FRF leakage states.
    pub frf_states: StateCounts,
    /// Cycles the FRF spent in FRF_low.
    pub frf_low_cycles: u64,
    /// SRF accesses.
    pub srf: AccessCounts,
    /// SRF leakage states.
    pub srf_states: StateCounts,
    /// RFC accesses.
    pub rfc: AccessCounts,
    /// RFC tag checks (one per operand read).
    pub rfc_tag_checks: u64,
    /// The event counts of the registered techniques' terms, by term label
    /// ([`super::technique::RfTechniqueTerms::events`]).
    pub technique_events: Vec<(&'static str, u64)>,
    /// Swap-table lookups (accesses while profile_mask = 0).
    pub cam_lookups: u64,
    /// Pilot-counter increments.
    pub pilot_increments: u64,
    /// Counter sorts (one per profiled kernel).
    pub sorts: u64,
    /// Swap-table entry writes (2n per copy per profiled kernel).
    pub table_writes: u64,
    /// Adaptive-FRF epochs completed.
    pub epochs: u64,
    /// FRF mode switches.
    pub mode_switches: u64,
    /// Migration accesses to the FRF (`prf.remap_policy = "migrate"`).
    pub migration_frf: AccessCounts,
    /// Migration accesses to the SRF.
    pub migration_srf: AccessCounts,
}

impl RfCounts {
    /// The count of the technique term `label` (0 when the run has none).
    pub fn event(&self, label: &str) -> u64 {
        self.technique_events
            .iter()
            .filter(|(l, _)| *l == label)
            .map(|x| x.1)
            .sum()
    }
}

/// Per-access energies and leakage split of one structure in the model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct StructureModel {
    /// Energy per read, J.
    pub read_energy_j: f64,
    /// Energy per write, J.
    pub write_energy_j: f64,
    /// Array (cell) leakage, W.
    pub array_leakage_w: f64,
    /// Periphery leakage, W.
    pub periph_leakage_w: f64,
    /// Entries.
    pub entries: u64,
    /// Banks.
    pub banks: u32,
}

impl StructureModel {
    /// From an [`ArrayCost`] of a structure of `banks` banks.
    pub fn from_array(a: &ArrayCost, banks: u32) -> StructureModel {
        StructureModel {
            read_energy_j: a.read_energy_j,
            write_energy_j: a.write_energy_j,
            array_leakage_w: a.array_leakage_w,
            periph_leakage_w: a.periph_leakage_w,
            entries: a.entries as u64,
            banks: banks.min(a.entries.max(1)),
        }
    }
}

/// The §8.3 event energies (J) and the leakage of every added structure (W).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct OverheadModel {
    /// The energy per event (or cycle) of every term of the run's techniques, in
    /// accounting order.
    pub technique_energy: Vec<EventEnergy>,
    /// Swap-table lookup.
    pub cam_lookup_j: f64,
    /// Pilot-counter increment.
    pub counter_increment_j: f64,
    /// One counter sort.
    pub sort_j: f64,
    /// One swap-table entry write.
    pub table_write_j: f64,
    /// One epoch of the epoch detector.
    pub epoch_j: f64,
    /// One FRF mode switch.
    pub mode_switch_j: f64,
    /// One RFC tag check.
    pub tag_check_j: f64,
    /// Leakage of each added structure, W, labelled.
    pub added_leakage_w: Vec<(String, f64)>,
}

impl OverheadModel {
    /// The energy of one event (or cycle) of the technique term `label`, J (0 when no
    /// technique of the run has it).
    pub fn energy_of(&self, label: &str) -> f64 {
        self.technique_energy
            .iter()
            .find(|e| e.label == label)
            .map_or(0.0, |e| e.energy_j)
    }
}

/// Knobs of the accounting.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AccountingKnobs {
    /// A lane-gated access (φ from the lane fractions) or not (φ ≡ 1).
    pub lane_gated: bool,
    /// The fraction of a lane-gated access the mask does not gate, in [0, 1].
    pub fixed_fraction: f64,
    /// ρ_DROWSY.
    pub rho_drowsy: f64,
    /// ρ_OFF.
    pub off_residual: f64,
    /// A bank's periphery gated while all its entries are OFF.
    pub gate_periphery_if_bank_off: bool,
}

impl Default for AccountingKnobs {
    fn default() -> Self {
        AccountingKnobs {
            lane_gated: false,
            fixed_fraction: 0.0,
            rho_drowsy: 1.0,
            off_residual: 0.0,
            gate_periphery_if_bank_off: false,
        }
    }
}

/// Everything the accounting needs from the models.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RfEnergyModel {
    /// MRF (at the region the run uses).
    pub mrf: StructureModel,
    /// FRF, back gates tied.
    pub frf_high: StructureModel,
    /// FRF, cell back gates grounded.
    pub frf_low: StructureModel,
    /// SRF.
    pub srf: StructureModel,
    /// RFC.
    pub rfc: StructureModel,
    /// Overhead events and added leakage.
    pub overhead: OverheadModel,
    /// Knobs.
    pub knobs: AccountingKnobs,
}

/// Which MRF region a baseline or a Warped-RF run uses (§7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum MrfRegion {
    /// Super-threshold supply.
    Stv,
    /// Near-threshold supply.
    Ntv,
}

/// Which techniques a run uses, for [`RfEnergyModel::from_structures`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Techniques<'a> {
    /// MRF region.
    pub mrf_region: MrfRegion,
    /// The register-file techniques of the run, evaluated, in accounting order
    /// ([`super::technique::accounting_order`]).
    pub techniques: &'a [RfTechniqueModel],
    /// Partitioned RF: the FRF and SRF replace the MRF; adds the swap CAMs, pilot counters and
    /// sort (requires structures evaluated with the partition).
    pub partitioned: bool,
    /// Adaptive FRF (epoch detector, mode buffers, mode-switch energy).
    pub adaptive: bool,
    /// RFC (array and tag CAM).
    pub rfc: bool,
    /// Banks of the MRF/FRF/SRF.
    pub banks: u32,
    /// Adaptive-FRF epoch, cycles.
    pub epoch_cycles: u32,
}

impl Techniques<'_> {
    /// A plain MRF at `region` with `banks` banks and no technique.
    pub fn plain(region: MrfRegion, banks: u32) -> Techniques<'static> {
        Techniques {
            mrf_region: region,
            techniques: &[],
            partitioned: false,
            adaptive: false,
            rfc: false,
            banks,
            epoch_cycles: 50,
        }
    }
}

impl RfEnergyModel {
    /// The model of a run using `t` on the structures `s` (an error names the missing
    /// structure).
    pub fn from_structures(s: &RfStructures, t: &Techniques<'_>) -> Result<RfEnergyModel, RfError> {
        let missing = |what: &str| {
            RfError::input(what, "not modelled", "structures evaluated with it enabled")
        };
        let mrf = match t.mrf_region {
            MrfRegion::Stv => &s.mrf_stv,
            MrfRegion::Ntv => s
                .mrf_ntv
                .as_ref()
                .ok_or_else(|| missing("mrf.region = NTV"))?,
        };
        let mut m = RfEnergyModel {
            mrf: StructureModel::from_array(mrf, t.banks),
            ..RfEnergyModel::default()
        };
        let mut ov = OverheadModel::default();
        let mut knobs = AccountingKnobs::default();
        for tm in t.techniques {
            ov.technique_energy.extend(tm.event_energy.iter().copied());
            ov.added_leakage_w
                .extend(tm.added_leakage_w.iter().cloned());
            if let Some(f) = tm.lane_gating {
                if !(0.0..=1.0).contains(&f) {
                    return Err(RfError::input(
                        "fixed fraction of a lane-gated access",
                        f,
                        "a fraction in [0, 1]",
                    ));
                }
                knobs.lane_gated = true;
                knobs.fixed_fraction = f;
            }
            if let Some(StateKnobs {
                rho_drowsy,
                off_residual,
                gate_periphery_if_bank_off,
            }) = tm.states
            {
                knobs.rho_drowsy = rho_drowsy;
                knobs.off_residual = off_residual;
                knobs.gate_periphery_if_bank_off = gate_periphery_if_bank_off;
            }
        }
        if t.partitioned {
            let (Some(fh), Some(sr)) = (&s.frf_high, &s.srf) else {
                return Err(missing("prf.enabled"));
            };
            // the FRF and SRF replace the MRF
            m.mrf = StructureModel::default();
            m.frf_high = StructureModel::from_array(fh, t.banks);
            m.frf_low = m.frf_high;
            m.srf = StructureModel::from_array(sr, t.banks);
            if let Some(cam) = &s.swap_cam {
                ov.cam_lookup_j = cam.energy_per_op_j;
                ov.table_write_j = cam.energy_per_op_j;
                ov.added_leakage_w
                    .push(("swap-table CAMs".into(), cam.leakage_w));
            }
            if let Some(pc) = &s.pilot_counters {
                ov.counter_increment_j = pc.energy_per_op_j;
                ov.added_leakage_w
                    .push(("pilot counters".into(), pc.leakage_w));
            }
            ov.sort_j = s.sort_energy_j;
            if t.adaptive {
                let (Some(fl), Some(ec), Some(bg)) = (&s.frf_low, &s.epoch_counter, &s.back_gate)
                else {
                    return Err(missing("afrf.enabled"));
                };
                m.frf_low = StructureModel::from_array(fl, t.banks);
                ov.epoch_j = ec.energy_per_op_j * t.epoch_cycles as f64;
                ov.mode_switch_j = bg.switch_energy_j;
                ov.added_leakage_w
                    .push(("epoch counter".into(), ec.leakage_w));
                ov.added_leakage_w
                    .push(("back-gate mode buffers".into(), bg.buffer_leakage_w));
            }
        }
        if t.rfc {
            let r = s.rfc.as_ref().ok_or_else(|| missing("rfc.enabled"))?;
            m.rfc = StructureModel::from_array(&r.array, 1);
            ov.tag_check_j = r.tag_cam.energy_per_op_j;
            ov.added_leakage_w
                .push(("RFC tag CAM".into(), r.tag_cam.leakage_w));
        }
        m.overhead = ov;
        m.knobs = knobs;
        Ok(m)
    }
}

/// `energy.calibration = "paper_rows"` (§8.1): sets `m`'s access energies and total leakage to
/// a reference row ([`crate::sram::fit::RF_POINTS`]: the 256 KB MRF at STV, 14.98 pJ and 33.8 mW;
/// the 224 KB SRF at NTV, 7.03 pJ and 13.4 mW), keeping the model's array/periphery split of
/// the leakage. The FRF always keeps its model values. A structure whose capacity
/// (`entries × entry_bytes`) is not the row's is an error naming the knob.
pub fn apply_paper_row(
    m: &mut StructureModel,
    entry_bytes: u32,
    row: &crate::sram::fit::RfPoint,
) -> Result<(), RfError> {
    let cap = m.entries * entry_bytes as u64;
    if cap != row.capacity_bytes {
        return Err(RfError::input(
            "energy.calibration",
            format!("\"paper_rows\" for a {cap}-byte {}", row.label),
            &format!(
                "\"model\", or the reference geometry ({} bytes)",
                row.capacity_bytes
            ),
        ));
    }
    let total = m.array_leakage_w + m.periph_leakage_w;
    let frac = if total > 0.0 {
        m.array_leakage_w / total
    } else {
        1.0
    };
    let p = row.leakage_mw * 1e-3;
    m.read_energy_j = row.access_pj * 1e-12;
    m.write_energy_j = m.read_energy_j;
    m.array_leakage_w = frac * p;
    m.periph_leakage_w = (1.0 - frac) * p;
    Ok(())
}

/// Energy of one structure in one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StructureEnergy {
    /// Structure name.
    pub name: &'static str,
    /// Dynamic energy, J.
    pub dyn_j: f64,
    /// Array leakage energy, J.
    pub leak_array_j: f64,
    /// Periphery leakage energy, J.
    pub leak_periph_j: f64,
}

/// The §8 result of one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RfEnergy {
    /// `T`, s.
    pub time_s: f64,
    /// Per structure (MRF, FRF, SRF, RFC).
    pub structures: Vec<StructureEnergy>,
    /// `E_dyn`, J.
    pub dyn_j: f64,
    /// `E_leak`, J.
    pub leak_j: f64,
    /// Overhead event energy, J.
    pub ovh_dyn_j: f64,
    /// Added structures' leakage × T, J.
    pub ovh_leak_j: f64,
    /// `E_ovh`, J.
    pub ovh_j: f64,
    /// `E_tot`, J.
    pub tot_j: f64,
    /// Every overhead term, labelled, J.
    pub overhead_terms: Vec<(String, f64)>,
}

impl RfEnergy {
    /// Mean power of an energy over this run's T, W.
    pub fn power_w(&self, energy_j: f64) -> f64 {
        energy_j / self.time_s
    }
}

/// `Σφ` of one kind of access (§4.3): `f_fixed·N + (1 − f_fixed)·Σa/lanes` with a lane-gated
/// access, `N` without.
pub fn phi_sum(k: &KindCounts, knobs: &AccountingKnobs) -> f64 {
    if knobs.lane_gated {
        knobs.fixed_fraction * k.accesses as f64
            + (1.0 - knobs.fixed_fraction) * k.lane_fraction_sum
    } else {
        k.accesses as f64
    }
}

fn dyn_of(a: &AccessCounts, s: &StructureModel, knobs: &AccountingKnobs) -> f64 {
    s.read_energy_j * phi_sum(&a.rd, knobs) + s.write_energy_j * phi_sum(&a.wr, knobs)
}

fn check_counts(k: &KindCounts, what: &str) -> Result<(), RfError> {
    let n = k.accesses as f64;
    if !(k.lane_fraction_sum.is_finite()
        && k.lane_fraction_sum >= 0.0
        && k.lane_fraction_sum <= n * (1.0 + 1e-12))
    {
        return Err(RfError::input(
            &format!("{what}.lane_fraction_sum"),
            k.lane_fraction_sum,
            "a sum in [0, accesses]",
        ));
    }
    Ok(())
}

/// `(array, periphery)` leakage energy of one structure, J.
#[allow(clippy::too_many_arguments)]
fn leak_of(
    p_array_w: f64,
    p_periph_w: f64,
    entries: u64,
    banks: u32,
    st: &StateCounts,
    c: &RfCounts,
    knobs: &AccountingKnobs,
    what: &str,
) -> Result<(f64, f64), RfError> {
    if entries == 0 {
        return Ok((0.0, 0.0));
    }
    let f = c.clock_hz;
    let t = c.cycles as f64 / f;
    let res = match st.residency {
        None => Residency::all_on(entries, c.cycles),
        Some(r) => {
            if r.total() != entries * c.cycles {
                return Err(RfError::input(
                    &format!("{what} residency"),
                    r.total(),
                    &format!("entries × cycles = {}", entries * c.cycles),
                ));
            }
            r
        }
    };
    let weighted = res.on as f64
        + res.waking as f64
        + knobs.rho_drowsy * res.drowsy as f64
        + knobs.off_residual * res.off as f64;
    let arr = p_array_w / entries as f64 * weighted / f;
    let b = banks.max(1) as f64;
    let t_p = if knobs.gate_periphery_if_bank_off {
        (t - st.bank_off_cycles as f64 / (b * f)).max(0.0)
    } else {
        t
    };
    Ok((arr, p_periph_w * t_p))
}

/// Accounts one run (module doc).
pub fn account(c: &RfCounts, m: &RfEnergyModel) -> Result<RfEnergy, RfError> {
    if c.cycles == 0 {
        return Err(RfError::input("cycles", 0, "a run of at least one cycle"));
    }
    if !(c.clock_hz.is_finite() && c.clock_hz > 0.0) {
        return Err(RfError::input(
            "sm.clock_mhz",
            c.clock_hz * 1e-6,
            "a clock > 0 MHz",
        ));
    }
    if c.frf_low_cycles > c.cycles {
        return Err(RfError::input(
            "frf_low_cycles",
            c.frf_low_cycles,
            "at most the run's cycles",
        ));
    }
    let k = &m.knobs;
    if !(0.0..=1.0).contains(&k.fixed_fraction)
        || !(0.0..=1.0).contains(&k.rho_drowsy)
        || !(0.0..=1.0).contains(&k.off_residual)
    {
        return Err(RfError::input(
            "fixed_fraction / rho_drowsy / off_residual",
            format!(
                "{} / {} / {}",
                k.fixed_fraction, k.rho_drowsy, k.off_residual
            ),
            "fractions in [0, 1]",
        ));
    }
    for (a, what) in [
        (&c.mrf, "mrf"),
        (&c.frf_high, "frf_high"),
        (&c.frf_low, "frf_low"),
        (&c.srf, "srf"),
        (&c.rfc, "rfc"),
        (&c.migration_frf, "migration_frf"),
        (&c.migration_srf, "migration_srf"),
    ] {
        check_counts(&a.rd, what)?;
        check_counts(&a.wr, what)?;
    }
    let t = c.cycles as f64 / c.clock_hz;
    let x = c.frf_low_cycles as f64 / c.cycles as f64;
    let mut structures = Vec::new();
    let (ma, mp) = leak_of(
        m.mrf.array_leakage_w,
        m.mrf.periph_leakage_w,
        m.mrf.entries,
        m.mrf.banks,
        &c.mrf_states,
        c,
        k,
        "mrf",
    )?;
    structures.push(StructureEnergy {
        name: "MRF",
        dyn_j: dyn_of(&c.mrf, &m.mrf, k),
        leak_array_j: ma,
        leak_periph_j: mp,
    });
    let frf_arr = (1.0 - x) * m.frf_high.array_leakage_w + x * m.frf_low.array_leakage_w;
    let frf_per = (1.0 - x) * m.frf_high.periph_leakage_w + x * m.frf_low.periph_leakage_w;
    let (fa, fp) = leak_of(
        frf_arr,
        frf_per,
        m.frf_high.entries,
        m.frf_high.banks,
        &c.frf_states,
        c,
        k,
        "frf",
    )?;
    structures.push(StructureEnergy {
        name: "FRF",
        dyn_j: dyn_of(&c.frf_high, &m.frf_high, k) + dyn_of(&c.frf_low, &m.frf_low, k),
        leak_array_j: fa,
        leak_periph_j: fp,
    });
    let (sa, sp) = leak_of(
        m.srf.array_leakage_w,
        m.srf.periph_leakage_w,
        m.srf.entries,
        m.srf.banks,
        &c.srf_states,
        c,
        k,
        "srf",
    )?;
    structures.push(StructureEnergy {
        name: "SRF",
        dyn_j: dyn_of(&c.srf, &m.srf, k),
        leak_array_j: sa,
        leak_periph_j: sp,
    });
    structures.push(StructureEnergy {
        name: "RFC",
        dyn_j: dyn_of(&c.rfc, &m.rfc, k),
        leak_array_j: if m.rfc.entries > 0 {
            m.rfc.array_leakage_w * t
        } else {
            0.0
        },
        leak_periph_j: if m.rfc.entries > 0 {
            m.rfc.periph_leakage_w * t
        } else {
            0.0
        },
    });
    let o = &m.overhead;
    // migration moves whole entries (all lanes)
    let full = AccountingKnobs {
        lane_gated: false,
        ..*k
    };
    let frf_mig = StructureModel {
        read_energy_j: (1.0 - x) * m.frf_high.read_energy_j + x * m.frf_low.read_energy_j,
        write_energy_j: (1.0 - x) * m.frf_high.write_energy_j + x * m.frf_low.write_energy_j,
        ..m.frf_high
    };
    // every registered technique's terms, zero for one the run does not use
    let mut terms: Vec<(String, f64)> = Vec::new();
    for tech in accounting_order() {
        for spec in tech.terms() {
            let n = match spec.counted {
                Counted::Events => c.event(spec.label),
                Counted::Cycles => c.cycles,
            };
            terms.push((spec.label.to_string(), n as f64 * o.energy_of(spec.label)));
        }
    }
    terms.extend([
        (
            "swap-table lookups".into(),
            c.cam_lookups as f64 * o.cam_lookup_j,
        ),
        (
            "pilot-counter increments".into(),
            c.pilot_increments as f64 * o.counter_increment_j,
        ),
        ("counter sorts".into(), c.sorts as f64 * o.sort_j),
        (
            "swap-table writes".into(),
            c.table_writes as f64 * o.table_write_j,
        ),
        ("epoch detector".into(), c.epochs as f64 * o.epoch_j),
        (
            "mode switches".into(),
            c.mode_switches as f64 * o.mode_switch_j,
        ),
        (
            "RFC tag checks".into(),
            c.rfc_tag_checks as f64 * o.tag_check_j,
        ),
        (
            "migration".into(),
            dyn_of(&c.migration_frf, &frf_mig, &full) + dyn_of(&c.migration_srf, &m.srf, &full),
        ),
    ]);
    let ovh_dyn: f64 = terms.iter().map(|x| x.1).sum();
    let mut ovh_leak = 0.0;
    for (name, p) in &o.added_leakage_w {
        terms.push((format!("{name} leakage"), p * t));
        ovh_leak += p * t;
    }
    let dyn_j: f64 = structures.iter().map(|s| s.dyn_j).sum();
    let leak_j: f64 = structures
        .iter()
        .map(|s| s.leak_array_j + s.leak_periph_j)
        .sum();
    let ovh = ovh_dyn + ovh_leak;
    Ok(RfEnergy {
        time_s: t,
        structures,
        dyn_j,
        leak_j,
        ovh_dyn_j: ovh_dyn,
        ovh_leak_j: ovh_leak,
        ovh_j: ovh,
        tot_j: dyn_j + leak_j + ovh,
        overhead_terms: terms,
    })
}

/// Savings `S_X = 1 − X_tech/X_base` for X ∈ {dyn, leak, tot}.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Savings {
    /// Dynamic.
    pub dyn_frac: f64,
    /// Leakage.
    pub leak_frac: f64,
    /// Total.
    pub tot_frac: f64,
}

fn saving(x: f64, b: f64) -> f64 {
    if b > 0.0 {
        1.0 - x / b
    } else {
        0.0
    }
}

/// Savings on the energy basis.
pub fn savings_energy(tech: &RfEnergy, base: &RfEnergy) -> Savings {
    Savings {
        dyn_frac: saving(tech.dyn_j, base.dyn_j),
        leak_frac: saving(tech.leak_j, base.leak_j),
        tot_frac: saving(tech.tot_j, base.tot_j),
    }
}

/// Savings on the power basis (each energy over its own run's T).
pub fn savings_power(tech: &RfEnergy, base: &RfEnergy) -> Savings {
    let p = |e: &RfEnergy, x: f64| e.power_w(x);
    Savings {
        dyn_frac: saving(p(tech, tech.dyn_j), p(base, base.dyn_j)),
        leak_frac: saving(p(tech, tech.leak_j), p(base, base.leak_j)),
        tot_frac: saving(p(tech, tech.tot_j), p(base, base.tot_j)),
    }
}

/// §8.5: `S_tot(r) = (S_leak + r·S_dyn)/(1 + r)` (power basis savings).
pub fn fixed_ratio_total(s_leak: f64, s_dyn: f64, r: f64) -> Result<f64, RfError> {
    if !(r.is_finite() && r >= 0.0) {
        return Err(RfError::input("energy.fixed_ratio_sweep", r, "ratios >= 0"));
    }
    Ok((s_leak + r * s_dyn) / (1.0 + r))
}

/// The model's dynamic-to-leakage power ratio of the baseline, `r = P_dyn,base/P_leak,base`
/// (register-file structures only, overheads excluded).
pub fn model_ratio(base: &RfEnergy) -> f64 {
    if base.leak_j > 0.0 {
        base.dyn_j / base.leak_j
    } else {
        f64::INFINITY
    }
}

/// The three labelled aggregations of §9 over per-benchmark ratios.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Aggregate {
    /// Arithmetic mean of `x_i/b_i`.
    pub arithmetic_mean: f64,
    /// Geometric mean of `x_i/b_i`.
    pub geometric_mean: f64,
    /// `Σx_i / Σb_i`.
    pub total_weighted: f64,
}

impl Aggregate {
    /// The same aggregations expressed as savings (`1 −` each).
    pub fn as_savings(&self) -> Aggregate {
        Aggregate {
            arithmetic_mean: 1.0 - self.arithmetic_mean,
            geometric_mean: 1.0 - self.geometric_mean,
            total_weighted: 1.0 - self.total_weighted,
        }
    }
}

/// Aggregates `(x_i, b_i)` pairs (technique value, baseline value) of a non-negative quantity.
pub fn aggregate_ratios(pairs: &[(f64, f64)]) -> Result<Aggregate, RfError> {
    if pairs.is_empty() {
        return Err(RfError::input("benchmarks", 0, "at least one benchmark"));
    }
    for (i, (x, b)) in pairs.iter().enumerate() {
        if !(x.is_finite() && *x >= 0.0 && b.is_finite() && *b > 0.0) {
            return Err(RfError::input(
                &format!("benchmark {i}"),
                format!("({x}, {b})"),
                "a value >= 0 over a baseline > 0",
            ));
        }
    }
    let n = pairs.len() as f64;
    let ratios: Vec<f64> = pairs.iter().map(|(x, b)| x / b).collect();
    let am = ratios.iter().sum::<f64>() / n;
    let gm = if ratios.contains(&0.0) {
        0.0
    } else {
        (ratios.iter().map(|r| r.ln()).sum::<f64>() / n).exp()
    };
    let tw = pairs.iter().map(|p| p.0).sum::<f64>() / pairs.iter().map(|p| p.1).sum::<f64>();
    Ok(Aggregate {
        arithmetic_mean: am,
        geometric_mean: gm,
        total_weighted: tw,
    })
}
