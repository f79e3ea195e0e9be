//! CACTI-style configuration rows (the input columns of CACTI 7 batch results) and their
//! mapping onto [`SramSpec`] + [`TechRequest`], plus a comparison of model outputs against
//! CACTI's outputs (mean absolute percentage error per quantity). Used by the accuracy test,
//! the speed benchmark, the calibration fit and `gpuenergy sram --batch`.

use super::calib::Calib;
use super::{
    evaluate_with, sram_tech, BackGate, CellKind, Flavour, Objective, SramError, SramResult,
    SramSpec, SramTech, TechRequest,
};
use std::collections::BTreeMap;

/// Input columns of one configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigRow {
    /// `tech_um`: feature size in micrometres (CACTI's node form, e.g. 0.045).
    pub tech_um: f64,
    /// `size_bytes`: capacity in bytes.
    pub size_bytes: u64,
    /// `block_bytes`: bytes per access.
    pub block_bytes: u64,
    /// `rw_ports`: read-write ports.
    pub rw_ports: u32,
    /// `read_ports`: read-only ports.
    pub read_ports: u32,
    /// `write_ports`: write-only ports.
    pub write_ports: u32,
    /// `banks`: independent banks.
    pub banks: u32,
    /// `itrs-hp`, `itrs-lstp` or `itrs-lop`.
    pub cell_type: String,
}

/// CACTI's outputs for a row (units as in CACTI's CSV).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CactiOutputs {
    /// `access_ns`: access time (ns).
    pub access_ns: f64,
    /// `cycle_ns`: random cycle time (ns).
    pub cycle_ns: f64,
    /// `read_nJ`: dynamic energy of one read (nJ).
    pub read_nj: f64,
    /// `write_nJ`: dynamic energy of one write (nJ).
    pub write_nj: f64,
    /// `leak_bank_mW`: subthreshold leakage of one bank (mW).
    pub leak_bank_mw: f64,
    /// `gate_leak_bank_mW`: gate leakage of one bank (mW).
    pub gate_leak_bank_mw: f64,
    /// `height_mm`: array height (mm).
    pub height_mm: f64,
    /// `width_mm`: array width (mm).
    pub width_mm: f64,
    /// `cacti_seconds`: CACTI's run time for the row (s).
    pub cacti_seconds: f64,
}

/// Temperature of the reference runs.
pub const CACTI_TEMPERATURE_K: f64 = 350.0;

impl ConfigRow {
    /// Device flavour named by `cell_type`.
    pub fn flavour(&self) -> Result<Flavour, SramError> {
        match self.cell_type.trim() {
            "itrs-hp" | "hp" => Ok(Flavour::Hp),
            "itrs-lstp" | "lstp" => Ok(Flavour::Lstp),
            "itrs-lop" | "lop" => Ok(Flavour::Lop),
            other => Err(SramError::Tech(format!(
                "cell_type '{other}': expected itrs-hp, itrs-lstp or itrs-lop"
            ))),
        }
    }

    /// Technology request (CACTI's micrometre node form, 350 K).
    pub fn tech_request(&self) -> Result<TechRequest, SramError> {
        let flavour = match self.flavour()? {
            Flavour::Hp => "hp",
            Flavour::Lstp => "lstp",
            _ => "lop",
        };
        // each row names its own node: the grid spans several nodes
        let point = techlib::ResolvedPoint::resolve(
            &format!("{}", self.tech_um),
            Some(flavour),
            None,
            None,
            Some(CACTI_TEMPERATURE_K),
        )
        .map_err(|e| SramError::Tech(e.to_string()))?;
        Ok(TechRequest {
            point,
            back_gate: BackGate::Vdd,
        })
    }

    /// The array spec of the row: 6T cells, default objective.
    pub fn spec(&self) -> SramSpec {
        SramSpec {
            capacity_bytes: self.size_bytes,
            block_bytes: self.block_bytes,
            rw_ports: self.rw_ports,
            read_ports: self.read_ports,
            write_ports: self.write_ports,
            banks: self.banks,
            cell: CellKind::SixT,
            objective: Objective::default(),
        }
    }
}

/// A row of `cacti7_train.csv`: inputs and CACTI's outputs.
#[derive(Debug, Clone, PartialEq)]
pub struct CactiRow {
    /// 1-based line of the CSV the row came from.
    pub line: usize,
    /// The input columns.
    pub config: ConfigRow,
    /// CACTI's output columns.
    pub cacti: CactiOutputs,
}

/// An error reading or modelling reference rows; every variant names the CSV line.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    /// The CSV text itself is malformed.
    #[error("line {line}: {msg}")]
    Csv {
        /// 1-based line of the CSV.
        line: usize,
        /// What is wrong, with the column and the value found.
        msg: String,
    },
    /// A well-formed row the SRAM model cannot evaluate.
    #[error("line {line}: {error}")]
    Row {
        /// 1-based line of the CSV.
        line: usize,
        /// Why the model rejected it.
        error: SramError,
    },
}

fn csv_err(line: usize, msg: String) -> ReferenceError {
    ReferenceError::Csv { line, msg }
}

/// Parse the reference CSV (plain comma-separated numbers with a header; no quoting). Errors
/// name the line and column.
pub fn parse_cacti_csv(text: &str) -> Result<Vec<CactiRow>, ReferenceError> {
    let mut lines = text.lines().enumerate();
    let (_, header) = lines
        .next()
        .ok_or_else(|| csv_err(1, "empty file: expected a header line".into()))?;
    let cols: Vec<&str> = header.split(',').map(|s| s.trim()).collect();
    let idx = |name: &str| -> Result<usize, ReferenceError> {
        cols.iter()
            .position(|c| *c == name)
            .ok_or_else(|| csv_err(1, format!("missing column '{name}'")))
    };
    let names = [
        "tech_um",
        "size_bytes",
        "block_bytes",
        "rw_ports",
        "read_ports",
        "write_ports",
        "banks",
        "cell_type",
        "access_ns",
        "cycle_ns",
        "read_nJ",
        "write_nJ",
        "leak_bank_mW",
        "gate_leak_bank_mW",
        "height_mm",
        "width_mm",
        "cacti_seconds",
    ];
    let mut ix = BTreeMap::new();
    for n in names {
        ix.insert(n, idx(n)?);
    }
    let mut out = Vec::new();
    for (i, line) in lines {
        let lineno = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').map(|s| s.trim()).collect();
        let get = |n: &str| -> Result<&str, ReferenceError> {
            f.get(ix[n])
                .copied()
                .ok_or_else(|| csv_err(lineno, format!("missing field '{n}'")))
        };
        let num = |n: &str| -> Result<f64, ReferenceError> {
            let s = get(n)?;
            s.parse::<f64>().map_err(|_| {
                csv_err(
                    lineno,
                    format!("column '{n}': expected a number, found '{s}'"),
                )
            })
        };
        let int = |n: &str| -> Result<u64, ReferenceError> {
            let s = get(n)?;
            s.parse::<u64>().map_err(|_| {
                csv_err(
                    lineno,
                    format!("column '{n}': expected a non-negative integer, found '{s}'"),
                )
            })
        };
        let small = |n: &str| -> Result<u32, ReferenceError> {
            u32::try_from(int(n)?)
                .map_err(|_| csv_err(lineno, format!("column '{n}': value too large")))
        };
        out.push(CactiRow {
            line: lineno,
            config: ConfigRow {
                tech_um: num("tech_um")?,
                size_bytes: int("size_bytes")?,
                block_bytes: int("block_bytes")?,
                rw_ports: small("rw_ports")?,
                read_ports: small("read_ports")?,
                write_ports: small("write_ports")?,
                banks: small("banks")?,
                cell_type: get("cell_type")?.to_string(),
            },
            cacti: CactiOutputs {
                access_ns: num("access_ns")?,
                cycle_ns: num("cycle_ns")?,
                read_nj: num("read_nJ")?,
                write_nj: num("write_nJ")?,
                leak_bank_mw: num("leak_bank_mW")?,
                gate_leak_bank_mw: num("gate_leak_bank_mW")?,
                height_mm: num("height_mm")?,
                width_mm: num("width_mm")?,
                cacti_seconds: num("cacti_seconds")?,
            },
        });
    }
    Ok(out)
}

/// Builds and caches technologies per (node, flavour) so that a batch does not rebuild them.
#[derive(Default)]
pub struct TechCache {
    map: BTreeMap<String, SramTech>,
}

impl TechCache {
    /// The technology of `req`, built on first use.
    pub fn get(&mut self, req: &TechRequest) -> Result<&SramTech, SramError> {
        let p = &req.point;
        let key = format!(
            "{} {} {:?} {:?} {} {:?}",
            p.node_name(),
            p.flavour_name(),
            p.vdd_v(),
            p.op(),
            p.temperature_k(),
            req.back_gate
        );
        if !self.map.contains_key(&key) {
            let t = sram_tech(req)?;
            self.map.insert(key.clone(), t);
        }
        Ok(&self.map[&key])
    }
}

/// Relative errors of one row: area, read energy, leakage per bank, access time.
#[derive(Debug, Clone, Copy)]
pub struct RowError {
    /// |model − CACTI| / CACTI of the area (fraction).
    pub area: f64,
    /// |model − CACTI| / CACTI of the read energy (fraction).
    pub read_energy: f64,
    /// |model − CACTI| / CACTI of one bank's subthreshold leakage (fraction).
    pub leakage: f64,
    /// |model − CACTI| / CACTI of the access time (fraction).
    pub access: f64,
}

/// Relative errors of model result `r` against CACTI's outputs `c` for the same row.
pub fn row_error(r: &SramResult, c: &CactiOutputs) -> RowError {
    let rel = |m: f64, t: f64| (m - t).abs() / t.abs().max(1e-30);
    RowError {
        area: rel(r.area_m2 * 1e6, c.height_mm * c.width_mm),
        read_energy: rel(r.read_energy_j * 1e9, c.read_nj),
        // CACTI's "leakage power of a bank" is its subthreshold part (its gate leakage is
        // reported separately and can exceed it, e.g. for lop devices): compare like for like.
        leakage: rel(
            (r.leakage_bank_w - r.gate_leakage_bank_w) * 1e3,
            c.leak_bank_mw,
        ),
        access: rel(r.access_time_s * 1e9, c.access_ns),
    }
}

/// Model every row with `calib`; returns per-row results and errors.
pub fn run_rows(
    rows: &[CactiRow],
    calib: &Calib,
    cache: &mut TechCache,
) -> Result<Vec<(SramResult, RowError)>, ReferenceError> {
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let at = |error: SramError| ReferenceError::Row {
            line: row.line,
            error,
        };
        let req = row.config.tech_request().map_err(at)?;
        let tech = cache.get(&req).map_err(at)?;
        let r = evaluate_with(&row.config.spec(), tech, calib).map_err(at)?;
        out.push((r, row_error(&r, &row.cacti)));
    }
    Ok(out)
}

/// Mean absolute percentage errors (in percent): (area, read energy, leakage, access time).
pub fn mapes(errs: &[(SramResult, RowError)]) -> (f64, f64, f64, f64) {
    let n = errs.len().max(1) as f64;
    let s = errs.iter().fold((0.0, 0.0, 0.0, 0.0), |a, (_, e)| {
        (
            a.0 + e.area,
            a.1 + e.read_energy,
            a.2 + e.leakage,
            a.3 + e.access,
        )
    });
    (
        100.0 * s.0 / n,
        100.0 * s.1 / n,
        100.0 * s.2 / n,
        100.0 * s.3 / n,
    )
}

/// Every `HELD_OUT_EVERY`-th row (by position in the file, starting with the last of each
/// group) is held out of the training split.
pub const HELD_OUT_EVERY: usize = 5;

/// Whether the row at position `i` of the reference file is in the held-out split.
pub fn is_held_out(i: usize) -> bool {
    i % HELD_OUT_EVERY == HELD_OUT_EVERY - 1
}

/// The training split (rows the held-out fit sees).
pub fn training(rows: &[CactiRow]) -> Vec<CactiRow> {
    rows.iter()
        .enumerate()
        .filter(|(i, _)| !is_held_out(*i))
        .map(|(_, r)| r.clone())
        .collect()
}

/// The held-out split.
pub fn held_out(rows: &[CactiRow]) -> Vec<CactiRow> {
    rows.iter()
        .enumerate()
        .filter(|(i, _)| is_held_out(*i))
        .map(|(_, r)| r.clone())
        .collect()
}

/// The MAPEs of `errs` as an accuracy record.
pub fn accuracy(errs: &[(SramResult, RowError)]) -> super::SramAccuracy {
    let (a, e, l, t) = mapes(errs);
    super::SramAccuracy {
        area_mape_pct: a,
        read_energy_mape_pct: e,
        leakage_mape_pct: l,
        access_time_mape_pct: t,
        rows: errs.len(),
    }
}

/// Port class of a configuration, e.g. `1RW`, `2RW`, `1RW+1R`, `1R1W`, `2R1W`.
pub fn port_class(c: &ConfigRow) -> String {
    let mut parts = Vec::new();
    if c.rw_ports > 0 {
        parts.push(format!("{}RW", c.rw_ports));
    }
    let mut rw = String::new();
    if c.read_ports > 0 {
        rw.push_str(&format!("{}R", c.read_ports));
    }
    if c.write_ports > 0 {
        rw.push_str(&format!("{}W", c.write_ports));
    }
    if !rw.is_empty() {
        parts.push(rw);
    }
    parts.join("+")
}

/// Signed relative errors (model/CACTI − 1) of one row, in the order of [`RowError`]: area, read
/// energy, subthreshold leakage per bank, access time.
pub fn signed_error(r: &SramResult, c: &CactiOutputs) -> [f64; 4] {
    let rel = |m: f64, t: f64| m / t.abs().max(1e-30) - 1.0;
    [
        rel(r.area_m2 * 1e6, c.height_mm * c.width_mm),
        rel(r.read_energy_j * 1e9, c.read_nj),
        rel(
            (r.leakage_bank_w - r.gate_leakage_bank_w) * 1e3,
            c.leak_bank_mw,
        ),
        rel(r.access_time_s * 1e9, c.access_ns),
    ]
}

/// The grouping keys of [`group_table`]: a name and the key of a row.
type GroupKey = (&'static str, fn(&ConfigRow) -> String);

const GROUPS: [GroupKey; 6] = [
    ("ports", port_class),
    ("block B", |c| format!("{}", c.block_bytes)),
    ("banks", |c| format!("{}", c.banks)),
    ("capacity B", |c| format!("{}", c.size_bytes)),
    ("node um", |c| format!("{}", c.tech_um)),
    ("flavour", |c| c.cell_type.clone()),
];

/// A per-group error table of `res` (the results of `rows`, in order): for each grouping (port
/// class, block size, banks, capacity, node, device flavour) and each value, the row count and
/// per quantity the MAPE and the mean signed error (model/CACTI − 1), in percent. Groups sort
/// numerically where their keys are numbers.
pub fn group_table(rows: &[CactiRow], res: &[(SramResult, RowError)]) -> String {
    let mut out = String::from(
        "group      value        rows | area MAPE  bias | read MAPE  bias | leak MAPE  bias | access MAPE  bias\n",
    );
    for (name, key) in GROUPS {
        let mut keys: Vec<String> = rows.iter().map(|r| key(&r.config)).collect();
        keys.sort_by(|a, b| match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(x), Ok(y)) => x.total_cmp(&y),
            _ => a.cmp(b),
        });
        keys.dedup();
        for k in &keys {
            let mut n = 0usize;
            let mut abs = [0.0f64; 4];
            let mut sgn = [0.0f64; 4];
            for (row, (r, _)) in rows.iter().zip(res) {
                if key(&row.config) != *k {
                    continue;
                }
                n += 1;
                for (q, e) in signed_error(r, &row.cacti).iter().enumerate() {
                    abs[q] += e.abs();
                    sgn[q] += e;
                }
            }
            let m = |s: f64| 100.0 * s / n.max(1) as f64;
            out.push_str(&format!(
                "{name:<10} {k:<12} {n:4} | {:9.1} {:+5.1} | {:9.1} {:+5.1} | {:9.1} {:+5.1} | {:11.1} {:+5.1}\n",
                m(abs[0]),
                m(sgn[0]),
                m(abs[1]),
                m(sgn[1]),
                m(abs[2]),
                m(sgn[2]),
                m(abs[3]),
                m(sgn[3]),
            ));
        }
    }
    out
}
