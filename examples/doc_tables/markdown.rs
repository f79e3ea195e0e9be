//! Markdown tables and the number formats of the docs' tables.

use std::fmt::Write;

/// A markdown table: `header` then `rows`, every cell as given.
pub(super) fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut s = format!("| {} |\n", header.join(" | "));
    let _ = writeln!(s, "|{}", "---|".repeat(header.len()));
    for r in rows {
        let _ = writeln!(s, "| {} |", r.join(" | "));
    }
    s
}

/// `x` (a fraction) as a signed percentage with `d` decimals.
pub(super) fn spct(x: f64, d: usize) -> String {
    format!("{:+.d$} %", 100.0 * x)
}

/// `x` (a fraction) as a percentage with `d` decimals, or "—".
pub(super) fn pct(x: Option<f64>, d: usize) -> String {
    x.filter(|v| v.is_finite())
        .map_or_else(|| "—".to_string(), |v| format!("{:.d$} %", 100.0 * v))
}

/// Geometric mean of positive values.
pub(super) fn geomean(v: &[f64]) -> f64 {
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp()
}
