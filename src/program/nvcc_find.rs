//! Where NVIDIA's CUDA compiler is on this machine (the search order is [`super::nvcc`]'s):
//! `$GPUENERGY_NVCC`, `PATH`, `$CUDA_HOME/bin`, then the Python package `nvidia-cuda-nvcc`.
//! Plain `std` only: the root build script includes this file too, to decide whether the nvcc
//! test runs or is reported as ignored.

use std::path::{Path, PathBuf};
use std::process::Command;

fn is_file(p: &Path) -> bool {
    p.is_file()
}

/// Candidate site-packages folders of the usual Python installations.
fn site_package_dirs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    // ask the interpreter where the `nvidia` namespace package is
    if let Ok(o) = Command::new("python3")
        .args([
            "-c",
            "import nvidia, os\nfor p in nvidia.__path__: print(os.path.dirname(p))",
        ])
        .output()
    {
        if o.status.success() {
            for l in String::from_utf8_lossy(&o.stdout).lines() {
                out.push(PathBuf::from(l.trim()));
            }
        }
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut roots: Vec<PathBuf> = vec![PathBuf::from("/usr/lib"), PathBuf::from("/usr/local/lib")];
    if let Some(h) = &home {
        roots.push(h.join(".local/lib"));
        if let Ok(rd) = std::fs::read_dir(h.join(".pyenv/versions")) {
            let mut v: Vec<PathBuf> = rd.flatten().map(|e| e.path().join("lib")).collect();
            v.sort();
            roots.extend(v);
        }
    }
    for r in roots {
        let Ok(rd) = std::fs::read_dir(&r) else {
            continue;
        };
        let mut pys: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("python3"))
            })
            .collect();
        pys.sort();
        for p in pys {
            out.push(p.join("site-packages"));
            out.push(p.join("dist-packages"));
        }
    }
    out
}

/// The `nvcc` to use (module doc for the search order), or `None`.
pub fn find() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("GPUENERGY_NVCC") {
        let p = PathBuf::from(p);
        return is_file(&p).then_some(p);
    }
    if let Some(path) = std::env::var_os("PATH") {
        for d in std::env::split_paths(&path) {
            let p = d.join("nvcc");
            if is_file(&p) {
                return Some(p);
            }
        }
    }
    if let Some(h) = std::env::var_os("CUDA_HOME") {
        let p = PathBuf::from(h).join("bin").join("nvcc");
        if is_file(&p) {
            return Some(p);
        }
    }
    for sp in site_package_dirs() {
        for rel in ["nvidia/cu13/bin/nvcc", "nvidia/cuda_nvcc/bin/nvcc"] {
            let p = sp.join(rel);
            if is_file(&p) {
                return Some(p);
            }
        }
    }
    None
}
