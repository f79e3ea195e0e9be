//! The tables of docs/estimate.md: the analytical activity source against the simulator, and
//! the DRAM energy parameters.

use super::markdown::*;
use anyhow::{anyhow, Result};
use gpuenergy::study::{workloads_named, ActivitySource, Study};
use gpuenergy::study_config::StudyConfig;
use std::fmt::Write;

/// The analytical activity source against the cycle-level simulator: gtx480 at 40 nm, every
/// workload at test size, cycles and total energy.
pub(super) fn model_vs_sim() -> Result<String> {
    let list = workloads_named("all")?;
    let study = Study::new(
        StudyConfig::preset("gtx480")?,
        techlib::ResolvedPoint::named("40nm")?,
        None,
    );
    let sim = study.run(&list)?;
    let model = study
        .clone()
        .activity_source(ActivitySource::Model)
        .run(&list)?;
    let err = |s: f64, m: f64| 100.0 * (m - s) / s;
    let mut rows = Vec::new();
    let (mut sc, mut mc, mut se, mut me) = (vec![], vec![], vec![], vec![]);
    for (s, m) in sim.workloads.iter().zip(&model.workloads) {
        rows.push(vec![
            s.workload.clone(),
            s.cycles.to_string(),
            m.cycles.to_string(),
            format!("{:.1}", err(s.cycles as f64, m.cycles as f64)),
            format!("{:.1}", s.energy_j * 1e6),
            format!("{:.1}", m.energy_j * 1e6),
            format!("{:.1}", err(s.energy_j, m.energy_j)),
        ]);
        sc.push(s.cycles as f64);
        mc.push(m.cycles as f64);
        se.push(s.energy_j);
        me.push(m.energy_j);
    }
    let mut s = table(
        &[
            "workload",
            "sim cycles",
            "model cycles",
            "cycles err %",
            "sim energy µJ",
            "model energy µJ",
            "energy err %",
        ],
        &rows,
    );
    let names: Vec<&str> = sim.workloads.iter().map(|w| w.workload.as_str()).collect();
    let summary = |what: &str, s: &[f64], m: &[f64]| {
        let (i, largest) = s
            .iter()
            .zip(m)
            .map(|(s, m)| ((m - s) / s).abs())
            .enumerate()
            .fold((0, 0.0), |b, (i, e)| if e > b.1 { (i, e) } else { b });
        format!(
            "{what}: MAPE {:.1} %, largest error {:.1} % ({}), Pearson r {:.3}, Kendall τ {:.3}",
            gpuenergy::correlate::mape_pct(s, m),
            100.0 * largest,
            names[i],
            gpuenergy::correlate::pearson_r(s, m).unwrap_or(f64::NAN),
            gpuenergy::diag::crosscheck::kendall_tau(s, m)
        )
    };
    let _ = writeln!(s, "\n- {}", summary("Cycles", &sc, &mc));
    let _ = writeln!(s, "- {}", summary("Total energy", &se, &me));
    Ok(s)
}

/// The DRAM energy parameters of each `dram.kind` and the HBM2 background power of the V100
/// preset's stacks.
pub(super) fn dram() -> Result<String> {
    use models::gpu::dram::{
        DramBackground, DramParams, HBM2_8GB_CHANNEL, HBM2_ACCESS_J_PER_BIT,
        HBM2_ACTIVATION_J_PER_BIT,
    };
    let mut s = String::new();
    let kinds = [
        (
            "`gddr5` (default), `gddr5x`",
            DramParams::gddr5(64.0),
            "2 KiB page",
        ),
        ("`hbm2`", DramParams::hbm2(32.0), "1 KiB pseudo-channel row"),
    ];
    let rows: Vec<Vec<String>> = kinds
        .iter()
        .map(|(k, p, row)| {
            vec![
                k.to_string(),
                format!("{:.2} pJ", p.energy_per_bit_j * 1e12),
                format!("{:.3} nJ ({row})", p.energy_per_activate_j * 1e9),
            ]
        })
        .collect();
    s.push_str(&table(&["`dram.kind`", "per bit", "per activate"], &rows));
    // the activation share of O'Connor et al.'s HBM2 figure, over the activate energy
    let act_j = HBM2_8GB_CHANNEL.activate_energy_j();
    let bytes_per_activate = act_j / HBM2_ACTIVATION_J_PER_BIT / 8.0;
    let _ = writeln!(
        s,
        "\nHBM2: {:.2} pJ/bit in total, {:.2} of it activation (O'Connor et al.); an activate, \
         VDD × (IDD0 × tRC − IDD3N × tRAS − IDD2N × tRP), costs {:.3} nJ, which that \
         activation share reaches at {bytes_per_activate:.0} bytes read per activate.\n",
        HBM2_ACCESS_J_PER_BIT * 1e12,
        HBM2_ACTIVATION_J_PER_BIT * 1e12,
        act_j * 1e9
    );
    let v100 = StudyConfig::preset("v100")?.machine;
    let b = DramBackground::of_config(&v100).ok_or_else(|| anyhow!("v100 has no HBM2"))?;
    let one = DramBackground::hbm2(1.0 / 8.0, v100.gpu.dram_mhz * 1e6);
    let mw = |w: f64| format!("{:.1} mW", w * 1e3);
    let w = |w: f64| format!("{:.2} W", w);
    let rows = vec![
        vec![
            "refresh, VDD × (IDD5AB − IDD3N) × tRFC / tREFI".to_string(),
            mw(one.refresh_w),
            w(b.refresh_w),
        ],
        vec![
            "precharge standby, VDD × IDD2N × f / 1 GHz".to_string(),
            mw(one.standby_precharged_w),
            w(b.standby_precharged_w),
        ],
        vec![
            "active standby, VDD × IDD3N × f / 1 GHz".to_string(),
            mw(one.standby_active_w),
            w(b.standby_active_w),
        ],
        vec![
            "I/O command clock, 2 × C × VDDQ² × f".to_string(),
            mw(one.clock_io_w),
            w(b.clock_io_w),
        ],
        vec![
            "**total**, every bank precharged".to_string(),
            mw(one.background_w(0.0)),
            w(b.background_w(0.0)),
        ],
        vec![
            "**total**, a row open in every channel".to_string(),
            mw(one.background_w(1.0)),
            w(b.background_w(1.0)),
        ],
    ];
    let v100_col = format!(
        "V100, {} stacks at {} MHz",
        b.channels / 8.0,
        v100.gpu.dram_mhz
    );
    s.push_str(&table(&["component", "per channel", &v100_col], &rows));
    Ok(s)
}
