//! `Estimate`: a tree of costed components (DESIGN.md "Contracts"), with totals and renderers.
//!
//! Every node carries its own area and energies; a node's totals are its own values plus its
//! children's. Leaves are hardware blocks; inner nodes group them (SM, memory system, chip).

use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// One component (or group of components) of the chip.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Node {
    pub name: String,
    /// Instances on the chip that this node's numbers cover (already multiplied in).
    pub instances: u32,
    /// Silicon area of all instances.
    pub area_m2: f64,
    /// Switching energy over the run.
    pub dynamic_j: f64,
    /// Leakage energy over the run (per gating state when gating is modelled).
    pub leakage_j: f64,
    /// Energy spent entering and leaving gated states.
    pub gating_overhead_j: f64,
    /// Leakage power when fully powered (useful without activity).
    pub leakage_w: f64,
    pub children: Vec<Node>,
}

/// Sums of a subtree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub area_m2: f64,
    pub dynamic_j: f64,
    pub leakage_j: f64,
    pub gating_overhead_j: f64,
    pub leakage_w: f64,
}

impl Totals {
    pub fn energy_j(&self) -> f64 {
        self.dynamic_j + self.leakage_j + self.gating_overhead_j
    }
}

impl Node {
    /// A group node with no values of its own.
    pub fn group(name: impl Into<String>, children: Vec<Node>) -> Node {
        Node {
            name: name.into(),
            instances: 1,
            children,
            ..Node::default()
        }
    }

    /// Totals of this node and everything below it.
    pub fn totals(&self) -> Totals {
        let mut t = Totals {
            area_m2: self.area_m2,
            dynamic_j: self.dynamic_j,
            leakage_j: self.leakage_j,
            gating_overhead_j: self.gating_overhead_j,
            leakage_w: self.leakage_w,
        };
        for c in &self.children {
            let ct = c.totals();
            t.area_m2 += ct.area_m2;
            t.dynamic_j += ct.dynamic_j;
            t.leakage_j += ct.leakage_j;
            t.gating_overhead_j += ct.gating_overhead_j;
            t.leakage_w += ct.leakage_w;
        }
        t
    }

    /// Depth-first visit with depth.
    pub fn walk<'a>(&'a self, depth: usize, f: &mut impl FnMut(usize, &'a Node)) {
        f(depth, self);
        for c in &self.children {
            c.walk(depth + 1, f);
        }
    }

    /// Every number in the tree is finite and non-negative.
    pub fn check_finite_nonnegative(&self) -> Result<(), String> {
        let mut bad = None;
        self.walk(0, &mut |_, n| {
            for (what, v) in [
                ("area_m2", n.area_m2),
                ("dynamic_j", n.dynamic_j),
                ("leakage_j", n.leakage_j),
                ("gating_overhead_j", n.gating_overhead_j),
                ("leakage_w", n.leakage_w),
            ] {
                if bad.is_none() && !(v.is_finite() && v >= 0.0) {
                    bad = Some(format!("{}: {what} = {v}", n.name));
                }
            }
        });
        bad.map_or(Ok(()), Err)
    }
}

/// The breakdown of one run (one workload, or a saved Activity) at one technology point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// What ran ("hotspot", "activity.json", or "storage only").
    pub label: String,
    pub tech: String,
    pub vdd_v: f64,
    pub temperature_k: f64,
    pub core_clock_hz: f64,
    /// Simulated run time; 0 for a static (area/leakage-only) estimate.
    pub runtime_s: f64,
    pub root: Node,
}

impl Estimate {
    pub fn totals(&self) -> Totals {
        self.root.totals()
    }
    /// Total energy over the run.
    pub fn energy_j(&self) -> f64 {
        self.totals().energy_j()
    }
    /// Average power over the run; the leakage power when there is no run.
    pub fn average_power_w(&self) -> f64 {
        if self.runtime_s > 0.0 {
            self.energy_j() / self.runtime_s
        } else {
            self.totals().leakage_w
        }
    }
    /// Energy-delay product.
    pub fn edp_js(&self) -> f64 {
        self.energy_j() * self.runtime_s
    }

    /// Per-component table: area (mm²), dynamic power, leakage power (mW) and share of energy.
    pub fn to_table(&self) -> String {
        let tot = self.totals();
        let t = self.runtime_s;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} — {} at {:.3} V, {:.0} K{}",
            self.label,
            self.tech,
            self.vdd_v,
            self.temperature_k,
            if t > 0.0 {
                format!(", runtime {:.3} us", t * 1e6)
            } else {
                String::new()
            }
        );
        let _ = writeln!(
            s,
            "{:<40} {:>10} {:>12} {:>12} {:>7}",
            "component", "area mm2", "dyn mW", "leak mW", "share"
        );
        let denom = if t > 0.0 {
            tot.energy_j()
        } else {
            tot.leakage_w
        };
        self.root.walk(0, &mut |d, n| {
            let nt = n.totals();
            let (dyn_mw, leak_mw) = if t > 0.0 {
                (nt.dynamic_j / t * 1e3, nt.leakage_j / t * 1e3)
            } else {
                (0.0, nt.leakage_w * 1e3)
            };
            let share = if denom > 0.0 {
                100.0 * if t > 0.0 { nt.energy_j() } else { nt.leakage_w } / denom
            } else {
                0.0
            };
            let name = format!("{}{}", "  ".repeat(d), n.name);
            let _ = writeln!(
                s,
                "{:<40} {:>10.4} {:>12.3} {:>12.3} {:>6.1}%",
                name,
                nt.area_m2 * 1e6,
                dyn_mw,
                leak_mw,
                share
            );
        });
        if t > 0.0 {
            let _ = writeln!(
                s,
                "energy {:.4} mJ, average power {:.3} W, EDP {:.4e} J·s",
                self.energy_j() * 1e3,
                self.average_power_w(),
                self.edp_js()
            );
        }
        s
    }

    /// One CSV row per node: path, area_mm2, dynamic_mj, leakage_mj, gating_mj, leakage_mw.
    pub fn to_csv_rows(&self, out: &mut String, with_header: bool) {
        if with_header {
            out.push_str(
                "label,component,depth,instances,area_mm2,dynamic_mj,leakage_mj,gating_overhead_mj,leakage_mw\n",
            );
        }
        let mut path: Vec<String> = Vec::new();
        self.root.walk(0, &mut |d, n| {
            path.truncate(d);
            path.push(n.name.clone());
            let t = n.totals();
            let _ = writeln!(
                out,
                "{},{},{},{},{:.6e},{:.6e},{:.6e},{:.6e},{:.6e}",
                csv_field(&self.label),
                csv_field(&path.join("/")),
                d,
                n.instances,
                t.area_m2 * 1e6,
                t.dynamic_j * 1e3,
                t.leakage_j * 1e3,
                t.gating_overhead_j * 1e3,
                t.leakage_w * 1e3
            );
        });
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(name: &str, a: f64, d: f64, l: f64) -> Node {
        Node {
            name: name.into(),
            instances: 1,
            area_m2: a,
            dynamic_j: d,
            leakage_j: l,
            leakage_w: l,
            ..Node::default()
        }
    }

    #[test]
    fn totals_sum_the_tree() {
        let root = Node::group(
            "chip",
            vec![
                Node::group(
                    "sm",
                    vec![leaf("rf", 1.0, 2.0, 3.0), leaf("alu", 0.5, 1.0, 0.25)],
                ),
                leaf("l2", 2.0, 0.5, 1.0),
            ],
        );
        let t = root.totals();
        assert_eq!(t.area_m2, 3.5);
        assert_eq!(t.dynamic_j, 3.5);
        assert_eq!(t.leakage_j, 4.25);
        assert!(root.check_finite_nonnegative().is_ok());
        let mut bad = root.clone();
        bad.children[1].dynamic_j = f64::NAN;
        assert!(bad.check_finite_nonnegative().is_err());
    }
}
