//! The breakdown check: the shares of SM area and SM power per component group of an estimate,
//! next to published breakdowns of real GPUs (`models/data/published_breakdowns.toml`).
//!
//! The published figures are reference data for a reader, never a fitting target: nothing in
//! the engine reads them. A source whose component shares could not be read is listed with
//! its citation and an empty row, so the table shows what is and is not backed by data.

use crate::study::Report;
use models::gpu::Node;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The published breakdowns, embedded.
const PUBLISHED_TOML: &str = include_str!("../../models/data/published_breakdowns.toml");

/// One published breakdown.
#[derive(Debug, Clone, Deserialize)]
pub struct PublishedSource {
    /// Full citation.
    pub citation: String,
    /// Table or figure of the source that holds the numbers.
    #[serde(rename = "where")]
    pub location: String,
    /// GPU the breakdown describes.
    #[serde(default)]
    pub gpu: String,
    /// Workload or conditions of the breakdown.
    #[serde(default)]
    pub workload: String,
    /// Component share of power (or area) in percent, by the source's component name.
    #[serde(default)]
    pub shares_pct: BTreeMap<String, f64>,
    /// The source's component name → our component group.
    #[serde(default)]
    pub maps_to: BTreeMap<String, String>,
    /// What the shares are shares of: "chip_power" (total GPU power) or "core_area" (one SM's
    /// area); empty when no share was read.
    #[serde(default)]
    pub scope: String,
}

/// The node of an SM group or of one of its leaves: `"register file"` is the group,
/// `"register file/operand crossbar"` a leaf of it.
fn sm_node<'a>(sm: &'a Node, path: &str) -> Option<&'a Node> {
    let mut parts = path.split('/');
    let first = parts.next()?;
    let mut node = sm.children.iter().find(|c| c.name == first)?;
    for p in parts {
        node = node.children.iter().find(|c| c.name == p)?;
    }
    Some(node)
}

/// Our share, in percent, of the SM group or leaf `path` (see [`sm_node`]) at `scope`: of one
/// SM's area ("core_area"), of SM power ("sm_power") or of the whole chip's energy
/// ("chip_power", DRAM included); `None` for an unknown scope or path.
pub fn our_share_pct(r: &Report, scope: &str, path: &str) -> Option<f64> {
    let pct = |x: f64, t: f64| (t > 0.0).then(|| 100.0 * x / t);
    match scope {
        "core_area" | "sm_area" => {
            let sm = sm_group(&r.area)?;
            pct(sm_node(sm, path)?.totals().area_m2, sm.totals().area_m2)
        }
        "sm_power" | "chip_power" => {
            let (mut part, mut total) = (0.0, 0.0);
            for w in &r.workloads {
                let sm = sm_group(&w.estimate.root)?;
                total += if scope == "sm_power" {
                    sm.totals().energy_j()
                } else {
                    w.estimate.root.totals().energy_j()
                };
                part += sm_node(sm, path)?.totals().energy_j();
            }
            pct(part, total)
        }
        _ => None,
    }
}

#[derive(Debug, Deserialize)]
struct PublishedFile {
    sources: BTreeMap<String, PublishedSource>,
}

/// The embedded published breakdowns, by key.
pub fn published() -> Result<BTreeMap<String, PublishedSource>, toml::de::Error> {
    let f: PublishedFile = toml::from_str(PUBLISHED_TOML)?;
    Ok(f.sources)
}

/// Share of one SM component group: of SM area, of SM power (dynamic + leakage over the runs)
/// and of SM dynamic power, in percent.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupShare {
    /// Group name as in the estimate tree ("register file", "execution", …).
    pub group: String,
    /// Share of the SM group's area, %.
    pub area_pct: f64,
    /// Share of the SM group's energy over all runs, %.
    pub power_pct: f64,
    /// Share of the SM group's dynamic energy over all runs, %.
    pub dynamic_pct: f64,
}

/// The SM group of a chip tree (its first child, named "SMs (n)").
fn sm_group(root: &Node) -> Option<&Node> {
    root.children.iter().find(|c| c.name.starts_with("SMs"))
}

/// Shares of the SM component groups, with energies summed over the report's workloads.
pub fn sm_shares(r: &Report) -> Vec<GroupShare> {
    let Some(area) = sm_group(&r.area) else {
        return Vec::new();
    };
    let area_total = area.totals().area_m2;
    let mut energy = vec![0.0; area.children.len()];
    let mut dynamic = vec![0.0; area.children.len()];
    for w in &r.workloads {
        if let Some(sm) = sm_group(&w.estimate.root) {
            for (i, c) in sm.children.iter().enumerate().take(energy.len()) {
                let t = c.totals();
                energy[i] += t.energy_j();
                dynamic[i] += t.dynamic_j;
            }
        }
    }
    let e_total: f64 = energy.iter().sum();
    let d_total: f64 = dynamic.iter().sum();
    let pct = |x: f64, t: f64| if t > 0.0 { 100.0 * x / t } else { 0.0 };
    area.children
        .iter()
        .enumerate()
        .map(|(i, c)| GroupShare {
            group: c.name.clone(),
            area_pct: pct(c.totals().area_m2, area_total),
            power_pct: pct(energy[i], e_total),
            dynamic_pct: pct(dynamic[i], d_total),
        })
        .collect()
}

/// The breakdown check as text: our SM shares per group, then each published source's shares
/// mapped to our groups (or the statement that none could be read).
pub fn render(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "breakdown check — {} at {} ({} workloads, SM groups; power = dynamic + leakage)",
        r.gpu,
        r.tech,
        r.workloads.len()
    );
    let _ = writeln!(
        s,
        "{:<24} {:>10} {:>10} {:>10}",
        "SM group", "area %", "power %", "dynamic %"
    );
    for g in sm_shares(r) {
        let _ = writeln!(
            s,
            "{:<24} {:>9.1}% {:>9.1}% {:>9.1}%",
            g.group, g.area_pct, g.power_pct, g.dynamic_pct
        );
    }
    match published() {
        Err(e) => {
            let _ = writeln!(s, "published breakdowns unreadable: {e}");
        }
        Ok(sources) => {
            let _ = writeln!(
                s,
                "published breakdowns (models/data/published_breakdowns.toml):"
            );
            for (key, p) in &sources {
                if p.shares_pct.is_empty() {
                    let _ = writeln!(
                        s,
                        "  {key}: no component shares could be read ({}) — {}",
                        p.location, p.citation
                    );
                    continue;
                }
                let _ = writeln!(
                    s,
                    "  {key}: {} — {}; {}; {}; shares of {}",
                    p.citation,
                    p.location,
                    p.gpu,
                    p.workload,
                    p.scope.replace('_', " ")
                );
                let _ = writeln!(
                    s,
                    "    {:<40} {:>10} {:>8} (our group or leaf)",
                    "their component", "theirs", "ours"
                );
                for (name, pct) in &p.shares_pct {
                    let mapped = p.maps_to.get(name).map(String::as_str).unwrap_or("");
                    // A mapping may name alternatives ("group | group/leaf"), each printed.
                    for (i, path) in mapped.split('|').map(str::trim).enumerate() {
                        let ours = our_share_pct(r, &p.scope, path)
                            .map(|x| format!("{x:.1}%"))
                            .unwrap_or_else(|| "—".into());
                        let (theirs, label) = if i == 0 {
                            (format!("{pct:.1}%"), name.as_str())
                        } else {
                            (String::new(), "")
                        };
                        let _ = writeln!(s, "    {label:<40} {theirs:>10} {ours:>8} ({path})");
                    }
                }
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_file_parses_and_every_share_is_a_percentage() {
        let p = published().expect("embedded published_breakdowns.toml parses");
        assert!(!p.is_empty());
        for (key, src) in &p {
            assert!(!src.citation.is_empty(), "{key}: citation");
            for (name, pct) in &src.shares_pct {
                assert!((0.0..=100.0).contains(pct), "{key}.{name} = {pct}");
                assert!(src.maps_to.contains_key(name), "{key}.{name}: no mapping");
                let sm_groups = [
                    "front end",
                    "issue",
                    "register file",
                    "execution",
                    "memory pipeline",
                ];
                for path in src.maps_to[name].split('|').map(str::trim) {
                    let group = path.split('/').next().unwrap_or("");
                    assert!(sm_groups.contains(&group), "{key}.{name}: '{path}'");
                }
            }
            if !src.shares_pct.is_empty() {
                assert!(
                    ["chip_power", "core_area", "sm_power"].contains(&src.scope.as_str()),
                    "{key}: scope '{}'",
                    src.scope
                );
            }
        }
    }
}
