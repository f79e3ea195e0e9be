//! Preparing a flavour/corner's liberty files for the flow: decompressed copies for OpenSTA, one
//! merged library for Yosys, and the cell table (areas, tie cells) for reports.

use crate::error::CalError;
use crate::liberty::{self, LibraryInfo};
use std::path::{Path, PathBuf};

/// A library ready for synthesis.
#[derive(Debug, Clone)]
pub struct PreparedLibrary {
    /// Flavour name (`rvt`).
    pub flavour: String,
    /// Corner name (`tt`).
    pub corner: String,
    /// Decompressed liberty files (what OpenSTA reads).
    pub files: Vec<PathBuf>,
    /// Power-analysis copies of `files` with per-output activity pins
    /// ([`super::annotate::annotate_liberty`]), same order.
    pub power_files: Vec<PathBuf>,
    /// The merged library (what Yosys reads).
    pub merged: PathBuf,
    /// Units, conditions and cells of the merged library.
    pub info: LibraryInfo,
    /// Tie-high and tie-low cells as `(cell, pin)`, when the library has them.
    pub tie_hi: Option<(String, String)>,
    /// Tie-low cell.
    pub tie_lo: Option<(String, String)>,
    /// Smallest transparent-high latch: (cell, data pin, enable pin, output pin).
    pub latch_hi: Option<(String, String, String, String)>,
    /// Smallest transparent-low latch.
    pub latch_lo: Option<(String, String, String, String)>,
}

impl PreparedLibrary {
    /// A Yosys techmap file mapping `$_DLATCH_P_`/`$_DLATCH_N_` to the library's latches
    /// (Yosys 0.23's `dfflibmap` maps flip-flops only), or None without latch cells.
    pub fn latch_techmap(&self) -> Option<String> {
        let mut s = String::new();
        for (prim, l) in [
            ("$_DLATCH_P_", &self.latch_hi),
            ("$_DLATCH_N_", &self.latch_lo),
        ] {
            if let Some((cell, d, en, q)) = l {
                s.push_str(&format!(
                    "module \\{prim} (input E, input D, output Q);\n  {cell} _TECHMAP_REPLACE_ (.{d}(D), .{en}(E), .{q}(Q));\nendmodule\n"
                ));
            }
        }
        (!s.is_empty()).then_some(s)
    }
}

fn output_pin_of(text: &str, cell: &str) -> Option<String> {
    let start = text.find(&format!("cell ({cell})"))?;
    let body = &text[start..];
    let mut pin = None;
    for l in body.lines().skip(1) {
        let t = l.trim();
        if t.starts_with("cell (") {
            break;
        }
        if let Some(r) = t.strip_prefix("pin (") {
            pin = r.split(')').next().map(|s| s.trim().to_string());
        }
        if t.starts_with("direction : output") {
            return pin;
        }
    }
    None
}

/// Version of the power-library annotation; a change rebuilds cached copies.
const ANNOTATION_VERSION: &str = "annotate-v1\n";

/// Find, decompress and merge the liberty files of `flavour`/`corner` in `lib_dir`, caching the
/// result under `cache_dir`.
pub fn prepare(
    lib_dir: &Path,
    flavour: &str,
    corner: &str,
    cache_dir: &Path,
) -> Result<PreparedLibrary, CalError> {
    prepare_with_progress(
        lib_dir,
        flavour,
        corner,
        cache_dir,
        &mut crate::progress::ignore,
    )
}

/// [`prepare`], reporting a `prepare` [`crate::progress::Step`] per liberty file read (none
/// when the cached copy is current).
pub fn prepare_with_progress(
    lib_dir: &Path,
    flavour: &str,
    corner: &str,
    cache_dir: &Path,
    on_step: crate::progress::OnStep<'_>,
) -> Result<PreparedLibrary, CalError> {
    let sources = liberty::find_files(lib_dir, flavour, corner)?;
    let dir = cache_dir.join(format!(
        "lib-{}-{}",
        flavour.to_lowercase(),
        corner.to_lowercase()
    ));
    std::fs::create_dir_all(&dir).map_err(|source| CalError::Io {
        path: dir.clone(),
        error: source,
    })?;
    // The tools run in each run's own directory: the library paths handed to them must not be
    // relative to the caller's working directory.
    let dir = dir.canonicalize().map_err(|source| CalError::Io {
        path: dir.clone(),
        error: source,
    })?;
    // Stamp: source names and sizes; reuse the cache when unchanged.
    let mut stamp = String::new();
    for s in &sources {
        let len = std::fs::metadata(s).map(|m| m.len()).unwrap_or(0);
        stamp.push_str(&format!("{} {}\n", s.display(), len));
    }
    let stamp_path = dir.join("sources.txt");
    let merged = dir.join("merged.lib");
    let mut files = Vec::new();
    let fresh = std::fs::read_to_string(&stamp_path).ok().as_deref() == Some(stamp.as_str())
        && merged.exists();
    let merged_text;
    if fresh {
        for s in &sources {
            let name = s
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .trim_end_matches(".gz")
                .to_string();
            files.push(dir.join(name));
        }
        merged_text = crate::error::read_text(&merged)?;
    } else {
        // INVBUF first so the merged header is the inverter/buffer library's.
        let mut ordered = sources.clone();
        ordered.sort_by_key(|p| {
            let n = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .to_uppercase();
            (!n.contains("INVBUF"), n)
        });
        let mut texts = Vec::new();
        for (done, s) in ordered.iter().enumerate() {
            on_step(crate::progress::Step {
                stage: "prepare",
                item: &s.to_string_lossy(),
                done,
                total: ordered.len(),
            });
            let text = liberty::read_liberty(s)?;
            let name = s
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .trim_end_matches(".gz")
                .to_string();
            let plain = dir.join(&name);
            crate::error::write_text(&plain, &text)?;
            texts.push((s.clone(), text));
        }
        for s in &sources {
            let name = s
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .trim_end_matches(".gz")
                .to_string();
            files.push(dir.join(name));
        }
        merged_text = liberty::merge(&texts)?;
        crate::error::write_text(&merged, &merged_text)?;
        crate::error::write_text(&stamp_path, &stamp)?;
    }
    // Power-analysis copies (annotated with activity pins), rebuilt when missing.
    let power_dir = dir.join("power");
    std::fs::create_dir_all(&power_dir).map_err(|source| CalError::Io {
        path: power_dir.clone(),
        error: source,
    })?;
    let mut power_files = Vec::new();
    for f in &files {
        let p = power_dir.join(f.file_name().unwrap_or_default());
        let p_stamp = power_dir.join(format!(
            "{}.stamp",
            f.file_name().unwrap_or_default().to_string_lossy()
        ));
        let want = format!("{}{}", ANNOTATION_VERSION, stamp);
        if !p.exists() || std::fs::read_to_string(&p_stamp).ok().as_deref() != Some(&want) {
            let text = crate::error::read_text(f)?;
            crate::error::write_text(&p, &super::annotate::annotate_liberty(&text))?;
            crate::error::write_text(&p_stamp, &want)?;
        }
        power_files.push(p);
    }
    let info = liberty::library_info(&merged_text, &merged, &[])?;
    let has_inv = info.cells.values().any(|c| {
        c.function.as_deref().is_some_and(|f| {
            let f = f.replace(' ', "");
            f.starts_with('!') && f.len() <= 3 && c.input_caps.len() == 1
        })
    });
    let has_ff = info.cells.values().any(|c| c.is_ff);
    if !has_inv || !has_ff {
        return Err(CalError::Liberty(format!(
            "the liberty files for flavour '{flavour}', corner '{corner}' in {} have no usable {} cells; \
             the flow needs a standard-cell library with inverters and flip-flops (e.g. ../shared/asap7)",
            lib_dir.display(),
            if !has_inv { "inverter" } else { "flip-flop" }
        )));
    }
    let tie = |val: &str| {
        info.cells
            .iter()
            .find(|(_, c)| {
                c.input_caps.is_empty() && c.function.as_deref().map(|f| f.trim()) == Some(val)
            })
            .and_then(|(n, _)| output_pin_of(&merged_text, n).map(|p| (n.clone(), p)))
    };
    let tie_hi = tie("1");
    let tie_lo = tie("0");
    // Latches: enable is a single pin, positive ("CLK") or negative ("!CLK"); output is IQ.
    let latch = |negative: bool| {
        info.cells
            .iter()
            .filter_map(|(n, c)| {
                let (en, d) = c.latch.as_ref()?;
                let en = en.replace(' ', "");
                let (neg, pin) = match en.strip_prefix('!') {
                    Some(p) => (true, p.to_string()),
                    None => (false, en.clone()),
                };
                if neg != negative
                    || !c.input_caps.contains_key(&pin)
                    || !c.input_caps.contains_key(d)
                {
                    return None;
                }
                let q = c.outputs.iter().find(|(_, f)| f.trim() == "IQ")?.0.clone();
                Some((c.area, (n.clone(), d.clone(), pin, q)))
            })
            .min_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal))
            .map(|(_, l)| l)
    };
    let latch_hi = latch(false);
    let latch_lo = latch(true);
    Ok(PreparedLibrary {
        flavour: flavour.to_lowercase(),
        corner: corner.to_lowercase(),
        files,
        power_files,
        merged,
        tie_hi,
        tie_lo,
        latch_hi,
        latch_lo,
        info,
    })
}
