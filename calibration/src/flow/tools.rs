//! Finding and running the external tools (yosys, OpenSTA's `sta`, iverilog/vvp).

use crate::error::CalError;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Debian package that provides each tool (the install hint in errors).
fn package_of(tool: &str) -> &'static str {
    match tool {
        "yosys" => "yosys",
        "sta" => "opensta",
        "iverilog" | "vvp" => "iverilog",
        _ => "?",
    }
}

/// Check that `tool` runs; the error says which package to install.
pub fn require(tool: &str) -> Result<(), CalError> {
    let ok = Command::new(tool)
        .arg(if tool == "sta" { "-version" } else { "-V" })
        .output()
        .is_ok();
    if ok {
        Ok(())
    } else {
        Err(CalError::MissingTool {
            tool: tool.into(),
            hint: format!(
                "install it (Debian/Ubuntu: apt-get install {}) or put it on PATH",
                package_of(tool)
            ),
        })
    }
}

/// First line of `tool`'s version output (for provenance in records).
pub fn version(tool: &str) -> String {
    let arg = if tool == "sta" { "-version" } else { "-V" };
    Command::new(tool)
        .arg(arg)
        .output()
        .ok()
        .map(|o| {
            let s = String::from_utf8_lossy(&o.stdout).to_string()
                + &String::from_utf8_lossy(&o.stderr);
            s.lines().next().unwrap_or("").trim().to_string()
        })
        .unwrap_or_default()
}

/// Run `cmd` in `dir`, writing stdout+stderr to `log`; fail with the log's tail on a non-zero exit.
pub fn run_logged(
    mut cmd: Command,
    dir: &Path,
    log: &Path,
    tool: &str,
) -> Result<String, CalError> {
    let out = cmd
        .current_dir(dir)
        .output()
        .map_err(|e| CalError::MissingTool {
            tool: tool.into(),
            hint: format!(
                "could not start it ({e}); install package {}",
                package_of(tool)
            ),
        })?;
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    std::fs::write(log, &text).map_err(|source| CalError::Io {
        path: log.to_path_buf(),
        error: source,
    })?;
    if !out.status.success() {
        let tail: Vec<&str> = text.lines().rev().take(15).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(CalError::ToolFailed {
            tool: tool.into(),
            status: out
                .status
                .code()
                .map(|c| c.to_string())
                .unwrap_or_else(|| "signal".into()),
            log: log.to_path_buf(),
            tail: tail.join("\n"),
        });
    }
    Ok(text)
}

/// Absolute form of a path (for scripts run in another directory).
pub fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.to_path_buf())
    }
}
