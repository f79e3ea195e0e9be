//! Fitting a FinFET node's device numbers (`techlib` finfet schema) to standard-cell liberty
//! files of several threshold flavours and corners.
//!
//! Measured per flavour/corner from the INVBUF library (inverters are the canonical device
//! probe):
//! - off-current per fin: the state-averaged leakage of the 1-fin inverter `INVxp33` divided by
//!   Vdd (one of its two devices is off in either state);
//! - FO4 delay: the `INVx1` NLDM delay driving 4× its own input capacitance, mean of rise and
//!   fall, with the input slew iterated to the output transition of the same load;
//! - FO4 switching energy per transition: internal energy (all `rise_power`/`fall_power` tables,
//!   mean of rise and fall, at the same point) plus ½·C_load·Vdd².
//!
//! Fitted, with `techlib` evaluating the node (so the fit is in the node's own physics):
//! - threshold voltage of each flavour (leakage versus Vth): `vth_v` such that techlib's
//!   off-current per fin at TT and the nominal supply equals the measured one (bisection);
//! - drive law exponent `alpha` and RVT reference on-current `i_on_ref_a_per_fin` (delay
//!   versus Vdd): least squares of log FO4 over the SS/TT/FF corners (0.63 V 100 °C, 0.70 V
//!   25 °C, 0.77 V 0 °C; each evaluated by techlib at its own supply and temperature) by
//!   Nelder–Mead, with alpha held in the physical range of the alpha-power law, 1 (velocity
//!   saturated) to 2 (square law) (Sakurai & Newton, IEEE JSSC 25(2), 1990); the corners also
//!   differ in process and temperature, which this single-law fit absorbs;
//! - on-current of LVT and SLVT: matching their TT FO4 with the fitted alpha;
//! - energy exponent k of E_FO4 ∝ Vdd^k over the corners (reported; CV² predicts 2).
//!
//! Thresholds and on-currents are refitted alternately (three rounds) because the off-current
//! scales with the drive constant.

use crate::error::CalError;
use crate::liberty::{self, interp2, CellInfo};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Measurements of one flavour/corner.
#[derive(Debug, Clone, PartialEq)]
pub struct CornerProbe {
    /// Flavour (`rvt`).
    pub flavour: String,
    /// Corner (`tt`).
    pub corner: String,
    /// Library supply, V.
    pub vdd_v: f64,
    /// Library temperature, K.
    pub temperature_k: f64,
    /// Off-current per fin, A.
    pub i_off_a_per_fin: f64,
    /// FO4 delay, s.
    pub fo4_s: f64,
    /// FO4 energy per transition, J.
    pub fo4_energy_j: f64,
}

/// The fit result.
#[derive(Debug, Clone, PartialEq)]
pub struct TechFit {
    /// Probes used.
    pub probes: Vec<CornerProbe>,
    /// Fitted threshold per flavour, V.
    pub vth_v: BTreeMap<String, f64>,
    /// Fitted alpha (all flavours).
    pub alpha: f64,
    /// Fitted reference on-current per flavour, A per fin.
    pub i_on_ref_a_per_fin: BTreeMap<String, f64>,
    /// Energy exponent k in E ∝ V^k, and its fit RMS relative error.
    pub energy_exponent: (f64, f64),
    /// Per probe: (label, measured FO4, modelled FO4, measured I_off, modelled I_off).
    pub residuals: Vec<(String, f64, f64, f64, f64)>,
}

fn find_invbuf(dir: &Path, flavour: &str, corner: &str) -> Result<std::path::PathBuf, CalError> {
    let files = liberty::find_files(dir, flavour, corner)?;
    files
        .into_iter()
        .find(|f| {
            f.file_name()
                .is_some_and(|n| n.to_string_lossy().to_uppercase().contains("INVBUF"))
        })
        .ok_or_else(|| {
            CalError::Liberty(format!(
                "no INVBUF library for {flavour} {corner} in {}",
                dir.display()
            ))
        })
}

fn cell<'a>(
    info: &'a liberty::LibraryInfo,
    prefix: &str,
    file: &Path,
) -> Result<&'a CellInfo, CalError> {
    info.cells
        .iter()
        .find(|(n, _)| n.starts_with(prefix))
        .map(|(_, c)| c)
        .ok_or_else(|| CalError::Liberty(format!("{}: no cell {prefix}*", file.display())))
}

fn mean_table(c: &CellInfo, kind: &str, slew: f64, load: f64) -> Option<f64> {
    let v: Vec<f64> = c
        .delay_tables
        .iter()
        .filter(|(k, _, _, v)| k == kind && !v.is_empty())
        .filter_map(|(_, a, b, v)| interp2(a, b, v, slew, load))
        .collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>())
}

/// Measure one flavour/corner.
pub fn probe(dir: &Path, flavour: &str, corner: &str) -> Result<CornerProbe, CalError> {
    let path = find_invbuf(dir, flavour, corner)?;
    let text = liberty::read_liberty(&path)?;
    let names: Vec<String> = text
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("cell (")
                .and_then(|r| r.split(')').next())
                .map(|s| s.to_string())
        })
        .filter(|n| n.starts_with("INVx1_") || n.starts_with("INVxp33_"))
        .collect();
    let want: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let info = liberty::library_info(&text, &path, &want)?;
    let small = cell(&info, "INVxp33_", &path)?;
    let x1 = cell(&info, "INVx1_", &path)?;
    let vdd = info.nom_voltage_v;
    if vdd <= 0.0 {
        return Err(CalError::Liberty(format!(
            "{}: no nom_voltage",
            path.display()
        )));
    }
    let leak = small
        .leakage_value()
        .ok_or_else(|| CalError::Liberty(format!("{}: INVxp33 has no leakage", path.display())))?
        * info.leakage_unit_w;
    let cin = x1.input_caps.values().copied().fold(0.0, f64::max);
    let load = 4.0 * cin; // library capacitance units
    let mut slew = 20.0; // library time units (ps), refined below
    let mut d = 0.0;
    for _ in 0..8 {
        let r = mean_table(x1, "cell_rise", slew, load);
        let f = mean_table(x1, "cell_fall", slew, load);
        let tr = mean_table(x1, "rise_transition", slew, load);
        let tf = mean_table(x1, "fall_transition", slew, load);
        let (Some(r), Some(f), Some(tr), Some(tf)) = (r, f, tr, tf) else {
            return Err(CalError::Liberty(format!(
                "{}: INVx1 lacks delay/transition tables",
                path.display()
            )));
        };
        d = 0.5 * (r + f);
        slew = 0.5 * (tr + tf);
    }
    let e_int = 0.5
        * (mean_table(x1, "rise_power", slew, load).unwrap_or(0.0)
            + mean_table(x1, "fall_power", slew, load).unwrap_or(0.0));
    // Internal energy tables are in capacitance × voltage² units (fF·V² = fJ for ASAP7).
    let e = (e_int + 0.5 * load * vdd * vdd) * info.cap_unit_f;
    Ok(CornerProbe {
        flavour: flavour.to_lowercase(),
        corner: corner.to_lowercase(),
        vdd_v: vdd,
        temperature_k: info.nom_temperature_c + 273.15,
        i_off_a_per_fin: leak / vdd,
        fo4_s: d * info.time_unit_s,
        fo4_energy_j: e,
    })
}

/// Set numbers in a node TOML (as a value tree) and evaluate it.
fn node_with(
    base: &toml::Value,
    vth: &BTreeMap<String, f64>,
    alpha: f64,
    ion: &BTreeMap<String, f64>,
) -> Result<techlib::Node, CalError> {
    let mut v = base.clone();
    let fl = v
        .get_mut("fin_flavours")
        .and_then(|f| f.as_table_mut())
        .ok_or_else(|| {
            CalError::Invalid("node file has no [fin_flavours]: not a FinFET node".into())
        })?;
    for (name, t) in fl.iter_mut() {
        let Some(t) = t.as_table_mut() else { continue };
        if let Some(x) = vth.get(name) {
            t.insert("vth_v".into(), toml::Value::Float(*x));
        }
        if let Some(x) = ion.get(name) {
            t.insert("i_on_ref_a_per_fin".into(), toml::Value::Float(*x));
        }
        t.insert("alpha".into(), toml::Value::Float(alpha));
    }
    let text = toml::to_string(&v).map_err(|e| CalError::Invalid(e.to_string()))?;
    techlib::Node::from_toml_str(&text, "fit")
        .map_err(|e| CalError::Invalid(format!("node with fitted values: {e}")))
}

fn point(
    node: &techlib::Node,
    flavour: &str,
    vdd: f64,
    t_k: f64,
) -> Result<techlib::TechPoint, CalError> {
    let f = techlib::Flavour::parse(flavour)
        .ok_or_else(|| CalError::Invalid(format!("unknown flavour {flavour}")))?;
    node.at(&techlib::Conditions::new(f)
        .with_vdd(vdd)
        .with_temperature(t_k))
        .map_err(|e| CalError::Invalid(e.to_string()))
}

fn i_off_fin(p: &techlib::TechPoint) -> f64 {
    p.i_off_a_per_m() * p.device().fin_width_m.unwrap_or(0.0)
}

/// Fit the node described by `node_toml` to the probes.
pub fn fit(probes: &[CornerProbe], node_toml: &str) -> Result<TechFit, CalError> {
    let base: toml::Value =
        toml::from_str(node_toml).map_err(|e| CalError::Invalid(format!("node TOML: {e}")))?;
    let get = |f: &str, key: &str| {
        base.get("fin_flavours")
            .and_then(|t| t.get(f))
            .and_then(|t| t.get(key))
            .and_then(|v| v.as_float())
    };
    let tt: Vec<&CornerProbe> = probes.iter().filter(|p| p.corner == "tt").collect();
    let rvt: Vec<&CornerProbe> = probes.iter().filter(|p| p.flavour == "rvt").collect();
    if tt.is_empty() || rvt.len() < 2 {
        return Err(CalError::Fit(
            "need TT probes and at least two RVT corners".into(),
        ));
    }
    let mut vth: BTreeMap<String, f64> = BTreeMap::new();
    let mut ion: BTreeMap<String, f64> = BTreeMap::new();
    for p in &tt {
        vth.insert(p.flavour.clone(), get(&p.flavour, "vth_v").unwrap_or(0.25));
        ion.insert(
            p.flavour.clone(),
            get(&p.flavour, "i_on_ref_a_per_fin").unwrap_or(4e-5),
        );
    }
    let mut alpha = get("rvt", "alpha").unwrap_or(1.3);
    for _round in 0..3 {
        // Alpha and RVT drive from the RVT corners.
        let obj = |x: &[f64]| -> f64 {
            let (a, i) = (x[0], x[1].exp());
            if !(1.0..=2.0).contains(&a) {
                return 1e9;
            }
            let mut io = ion.clone();
            io.insert("rvt".into(), i);
            let Ok(n) = node_with(&base, &vth, a, &io) else {
                return 1e9;
            };
            rvt.iter()
                .map(|p| match point(&n, "rvt", p.vdd_v, p.temperature_k) {
                    Ok(t) => (t.fo4_delay_s() / p.fo4_s).ln().powi(2),
                    Err(_) => 1e9,
                })
                .sum()
        };
        let (x, _) = techlib::fit::nelder_mead(&obj, &[alpha, ion["rvt"].ln()], 0.1, 300);
        alpha = x[0];
        ion.insert("rvt".into(), x[1].exp());
        // Other flavours' drive from their TT FO4 (FO4 ∝ 1/I_on at fixed capacitance).
        for p in tt.iter().filter(|p| p.flavour != "rvt") {
            for _ in 0..3 {
                let n = node_with(&base, &vth, alpha, &ion)?;
                let m = point(&n, &p.flavour, p.vdd_v, p.temperature_k)?.fo4_delay_s();
                let cur = ion[&p.flavour];
                ion.insert(p.flavour.clone(), cur * m / p.fo4_s);
            }
        }
        // Thresholds from TT leakage.
        for p in &tt {
            let (mut lo, mut hi) = (-0.2f64, 0.8f64);
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                let mut v2 = vth.clone();
                v2.insert(p.flavour.clone(), mid);
                let n = node_with(&base, &v2, alpha, &ion)?;
                if i_off_fin(&point(&n, &p.flavour, p.vdd_v, p.temperature_k)?) > p.i_off_a_per_fin
                {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            vth.insert(p.flavour.clone(), 0.5 * (lo + hi));
        }
    }
    let n = node_with(&base, &vth, alpha, &ion)?;
    let mut residuals = Vec::new();
    for p in probes {
        let t = point(&n, &p.flavour, p.vdd_v, p.temperature_k)?;
        residuals.push((
            format!("{} {} {:.2} V", p.flavour, p.corner, p.vdd_v),
            p.fo4_s,
            t.fo4_delay_s(),
            p.i_off_a_per_fin,
            i_off_fin(&t),
        ));
    }
    // Energy exponent over the RVT corners: ln E = c + k ln V.
    let pts: Vec<(f64, f64)> = rvt
        .iter()
        .map(|p| (p.vdd_v.ln(), p.fo4_energy_j.ln()))
        .collect();
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / pts.len() as f64;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / pts.len() as f64;
    let k = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>()
        / pts
            .iter()
            .map(|p| (p.0 - mx).powi(2))
            .sum::<f64>()
            .max(1e-30);
    let rms = (pts
        .iter()
        .map(|p| (my + k * (p.0 - mx) - p.1).exp() - 1.0)
        .map(|e| e * e)
        .sum::<f64>()
        / pts.len() as f64)
        .sqrt();
    let fit = TechFit {
        probes: probes.to_vec(),
        vth_v: vth,
        alpha,
        i_on_ref_a_per_fin: ion,
        energy_exponent: (k, rms),
        residuals,
    };
    fit.check()?;
    Ok(fit)
}

/// Probe the standard ASAP7-style set (RVT/LVT/SLVT at TT, RVT at FF and SS) and fit.
pub fn fit_dir(dir: &Path, node_toml: &str) -> Result<TechFit, CalError> {
    fit_dir_with_progress(dir, node_toml, &mut crate::progress::ignore)
}

/// [`fit_dir`], reporting a `probe` [`crate::progress::Step`] per corner (`rvt tt`, …) as its
/// liberty files are read.
pub fn fit_dir_with_progress(
    dir: &Path,
    node_toml: &str,
    on_step: crate::progress::OnStep<'_>,
) -> Result<TechFit, CalError> {
    let mut probes = Vec::new();
    let corners = [
        ("rvt", "tt"),
        ("lvt", "tt"),
        ("slvt", "tt"),
        ("rvt", "ff"),
        ("rvt", "ss"),
    ];
    for (done, (f, c)) in corners.into_iter().enumerate() {
        on_step(crate::progress::Step {
            stage: "probe",
            item: &format!("{f} {c}"),
            done,
            total: corners.len(),
        });
        match probe(dir, f, c) {
            Ok(p) => probes.push(p),
            Err(CalError::Liberty(m)) if !(f == "rvt" && c == "tt") => {
                eprintln!("techfit: skipping {f} {c}: {m}")
            }
            Err(e) => return Err(e),
        }
    }
    fit(&probes, node_toml)
}

impl TechFit {
    /// A text report of the probes, fitted values and errors.
    pub fn report(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<18} {:>10} {:>10} {:>7} {:>12} {:>12} {:>7}",
            "probe", "FO4 lib", "FO4 fit", "err%", "Ioff lib", "Ioff fit", "err%"
        );
        for (l, d, dm, i, im) in &self.residuals {
            let _ = writeln!(
                s,
                "{:<18} {:>8.2}ps {:>8.2}ps {:>7.2} {:>10.3}pA {:>10.3}pA {:>7.2}",
                l,
                d * 1e12,
                dm * 1e12,
                100.0 * (dm / d - 1.0),
                i * 1e12,
                im * 1e12,
                100.0 * (im / i - 1.0)
            );
        }
        let fo4_rms = (self
            .residuals
            .iter()
            .map(|r| (r.2 / r.1 - 1.0).powi(2))
            .sum::<f64>()
            / self.residuals.len() as f64)
            .sqrt();
        let _ = writeln!(s, "FO4 RMS error over all probes: {:.2} %", 100.0 * fo4_rms);
        for (f, v) in &self.vth_v {
            let _ = writeln!(
                s,
                "vth_v[{f}] = {v:.4} V   i_on_ref_a_per_fin[{f}] = {:.4e} A",
                self.i_on_ref_a_per_fin[f]
            );
        }
        let _ = writeln!(s, "alpha = {:.4}", self.alpha);
        let _ = writeln!(
            s,
            "FO4 energy ∝ Vdd^{:.3} (RMS error {:.2} %)",
            self.energy_exponent.0,
            100.0 * self.energy_exponent.1
        );
        for p in &self.probes {
            let _ = writeln!(
                s,
                "  {} {}: E_FO4 = {:.4} fJ per transition",
                p.flavour,
                p.corner,
                p.fo4_energy_j * 1e15
            );
        }
        s
    }

    /// Refuses numbers that must never reach a node file: a threshold that is not a finite
    /// positive voltage, an alpha outside the alpha-power law's range [1, 2] (1 fully
    /// velocity-saturated, 2 long channel), an on-current that is not finite and positive.
    pub fn check(&self) -> Result<(), CalError> {
        for (f, v) in &self.vth_v {
            if !(v.is_finite() && *v > 0.0) {
                return Err(CalError::Fit(format!(
                    "fitted vth_v of {f} is {v}, not a positive finite voltage"
                )));
            }
        }
        if !(self.alpha.is_finite() && (1.0..=2.0).contains(&self.alpha)) {
            return Err(CalError::Fit(format!(
                "fitted alpha is {}, outside the alpha-power law's range [1, 2]",
                self.alpha
            )));
        }
        for (f, v) in &self.i_on_ref_a_per_fin {
            if !(v.is_finite() && *v > 0.0) {
                return Err(CalError::Fit(format!(
                    "fitted i_on_ref_a_per_fin of {f} is {v}, not a positive finite current"
                )));
            }
        }
        Ok(())
    }

    /// The node TOML with the fitted numbers written in place (only the `vth_v`, `alpha` and
    /// `i_on_ref_a_per_fin` lines of the `[fin_flavours.*]` sections change; comments and
    /// layout are kept).
    pub fn apply_to_toml(&self, text: &str) -> String {
        let mut out = String::new();
        let mut section = String::new();
        for line in text.lines() {
            let t = line.trim();
            if t.starts_with('[') {
                section = t.trim_matches(|c| c == '[' || c == ']').to_string();
            }
            let flavour = section.strip_prefix("fin_flavours.").map(|s| s.to_string());
            let key = t.split('=').next().unwrap_or("").trim();
            let new = match (&flavour, key) {
                (Some(f), "vth_v") => self.vth_v.get(f).map(|v| format!("vth_v = {v:.4}")),
                (Some(f), "i_on_ref_a_per_fin") => self
                    .i_on_ref_a_per_fin
                    .get(f)
                    .map(|v| format!("i_on_ref_a_per_fin = {v:.4e}")),
                (Some(f), "alpha") if self.vth_v.contains_key(f) => {
                    Some(format!("alpha = {:.4}", self.alpha))
                }
                _ => None,
            };
            match new {
                Some(n) => out.push_str(&n),
                None => out.push_str(line),
            }
            out.push('\n');
        }
        out
    }
}
