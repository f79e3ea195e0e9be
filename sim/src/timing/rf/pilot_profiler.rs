//! Pilot-warp profiling (register-file spec §5.4, §5.5 steps 1–3): 63 access counters of 16
//! bits indexed by architectural register, the pilot-warp choice, and the hot set read out of
//! the counters when the pilot exits.
//!
//! Every register access by the pilot, read or write, increments `counter[r]`. With
//! `count_dup_sources` a source named twice by one instruction counts twice (one increment per
//! operand access request). At 0xFFFF a counter either saturates or halves every counter before
//! the increment (`counter_overflow`). Register ids ≥ 63 (e.g. the zero register of SASS) have
//! no counter and are not counted.

use crate::config::prf::{CounterOverflow, PilotSelect, MAX_REGS_PER_THREAD};

use crate::activity::rfevents::RfEvents;

/// Number of access counters (one per 6-bit register id R0…R62).
pub const N_COUNTERS: usize = MAX_REGS_PER_THREAD as usize;

/// Largest counter value (16-bit counters).
pub const COUNTER_MAX: u16 = u16::MAX;

/// The pilot's access counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PilotProfiler {
    counters: [u16; N_COUNTERS],
    overflow: CounterOverflow,
    count_dup_sources: bool,
}

impl PilotProfiler {
    /// Cleared counters (kernel launch, spec §5.5 step 1).
    pub fn new(overflow: CounterOverflow, count_dup_sources: bool) -> Self {
        PilotProfiler {
            counters: [0; N_COUNTERS],
            overflow,
            count_dup_sources,
        }
    }

    /// Clears every counter.
    pub fn clear(&mut self) {
        self.counters = [0; N_COUNTERS];
    }

    /// The counters, indexed by register id.
    pub fn counters(&self) -> &[u16; N_COUNTERS] {
        &self.counters
    }

    /// Counter of register `reg` (0 for ids without a counter).
    pub fn count(&self, reg: u16) -> u16 {
        self.counters.get(reg as usize).copied().unwrap_or(0)
    }

    /// One access of register `reg` by the pilot.
    pub fn record_access(&mut self, reg: u16, ev: &mut RfEvents) {
        let r = reg as usize;
        if r >= N_COUNTERS {
            return;
        }
        ev.pilot_counter_increments += 1;
        if self.counters[r] == COUNTER_MAX {
            match self.overflow {
                CounterOverflow::Saturate => return,
                CounterOverflow::HalveAll => {
                    for c in &mut self.counters {
                        *c >>= 1;
                    }
                    ev.counter_halvings += 1;
                }
            }
        }
        self.counters[r] += 1;
    }

    /// The register accesses of one pilot instruction: its source operands `srcs` (in operand
    /// order, duplicates as written) and destinations `dsts`. Without `count_dup_sources` a
    /// source id counts once per instruction; destinations always count once each.
    pub fn record_instruction(&mut self, srcs: &[u16], dsts: &[u16], ev: &mut RfEvents) {
        for (i, &r) in srcs.iter().enumerate() {
            if self.count_dup_sources || !srcs[..i].contains(&r) {
                self.record_access(r, ev);
            }
        }
        for (i, &r) in dsts.iter().enumerate() {
            if !dsts[..i].contains(&r) {
                self.record_access(r, ev);
            }
        }
    }

    /// The hot set: the registers of the top `n` counts in descending order, ties broken by the
    /// lower register id; registers with a zero count are never included (spec §5.5 step 3).
    pub fn hot_set(&self, n: u32) -> Vec<u8> {
        hot_set(&self.counters, n)
    }
}

/// The top `n` registers of `counts` (index = register id) in descending count order, ties by
/// the lower id, zero counts left out.
pub fn hot_set(counts: &[u16], n: u32) -> Vec<u8> {
    let mut order: Vec<u8> = (0..counts.len().min(N_COUNTERS) as u8)
        .filter(|&r| counts[r as usize] > 0)
        .collect();
    order.sort_by(|&a, &b| counts[b as usize].cmp(&counts[a as usize]).then(a.cmp(&b)));
    order.truncate(n as usize);
    order
}

/// SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): one well-mixed 64-bit value from a key.
pub fn splitmix64(key: u64) -> u64 {
    let mut z = key.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The pilot warp among `first_cta_warps` (the warp slots of the kernel's first CTA on the SM,
/// in the CTA's warp order). `random_in_first_cta` draws from `seed`, `sm` and `kernel` only,
/// so a run is deterministic. Errors when the CTA has no warp or `index:k` is past its end.
pub fn select_pilot(
    select: PilotSelect,
    first_cta_warps: &[u32],
    seed: u64,
    sm: u32,
    kernel: u32,
) -> Result<u32, String> {
    if first_cta_warps.is_empty() {
        return Err("the kernel's first CTA has no warps to profile".into());
    }
    let k = match select {
        PilotSelect::FirstWarpFirstCta => 0,
        PilotSelect::RandomInFirstCta => {
            let key = splitmix64(seed ^ splitmix64(((sm as u64) << 32) | kernel as u64));
            (key % first_cta_warps.len() as u64) as usize
        }
        PilotSelect::Index(k) => k as usize,
    };
    first_cta_warps.get(k).copied().ok_or_else(|| {
        format!(
            "'prf.pilot_select' = \"{select}\": the CTA has {} warps (allowed: index:0 to \
             index:{})",
            first_cta_warps.len(),
            first_cta_warps.len() - 1
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturate_and_halve() {
        let mut ev = RfEvents::default();
        let mut p = PilotProfiler::new(CounterOverflow::Saturate, true);
        p.counters[5] = COUNTER_MAX;
        p.record_access(5, &mut ev);
        assert_eq!(p.count(5), COUNTER_MAX);
        assert_eq!(ev.pilot_counter_increments, 1);
        let mut h = PilotProfiler::new(CounterOverflow::HalveAll, true);
        h.counters[5] = COUNTER_MAX;
        h.counters[6] = 9;
        h.record_access(5, &mut ev);
        assert_eq!(h.count(5), COUNTER_MAX / 2 + 1);
        assert_eq!(h.count(6), 4);
        assert_eq!(ev.counter_halvings, 1);
    }

    #[test]
    fn random_pilot_is_deterministic_and_in_range() {
        let warps = [8, 9, 10, 11];
        let a = select_pilot(PilotSelect::RandomInFirstCta, &warps, 7, 3, 1).unwrap();
        let b = select_pilot(PilotSelect::RandomInFirstCta, &warps, 7, 3, 1).unwrap();
        assert_eq!(a, b);
        assert!(warps.contains(&a));
        assert_eq!(
            select_pilot(PilotSelect::FirstWarpFirstCta, &warps, 7, 3, 1),
            Ok(8)
        );
        assert_eq!(select_pilot(PilotSelect::Index(2), &warps, 7, 3, 1), Ok(10));
        assert!(select_pilot(PilotSelect::Index(4), &warps, 7, 3, 1)
            .unwrap_err()
            .contains("index:3"));
        // Different SMs draw independently: over 64 SMs more than one warp is picked.
        let picks: std::collections::BTreeSet<u32> = (0..64)
            .map(|sm| select_pilot(PilotSelect::RandomInFirstCta, &warps, 7, sm, 1).unwrap())
            .collect();
        assert!(picks.len() > 1);
    }
}
