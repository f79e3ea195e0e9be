//! Board power of a study's runs (`estimate --board-power`): the board model of
//! [`models::gpu::board`] fed with each costed run's terms.

use super::results::{Report, WorkloadResult};
use models::gpu::board::{BoardPower, BoardScalars, BoardTerms};
use models::gpu::Part;
use serde::Serialize;
use sim::config::GpuConfig;

/// The board model's output for a report: the scalars used and every run's power.
#[derive(Clone, Debug, Serialize)]
pub struct BoardSection {
    /// The scalars (`k`, `P_const`, `η`) and where they come from.
    pub scalars: BoardScalars,
    /// One entry per workload, in the report's order.
    pub runs: Vec<BoardRun>,
    /// What the terms leave out for this configuration (empty when nothing).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// One run's board power.
#[derive(Clone, Debug, Serialize)]
pub struct BoardRun {
    /// The workload.
    pub workload: String,
    /// The modelled terms before the scalars, W.
    pub terms: BoardTerms,
    /// The board power term by term and `board_power_w`, the average over the run, W.
    #[serde(flatten)]
    pub power: BoardPower,
}

/// The modelled terms of run `w`: the chip's dynamic power without the DRAM's, the chip's
/// leakage with every block powered (`leakage_w`, the static tree's), the DRAM's access power
/// and `dram_background_w`. Dynamic powers are averaged over the time the kernel is busy: a
/// board meter reads a kernel that repeats in a loop, whose launches queue behind one another,
/// so the launch latency the simulator counts before each launch (`gpu.kernel_launch_latency`
/// cycles, when `compat.launch_latency_first`; between launches otherwise) is not idle time
/// there. A run that is all launch latency keeps its whole run time.
pub fn terms(
    w: &WorkloadResult,
    cfg: &GpuConfig,
    clock_hz: f64,
    leakage_w: f64,
    dram_background_w: f64,
) -> BoardTerms {
    let gaps = if cfg.compat.launch_latency_first {
        w.launches
    } else {
        w.launches.saturating_sub(1)
    };
    let latency_s = if clock_hz > 0.0 {
        (gaps * cfg.gpu.kernel_launch_latency) as f64 / clock_hz
    } else {
        0.0
    };
    let busy_s = if w.runtime_s > latency_s {
        w.runtime_s - latency_s
    } else {
        w.runtime_s
    };
    let dram_j = w
        .estimate
        .root
        .find_part(Part::Dram)
        .map_or(0.0, |n| n.totals().dynamic_j);
    let per_s = |j: f64| if busy_s > 0.0 { j / busy_s } else { 0.0 };
    BoardTerms {
        chip_dynamic_w: per_s(w.dynamic_j - dram_j),
        chip_leakage_w: leakage_w,
        dram_dynamic_w: per_s(dram_j),
        dram_background_w,
    }
}

/// The board section of `report` with `scalars`; the memory's background power is that of
/// configuration `cfg`'s DRAM ([`dram_background_w`]).
pub fn section(report: &Report, cfg: &GpuConfig, scalars: BoardScalars) -> BoardSection {
    let (bg, note) = match dram_background_w(cfg) {
        Some(w) => (w, String::new()),
        None => (
            0.0,
            format!(
                "the memory's background power is modelled for HBM2 only; dram.kind = {} counts none",
                format!("{:?}", cfg.dram.kind).to_lowercase()
            ),
        ),
    };
    let runs = report
        .workloads
        .iter()
        .map(|w| {
            let terms = terms(w, cfg, report.core_clock_hz, report.leakage_w, bg);
            BoardRun {
                workload: w.workload.clone(),
                power: scalars.power(&terms),
                terms,
            }
        })
        .collect();
    BoardSection {
        scalars,
        runs,
        note,
    }
}

/// The memory's background power while a kernel runs: refresh, the command clock's I/O and
/// active standby — an open-page controller under load keeps a row open in each channel —
/// ([`models::gpu::dram::DramBackground`]); `None` where the memory kind has no such model.
pub fn dram_background_w(cfg: &GpuConfig) -> Option<f64> {
    models::gpu::dram::DramBackground::of_config(cfg).map(|b| b.background_w(1.0))
}
