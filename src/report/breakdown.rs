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
                    "  {key}: {} ({}; {})",
                    p.citation, p.location, p.workload
                );
                for (name, pct) in &p.shares_pct {
                    let ours = p.maps_to.get(name).map(String::as_str).unwrap_or("—");
                    let _ = writeln!(s, "    {name:<30} {pct:>6.1}%  (ours: {ours})");
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
            }
        }
    }
}
