//! Shared plumbing of the examples: the command-line knobs every study takes (workloads, size,
//! output folder), a `compare` through the library, and a plain-text table printer.

#![allow(dead_code)] // each example uses the part it needs

use gpuenergy::compare::{self, Comparison};
use gpuenergy::study::{workloads_named, Study};
use gpuenergy::study_config::StudyConfig;
use sim::workloads::Size;
use std::path::PathBuf;

/// Knobs every example takes: `--workload W[,W...]|all`, `--size test|bench`, `--out DIR`.
#[derive(clap::Parser, Debug)]
pub struct Knobs {
    /// Workloads: one, a comma-separated list, or `all`.
    #[arg(long)]
    pub workload: Option<String>,
    /// Input size tier.
    #[arg(long, default_value = "test", value_parser = ["test", "bench"])]
    pub size: String,
    /// Folder for the plots (default `target/examples-out/<example>`).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

impl Knobs {
    /// Parses the command line; `default_workloads` when `--workload` is absent.
    pub fn parse_with(default_workloads: &str) -> Knobs {
        let mut k = <Knobs as clap::Parser>::parse();
        if k.workload.is_none() {
            k.workload = Some(default_workloads.to_string());
        }
        k
    }

    /// The workload list.
    pub fn workloads(&self) -> &str {
        self.workload.as_deref().unwrap_or("all")
    }

    /// The plot folder of example `name`, created.
    pub fn out_dir(&self, name: &str) -> anyhow::Result<PathBuf> {
        let d = self
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("target").join("examples-out").join(name));
        std::fs::create_dir_all(&d)?;
        Ok(d)
    }
}

/// One comparison as `gpuenergy compare` runs it: `preset` at `tech`, `baseline` against each
/// technique of `techniques` (each once per value of `sweep` when given), with the knobs of
/// `set` applied to every run, on `k`'s workloads.
pub fn compare(
    preset: &str,
    tech: techlib::ResolvedPoint,
    baseline: &str,
    techniques: &[&str],
    set: &[(&str, &str)],
    sweep: Option<(&str, &[&str])>,
    k: &Knobs,
) -> anyhow::Result<Comparison> {
    let base = StudyConfig::preset(preset)?;
    let techniques: Vec<String> = techniques.iter().map(|t| t.to_string()).collect();
    let sweep = sweep.map(|(key, vs)| {
        (
            key.to_string(),
            vs.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        )
    });
    let set: Vec<(String, String)> = set
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let (b, variants) = compare::plan(&base, baseline, &techniques, &set, sweep.as_ref())?;
    let list = workloads_named(k.workloads())?;
    let size: Size = k.size.parse()?;
    let study = Study::new(b.config.clone(), tech, None).size(size);
    let total = (variants.len() + 1) * list.len();
    eprintln!("running {total} simulations ({preset}, {} size)", k.size);
    let c = compare::run(&study, &k.size, &b, &variants, &list, &|n, total, what| {
        eprintln!("  [{n}/{total}] {what}");
    })?;
    Ok(c)
}

/// The first line of a study: machine, node, size, baseline and workloads.
pub fn print_header(c: &Comparison, k: &Knobs) {
    println!(
        "{} at {}, {} size, against {} (workloads: {})\n",
        c.gpu,
        c.tech,
        c.size,
        c.baseline,
        k.workloads()
    );
}

/// Prints `rows` under `header` as an aligned plain-text table (first column left-aligned,
/// the rest right-aligned).
pub fn print_table(header: &[&str], rows: &[Vec<String>]) {
    let n = header.len();
    let mut w: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate().take(n) {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |cells: Vec<String>| {
        let s: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == 0 {
                    format!("{c:<width$}", width = w[i])
                } else {
                    format!("{c:>width$}", width = w[i])
                }
            })
            .collect();
        println!("{}", s.join("  "));
    };
    line(header.iter().map(|h| h.to_string()).collect());
    println!("{}", "-".repeat(w.iter().sum::<usize>() + 2 * (n - 1)));
    for r in rows {
        line(r.clone());
    }
}

/// `x` as a signed percentage with one decimal, or "—" when absent.
pub fn pct(x: Option<f64>) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{:+.1} %", 100.0 * v),
        _ => "—".to_string(),
    }
}
