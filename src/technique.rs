//! Named techniques: a technique is a named set of configuration knobs (power-gating §4 and §10
//! presets: conventional power gating, GATES, naive and coordinated blackout, Warped-Gates, warp
//! folding, Origami; register-file spec §3–§4: TRIC, COMA and the Warped Register File; §5–§7:
//! the partitioned RF, the adaptive FRF, the RF cache and the MRF@STV / MRF@NTV baselines;
//! issue-stage §2: SOCGPU out-of-order issue; §3: LOOG collector-unit out-of-order issue;
//! control-flow spec §3: the PDOM reconvergence stack with its counters and stack-update timing;
//! §3.4–§5: DWF, MIMD and NREC on the reference-mode model),
//! usable wherever a configuration is. Techniques that touch different knobs
//! compose with `+` (`gates+coord-blackout`); the command line's `--set key=value` then overrides
//! single knobs on top.
//!
//! Each technique *sets* the knobs that define it and *defaults* the knobs it needs but another
//! technique of a combination may choose: `coord-blackout` sets `pg.policy` and defaults the
//! scheduler to GATES (blackout is defined on GATES, power-gating §4), so `coord-blackout` alone
//! is "CoordBO" and `origami+coord-blackout` keeps Origami's scheduler. Two techniques of one
//! combination that set the same knob to different values do not compose, and saying so is an
//! error naming both and the knob.
//!
//! A technique's costing lives with its models in `models` and is registered there (the
//! issue stages in `models::issue::STAGES`, the register-file techniques in
//! `models::rf::TECHNIQUES`, the knobs derived from the technology point in
//! `models::rf::DERIVED_TIMINGS`, reached through [`derived_timings`]); this module holds the
//! names and knobs of each technique and the optimiser's options ([`ISSUE_SEARCH`]).

use crate::study_config::Overridable;
use std::fmt;

/// One named technique.
#[derive(Clone, Copy, Debug)]
pub struct Technique {
    /// The name used on the command line.
    pub name: &'static str,
    /// One line: what it is.
    pub summary: &'static str,
    /// Knobs the technique sets (dotted key, value).
    pub sets: &'static [(&'static str, &'static str)],
    /// Knobs it needs unless another technique of the combination sets them.
    pub defaults: &'static [(&'static str, &'static str)],
}

/// Every built-in technique, in the order `gpuenergy techniques` lists them.
pub const TECHNIQUES: &[Technique] = &[
    Technique {
        name: "none",
        summary: "the configuration as given, no power gating (the default baseline)",
        sets: &[("pg.policy", "None")],
        defaults: &[],
    },
    Technique {
        name: "two-level",
        summary: "two-level warp scheduler (active set refilled from a pending FIFO), no gating: \
                  the baseline of the power-gating studies",
        sets: &[("sched.policy", "two_level"), ("pg.policy", "None")],
        defaults: &[],
    },
    Technique {
        name: "conv-pg",
        summary: "conventional execution-unit power gating: idle-detect D, break-even BET, \
                  wakeup W per SP cluster (ConvPG = two-level + Conventional)",
        sets: &[("pg.policy", "Conventional")],
        defaults: &[("sched.policy", "two_level")],
    },
    Technique {
        name: "gates",
        summary: "GATES gating-aware two-level scheduler: INT and FP at opposite ends of the \
                  issue priority, so each type's idle periods lengthen",
        sets: &[("sched.policy", "gates")],
        defaults: &[("pg.policy", "Conventional")],
    },
    Technique {
        name: "naive-blackout",
        summary: "naive blackout: a gated cluster stays off for at least BET cycles \
                  (NaiveBO = GATES + Naive)",
        sets: &[("pg.policy", "NaiveBlackout")],
        defaults: &[("sched.policy", "gates")],
    },
    Technique {
        name: "coord-blackout",
        summary: "coordinated blackout: ON clusters gate at once when no warp waits for their \
                  type while another cluster of it is gated (CoordBO = GATES + Coordinated)",
        sets: &[("pg.policy", "CoordinatedBlackout")],
        defaults: &[("sched.policy", "gates")],
    },
    Technique {
        name: "warped-gates",
        summary: "Warped-Gates: GATES + coordinated blackout + adaptive idle detect",
        sets: &[
            ("sched.policy", "gates"),
            ("pg.policy", "CoordinatedBlackout"),
            ("pg.adaptive.enabled", "true"),
        ],
        defaults: &[],
    },
    Technique {
        name: "folding",
        summary: "warp folding: each type's warps run on half of every lane cluster in phase \
                  windows while the upper lanes gate eagerly (lane-group gating)",
        sets: &[
            ("fold.enabled", "true"),
            ("fold.eager_gating", "true"),
            ("pg.granularity", "LaneGroup"),
        ],
        defaults: &[
            ("pg.policy", "Conventional"),
            ("pg.lane_group_size", "1"),
            ("sched.policy", "two_level"),
        ],
    },
    Technique {
        name: "origami",
        summary: "Origami: warp folding + the Origami scheduler (full/partial mask groups) + \
                  lane shifting, with lane-group gating",
        sets: &[
            ("sched.policy", "origami"),
            ("fold.enabled", "true"),
            ("fold.eager_gating", "true"),
            ("origami.grouping", "true"),
            ("origami.lane_shifting", "true"),
            ("pg.granularity", "LaneGroup"),
        ],
        defaults: &[("pg.policy", "Conventional"), ("pg.lane_group_size", "1")],
    },
    Technique {
        name: "tric",
        summary: "TRIC tri-modal register control: unallocated RF entries OFF, allocated ones \
                  DROWSY, woken (latency tric.wake_latency) for the instructions that use them",
        sets: &[("tric.enabled", "true")],
        defaults: &[],
    },
    Technique {
        name: "coma",
        summary: "COMA mask-aware register access: a divided wordline drives only the active \
                  lanes of every register-file read and write",
        sets: &[("coma.enabled", "true")],
        defaults: &[],
    },
    Technique {
        name: "warped-rf",
        summary: "Warped Register File: TRIC (leakage) + COMA (dynamic energy) on the same \
                  banked register file",
        sets: &[("tric.enabled", "true"), ("coma.enabled", "true")],
        defaults: &[],
    },
    Technique {
        name: "partitioned-rf",
        summary: "partitioned RF: n = 4 fast registers per warp in an FRF at STV (1 cycle), the \
                  rest in an SRF at NTV (3 cycles), hot registers found by a pilot warp and \
                  swapped into the FRF (the spec's machine is kepler_ch6; use the gtx780 preset)",
        sets: &[
            ("prf.enabled", "true"),
            ("prf.n_fast", "4"),
            ("prf.lat_frf_high", "1"),
            ("prf.lat_srf", "3"),
            ("rfc.enabled", "false"),
            ("tric.enabled", "false"),
        ],
        defaults: &[],
    },
    Technique {
        name: "adaptive-frf",
        summary: "partitioned RF with the adaptive FRF: the FRF drops to FRF_low (back gate \
                  off, 2 cycles) for 50-cycle epochs after one with under 85 dispatched \
                  instructions (kepler_ch6 in the spec; use the gtx780 preset)",
        sets: &[
            ("prf.enabled", "true"),
            ("afrf.enabled", "true"),
            ("afrf.epoch", "50"),
            ("afrf.threshold", "85"),
            ("prf.lat_frf_low", "2"),
            ("rfc.enabled", "false"),
            ("tric.enabled", "false"),
        ],
        defaults: &[("prf.n_fast", "4"), ("prf.lat_srf", "3")],
    },
    Technique {
        name: "rf-cache",
        summary: "register-file cache baseline (Gebhart-style): 6 entries per active warp, \
                  2 read / 1 write ports, write-allocate, FIFO, flushed when a warp leaves the \
                  two-level active set, in front of the monolithic RF",
        sets: &[
            ("rfc.enabled", "true"),
            ("prf.enabled", "false"),
            ("tric.enabled", "false"),
        ],
        defaults: &[
            ("rfc.entries_per_warp", "6"),
            ("rfc.read_ports", "2"),
            ("rfc.write_ports", "1"),
            ("sched.policy", "two_level"),
        ],
    },
    Technique {
        name: "mrf-stv",
        summary: "MRF@STV baseline: the monolithic RF at the super-threshold supply, 1-cycle \
                  access (the default machine's RF; the partitioned RF's reference)",
        sets: &[
            ("prf.enabled", "false"),
            ("mrf.region", "STV"),
            ("mrf.lat", "1"),
        ],
        defaults: &[],
    },
    Technique {
        name: "mrf-ntv",
        summary: "MRF@NTV baseline: the monolithic RF at the near-threshold supply, 3 cycles \
                  for every access",
        sets: &[
            ("prf.enabled", "false"),
            ("mrf.region", "NTV"),
            ("mrf.lat", "3"),
            ("tric.enabled", "false"),
        ],
        defaults: &[],
    },
    Technique {
        name: "socgpu",
        summary: "SOCGPU per-warp out-of-order issue: an N-entry instruction buffer per warp \
                  (sched.ooo.ib_depth, default 8) whose dependence matrix replaces the \
                  scoreboards; candidates picked by sched.ooo.local_policy, no renaming",
        sets: &[
            ("sched.ooo.mode", "socgpu"),
            ("pg.policy", "None"),
            ("fold.enabled", "false"),
        ],
        defaults: &[("sched.policy", "gto")],
    },
    Technique {
        name: "pdom",
        summary: "PDOM reconvergence stack (the baseline control flow) with the control-flow \
                  counters: stack pushes/pops/depth and SIMD-efficiency buckets",
        sets: &[("reconv.counters", "true")],
        defaults: &[],
    },
    Technique {
        name: "pdom-flush",
        summary: "PDOM stack updated at issue: fetch runs on sequentially past a branch and the \
                  entries behind a taken or divergent branch are flushed when it issues",
        sets: &[
            ("reconv.counters", "true"),
            ("reconv.stack_update_at", "issue"),
            ("reconv.issue_flush", "true"),
        ],
        defaults: &[],
    },
    Technique {
        name: "pdom-wb",
        summary: "PDOM stack updated at write-back: a warp fetches again only after its branch \
                  completes",
        sets: &[
            ("reconv.counters", "true"),
            ("reconv.stack_update_at", "writeback"),
            ("reconv.issue_flush", "false"),
        ],
        defaults: &[],
    },
    Technique {
        name: "dwf",
        summary: "dynamic warp formation (control-flow spec §4-§5) on the reference-mode model: \
                  threads regrouped at write-back by PC into pool warps, issue policy \
                  dwf.policy (dmaj, dtime, dpc, dmin, dpdpri; default dmaj); PTX workloads only",
        sets: &[("reconv.mode", "dwf")],
        defaults: &[("dwf.policy", "dmaj")],
    },
    Technique {
        name: "mimd",
        summary: "MIMD reference (control-flow spec §3.4): any ready thread fills any lane each \
                  scheduler cycle; reference-mode model, PTX workloads only",
        sets: &[("reconv.mode", "mimd")],
        defaults: &[],
    },
    Technique {
        name: "nrec",
        summary: "NREC reference (control-flow spec §3.4): a diverged warp splits into warps \
                  that never merge; reference-mode model, PTX workloads only",
        sets: &[("reconv.mode", "nrec")],
        defaults: &[],
    },
    Technique {
        name: "loog",
        summary: "LOOG collector-unit out-of-order issue: per issue slice N_cu collector units \
                  as reservation stations (sched.ooo.loog_n_cu, default min(16, warps x issue \
                  width)), a RAT per warp instead of the scoreboard, optional RRS",
        sets: &[
            ("sched.ooo.mode", "loog"),
            ("pg.policy", "None"),
            ("fold.enabled", "false"),
        ],
        // the preset's warp policy stays (the source's Vortex host allocates round-robin)
        defaults: &[],
    },
];

/// One option the optimiser's search group may pick: its name in the output, the technique it
/// applies and the further keys it sets after the technique.
pub type SearchOption = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

/// The options of the optimiser's `issue` group (`optimize --space issue`), in search order
/// after "off": each out-of-order issue stage at the buffer depths or collector counts searched
/// (issue-stage §4).
pub const ISSUE_SEARCH: &[SearchOption] = &[
    ("socgpu ib=2", "socgpu", &[("sched.ooo.ib_depth", "2")]),
    ("socgpu ib=4", "socgpu", &[("sched.ooo.ib_depth", "4")]),
    ("socgpu ib=8", "socgpu", &[("sched.ooo.ib_depth", "8")]),
    ("loog", "loog", &[]),
    ("loog cu=8", "loog", &[("sched.ooo.loog_n_cu", "8")]),
];

/// The options of the optimiser's `rf` group (`optimize --space rf`, register-file spec §10),
/// in search order after "off"; `true`: the option searches the SRF supply `prf.v_srf` as its
/// continuous knob.
pub const RF_SEARCH: &[(SearchOption, bool)] = &[
    (("tric", "tric", &[]), false),
    (("coma", "coma", &[]), false),
    (("warped-rf", "warped-rf", &[]), false),
    (
        (
            "partitioned-rf n=2",
            "partitioned-rf",
            &[("prf.n_fast", "2"), ("prf.lat_srf", "derived")],
        ),
        true,
    ),
    (
        (
            "partitioned-rf n=4",
            "partitioned-rf",
            &[("prf.n_fast", "4"), ("prf.lat_srf", "derived")],
        ),
        true,
    ),
    (("adaptive-frf", "adaptive-frf", &[]), false),
];

/// The knobs techniques derive from the technology point before a run
/// ([`models::technique::DerivedTiming`]), in the order they are derived (after the
/// power-gating timing and the SRF latency, which the study derives itself): the
/// register-file techniques' ([`models::rf::DERIVED_TIMINGS`]).
pub fn derived_timings() -> impl Iterator<Item = &'static dyn models::technique::DerivedTiming> {
    models::rf::DERIVED_TIMINGS.iter().copied()
}

/// Why a technique name or combination cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TechniqueError {
    /// A name that is not a built-in technique.
    Unknown(String),
    /// The same technique twice in one combination.
    Repeated(String),
    /// An empty name (e.g. `gates+`).
    Empty(String),
    /// Two techniques set one knob to different values.
    Conflict {
        /// The first technique and its value.
        a: (String, String),
        /// The second technique and its value.
        b: (String, String),
        /// The knob.
        key: String,
    },
}

impl fmt::Display for TechniqueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = TECHNIQUES.iter().map(|t| t.name).collect();
        match self {
            TechniqueError::Unknown(n) => write!(
                f,
                "--technique: unknown technique '{n}' (expected one of {}, or several joined \
                 with '+'; see `gpuenergy techniques`)",
                names.join(", ")
            ),
            TechniqueError::Repeated(n) => {
                write!(f, "--technique: '{n}' appears twice in one combination")
            }
            TechniqueError::Empty(s) => write!(
                f,
                "--technique: '{s}' has an empty name (join techniques as a+b, e.g. \
                 gates+coord-blackout)"
            ),
            TechniqueError::Conflict { a, b, key } => write!(
                f,
                "--technique: '{}' sets {key} = {} but '{}' sets {key} = {}: they do not \
                 compose (see `gpuenergy techniques`)",
                a.0, a.1, b.0, b.1
            ),
        }
    }
}

impl std::error::Error for TechniqueError {}

/// A built-in technique by name.
pub fn technique(name: &str) -> Result<&'static Technique, TechniqueError> {
    TECHNIQUES
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| TechniqueError::Unknown(name.to_string()))
}

/// A resolved technique or `+`-joined combination: its name as given and the knobs it applies,
/// in a fixed order (the knobs set, in technique order, then the defaults no technique set).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The combination as written (`gates+coord-blackout`).
    pub name: String,
    /// The techniques, in the order written.
    pub parts: Vec<&'static str>,
    /// `(dotted key, value)` pairs to apply to a configuration.
    pub knobs: Vec<(String, String)>,
}

impl Resolved {
    /// `cfg` (a machine, or a study's configuration with its `[energy]` and `[opt]`) with
    /// this technique's knobs applied and then `set` (the command line's `--set key=value`
    /// pairs) on top; validated.
    pub fn apply<C: Overridable>(
        &self,
        cfg: &C,
        set: &[(String, String)],
    ) -> Result<C, sim::SimError> {
        let with_knobs = cfg.overridden(&self.knobs, &format!("--technique {}", self.name))?;
        with_knobs.overridden(set, "--set")
    }
}

/// Resolves a technique name or a `+`-joined combination.
pub fn resolve(spec: &str) -> Result<Resolved, TechniqueError> {
    let mut parts: Vec<&'static Technique> = Vec::new();
    for raw in spec.split('+') {
        let n = raw.trim();
        if n.is_empty() {
            return Err(TechniqueError::Empty(spec.to_string()));
        }
        let t = technique(n)?;
        if parts.iter().any(|p| p.name == t.name) {
            return Err(TechniqueError::Repeated(n.to_string()));
        }
        parts.push(t);
    }
    let mut knobs: Vec<(String, String, &'static str)> = Vec::new();
    for t in &parts {
        for (k, v) in t.sets {
            match knobs.iter().find(|(kk, _, _)| kk == k) {
                Some((_, vv, who)) if vv != v => {
                    return Err(TechniqueError::Conflict {
                        a: (who.to_string(), vv.clone()),
                        b: (t.name.to_string(), v.to_string()),
                        key: k.to_string(),
                    })
                }
                Some(_) => {}
                None => knobs.push((k.to_string(), v.to_string(), t.name)),
            }
        }
    }
    for t in &parts {
        for (k, v) in t.defaults {
            if !knobs.iter().any(|(kk, _, _)| kk == k) {
                knobs.push((k.to_string(), v.to_string(), t.name));
            }
        }
    }
    Ok(Resolved {
        name: parts.iter().map(|t| t.name).collect::<Vec<_>>().join("+"),
        parts: parts.iter().map(|t| t.name).collect(),
        knobs: knobs.into_iter().map(|(k, v, _)| (k, v)).collect(),
    })
}

/// The techniques `t` composes with: no knob both set to different values, and the
/// combination's knobs, in either order, give a configuration the simulator accepts (on the gtx480 preset; e.g.
/// DWF runs on the reference-mode model, which runs no power gating).
pub fn composes_with(t: &Technique) -> Vec<&'static str> {
    let base = sim::config::GpuConfig::preset("gtx480").ok();
    let accepted = |spec: String| {
        resolve(&spec).is_ok_and(|r| {
            base.as_ref()
                .is_none_or(|b| b.with_overrides(&r.knobs, "--technique").is_ok())
        })
    };
    // Both orders: a default of the first technique wins over the second's, so one order
    // may build a configuration the other does not.
    TECHNIQUES
        .iter()
        .filter(|o| {
            o.name != t.name
                && accepted(format!("{}+{}", t.name, o.name))
                && accepted(format!("{}+{}", o.name, t.name))
        })
        .map(|o| o.name)
        .collect()
}

/// Parses `--set key=value` arguments into pairs; an argument without `=` is an error naming it.
pub fn parse_sets(args: &[String]) -> Result<Vec<(String, String)>, String> {
    args.iter()
        .map(|a| match a.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
            _ => Err(format!(
                "--set '{a}': expected KEY=VALUE with a dotted configuration key, e.g. \
                 --set pg.bet=19"
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_resolve() {
        for t in TECHNIQUES {
            assert_eq!(TECHNIQUES.iter().filter(|o| o.name == t.name).count(), 1);
            let r = resolve(t.name).unwrap();
            assert_eq!(r.parts, vec![t.name]);
            assert_eq!(r.knobs.len(), t.sets.len() + t.defaults.len());
        }
    }

    #[test]
    fn combination_sets_win_over_defaults() {
        let r = resolve("gates+coord-blackout").unwrap();
        let get = |k: &str| {
            r.knobs
                .iter()
                .find(|(kk, _)| kk == k)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get("sched.policy"), Some("gates"));
        assert_eq!(get("pg.policy"), Some("CoordinatedBlackout"));
        // the same combination in the other order applies the same knobs
        let mut a = r.knobs.clone();
        let mut b = resolve("coord-blackout+gates").unwrap().knobs;
        a.sort();
        b.sort();
        assert_eq!(a, b);
        let r = resolve("origami+coord-blackout").unwrap();
        let get = |k: &str| {
            r.knobs
                .iter()
                .find(|(kk, _)| kk == k)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get("sched.policy"), Some("origami"));
    }

    #[test]
    fn bad_combinations_are_named() {
        assert_eq!(
            resolve("gatess").unwrap_err(),
            TechniqueError::Unknown("gatess".into())
        );
        assert!(matches!(
            resolve("gates+").unwrap_err(),
            TechniqueError::Empty(_)
        ));
        assert_eq!(
            resolve("gates+gates").unwrap_err(),
            TechniqueError::Repeated("gates".into())
        );
        let e = resolve("conv-pg+naive-blackout").unwrap_err();
        assert!(
            matches!(&e, TechniqueError::Conflict { key, .. } if key == "pg.policy"),
            "{e:?}"
        );
        let msg = e.to_string();
        assert!(
            msg.contains("conv-pg") && msg.contains("naive-blackout"),
            "{msg}"
        );
        let msg = resolve("x").unwrap_err().to_string();
        assert!(
            msg.contains("warped-gates") && msg.contains("origami"),
            "{msg}"
        );
    }

    #[test]
    fn composition_is_symmetric() {
        for a in TECHNIQUES {
            for b in composes_with(a) {
                assert!(composes_with(technique(b).unwrap()).contains(&a.name));
            }
        }
        assert!(composes_with(technique("gates").unwrap()).contains(&"coord-blackout"));
        assert!(!composes_with(technique("conv-pg").unwrap()).contains(&"coord-blackout"));
    }

    #[test]
    fn set_arguments_parse() {
        let p = parse_sets(&["pg.bet=19".into(), "pg.policy = Gt".into()]).unwrap();
        assert_eq!(p[0], ("pg.bet".into(), "19".into()));
        assert_eq!(p[1], ("pg.policy".into(), " Gt".into()));
        assert!(parse_sets(&["pg.bet".into()])
            .unwrap_err()
            .contains("KEY=VALUE"));
        assert!(parse_sets(&["=3".into()]).is_err());
    }
}
