//! The technology point a study, a command or a sweep point costs at, resolved once: the node
//! (looked up by name here and nowhere else), the device flavour, the operating supply or named
//! operating point, the junction temperature and the supply the physical design is sized at.
//!
//! [`ResolvedPoint::resolve`] is the one resolver and holds the one set of defaults every
//! command uses ([`DEFAULT_TEMPERATURE_K`], [`default_flavour`], finfet7 at its `stv` point).
//! The models take a `&ResolvedPoint` and evaluate it with [`ResolvedPoint::at`]; they never
//! look a node up by name again.

use crate::error::TechError;
use crate::names::Flavour;
use crate::node::{Conditions, Node, TechPoint};

/// The junction temperature every command costs at unless told otherwise, K: inside every
/// built-in node's tables (planar 300–400 K, FinFET 250–400 K).
pub const DEFAULT_TEMPERATURE_K: f64 = 350.0;

/// The logic flavour a node is costed at when none is asked: the first of hp, lvt, rvt the node
/// has (else its first flavour), as a lower-case name.
pub fn default_flavour(node: &Node) -> String {
    let names: Vec<String> = node
        .flavours()
        .iter()
        .map(|x| format!("{x:?}").to_ascii_lowercase())
        .collect();
    for pref in ["hp", "lvt", "rvt"] {
        if names.iter().any(|n| n == pref) {
            return pref.to_string();
        }
    }
    names.first().cloned().unwrap_or_else(|| "hp".into())
}

/// Which flavour a point takes when none is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlavourDefault {
    /// [`default_flavour`]: hp, lvt, rvt in that order (every costing command).
    Costing,
    /// RVT where the node has it, else its first flavour: the flavour the synthesis
    /// calibration characterises (`gpuenergy component`).
    Synthesis,
}

/// The node a name gives: the library's lookup ([`crate::node`]: built-in names, tabulated,
/// interpolated and extrapolated planar sizes, case-insensitive), plus one alias, a FinFET size
/// written as a planar one (`7nm`, CACTI's `0.007`) naming `finfet7`, `12nm` naming `finfet12`.
fn lookup(name: &str) -> Result<Node, TechError> {
    match crate::node(name) {
        Ok(n) => Ok(n),
        Err(e) => {
            let n = name.trim().to_ascii_lowercase();
            let nm = n
                .strip_suffix("nm")
                .and_then(|v| v.trim().parse::<f64>().ok())
                .or_else(|| {
                    n.parse::<f64>()
                        .ok()
                        .filter(|um| *um > 0.0 && *um < 1.0)
                        .map(|um| um * 1000.0)
                });
            match nm {
                Some(v) if (v > 0.0 && v <= 10.0) || (11.5..12.5).contains(&v) => {
                    crate::node(&format!("finfet{}", v.round() as i64)).map_err(|_| e)
                }
                _ => Err(e),
            }
        }
    }
}

/// A technology point resolved once and checked: what every model costs at.
#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedPoint {
    node: Node,
    flavour: Flavour,
    flavour_name: String,
    vdd_v: Option<f64>,
    op: Option<String>,
    temperature_k: f64,
    design_vdd_v: Option<f64>,
}

fn knob_error(key: &'static str, value: f64, allowed: &'static str) -> TechError {
    TechError::BadKnob {
        key,
        value,
        allowed,
    }
}

fn check_temperature(t: f64) -> Result<f64, TechError> {
    if t.is_finite() && t > 0.0 {
        Ok(t)
    } else {
        Err(knob_error(
            "--temperature",
            t,
            "a positive number of kelvin",
        ))
    }
}

fn check_vdd(key: &'static str, v: Option<f64>) -> Result<Option<f64>, TechError> {
    match v {
        Some(v) if !(v.is_finite() && v > 0.0) => Err(knob_error(key, v, "a positive voltage")),
        v => Ok(v),
    }
}

impl ResolvedPoint {
    /// The one resolver: node `name` (an error listing the known nodes), `flavour` (`None`: the
    /// costing default, [`default_flavour`]; an error listing the node's flavours), an
    /// operating supply `vdd_v` or a named operating point `op` (`None` for both: the nominal
    /// supply, and finfet7's `stv` point; an error listing the node's points), and
    /// `temperature_k` (`None`: [`DEFAULT_TEMPERATURE_K`]). A supply or temperature that is not
    /// a positive number is an error naming its flag.
    pub fn resolve(
        name: &str,
        flavour: Option<&str>,
        vdd_v: Option<f64>,
        op: Option<&str>,
        temperature_k: Option<f64>,
    ) -> Result<ResolvedPoint, TechError> {
        Self::resolve_with(
            name,
            flavour,
            vdd_v,
            op,
            temperature_k,
            FlavourDefault::Costing,
        )
    }

    /// [`ResolvedPoint::resolve`] with the flavour default `fallback`.
    pub fn resolve_with(
        name: &str,
        flavour: Option<&str>,
        vdd_v: Option<f64>,
        op: Option<&str>,
        temperature_k: Option<f64>,
        fallback: FlavourDefault,
    ) -> Result<ResolvedPoint, TechError> {
        let temperature_k = check_temperature(temperature_k.unwrap_or(DEFAULT_TEMPERATURE_K))?;
        let vdd_v = check_vdd("--vdd", vdd_v)?;
        let node = lookup(name)?;
        let flavour_name = match flavour {
            Some(f) => f.to_string(),
            None => match fallback {
                FlavourDefault::Costing => default_flavour(&node),
                FlavourDefault::Synthesis => {
                    let fl = node.flavours();
                    let f = if fl.contains(&Flavour::Rvt) {
                        Flavour::Rvt
                    } else {
                        *fl.first().ok_or_else(|| TechError::BadCondition {
                            node: node.name().to_string(),
                            what: "the node has no device flavours".into(),
                        })?
                    };
                    f.key().to_string()
                }
            },
        };
        let flavour = node.flavour(&flavour_name)?;
        if let Some(o) = op {
            node.operating_point(o)?;
        }
        let op = match (op, vdd_v) {
            (Some(o), _) => Some(o.to_string()),
            (None, None) if node.name() == "finfet7" => Some("stv".into()),
            _ => None,
        };
        Ok(ResolvedPoint {
            node,
            flavour,
            flavour_name,
            vdd_v,
            op,
            temperature_k,
            design_vdd_v: None,
        })
    }

    /// A point of a node already resolved: `flavour` at `temperature_k`, nominal supply (for
    /// models that hold a node and set the supply themselves, [`ResolvedPoint::with_vdd_v`]).
    pub fn of_node(
        node: Node,
        flavour: Flavour,
        temperature_k: f64,
    ) -> Result<ResolvedPoint, TechError> {
        node.flavour(flavour.key())?;
        let temperature_k = check_temperature(temperature_k)?;
        Ok(ResolvedPoint {
            node,
            flavour,
            flavour_name: flavour.key().to_string(),
            vdd_v: None,
            op: None,
            temperature_k,
            design_vdd_v: None,
        })
    }

    /// `name` at every default ([`ResolvedPoint::resolve`] with nothing else asked).
    pub fn named(name: &str) -> Result<ResolvedPoint, TechError> {
        Self::resolve(name, None, None, None, None)
    }

    /// The same point at another temperature, K (checked as the resolver checks it).
    pub fn with_temperature_k(mut self, temperature_k: f64) -> Result<ResolvedPoint, TechError> {
        self.temperature_k = check_temperature(temperature_k)?;
        Ok(self)
    }

    /// The same point at an explicit operating supply, V (it takes precedence over a named
    /// operating point, as in [`Conditions`]).
    pub fn with_vdd_v(mut self, vdd_v: f64) -> Result<ResolvedPoint, TechError> {
        self.vdd_v = check_vdd("--vdd", Some(vdd_v))?;
        Ok(self)
    }

    /// The same point at the named operating point `op` of its node (an error listing the
    /// node's points); an explicit supply still takes precedence.
    pub fn with_op(mut self, op: &str) -> Result<ResolvedPoint, TechError> {
        self.node.operating_point(op)?;
        self.op = Some(op.to_string());
        Ok(self)
    }

    /// The same point with the storage arrays designed at `design_vdd_v` (`None`: the flavour's
    /// nominal supply).
    pub fn with_design_vdd_v(
        mut self,
        design_vdd_v: Option<f64>,
    ) -> Result<ResolvedPoint, TechError> {
        self.design_vdd_v = check_vdd("--design-vdd", design_vdd_v)?;
        Ok(self)
    }

    /// The same point at another device flavour of its node.
    pub fn with_flavour(mut self, flavour: &str) -> Result<ResolvedPoint, TechError> {
        self.flavour = self.node.flavour(flavour)?;
        self.flavour_name = flavour.to_string();
        Ok(self)
    }

    /// The node.
    pub fn node(&self) -> &Node {
        &self.node
    }
    /// The node's canonical name (`planar45` for `45nm`).
    pub fn node_name(&self) -> &str {
        self.node.name()
    }
    /// The device flavour.
    pub fn flavour(&self) -> Flavour {
        self.flavour
    }
    /// The flavour as asked (or the default's name), as labels write it.
    pub fn flavour_name(&self) -> &str {
        &self.flavour_name
    }
    /// The operating supply asked for, V (`None`: the operating point's or the nominal one).
    pub fn vdd_v(&self) -> Option<f64> {
        self.vdd_v
    }
    /// The named operating point (`stv`, `ntv`), if any.
    pub fn op(&self) -> Option<&str> {
        self.op.as_deref()
    }
    /// Junction temperature, K.
    pub fn temperature_k(&self) -> f64 {
        self.temperature_k
    }
    /// Supply the storage arrays are designed at, V (`None`: the flavour's nominal supply).
    pub fn design_vdd_v(&self) -> Option<f64> {
        self.design_vdd_v
    }
    /// Whether the supply was chosen (a supply or a named operating point), so that callers
    /// check it against the node's functional minimum.
    pub fn supply_chosen(&self) -> bool {
        self.vdd_v.is_some() || self.op.is_some()
    }

    /// The operating conditions of `flavour` at this point: temperature, then the named
    /// operating point, then the explicit supply.
    pub fn conditions_of(&self, flavour: Flavour) -> Conditions {
        let mut c = Conditions::new(flavour).with_temperature(self.temperature_k);
        if let Some(op) = &self.op {
            c = c.with_operating_point(op);
        }
        if let Some(v) = self.vdd_v {
            c = c.with_vdd(v);
        }
        c
    }

    /// The operating conditions of this point's flavour.
    pub fn conditions(&self) -> Conditions {
        self.conditions_of(self.flavour)
    }

    /// The node's nominal conditions of `flavour` at this temperature, the clock reference:
    /// its `stv` operating point where it has one, else its nominal supply.
    pub fn nominal_conditions_of(&self, flavour: Flavour) -> Conditions {
        let mut c = Conditions::new(flavour).with_temperature(self.temperature_k);
        if self.node.operating_points().iter().any(|o| o.name == "stv") {
            c = c.with_operating_point("stv");
        }
        c
    }

    /// The node evaluated at this point's conditions.
    pub fn at(&self) -> Result<TechPoint, TechError> {
        self.node.at(&self.conditions())
    }
}

impl serde::Serialize for ResolvedPoint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("ResolvedPoint", 6)?;
        st.serialize_field("node", self.node.name())?;
        st.serialize_field("flavour", &self.flavour_name)?;
        st.serialize_field("vdd_v", &self.vdd_v)?;
        st.serialize_field("op", &self.op)?;
        st.serialize_field("temperature_k", &self.temperature_k)?;
        st.serialize_field("design_vdd_v", &self.design_vdd_v)?;
        st.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_one_set() {
        let p = ResolvedPoint::named("45nm").unwrap();
        assert_eq!(p.node_name(), "planar45");
        assert_eq!(p.flavour(), Flavour::Hp);
        assert_eq!(p.temperature_k(), DEFAULT_TEMPERATURE_K);
        assert_eq!(p.op(), None);
        let f = ResolvedPoint::named("finfet7").unwrap();
        assert_eq!(f.flavour(), Flavour::Lvt);
        assert_eq!(f.op(), Some("stv"));
        let v = ResolvedPoint::resolve("finfet7", None, Some(0.4), None, None).unwrap();
        assert_eq!(v.op(), None);
        let a =
            ResolvedPoint::resolve_with("asap7", None, None, None, None, FlavourDefault::Synthesis)
                .unwrap();
        assert_eq!(a.flavour(), Flavour::Rvt);
        assert_eq!(ResolvedPoint::named("7nm").unwrap().node_name(), "finfet7");
    }

    #[test]
    fn bad_input_names_the_key_and_the_allowed_values() {
        let e = ResolvedPoint::named("planar3").unwrap_err().to_string();
        assert!(
            e.contains("known nodes are") && e.contains("finfet7"),
            "{e}"
        );
        let e = ResolvedPoint::resolve("planar45", Some("lvt"), None, None, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("'lvt'") && e.contains("hp"), "{e}");
        let e = ResolvedPoint::resolve("finfet7", None, None, Some("xtv"), None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("'xtv'") && e.contains("stv"), "{e}");
        let e = ResolvedPoint::resolve("planar45", None, Some(-1.0), None, None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("--vdd") && e.contains("positive voltage"), "{e}");
        let e = ResolvedPoint::resolve("planar45", None, None, None, Some(f64::NAN))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--temperature") && e.contains("kelvin"), "{e}");
    }
}
