//! `gpuenergy sram`: the CACTI-class SRAM model on one configuration, or on a batch of CACTI-style
//! rows from a CSV file ([`batch_file_output`]) or from a caller ([`batch_output`], the Python
//! package's `sram_batch`).
//!
//! Sizes take an optional unit suffix; every suffix is binary (1 KB = 1 KiB = 1024 bytes), the
//! convention of memory datasheets and of CACTI's inputs: `B`, `K`/`KB`/`KiB`, `M`/`MB`/`MiB`,
//! `G`/`GB`/`GiB` (case-insensitive).

use crate::report::{self, Format};
use anyhow::{anyhow, bail, Context, Result};
use models::sram::reference::{ConfigRow, TechCache};
use models::sram::{
    evaluate, evaluate_sliced, is_finfet_node, sram_tech_designed_at, BackGate, CellKind, Flavour,
    Objective, SramSpec, TechRequest,
};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `gpuenergy sram`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["size", "batch"])))]
pub struct Args {
    /// Technology node: planar90…planar16 (also `45nm`, CACTI's `0.045`), finfet7, finfet12 or
    /// asap7.
    #[arg(long, default_value = "planar45")]
    pub tech: String,
    /// Device flavour: hp, lstp, lop (planar) or lvt, rvt (FinFET; finfet12 has lvt only).
    /// Default: hp planar, lvt FinFET.
    #[arg(long)]
    pub device: Option<String>,
    /// Supply voltage in volts (default: the flavour's nominal supply).
    #[arg(long, conflicts_with = "op", allow_negative_numbers = true)]
    pub vdd: Option<f64>,
    /// Named operating point of the node (finfet7: stv = 0.45 V, ntv = 0.30 V).
    #[arg(long)]
    pub op: Option<String>,
    /// Supply the array is designed (organised) at, in volts (default: the flavour's nominal
    /// supply). The organisation and area are those of this design whatever --vdd/--op is.
    #[arg(long, allow_negative_numbers = true)]
    pub design_vdd: Option<f64>,
    /// Lane slices (lane-sliced banked storage, e.g. 32 for a GPU register file with 128-B
    /// entries): each slice holds size/lanes bytes read block/lanes bytes at a time.
    #[arg(long, default_value_t = 1)]
    pub lanes: u32,
    /// FinFET back-gate mode: vdd (tied to the front gate, full drive) or gnd (low energy).
    #[arg(long, default_value = "vdd")]
    pub back_gate: String,
    /// Capacity, e.g. 65536, 64KiB, 2MiB (all suffixes binary).
    #[arg(long)]
    pub size: Option<String>,
    /// Access width (bytes per access), e.g. 64 or 128B.
    #[arg(long, requires = "size")]
    pub block: Option<String>,
    /// Read-write ports.
    #[arg(long, default_value_t = 1)]
    pub rw_ports: u32,
    /// Read-only ports.
    #[arg(long, default_value_t = 0)]
    pub read_ports: u32,
    /// Write-only ports.
    #[arg(long, default_value_t = 0)]
    pub write_ports: u32,
    /// Independent banks (each size/banks).
    #[arg(long, default_value_t = 1)]
    pub banks: u32,
    /// Cell: 6t or 8t (default 6t planar, 8t finfet7).
    #[arg(long)]
    pub cell: Option<String>,
    /// Junction temperature in kelvin (default 350 K, as every command).
    #[arg(long, allow_negative_numbers = true)]
    pub temperature: Option<f64>,
    /// Output format of a single configuration.
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// CSV of CACTI-style rows (tech_um,size_bytes,block_bytes,rw_ports,read_ports,write_ports,
    /// banks,cell_type); writes CACTI-named output columns.
    #[arg(long, conflicts_with = "size")]
    pub batch: Option<PathBuf>,
    /// Output file of --batch (default: standard output).
    #[arg(long, requires = "batch")]
    pub out: Option<PathBuf>,
}

/// Parse a byte count with an optional binary suffix.
pub fn parse_size(s: &str) -> Result<u64> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    if num.is_empty() {
        bail!("size '{s}': expected a number of bytes with an optional suffix (B, KiB, MiB, GiB)");
    }
    let n: u64 = num
        .parse()
        .with_context(|| format!("size '{s}': bad number"))?;
    let mult: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        other => bail!("size '{s}': unknown unit '{other}' (use B, KiB, MiB or GiB)"),
    };
    n.checked_mul(mult)
        .ok_or_else(|| anyhow!("size '{s}' is too large"))
}

/// Refuses an operating supply (`--vdd`, or `--op`'s) or design supply (`--design-vdd`) below
/// the node's functional minimum ([`techlib::plausible::min_vdd`]).
fn check_supplies(point: &techlib::ResolvedPoint, design_vdd_v: Option<f64>) -> Result<()> {
    let node = point.node();
    let t_k = point.temperature_k();
    let (knob, vdd_v) = match (point.vdd_v(), point.op()) {
        (Some(v), _) => ("--vdd", Some(v)),
        (None, Some(op)) => ("--op", Some(node.operating_point(op)?.vdd_v)),
        (None, None) => ("--vdd", None),
    };
    for (knob, v) in [(knob, vdd_v), ("--design-vdd", design_vdd_v)] {
        if let Some(v) = v {
            techlib::plausible::check_supply_v(node, point.flavour(), t_k, v, knob)?;
        }
    }
    Ok(())
}

/// Runs `gpuenergy sram` with parsed arguments.
pub fn run(args: Args) -> Result<()> {
    if let Some(batch) = &args.batch {
        return run_batch(batch, args.out.as_deref());
    }
    let text = output(&args)?;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

/// The output of one array (`--size`, not `--batch`) in `args.format`.
pub fn output(args: &Args) -> Result<String> {
    if let Some(d) = &args.device {
        Flavour::parse(d)
            .ok_or_else(|| anyhow!("--device '{d}': expected hp, lstp, lop, lvt, rvt or slvt"))?;
    }
    let back_gate = match args.back_gate.to_ascii_lowercase().as_str() {
        "vdd" | "tied" | "on" => BackGate::Vdd,
        "gnd" | "ground" | "grounded" | "off" => BackGate::Gnd,
        other => bail!("--back-gate '{other}': expected vdd or gnd"),
    };
    if let Some(v) = args.vdd {
        if !(v.is_finite() && v > 0.0) {
            bail!("--vdd {v}: expected a positive voltage");
        }
    }
    if let Some(v) = args.design_vdd {
        if !(v.is_finite() && v > 0.0) {
            bail!("--design-vdd {v}: expected a positive voltage");
        }
    }
    // the one resolver, with every command's defaults (flavour, operating point, 350 K)
    let point = techlib::ResolvedPoint::resolve(
        &args.tech,
        args.device.as_deref(),
        args.vdd,
        args.op.as_deref(),
        args.temperature,
    )?;
    let finfet = is_finfet_node(point.node());
    check_supplies(&point, args.design_vdd)?;
    let run = crate::provenance::RunInfo::for_command().with_point(&point);
    let req = TechRequest { point, back_gate };
    let tech = sram_tech_designed_at(&req, args.design_vdd)?;
    let size = parse_size(args.size.as_deref().unwrap_or_default()).context("--size")?;
    let block = parse_size(
        args.block
            .as_deref()
            .ok_or_else(|| anyhow!("--block is required with --size"))?,
    )
    .context("--block")?;
    let cell = match args.cell.as_deref().map(|c| c.to_ascii_lowercase()) {
        None if finfet => CellKind::EightT,
        None => CellKind::SixT,
        Some(c) if c == "6t" => CellKind::SixT,
        Some(c) if c == "8t" => CellKind::EightT,
        Some(c) => bail!("--cell '{c}': expected 6t or 8t"),
    };
    let spec = SramSpec {
        capacity_bytes: size,
        block_bytes: block,
        rw_ports: args.rw_ports,
        read_ports: args.read_ports,
        write_ports: args.write_ports,
        banks: args.banks,
        cell,
        objective: Objective::default(),
    };
    whole_banks(spec.capacity_bytes, spec.block_bytes, spec.banks)
        .map_err(|e| anyhow!("--size/--block/--banks: {e}"))?;
    let r = evaluate_sliced(&spec, args.lanes, &tech)?;
    let text = match args.format {
        Format::Json => {
            serde_json::to_string_pretty(&report::json_with_run(
                &run,
                report::sram::json(&r),
                "array",
            ))? + "\n"
        }
        Format::Csv => report::csv_with_run(&run, &report::sram::csv(&r)),
        Format::Table => report::with_header(
            &run,
            &report::sram::table(&spec, &tech.node, &r, args.lanes, tech.design_vdd_v()),
        ),
    };
    Ok(text)
}

/// Checks that `size` bytes split into `banks` banks of whole `block`-byte blocks: a bank of
/// 21845.3 bytes (64 KiB in 3 banks) is no array anyone can build, and the model's per-bank
/// geometry would silently round it. The message lists the bank counts that work.
fn whole_banks(size: u64, block: u64, banks: u32) -> Result<(), String> {
    if block == 0 || banks == 0 || !size.is_multiple_of(block) {
        return Ok(()); // the model's own checks name these faults
    }
    let blocks = size / block;
    if blocks.is_multiple_of(banks as u64) {
        return Ok(());
    }
    let allowed: Vec<String> = (0..13)
        .map(|k| 1u64 << k)
        .filter(|b| blocks.is_multiple_of(*b))
        .map(|b| b.to_string())
        .collect();
    Err(format!(
        "{size} B in {banks} banks is {:.2} B per bank, not a whole number of {block}-byte \
         blocks ({blocks} blocks in all); use a bank count that divides {blocks}, e.g. {}",
        size as f64 / banks as f64,
        allowed.join(", ")
    ))
}

/// The columns of a `--batch` row (CACTI's configuration inputs), in the order the output
/// repeats them.
pub const BATCH_COLUMNS: [&str; 8] = [
    "tech_um",
    "size_bytes",
    "block_bytes",
    "rw_ports",
    "read_ports",
    "write_ports",
    "banks",
    "cell_type",
];

/// One row of a batch: where it came from and its cells.
pub struct BatchRow {
    /// The row in messages: `FILE: line 3`, or a caller's name for it.
    pub at: String,
    /// What a cell is called in messages: `column` (a CSV file) or a caller's word (`key`).
    pub cell: &'static str,
    /// The cells in [`BATCH_COLUMNS`] order; `None` where the row lacks one.
    pub cells: [Option<String>; 8],
}

impl BatchRow {
    fn field(&self, i: usize) -> Result<&str> {
        self.cells[i].as_deref().ok_or_else(|| {
            anyhow!(
                "{}: missing {} '{}' (need {})",
                self.at,
                self.cell,
                BATCH_COLUMNS[i],
                BATCH_COLUMNS.join(",")
            )
        })
    }

    fn bad(&self, i: usize, msg: std::fmt::Arguments<'_>) -> anyhow::Error {
        anyhow!("{}, {} '{}': {msg}", self.at, self.cell, BATCH_COLUMNS[i])
    }

    fn num(&self, i: usize) -> Result<f64> {
        let s = self.field(i)?;
        s.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v > 0.0)
            .ok_or_else(|| self.bad(i, format_args!("expected a positive number, found '{s}'")))
    }

    fn int(&self, i: usize) -> Result<u64> {
        let s = self.field(i)?;
        s.parse::<u64>().map_err(|_| {
            self.bad(
                i,
                format_args!("expected a non-negative integer, found '{s}'"),
            )
        })
    }

    fn small(&self, i: usize) -> Result<u32> {
        u32::try_from(self.int(i)?).map_err(|_| self.bad(i, format_args!("too large")))
    }

    /// The row's output line: its configuration as read, the array's figures and the model's
    /// run time on it ([`report::sram::batch_row`]).
    fn evaluate(&self, cache: &mut TechCache) -> Result<String> {
        let at = &self.at;
        let cfg = ConfigRow {
            tech_um: self.num(0)?,
            size_bytes: self.int(1)?,
            block_bytes: self.int(2)?,
            rw_ports: self.small(3)?,
            read_ports: self.small(4)?,
            write_ports: self.small(5)?,
            banks: self.small(6)?,
            cell_type: self.field(7)?.to_string(),
        };
        whole_banks(cfg.size_bytes, cfg.block_bytes, cfg.banks).map_err(|e| {
            anyhow!(
                "{at}, {}s 'size_bytes'/'block_bytes'/'banks': {e}",
                self.cell
            )
        })?;
        let req = cfg.tech_request().map_err(|e| anyhow!("{at}: {e}"))?;
        let start = Instant::now();
        let tech = cache.get(&req).map_err(|e| anyhow!("{at}: {e}"))?;
        let r = evaluate(&cfg.spec(), tech).map_err(|e| anyhow!("{at}: {e}"))?;
        let secs = start.elapsed().as_secs_f64();
        Ok(report::sram::batch_row(&cfg, &r, secs))
    }
}

/// The output of a batch: the header, one line per row (its configuration, the array's
/// CACTI-named figures, `model_seconds`), then the provenance columns. The first bad row stops
/// it with an error naming the row and the cell.
pub fn batch_output(rows: impl IntoIterator<Item = Result<BatchRow>>) -> Result<String> {
    let mut cache = TechCache::default();
    let mut lines = vec![report::sram::batch_header(&BATCH_COLUMNS)];
    for row in rows {
        lines.push(row?.evaluate(&mut cache)?);
    }
    // The provenance columns after each row's own (the technology of a row is its own
    // `tech_um` and `cell_type`, so the run's node and supply columns stay empty).
    let run = crate::provenance::RunInfo::for_command();
    Ok(report::csv_with_run(&run, &(lines.join("\n") + "\n")))
}

/// The output of `--batch FILE`: the rows of the CSV file at `path`, whose header names every
/// column of [`BATCH_COLUMNS`] (others are ignored); messages name the file and line.
pub fn batch_file_output(path: &Path) -> Result<String> {
    let file = path.display().to_string();
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_path(path)
        .with_context(|| format!("{file}: cannot open"))?;
    let headers = rdr
        .headers()
        .with_context(|| format!("{file}: line 1: cannot read the header"))?
        .clone();
    let mut idx = [0usize; 8];
    for (i, name) in BATCH_COLUMNS.iter().enumerate() {
        idx[i] = headers.iter().position(|h| h == *name).ok_or_else(|| {
            anyhow!(
                "{file}: line 1: missing column '{name}' (need {})",
                BATCH_COLUMNS.join(",")
            )
        })?;
    }
    let rows = rdr.into_records().map(|rec| {
        let rec = rec.with_context(|| format!("{file}: malformed CSV record"))?;
        let line = rec.position().map(|p| p.line()).unwrap_or(0);
        Ok(BatchRow {
            at: format!("{file}: line {line}"),
            cell: "column",
            cells: idx.map(|i| rec.get(i).map(str::to_string)),
        })
    });
    batch_output(rows)
}

fn run_batch(path: &Path, out_path: Option<&Path>) -> Result<()> {
    let text = batch_file_output(path)?;
    match out_path {
        Some(p) => {
            std::fs::write(p, text).with_context(|| format!("{}: cannot write", p.display()))?
        }
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("128KiB").unwrap(), 131072);
        assert_eq!(parse_size("64KB").unwrap(), 65536);
        assert_eq!(parse_size("2MiB").unwrap(), 2 << 20);
        assert_eq!(parse_size("512").unwrap(), 512);
        assert_eq!(parse_size("128B").unwrap(), 128);
        assert!(parse_size("12XB").is_err());
        assert!(parse_size("KB").is_err());
    }
}
