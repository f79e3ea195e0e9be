//! Register-file characterisation (register-file spec §9 "Characterisation"), recorded next to
//! the per-register statistics (`stats.per_register`, [`super::opcoll::RegAccessLog`]): the
//! inter-access distances within `metrics.interaccess_cutoff`, the active lanes of every issued
//! warp instruction, and per-register access counts split by warp class for the pilot
//! representativeness metrics.
//!
//! Pilot classes: when a kernel launches, the first CTA that then launches on the SM is the
//! profiled CTA. Its pilot is picked by the partitioned register file's own rule
//! ([`crate::timing::rf::select_pilot`] with `prf.pilot_select` and `prf.pilot_seed`, keyed by
//! the SM and the kernel's launch index on it); the CTA's other warps are "same CTA", and every
//! warp of a later CTA is "other CTA". A slot takes its class at its warp's launch, so reused
//! slots are classed by the warp that holds them.

use crate::activity::RegisterStats;
use crate::config::prf::PilotSelect;
use crate::config::GpuConfig;
use crate::timing::policy::N_REGS;

const OTHER: u8 = 0;
const SAME_CTA: u8 = 1;
const PILOT: u8 = 2;

/// The characterisation state of one SM.
pub(crate) struct RegCharacter {
    cutoff: u64,
    select: PilotSelect,
    seed: u64,
    sm: u32,
    /// Kernel launches seen on this SM (the next one's index).
    kernels: u32,
    /// The next CTA to launch is the kernel's profiled CTA.
    pilot_pending: bool,
    /// Per warp slot: OTHER, SAME_CTA or PILOT.
    class: Vec<u8>,
}

impl RegCharacter {
    /// The state for SM `sm` of `cfg` with `nw` warp slots; fills the run's constants into `rs`.
    pub fn new(cfg: &GpuConfig, sm: u32, nw: usize, rs: &mut RegisterStats) -> RegCharacter {
        rs.interaccess_cutoff = cfg.metrics.interaccess_cutoff;
        rs.active_lane_insts = vec![0; crate::activity::ACTIVE_LANE_BINS.len()];
        rs.profiled_pilot_counts = vec![0; N_REGS];
        rs.pilot_cta_counts = vec![0; N_REGS];
        rs.other_cta_counts = vec![0; N_REGS];
        RegCharacter {
            cutoff: cfg.metrics.interaccess_cutoff,
            select: cfg.prf.pilot_select,
            seed: cfg.prf.pilot_seed,
            sm,
            kernels: 0,
            pilot_pending: false,
            class: vec![OTHER; nw],
        }
    }

    /// A kernel launches on the SM: its next CTA is the profiled one.
    pub fn kernel_launch(&mut self) {
        self.pilot_pending = true;
        self.kernels += 1;
    }

    /// A CTA takes warp slots `first..first + n`.
    pub fn cta_launch(&mut self, first: usize, n: usize, rs: &mut RegisterStats) {
        let slots = first..(first + n).min(self.class.len());
        if !std::mem::take(&mut self.pilot_pending) {
            self.class[slots].fill(OTHER);
            rs.other_cta_warps += n as u64;
            return;
        }
        let warps: Vec<u32> = slots.clone().map(|w| w as u32).collect();
        let pilot = crate::timing::rf::select_pilot(
            self.select,
            &warps,
            self.seed,
            self.sm,
            self.kernels.saturating_sub(1),
        );
        self.class[slots].fill(SAME_CTA);
        match pilot {
            Ok(p) => {
                self.class[p as usize] = PILOT;
                rs.profiled_pilots += 1;
                rs.pilot_cta_warps += n as u64 - 1;
            }
            // no pilot in this CTA (an index past its end): all of it counts as the pilot's CTA
            Err(_) => rs.pilot_cta_warps += n as u64,
        }
    }

    /// An access of register `r` (< N_REGS) by warp slot `w`, `delta` cycles after the slot's
    /// previous access to it (`None` for its first).
    #[inline]
    pub fn access(&self, w: usize, r: usize, delta: Option<u64>, rs: &mut RegisterStats) {
        if let Some(d) = delta.filter(|&d| d <= self.cutoff) {
            rs.inter_access_within_cutoff.add(d);
        }
        let c = match self.class.get(w).copied().unwrap_or(OTHER) {
            PILOT => &mut rs.profiled_pilot_counts,
            SAME_CTA => &mut rs.pilot_cta_counts,
            _ => &mut rs.other_cta_counts,
        };
        c[r] += 1;
    }

    /// A warp instruction with `lanes` active lanes issued.
    #[inline]
    pub fn issued(lanes: u32, rs: &mut RegisterStats) {
        if lanes == 0 {
            rs.masked_off_insts += 1;
            return;
        }
        let bin = crate::activity::ACTIVE_LANE_BINS
            .iter()
            .position(|&hi| lanes <= hi)
            .unwrap_or(crate::activity::ACTIVE_LANE_BINS.len() - 1);
        rs.active_lane_insts[bin] += 1;
        if lanes == 32 {
            rs.full_warp_insts += 1;
        }
    }
}
