//! CUDA sources to PTX with NVIDIA's compiler, cached by content.
//!
//! `nvcc` is looked for, in this order: `$GPUENERGY_NVCC` (a path to the executable), `nvcc` on
//! `PATH`, `$CUDA_HOME/bin/nvcc`, then the Python package `nvidia-cuda-nvcc` (`pip install
//! nvidia-cuda-nvcc`): its `nvidia/cu13/bin/nvcc` (or the older `nvidia/cuda_nvcc/bin/nvcc`)
//! under the folders `python3` reports for the `nvidia` namespace package, and under the usual
//! site-packages folders (`~/.local/lib/python3*/site-packages`, `/usr/lib/python3*/…`,
//! `/usr/local/lib/python3*/…`, `~/.pyenv/versions/*/lib/python3*/site-packages`).
//!
//! A source is compiled with `nvcc -ptx -arch=ARCH -O3`. The PTX is kept in
//! `$GPUENERGY_CACHE_DIR`, else `$XDG_CACHE_HOME/gpuenergy`, else `~/.cache/gpuenergy`, under
//! `ptx/STEM-KEY.ptx`, where KEY is the FNV-1a hash of the source (its path as given and its
//! text), every local `#include "…"` it reaches (resolved against the including file's folder,
//! recursively), the architecture, the flags and `nvcc --version`'s output. Entries are written
//! atomically ([`crate::digest::write_atomic`]), so parallel runs never read half a file.

use crate::digest::{fnv1a, write_atomic, FNV_OFFSET};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The flags every compile uses besides `-arch`.
pub const FLAGS: &[&str] = &["-ptx", "-O3"];

/// The PTX target when none is named.
pub const DEFAULT_ARCH: &str = "sm_75";

/// What is printed when no compiler is found.
pub const INSTALL_HINT: &str = "no CUDA compiler (nvcc) found: looked at $GPUENERGY_NVCC, PATH, \
$CUDA_HOME/bin and the Python package nvidia-cuda-nvcc; install it with `pip install \
nvidia-cuda-nvcc` (no GPU needed), or set CUDA_HOME to a CUDA toolkit";

/// A compiled source.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The PTX text.
    pub ptx: String,
    /// Where the cached PTX lies.
    pub path: PathBuf,
    /// True when it came from the cache (no compiler run).
    pub cache_hit: bool,
}

pub use super::nvcc_find::find;

/// The PTX cache folder (module doc).
pub fn cache_dir() -> PathBuf {
    crate::activity_cache::cache_root().join("ptx")
}

/// Checks an architecture name: `sm_NN` or `compute_NN` (optionally with a letter suffix such
/// as `sm_90a`).
pub fn check_arch(arch: &str) -> Result<(), String> {
    let digits = arch
        .strip_prefix("sm_")
        .or_else(|| arch.strip_prefix("compute_"));
    let ok = digits.is_some_and(|d| {
        let d = d.trim_end_matches(['a', 'f']);
        !d.is_empty() && d.len() <= 3 && d.chars().all(|c| c.is_ascii_digit())
    });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "'{arch}' is not a PTX target; allowed: sm_NN or compute_NN (e.g. sm_75, sm_80, sm_90)"
        ))
    }
}

/// Hashes `file` and every local include it reaches into `h` (each file once).
fn hash_sources(file: &Path, h: &mut u64, seen: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let canon = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    if seen.contains(&canon) {
        return Ok(());
    }
    seen.push(canon);
    let text = std::fs::read(file)
        .map_err(|e| anyhow::anyhow!("cannot read CUDA source {}: {e}", file.display()))?;
    *h = fnv1a(*h, file.to_string_lossy().as_bytes());
    *h = fnv1a(*h, &(text.len() as u64).to_le_bytes());
    *h = fnv1a(*h, &text);
    let dir = file.parent().unwrap_or(Path::new(""));
    for line in String::from_utf8_lossy(&text).lines() {
        let l = line.trim_start();
        let Some(rest) = l.strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("include") else {
            continue;
        };
        let rest = rest.trim();
        if let Some(name) = rest.strip_prefix('"').and_then(|r| r.split('"').next()) {
            let inc = dir.join(name);
            if inc.is_file() {
                hash_sources(&inc, h, seen)?;
            }
        }
    }
    Ok(())
}

fn nvcc_version(nvcc: &Path) -> anyhow::Result<String> {
    let o = Command::new(nvcc)
        .arg("--version")
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run {}: {e}", nvcc.display()))?;
    if !o.status.success() {
        anyhow::bail!(
            "{} --version failed: {}",
            nvcc.display(),
            String::from_utf8_lossy(&o.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&o.stdout).to_string())
}

/// Compiles `source` to PTX for `arch`, or returns the cached PTX (module doc).
pub fn compile(source: &Path, arch: &str) -> anyhow::Result<Compiled> {
    check_arch(arch).map_err(anyhow::Error::msg)?;
    if !source.is_file() {
        anyhow::bail!("CUDA source {} does not exist", source.display());
    }
    let nvcc = find().ok_or_else(|| anyhow::anyhow!(INSTALL_HINT))?;
    let version = nvcc_version(&nvcc)?;
    let mut h = fnv1a(FNV_OFFSET, b"gpuenergy-nvcc-ptx v1\n");
    let mut seen = Vec::new();
    hash_sources(source, &mut h, &mut seen)?;
    for part in [arch, &FLAGS.join(" "), &version] {
        h = fnv1a(h, part.as_bytes());
        h = fnv1a(h, b"\n");
    }
    let stem = source
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("source")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect::<String>();
    let dir = cache_dir();
    let name = format!("{stem}-{h:016x}.ptx");
    let path = dir.join(&name);
    if let Ok(ptx) = std::fs::read_to_string(&path) {
        return Ok(Compiled {
            ptx,
            path,
            cache_hit: true,
        });
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| anyhow::anyhow!("cannot create the PTX cache {}: {e}", dir.display()))?;
    let tmp = dir.join(format!(".{name}.{}.out", std::process::id()));
    let out = Command::new(&nvcc)
        .args(FLAGS)
        .arg(format!("-arch={arch}"))
        .arg(source)
        .arg("-o")
        .arg(&tmp)
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run {}: {e}", nvcc.display()))?;
    if !out.status.success() {
        let _ = std::fs::remove_file(&tmp);
        anyhow::bail!(
            "nvcc failed to compile {} (exit status {}):\n{}{}",
            source.display(),
            out.status.code().map_or("signal".into(), |c| c.to_string()),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr).trim_end()
        );
    }
    let ptx = std::fs::read_to_string(&tmp);
    let _ = std::fs::remove_file(&tmp);
    let ptx = ptx.map_err(|e| anyhow::anyhow!("nvcc wrote no readable PTX: {e}"))?;
    write_atomic(&dir, &name, ptx.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    Ok(Compiled {
        ptx,
        path,
        cache_hit: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arch_names() {
        assert!(check_arch("sm_75").is_ok());
        assert!(check_arch("sm_90a").is_ok());
        assert!(check_arch("compute_80").is_ok());
        assert!(check_arch("sm75").is_err());
        assert!(check_arch("sm_").is_err());
        assert!(check_arch("sm_7x").is_err());
    }

    #[test]
    fn includes_change_the_key() {
        let d = std::env::temp_dir().join(format!("gpuenergy-nvcc-inc-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("a.cu"), "#include \"b.h\"\n__global__ void k(){}\n").unwrap();
        std::fs::write(d.join("b.h"), "#define X 1\n").unwrap();
        let key = || {
            let mut h = FNV_OFFSET;
            hash_sources(&d.join("a.cu"), &mut h, &mut Vec::new()).unwrap();
            h
        };
        let k1 = key();
        std::fs::write(d.join("b.h"), "#define X 2\n").unwrap();
        assert_ne!(k1, key());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
