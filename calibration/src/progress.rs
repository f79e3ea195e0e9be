//! Progress reporting of the long calibration steps (reading reports, fitting, probing liberty
//! corners, running the synthesis flow). The library never draws or prints progress itself: a
//! caller passes a callback that receives a [`Step`] as each unit of work starts or ends, and
//! decides how to show it (the command line draws a bar on a terminal, nothing otherwise).

/// One unit of work started or finished.
#[derive(Debug, Clone, Copy)]
pub struct Step<'a> {
    /// The stage: `read` (a record or report), `fit` (a component kind), `probe` (a liberty
    /// corner), `prepare` (a liberty file), `yosys`, `iverilog`, `opensta` (flow stages).
    pub stage: &'a str,
    /// What is being worked on: a file, component kind or corner.
    pub item: &'a str,
    /// Units of this stage finished before this one (0-based index of the current unit).
    pub done: usize,
    /// Units of this stage in all (0 when not known in advance).
    pub total: usize,
}

/// A callback that receives progress steps.
pub type OnStep<'a> = &'a mut dyn FnMut(Step<'_>);

/// A callback that ignores every step.
pub fn ignore(_: Step<'_>) {}
