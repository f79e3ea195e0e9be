//! The adaptive-FRF phase detector (register-file spec §6): an SM-wide counter of warp
//! instructions dispatched (or issued, `afrf.count_point`) per epoch decides the FRF mode of the
//! next epoch.
//!
//! Epochs are `afrf.epoch` cycles long and aligned to the kernel's start; the first epoch runs
//! FRF_high. At the end of an epoch, count < threshold → the next epoch runs FRF_low, otherwise
//! FRF_high; the counter then resets. The counter is ⌈log2(epoch · issue_width + 1)⌉ bits wide
//! and saturates (it cannot exceed epoch · issue_width when fed by the SM, so saturation only
//! guards misuse). With `afrf.switch_latency` L > 0 a new mode is in force L cycles after the
//! epoch boundary; accesses granted in between use the old mode. An access uses the mode in
//! force in its grant cycle. So threshold 0 keeps FRF_high for ever, and a threshold above
//! epoch · issue_width gives FRF_low from the second epoch on.

use crate::config::prf::{AfrfSection, CountPoint};

use crate::activity::rfevents::RfEvents;

/// FRF mode: back gate at Vdd or at GND.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrfMode {
    /// FRF_high: full drive, `prf.lat_frf_high` access.
    High,
    /// FRF_low: reduced capacitance and drive, `prf.lat_frf_low` access.
    Low,
}

/// The per-SM phase detector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AfrfPhaseDetector {
    epoch_cycles: u64,
    threshold: u64,
    counter_bits: u32,
    switch_latency: u64,
    count_point: CountPoint,
    /// First cycle of the current epoch.
    epoch_start: u64,
    count: u64,
    /// Mode decided for the current epoch.
    mode: FrfMode,
    /// Mode in force before the current epoch's switch completes.
    prev_mode: FrfMode,
    started: bool,
    /// Cycles of the closed epochs (and the finished last one) decided FRF_low.
    low_cycles: u64,
}

impl AfrfPhaseDetector {
    /// A detector for `cfg` on an SM issuing `issue_width` warp instructions per cycle.
    pub fn new(cfg: &AfrfSection, issue_width: u32) -> Self {
        AfrfPhaseDetector {
            epoch_cycles: cfg.epoch.max(1) as u64,
            threshold: cfg.threshold_insts(issue_width),
            counter_bits: cfg.counter_width_bits(issue_width),
            switch_latency: cfg.switch_latency as u64,
            count_point: cfg.count_point,
            epoch_start: 0,
            count: 0,
            mode: FrfMode::High,
            prev_mode: FrfMode::High,
            started: false,
            low_cycles: 0,
        }
    }

    /// Cycles the FRF spent in FRF_low so far: the length of every closed epoch that ran
    /// FRF_low, and of the last, partial epoch when [`AfrfPhaseDetector::finish`] closed it in
    /// FRF_low (counted by the epoch's mode; the `afrf.switch_latency` cycles at its start,
    /// which still run the previous mode, are not told apart).
    pub fn low_cycles(&self) -> u64 {
        self.low_cycles
    }

    /// The threshold in force, instructions per epoch.
    pub fn threshold(&self) -> u64 {
        self.threshold
    }

    /// Counter width, bits.
    pub fn counter_bits(&self) -> u32 {
        self.counter_bits
    }

    /// Which event the detector counts.
    pub fn count_point(&self) -> CountPoint {
        self.count_point
    }

    /// Largest value the counter holds.
    pub fn counter_max(&self) -> u64 {
        (1u64 << self.counter_bits) - 1
    }

    /// A kernel starts at cycle `t0`: epochs restart there, in FRF_high, with a cleared count.
    pub fn start_kernel(&mut self, t0: u64) {
        self.epoch_start = t0;
        self.count = 0;
        self.mode = FrfMode::High;
        self.prev_mode = FrfMode::High;
        self.started = true;
    }

    fn decide(&self, count: u64) -> FrfMode {
        if count < self.threshold {
            FrfMode::Low
        } else {
            FrfMode::High
        }
    }

    /// Closes `n` ≥ 1 epochs: the current one with `count` events, the rest (idle cycles that
    /// saw no call) with 0. Epoch 1 ran in the current mode, epoch 2 in `decide(count)`,
    /// epochs 3…n in `decide(0)`.
    fn close_epochs(&mut self, count: u64, n: u64, ev: &mut RfEvents) {
        let low_before = ev.epochs_low;
        let next = self.decide(count);
        let idle = self.decide(0);
        let is_low = |m: FrfMode| (m == FrfMode::Low) as u64;
        ev.epochs += n;
        ev.epochs_low += is_low(self.mode);
        ev.mode_switches += (next != self.mode) as u64;
        let (last_ran, now) = if n == 1 {
            (self.mode, next)
        } else {
            ev.epochs_low += is_low(next) + (n - 2) * is_low(idle);
            ev.mode_switches += (idle != next) as u64;
            (if n == 2 { next } else { idle }, idle)
        };
        self.prev_mode = last_ran;
        self.mode = now;
        self.epoch_start += n * self.epoch_cycles;
        self.count = 0;
        self.low_cycles += (ev.epochs_low - low_before) * self.epoch_cycles;
    }

    /// Closes every epoch that ended at or before cycle `t`.
    fn advance_to(&mut self, t: u64, ev: &mut RfEvents) {
        if !self.started {
            // No kernel running: epochs start with the first event, in FRF_high.
            self.start_kernel(t);
        }
        if t < self.epoch_start + self.epoch_cycles {
            return;
        }
        let n = (t - self.epoch_start) / self.epoch_cycles;
        let count = self.count;
        self.close_epochs(count, n, ev);
    }

    /// `n` counted events (dispatches or issues, per `count_point`) at cycle `t` (cycles
    /// non-decreasing).
    pub fn count(&mut self, t: u64, n: u64, ev: &mut RfEvents) {
        self.advance_to(t, ev);
        self.count = (self.count + n).min(self.counter_max());
    }

    /// The mode in force at cycle `t` (cycles non-decreasing).
    pub fn mode_at(&mut self, t: u64, ev: &mut RfEvents) -> FrfMode {
        self.advance_to(t, ev);
        if t < self.epoch_start + self.switch_latency {
            self.prev_mode
        } else {
            self.mode
        }
    }

    /// End of the kernel at cycle `t_end`: closes the epochs up to it and counts a started,
    /// unfinished last epoch as one more epoch (in its mode), without deciding a next mode.
    pub fn finish(&mut self, t_end: u64, ev: &mut RfEvents) {
        self.advance_to(t_end, ev);
        if t_end > self.epoch_start {
            ev.epochs += 1;
            if self.mode == FrfMode::Low {
                ev.epochs_low += 1;
                self.low_cycles += t_end - self.epoch_start;
            }
        }
        self.started = false;
    }
}
