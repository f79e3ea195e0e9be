//! The optimiser's decision variables: groups of mutually exclusive options (one is picked per
//! group, option 0 being "off"), each option a named technique of [`crate::technique`] plus
//! configuration keys, and at most one continuous knob per option searched in an interval.
//!
//! Groups (power-gating §0 "optimizer chooses", register-file spec §10, issue-stage §4):
//! - `gating`: execution-unit power gating with the sleep-transistor model (`pg.timing =
//!   "Physical"`, so `pg.bet`/`pg.wakeup` follow the switch), one option per policy
//!   (conventional, GATES, coordinated blackout, Warped-Gates) and the switch scale
//!   `s = physical.size_multiplier` ∈ [1, 4] as the continuous knob: a wider switch lowers the
//!   IR drop and the wakeup time and costs area, leakage and event energy. Two options gate
//!   at lane granularity instead of SP clusters (power-gating §1.2, §7): warp folding and
//!   Origami.
//! - `rf`: the register-file techniques the technique registry lists
//!   ([`technique::RF_SEARCH`]); an option marked for it searches the SRF supply
//!   V_SRF ∈ [0.25, `prf.v_frf`] V as its continuous knob.
//! - `issue`: the out-of-order issue stages the technique registry lists
//!   ([`technique::ISSUE_SEARCH`]), each at the buffer depths or collector counts it names.
//!
//! Options of different groups that cannot be combined (a technique turning another's knob
//! off, an invalid configuration) are found by building every pair's configuration
//! ([`Space::conflicts`]); the MILP keeps them apart.

use crate::technique;
use serde::Serialize;
use sim::config::GpuConfig;

/// A continuous knob of an option: a configuration key searched in `[lo, hi]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Knob {
    /// The configuration key, e.g. `physical.size_multiplier`.
    pub key: String,
    /// Lower end of the interval.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// Grid the value is snapped to (so that re-evaluations of the same point are cached).
    pub step: f64,
}

impl Knob {
    /// `x` clamped into the interval and snapped to the grid.
    pub fn snap(&self, x: f64) -> f64 {
        let x = x.clamp(self.lo, self.hi);
        let v = self.lo + ((x - self.lo) / self.step).round() * self.step;
        (v.min(self.hi) * 1e9).round() / 1e9
    }
}

/// One option of a group.
#[derive(Clone, Debug, Serialize)]
pub struct Choice {
    /// Its name in the output.
    pub name: String,
    /// The technique it applies (`None` for "off").
    pub technique: Option<String>,
    /// Further keys it sets, after the technique.
    pub sets: Vec<(String, String)>,
    /// Its continuous knob, if any.
    pub knob: Option<Knob>,
}

/// A group of mutually exclusive options; `options[0]` is "off".
#[derive(Clone, Debug, Serialize)]
pub struct Group {
    /// `gating`, `rf` or `issue`.
    pub name: String,
    /// The options.
    pub options: Vec<Choice>,
}

/// The decision space: the chosen groups.
#[derive(Clone, Debug, Serialize)]
pub struct Space {
    /// The groups, in the order given.
    pub groups: Vec<Group>,
}

/// Two options `((group, option), (group, option))` of different groups.
pub type OptionPair = ((usize, usize), (usize, usize));

/// A design: one option per group and the value of its continuous knob (`None` when the
/// option has none).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Design {
    /// Option index per group.
    pub pick: Vec<usize>,
    /// Continuous value per group.
    pub value: Vec<Option<f64>>,
}

impl Design {
    /// Every group off: the baseline.
    pub fn baseline(groups: usize) -> Design {
        Design {
            pick: vec![0; groups],
            value: vec![None; groups],
        }
    }
}

fn off() -> Choice {
    Choice {
        name: "off".into(),
        technique: None,
        sets: Vec::new(),
        knob: None,
    }
}

fn choice(name: &str, tech: &str, sets: &[(&str, &str)], knob: Option<Knob>) -> Choice {
    Choice {
        name: name.into(),
        technique: Some(tech.into()),
        sets: sets
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        knob,
    }
}

/// The gating group.
pub fn gating_group() -> Group {
    let s = || {
        Some(Knob {
            key: "physical.size_multiplier".into(),
            lo: 1.0,
            hi: 4.0,
            step: 0.05,
        })
    };
    let phys = [("pg.timing", "Physical")];
    Group {
        name: "gating".into(),
        options: vec![
            off(),
            choice("conv-pg", "conv-pg", &phys, s()),
            choice("gates", "gates", &phys, s()),
            choice("coord-blackout", "coord-blackout", &phys, s()),
            choice("warped-gates", "warped-gates", &phys, s()),
            choice("folding", "folding", &phys, s()),
            choice("origami", "origami", &phys, s()),
        ],
    }
}

/// The register-file group; `v_frf_v` is the FRF supply that bounds V_SRF from above.
pub fn rf_group(v_frf_v: f64) -> Group {
    let vsrf = Knob {
        key: "prf.v_srf".into(),
        lo: 0.25_f64.min(v_frf_v),
        hi: v_frf_v,
        step: 0.005,
    };
    let searched = technique::RF_SEARCH
        .iter()
        .map(|&((name, tech, sets), v)| choice(name, tech, sets, v.then(|| vsrf.clone())));
    Group {
        name: "rf".into(),
        options: std::iter::once(off()).chain(searched).collect(),
    }
}

/// The issue group: "off" and the options the technique registry lists for it
/// ([`technique::ISSUE_SEARCH`]).
pub fn issue_group() -> Group {
    let searched = technique::ISSUE_SEARCH
        .iter()
        .map(|(name, tech, sets)| choice(name, tech, sets, None));
    Group {
        name: "issue".into(),
        options: std::iter::once(off()).chain(searched).collect(),
    }
}

impl Space {
    /// The groups named in `list` (`gating,rf,issue`, any subset, comma-separated), for a base
    /// configuration `base` (its `prf.v_frf` bounds V_SRF).
    pub fn parse(list: &str, base: &GpuConfig) -> Result<Space, String> {
        let mut groups = Vec::new();
        for name in list.split(',').map(str::trim) {
            let g = match name {
                "gating" => gating_group(),
                "rf" => rf_group(base.prf.v_frf),
                "issue" => issue_group(),
                _ => {
                    return Err(format!(
                        "--space '{list}': unknown group '{name}'; known: gating, rf, issue"
                    ))
                }
            };
            if groups.iter().any(|x: &Group| x.name == g.name) {
                return Err(format!("--space '{list}': group '{name}' given twice"));
            }
            groups.push(g);
        }
        if groups.is_empty() {
            return Err("--space: at least one group (gating, rf, issue)".into());
        }
        Ok(Space { groups })
    }

    /// Number of discrete combinations (the product of the groups' option counts).
    pub fn combinations(&self) -> usize {
        self.groups.iter().map(|g| g.options.len()).product()
    }

    /// Every combination of options, in lexicographic order of the picks.
    pub fn all_picks(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new()];
        for g in &self.groups {
            out = out
                .into_iter()
                .flat_map(|p| {
                    (0..g.options.len()).map(move |o| {
                        let mut q = p.clone();
                        q.push(o);
                        q
                    })
                })
                .collect();
        }
        out
    }

    /// A readable name of a design: the options on, joined with `+` (`baseline` when none).
    pub fn name(&self, d: &Design) -> String {
        let on: Vec<String> = self
            .groups
            .iter()
            .zip(&d.pick)
            .zip(&d.value)
            .filter(|((_, &o), _)| o > 0)
            .map(|((g, &o), v)| {
                let c = &g.options[o];
                match (&c.knob, v) {
                    (Some(k), Some(x)) => format!("{} [{}={x}]", c.name, k.key),
                    _ => c.name.clone(),
                }
            })
            .collect();
        if on.is_empty() {
            "baseline".into()
        } else {
            on.join(" + ")
        }
    }

    /// The chosen knobs of a design: each group's option and every key it sets, with the
    /// continuous values.
    pub fn knobs(&self, d: &Design) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for ((g, &o), v) in self.groups.iter().zip(&d.pick).zip(&d.value) {
            let c = &g.options[o];
            out.push((g.name.clone(), c.name.clone()));
            if let Some(t) = &c.technique {
                out.push((format!("{}.technique", g.name), t.clone()));
            }
            out.extend(c.sets.iter().cloned());
            if let (Some(k), Some(x)) = (&c.knob, v) {
                out.push((k.key.clone(), format!("{x}")));
            }
        }
        out
    }

    /// The configuration of design `d`: `base` with the options' techniques (joined with `+`,
    /// `none` when every group is off), the options' keys, the continuous values and then the
    /// user's `set`.
    pub fn config(
        &self,
        base: &GpuConfig,
        d: &Design,
        set: &[(String, String)],
    ) -> Result<GpuConfig, String> {
        let mut techs = Vec::new();
        let mut pairs = Vec::new();
        for ((g, &o), v) in self.groups.iter().zip(&d.pick).zip(&d.value) {
            let c = &g.options[o];
            if let Some(t) = &c.technique {
                techs.push(t.clone());
            }
            pairs.extend(c.sets.iter().cloned());
            if let Some(k) = &c.knob {
                let x = v.unwrap_or(k.snap((k.lo + k.hi) / 2.0));
                pairs.push((k.key.clone(), format!("{x}")));
            }
        }
        pairs.extend_from_slice(set);
        let spec = if techs.is_empty() {
            "none".to_string()
        } else {
            techs.join("+")
        };
        let r = technique::resolve(&spec).map_err(|e| e.to_string())?;
        r.apply(base, &pairs)
            .map_err(|e| format!("{}: {e}", self.name(d)))
    }

    /// Applies the SNM floor `opt.snm_min` (register-file spec §10: SNM(V, cell) ≥ `snm_min`)
    /// to every SRAM-supply knob (`prf.v_srf`): its lower end rises to the lowest grid value
    /// whose static noise margin, from the 8T cell's measured points of `node` with the back
    /// gate on (`techlib::SramCell::snm_v`, interpolated in Vdd), meets the floor. An option
    /// whose whole interval is below the floor is removed. Returns a line per change; a node
    /// without SNM data leaves the knobs as they are and says so. The cell is the node's at
    /// its costing flavour ([`techlib::default_flavour`]), nominal supply and 300 K.
    pub fn apply_snm_floor(
        &mut self,
        n: &techlib::Node,
        snm_min_v: f64,
    ) -> Result<Vec<String>, String> {
        let mut notes = Vec::new();
        if snm_min_v <= 0.0 {
            return Ok(notes);
        }
        let flavour = n
            .flavour(&techlib::default_flavour(n))
            .map_err(|e| e.to_string())?;
        let point = n
            .at(&techlib::Conditions::new(flavour))
            .map_err(|e| e.to_string())?;
        let cell = point
            .sram_cell(techlib::CellKind::Eight)
            .map_err(|e| e.to_string())?;
        for g in &mut self.groups {
            let mut keep = Vec::new();
            for c in g.options.drain(..) {
                let Some(k) = c.knob.as_ref().filter(|k| k.key == "prf.v_srf") else {
                    keep.push(c);
                    continue;
                };
                let mut v = k.lo;
                let mut found = None;
                while v <= k.hi + 1e-12 {
                    match cell.snm_v(v, true) {
                        None => break,
                        Some(m) if m >= snm_min_v => {
                            found = Some(k.snap(v));
                            break;
                        }
                        Some(_) => v += k.step,
                    }
                }
                if cell.snm_v(k.lo, true).is_none() {
                    notes.push(format!(
                        "{}: {} has no SNM data for its 8T cell; opt.snm_min not applied",
                        c.name,
                        n.name()
                    ));
                    keep.push(c);
                    continue;
                }
                match found {
                    Some(lo) => {
                        if lo > k.lo {
                            notes.push(format!(
                                "{}: V_SRF ≥ {lo} V for SNM ≥ {snm_min_v} V (opt.snm_min)",
                                c.name
                            ));
                        }
                        let mut c = c.clone();
                        if let Some(k) = c.knob.as_mut() {
                            k.lo = lo;
                        }
                        keep.push(c);
                    }
                    None => notes.push(format!(
                        "{}: removed, no V_SRF up to {} V meets SNM ≥ {snm_min_v} V (opt.snm_min)",
                        c.name, k.hi
                    )),
                }
            }
            g.options = keep;
        }
        Ok(notes)
    }

    /// The first option of the space that sets configuration key `key` (through its
    /// technique, its further keys or its continuous knob), as `group option`; `None` when no
    /// option touches it. A `--set` of such a key would override the designs the optimiser
    /// reports, so the command refuses it.
    pub fn option_setting(&self, key: &str) -> Option<String> {
        for g in &self.groups {
            for c in &g.options {
                let by_technique = c.technique.as_deref().is_some_and(|t| {
                    crate::technique::resolve(t)
                        .is_ok_and(|r| r.knobs.iter().any(|(k, _)| k == key))
                });
                let by_sets = c.sets.iter().any(|(k, _)| k == key);
                let by_knob = c.knob.as_ref().is_some_and(|k| k.key == key);
                if by_technique || by_sets || by_knob {
                    return Some(format!("{} option '{}'", g.name, c.name));
                }
            }
        }
        None
    }

    /// Pairs of options `((group, option), (group, option))` of different groups whose
    /// combination does not make a valid configuration.
    pub fn conflicts(&self, base: &GpuConfig, set: &[(String, String)]) -> Vec<OptionPair> {
        let mut out = Vec::new();
        let n = self.groups.len();
        for a in 0..n {
            for b in a + 1..n {
                for oa in 1..self.groups[a].options.len() {
                    for ob in 1..self.groups[b].options.len() {
                        let mut d = Design::baseline(n);
                        d.pick[a] = oa;
                        d.pick[b] = ob;
                        if self.config(base, &d, set).is_err() {
                            out.push(((a, oa), (b, ob)));
                        }
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_parse_and_every_single_option_builds() {
        let base = GpuConfig::preset("gtx480").unwrap();
        let s = Space::parse("gating,rf,issue", &base).unwrap();
        assert_eq!(s.combinations(), 7 * 7 * 6);
        assert_eq!(s.all_picks().len(), s.combinations());
        for (g, grp) in s.groups.iter().enumerate() {
            for o in 0..grp.options.len() {
                let mut d = Design::baseline(s.groups.len());
                d.pick[g] = o;
                s.config(&base, &d, &[])
                    .unwrap_or_else(|e| panic!("{}: {e}", grp.options[o].name));
            }
        }
        assert!(Space::parse("gating,nope", &base)
            .unwrap_err()
            .contains("nope"));
        assert!(Space::parse("rf,rf", &base).is_err());
    }

    #[test]
    fn the_snm_floor_raises_the_srf_supply_or_removes_the_option() {
        let base = GpuConfig::preset("gtx480").unwrap();
        let mut s = Space::parse("rf", &base).unwrap();
        let n = s.groups[0].options.len();
        // finfet7 8T cell, back gate on: 0.092 V at 0.30 V, 0.144 V at 0.45 V
        let notes = s
            .apply_snm_floor(&techlib::node("finfet7").unwrap(), 0.118)
            .unwrap();
        assert!(!notes.is_empty());
        let k = s.groups[0].options[4].knob.clone().unwrap();
        assert!((k.lo - 0.375).abs() < 0.006, "{}", k.lo);
        let mut s = Space::parse("rf", &base).unwrap();
        s.apply_snm_floor(&techlib::node("finfet7").unwrap(), 0.2)
            .unwrap();
        assert_eq!(s.groups[0].options.len(), n - 2);
    }

    #[test]
    fn knobs_snap_to_their_grid_inside_the_interval() {
        let k = Knob {
            key: "x".into(),
            lo: 1.0,
            hi: 4.0,
            step: 0.05,
        };
        assert_eq!(k.snap(1.234), 1.25);
        assert_eq!(k.snap(9.0), 4.0);
        assert_eq!(k.snap(0.0), 1.0);
    }
}
