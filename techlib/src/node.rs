//! A technology node and its evaluation at one operating condition.

use crate::builtin;
use crate::cell::{CellKind, DramCell, SramCell};
use crate::device::Device;
use crate::error::TechError;
use crate::finfet;
use crate::names::{BackGate, Flavour, NodeKind, OperatingPoint};
use crate::planar;
use crate::schema::{NodeFile, Scalars};
use crate::wire::{Projection, Wire, WireType};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Planar temperature tables cover 300–400 K; FinFET models are used from 250 K to 400 K.
pub const FINFET_TEMPERATURE_RANGE_K: (f64, f64) = (250.0, 400.0);

/// A technology node: parsed data plus its name. Cheap to clone.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    file: NodeFile,
    kind: NodeKind,
}

/// The operating condition a [`Node`] is evaluated at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conditions {
    /// Device flavour to evaluate.
    pub flavour: Flavour,
    /// Supply. `None`: the operating point named by `operating_point`, else the nominal supply
    /// (the flavour's ITRS Vdd at planar nodes, the node's first operating point at FinFET nodes).
    pub vdd_v: Option<f64>,
    /// Named operating point (`stv`, `ntv`, ...); ignored when `vdd_v` is given.
    pub operating_point: Option<String>,
    /// Temperature, K (planar: within the node's tables, 300–400 K; FinFET: 250–400 K).
    pub temperature_k: f64,
    /// Back-gate state (FinFET only; planar devices accept only `Tied`).
    pub back_gate: BackGate,
}

impl Conditions {
    /// Nominal supply, 300 K, back gate tied.
    pub fn new(flavour: Flavour) -> Self {
        Conditions {
            flavour,
            vdd_v: None,
            operating_point: None,
            temperature_k: 300.0,
            back_gate: BackGate::Tied,
        }
    }
    /// Sets an explicit supply, V (takes precedence over any operating point).
    pub fn with_vdd(mut self, vdd_v: f64) -> Self {
        self.vdd_v = Some(vdd_v);
        self
    }
    /// Selects a named operating point (`stv`, `ntv`, ...).
    pub fn with_operating_point(mut self, name: &str) -> Self {
        self.operating_point = Some(name.to_string());
        self
    }
    /// Sets the temperature, K.
    pub fn with_temperature(mut self, temperature_k: f64) -> Self {
        self.temperature_k = temperature_k;
        self
    }
    /// Sets the back-gate state.
    pub fn with_back_gate(mut self, back_gate: BackGate) -> Self {
        self.back_gate = back_gate;
        self
    }
}

impl Node {
    /// Builds a node from a parsed file, checking its consistency. `label` names the file in errors.
    pub fn from_file(file: NodeFile, label: &str) -> Result<Node, TechError> {
        let bad = |what: String| TechError::BadFile {
            file: label.to_string(),
            what,
        };
        let kind = match file.kind.as_str() {
            "planar" => NodeKind::Planar,
            "finfet" => NodeKind::Finfet,
            k => {
                return Err(bad(format!(
                    "kind = \"{k}\": expected \"planar\" or \"finfet\""
                )))
            }
        };
        if !(file.feature_size_nm.is_finite() && file.feature_size_nm > 0.0) {
            return Err(bad("feature_size_nm must be a positive number".into()));
        }
        match kind {
            NodeKind::Planar => planar::validate(&file).map_err(bad)?,
            NodeKind::Finfet => finfet::validate(&file).map_err(bad)?,
        }
        Ok(Node { file, kind })
    }

    /// Parses a node file text (same schema as the built-in `techlib/data/*.toml`).
    pub fn from_toml_str(text: &str, label: &str) -> Result<Node, TechError> {
        Node::from_file(builtin::parse_node_file(label, text)?, label)
    }

    /// Reads a user node file.
    pub fn from_path(path: &std::path::Path) -> Result<Node, TechError> {
        let label = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| TechError::BadFile {
            file: label.clone(),
            what: e.to_string(),
        })?;
        Node::from_toml_str(&text, &label)
    }

    /// The raw data.
    pub fn file(&self) -> &NodeFile {
        &self.file
    }
    /// Name of the node as its file gives it (`planar45`, `finfet7`, ...).
    pub fn name(&self) -> &str {
        &self.file.name
    }
    /// One-line description from the node file.
    pub fn description(&self) -> &str {
        &self.file.description
    }
    /// Feature size as written in the node file, nm.
    pub fn feature_size_nm(&self) -> f64 {
        self.file.feature_size_nm
    }
    /// Feature size, m.
    pub fn feature_size_m(&self) -> f64 {
        self.file.feature_size_nm * 1e-9
    }
    /// Planar or FinFET.
    pub fn kind(&self) -> NodeKind {
        self.kind
    }

    /// Device flavours of this node, in `Flavour` order.
    pub fn flavours(&self) -> Vec<Flavour> {
        let keys: Vec<&String> = match self.kind {
            NodeKind::Planar => self.file.flavours.keys().collect(),
            NodeKind::Finfet => self.file.fin_flavours.keys().collect(),
        };
        let mut v: Vec<Flavour> = keys.iter().filter_map(|k| Flavour::parse(k)).collect();
        v.sort();
        v
    }

    /// Named operating points, ascending in Vdd (empty at planar nodes).
    pub fn operating_points(&self) -> Vec<OperatingPoint> {
        let mut v: Vec<OperatingPoint> = self
            .file
            .operating_points
            .iter()
            .map(|(k, o)| OperatingPoint {
                name: k.clone(),
                vdd_v: o.vdd_v,
                description: o.description.clone(),
            })
            .collect();
        v.sort_by(|a, b| a.vdd_v.total_cmp(&b.vdd_v).then(a.name.cmp(&b.name)));
        v
    }

    /// The node's node-wide scalars (sense amplifier, layout overheads, logic density).
    pub fn scalars(&self) -> Option<&Scalars> {
        self.file.scalars.as_ref()
    }

    fn flavour_error(&self, asked: &str) -> TechError {
        TechError::UnknownFlavour {
            node: self.name().to_string(),
            asked: asked.to_string(),
            known: list(self.flavours().iter().map(|f| f.key().to_string())),
        }
    }

    /// Checks that `flavour` exists here.
    pub fn check_flavour(&self, flavour: Flavour) -> Result<(), TechError> {
        if self.flavours().contains(&flavour) {
            Ok(())
        } else {
            Err(self.flavour_error(flavour.key()))
        }
    }

    /// Looks a flavour up by name, with an error listing the node's flavours.
    pub fn flavour(&self, name: &str) -> Result<Flavour, TechError> {
        match Flavour::parse(name) {
            Some(f) if self.flavours().contains(&f) => Ok(f),
            _ => Err(self.flavour_error(name)),
        }
    }

    /// Looks an operating point up by name, with an error listing the node's points.
    pub fn operating_point(&self, name: &str) -> Result<OperatingPoint, TechError> {
        let key = name.trim().to_ascii_lowercase();
        self.operating_points()
            .into_iter()
            .find(|o| o.name == key)
            .ok_or_else(|| TechError::UnknownOperatingPoint {
                node: self.name().to_string(),
                asked: name.to_string(),
                known: if self.file.operating_points.is_empty() {
                    "none (planar nodes run at each flavour's nominal Vdd or any vdd_v)".into()
                } else {
                    list(
                        self.operating_points()
                            .iter()
                            .map(|o| format!("{} ({} V)", o.name, o.vdd_v)),
                    )
                },
            })
    }

    /// Nominal supply of a flavour: the ITRS Vdd (planar) or the first listed operating point's
    /// supply, which is the node's `nominal` operating point (FinFET).
    pub fn nominal_vdd_v(&self, flavour: Flavour) -> Result<f64, TechError> {
        self.check_flavour(flavour)?;
        match self.kind {
            NodeKind::Planar => Ok(self.file.flavours[flavour.key()].vdd_v),
            NodeKind::Finfet => finfet::nominal_vdd_v(&self.file)
                .ok_or_else(|| self.operating_point("nominal").unwrap_err()),
        }
    }

    /// Resolves the supply of `c`.
    pub fn vdd_of(&self, c: &Conditions) -> Result<f64, TechError> {
        let v = match (&c.vdd_v, &c.operating_point) {
            (Some(v), _) => *v,
            (None, Some(op)) => self.operating_point(op)?.vdd_v,
            (None, None) => self.nominal_vdd_v(c.flavour)?,
        };
        let nominal = self.nominal_vdd_v(c.flavour)?;
        if !(v.is_finite() && v > 0.0 && v <= 2.0 * nominal) {
            return Err(TechError::BadCondition {
                node: self.name().to_string(),
                what: format!("vdd_v = {v}: expected a supply in (0, {}] V", 2.0 * nominal),
            });
        }
        Ok(v)
    }

    /// Everything physical at one operating condition.
    pub fn at(&self, c: &Conditions) -> Result<TechPoint, TechError> {
        self.check_flavour(c.flavour)?;
        let vdd_v = self.vdd_of(c)?;
        let t = c.temperature_k;
        let (t_lo, t_hi) = match self.kind {
            NodeKind::Planar => planar::temperature_range_k(&self.file),
            NodeKind::Finfet => FINFET_TEMPERATURE_RANGE_K,
        };
        if !(t.is_finite() && t >= t_lo - 1e-9 && t <= t_hi + 1e-9) {
            return Err(TechError::BadCondition {
                node: self.name().to_string(),
                what: format!("temperature {t} K outside the node's tables ({t_lo}–{t_hi} K)"),
            });
        }
        let f_m = self.feature_size_m();
        let (device, cell_pmos, cells) = match self.kind {
            NodeKind::Planar => {
                if c.back_gate != BackGate::Tied {
                    return Err(TechError::BadCondition {
                        node: self.name().to_string(),
                        what: "planar devices have no independent back gate (use back_gate = tied)"
                            .into(),
                    });
                }
                let d = planar::device(&self.file, c.flavour, vdd_v, t);
                let cells = planar::cells(&self.file, f_m);
                (d.clone(), d, cells)
            }
            NodeKind::Finfet => {
                let d = finfet::device(&self.file, c.flavour, vdd_v, t, c.back_gate);
                // 8T cells of the source keep their pull-up back gates at Vdd (off side).
                let p = finfet::device(&self.file, c.flavour, vdd_v, t, BackGate::Grounded);
                let cells = finfet::cells(&self.file, d.fin_width_m.unwrap_or(0.0));
                (d, p, cells)
            }
        };
        let mut wires = BTreeMap::new();
        for (pk, types) in &self.file.wires {
            let Some(p) = Projection::ALL.into_iter().find(|p| p.key() == pk) else {
                continue;
            };
            for (tk, wf) in types {
                let Some(wt) = WireType::ALL.into_iter().find(|w| w.key() == tk) else {
                    continue;
                };
                if let Some(w) = Wire::from_file(wf, wt, p, f_m) {
                    wires.insert((p, wt), w);
                }
            }
        }
        let dram_cells = self
            .file
            .dram_cells
            .iter()
            .filter_map(|(k, d)| {
                Flavour::parse(k).map(|f| {
                    (
                        f,
                        DramCell {
                            vdd_cell_v: d.vdd_cell_v,
                            w_access_m: d.w_access_um * 1e-6,
                            area_m2: d.area_um2 * 1e-12,
                            aspect_ratio: d.aspect_ratio,
                            i_on_a_per_m: d.i_on_a_per_um * 1e6,
                            vdd_v: d.vdd_v,
                            c_cell_f: d.c_cell_f,
                            i_off_worst_case_a_per_m: d.i_off_worst_case_len_temp_a_per_um * 1e6,
                        },
                    )
                })
            })
            .collect();
        Ok(TechPoint {
            node_name: self.name().to_string(),
            kind: self.kind,
            feature_size_m: f_m,
            conditions: Conditions {
                vdd_v: Some(vdd_v),
                ..c.clone()
            },
            device,
            cell_pmos_device: cell_pmos,
            cells,
            dram_cells,
            wires,
            scalars: self.file.scalars.clone(),
        })
    }
}

fn list(items: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = items.collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// Everything physical about a node at one operating condition.
#[derive(Debug, Clone, PartialEq)]
pub struct TechPoint {
    /// Name of the node evaluated.
    pub node_name: String,
    /// Planar or FinFET.
    pub kind: NodeKind,
    /// Feature size, m.
    pub feature_size_m: f64,
    /// The condition, with `vdd_v` resolved.
    pub conditions: Conditions,
    device: Device,
    cell_pmos_device: Device,
    cells: BTreeMap<String, SramCell>,
    dram_cells: BTreeMap<Flavour, DramCell>,
    wires: BTreeMap<(Projection, WireType), Wire>,
    scalars: Option<Scalars>,
}

impl TechPoint {
    /// The device (NMOS and PMOS parameters of the flavour) at this condition.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The device used for the pull-ups of an SRAM cell: the same as [`TechPoint::device`], except
    /// in 8T cells at FinFET nodes, whose PMOS back gates are tied to Vdd (the off side), as in the
    /// source's cells.
    pub fn cell_pullup_device(&self, kind: CellKind) -> &Device {
        if kind == CellKind::Eight && self.kind == NodeKind::Finfet {
            &self.cell_pmos_device
        } else {
            &self.device
        }
    }

    /// Supply at this point, V.
    pub fn vdd_v(&self) -> f64 {
        self.device.vdd_v
    }
    /// Temperature at this point, K.
    pub fn temperature_k(&self) -> f64 {
        self.device.temperature_k
    }

    /// SRAM cell geometry (6T or 8T).
    pub fn sram_cell(&self, kind: CellKind) -> Result<&SramCell, TechError> {
        self.cells
            .get(kind.key())
            .ok_or_else(|| TechError::UnknownCell {
                node: self.node_name.clone(),
                asked: kind.label().to_string(),
                known: list(self.cells.keys().cloned()),
            })
    }

    /// CAM cell geometry (planar nodes).
    pub fn cam_cell(&self) -> Result<&SramCell, TechError> {
        self.cells.get("cam").ok_or_else(|| TechError::UnknownCell {
            node: self.node_name.clone(),
            asked: "CAM".into(),
            known: list(self.cells.keys().cloned()),
        })
    }

    /// DRAM cell of a DRAM process (`LpDram`, `CommDram`) where tabulated.
    pub fn dram_cell(&self, process: Flavour) -> Result<&DramCell, TechError> {
        self.dram_cells
            .get(&process)
            .ok_or_else(|| TechError::UnknownCell {
                node: self.node_name.clone(),
                asked: format!("{process} DRAM"),
                known: list(self.dram_cells.keys().map(|k| format!("{k} DRAM"))),
            })
    }

    /// A wire type under a projection (`Projection::Conservative` is CACTI's default).
    pub fn wire(&self, wire_type: WireType, projection: Projection) -> Result<Wire, TechError> {
        self.wires
            .get(&(projection, wire_type))
            .cloned()
            .ok_or_else(|| TechError::UnknownWire {
                node: self.node_name.clone(),
                asked: format!("{} {}", projection.key(), wire_type.key()),
                known: list(
                    self.wires
                        .keys()
                        .map(|(p, t)| format!("{} {}", p.key(), t.key())),
                ),
            })
    }

    /// Node-wide scalars (sense amplifier delay and energy, layout overheads, logic density).
    pub fn scalars(&self) -> Option<&Scalars> {
        self.scalars.as_ref()
    }

    /// Length of a contacted drain diffusion used for self-loading: 3 F (contact plus spacings).
    pub fn drain_diffusion_m(&self) -> f64 {
        3.0 * self.feature_size_m
    }

    /// Fanout-of-4 inverter delay at this condition, s.
    pub fn fo4_delay_s(&self) -> f64 {
        self.device.fo4_delay_s(self.drain_diffusion_m())
    }

    /// NMOS on-current per width, A/m.
    pub fn i_on_a_per_m(&self) -> f64 {
        self.device.i_on_n_a_per_m
    }

    /// NMOS off-current per width, A/m.
    pub fn i_off_a_per_m(&self) -> f64 {
        self.device.i_off_n_a_per_m
    }

    /// Gate capacitance per width, F/m.
    pub fn c_gate_f_per_m(&self) -> f64 {
        self.device.c_gate_f_per_m()
    }

    /// Standby current of one SRAM cell (subthreshold + gate leakage), A.
    pub fn cell_standby_current_a(&self, kind: CellKind) -> Result<f64, TechError> {
        let cell = self.sram_cell(kind)?;
        Ok(cell.standby_current_a(&self.device, self.cell_pullup_device(kind)))
    }

    /// Standby leakage power of one SRAM cell, W.
    pub fn cell_standby_power_w(&self, kind: CellKind) -> Result<f64, TechError> {
        Ok(self.cell_standby_current_a(kind)? * self.vdd_v())
    }
}
