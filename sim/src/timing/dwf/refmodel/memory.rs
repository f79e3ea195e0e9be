//! The reference-mode model's latency of an issued instruction: the `[latency]` table for
//! arithmetic, shared memory, and the per-core data cache with its share of DRAM bandwidth for
//! global and local memory (module documentation of [`super`]).

use super::state::{Core, Model};
use crate::inst::{Family, MemSpace, OpClass, WarpInst};
use crate::timing::cache::{LineState, Probe};

impl Model<'_, '_> {
    /// Latency from issue to write-back of the instruction just executed (in `self.out` /
    /// `self.rec`), with its memory accesses charged to the core's cache and DRAM share.
    pub(super) fn latency(
        &mut self,
        core: &mut Core,
        t: u64,
        inst: &WarpInst,
        addrs: &[u64],
    ) -> u64 {
        let cfg = self.cfg;
        let base = self.sc;
        if inst.family != Family::Mem {
            let c = crate::timing::exec::classify(cfg, inst);
            return base + c.latency as u64;
        }
        let space = inst.mem.as_ref().map(|m| m.space);
        match space {
            Some(MemSpace::Shared) => base + cfg.shmem.latency as u64,
            Some(MemSpace::Const) | Some(MemSpace::Param) | None => base + cfg.l1d.latency as u64,
            // texels through the core's data cache, as global loads
            Some(MemSpace::Global) | Some(MemSpace::Local) | Some(MemSpace::Texture) => {
                let hit = cfg.l1d.latency as u64;
                let mut lines: Vec<u64> = addrs.iter().map(|a| a / self.line_bytes).collect();
                lines.sort_unstable();
                lines.dedup();
                let store = inst.op == OpClass::Store;
                let mut done = t + base + hit;
                self.mem.mem_insts += 1;
                self.mem.mem_lines += lines.len() as u64;
                if core.slot_t != t {
                    core.slot_t = t;
                    core.slot_lines.clear();
                }
                let writes = store || inst.op == OpClass::Atomic;
                for &l in &lines {
                    // a line another thread group of this issue slot already accessed
                    if let Some(&(_, _, r)) = core
                        .slot_lines
                        .iter()
                        .find(|e| e.0 == l && e.1 == writes && inst.op != OpClass::Atomic)
                    {
                        self.mem.slot_shared_lines += 1;
                        if !store {
                            done = done.max(r);
                        }
                        continue;
                    }
                    let addr_line = core.l1.line_of(l * self.line_bytes);
                    let full = core.l1.full_mask();
                    let probe = if !store && inst.op != OpClass::Atomic {
                        core.l1.probe(addr_line, full)
                    } else {
                        Probe::Miss
                    };
                    if let Probe::Hit { ready_at, .. } = probe {
                        // a line whose fill is still in flight delivers its data when the
                        // fill arrives (the access merges with the outstanding miss)
                        if ready_at > t + base + hit {
                            self.mem.load_line_hits_pending += 1;
                            done = done.max(ready_at);
                        } else {
                            self.mem.load_line_hits += 1;
                        }
                        core.slot_lines
                            .push((l, false, ready_at.max(t + base + hit)));
                        continue;
                    }
                    let start = core.port_free.max(t + base);
                    core.port_free = start + self.miss_port_cycles;
                    self.mem.dram_busy_cycles += self.miss_port_cycles;
                    if store || inst.op == OpClass::Atomic {
                        self.mem.store_lines += 1;
                    } else {
                        self.mem.load_line_misses += 1;
                    }
                    if store {
                        core.slot_lines.push((l, true, 0));
                        continue;
                    }
                    let ready = core.port_free + hit + cfg.dram.latency as u64;
                    core.slot_lines.push((l, writes, ready));
                    if inst.op == OpClass::Load {
                        if let Some((way, _)) =
                            core.l1.allocate(addr_line, LineState::Reserved, ready)
                        {
                            core.l1.fill(way, full, ready);
                        }
                    }
                    done = done.max(ready);
                }
                done - t
            }
        }
    }
}
