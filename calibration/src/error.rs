//! Error types of the calibration crate. Every error caused by bad input names the file and,
//! where it makes sense, the line of the problem and what was expected there.

use std::path::PathBuf;

/// A report, record, VCD or liberty file that could not be understood.
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}: {msg}", file.display())]
pub struct ParseError {
    /// The file (or a pseudo-name such as `<string>` for in-memory text).
    pub file: PathBuf,
    /// 1-based line number (0 when the problem concerns the whole file).
    pub line: usize,
    /// What was wrong and what was expected.
    pub msg: String,
}

impl ParseError {
    /// A new error at `line` of `file`.
    pub fn new(file: impl Into<PathBuf>, line: usize, msg: impl Into<String>) -> Self {
        ParseError {
            file: file.into(),
            line,
            msg: msg.into(),
        }
    }
}

/// Everything that can go wrong in the calibration crate.
#[derive(Debug, thiserror::Error)]
pub enum CalError {
    /// Malformed input file.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// I/O on a named path.
    #[error("{}: {error}", path.display())]
    Io {
        /// The path being read or written.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// An external tool is missing.
    #[error("required tool '{tool}' was not found on PATH: {hint}")]
    MissingTool {
        /// Program name.
        tool: String,
        /// What to install.
        hint: String,
    },
    /// An external tool ran but failed; the log path has the details.
    #[error("{tool} failed (exit status {status}); see {}{}", log.display(), tail_text(tail))]
    ToolFailed {
        /// Program name.
        tool: String,
        /// Exit status as text.
        status: String,
        /// Log file with the full output.
        log: PathBuf,
        /// Last lines of the output.
        tail: String,
    },
    /// Liberty directory problems (no files, no usable cells, ...).
    #[error("liberty: {0}")]
    Liberty(String),
    /// Unknown component or parameter, bad sweep, etc.
    #[error("{0}")]
    Invalid(String),
    /// Fitting failed (too few points, singular system).
    #[error("fit: {0}")]
    Fit(String),
    /// Overlay read/write.
    #[error(transparent)]
    Overlay(#[from] models::overlay::OverlayError),
}

fn tail_text(t: &str) -> String {
    if t.is_empty() {
        String::new()
    } else {
        format!("\n--- last lines ---\n{t}")
    }
}

/// Read a whole file to a string, naming the path on failure.
pub fn read_text(path: &std::path::Path) -> Result<String, CalError> {
    std::fs::read_to_string(path).map_err(|source| CalError::Io {
        path: path.to_path_buf(),
        error: source,
    })
}

/// Write a whole file, naming the path on failure.
pub fn write_text(path: &std::path::Path, text: &str) -> Result<(), CalError> {
    std::fs::write(path, text).map_err(|source| CalError::Io {
        path: path.to_path_buf(),
        error: source,
    })
}
