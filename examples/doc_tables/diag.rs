//! `gpuenergy diag`'s quick suite in one table (docs/simulator.md).

use super::markdown::*;
use anyhow::{anyhow, Result};
use rayon::prelude::*;

/// `gpuenergy diag`'s quick suite on gtx480, gtx780, gtx1080ti, vortex_like and gf8800gtx_like:
/// per preset the discrete and continuous checks that pass, the policy label, and the
/// cross-check of the measured model (r, MAPE, Kendall τ, largest error, verdict) with the
/// per-wave diagnosis fit.
pub(super) fn diag_summary() -> Result<String> {
    use gpuenergy::diag::{self, Kind, Suite, Thresholds};
    let presets = [
        "gtx480",
        "gtx780",
        "gtx1080ti",
        "vortex_like",
        "gf8800gtx_like",
    ];
    let th = Thresholds::default_embedded();
    let reports: Vec<diag::PresetReport> = presets
        .par_iter()
        .map(|p| {
            let cfg = sim::config::GpuConfig::preset(p)?;
            diag::run(p, &cfg, Suite::Quick, &th, &|_| {}).map_err(|e| anyhow!("{p}: {e}"))
        })
        .collect::<Result<_>>()?;
    let mut rows = Vec::new();
    for r in &reports {
        let count = |k: Kind| {
            let ps: Vec<_> = r.parameters.iter().filter(|p| p.kind == k).collect();
            let pass = ps.iter().filter(|p| p.pass == Some(true)).count();
            format!("{pass}/{}", ps.len())
        };
        let label = r
            .parameters
            .iter()
            .find(|p| p.name == "warpsched_policy.label")
            .map_or("—".to_string(), |p| {
                // "recovered X, predicted Y (configured Z; ..."
                let word = |key: &str| {
                    p.note
                        .split(key)
                        .nth(1)
                        .and_then(|t| t.split([',', ' ', ';', ')']).next())
                        .unwrap_or("?")
                        .to_string()
                };
                let verdict = if p.pass == Some(true) {
                    ""
                } else {
                    " — FAIL"
                };
                format!(
                    "{}, {}; {}{verdict}",
                    word("recovered "),
                    word("predicted "),
                    word("configured ")
                )
            });
        let cc = r
            .crosscheck
            .as_ref()
            .ok_or_else(|| anyhow!("{}: no cross-check", r.preset))?;
        let m = &cc.measured;
        let wave = m.wave_fit.as_ref().map_or("—".to_string(), |w| {
            format!("{:.1} %, C1 {:.0} cycles", w.mape_pct, w.per_wave_cycles)
        });
        rows.push(vec![
            r.preset.clone(),
            count(Kind::Discrete),
            count(Kind::Continuous),
            label,
            format!(
                "{:.3}, {:.1} %, {:.3}, {:.1} % — {}",
                m.pearson_r,
                m.mape_pct,
                m.kendall_tau,
                m.max_abs_err_pct,
                if m.pass { "PASS" } else { "FAIL" }
            ),
            wave,
        ]);
    }
    Ok(table(
        &[
            "preset",
            "discrete",
            "continuous within tolerance",
            "policy label (recovered, predicted; configured)",
            "cross-check, measured model: r, MAPE, τ, max err",
            "diagnosis fit a·T + C0 + C1·(waves − 1): MAPE, C1",
        ],
        &rows,
    ))
}
