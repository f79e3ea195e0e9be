//! `[opt]`: the defaults of `gpuenergy optimize` (register-file spec §10, §12; power-gating
//! §0 "optimizer chooses"). The simulator never reads these keys, so they are not part of its
//! machine configuration: the study configuration ([`super::StudyConfig`]) reads the table
//! from the same file, the optimiser reads it from the configuration it starts from,
//! and its command-line flags override it. Absent, the table holds its defaults and is not
//! written, so configurations without it hash as before.

use serde::{Deserialize, Serialize};

/// `opt.objective`: what the optimiser minimises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptObjective {
    /// `"energy"`: total energy over the workloads, J.
    #[default]
    Energy,
    /// `"edp"`: energy × delay, J·s.
    Edp,
    /// `"ed2p"`: energy × delay², J·s².
    Ed2p,
}

impl OptObjective {
    /// The key's value as written in a file and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            OptObjective::Energy => "energy",
            OptObjective::Edp => "edp",
            OptObjective::Ed2p => "ed2p",
        }
    }
}

/// `[opt]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OptSection {
    /// `opt.area_budget`: the area everything added may take, `"X%"` of the budget base
    /// (`--budget-of`: SMs, chip or register file) or `"Xmm2"` absolute. `"0%"`: nothing may
    /// be added (the baseline).
    pub area_budget: String,
    /// `opt.max_slowdown`: largest run-time increase over the baseline, a fraction (0.05 = 5 %).
    pub max_slowdown: f64,
    /// `opt.objective`.
    pub objective: OptObjective,
    /// `opt.snm_min`: smallest static noise margin an SRAM array may be run at, V (register-file
    /// spec §10: SNM(V, cell) ≥ `opt.snm_min` for the SRF supply). 0: no floor.
    pub snm_min: f64,
}

impl Default for OptSection {
    fn default() -> Self {
        OptSection {
            area_budget: "0%".into(),
            max_slowdown: 0.05,
            objective: OptObjective::Energy,
            snm_min: 0.0,
        }
    }
}

/// The range of each numeric `[opt]` key as (key, smallest, largest, unit):
/// [`OptSection::check`] applies it and the key reference prints it.
pub const RANGES: [(&str, f64, f64, &str); 2] = [
    (
        "opt.max_slowdown",
        0.0,
        10.0,
        "(fraction of the baseline run time)",
    ),
    ("opt.snm_min", 0.0, 1.0, "V"),
];

/// Largest area budget as a share, %: 1000 (an added area ten times the base's).
pub const MAX_BUDGET_PCT: f64 = 1000.0;
/// Largest area budget as an area, mm²: 70,000 (a whole 300 mm wafer).
pub const MAX_BUDGET_MM2: f64 = 70_000.0;

/// An area budget as written: a share of a base area or an absolute area.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AreaBudget {
    /// A fraction (0.02 for `"2%"`) of the budget base.
    Fraction(f64),
    /// An absolute area (`"1.5mm2"`).
    Absolute {
        /// The area, m².
        area_m2: f64,
    },
}

impl AreaBudget {
    /// Parses `"X%"` or `"Xmm2"` (X ≥ 0, finite). The error names the value and the forms.
    pub fn parse(text: &str) -> Result<AreaBudget, String> {
        let t = text.trim();
        let bad = || {
            format!(
                "area budget '{text}': expected a non-negative share such as \"2%\" or an area \
                 such as \"1.5mm2\""
            )
        };
        let (num, frac) = if let Some(n) = t.strip_suffix('%') {
            (n, true)
        } else if let Some(n) = t.strip_suffix("mm2") {
            (n, false)
        } else {
            return Err(bad());
        };
        let v: f64 = num.trim().parse().map_err(|_| bad())?;
        let max = if frac { MAX_BUDGET_PCT } else { MAX_BUDGET_MM2 };
        if !(v.is_finite() && (0.0..=max).contains(&v)) {
            return Err(format!(
                "area budget '{text}' is out of range: allowed 0 to {MAX_BUDGET_PCT}% or 0 to \
                 {MAX_BUDGET_MM2}mm2"
            ));
        }
        Ok(if frac {
            AreaBudget::Fraction(v / 100.0)
        } else {
            AreaBudget::Absolute { area_m2: v * 1e-6 }
        })
    }
}

impl OptSection {
    /// All keys at their defaults (the table is then not serialised).
    pub fn is_default(&self) -> bool {
        *self == OptSection::default()
    }

    /// Range checks; each message names the key.
    pub fn check(&self, bad: &mut Vec<String>) {
        if let Err(e) = AreaBudget::parse(&self.area_budget) {
            bad.push(format!("'opt.area_budget': {e}"));
        }
        let [(_, s_lo, s_hi, _), (_, m_lo, m_hi, _)] = RANGES;
        if !(self.max_slowdown.is_finite() && (s_lo..=s_hi).contains(&self.max_slowdown)) {
            bad.push(format!(
                "'opt.max_slowdown' = {}: must be a fraction in {s_lo}..={s_hi} (0.05 = 5 %)",
                self.max_slowdown
            ));
        }
        if !(self.snm_min.is_finite() && (m_lo..=m_hi).contains(&self.snm_min)) {
            bad.push(format!(
                "'opt.snm_min' = {}: must be a margin in {m_lo}..={m_hi} V",
                self.snm_min
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_as_share_or_area() {
        assert_eq!(AreaBudget::parse("2%").unwrap(), AreaBudget::Fraction(0.02));
        assert_eq!(
            AreaBudget::parse(" 1.5mm2").unwrap(),
            AreaBudget::Absolute { area_m2: 1.5e-6 }
        );
        for bad in ["2", "-1%", "x%", "nanmm2", ""] {
            assert!(AreaBudget::parse(bad).is_err(), "{bad}");
        }
    }
}
