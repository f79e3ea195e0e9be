//! Running the component testbenches with Icarus Verilog (`iverilog`,
//! `vvp`) and checking that the components elaborate in yosys.
//!
//! These helpers build the exact command lines documented in
//! [`super`]: compile `rtl/tb/timescale.v`, the component's files and its
//! testbench with `iverilog -g2005 -P<tb>.<P>=<V>`, then run `vvp -n` with
//! the check-mode or stimulus-mode plusargs.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::vectors;
use super::{ComponentSpec, Params, VectorKind};

/// Errors of the RTL helpers.
#[derive(Debug, thiserror::Error)]
pub enum RtlError {
    /// A parameter name the component does not have.
    #[error("component {component}: unknown parameter {param} (expected one of: {expected})")]
    UnknownParam {
        /// Component name.
        component: String,
        /// The offending name.
        param: String,
        /// The component's parameter names.
        expected: String,
    },
    /// A parameter assignment the component cannot build.
    #[error("component {component}: invalid parameters: {reason}")]
    InvalidParams {
        /// Component name.
        component: String,
        /// Why.
        reason: String,
    },
    /// File-system error on a path.
    #[error("{path}: {source}")]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// An external tool could not be started.
    #[error("cannot run {tool}: {source}")]
    ToolMissing {
        /// Tool name.
        tool: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A tool ran and failed.
    #[error("{tool} failed for {component} (exit status {status}):\n{output}")]
    ToolFailed {
        /// Tool name.
        tool: String,
        /// Component name.
        component: String,
        /// Exit status as text.
        status: String,
        /// Tail of stdout and stderr.
        output: String,
    },
    /// The testbench ran but did not report PASS.
    #[error("testbench of {component} did not pass:\n{output}")]
    TestbenchFailed {
        /// Component name.
        component: String,
        /// Tail of the testbench output.
        output: String,
    },
}

/// Result of a passing check-mode run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TbOutcome {
    /// The `PASS <name>: ...` line.
    pub summary: String,
    /// Number of checks passed (the `k` of `k/n`).
    pub checks: u64,
}

/// Whether `tool` is an executable file on `PATH`.
pub fn tool_available(tool: &str) -> bool {
    std::env::var_os("PATH")
        .map(|paths| {
            std::env::split_paths(&paths).any(|dir| {
                let p = dir.join(tool);
                p.is_file()
                    && std::fs::metadata(&p)
                        .map(|m| {
                            use std::os::unix::fs::PermissionsExt;
                            m.permissions().mode() & 0o111 != 0
                        })
                        .unwrap_or(false)
            })
        })
        .unwrap_or(false)
}

fn tail(s: &str, max_lines: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    let start = lines.len().saturating_sub(max_lines);
    lines[start..].join("\n")
}

fn run_tool(tool: &str, cmd: &mut Command, component: &str) -> Result<String, RtlError> {
    let out = cmd.output().map_err(|source| RtlError::ToolMissing {
        tool: tool.to_string(),
        source,
    })?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        return Err(RtlError::ToolFailed {
            tool: tool.to_string(),
            component: component.to_string(),
            status: out.status.to_string(),
            output: tail(&text, 40),
        });
    }
    Ok(text)
}

/// Compile the testbench of `spec` at `params` (missing names take
/// defaults) into the `vvp` image `out`.
pub fn compile_testbench(
    spec: &ComponentSpec,
    params: &Params,
    out: &Path,
) -> Result<(), RtlError> {
    compile_testbench_with(spec, params, out, &spec.file_paths())
}

/// As [`compile_testbench`], with `design` in place of the component's RTL files (e.g. its
/// mapped gate-level netlist and cell models).
pub fn compile_testbench_with(
    spec: &ComponentSpec,
    params: &Params,
    out: &Path,
    design: &[PathBuf],
) -> Result<(), RtlError> {
    let full = spec.resolve(params)?;
    let mut cmd = Command::new("iverilog");
    cmd.arg("-g2005").arg("-o").arg(out);
    for (k, v) in &full {
        cmd.arg(format!("-P{}.{}={}", spec.tb_top, k, v));
    }
    cmd.arg(super::rtl_dir().join("tb/timescale.v"));
    cmd.args(design);
    cmd.arg(spec.testbench_path());
    run_tool("iverilog", &mut cmd, spec.name).map(|_| ())
}

fn write_file(path: &Path, text: &str) -> Result<(), RtlError> {
    std::fs::write(path, text).map_err(|source| RtlError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Write the check-mode vector file of `spec` (if it needs one) into
/// `workdir`; returns the plusargs to pass to `vvp`.
pub fn prepare_vectors(
    spec: &ComponentSpec,
    params: &Params,
    workdir: &Path,
    seed: u64,
) -> Result<Vec<String>, RtlError> {
    let Some(kind) = spec.vectors else {
        return Ok(Vec::new());
    };
    let full = spec.resolve(params)?;
    let mut plus = Vec::new();
    // The integer units' vector files are for WIDTH=32 only; other widths
    // use the testbench's own model.
    if matches!(kind, VectorKind::Alu32 | VectorKind::Imul32) && full.get("WIDTH") != Some(&32) {
        return Ok(plus);
    }
    let tbits = full.get("TBITS").copied().unwrap_or(10);
    let (text, n) = vectors::render(kind, seed, tbits);
    let path = workdir.join(format!("{}.hex", spec.name));
    write_file(&path, &text)?;
    plus.push(format!("+vec={}", path.display()));
    plus.push(format!("+n={n}"));
    Ok(plus)
}

/// Compile and run the check mode of `spec` at `params` in `workdir`
/// (created if needed); vector files are generated there with `seed`.
/// Succeeds only when the testbench prints `PASS <name>:` and exits 0.
pub fn run_check(
    spec: &ComponentSpec,
    params: &Params,
    workdir: &Path,
    seed: u64,
) -> Result<TbOutcome, RtlError> {
    run_check_with(spec, params, workdir, seed, &spec.file_paths())
}

/// As [`run_check`], with `design` in place of the component's RTL files.
pub fn run_check_with(
    spec: &ComponentSpec,
    params: &Params,
    workdir: &Path,
    seed: u64,
    design: &[PathBuf],
) -> Result<TbOutcome, RtlError> {
    std::fs::create_dir_all(workdir).map_err(|source| RtlError::Io {
        path: workdir.to_path_buf(),
        source,
    })?;
    let image = workdir.join(format!("{}.vvp", spec.name));
    compile_testbench_with(spec, params, &image, design)?;
    let plus = prepare_vectors(spec, params, workdir, seed)?;
    let mut cmd = Command::new("vvp");
    cmd.arg("-n")
        .arg(&image)
        .args(&plus)
        .arg(format!("+seed={}", seed as u32 as i32));
    let text = match run_tool("vvp", &mut cmd, spec.name) {
        Ok(t) => t,
        Err(RtlError::ToolFailed { output, .. }) => {
            return Err(RtlError::TestbenchFailed {
                component: spec.name.to_string(),
                output,
            })
        }
        Err(e) => return Err(e),
    };
    let prefix = format!("PASS {}:", spec.name);
    let summary = text.lines().find(|l| l.starts_with(&prefix));
    match summary {
        Some(line) if !text.lines().any(|l| l.starts_with("FAIL")) => {
            let checks = line[prefix.len()..]
                .trim()
                .split('/')
                .next()
                .and_then(|k| k.trim().parse().ok())
                .unwrap_or(0);
            Ok(TbOutcome {
                summary: line.to_string(),
                checks,
            })
        }
        _ => Err(RtlError::TestbenchFailed {
            component: spec.name.to_string(),
            output: tail(&text, 40),
        }),
    }
}

/// Compile and run the workload-like stimulus mode of `spec` at `params`
/// for `cycles` cycles with `seed`, writing the VCD of `<tb_top>.dut` to
/// `vcd`. The compiled image is placed beside the VCD.
pub fn run_stimulus(
    spec: &ComponentSpec,
    params: &Params,
    cycles: u64,
    seed: u64,
    vcd: &Path,
) -> Result<(), RtlError> {
    let dir = vcd
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|source| RtlError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let image = dir.join(format!("{}.stim.vvp", spec.name));
    compile_testbench(spec, params, &image)?;
    let mut cmd = Command::new("vvp");
    cmd.arg("-n")
        .arg(&image)
        .arg("+stim")
        .arg(format!("+cycles={cycles}"))
        .arg(format!("+seed={}", seed as u32 as i32))
        .arg(format!("+vcd={}", vcd.display()));
    let text = run_tool("vvp", &mut cmd, spec.name)?;
    if !text
        .lines()
        .any(|l| l.starts_with(&format!("STIM {}:", spec.name)))
    {
        return Err(RtlError::TestbenchFailed {
            component: spec.name.to_string(),
            output: tail(&text, 40),
        });
    }
    Ok(())
}

/// The yosys script that reads `spec`'s files, sets `params` and runs a
/// generic (technology-independent) `synth` followed by `stat`.
pub fn yosys_generic_script(spec: &ComponentSpec, params: &Params) -> Result<String, RtlError> {
    let full = spec.resolve(params)?;
    let mut s = String::new();
    for f in spec.file_paths() {
        s.push_str(&format!("read_verilog -defer {}; ", f.display()));
    }
    if !full.is_empty() {
        s.push_str("chparam");
        for (k, v) in &full {
            s.push_str(&format!(" -set {k} {v}"));
        }
        s.push_str(&format!(" {}; ", spec.top));
    }
    s.push_str(&format!("synth -flatten -top {}; stat", spec.top));
    Ok(s)
}

/// Run [`yosys_generic_script`]; returns the number of cells of the
/// synthesised top module.
pub fn yosys_generic_synth(spec: &ComponentSpec, params: &Params) -> Result<u64, RtlError> {
    let script = yosys_generic_script(spec, params)?;
    let mut cmd = Command::new("yosys");
    cmd.arg("-p").arg(&script);
    let text = run_tool("yosys", &mut cmd, spec.name)?;
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("Number of cells:"))
        .next_back()
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| RtlError::ToolFailed {
            tool: "yosys".into(),
            component: spec.name.into(),
            status: "0 (no cell count in stat output)".into(),
            output: tail(&text, 40),
        })
}
