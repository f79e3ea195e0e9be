//! The register-file cache baseline (register-file spec §7.4, after Gebhart et al., "Energy-
//! efficient mechanisms for managing thread context in throughput processors", ISCA 2011).
//!
//! Per SM the RFC holds `entries_per_warp` entries for each warp of the active set. Every
//! result of an active warp is written into the RFC (write-allocate; a write to a register
//! already cached updates that entry). A read is a tag check: a hit is served by the RFC, a
//! miss by the MRF and, with `alloc_on_read_miss = false` (default), allocates nothing. When a
//! warp's entries are full the victim is its oldest allocation (`"fifo"`) or its least recently
//! read or written entry (`"lru"`); a FIFO entry keeps its place when rewritten. An evicted
//! dirty value is written back to the MRF, unless `liveness = "oracle"` and the value was
//! marked dead. A warp leaving the active set flushes its entries the same way. Results of a
//! warp outside the active set (long-latency loads) bypass the RFC and go to the MRF.
//!
//! Ports: per cycle at most `read_ports` reads and `write_ports` writes over the whole RFC, and
//! a bank (warp slot w uses bank `w mod banks`) grants at most its share, ⌈ports / banks⌉.

use crate::config::prf::{RfcLiveness, RfcReplacement, RfcSection};

use super::events::RfEvents;

/// One RFC entry of a warp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    reg: u16,
    dirty: bool,
    dead: bool,
    /// Allocation order (FIFO) or last use (LRU): a per-cache monotonic stamp.
    stamp: u64,
}

/// Outcome of a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RfcRead {
    /// Served by the RFC.
    Hit,
    /// Served by the MRF; `writeback` is a register evicted by a read-miss fill that must be
    /// written back to the MRF.
    Miss {
        /// Register written back to the MRF by the fill's eviction, if any.
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
    /// back to the MRF (dirty and, under oracle liveness, not dead), in stamp order.
    pub fn leave_active(&mut self, w: u32, ev: &mut RfEvents) -> Vec<u16> {
        self.grow(w);
        self.active[w as usize] = false;
        let mut entries = std::mem::take(&mut self.warps[w as usize]);
        entries.sort_by_key(|e| e.stamp);
        let mut out = Vec::new();
        for e in entries {
            if self.needs_writeback(&e, ev) {
                ev.rfc_flush_writebacks += 1;
                out.push(e.reg);
            }
        }
        out
    }

    /// Warp `w` exited: its entries are dropped without write-backs (its registers are dead)
    /// and it leaves the active set.
    pub fn drop_warp(&mut self, w: u32) {
        self.grow(w);
        self.active[w as usize] = false;
        self.warps[w as usize].clear();
    }

    /// Whether evicting or flushing `e` writes it back (counting a dead drop).
    fn needs_writeback(&self, e: &Entry, ev: &mut RfEvents) -> bool {
        if !e.dirty {
            return false;
        }
        if e.dead && self.liveness == RfcLiveness::Oracle {
            ev.rfc_dead_drops += 1;
            return false;
        }
        true
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
        set.push(Entry {
            reg,
            dirty,
            dead: false,
            stamp,
        });
        ev.rfc_writes += 1;
        let v = victim?;
        if self.needs_writeback(&v, ev) {
            ev.rfc_eviction_writebacks += 1;
            Some(v.reg)
        } else {
            None
        }
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
        if !self.is_active(w) {
            return RfcWrite::Bypass;
        }
        ev.rfc_write_tag_checks += 1;
        let lru = self.replacement == RfcReplacement::Lru;
        let stamp = self.stamp + 1;
        if let Some(e) = self.warps[w as usize].iter_mut().find(|e| e.reg == reg) {
            e.dirty = true;
            e.dead = false;
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

    /// The value of `reg` held for warp `w` will not be read again (the liveness oracle);
    /// under `liveness = "oracle"` it is then dropped, not written back, when it leaves.
    pub fn mark_dead(&mut self, w: u32, reg: u16) {
        if let Some(e) = self
            .warps
            .get_mut(w as usize)
            .and_then(|s| s.iter_mut().find(|e| e.reg == reg))
        {
            e.dead = true;
        }
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
            return false;
        }
        *used += 1;
        *bank_used += 1;
        true
    }
}
