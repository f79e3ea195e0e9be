//! Slurm job arrays for a sweep: an `sbatch` script whose array task `i` runs
//! `gpuenergy sweep run FILE --shard i/N --out DIR` (the shard assignment of a local run,
//! results on the shared file system), and a merge script submitted with
//! `--dependency=afterany` on the array, so that the merge runs when every task has ended, and
//! fails naming the missing points if a task failed. Resubmitting runs only the shards that
//! still have points missing; each task computes only its missing points.
//!
//! The scripts call this executable by its absolute path, and name the sweep file and the
//! folder by absolute paths, so the compute nodes must see the same paths (a shared file
//! system).

use super::plan::Plan;
use super::store::{Lookup, Store};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The array job's options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Array tasks N (shards).
    pub array_size: usize,
    /// `--partition`.
    pub partition: Option<String>,
    /// `--time` limit per task.
    pub time: Option<String>,
    /// `--mem` per task.
    pub mem: Option<String>,
    /// `--cpus-per-task`; the run uses as many threads.
    pub cpus_per_task: Option<usize>,
    /// `--max-points` passed on to the runs.
    pub max_points: usize,
}

/// The scripts written for a sweep.
#[derive(Clone, Debug)]
pub struct Scripts {
    /// The array job.
    pub array: PathBuf,
    /// The merge job.
    pub merge: PathBuf,
}

/// A value that goes into an `#SBATCH` line or a path: one word, no `%` (Slurm's filename
/// patterns) and no quote.
fn check_word(what: &str, v: &str) -> anyhow::Result<()> {
    if v.is_empty()
        || v.chars()
            .any(|c| c.is_whitespace() || c == '%' || c == '\'' || c == '"')
    {
        anyhow::bail!("{what} '{v}': must be one word without spaces, quotes or '%'");
    }
    Ok(())
}

/// Most array tasks: Slurm's largest `MaxArraySize` is 4,000,001 (task ids 0 to 4,000,000).
pub const MAX_ARRAY_SIZE: usize = 4_000_000;

/// Most CPUs per task: 1024.
pub const MAX_CPUS_PER_TASK: usize = 1024;

fn absolute(p: &Path) -> anyhow::Result<PathBuf> {
    Ok(if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()?.join(p)
    })
}

/// Writes the array and merge scripts into `DIR/slurm/` for the sweep file `file` (planned as
/// `plan`, which checks it) and the folder `dir`.
pub fn write(plan: &Plan, file: &Path, dir: &Path, o: &Options) -> anyhow::Result<Scripts> {
    let points = plan.points.len();
    if o.array_size == 0 || o.array_size > MAX_ARRAY_SIZE || o.array_size > points {
        anyhow::bail!(
            "--array-size {}: out of range; allowed 1 to {} (the sweep's {points} points, at \
             most Slurm's largest array, {MAX_ARRAY_SIZE}): a task beyond the points would run \
             nothing",
            o.array_size,
            points.min(MAX_ARRAY_SIZE)
        );
    }
    if let Some(c) = o.cpus_per_task {
        if !(1..=MAX_CPUS_PER_TASK).contains(&c) {
            anyhow::bail!("--cpus-per-task {c}: out of range; allowed 1 to {MAX_CPUS_PER_TASK}");
        }
    }
    for (what, v) in [
        ("--partition", &o.partition),
        ("--time", &o.time),
        ("--mem", &o.mem),
    ] {
        if let Some(v) = v {
            check_word(what, v)?;
        }
    }
    let exe = std::env::current_exe()?;
    let file = absolute(file)?;
    let dir = absolute(dir)?;
    for (what, p) in [("executable", &exe), ("sweep file", &file), ("--out", &dir)] {
        check_word(what, &p.display().to_string())?;
    }
    let logs = dir.join("slurm");
    std::fs::create_dir_all(&logs)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", logs.display()))?;
    Store::new(&dir).write_plan(&plan.record())?;
    let n = o.array_size;
    let mut head = String::new();
    for (k, v) in [
        ("partition", &o.partition),
        ("time", &o.time),
        ("mem", &o.mem),
    ] {
        if let Some(v) = v {
            head += &format!("#SBATCH --{k}={v}\n");
        }
    }
    let jobs = match o.cpus_per_task {
        Some(c) => {
            head += &format!("#SBATCH --cpus-per-task={c}\n");
            format!(" --jobs {c}")
        }
        None => String::new(),
    };
    let array = format!(
        "#!/bin/bash\n\
         # gpuenergy sweep: array task i runs shard i/{n} of {file}\n\
         #SBATCH --job-name=gpuenergy-sweep\n\
         #SBATCH --array=0-{last}\n\
         #SBATCH --output={logs}/task-%a.out\n\
         {head}\
         set -eu\n\
         exec {exe} sweep run {file} --out {dir} --shard \"${{SLURM_ARRAY_TASK_ID}}/{n}\" \
         --max-points {max}{jobs} --quiet\n",
        last = n - 1,
        logs = logs.display(),
        exe = exe.display(),
        file = file.display(),
        dir = dir.display(),
        max = o.max_points,
    );
    let merge = format!(
        "#!/bin/bash\n\
         # gpuenergy sweep: merge of {dir} after the array\n\
         #SBATCH --job-name=gpuenergy-sweep-merge\n\
         #SBATCH --output={logs}/merge.out\n\
         {head}\
         set -eu\n\
         exec {exe} sweep merge {dir} --quiet\n",
        logs = logs.display(),
        exe = exe.display(),
        dir = dir.display(),
    );
    let scripts = Scripts {
        array: logs.join("sweep.sbatch"),
        merge: logs.join("merge.sbatch"),
    };
    std::fs::write(&scripts.array, array)?;
    std::fs::write(&scripts.merge, merge)?;
    Ok(scripts)
}

/// The shards of `plan` (split in `n`) that have a point not finished in `store`.
pub fn unfinished_shards(plan: &Plan, store: &Store, n: usize) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for p in &plan.points {
        let s = p.label.index % n;
        if !out.contains(&s) && !matches!(store.lookup(&p.label.key), Lookup::Done(_)) {
            out.push(s);
        }
    }
    out.sort_unstable();
    out
}

/// Runs `sbatch --parsable ARGS` and returns the job id.
fn sbatch(args: &[String]) -> anyhow::Result<String> {
    let out = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run sbatch (is Slurm installed and on PATH?): {e}"))?;
    if !out.status.success() {
        anyhow::bail!(
            "sbatch {} failed ({}): {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let id = text.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        anyhow::bail!("sbatch printed no job id: '{}'", text.trim());
    }
    Ok(id)
}

/// What [`submit`] submitted.
#[derive(Clone, Debug)]
pub struct Submitted {
    /// The array job's id and its task ids; `None` when every shard was finished.
    pub array: Option<(String, Vec<usize>)>,
    /// The merge job's id.
    pub merge: String,
}

/// Submits the array (only the tasks in `tasks`) and the merge job after it.
pub fn submit(scripts: &Scripts, tasks: &[usize]) -> anyhow::Result<Submitted> {
    let array = if tasks.is_empty() {
        None
    } else {
        let list = tasks
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(",");
        let id = sbatch(&[
            format!("--array={list}"),
            scripts.array.display().to_string(),
        ])?;
        Some((id, tasks.to_vec()))
    };
    let mut args = Vec::new();
    if let Some((id, _)) = &array {
        args.push(format!("--dependency=afterany:{id}"));
    }
    args.push(scripts.merge.display().to_string());
    let merge = sbatch(&args)?;
    Ok(Submitted { array, merge })
}
