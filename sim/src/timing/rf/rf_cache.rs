//! The register-file cache baseline (register-file spec §7.4, after Gebhart et al., "Energy-
//! efficient mechanisms for managing thread context in throughput processors", ISCA 2011).
//!
//! Per SM the RFC holds `entries_per_warp` entries for each warp of the active set. Every
//! result of an active warp is written into the RFC (write-allocate; a write to a register
//! already cached updates that entry). A read is a tag check: a hit is served by the RFC, a
//! miss by the MRF and, with `alloc_on_read_miss = false` (default), allocates nothing. When a
//! warp's entries are full the victim is its oldest allocation (`"fifo"`) or its least recently
//! read or written entry (`"lru"`); a FIFO entry keeps its place when rewritten. An evicted
//! dirty value is written back to the MRF. A warp leaving the active set flushes its entries
//! the same way. Results of a warp outside the active set (long-latency loads) bypass the RFC
//! and go to the MRF.
//!
//! **Oracle liveness** (`liveness = "oracle"`): a value is *dead* when its warp never reads the
//! register again before writing it next (or exiting). That is a fact about the warp's future
//! instruction stream, which the execution-driven timing model does not hold ahead of time; but
//! it is decided exactly by the warp's next access to the register, because a warp's accesses
//! to one register happen in program order (the scoreboard orders a read after the write it
//! depends on, and a write after the reads issued before it). So an evicted or flushed dirty
//! value under the oracle is parked in a per-warp set of undecided values instead of being
//! written back: the warp's next read of that register proves it live, and the write-back is
//! made then (returned from [`RfCache::read`] as the miss's `writeback`, and counted as an
//! eviction or flush write-back as it began); the warp's next write of it, or the warp's exit,
//! proves it dead and it is dropped (counted in `rfc_dead_drops`). The energy and the MRF
//! traffic are exactly the oracle's; only the cycle of a live value's write-back moves, from
//! the eviction to the next read of the register.
//!
//! Ports: per cycle at most `read_ports` reads and `write_ports` writes over the whole RFC, and
//! a bank (warp slot w uses bank `w mod banks`) grants at most its share, ⌈ports / banks⌉.
//! [`RfCache::try_port`] takes one; [`RfCache::free_ports`] tells how many are left.

use crate::config::prf::{RfcLiveness, RfcReplacement, RfcSection};

use crate::activity::rfevents::RfEvents;

/// One RFC entry of a warp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    reg: u16,
    dirty: bool,
    /// Allocation order (FIFO) or last use (LRU): a per-cache monotonic stamp.
    stamp: u64,
}

/// Outcome of a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RfcRead {
    /// Served by the RFC.
    Hit,
    /// Served by the MRF; `writeback` is a register to write back to the MRF now: one evicted
    /// by a read-miss fill, or (oracle liveness) this very register, evicted earlier and
    /// proved live by this read.
    Miss {
        /// Register written back to the MRF, if any.
        writeback: Option<u16>,
    },
}

/// Outcome of a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RfcWrite {
    /// Written into the RFC; `writeback` is an evicted register to write back to the MRF.
    Cached {
        /// Register written back to the MRF by the eviction, if any.
        writeback: Option<u16>,
    },
    /// The warp is not in the active set: the value goes to the MRF.
    Bypass,
}

/// Port use of one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct PortUse {
    cycle: u64,
    reads: u32,
    writes: u32,
    bank_reads: Vec<u32>,
    bank_writes: Vec<u32>,
}

/// The register-file cache of one SM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RfCache {
    entries_per_warp: usize,
    replacement: RfcReplacement,
    alloc_on_read_miss: bool,
    liveness: RfcLiveness,
    read_ports: u32,
    write_ports: u32,
    banks: u32,
    warps: Vec<Vec<Entry>>,
    /// Per warp (oracle liveness): evicted or flushed dirty values whose liveness the warp's
    /// next access decides, with `true` for a flushed one.
    undecided: Vec<Vec<(u16, bool)>>,
    active: Vec<bool>,
    stamp: u64,
    ports: PortUse,
}

impl RfCache {
    /// An empty RFC for `max_warps` warp slots, none active.
    pub fn new(cfg: &RfcSection, max_warps: u32) -> Self {
        let banks = cfg.banks.max(1);
        RfCache {
            entries_per_warp: cfg.entries_per_warp.max(1) as usize,
            replacement: cfg.replacement,
            alloc_on_read_miss: cfg.alloc_on_read_miss,
            liveness: cfg.liveness,
            read_ports: cfg.read_ports.max(1),
            write_ports: cfg.write_ports.max(1),
            banks,
            warps: vec![Vec::new(); max_warps as usize],
            undecided: vec![Vec::new(); max_warps as usize],
            active: vec![false; max_warps as usize],
            stamp: 0,
            ports: PortUse {
                cycle: u64::MAX,
                bank_reads: vec![0; banks as usize],
                bank_writes: vec![0; banks as usize],
                ..PortUse::default()
            },
        }
    }

    fn grow(&mut self, w: u32) {
        if self.warps.len() <= w as usize {
            self.warps.resize(w as usize + 1, Vec::new());
            self.undecided.resize(w as usize + 1, Vec::new());
            self.active.resize(w as usize + 1, false);
        }
    }

    fn next_stamp(&mut self) -> u64 {
        self.stamp += 1;
        self.stamp
    }

    /// True when warp slot `w` is in the active set.
    pub fn is_active(&self, w: u32) -> bool {
        self.active.get(w as usize).copied().unwrap_or(false)
    }

    /// The registers warp `w` has cached, oldest stamp first.
    pub fn cached(&self, w: u32) -> Vec<u16> {
        let mut e = self.warps.get(w as usize).cloned().unwrap_or_default();
        e.sort_by_key(|e| e.stamp);
        e.iter().map(|e| e.reg).collect()
    }

    /// Warp `w` enters the active set (its RFC entries start empty).
    pub fn enter_active(&mut self, w: u32) {
        self.grow(w);
        self.active[w as usize] = true;
    }

    /// Warp `w` leaves the active set: every entry is flushed; returns the registers written
    /// back to the MRF now (the dirty ones, in stamp order; none under oracle liveness, where
    /// they wait for their warp's next access to decide).
    pub fn leave_active(&mut self, w: u32, ev: &mut RfEvents) -> Vec<u16> {
        self.grow(w);
        self.active[w as usize] = false;
        let mut entries = std::mem::take(&mut self.warps[w as usize]);
        entries.sort_by_key(|e| e.stamp);
        let mut out = Vec::new();
        for e in entries {
            if self.leaves(w, &e, true, ev) {
                out.push(e.reg);
            }
        }
        out
    }

    /// Warp `w` exited: its entries are dropped without write-backs (its registers are dead),
    /// its undecided values are dead, and it leaves the active set.
    pub fn drop_warp(&mut self, w: u32, ev: &mut RfEvents) {
        self.grow(w);
        self.active[w as usize] = false;
        self.warps[w as usize].clear();
        let n = std::mem::take(&mut self.undecided[w as usize]).len();
        ev.rfc_dead_drops += n as u64;
    }

    /// Entry `e` of warp `w` leaves the RFC (evicted, or `flush`ed): true when it is written
    /// back now (dirty, liveness `"none"`; counted); under oracle liveness a dirty value is
    /// parked undecided instead.
    fn leaves(&mut self, w: u32, e: &Entry, flush: bool, ev: &mut RfEvents) -> bool {
        if !e.dirty {
            return false;
        }
        if self.liveness == RfcLiveness::Oracle {
            let u = &mut self.undecided[w as usize];
            debug_assert!(u.iter().all(|x| x.0 != e.reg));
            u.push((e.reg, flush));
            return false;
        }
        if flush {
            ev.rfc_flush_writebacks += 1;
        } else {
            ev.rfc_eviction_writebacks += 1;
        }
        true
    }

    /// Removes `reg` from warp `w`'s undecided values; `Some(flushed)` when it was there.
    fn decide(&mut self, w: u32, reg: u16) -> Option<bool> {
        let u = &mut self.undecided[w as usize];
        let i = u.iter().position(|x| x.0 == reg)?;
        Some(u.swap_remove(i).1)
    }

    /// Undecided values of warp `w` (oracle liveness), in no particular order.
    pub fn undecided(&self, w: u32) -> Vec<u16> {
        self.undecided
            .get(w as usize)
            .map(|u| u.iter().map(|x| x.0).collect())
            .unwrap_or_default()
    }

    /// True when a read of `reg` by warp `w` would hit (no state change).
    pub fn probe(&self, w: u32, reg: u16) -> bool {
        self.warps
            .get(w as usize)
            .is_some_and(|s| s.iter().any(|e| e.reg == reg))
    }

    /// Inserts `reg` for warp `w`, evicting a victim when full; returns the register written
    /// back by the eviction, if any.
    fn insert(&mut self, w: u32, reg: u16, dirty: bool, ev: &mut RfEvents) -> Option<u16> {
        let stamp = self.next_stamp();
        let set = &mut self.warps[w as usize];
        let mut victim = None;
        if set.len() >= self.entries_per_warp {
            let i = set
                .iter()
                .enumerate()
                .min_by_key(|(_, e)| e.stamp)
                .map(|(i, _)| i)
                .expect("a full set has entries");
            victim = Some(set.remove(i));
        }
        set.push(Entry { reg, dirty, stamp });
        ev.rfc_writes += 1;
        let v = victim?;
        self.leaves(w, &v, false, ev).then_some(v.reg)
    }

    /// An operand read of `reg` by warp `w` (one tag check).
    pub fn read(&mut self, w: u32, reg: u16, ev: &mut RfEvents) -> RfcRead {
        self.grow(w);
        ev.rfc_read_tag_checks += 1;
        let lru = self.replacement == RfcReplacement::Lru;
        let stamp = self.stamp + 1;
        if let Some(e) = self.warps[w as usize].iter_mut().find(|e| e.reg == reg) {
            ev.rfc_read_hits += 1;
            if lru {
                e.stamp = stamp;
                self.stamp = stamp;
            }
            return RfcRead::Hit;
        }
        ev.rfc_read_misses += 1;
        if let Some(flushed) = self.decide(w, reg) {
            // oracle: the parked value is read, so it was live; its write-back is made now
            if flushed {
                ev.rfc_flush_writebacks += 1;
            } else {
                ev.rfc_eviction_writebacks += 1;
            }
            if self.alloc_on_read_miss && self.is_active(w) {
                // the fill holds the register clean; its own eviction needs no second write
                let _ = self.insert(w, reg, false, ev);
            }
            return RfcRead::Miss {
                writeback: Some(reg),
            };
        }
        let writeback = if self.alloc_on_read_miss && self.is_active(w) {
            self.insert(w, reg, false, ev)
        } else {
            None
        };
        RfcRead::Miss { writeback }
    }

    /// A result write of `reg` by warp `w` (one tag check when the warp is active).
    pub fn write(&mut self, w: u32, reg: u16, ev: &mut RfEvents) -> RfcWrite {
        self.grow(w);
        if self.decide(w, reg).is_some() {
            // oracle: the parked value is overwritten before any read, so it was dead
            ev.rfc_dead_drops += 1;
        }
        if !self.is_active(w) {
            return RfcWrite::Bypass;
        }
        ev.rfc_write_tag_checks += 1;
        let lru = self.replacement == RfcReplacement::Lru;
        let stamp = self.stamp + 1;
        if let Some(e) = self.warps[w as usize].iter_mut().find(|e| e.reg == reg) {
            e.dirty = true;
            if lru {
                e.stamp = stamp;
                self.stamp = stamp;
            }
            ev.rfc_writes += 1;
            return RfcWrite::Cached { writeback: None };
        }
        RfcWrite::Cached {
            writeback: self.insert(w, reg, true, ev),
        }
    }

    /// Write ports one RFC bank offers per cycle: min(`write_ports`, ⌈`write_ports` / `banks`⌉).
    pub fn write_capacity(&self) -> u32 {
        self.write_ports.min(self.write_ports.div_ceil(self.banks))
    }

    /// Read (`write = false`) or write ports still free for warp `w` in cycle `t`: the lesser
    /// of the RFC's and of the warp's bank's (no state change).
    pub fn free_ports(&self, w: u32, write: bool, t: u64) -> u32 {
        let p = &self.ports;
        let b = (w % self.banks) as usize;
        let (used, bank_used) = match (write, p.cycle == t) {
            (_, false) => (0, 0),
            (false, true) => (p.reads, p.bank_reads[b]),
            (true, true) => (p.writes, p.bank_writes[b]),
        };
        let (all, per) = if write {
            (self.write_ports, self.write_ports.div_ceil(self.banks))
        } else {
            (self.read_ports, self.read_ports.div_ceil(self.banks))
        };
        all.saturating_sub(used).min(per.saturating_sub(bank_used))
    }

    /// Asks for a read (`write = false`) or write port for warp `w` in cycle `t` (cycles
    /// non-decreasing); true when granted, false (a counted port conflict) when the RFC or the
    /// warp's bank has no free port left this cycle.
    pub fn try_port(&mut self, w: u32, write: bool, t: u64, ev: &mut RfEvents) -> bool {
        let p = &mut self.ports;
        if p.cycle != t {
            p.cycle = t;
            p.reads = 0;
            p.writes = 0;
            p.bank_reads.iter_mut().for_each(|x| *x = 0);
            p.bank_writes.iter_mut().for_each(|x| *x = 0);
        }
        let b = (w % self.banks) as usize;
        let (total, per_bank, used, bank_used) = if write {
            (
                self.write_ports,
                self.write_ports.div_ceil(self.banks),
                &mut p.writes,
                &mut p.bank_writes[b],
            )
        } else {
            (
                self.read_ports,
                self.read_ports.div_ceil(self.banks),
                &mut p.reads,
                &mut p.bank_reads[b],
            )
        };
        if *used >= total || *bank_used >= per_bank {
            ev.rfc_port_conflicts += 1;
            if write {
                ev.rfc_write_port_conflicts += 1;
            }
            return false;
        }
        *used += 1;
        *bank_used += 1;
        true
    }
}
