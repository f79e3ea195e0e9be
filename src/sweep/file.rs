//! The sweep file: a TOML description of a design-space sweep, parsed with the position of
//! every key so that each error names the file, the line and the key.
//!
//! ```toml
//! preset = "gtx480"                 # or: config = "gpu.toml" (relative to this file)
//! workloads = ["hotspot", "nw"]     # built-in workloads (`gpuenergy workloads`)
//! programs = ["my.toml"]            # user program files (relative to this file); a program
//!                                   # is a workload of its own name, run at one size ("program")
//! sizes = ["test"]                  # default ["test"]; built-in workloads only
//! techniques = ["none", "gates"]    # named techniques or '+'-joined combinations; default ["none"]
//! zip = [["pg.bet", "pg.wakeup"]]   # axes that vary together (optional)
//! sample = "kernels"                # kernel sampling of every point: off (default), kernels,
//! sample_error = "2%"               # auto (with its target, default 2 %), as `--sample`
//!
//! [[tech]]                          # technology points, at least one
//! node = "40nm"                     # also: op, vdd_v, device, temperature_k (default 350)
//!
//! [set]                             # fixed overrides of every point (optional)
//! "pg.idle_detect" = 5
//!
//! [axes]                            # knob values, combined as a cartesian product
//! "pg.bet" = [9, 14]
//! "pg.wakeup" = [3, 6]
//!
//! [[exclude]]                       # a point matching every key of a rule is left out
//! technique = "none"
//! "pg.bet" = 14
//! ```
//!
//! What this module checks (everything that needs no configuration): known keys and types,
//! non-empty lists without repeats, `preset` and `config` not both given, known workloads,
//! sizes and techniques, every `zip` member an axis of equal length in at most one group,
//! every `exclude` key a dimension of the sweep and every value one the sweep has, and no knob
//! set twice (an axis also in `[set]`, or an axis or `[set]` key that a technique of the
//! sweep sets). Configuration keys and values are checked by [`super::plan`].

use crate::technique;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

use crate::spanned_file::Ctx;
pub use crate::spanned_file::{FileError, Loc};

/// One value of a knob: its TOML text (what `--set` takes) and how tables show it.
#[derive(Clone, Debug, PartialEq)]
pub struct KnobValue {
    /// The value as TOML (`14`, `0.5`, `"gto"`), given to the configuration's override parser.
    pub toml: String,
    /// Strings without quotes, other values as TOML.
    pub display: String,
    /// Where it is.
    pub loc: Loc,
}

impl KnobValue {
    fn of(v: &toml::Value, loc: Loc) -> KnobValue {
        KnobValue {
            toml: v.to_string(),
            display: match v {
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            },
            loc,
        }
    }
}

/// An axis: a configuration key and the values it takes.
#[derive(Clone, Debug)]
pub struct Axis {
    /// Dotted configuration key.
    pub key: String,
    /// Where the key is.
    pub loc: Loc,
    /// Its values, in the file's order.
    pub values: Vec<KnobValue>,
}

/// A fixed override of every point (`[set]`).
#[derive(Clone, Debug)]
pub struct Fixed {
    /// Dotted configuration key.
    pub key: String,
    /// Its value.
    pub value: KnobValue,
}

/// A named list entry (workload, size, technique) and where it is.
#[derive(Clone, Debug)]
pub struct Item {
    /// The name.
    pub name: String,
    /// Where it is.
    pub loc: Loc,
}

/// A `[[tech]]` entry as the file spells it, with its position: the plan resolves it into a
/// `techlib::ResolvedPoint` (`sweep::plan`), the one resolver, so that errors name this entry.
#[derive(Clone, Debug, PartialEq)]
pub struct TechEntry {
    /// Node (`finfet7`, `planar45`, `40nm`, `asap7`).
    pub node: String,
    /// Named operating point (`stv`, `ntv`).
    pub op: Option<String>,
    /// Supply, V.
    pub vdd_v: Option<f64>,
    /// Device flavour.
    pub device: Option<String>,
    /// Junction temperature, K.
    pub temperature_k: f64,
    /// Where the entry is.
    pub loc: Loc,
}

/// An `[[exclude]]` rule: a point is left out when every key matches one of its values.
#[derive(Clone, Debug)]
pub struct Rule {
    /// `(dimension, values)`: `node`, `technique`, `workload`, `size` or an axis key.
    pub matches: Vec<(String, Vec<KnobValue>)>,
    /// Where the rule is.
    pub loc: Loc,
}

/// Where the base configuration comes from.
#[derive(Clone, Debug)]
pub enum Base {
    /// A built-in preset.
    Preset(String),
    /// A configuration TOML, resolved against the sweep file's folder.
    Config(PathBuf),
}

/// A parsed and checked sweep file.
#[derive(Clone, Debug)]
pub struct SweepFile {
    /// The file as given.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
    /// The base configuration.
    pub base: Base,
    /// Where `preset`/`config` is (the file's start when neither is given).
    pub base_loc: Loc,
    /// Calibration overlay, resolved against the sweep file's folder.
    pub calibration: Option<PathBuf>,
    /// Kernel sampling of every point's launches (`sample`, `sample_error`; off by default).
    pub sampling: crate::sample::Sampling,
    /// Fixed overrides.
    pub set: Vec<Fixed>,
    /// Workloads: the built-in ones, then the programs (by their names).
    pub workloads: Vec<Item>,
    /// The loaded programs, in `programs` order (each also in `workloads`, by name).
    pub programs: Vec<&'static crate::program::UserProgram>,
    /// Size tiers.
    pub sizes: Vec<Item>,
    /// Techniques (names or combinations).
    pub techniques: Vec<Item>,
    /// Technology points.
    pub techs: Vec<TechEntry>,
    /// Axes in the file's order.
    pub axes: Vec<Axis>,
    /// Where `[axes]` is.
    pub axes_loc: Loc,
    /// Zip groups as indices into `axes`.
    pub zip: Vec<Vec<usize>>,
    /// Exclusion rules.
    pub exclude: Vec<Rule>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTech {
    node: Spanned<String>,
    op: Option<Spanned<String>>,
    vdd_v: Option<Spanned<f64>>,
    device: Option<Spanned<String>>,
    temperature_k: Option<Spanned<f64>>,
}

type Names = Spanned<Vec<Spanned<String>>>;
type KeyTable = Spanned<BTreeMap<Spanned<String>, Spanned<toml::Value>>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    preset: Option<Spanned<String>>,
    config: Option<Spanned<String>>,
    calibration: Option<Spanned<String>>,
    sample: Option<Spanned<String>>,
    sample_error: Option<Spanned<toml::Value>>,
    workloads: Option<Names>,
    programs: Option<Names>,
    sizes: Option<Names>,
    techniques: Option<Names>,
    zip: Option<Spanned<Vec<Names>>>,
    tech: Spanned<Vec<Spanned<RawTech>>>,
    set: Option<KeyTable>,
    axes: Option<KeyTable>,
    exclude: Option<Vec<KeyTable>>,
}

/// `sample` and `sample_error`: the sampling of every point, as `--sample` and
/// `--sample-error` take them (`sample_error` only with `sample = "auto"`).
fn read_sampling(cx: &Ctx<'_>, raw: &Raw) -> Result<crate::sample::Sampling, FileError> {
    use crate::sample::{parse_error, SampleMode, Sampling};
    use clap::ValueEnum;
    let mode = match &raw.sample {
        Some(m) => SampleMode::from_str(m.get_ref().trim(), false).map_err(|_| {
            cx.at(
                m,
                "sample",
                format!(
                    "unknown sampling '{}'; allowed: off, kernels, auto",
                    m.get_ref()
                ),
            )
        })?,
        None => SampleMode::Off,
    };
    let Some(e) = &raw.sample_error else {
        return Ok(Sampling::new(mode, crate::sample::DEFAULT_TARGET_ERROR));
    };
    let text = match e.get_ref() {
        toml::Value::String(t) => t.clone(),
        toml::Value::Float(f) => f.to_string(),
        other => other.to_string(),
    };
    let target = parse_error(&text).map_err(|why| cx.at(e, "sample_error", why))?;
    Sampling::checked(mode, Some(target), "sample_error", |m| {
        format!("sample = \"{m}\"")
    })
    .map_err(|why| cx.at(e, "sample_error", why))
}

/// The dimensions an exclusion rule may name besides the axes.
const DIMENSIONS: &[&str] = &["node", "technique", "workload", "size"];

/// Checks of the sweep file's lists.
trait ListChecks {
    /// A non-empty list of distinct names.
    fn names(&self, list: &Names, key: &str) -> Result<Vec<Item>, FileError>;
}

impl ListChecks for Ctx<'_> {
    fn names(&self, list: &Names, key: &str) -> Result<Vec<Item>, FileError> {
        if list.get_ref().is_empty() {
            return Err(self.at(list, key, "the list is empty; give at least one value"));
        }
        let mut out: Vec<Item> = Vec::new();
        for n in list.get_ref() {
            let name = n.get_ref().trim().to_string();
            if out.iter().any(|o| o.name == name) {
                return Err(self.at(n, key, format!("'{name}' is listed twice")));
            }
            out.push(Item {
                name,
                loc: self.loc(n.span()),
            });
        }
        Ok(out)
    }
}

impl SweepFile {
    /// What produced a sweep's outputs (`sweep run`, `sweep merge`): the command line,
    /// `config_name` the sweep's base configuration (the preset's name or the configuration
    /// file), `config_source` `sweep FILE` and `config_hash` the FNV-1a hash of the sweep file's
    /// text. Each point's technology point, technique, workload and size are the sweep table's
    /// own columns.
    pub fn run_info(&self) -> crate::provenance::RunInfo {
        let mut r = crate::provenance::RunInfo::for_command();
        r.config_name = match &self.base {
            Base::Preset(p) => p.clone(),
            Base::Config(p) => p.display().to_string(),
        };
        r.config_source = format!("sweep {}", self.path.display());
        r.config_hash = format!(
            "{:016x}",
            crate::digest::fnv1a(crate::digest::FNV_OFFSET, self.text.as_bytes())
        );
        r
    }

    /// Reads and checks the sweep file at `path`.
    pub fn load(path: &Path) -> Result<SweepFile, anyhow::Error> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read sweep file {}: {e}", path.display()))?;
        Ok(SweepFile::parse(path, &text)?)
    }

    /// Parses and checks `text`, the contents of `path` (relative paths inside it are resolved
    /// against `path`'s folder).
    pub fn parse(path: &Path, text: &str) -> Result<SweepFile, FileError> {
        let cx = Ctx {
            file: path.display().to_string(),
            text,
        };
        let raw: Raw = cx.parse()?;
        let folder = path.parent().unwrap_or(Path::new(""));
        let (base, base_loc) = match (&raw.preset, &raw.config) {
            (Some(_), Some(c)) => {
                return Err(cx.at(
                    c,
                    "config",
                    "both 'preset' and 'config' are given; keep one (the configuration file \
                     names its own preset)",
                ))
            }
            (Some(p), None) => (Base::Preset(p.get_ref().clone()), cx.loc(p.span())),
            (None, Some(c)) => (Base::Config(folder.join(c.get_ref())), cx.loc(c.span())),
            (None, None) => (Base::Preset("gtx480".into()), Loc { line: 1, col: 1 }),
        };
        let calibration = raw.calibration.as_ref().map(|c| folder.join(c.get_ref()));
        let sampling = read_sampling(&cx, &raw)?;
        let mut workloads = match &raw.workloads {
            Some(w) => cx.names(w, "workloads")?,
            None => Vec::new(),
        };
        for w in &workloads {
            if sim::workloads::find(&w.name).is_none() {
                let known: Vec<&str> = sim::workloads::all()
                    .iter()
                    .map(|w| w.info().name)
                    .collect();
                return Err(cx.err(
                    w.loc,
                    "workloads",
                    format!("unknown workload '{}'; known: {}", w.name, known.join(", ")),
                ));
            }
        }
        let mut programs: Vec<&'static crate::program::UserProgram> = Vec::new();
        if let Some(list) = &raw.programs {
            for item in cx.names(list, "programs")? {
                let prog = crate::program::UserProgram::load(&folder.join(&item.name))
                    .map_err(|e| cx.err(item.loc, "programs", format!("{e:#}")))?;
                if let Some(w) = workloads.iter().find(|w| w.name == prog.name) {
                    return Err(cx.err(
                        item.loc,
                        "programs",
                        format!(
                            "program '{}' has the name of another workload of the sweep (line \
                             {}); results are labelled by name",
                            prog.name, w.loc.line
                        ),
                    ));
                }
                workloads.push(Item {
                    name: prog.name.clone(),
                    loc: item.loc,
                });
                programs.push(prog.leak());
            }
        }
        if workloads.is_empty() {
            return Err(cx.err(
                Loc { line: 1, col: 1 },
                "workloads",
                "no workloads: give workloads = [...] (built-in) and/or programs = [...] (program \
                 files)",
            ));
        }
        let sizes = match &raw.sizes {
            Some(s) => cx.names(s, "sizes")?,
            None => vec![Item {
                name: "test".into(),
                loc: Loc::default(),
            }],
        };
        for s in &sizes {
            if s.name.parse::<sim::workloads::Size>().is_err() {
                return Err(cx.err(
                    s.loc,
                    "sizes",
                    format!("unknown size '{}'; allowed: test, bench", s.name),
                ));
            }
        }
        let techniques = match &raw.techniques {
            Some(t) => cx.names(t, "techniques")?,
            None => vec![Item {
                name: "none".into(),
                loc: Loc::default(),
            }],
        };
        let mut resolved = Vec::new();
        for t in &techniques {
            resolved.push(
                technique::resolve(&t.name)
                    .map_err(|e| cx.err(t.loc, "techniques", e.to_string()))?,
            );
        }
        let techs = read_techs(&cx, &raw.tech)?;
        let set = match &raw.set {
            Some(t) => read_fixed(&cx, t)?,
            None => Vec::new(),
        };
        let (axes, axes_loc) = match &raw.axes {
            Some(t) => (read_axes(&cx, t)?, cx.loc(t.span())),
            None => (Vec::new(), Loc { line: 1, col: 1 }),
        };
        // no knob set twice
        for a in &axes {
            if let Some(f) = set.iter().find(|f| f.key == a.key) {
                return Err(cx.err(
                    a.loc,
                    &a.key,
                    format!(
                        "conflicting knobs: the key is an axis and also fixed in [set] (line {})",
                        f.value.loc.line
                    ),
                ));
            }
        }
        let fixed_keys = axes
            .iter()
            .map(|a| (a.key.as_str(), a.loc, "an axis"))
            .chain(
                set.iter()
                    .map(|f| (f.key.as_str(), f.value.loc, "in [set]")),
            );
        for (key, loc, what) in fixed_keys {
            for (t, r) in techniques.iter().zip(&resolved) {
                for part in &r.parts {
                    let tech = technique::technique(part)
                        .map_err(|e| cx.err(t.loc, "techniques", e.to_string()))?;
                    if let Some((_, v)) = tech.sets.iter().find(|(k, _)| *k == key) {
                        return Err(cx.err(
                            loc,
                            key,
                            format!(
                                "conflicting knobs: the key is {what}, but technique '{part}' \
                                 (line {}) sets it to {v}; drop the technique or the key",
                                t.loc.line
                            ),
                        ));
                    }
                }
            }
        }
        let zip = match &raw.zip {
            Some(z) => read_zip(&cx, z, &axes)?,
            None => Vec::new(),
        };
        let exclude = match &raw.exclude {
            Some(rules) => rules
                .iter()
                .map(|r| read_rule(&cx, r, &axes, &techs, &techniques, &workloads, &sizes))
                .collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
        };
        Ok(SweepFile {
            path: path.to_path_buf(),
            text: text.to_string(),
            base,
            base_loc,
            calibration,
            sampling,
            set,
            workloads,
            programs,
            sizes,
            techniques,
            techs,
            axes,
            axes_loc,
            zip,
            exclude,
        })
    }

    /// The loaded program called `name`, if the sweep has one.
    pub fn program(&self, name: &str) -> Option<&'static crate::program::UserProgram> {
        self.programs.iter().copied().find(|p| p.name == name)
    }

    /// The workload `name` of the sweep: a built-in workload or one of its programs.
    pub fn workload(
        &self,
        name: &str,
    ) -> Result<&'static dyn sim::workloads::Workload, crate::study::StudyError> {
        if let Some(p) = self.program(name) {
            return Ok(p);
        }
        Ok(crate::study::workloads_named(name)?[0])
    }

    /// The error `msg` about `key` at `loc` of this file.
    pub fn error(&self, loc: Loc, key: &str, msg: impl Into<String>) -> FileError {
        FileError {
            file: self.path.display().to_string(),
            line: loc.line,
            col: loc.col,
            key: key.to_string(),
            msg: msg.into(),
        }
    }
}

fn read_techs(
    cx: &Ctx,
    list: &Spanned<Vec<Spanned<RawTech>>>,
) -> Result<Vec<TechEntry>, FileError> {
    if list.get_ref().is_empty() {
        return Err(cx.at(
            list,
            "tech",
            "no technology point; add a [[tech]] table with a node",
        ));
    }
    let mut out: Vec<TechEntry> = Vec::new();
    for t in list.get_ref() {
        let r = t.get_ref();
        let positive = |v: &Option<Spanned<f64>>, key: &str| -> Result<Option<f64>, FileError> {
            match v {
                Some(x) if !(x.get_ref().is_finite() && *x.get_ref() > 0.0) => {
                    Err(cx.at(x, key, format!("{} is not a positive number", x.get_ref())))
                }
                Some(x) => Ok(Some(*x.get_ref())),
                None => Ok(None),
            }
        };
        let vdd_v = positive(&r.vdd_v, "vdd_v")?;
        let temperature_k = positive(&r.temperature_k, "temperature_k")?
            .unwrap_or(crate::study::DEFAULT_TEMPERATURE_K);
        let p = TechEntry {
            node: r.node.get_ref().clone(),
            op: r.op.as_ref().map(|o| o.get_ref().clone()),
            vdd_v,
            device: r.device.as_ref().map(|d| d.get_ref().clone()),
            temperature_k,
            loc: cx.loc(t.span()),
        };
        if out.iter().any(|o| {
            TechEntry {
                loc: p.loc,
                ..o.clone()
            } == p
        }) {
            return Err(cx.at(t, "tech", "the same technology point is listed twice"));
        }
        out.push(p);
    }
    Ok(out)
}

/// A table of dotted keys in the file's order.
fn keys_in_order(t: &KeyTable) -> Vec<(&Spanned<String>, &Spanned<toml::Value>)> {
    let mut v: Vec<_> = t.get_ref().iter().collect();
    v.sort_by_key(|(k, _)| k.span().start);
    v
}

fn check_key(cx: &Ctx, k: &Spanned<String>) -> Result<(), FileError> {
    let key = k.get_ref();
    if key.split('.').count() < 2 || key.split('.').any(|p| p.trim().is_empty()) {
        return Err(cx.at(
            k,
            key,
            "expected a dotted configuration key in quotes, e.g. \"pg.bet\" (see `gpuenergy \
             presets --dump gtx480`)",
        ));
    }
    Ok(())
}

fn scalar(cx: &Ctx, key: &str, v: &Spanned<toml::Value>) -> Result<KnobValue, FileError> {
    match v.get_ref() {
        toml::Value::Array(_) | toml::Value::Table(_) | toml::Value::Datetime(_) => {
            Err(cx.at(v, key, "expected one value (a number, string or boolean)"))
        }
        x => Ok(KnobValue::of(x, cx.loc(v.span()))),
    }
}

fn read_fixed(cx: &Ctx, t: &KeyTable) -> Result<Vec<Fixed>, FileError> {
    keys_in_order(t)
        .into_iter()
        .map(|(k, v)| {
            check_key(cx, k)?;
            Ok(Fixed {
                key: k.get_ref().clone(),
                value: scalar(cx, k.get_ref(), v)?,
            })
        })
        .collect()
}

fn read_axes(cx: &Ctx, t: &KeyTable) -> Result<Vec<Axis>, FileError> {
    if t.get_ref().is_empty() {
        return Err(cx.at(
            t,
            "axes",
            "[axes] has no axis; add one (\"pg.bet\" = [9, 14]) or remove the table",
        ));
    }
    let mut out = Vec::new();
    for (k, v) in keys_in_order(t) {
        check_key(cx, k)?;
        let key = k.get_ref();
        let toml::Value::Array(items) = v.get_ref() else {
            return Err(cx.at(v, key, "an axis is a list of values, e.g. [9, 14, 19]"));
        };
        if items.is_empty() {
            return Err(cx.at(v, key, "empty axis: give at least one value"));
        }
        let loc = cx.loc(v.span());
        let mut values: Vec<KnobValue> = Vec::new();
        let mut numbers: Vec<Option<f64>> = Vec::new();
        for x in items {
            if matches!(
                x,
                toml::Value::Array(_) | toml::Value::Table(_) | toml::Value::Datetime(_)
            ) {
                return Err(cx.at(v, key, "axis values are numbers, strings or booleans"));
            }
            let kv = KnobValue::of(x, loc);
            // numbers are compared by value: 1, 1.0 and 1e0 are one setting
            let n = match x {
                toml::Value::Integer(i) => Some(*i as f64),
                toml::Value::Float(f) => Some(*f),
                _ => None,
            };
            if let Some(o) = values
                .iter()
                .zip(&numbers)
                .find(|(o, on)| o.toml == kv.toml || (n.is_some() && **on == n))
            {
                return Err(cx.at(
                    v,
                    key,
                    format!(
                        "value {} is listed twice{}; list each value once",
                        kv.toml,
                        if o.0.toml == kv.toml {
                            String::new()
                        } else {
                            format!(" (as {}, the same number)", o.0.toml)
                        }
                    ),
                ));
            }
            values.push(kv);
            numbers.push(n);
        }
        out.push(Axis {
            key: key.clone(),
            loc: cx.loc(k.span()),
            values,
        });
    }
    Ok(out)
}

fn read_zip(
    cx: &Ctx,
    z: &Spanned<Vec<Names>>,
    axes: &[Axis],
) -> Result<Vec<Vec<usize>>, FileError> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for g in z.get_ref() {
        if g.get_ref().len() < 2 {
            return Err(cx.at(g, "zip", "a zip group joins at least two axes"));
        }
        let mut group = Vec::new();
        for name in g.get_ref() {
            let Some(i) = axes.iter().position(|a| &a.key == name.get_ref()) else {
                return Err(cx.at(
                    name,
                    name.get_ref(),
                    format!(
                        "not an axis; zip groups join keys of [axes] ({})",
                        axes.iter()
                            .map(|a| a.key.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            };
            if group.contains(&i) || groups.iter().any(|o| o.contains(&i)) {
                return Err(cx.at(name, name.get_ref(), "the axis is in a zip group already"));
            }
            let first = group.first().map(|&f: &usize| &axes[f]);
            if let Some(f) = first {
                if f.values.len() != axes[i].values.len() {
                    return Err(cx.at(
                        name,
                        name.get_ref(),
                        format!(
                            "zipped axes need as many values each: '{}' has {}, this one {}",
                            f.key,
                            f.values.len(),
                            axes[i].values.len()
                        ),
                    ));
                }
            }
            group.push(i);
        }
        groups.push(group);
    }
    Ok(groups)
}

fn read_rule(
    cx: &Ctx,
    r: &KeyTable,
    axes: &[Axis],
    techs: &[TechEntry],
    techniques: &[Item],
    workloads: &[Item],
    sizes: &[Item],
) -> Result<Rule, FileError> {
    if r.get_ref().is_empty() {
        return Err(cx.at(r, "exclude", "an empty rule would exclude every point"));
    }
    let mut matches = Vec::new();
    for (k, v) in keys_in_order(r) {
        let key = k.get_ref();
        let items: Vec<Spanned<toml::Value>> = match v.get_ref() {
            toml::Value::Array(a) => a
                .iter()
                .map(|x| Spanned::new(v.span(), x.clone()))
                .collect(),
            _ => vec![v.clone()],
        };
        let values = items
            .iter()
            .map(|x| scalar(cx, key, x))
            .collect::<Result<Vec<_>, _>>()?;
        let allowed: Vec<String> = if let Some(a) = axes.iter().find(|a| &a.key == key) {
            a.values.iter().map(|x| x.toml.clone()).collect()
        } else {
            let names = |l: &[Item]| l.iter().map(|i| format!("\"{}\"", i.name)).collect();
            match key.as_str() {
                "node" => techs.iter().map(|t| format!("\"{}\"", t.node)).collect(),
                "technique" => names(techniques),
                "workload" => names(workloads),
                "size" => names(sizes),
                _ => {
                    let mut dims: Vec<&str> = DIMENSIONS.to_vec();
                    dims.extend(axes.iter().map(|a| a.key.as_str()));
                    return Err(cx.at(
                        k,
                        key,
                        format!(
                            "not a dimension of the sweep; rules match {}",
                            dims.join(", ")
                        ),
                    ));
                }
            }
        };
        for x in &values {
            if !allowed.contains(&x.toml) {
                return Err(cx.at(
                    v,
                    key,
                    format!(
                        "{} is not a value of the sweep ({})",
                        x.toml,
                        allowed.join(", ")
                    ),
                ));
            }
        }
        matches.push((key.clone(), values));
    }
    Ok(Rule {
        matches,
        loc: cx.loc(r.span()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<SweepFile, FileError> {
        SweepFile::parse(Path::new("s.toml"), text)
    }

    const GOOD: &str = r#"preset = "gtx480"
workloads = ["hotspot", "nw"]
techniques = ["none", "conv-pg"]
zip = [["pg.bet", "pg.wakeup"]]

[[tech]]
node = "40nm"

[axes]
"pg.wakeup" = [3, 6]
"pg.bet" = [9, 14]
"sched.policy" = ["gto"]

[[exclude]]
technique = "none"
"pg.bet" = 14
"#;

    #[test]
    fn a_good_file_parses_in_file_order() {
        let f = parse(GOOD).unwrap();
        assert_eq!(f.axes.len(), 3);
        assert_eq!(f.axes[0].key, "pg.wakeup");
        assert_eq!(f.axes[0].loc.line, 10);
        assert_eq!(f.axes[2].values[0].toml, "\"gto\"");
        assert_eq!(f.axes[2].values[0].display, "gto");
        assert_eq!(f.zip, vec![vec![1, 0]]);
        assert_eq!(f.exclude[0].matches.len(), 2);
        assert_eq!(f.techs[0].temperature_k, 350.0);
    }

    fn fails(text: &str, line: usize, key: &str, words: &str) {
        let e = parse(text).unwrap_err();
        let s = e.to_string();
        assert_eq!(e.line, line, "{s}");
        assert_eq!(e.key, key, "{s}");
        assert!(s.contains(words), "{s}");
        assert!(s.starts_with(&format!("s.toml:{line}:")), "{s}");
    }

    #[test]
    fn errors_name_the_line_and_key() {
        fails(&GOOD.replace("zip =", "zipp ="), 4, "zipp", "unknown field");
        fails(
            &GOOD.replace("node = \"40nm\"", "node = \"40nm\"\nvdd = 1"),
            8,
            "vdd",
            "unknown field",
        );
        fails(&GOOD.replace("[3, 6]", "[]"), 10, "pg.wakeup", "empty axis");
        fails(
            &GOOD.replace("[9, 14]", "[9, 14, 19]"),
            4,
            "pg.wakeup",
            "as many values",
        );
        fails(
            &GOOD.replace(
                "\"sched.policy\" = [\"gto\"]",
                "\"pg.policy\" = [\"Conventional\"]",
            ),
            12,
            "pg.policy",
            "conflicting knobs",
        );
        fails(
            &GOOD.replace("[[tech]]", "[set]\n\"pg.bet\" = 3\n\n[[tech]]"),
            14,
            "pg.bet",
            "conflicting knobs",
        );
        fails(
            &GOOD.replace("\"nw\"]", "\"nw\", \"nope\"]"),
            2,
            "workloads",
            "unknown workload 'nope'",
        );
        fails(
            &GOOD.replace("\"pg.bet\" = 14\n", "\"pg.bet\" = 15\n"),
            16,
            "pg.bet",
            "not a value",
        );
        fails(
            &GOOD.replace("technique = \"none\"", "flavour = \"x\""),
            15,
            "flavour",
            "not a dimension",
        );
        fails(
            &GOOD.replace(
                "preset = \"gtx480\"",
                "preset = \"gtx480\"\nconfig = \"a.toml\"",
            ),
            2,
            "config",
            "both",
        );
        fails(
            &GOOD.replace("\"conv-pg\"]", "\"conv-pg\", \"none\"]"),
            3,
            "techniques",
            "twice",
        );
        fails(
            &GOOD.replace("[axes]", "[axes]\n\"bet\" = [1]"),
            10,
            "bet",
            "dotted",
        );
    }
}
