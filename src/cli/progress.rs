//! Progress of the long-running commands (`estimate`, `simulate`, `correlate`, `calibrate`,
//! `synth`): one `--quiet` flag shared by all of them and one bar type. The bar is drawn on
//! stderr only when stderr is a terminal and `--quiet` is not given; it never writes to stdout
//! or to a file, so a command's output is the same with and without it. Informational lines
//! (what was read, where files were written) go through [`Progress::note`]: printed above the
//! bar on a terminal, as plain lines otherwise, not at all under `--quiet`. Per-step lines that
//! the bar stands for on a terminal go through [`Progress::log`]: printed only when no bar is
//! drawn (a log file still shows how far a long run got), not under `--quiet`. Warnings go
//! through [`Progress::warn`] and always print.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A bar: units done of the total, elapsed time, estimated time left, the unit under way.
const BAR_TEMPLATE: &str =
    "{spinner} [{bar:20}] {pos}/{len} {prefix}, {elapsed} elapsed, ~{eta} left: {wide_msg}";

/// A spinner: elapsed time and the work under way.
const SPINNER_TEMPLATE: &str = "{spinner} {elapsed} {wide_msg}";

/// The `--quiet` flag, flattened into every long-running command's arguments.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct QuietArg {
    /// No progress bar and no informational lines on stderr (warnings and errors still print).
    /// The bar is drawn only when stderr is a terminal; stdout and written files are the same
    /// either way.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// A progress display: a bar (or spinner) on a terminal, nothing otherwise. Cheap to clone;
/// clones share the bar.
#[derive(Clone, Debug)]
pub struct Progress {
    bar: ProgressBar,
    drawn: bool,
    quiet: bool,
}

/// Whether a bar is drawn: stderr is a terminal and `--quiet` was not given.
pub fn drawn(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

impl Progress {
    fn with(bar: ProgressBar, quiet: bool, template: &str) -> Self {
        let drawn = drawn(quiet);
        bar.set_style(
            ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_draw_target(if drawn {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        });
        if drawn {
            bar.enable_steady_tick(Duration::from_millis(200));
        }
        Progress { bar, drawn, quiet }
    }

    /// A bar over `total` units of work named `what` (e.g. `runs`): units done of the total,
    /// the current unit in the message, elapsed time and the estimated time left. With a total
    /// of 0 (not known yet) it shows as a spinner until [`Progress::set_total`] gives one.
    pub fn bar(total: usize, what: &str, quiet: bool) -> Self {
        let template = if total == 0 {
            SPINNER_TEMPLATE
        } else {
            BAR_TEMPLATE
        };
        let p = Self::with(ProgressBar::new(total as u64), quiet, template);
        p.stage(what);
        p
    }

    /// Names the units counted (`runs`, `files read`, …), for a bar that goes through stages.
    pub fn stage(&self, what: &str) {
        self.bar.set_prefix(what.to_string());
    }

    /// A spinner with elapsed time and a message, for work whose size is not known in advance.
    pub fn spinner(quiet: bool) -> Self {
        Self::with(ProgressBar::new_spinner(), quiet, SPINNER_TEMPLATE)
    }

    /// Whether the bar is drawn (stderr is a terminal and not `--quiet`).
    pub fn is_drawn(&self) -> bool {
        self.drawn
    }

    /// Whether `--quiet` was given.
    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    /// Sets the number of units done.
    pub fn set_position(&self, done: usize) {
        self.bar.set_position(done as u64);
    }

    /// Sets the total number of units (a spinner turns into a bar).
    pub fn set_total(&self, total: usize) {
        if self.bar.length() == Some(total as u64) {
            return;
        }
        if self.drawn {
            let template = if total == 0 {
                SPINNER_TEMPLATE
            } else {
                BAR_TEMPLATE
            };
            self.bar.set_style(
                ProgressStyle::with_template(template)
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
        }
        self.bar.set_length(total as u64);
    }

    /// Counts one more unit done.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Names the unit under way.
    pub fn message(&self, msg: impl Into<String>) {
        if self.drawn {
            self.bar.set_message(msg.into());
        }
    }

    /// An informational line: above the bar on a terminal, a plain stderr line otherwise,
    /// nothing under `--quiet`.
    pub fn note(&self, line: impl AsRef<str>) {
        if self.quiet {
            return;
        }
        if self.drawn && !self.bar.is_finished() {
            self.bar.println(line.as_ref());
        } else {
            eprintln!("{}", line.as_ref());
        }
    }

    /// A line of a plain log that the bar replaces: printed only when no bar is drawn (stderr is
    /// not a terminal) and not under `--quiet`.
    pub fn log(&self, line: impl AsRef<str>) {
        if !self.quiet && !self.drawn {
            eprintln!("{}", line.as_ref());
        }
    }

    /// A warning: always printed on stderr (above the bar when one is drawn).
    pub fn warn(&self, line: impl AsRef<str>) {
        if self.drawn && !self.bar.is_finished() {
            self.bar.suspend(|| eprintln!("{}", line.as_ref()));
        } else {
            eprintln!("{}", line.as_ref());
        }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Prints an informational line on stderr unless `--quiet` (for lines outside any bar).
pub fn note(quiet: bool, line: impl AsRef<str>) {
    if !quiet {
        eprintln!("{}", line.as_ref());
    }
}
