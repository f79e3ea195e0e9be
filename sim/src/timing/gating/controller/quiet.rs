//! Quiet cycles: what lets an SM sleep through cycles in which it gives the controller bank
//! no input — whether the last cycle touched anything, a lower bound on the next cycle whose
//! start-of-cycle status can change, and the catch-up that runs the skipped cycles exactly.

use super::{PgBank, PgPolicy, PgState};

impl PgBank {
    /// The last cycle ended by [`PgBank::end_cycle`] had no input from the SM: no decision,
    /// ready note or dispatch reached the bank. Until the SM's own state changes its later
    /// cycles have none either, so the SM may sleep while [`PgBank::quiet_cycles`] runs the
    /// controllers through those cycles.
    pub fn last_cycle_untouched(&self) -> bool {
        self.last_untouched
    }

    /// Called after [`PgBank::end_cycle`]`(t)`: a lower bound on the first cycle after `t + 1`
    /// at whose start some domain's gated or blackout status (what
    /// [`PgBank::all_in_blackout`] reads) may differ from its status at the start of `t + 1`,
    /// if the SM gives the bank no input from `t + 1` on (`u64::MAX`: never). A pending wake
    /// is taken at the next cycle's end; a gated domain leaves blackout when `g` reaches BET
    /// and stays gated; a waking domain comes ON after W cycles; an ON domain gates no earlier
    /// than D idle cycles after its busy run (at once under the coordinated rule while a
    /// domain of its type is gated); an adaptive epoch may move D.
    pub fn view_steady_until(&self, t: u64) -> u64 {
        let cfg = &self.cfg;
        let bet = cfg.bet as u64;
        let mut ev = if cfg.adaptive.enabled {
            let e = cfg.adaptive.epoch.max(1);
            ((t + 1) / e + 1) * e + 1
        } else {
            u64::MAX
        };
        let mut gated_of = [false; 3];
        for d in &self.domains {
            if matches!(d.state, PgState::Uncompensated | PgState::Compensated) {
                gated_of[d.ty as usize] = true;
            }
        }
        for (u, d) in self.domains.iter().enumerate() {
            let ty = d.ty as usize;
            let e = match d.state {
                PgState::Uncompensated | PgState::Compensated => {
                    if d.wake_pending {
                        t + 2
                    } else if d.g < bet {
                        t + 1 + (bet - d.g)
                    } else {
                        u64::MAX
                    }
                }
                PgState::Wakeup => t + 1 + (cfg.wakeup.saturating_sub(d.wk) as u64).max(1),
                PgState::IdleDetect => {
                    if d.pend_start != u64::MAX
                        || (self.policy[ty] == PgPolicy::CoordinatedBlackout && gated_of[ty])
                    {
                        t + 2
                    } else {
                        let busy = d.busy_until > t + 1;
                        let first_idle = d.busy_until.max(t + 1);
                        let cnt = if busy { 0 } else { d.idle_cnt };
                        first_idle + self.d_of(u).saturating_sub(cnt) + 1
                    }
                }
            };
            ev = ev.min(e);
        }
        ev.max(t + 2)
    }

    /// Ends cycles `from…to−1` in which the SM gave the bank no input (the SM slept through
    /// them, its state frozen, `actv` its `ACTV[INT], ACTV[FP]`): exactly the
    /// [`PgBank::end_cycle`] calls a stepped SM would have made, each cycle counted.
    pub fn quiet_cycles(&mut self, from: u64, to: u64, actv: [u32; 2]) {
        for t in from..to {
            self.end_cycle(t, actv);
        }
    }
}
