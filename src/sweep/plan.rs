//! Expansion of a sweep file into its points, and the shard assignment.
//!
//! A *variant* is one technology point × one technique × one combination of axis values; a
//! *point* is a variant × one workload × one size: one simulation, one stored result, one row
//! of the merged table.
//!
//! Order: technology points, then techniques, then the axis combinations, then workloads, then
//! sizes, each in the file's order. The axes combine as a cartesian product whose dimensions
//! are the axes in the file's order, a `zip` group counting as one dimension (its axes step
//! together) placed where its first axis is; the first dimension varies slowest. A point that
//! matches every key of an `[[exclude]]` rule is left out. The points are numbered 0, 1, …
//! in this order after exclusion, and shard `i/N` runs the points whose number is `i` modulo
//! `N`: the assignment depends only on the sweep file, so a local run and the tasks of a Slurm
//! array split the same points the same way.
//!
//! Each variant's configuration is the base configuration with the technique's knobs, then
//! `[set]`, then the axis values applied ([`crate::technique::Resolved::apply`], the order of
//! `compare`), validated before anything runs. A point's key is the FNV-1a hash
//! ([`crate::digest`]) of everything that decides its result: the resolved configuration as
//! TOML, the technology point, the calibration overlay's bytes, the workload (a built-in one by
//! name, a user program by its content hash), the size and the executable's fingerprint ([`crate::digest::program_version`]).

use super::file::{Base, KnobValue, SweepFile};
use crate::study::{tech_choice, NamedOverlay};
use crate::study_config::StudyConfig;
use crate::technique;
use serde::{Deserialize, Serialize};

/// The most points a sweep may have unless `--max-points` says otherwise.
pub const DEFAULT_MAX_POINTS: usize = 100_000;

/// Above this many combinations before exclusions, the exact count after exclusions is not
/// computed for the `--max-points` check.
const COUNT_LIMIT: u128 = 20_000_000;

/// One technology point × technique × axis combination, resolved.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Index into the file's technology points.
    pub tech: usize,
    /// The technique (combination) as written.
    pub technique: String,
    /// `(axis key, value)` in the axes' order.
    pub knobs: Vec<(String, KnobValue)>,
    /// The resolved configuration.
    pub config: StudyConfig,
    /// The technology point.
    pub choice: techlib::ResolvedPoint,
}

/// What identifies a point in the plan record and in the merged table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointLabel {
    /// Number in the plan's order.
    pub index: usize,
    /// Content hash of the point's inputs (16 hex digits): the name of its result file.
    pub key: String,
    /// Technology node.
    pub node: String,
    /// Named operating point as given ("" when none).
    pub op: String,
    /// Device flavour as given ("" for the node's default).
    pub device: String,
    /// Junction temperature, K.
    pub temperature_k: f64,
    /// Technique (combination).
    pub technique: String,
    /// Axis values in the axes' order, as shown (strings without quotes).
    pub knobs: Vec<(String, String)>,
    /// Workload.
    pub workload: String,
    /// Size tier.
    pub size: String,
}

/// The plan as written to a sweep folder (`plan.json`), read back by `merge` and `status`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanRecord {
    /// Always [`PLAN_FORMAT`].
    pub format: String,
    /// The sweep file as given to the command that wrote the record.
    pub file: String,
    /// Axis keys in order.
    pub axes: Vec<String>,
    /// Every point, in order.
    pub points: Vec<PointLabel>,
}

/// Format tag of [`PlanRecord`].
pub const PLAN_FORMAT: &str = "gpuenergy-sweep-plan v1";

/// One point of the plan.
#[derive(Clone, Debug)]
pub struct Point {
    /// Its label (number, key, dimensions).
    pub label: PointLabel,
    /// Index into [`Plan::variants`].
    pub variant: usize,
}

/// A sweep expanded: its variants and points.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The sweep file.
    pub file: SweepFile,
    /// The calibration overlay, if any.
    pub overlay: Option<NamedOverlay>,
    /// Variants with at least one point.
    pub variants: Vec<Variant>,
    /// Points in order.
    pub points: Vec<Point>,
}

/// A shard `i/N`: the points whose number is `i` modulo `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// `i`, in 0..N.
    pub index: usize,
    /// `N` ≥ 1.
    pub count: usize,
}

impl Shard {
    /// The whole sweep (`0/1`).
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether point number `n` is in this shard.
    pub fn has(&self, n: usize) -> bool {
        n % self.count == self.index
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{s}': expected I/N with 0 <= I < N, e.g. 3/8");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// The dimensions of the axis product: groups of axis indices (a zip group or one axis) in
/// the order of their first axis, with the number of steps of each.
fn dimensions(f: &SweepFile) -> Vec<(Vec<usize>, usize)> {
    let mut dims: Vec<(Vec<usize>, usize)> = Vec::new();
    for (i, a) in f.axes.iter().enumerate() {
        if dims.iter().any(|(g, _)| g.contains(&i)) {
            continue;
        }
        let group = f
            .zip
            .iter()
            .find(|g| g.contains(&i))
            .cloned()
            .unwrap_or_else(|| vec![i]);
        dims.push((group, a.values.len()));
    }
    dims
}

/// The axis values of combination number `c` (mixed radix over `dims`, first slowest), as
/// indices into each axis's values.
fn combination(dims: &[(Vec<usize>, usize)], naxes: usize, mut c: u128) -> Vec<usize> {
    let mut pick = vec![0; naxes];
    for (group, len) in dims.iter().rev() {
        let step = (c % *len as u128) as usize;
        c /= *len as u128;
        for &a in group {
            pick[a] = step;
        }
    }
    pick
}

/// The size label of workload `w` at size `s`: the size tier of a built-in workload,
/// [`PROGRAM_SIZE`] for a program.
fn size_name(f: &SweepFile, w: usize, s: usize) -> &str {
    if f.program(&f.workloads[w].name).is_some() {
        PROGRAM_SIZE
    } else {
        &f.sizes[s].name
    }
}

/// The size label of a program's points: a program has fixed sizes, so it has one point per
/// variant whatever `sizes` lists.
pub const PROGRAM_SIZE: &str = "program";

/// The `[[exclude]]` rules of a sweep as index sets, so that testing a point is a few array
/// lookups: per rule, per dimension it names, which indices of that dimension match (`None`:
/// the rule does not name the dimension). Dimensions: technology point, technique, one per
/// axis (value index), workload, size.
struct Exclusions {
    /// Per rule: `tech`, `technique`, per-axis, `workload`, `size` masks.
    rules: Vec<RuleMask>,
}

struct RuleMask {
    tech: Option<Vec<bool>>,
    technique: Option<Vec<bool>>,
    axes: Vec<Option<Vec<bool>>>,
    workload: Option<Vec<bool>>,
    size: Option<Vec<bool>>,
    /// A rule naming something no point has (cannot match any point).
    never: bool,
}

impl Exclusions {
    fn new(f: &SweepFile) -> Exclusions {
        let quoted = |x: &str| toml::Value::String(x.to_string()).to_string();
        let mask = |values: &[KnobValue], names: Vec<String>| -> Vec<bool> {
            names
                .iter()
                .map(|n| values.iter().any(|x| &x.toml == n))
                .collect()
        };
        let rules = f
            .exclude
            .iter()
            .map(|r| {
                let mut m = RuleMask {
                    tech: None,
                    technique: None,
                    axes: vec![None; f.axes.len()],
                    workload: None,
                    size: None,
                    never: false,
                };
                for (key, values) in &r.matches {
                    match key.as_str() {
                        "node" => {
                            m.tech = Some(mask(
                                values,
                                f.techs.iter().map(|t| quoted(&t.node)).collect(),
                            ))
                        }
                        "technique" => {
                            m.technique = Some(mask(
                                values,
                                f.techniques.iter().map(|t| quoted(&t.name)).collect(),
                            ))
                        }
                        "workload" => {
                            m.workload = Some(mask(
                                values,
                                f.workloads.iter().map(|w| quoted(&w.name)).collect(),
                            ))
                        }
                        // a size rule matches a program's points by their size label
                        "size" => {
                            let mut names: Vec<String> =
                                f.sizes.iter().map(|z| quoted(&z.name)).collect();
                            names.push(quoted(PROGRAM_SIZE));
                            m.size = Some(mask(values, names))
                        }
                        axis => match f.axes.iter().position(|a| a.key == axis) {
                            Some(a) => {
                                m.axes[a] = Some(mask(
                                    values,
                                    f.axes[a].values.iter().map(|v| v.toml.clone()).collect(),
                                ))
                            }
                            None => m.never = true,
                        },
                    }
                }
                m
            })
            .collect();
        Exclusions { rules }
    }

    /// Whether a rule excludes the point with these dimensions (`s` is the size index, or
    /// `sizes.len()` for a program's one point).
    fn excluded(&self, tech: usize, technique: usize, pick: &[usize], w: usize, s: usize) -> bool {
        let hit = |m: &Option<Vec<bool>>, i: usize| m.as_ref().is_none_or(|v| v[i]);
        self.rules.iter().any(|r| {
            !r.never
                && hit(&r.tech, tech)
                && hit(&r.technique, technique)
                && hit(&r.workload, w)
                && hit(&r.size, s)
                && r.axes.iter().zip(pick).all(|(m, &i)| hit(m, i))
        })
    }
}

/// The sweep's base configuration and its `[set]` pairs, after checking every `[set]` value and
/// every axis value on it (each alone, so that an error names its own key and line).
fn base_config(f: &SweepFile) -> anyhow::Result<(StudyConfig, Vec<(String, String)>)> {
    let base = match &f.base {
        Base::Preset(p) => {
            StudyConfig::preset(p).map_err(|e| f.error(f.base_loc, "preset", e.to_string()))?
        }
        Base::Config(p) => StudyConfig::from_toml_file(p)
            .map_err(|e| f.error(f.base_loc, "config", format!("{e}")))?,
    };
    let set: Vec<(String, String)> = f
        .set
        .iter()
        .map(|s| (s.key.clone(), s.value.toml.clone()))
        .collect();
    for s in &f.set {
        base.with_overrides(&[(s.key.clone(), s.value.toml.clone())], "[set]")
            .map_err(|e| f.error(s.value.loc, &s.key, e.to_string()))?;
    }
    let with_set = base
        .with_overrides(&set, "[set]")
        .map_err(|e| f.error(f.base_loc, "set", e.to_string()))?;
    let with_set = with_set.prepare_overrides();
    for a in &f.axes {
        for v in &a.values {
            with_set
                .apply(&[(a.key.clone(), v.toml.clone())], "[axes]")
                .map_err(|e| f.error(a.loc, &a.key, format!("value {}: {e}", v.toml)))?;
        }
    }
    Ok((base, set))
}

/// The sweep's technology points, each resolved and checked by building its cost source.
fn tech_choices(f: &SweepFile) -> anyhow::Result<Vec<techlib::ResolvedPoint>> {
    let mut choices = Vec::new();
    for t in &f.techs {
        let c = tech_choice(
            &t.node,
            t.vdd_v,
            t.op.as_deref(),
            t.device.as_deref(),
            t.temperature_k,
        )
        .map_err(|e| f.error(t.loc, "tech", e.to_string()))?;
        models::gpu::TechCostSource::new(&c, None)
            .map_err(|e| f.error(t.loc, "tech", e.to_string()))?;
        choices.push(c);
    }
    Ok(choices)
}

/// Refuses two points with one key: they would compute one result twice and keep it once
/// (axis values that differ as written but not as the configuration reads them, `1` and
/// `1.0`).
fn check_distinct_keys(f: &SweepFile, points: &[Point]) -> anyhow::Result<()> {
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for p in points {
        if let Some(&first) = seen.get(p.label.key.as_str()) {
            let a = &points[first].label;
            let b = &p.label;
            let differ: Vec<String> = a
                .knobs
                .iter()
                .zip(&b.knobs)
                .filter(|(x, y)| x.1 != y.1)
                .map(|(x, y)| format!("axis '{}': {} and {}", x.0, x.1, y.1))
                .collect();
            return Err(f
                .error(
                    f.axes_loc,
                    "axes",
                    format!(
                        "points {} and {} are the same computation (the same configuration, \
                         technology point, workload and size){}; list each value once",
                        a.index,
                        b.index,
                        if differ.is_empty() {
                            String::new()
                        } else {
                            format!(": {}", differ.join(", "))
                        }
                    ),
                )
                .into());
        }
        seen.insert(&p.label.key, p.label.index);
    }
    Ok(())
}

/// A kept point: (tech, technique, axis combination, workload, size) indices.
type KeptPoint = (usize, usize, u128, usize, usize);

/// Every point the exclusion rules keep as (tech, technique, combination, workload, size), at
/// most `max_points` of them, and the count of all kept points (past the limit the walk only
/// counts: index lookups, no allocation per point).
fn kept_points(
    f: &SweepFile,
    dims: &[(Vec<usize>, usize)],
    combos: u128,
    max_points: usize,
) -> (Vec<KeptPoint>, usize) {
    let (nt, nq, nw, ns) = (
        f.techs.len(),
        f.techniques.len(),
        f.workloads.len(),
        f.sizes.len(),
    );
    let rules = Exclusions::new(f);
    let mut kept: Vec<KeptPoint> = Vec::new();
    let mut pick = vec![0; f.axes.len()];
    let mut count = 0usize;
    for t in 0..nt {
        for q in 0..nq {
            for c in 0..combos {
                if !f.exclude.is_empty() {
                    pick = combination(dims, f.axes.len(), c);
                }
                for w in 0..nw {
                    let is_program = f.program(&f.workloads[w].name).is_some();
                    for s in 0..ns {
                        if is_program && s > 0 {
                            break;
                        }
                        let size = if is_program { ns } else { s };
                        if !rules.excluded(t, q, &pick, w, size) {
                            count += 1;
                            if count <= max_points {
                                kept.push((t, q, c, w, s));
                            }
                        }
                    }
                }
            }
        }
    }
    (kept, count)
}

/// The sweep's points in plan order: each kept point (tech, technique, combination, workload,
/// size) labelled and keyed by what it computes (the variant's configuration text `texts`, the
/// technology point, the calibration overlay's hash, the workload's identity and the size).
fn key_points(
    f: &SweepFile,
    kept: &[KeptPoint],
    variants: &[Variant],
    texts: &[String],
    choices: &[techlib::ResolvedPoint],
    overlay_hash: &str,
) -> Vec<Point> {
    // the technology point as keyed, once per point of the file (not per sweep point)
    let choice_texts: Vec<String> = choices.iter().map(|c| format!("{c:?}")).collect();
    let mut points = Vec::new();
    let mut v = 0;
    for (i, &(t, q, c, w, s)) in kept.iter().enumerate() {
        if i > 0 && (kept[i - 1].0, kept[i - 1].1, kept[i - 1].2) != (t, q, c) {
            v += 1;
        }
        let var = &variants[v];
        let tp = &f.techs[t];
        let (workload, size) = (&f.workloads[w].name, size_name(f, w, s).to_string());
        // a built-in workload is keyed by its name, a program by its content
        let identity = match f.program(workload) {
            Some(p) => p.identity.clone(),
            None => workload.clone(),
        };
        // a sampled point is another computation (a full point's key is as before)
        let sampled = f.sampling.cache_key();
        let mut parts = vec![
            "gpuenergy-sweep-point v1",
            crate::digest::program_version(),
            &texts[v],
            &choice_texts[var.tech],
            overlay_hash,
            &identity,
            &size,
        ];
        if let Some(k) = &sampled {
            parts.push(k);
        }
        let key = crate::digest::hash_parts(&parts);
        points.push(Point {
            label: PointLabel {
                index: points.len(),
                key,
                node: tp.node.clone(),
                op: tp.op.clone().unwrap_or_default(),
                device: tp.device.clone().unwrap_or_default(),
                temperature_k: tp.temperature_k,
                technique: var.technique.clone(),
                knobs: var
                    .knobs
                    .iter()
                    .map(|(k, v)| (k.clone(), v.display.clone()))
                    .collect(),
                workload: workload.clone(),
                size,
            },
            variant: v,
        });
    }
    points
}

impl Plan {
    /// Expands `f`: checks the configuration keys and values, the technology points and the
    /// point count (at most `max_points`), then resolves every variant and keys every point.
    /// Nothing is simulated.
    pub fn build(f: SweepFile, max_points: usize) -> anyhow::Result<Plan> {
        // the size first, from the axis lengths alone: an oversized sweep is refused before any
        // value is checked or any configuration built
        let dims = dimensions(&f);
        let combos: u128 = dims.iter().map(|(_, n)| *n as u128).product();
        let (nt, nq, nw, ns) = (
            f.techs.len(),
            f.techniques.len(),
            f.workloads.len(),
            f.sizes.len(),
        );
        let upper = nt as u128 * nq as u128 * combos * nw as u128 * ns as u128;
        let too_many = |n: String| {
            f.error(
                f.axes_loc,
                "axes",
                format!(
                    "the sweep has {n} points ({nt} technology points x {nq} techniques x {combos} \
                     axis combinations x {nw} workloads x {ns} sizes{}), more than --max-points \
                     {max_points}; narrow the axes, add [[exclude]] rules or raise --max-points",
                    if f.exclude.is_empty() { "" } else { ", less exclusions" }
                ),
            )
        };
        if upper > max_points as u128 && (f.exclude.is_empty() || upper > COUNT_LIMIT) {
            let n = if f.exclude.is_empty() {
                upper.to_string()
            } else {
                format!("up to {upper}")
            };
            return Err(too_many(n).into());
        }

        let (base, set) = base_config(&f)?;
        let choices = tech_choices(&f)?;
        let overlay = match &f.calibration {
            Some(p) => Some(
                NamedOverlay::load(p)
                    .map_err(|e| f.error(f.base_loc, "calibration", e.to_string()))?,
            ),
            None => None,
        };
        let overlay_hash = match &f.calibration {
            Some(p) => crate::digest::hash_parts(&[&std::fs::read_to_string(p)?]),
            None => String::new(),
        };

        // every kept point as (tech, technique, combination, workload, size); past the limit
        // the walk only counts (index lookups, no allocation per point)
        let (kept, count) = kept_points(&f, &dims, combos, max_points);
        if count > max_points {
            return Err(too_many(count.to_string()).into());
        }
        if kept.is_empty() {
            return Err(f
                .error(
                    f.axes_loc,
                    "exclude",
                    format!(
                        "the [[exclude]] rules leave no point of the {upper} the sweep has; \
                         nothing would run (drop or narrow a rule)"
                    ),
                )
                .into());
        }

        let resolved = f
            .techniques
            .iter()
            .map(|t| technique::resolve(&t.name))
            .collect::<Result<Vec<_>, _>>()?;
        // Each technique's knobs on the base configuration, once: a variant's configuration is
        // this with the `[set]` and axis pairs applied (`technique::Resolved::apply` in two
        // steps), so the knobs are not re-applied for every combination. A technique whose
        // knobs do not apply alone is resolved per variant, as `apply` does.
        // The configuration is prepared once per technique to take each variant's pairs
        // (`StudyConfig::prepare_overrides`: its schema table is not rebuilt per variant).
        let with_knobs: Vec<Option<crate::study_config::PreparedOverrides>> = resolved
            .iter()
            .map(|r| r.apply(&base, &[]).ok().map(|c| c.prepare_overrides()))
            .collect();
        // The variants in plan order (consecutive kept points share one), resolved in
        // parallel: each is an independent configuration build and check. The first failing
        // variant in plan order is the error, so the message does not depend on the threads.
        let mut order: Vec<(usize, usize, u128)> = Vec::new();
        for &(t, q, c, _, _) in &kept {
            if order.last() != Some(&(t, q, c)) {
                order.push((t, q, c));
            }
        }
        let resolve = |&(t, q, c): &(usize, usize, u128)| -> anyhow::Result<(Variant, String)> {
            let pick = combination(&dims, f.axes.len(), c);
            let knobs: Vec<(String, KnobValue)> = f
                .axes
                .iter()
                .zip(&pick)
                .map(|(a, &i)| (a.key.clone(), a.values[i].clone()))
                .collect();
            let mut pairs = set.clone();
            pairs.extend(knobs.iter().map(|(k, v)| (k.clone(), v.toml.clone())));
            let name = format!(
                "technique '{}'{}",
                f.techniques[q].name,
                knobs
                    .iter()
                    .map(|(k, v)| format!(", {k} = {}", v.toml))
                    .collect::<String>()
            );
            let loc = if f.axes.is_empty() {
                f.techniques[q].loc
            } else {
                f.axes_loc
            };
            let config = match &with_knobs[q] {
                Some(k) => k.apply(&pairs, "--set"),
                None => resolved[q].apply(&base, &pairs),
            }
            .map_err(|e| f.error(loc, "axes", format!("{name}: {e}")))?;
            models::gpu::limits::check_sizes(&config)
                .map_err(|e| f.error(loc, "axes", format!("{name}: {e}")))?;
            if config.reconv.mode != sim::config::reconv::ReconvMode::Pdom {
                return Err(f
                    .error(
                        loc,
                        "reconv.mode",
                        format!(
                            "{name}: reconv.mode = dwf, mimd or nrec runs on the reference \
                             model, which has no energy; a sweep costs every point (use \
                             `gpuenergy compare` for cycles)"
                        ),
                    )
                    .into());
            }
            let text = config.to_toml_string();
            Ok((
                Variant {
                    tech: t,
                    technique: f.techniques[q].name.clone(),
                    knobs,
                    config,
                    choice: choices[t].clone(),
                },
                text,
            ))
        };
        use rayon::prelude::*;
        let built: Vec<anyhow::Result<(Variant, String)>> = order.par_iter().map(resolve).collect();
        let mut variants: Vec<Variant> = Vec::with_capacity(built.len());
        let mut texts: Vec<String> = Vec::with_capacity(built.len());
        for b in built {
            let (v, t) = b?;
            variants.push(v);
            texts.push(t);
        }
        let points = key_points(&f, &kept, &variants, &texts, &choices, &overlay_hash);
        check_distinct_keys(&f, &points)?;
        Ok(Plan {
            file: f,
            overlay,
            variants,
            points,
        })
    }

    /// Axis combinations before exclusions (the product of the dimensions' lengths).
    pub fn combinations(&self) -> u128 {
        dimensions(&self.file)
            .iter()
            .map(|(_, n)| *n as u128)
            .product()
    }

    /// The plan as written to the sweep folder.
    pub fn record(&self) -> PlanRecord {
        PlanRecord {
            format: PLAN_FORMAT.to_string(),
            file: self.file.path.display().to_string(),
            axes: self.file.axes.iter().map(|a| a.key.clone()).collect(),
            points: self.points.iter().map(|p| p.label.clone()).collect(),
        }
    }

    /// The points of `shard`, in order.
    pub fn shard(&self, shard: Shard) -> impl Iterator<Item = &Point> {
        self.points.iter().filter(move |p| shard.has(p.label.index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn plan(text: &str, max: usize) -> anyhow::Result<Plan> {
        Plan::build(SweepFile::parse(Path::new("s.toml"), text)?, max)
    }

    const FILE: &str = r#"workloads = ["hotspot", "nw"]
techniques = ["none", "conv-pg"]
zip = [["pg.bet", "pg.wakeup"]]

[[tech]]
node = "40nm"

[axes]
"pg.idle_detect" = [5, 10]
"pg.bet" = [9, 14, 19]
"pg.wakeup" = [3, 6, 9]

[[exclude]]
technique = "none"
"pg.bet" = [14, 19]
"#;

    #[test]
    fn expansion_order_zip_and_exclusions() {
        let p = plan(FILE, 1000).unwrap();
        // none: 2 idle_detect x 1 (bet 9 only) ; conv-pg: 2 x 3 ; each x 2 workloads
        assert_eq!(p.points.len(), (2 + 6) * 2);
        assert_eq!(p.variants.len(), 8);
        let first = &p.points[0].label;
        assert_eq!(first.technique, "none");
        assert_eq!(first.workload, "hotspot");
        assert_eq!(first.knobs[0], ("pg.idle_detect".into(), "5".into()));
        // zip: bet and wakeup step together
        for v in &p.variants {
            let bet = &v.knobs[1].1.toml;
            let wake = &v.knobs[2].1.toml;
            let pairs = [("9", "3"), ("14", "6"), ("19", "9")];
            assert!(
                pairs.contains(&(bet.as_str(), wake.as_str())),
                "{bet} {wake}"
            );
            assert_eq!(v.config.pg.bet.to_string(), *bet);
        }
        // keys are distinct and stable
        let mut keys: Vec<&str> = p.points.iter().map(|x| x.label.key.as_str()).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), p.points.len());
        assert_eq!(plan(FILE, 1000).unwrap().record(), p.record());
    }

    #[test]
    fn shards_partition_the_points() {
        let p = plan(FILE, 1000).unwrap();
        let mut seen = vec![0; p.points.len()];
        for i in 0..3 {
            for x in p.shard(Shard { index: i, count: 3 }) {
                seen[x.label.index] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
        assert_eq!(
            "2/3".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 3 }
        );
        assert!("3/3".parse::<Shard>().is_err());
        assert!("1/0".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }

    #[test]
    fn bad_values_and_too_many_points_name_line_and_key() {
        let e = plan(FILE, 15).unwrap_err().to_string();
        assert!(
            e.starts_with("s.toml:8:1: 'axes'") && e.contains("16 points"),
            "{e}"
        );
        let e = plan(&FILE.replace("[5, 10]", "[5, \"x\"]"), 1000)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("s.toml:9:") && e.contains("'pg.idle_detect'"),
            "{e}"
        );
        let e = plan(&FILE.replace("pg.idle_detect", "pg.idle_detekt"), 1000)
            .unwrap_err()
            .to_string();
        assert!(e.contains("s.toml:9:") && e.contains("unknown key"), "{e}");
        let e = plan(&FILE.replace("node = \"40nm\"", "node = \"planar3\""), 1000)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("s.toml:5:") && e.contains("'tech'"), "{e}");
    }
}
