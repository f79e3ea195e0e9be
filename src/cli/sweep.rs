//! `gpuenergy sweep`: design-space sweeps ([`crate::sweep`]) — `plan`, `run`, `merge`,
//! `status` and `slurm`; this module parses arguments and prints.

use super::progress::{note, Progress, QuietArg};
use crate::report;
use crate::sweep::file::SweepFile;
use crate::sweep::plan::{Plan, Shard, DEFAULT_MAX_POINTS};
use crate::sweep::store::Store;
use crate::sweep::{merge, run as sweep_run, slurm, status};
use anyhow::Result;
use std::path::{Path, PathBuf};

/// Arguments of `gpuenergy sweep`.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Design-space sweeps: a sweep file (TOML) names a base preset or \
configuration, technology points, workloads and sizes, techniques and [axes] of knob values \
(a cartesian product, with zip groups and [[exclude]] rules). Each point (variant x workload x \
size) is simulated and costed once and saved under a content hash of its inputs in the --out \
folder, so an interrupted or repeated sweep computes only the points not done.

Examples:
  gpuenergy sweep plan sweeps/example.toml
  gpuenergy sweep run sweeps/example.toml --out runs/example
  gpuenergy sweep merge runs/example
  gpuenergy sweep slurm sweeps/example.toml --out /shared/example --array-size 16 --time 01:00:00 --submit
  gpuenergy sweep status /shared/example"
)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand, Debug)]
enum Sub {
    /// Print the points of a sweep and an estimate of its cost.
    Plan(PlanArgs),
    /// Compute the points of a sweep (or of one shard) not done yet, in parallel.
    Run(RunArgs),
    /// Write the table of every point (CSV, JSON) and a plot from a finished sweep folder.
    Merge(MergeArgs),
    /// Finished, missing, corrupt and failed points of a sweep folder, per shard.
    Status(StatusArgs),
    /// Write (and with --submit, submit) a Slurm job array that runs the sweep's shards, and a
    /// merge job after it.
    Slurm(SlurmArgs),
}

/// The sweep file and the point limit.
#[derive(clap::Args, Debug)]
struct FileArgs {
    /// The sweep file (TOML).
    file: PathBuf,
    /// Refuse a sweep with more points than this (nothing runs); 1 to 10,000,000.
    #[arg(long, default_value_t = DEFAULT_MAX_POINTS, value_parser = bounded(1, MAX_POINTS_LIMIT))]
    max_points: usize,
}

impl FileArgs {
    fn plan(&self) -> Result<Plan> {
        Plan::build(SweepFile::load(&self.file)?, self.max_points)
    }
}

#[derive(clap::Args, Debug)]
struct PlanArgs {
    #[command(flatten)]
    file: FileArgs,
    /// Only list the points: no cost estimate (which computes one point per workload x size).
    #[arg(long)]
    no_estimate: bool,
    /// Threads the estimate assumes (default: this machine's); 1 to 1024.
    #[arg(long, value_parser = bounded(1, MAX_JOBS))]
    jobs: Option<usize>,
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    #[command(flatten)]
    file: FileArgs,
    /// The sweep folder (results, plan, shard states).
    #[arg(long)]
    out: PathBuf,
    /// Run only shard I of N (points whose number is I modulo N), e.g. 3/8.
    #[arg(long, default_value = "0/1", value_parser = parse_shard)]
    shard: Shard,
    /// Worker threads (default: every core); 1 to 1024.
    #[arg(long, value_parser = bounded(1, MAX_JOBS))]
    jobs: Option<usize>,
    #[command(flatten)]
    quiet: QuietArg,
}

#[derive(clap::Args, Debug)]
struct MergeArgs {
    /// The sweep folder.
    dir: PathBuf,
    #[command(flatten)]
    quiet: QuietArg,
}

#[derive(clap::Args, Debug)]
struct StatusArgs {
    /// The sweep folder.
    dir: PathBuf,
}

#[derive(clap::Args, Debug)]
struct SlurmArgs {
    #[command(flatten)]
    file: FileArgs,
    /// The sweep folder, on a file system the compute nodes share.
    #[arg(long)]
    out: PathBuf,
    /// Array tasks (shards); 1 to 4,000,000 (Slurm's largest array) and at most the number
    /// of points.
    #[arg(long, default_value_t = 1, value_parser = bounded(1, slurm::MAX_ARRAY_SIZE))]
    array_size: usize,
    /// Slurm partition.
    #[arg(long)]
    partition: Option<String>,
    /// Time limit per task (Slurm's format, e.g. 01:00:00).
    #[arg(long)]
    time: Option<String>,
    /// Memory per task (Slurm's format, e.g. 4G).
    #[arg(long)]
    mem: Option<String>,
    /// CPUs per task; each task runs as many threads (1 to 1024).
    #[arg(long, value_parser = bounded(1, MAX_JOBS))]
    cpus_per_task: Option<usize>,
    /// Submit with sbatch: the array (only the tasks with points not done) and the merge job
    /// after it.
    #[arg(long)]
    submit: bool,
}

/// Most worker threads `--jobs` and `--cpus-per-task` take: 1024 (a pool of more threads than
/// any node has cores only costs memory and start-up time).
pub const MAX_JOBS: usize = 1024;

/// Largest `--max-points`: 10,000,000.
pub const MAX_POINTS_LIMIT: usize = 10_000_000;

/// A parser of an integer option in `lo..=hi`; the error names the range.
fn bounded(lo: usize, hi: usize) -> impl Fn(&str) -> Result<usize, String> + Clone {
    move |s: &str| {
        let v: usize = s
            .trim()
            .parse()
            .map_err(|_| format!("'{s}' is not a whole number; allowed {lo} to {hi}"))?;
        if (lo..=hi).contains(&v) {
            Ok(v)
        } else {
            Err(format!("{v} is out of range; allowed {lo} to {hi}"))
        }
    }
}

fn parse_shard(s: &str) -> Result<Shard, String> {
    s.parse()
}

/// Runs `gpuenergy sweep`.
pub fn run(args: Args) -> Result<()> {
    match args.command {
        Sub::Plan(a) => plan(a),
        Sub::Run(a) => run_sweep(a),
        Sub::Merge(a) => merge_dir(a),
        Sub::Status(a) => status_dir(&a.dir),
        Sub::Slurm(a) => slurm_write(a),
    }
}

fn threads(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(rayon::current_num_threads)
}

fn plan(a: PlanArgs) -> Result<()> {
    let p = a.file.plan()?;
    let mut out = report::sweep::plan(&p);
    if !a.no_estimate {
        let probes = sweep_run::probe(&p)?;
        out += &report::sweep::cost(&p, &probes, threads(a.jobs));
    }
    super::print_listing(&out)
}

fn with_pool<T: Send>(jobs: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<T> {
    match jobs {
        Some(0) => anyhow::bail!("--jobs 0: give at least one thread"),
        Some(n) => Ok(rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()?
            .install(f)),
        None => Ok(f()),
    }
}

fn run_sweep(a: RunArgs) -> Result<()> {
    let p = a.file.plan()?;
    let store = Store::new(&a.out);
    let total = p.shard(a.shard).count();
    let bar = Progress::bar(total, "points", a.quiet.quiet);
    let b = bar.clone();
    let summary = with_pool(a.jobs, || {
        sweep_run::run(&p, &store, a.shard, &move |n, _, what| {
            b.set_position(n);
            b.message(what);
            b.log(what);
        })
    })?;
    bar.finish();
    let summary = summary?;
    for (key, why) in &summary.corrupt {
        bar.warn(format!(
            "corrupt result file {} ({why}): recomputed",
            store.point_path(key).display()
        ));
    }
    let run = p.file.run_info();
    print!(
        "{}",
        report::with_header(
            &run,
            &report::sweep::summary(&a.shard.to_string(), &summary)
        )
    );
    if !summary.failed.is_empty() {
        let list: Vec<String> = summary
            .failed
            .iter()
            .map(|(k, e)| format!("  {k}: {}", e.lines().next().unwrap_or("")))
            .collect();
        anyhow::bail!(
            "{} points failed (recorded in {}):\n{}",
            summary.failed.len(),
            store.dir().join("failed").display(),
            list.join("\n")
        );
    }
    Ok(())
}

fn merge_dir(a: MergeArgs) -> Result<()> {
    let store = Store::new(&a.dir);
    let t = merge::merge(&store)?;
    // the sweep file named by the plan record; when it is no longer there, only its name
    let file = store.read_plan()?.file;
    let mut run = match SweepFile::load(Path::new(&file)) {
        Ok(f) => f.run_info(),
        Err(_) => {
            let mut r = crate::provenance::RunInfo::for_command();
            r.config_source = format!("sweep {file}");
            r
        }
    };
    // the merged files depend on the sweep, not on where or how often it was merged: the same
    // sweep merged in two folders (or by a Slurm job) gives the same bytes
    run.command_line.clear();
    let csv = a.dir.join(report::sweep::CSV_FILE);
    let json = a.dir.join(report::sweep::JSON_FILE);
    std::fs::write(&csv, report::sweep::csv(&t, &run))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", csv.display()))?;
    std::fs::write(&json, report::sweep::json(&t, &run)?)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", json.display()))?;
    let plot = report::sweep::write_plot(&a.dir.join("plots"), &t, &run)?;
    note(
        a.quiet.quiet,
        format!(
            "merged {} rows into {}, {} and {}",
            t.rows.len(),
            csv.display(),
            json.display(),
            plot.display()
        ),
    );
    Ok(())
}

fn status_dir(dir: &Path) -> Result<()> {
    let store = Store::new(dir);
    let st = status::status(&store)?;
    super::print_listing(&report::sweep::status(dir, &st))
}

fn slurm_write(a: SlurmArgs) -> Result<()> {
    let p = a.file.plan()?;
    let o = slurm::Options {
        array_size: a.array_size,
        partition: a.partition,
        time: a.time,
        mem: a.mem,
        cpus_per_task: a.cpus_per_task,
        max_points: a.file.max_points,
    };
    let scripts = slurm::write(&p, &a.file.file, &a.out, &o)?;
    println!("array script: {}", scripts.array.display());
    println!("merge script: {}", scripts.merge.display());
    if a.submit {
        let store = Store::new(&a.out);
        let tasks = slurm::unfinished_shards(&p, &store, a.array_size);
        let s = slurm::submit(&scripts, &tasks)?;
        match &s.array {
            Some((id, t)) => println!(
                "submitted array job {id} ({} of {} tasks: those with points not done)",
                t.len(),
                a.array_size
            ),
            None => println!("every point is done: no array job submitted"),
        }
        println!("submitted merge job {}", s.merge);
    } else {
        println!(
            "submit with: sbatch {}, then sbatch --dependency=afterany:JOBID {} (or run this \
             command with --submit)",
            scripts.array.display(),
            scripts.merge.display()
        );
    }
    Ok(())
}
