//! Summing Activity records (launches of one kernel, and the aggregate over kernels).

use super::*;

/// Element-wise sum of two records of the same shape.
pub(crate) trait Merge {
    fn merge(&mut self, o: &Self);
}

impl Merge for u64 {
    fn merge(&mut self, o: &u64) {
        *self += o;
    }
}

impl<T: Merge + Clone> Merge for Vec<T> {
    fn merge(&mut self, o: &Vec<T>) {
        for (i, x) in o.iter().enumerate() {
            if i < self.len() {
                self[i].merge(x);
            } else {
                self.push(x.clone());
            }
        }
    }
}

impl<const N: usize> Merge for [u64; N] {
    fn merge(&mut self, o: &[u64; N]) {
        for (a, b) in self.iter_mut().zip(o) {
            *a += b;
        }
    }
}

macro_rules! merge_fields {
    ($t:ty { $($f:ident),* }) => {
        impl Merge for $t {
            fn merge(&mut self, o: &Self) {
                $( self.$f.merge(&o.$f); )*
            }
        }
    };
}

merge_fields!(InstCount {
    warp_insts,
    thread_insts
});
merge_fields!(FamilyCounts {
    int,
    fp,
    dp,
    sfu,
    mem,
    ctrl,
    bar,
    tensor
});
merge_fields!(TensorStats {
    macs_f16,
    macs_bf16
});
merge_fields!(StallCounts {
    no_warp,
    ibuffer_empty,
    barrier,
    scoreboard,
    cu_full,
    pipe_busy,
    unit_gated
});
merge_fields!(CacheReads {
    reads,
    hits,
    misses
});
merge_fields!(IbufferCounts {
    writes,
    reads,
    flushes,
    flushed_entries
});
merge_fields!(SchedActivity {
    active_cycles,
    issued,
    stall,
    warp_evals
});
merge_fields!(ScoreboardCounts { reads, writes });
merge_fields!(SimtCounts {
    pushes,
    pops,
    divergent_branches
});
merge_fields!(BarrierCounts {
    arrivals,
    releases,
    wait_cycles
});
merge_fields!(RfActivity {
    reads,
    writes,
    read_lanes,
    write_lanes,
    conflict_rr,
    conflict_wr,
    pred_reads,
    pred_writes
});
merge_fields!(OpsLanes { ops, lanes });
merge_fields!(Outcomes {
    hit,
    hit_reserved,
    miss,
    res_fail
});
merge_fields!(L1dActivity {
    read,
    write,
    bypass,
    fills,
    evictions,
    writebacks
});
merge_fields!(SmemCounts {
    accesses,
    lanes,
    conflict_extra_cycles
});
merge_fields!(LdstCounts {
    insts,
    global_requests,
    stall_cycles
});
merge_fields!(HitMiss { hit, miss });
merge_fields!(L2SliceActivity {
    read,
    write,
    atomic,
    fills,
    writebacks
});
merge_fields!(DramChannelActivity {
    reads,
    writes,
    activates,
    precharges,
    row_hits,
    bus_busy_cycles,
    cycles
});
merge_fields!(IcntActivity {
    req_packets,
    req_flits,
    rep_packets,
    rep_flits
});

impl Merge for IdleStats {
    fn merge(&mut self, o: &Self) {
        IdleStats::merge(self, o);
    }
}

impl Merge for OpcollActivity {
    fn merge(&mut self, o: &Self) {
        if self.class.is_empty() {
            self.class = o.class.clone();
            self.units = o.units;
        }
        self.allocs += o.allocs;
        self.operands += o.operands;
        self.dispatches += o.dispatches;
        self.occupied_cycles += o.occupied_cycles;
    }
}

impl Merge for PipeActivity {
    fn merge(&mut self, o: &Self) {
        if self.unit.is_empty() {
            self.unit = o.unit.clone();
            self.pipe = o.pipe.clone();
            self.lanes = o.lanes;
        }
        for (k, v) in &o.ops {
            self.ops.entry(k.clone()).or_default().merge(v);
        }
        self.busy.merge(&o.busy);
        self.lane_idle.merge(&o.lane_idle);
    }
}

impl Merge for SmActivity {
    fn merge(&mut self, o: &Self) {
        self.active_cycles += o.active_cycles;
        self.warp_insts += o.warp_insts;
        self.thread_insts += o.thread_insts;
        self.ctas += o.ctas;
        self.resident_warp_cycles += o.resident_warp_cycles;
        self.allocated_reg_cycles += o.allocated_reg_cycles;
        self.icache.merge(&o.icache);
        self.decoder_insts += o.decoder_insts;
        self.ibuffer.merge(&o.ibuffer);
        self.sched.merge(&o.sched);
        self.scoreboard.merge(&o.scoreboard);
        self.simt.merge(&o.simt);
        self.bar.merge(&o.bar);
        self.rf.merge(&o.rf);
        self.opcoll.merge(&o.opcoll);
        self.exec.merge(&o.exec);
        self.l1d.merge(&o.l1d);
        self.smem.merge(&o.smem);
        self.const_cache.merge(&o.const_cache);
        self.tex_cache.merge(&o.tex_cache);
        self.ldst.merge(&o.ldst);
    }
}

impl Merge for RegisterStats {
    fn merge(&mut self, o: &Self) {
        self.reads.merge(&o.reads);
        self.writes.merge(&o.writes);
        self.inter_access.merge(&o.inter_access);
        self.first_access_after_alloc
            .merge(&o.first_access_after_alloc);
        self.pilot_reads.merge(&o.pilot_reads);
        self.pilot_writes.merge(&o.pilot_writes);
        self.interaccess_cutoff = self.interaccess_cutoff.max(o.interaccess_cutoff);
        self.inter_access_within_cutoff
            .merge(&o.inter_access_within_cutoff);
        self.active_lane_insts.merge(&o.active_lane_insts);
        self.full_warp_insts.merge(&o.full_warp_insts);
        self.masked_off_insts.merge(&o.masked_off_insts);
        self.profiled_pilot_counts.merge(&o.profiled_pilot_counts);
        self.profiled_pilots.merge(&o.profiled_pilots);
        self.pilot_cta_counts.merge(&o.pilot_cta_counts);
        self.pilot_cta_warps.merge(&o.pilot_cta_warps);
        self.other_cta_counts.merge(&o.other_cta_counts);
        self.other_cta_warps.merge(&o.other_cta_warps);
    }
}

impl KernelActivity {
    /// Adds `o` into `self` (counts, histograms and time integrals sum; `cycles` sums because
    /// kernels run serially; occupancy limits take `o`'s values; mean occupancy is recomputed
    /// from the sums).
    pub fn accumulate(&mut self, o: &KernelActivity) {
        let n_before = self.launches;
        self.launches += o.launches;
        self.truncated |= o.truncated;
        self.cycles += o.cycles;
        self.warp_insts += o.warp_insts;
        self.thread_insts += o.thread_insts;
        self.by_family.merge(&o.by_family);
        self.stalls.merge(&o.stalls);
        self.occupancy.resident_warp_cycles += o.occupancy.resident_warp_cycles;
        self.occupancy.allocated_reg_cycles += o.occupancy.allocated_reg_cycles;
        self.occupancy.max_ctas_per_sm = o.occupancy.max_ctas_per_sm;
        self.occupancy.limiter = o.occupancy.limiter.clone();
        self.occupancy.shmem_carveout_bytes = o.occupancy.shmem_carveout_bytes;
        self.occupancy.l1d_bytes = o.occupancy.l1d_bytes;
        // mean = Σ resident / (cycles · max_warps · n_sm); both launches share the machine.
        if self.cycles > 0 {
            let w_old = (self.cycles - o.cycles) as f64;
            let w_new = o.cycles as f64;
            let old_mean = if n_before > 0 {
                self.occupancy.mean_occupancy
            } else {
                0.0
            };
            self.occupancy.mean_occupancy =
                (old_mean * w_old + o.occupancy.mean_occupancy * w_new) / (w_old + w_new);
        }
        self.sms.merge(&o.sms);
        self.l2.merge(&o.l2);
        self.dram.merge(&o.dram);
        self.icnt.merge(&o.icnt);
        match (&mut self.per_register, &o.per_register) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.per_register = Some(b.clone()),
            _ => {}
        }
        match (&mut self.gating, &o.gating) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.gating = Some(b.clone()),
            _ => {}
        }
        match (&mut self.rf, &o.rf) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.rf = Some(b.clone()),
            _ => {}
        }
        self.merge_issue_stage(o);
        match (&mut self.reconv, &o.reconv) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.reconv = Some(b.clone()),
            _ => {}
        }
        match (&mut self.dwf, &o.dwf) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.dwf = Some(b.clone()),
            _ => {}
        }
        match (&mut self.tensor, &o.tensor) {
            (Some(a), Some(b)) => a.merge(b),
            (None, Some(b)) => self.tensor = Some(*b),
            _ => {}
        }
    }
}
