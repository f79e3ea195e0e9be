//! The built-in issue stage, register-file organisation and gating policy: the in-order
//! scoreboard (pending-write and long-op bit sets, optional WAR counters), the monolithic banked
//! register file, and no gating.

use super::{
    GatingPolicy, Hazard, IssueStage, RegisterFileOrg, RfPart, RfRoute, UnitState, SB_REGS, WORDS,
};
use crate::config::{BankMap, GpuConfig};
use crate::timing::divisor::Divisor;
use crate::timing::tinst::TInst;

/// In-order scoreboard: pending-write and long-op bit sets per warp, optional WAR counters.
pub struct InOrderScoreboard {
    pending: Vec<[u64; WORDS]>,
    longop: Vec<[u64; WORDS]>,
    war: Option<Vec<[u8; SB_REGS]>>,
}

impl InOrderScoreboard {
    /// An empty scoreboard; with `war` (`sched.war_scoreboard`) it also counts pending reads
    /// and stalls on WAR hazards.
    pub fn new(war: bool) -> Self {
        InOrderScoreboard {
            pending: Vec::new(),
            longop: Vec::new(),
            war: if war { Some(Vec::new()) } else { None },
        }
    }
}

#[inline]
fn bit(set: &[u64; WORDS], r: u16) -> bool {
    let r = r as usize;
    r < SB_REGS && set[r / 64] >> (r % 64) & 1 == 1
}

impl IssueStage for InOrderScoreboard {
    fn reset(&mut self, n: usize) {
        self.pending = vec![[0; WORDS]; n];
        self.longop = vec![[0; WORDS]; n];
        if let Some(w) = &mut self.war {
            *w = vec![[0; SB_REGS]; n];
        }
    }
    fn check(&self, w: usize, inst: &TInst) -> Result<(), Hazard> {
        let p = &self.pending[w];
        if inst.srcs().iter().chain(inst.dsts()).any(|&r| bit(p, r)) {
            return Err(Hazard::Scoreboard);
        }
        if let Some(war) = &self.war {
            if inst
                .dsts()
                .iter()
                .any(|&r| (r as usize) < SB_REGS && war[w][r as usize] > 0)
            {
                return Err(Hazard::Scoreboard);
            }
        }
        Ok(())
    }
    fn reserve(&mut self, w: usize, inst: &TInst, longop: bool) {
        for &r in inst.dsts() {
            let r = r as usize;
            if r < SB_REGS {
                self.pending[w][r / 64] |= 1 << (r % 64);
                if longop {
                    self.longop[w][r / 64] |= 1 << (r % 64);
                }
            }
        }
        if let Some(war) = &mut self.war {
            for &r in inst.srcs() {
                if (r as usize) < SB_REGS {
                    war[w][r as usize] = war[w][r as usize].saturating_add(1);
                }
            }
        }
    }
    fn release(&mut self, w: usize, reg: u16) {
        let r = reg as usize;
        if r < SB_REGS {
            self.pending[w][r / 64] &= !(1 << (r % 64));
            self.longop[w][r / 64] &= !(1 << (r % 64));
        }
    }
    fn sources_read(&mut self, w: usize, inst: &TInst) {
        if let Some(war) = &mut self.war {
            for &r in inst.srcs() {
                if (r as usize) < SB_REGS {
                    war[w][r as usize] = war[w][r as usize].saturating_sub(1);
                }
            }
        }
    }
    fn reads_longop(&self, w: usize, inst: &TInst) -> bool {
        inst.srcs().iter().any(|&r| bit(&self.longop[w], r))
    }
    fn any_pending(&self, w: usize) -> bool {
        self.pending[w].iter().any(|&x| x != 0)
    }
    /// A check fails on pending-write bits or WAR counters of the warp, which only `reserve`
    /// (issue of this warp, impossible while its head is blocked, and only adding hazards),
    /// `release` and `sources_read` change.
    fn failure_sticky(&self) -> bool {
        true
    }
}

/// Monolithic banked RF: `bank = (reg + w) mod B` (`reg_plus_warp`) or `reg mod B`; in sub-core
/// mode `bank = sched·B/n_sched + (reg + w) mod (B/n_sched)` with n_sched = sub-cores.
pub struct MonolithicRf {
    n_banks: u32,
    map: BankMap,
    n_subcores: u32,
    scheds_per_subcore: u32,
    /// Banks per sub-core (all banks with one sub-core), as a divisor for the modulo.
    per: Divisor,
    /// `rf.latency`: cycles of every access.
    latency: u32,
}

impl MonolithicRf {
    /// The bank mapping of `rf.n_banks` banks, `rf.bank_map` and `sm.n_subcores` of `cfg`.
    pub fn new(cfg: &GpuConfig) -> Self {
        let n_banks = cfg.rf.n_banks;
        let n_subcores = cfg.sm.n_subcores.max(1);
        let per = if n_subcores > 1 {
            n_banks / n_subcores
        } else {
            n_banks
        };
        MonolithicRf {
            n_banks,
            map: cfg.rf.bank_map,
            n_subcores,
            scheds_per_subcore: cfg.scheds_per_subcore().max(1),
            per: Divisor::new(per as u64),
            latency: cfg.rf.latency.max(1),
        }
    }

    /// Banks in all.
    pub fn n_banks(&self) -> u32 {
        self.n_banks
    }
}

impl RegisterFileOrg for MonolithicRf {
    #[inline]
    fn bank(&self, w: u32, sched: u32, reg: u16) -> u32 {
        let shift = match self.map {
            BankMap::RegPlusWarp => w,
            BankMap::RegOnly => 0,
        };
        let within = self.per.rem((reg as u32 + shift) as u64) as u32;
        if self.n_subcores > 1 {
            let sc = sched / self.scheds_per_subcore;
            sc * self.per.get() as u32 + within
        } else {
            within
        }
    }

    #[inline]
    fn route(&mut self, _w: u32, _reg: u16, _write: bool, _t: u64) -> RfRoute {
        RfRoute {
            part: RfPart::Mrf,
            latency_cycles: self.latency,
        }
    }
}

/// No gating: every pipe is always ready.
pub struct NoGating;

impl GatingPolicy for NoGating {
    fn available(&self, _pipe: usize, _cycle: u64) -> UnitState {
        UnitState::Ready
    }
    fn time_invariant(&self) -> bool {
        true
    }
    fn always_ready(&self) -> bool {
        true
    }
}
