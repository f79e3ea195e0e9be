//! What every issue path reports and counts against in one cycle, whichever stage picks the
//! instruction: the stall reasons in attribution order (simulator §2.3) and the issue ports of
//! one cycle (`ID_OC` instructions per pipe class into the collectors, and per collector class
//! its in-ports). The in-order path (`sm/issue.rs`) and the out-of-order paths (`ooo/`) share
//! them; the collectors' side of the check is [`super::opcoll::OperandCollectors::free_collector`].

use super::exec::PipeClass;
use super::perclass::{CuClass, PerCuClass, PerPipe};

/// Stall reasons in attribution order (§2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stall {
    NoWarp,
    IbufferEmpty,
    Barrier,
    Scoreboard,
    CuFull,
    PipeBusy,
    UnitGated,
}

/// The issue ports of one cycle: `id_oc` instructions per pipe class may enter the collectors
/// (`ID_OC`), and per collector class its in-ports; `used_*` counts what the cycle took.
pub(crate) struct IssuePorts<'a> {
    id_oc: &'a PerPipe<u32>,
    used_idoc: PerPipe<u32>,
    used_in: PerCuClass<u32>,
}

impl<'a> IssuePorts<'a> {
    /// A cycle with every port free.
    #[inline]
    pub fn new(id_oc: &'a PerPipe<u32>) -> Self {
        IssuePorts {
            id_oc,
            used_idoc: PerPipe::splat(0),
            used_in: PerCuClass::splat(0),
        }
    }

    /// Are collector class `class`'s in-ports (`ports` of them, at least one) all taken this
    /// cycle?
    #[inline]
    pub fn in_ports_taken(&self, class: CuClass, ports: u32) -> bool {
        self.used_in[class] >= ports.max(1)
    }

    /// Are pipe class `pipe`'s issue ports all taken this cycle?
    #[inline]
    pub fn pipe_ports_taken(&self, pipe: PipeClass) -> bool {
        self.used_idoc[pipe] >= self.id_oc[pipe].max(1)
    }

    /// An instruction for `pipe` took an in-port of collector class `class`.
    #[inline]
    pub fn take(&mut self, pipe: PipeClass, class: CuClass) {
        self.used_in[class] += 1;
        self.used_idoc[pipe] += 1;
    }
}
