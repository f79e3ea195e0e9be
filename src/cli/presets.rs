//! `gpuenergy presets`: the built-in GPU presets (spec simulator.md §1).

use crate::report::{format_parser, Format, TABLE_JSON};
use anyhow::Result;
use sim::config::GpuConfig;

/// Arguments of `gpuenergy presets`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// table: one summary line per preset; json: every resolved field of every preset.
    #[arg(long, default_value = "table", value_parser = format_parser(TABLE_JSON))]
    pub format: Format,
    /// Print only this preset, as the full TOML file a user can edit and pass with --config.
    #[arg(long)]
    pub dump: Option<String>,
}

pub fn run(args: Args) -> Result<()> {
    if let Some(name) = &args.dump {
        let cfg = GpuConfig::preset(name)?;
        print!("{}", cfg.to_toml_string());
        return Ok(());
    }
    let cfgs: Vec<GpuConfig> = GpuConfig::preset_names()
        .iter()
        .map(|n| GpuConfig::preset(n))
        .collect::<Result<_, _>>()?;
    match args.format {
        Format::Json => {
            let list: Vec<serde_json::Value> = cfgs
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "name": c.gpu.name,
                        "config_hash": c.hash_hex(),
                        "config": c,
                    })
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&list)?);
        }
        Format::Table => print!("{}", table(&cfgs)),
        Format::Csv => return Err(crate::report::no_csv("presets")),
    }
    Ok(())
}

fn table(cfgs: &[GpuConfig]) -> String {
    let head = [
        "preset",
        "SMs",
        "core MHz",
        "DRAM MHz",
        "warps/SM",
        "threads/SM",
        "CTAs/SM",
        "RF KB/SM",
        "RF banks",
        "sched",
        "policy",
        "L1D KB",
        "smem KB",
        "L2 KB",
        "DRAM GB/s",
    ];
    let rows: Vec<Vec<String>> = cfgs
        .iter()
        .map(|c| {
            vec![
                c.gpu.name.clone(),
                c.gpu.n_sm.to_string(),
                format!("{:.0}", c.gpu.core_mhz),
                format!("{:.0}", c.gpu.dram_mhz),
                c.sm.max_warps.to_string(),
                c.sm.max_threads.to_string(),
                c.sm.max_ctas.to_string(),
                (c.rf_bytes() / 1024).to_string(),
                format!("{}x{}", c.rf.n_banks, c.rf.ports_per_bank),
                format!("{}x{}", c.sched.n_per_sm, c.sched.issue_per_sched),
                String::from(c.sched.policy.clone()),
                (c.l1d.size_bytes() / 1024).to_string(),
                (c.sm.shmem_bytes / 1024).to_string(),
                (c.l2_total_bytes() / 1024).to_string(),
                format!("{:.1}", c.dram_peak_bw_bytes_per_s() / 1e9),
            ]
        })
        .collect();
    let mut w: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.len());
        }
    }
    let mut out = String::new();
    let line = |cells: Vec<&str>, out: &mut String| {
        let s: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == 0 {
                    format!("{c:<0$}", w[i])
                } else {
                    format!("{c:>0$}", w[i])
                }
            })
            .collect();
        out.push_str(s.join("  ").trim_end());
        out.push('\n');
    };
    line(head.to_vec(), &mut out);
    for r in &rows {
        line(r.iter().map(String::as_str).collect(), &mut out);
    }
    out
}
