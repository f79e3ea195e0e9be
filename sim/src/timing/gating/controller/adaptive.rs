//! Adaptive idle detect (power-gating §5): the end of an epoch moves each register set's idle
//! detect `D` by the epoch's critical wakeups (per type or per domain, `pg.adaptive.scope`).

use super::PgBank;
use crate::config::pg::{AdaptiveScope, DecrementMode};

impl PgBank {
    /// §5 epoch end for one register set: `d` (the D register), `cw` (critical wakeups of
    /// the epoch, cleared), `quiet` (quiet-epoch count) and `violated` (an epoch of the current
    /// aligned window exceeded the threshold), at the end of epoch number `epoch_index`.
    pub fn epoch_update(
        a: &crate::config::pg::AdaptiveSection,
        epoch_index: u64,
        d: &mut u32,
        cw: &mut u64,
        quiet: &mut u32,
        violated: &mut bool,
    ) {
        let over = *cw > a.critical_threshold as u64;
        let (lo, hi) = if a.bounded {
            (a.d_min, a.d_max)
        } else {
            (0, u32::MAX)
        };
        match a.decrement_mode {
            DecrementMode::ConsecutiveQuiet | DecrementMode::CumulativeQuiet => {
                if over {
                    *d = (*d + 1).min(hi);
                    if a.decrement_mode == DecrementMode::ConsecutiveQuiet {
                        *quiet = 0;
                    }
                } else {
                    *quiet += 1;
                    if *quiet >= a.decrement_epochs {
                        *d = d.saturating_sub(1).max(lo);
                        *quiet = 0;
                    }
                }
            }
            DecrementMode::AlignedWindow => {
                if over {
                    *d = (*d + 1).min(hi);
                    *violated = true;
                }
                if (epoch_index + 1).is_multiple_of(a.decrement_epochs as u64) {
                    if !*violated {
                        *d = d.saturating_sub(1).max(lo);
                    }
                    *violated = false;
                }
            }
        }
        *cw = 0;
    }

    /// Ends adaptive epoch number `self.epoch_index`.
    pub(super) fn roll_epoch(&mut self) {
        let a = self.cfg.adaptive.clone();
        let k = self.epoch_index;
        match a.scope {
            AdaptiveScope::PerType => {
                let mut cws = [0u64; 3];
                for (t, td) in self.per_type.iter_mut().enumerate() {
                    cws[t] = td.cw;
                    Self::epoch_update(
                        &a,
                        k,
                        &mut td.d,
                        &mut td.cw,
                        &mut td.quiet,
                        &mut td.violated_window,
                    );
                }
                for dm in &mut self.domains {
                    dm.stats.epoch_critical.push(dm.cw);
                    dm.cw = 0;
                    dm.stats.epoch_d.push(self.per_type[dm.ty as usize].d);
                }
            }
            AdaptiveScope::PerDomain => {
                for dm in &mut self.domains {
                    dm.stats.epoch_critical.push(dm.cw);
                    Self::epoch_update(
                        &a,
                        k,
                        &mut dm.d,
                        &mut dm.cw,
                        &mut dm.quiet,
                        &mut dm.violated_window,
                    );
                    dm.stats.epoch_d.push(dm.d);
                }
            }
        }
        self.epoch_index += 1;
    }
}
