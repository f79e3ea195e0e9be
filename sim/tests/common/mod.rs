//! Helpers shared by the trace tests.

use sim::inst::WarpInst;
use sim::{KernelInfo, KernelStream, SimError, Step};
use std::collections::BTreeMap;

/// Per-warp instruction lists keyed by (CTA, warp).
pub type Streams = BTreeMap<(u32, u32), Vec<WarpInst>>;

/// A kernel stream replaying prepared per-warp instruction lists.
pub struct Replay {
    pub info: KernelInfo,
    pub warps: Streams,
    pub pos: BTreeMap<(u32, u32), usize>,
}

impl Replay {
    pub fn new(info: KernelInfo, warps: Streams) -> Replay {
        Replay {
            info,
            warps,
            pos: BTreeMap::new(),
        }
    }
}

impl KernelStream for Replay {
    fn info(&self) -> &KernelInfo {
        &self.info
    }
    fn begin_cta(&mut self, _cta: u32, _sm: u32, _slot: u32) -> Result<(), SimError> {
        Ok(())
    }
    fn next_inst(
        &mut self,
        cta: u32,
        warp: u32,
        _c: u64,
        out: &mut WarpInst,
    ) -> Result<Step, SimError> {
        let p = self.pos.entry((cta, warp)).or_insert(0);
        match self.warps.get(&(cta, warp)).and_then(|v| v.get(*p)) {
            Some(i) => {
                *out = *i;
                *p += 1;
                Ok(Step::Inst)
            }
            None => Ok(Step::Done),
        }
    }
    fn end_cta(&mut self, _cta: u32) -> Result<(), SimError> {
        Ok(())
    }
}
