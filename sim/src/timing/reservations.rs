//! One resource's reservations as sorted busy intervals, so that a request reserved later may
//! take an earlier free gap.
//!
//! The memory side reserves each request's whole path when the request is sent
//! ([`super::memsys`]). With one "free at" time per resource, a request that must wait (a DRAM
//! row activation behind a busy bank) pushes that time into the future, and every request
//! reserved after it waits behind it, even one that is ready at once on another bank: strict
//! first come, first served. A DRAM channel's FR-FCFS scheduler (simulator §2.7; GPGPU-Sim's
//! `frfcfs_scheduler`) instead serves whatever is ready: the row hits of other banks use the
//! data bus while the older request's bank activates. Keeping the busy intervals lets a
//! reservation go into the earliest gap that fits, which gives the channel that bank-level
//! parallelism; within one bank requests keep their arrival order.

/// Busy intervals `[start, end)` in one clock's cycles, sorted and disjoint, each with a flag
/// (the DRAM data bus marks writes, for the read/write turnaround).
#[derive(Clone, Debug, Default)]
pub struct Reservations {
    iv: Vec<(u64, u64, bool)>,
}

/// Intervals that ended this many cycles before a reservation's earliest start are dropped once
/// enough of them gather: requests reach a channel nearly in time order, and one that arrives
/// this much earlier than another is served as if nothing had been reserved there.
const KEEP_CYCLES: u64 = 1 << 12;

/// Dropping waits until this many intervals are behind the window (amortises the shift).
const PRUNE_BATCH: usize = 64;

/// Drops the leading items of `v` that ended `KEEP_CYCLES` before `now`, once
/// [`PRUNE_BATCH`] of them have gathered; `end` gives an item's end, and the ends must be
/// sorted (the reservations of one resource, a channel's scheduler-queue leave times).
pub(super) fn drop_past<T>(v: &mut Vec<T>, now: u64, end: impl Fn(&T) -> u64) {
    if v.get(PRUNE_BATCH - 1)
        .is_some_and(|x| end(x) + KEEP_CYCLES < now)
    {
        let old = v.partition_point(|x| end(x) + KEEP_CYCLES < now);
        v.drain(..old);
    }
}

impl Reservations {
    /// The earliest `s >= from` at which `[s, s + len)` fits: it overlaps no interval, starts
    /// at least `pad(prev, flag)` after the end of the interval before it and ends at least
    /// `pad(flag, next)` before the start of the one after it (`prev`, `next`: their flags).
    /// `max_pad` bounds every `pad`.
    pub fn earliest(
        &self,
        from: u64,
        len: u64,
        flag: bool,
        max_pad: u64,
        pad: impl Fn(bool, bool) -> u64,
    ) -> u64 {
        let first = self.iv.partition_point(|&(_, e, _)| e + max_pad <= from);
        let mut s = from;
        if first > 0 {
            let (_, e, f) = self.iv[first - 1];
            s = s.max(e + pad(f, flag));
        }
        for &(b, e, f) in &self.iv[first..] {
            if s + len + pad(flag, f) <= b {
                break;
            }
            s = s.max(e + pad(f, flag));
        }
        s
    }

    /// Reserves `[start, end)` (which must fit: see [`Reservations::earliest`]), merged with a
    /// touching interval of the same flag (a saturated resource stays one interval, which keeps
    /// the search short), dropping the intervals long past.
    pub fn reserve(&mut self, start: u64, end: u64, flag: bool) {
        let end = end.max(start + 1);
        let mut at = self.iv.partition_point(|&(b, _, _)| b < start);
        let joins_prev = at > 0 && self.iv[at - 1].1 == start && self.iv[at - 1].2 == flag;
        let joins_next = at < self.iv.len() && self.iv[at].0 == end && self.iv[at].2 == flag;
        match (joins_prev, joins_next) {
            (true, true) => {
                self.iv[at - 1].1 = self.iv[at].1;
                self.iv.remove(at);
                at -= 1;
            }
            (true, false) => {
                self.iv[at - 1].1 = end;
                at -= 1;
            }
            (false, true) => self.iv[at].0 = start,
            (false, false) => self.iv.insert(at, (start, end, flag)),
        }
        // ends are sorted too: a batch is behind the window when its last one is
        let start = self.iv[at].0;
        drop_past(&mut self.iv, start, |&(_, e, _)| e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: bool, _: bool) -> u64 {
        0
    }

    #[test]
    fn a_later_reservation_takes_an_earlier_gap() {
        let mut t = Reservations::default();
        t.reserve(100, 104, false);
        // ready at 10: fits before the reservation at 100
        assert_eq!(t.earliest(10, 4, false, 0, none), 10);
        // too long for the gap before 100
        assert_eq!(t.earliest(98, 4, false, 0, none), 104);
        t.reserve(10, 14, false);
        assert_eq!(t.earliest(12, 2, false, 0, none), 14);
        assert_eq!(t.earliest(12, 90, false, 0, none), 104);
    }

    #[test]
    fn padding_separates_different_flags() {
        let mut t = Reservations::default();
        t.reserve(100, 104, true);
        let turn = |a: bool, b: bool| if a != b { 5 } else { 0 };
        // a read right after a write waits the turnaround
        assert_eq!(t.earliest(104, 2, false, 5, turn), 109);
        // a write does not
        assert_eq!(t.earliest(104, 2, true, 5, turn), 104);
        // a read before the write must end the turnaround before it
        assert_eq!(t.earliest(94, 2, false, 5, turn), 109);
        assert_eq!(t.earliest(93, 2, false, 5, turn), 93);
    }

    #[test]
    fn touching_intervals_of_one_flag_merge() {
        let mut t = Reservations::default();
        t.reserve(10, 12, false);
        t.reserve(14, 16, false);
        t.reserve(12, 14, false);
        assert_eq!(t.iv, vec![(10, 16, false)]);
        t.reserve(16, 18, true);
        assert_eq!(t.iv.len(), 2, "a write does not merge with reads");
        assert_eq!(t.earliest(10, 2, false, 0, none), 18);
    }

    #[test]
    fn old_intervals_are_dropped_in_batches() {
        let mut t = Reservations::default();
        for i in 0..(PRUNE_BATCH as u64 + 10) {
            t.reserve(i * 10, i * 10 + 5, false);
        }
        let n = t.iv.len();
        t.reserve(KEEP_CYCLES * 4, KEEP_CYCLES * 4 + 1, false);
        assert!(t.iv.len() < n, "{} intervals kept", t.iv.len());
        assert_eq!(
            t.earliest(KEEP_CYCLES * 4, 1, false, 0, none),
            KEEP_CYCLES * 4 + 1
        );
    }
}
