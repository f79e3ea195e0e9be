//! Counting helpers for activity records built outside the cycle-level SM (the analytical
//! activity source and the reference-mode model of control-flow §3.4–§5): which exec-pipe
//! instance and collector class an instruction is counted on, and a pipe's idle timeline
//! reconstructed from its busy cycles and uses (analytical-model §6 idle intervals).

use super::exec::{classify, ExecClass, PipeClass, SpPipe};
use crate::activity::{IdleStats, SmActivity};
use crate::config::GpuConfig;
use crate::inst::{Family, OpClass, WarpInst};

/// The exec-pipe instances of an SM's activity template, by pipe name: indices into
/// `SmActivity::exec`.
#[derive(Clone, Debug)]
pub struct PipeMap {
    int: Vec<usize>,
    fp: Vec<usize>,
    sfu: Vec<usize>,
    dp: Vec<usize>,
    ldst: Vec<usize>,
    tensor: Vec<usize>,
}

impl PipeMap {
    /// The pipes of template `t`.
    pub fn of(t: &SmActivity) -> PipeMap {
        let pick = |name: &str| {
            t.exec
                .iter()
                .enumerate()
                .filter(|(_, p)| p.pipe == name)
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        PipeMap {
            int: pick("int"),
            fp: pick("fp"),
            sfu: pick("sfu"),
            dp: pick("dp"),
            ldst: pick("ldst"),
            tensor: pick("tensor"),
        }
    }

    /// The pipe instance an instruction of `ec` from warp slot `slot` is counted on: the
    /// pipes of its class taken round-robin by warp slot.
    pub fn instance(&self, ec: &ExecClass, slot: u32) -> Option<usize> {
        let v = match ec.pipe {
            PipeClass::Sp => match ec.sp_pipe {
                SpPipe::Fp => &self.fp,
                SpPipe::Int => &self.int,
            },
            PipeClass::Int => &self.int,
            PipeClass::Sfu => &self.sfu,
            PipeClass::Dp => &self.dp,
            PipeClass::Mem => &self.ldst,
            PipeClass::Tensor => &self.tensor,
            PipeClass::None => return None,
        };
        if v.is_empty() {
            None
        } else {
            Some(v[slot as usize % v.len()])
        }
    }
}

/// The collector record an instruction of pipe class `p` is counted on: its class's, else the
/// generic collectors' (`None` when the SM has neither).
pub fn collector_of(
    a: &mut SmActivity,
    p: PipeClass,
) -> Option<&mut crate::activity::OpcollActivity> {
    let cls = cu_class(p);
    let i = a
        .opcoll
        .iter()
        .position(|o| o.class == cls)
        .or_else(|| a.opcoll.iter().position(|o| o.class == "gen"))?;
    a.opcoll.get_mut(i)
}

/// The collector class name of a pipe class (`OpcollActivity::class`).
pub fn cu_class(p: PipeClass) -> &'static str {
    match p {
        PipeClass::Sp => "sp",
        PipeClass::Sfu => "sfu",
        PipeClass::Mem => "mem",
        PipeClass::Dp => "dp",
        PipeClass::Int => "int",
        // the SP collectors (`perclass.rs`)
        PipeClass::Tensor => "sp",
        PipeClass::None => "gen",
    }
}

/// The execution class as the fetch stage gives it: barriers and memory barriers take no pipe.
pub fn exec_class(cfg: &GpuConfig, inst: &WarpInst) -> ExecClass {
    no_pipe_class(inst.family, inst.op).unwrap_or_else(|| classify(cfg, inst))
}

/// The class of an instruction that completes at issue without a pipe (barriers and memory
/// barriers); `None` for every other instruction.
#[inline]
pub fn no_pipe_class(family: Family, op: OpClass) -> Option<ExecClass> {
    (family == Family::Bar || (family == Family::Mem && op == OpClass::Membar)).then_some(
        ExecClass {
            pipe: PipeClass::None,
            sp_pipe: SpPipe::Int,
            latency: 1,
            ii: 1,
        },
    )
}

/// A pipe's timeline over a window of `window` cycles with `busy` busy cycles and `uses`
/// uses: the idle time split into one idle period per use, each of the §6 idle-interval length
/// (the gap between uses minus the occupancy), all in that length's bin.
pub fn idle_stats(busy: u64, window: u64, uses: u64, exact_max: u32, log2_max: u32) -> IdleStats {
    let mut s = IdleStats::new(exact_max, log2_max);
    s.busy_cycles = busy;
    s.idle_cycles = window - busy;
    if uses > 0 && s.idle_cycles > 0 {
        let len = (s.idle_cycles / uses).max(1);
        let periods = uses.min(s.idle_cycles);
        let bin = s.hist.bin_of(len);
        s.hist.counts[bin] += periods;
        s.hist.cycles[bin] += s.idle_cycles;
        s.periods = periods;
        s.busy_to_idle = periods;
    } else if s.idle_cycles > 0 {
        let bin = s.censored.bin_of(s.idle_cycles);
        s.censored.counts[bin] += 1;
        s.censored.cycles[bin] += s.idle_cycles;
    }
    s.hist.trim();
    s.censored.trim();
    s.residency.insert("on_busy".into(), s.busy_cycles);
    s.residency.insert("on_idle".into(), s.idle_cycles);
    s
}
