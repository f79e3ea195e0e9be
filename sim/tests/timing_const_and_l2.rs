//! The constant path of the LD/ST unit (simulator §2.6, §2.7): misses to a line whose fill is in
//! flight merge into its MSHR entry instead of each sending a request, the MSHR table bounds
//! the lines in flight, `compat.perfect_const_cache` makes every access a one-cycle hit, and
//! `compat.launch_latency_first` puts the launch latency before the first kernel too; the L2
//! keeps its contents from one launch to the next and may hold host-to-device copies
//! (`mem.flush_l2_between_launches`, `mem.memcpy_fills_l2`).

use sim::activity::KernelActivity;
use sim::config::GpuConfig;
use sim::inst::{Family, MemSpace, OpClass, WarpInst};
use sim::timing::synth::{alu, mem, SynthStream};
use sim::timing::{Simulation, Stream};

/// Every warp reads `n_params` 4-byte parameters (the first 64-byte line holds 16 of them),
/// all lanes the same address, then uses each in an add.
fn params(n_params: u32) -> impl Fn(u32, u32) -> Vec<WarpInst> {
    move |_cta, _warp| {
        let mut v = Vec::new();
        let mut pc = 0;
        for i in 0..n_params {
            pc += 8;
            v.push(mem(
                pc,
                OpClass::Load,
                MemSpace::Param,
                4,
                &[10 + i as u16],
                &[],
                u32::MAX,
                move |_| 4 * i as u64,
            ));
        }
        for i in 0..n_params {
            pc += 8;
            v.push(alu(
                pc,
                Family::Int,
                OpClass::Add,
                &[1],
                &[1, 10 + i as u16],
            ));
        }
        v
    }
}

fn run(cfg: &GpuConfig, ctas: u32, threads: u32, n_params: u32) -> KernelActivity {
    let mut s = SynthStream::new(
        "params",
        [ctas, 1, 1],
        [threads, 1, 1],
        32,
        0,
        Box::new(params(n_params)),
    );
    Simulation::new(cfg).run(Stream(&mut s)).unwrap()
}

fn const_counts(k: &KernelActivity) -> (u64, u64, u64) {
    k.sms.iter().fold((0, 0, 0), |a, s| {
        (
            a.0 + s.const_cache.reads,
            a.1 + s.const_cache.hits,
            a.2 + s.const_cache.misses,
        )
    })
}

#[test]
fn misses_to_a_pending_line_merge() {
    let cfg = GpuConfig::preset("gtx1080ti").unwrap();
    // one CTA of 8 warps per SM on 4 SMs, 16 parameters in one 64-byte line
    let k = run(&cfg, 4, 256, 16);
    let (reads, hits, misses) = const_counts(&k);
    assert_eq!(reads, 4 * 8 * 16, "one lookup per access");
    assert_eq!(reads, hits + misses);
    // the first miss of each SM fetches the line; every other access hits or merges
    assert_eq!(misses, 4, "one fill per SM for one line");
}

#[test]
fn the_mshr_table_bounds_lines_in_flight() {
    // one warp per SM reads 64 parameters spanning four 64-byte lines (16 waiters per line,
    // within the merge limit); with one MSHR entry each line waits for the previous fill, so
    // the kernel takes longer than with enough entries, and still fetches each line once per SM
    let mut base = GpuConfig::preset("gtx1080ti").unwrap();
    // instruction fetch misses would otherwise pace the loads one I-cache line at a time
    base.frontend.perfect_icache = true;
    let mut one = base.clone();
    one.const_cache.mshr_entries = 1;
    let mut many = base.clone();
    many.const_cache.mshr_entries = 8;
    let k1 = run(&one, 2, 32, 64);
    let k8 = run(&many, 2, 32, 64);
    assert_eq!(const_counts(&k1).2, 2 * 4);
    assert_eq!(const_counts(&k8).2, 2 * 4);
    assert!(
        k1.cycles > k8.cycles,
        "one entry {} cycles, eight {}",
        k1.cycles,
        k8.cycles
    );
}

#[test]
fn a_perfect_constant_cache_never_misses_and_is_faster() {
    let base = GpuConfig::preset("gtx1080ti").unwrap();
    let mut perfect = base.clone();
    perfect.compat.perfect_const_cache = true;
    let kb = run(&base, 4, 256, 16);
    let kp = run(&perfect, 4, 256, 16);
    let (reads, hits, misses) = const_counts(&kp);
    assert_eq!(misses, 0);
    assert_eq!(reads, hits);
    assert_eq!(reads, 4 * 8 * 16);
    assert!(kp.cycles < kb.cycles, "{} vs {}", kp.cycles, kb.cycles);
    assert_eq!(kp.warp_insts, kb.warp_insts);
}

#[test]
fn launch_latency_before_the_first_kernel_is_a_knob() {
    let base = GpuConfig::preset("gtx1080ti").unwrap();
    let mut first = base.clone();
    first.compat.launch_latency_first = true;
    let kb = run(&base, 4, 256, 4);
    let kf = run(&first, 4, 256, 4);
    assert_eq!(kf.cycles, kb.cycles + base.gpu.kernel_launch_latency);
}

/// L2 fills of a whole program (every launch of `workload`, test size) on `cfg`.
fn l2_fills(cfg: &GpuConfig, workload: &str) -> (u64, u64) {
    let w = sim::workloads::find(workload).unwrap();
    let (_, act) = Simulation::new(cfg)
        .run(sim::timing::Program(|gpu: &mut sim::timing::TimingGpu| {
            w.run(sim::workloads::Size::Test, gpu, false).unwrap();
        }))
        .unwrap();
    let fills = act.aggregate.l2.iter().map(|s| s.fills).sum();
    (fills, act.aggregate.cycles)
}

#[test]
fn the_l2_keeps_its_contents_between_launches_and_may_hold_copied_data() {
    // hotspot: two launches over the same grids
    let mut flush = GpuConfig::preset("gtx1080ti").unwrap();
    flush.mem.memcpy_fills_l2 = false;
    flush.mem.flush_l2_between_launches = true;
    let mut keep = flush.clone();
    keep.mem.flush_l2_between_launches = false;
    let mut copied = keep.clone();
    copied.mem.memcpy_fills_l2 = true;
    let (f_flush, _) = l2_fills(&flush, "hotspot");
    let (f_keep, _) = l2_fills(&keep, "hotspot");
    let (f_copied, _) = l2_fills(&copied, "hotspot");
    assert!(f_keep < f_flush, "kept {f_keep} vs flushed {f_flush}");
    assert!(f_copied < f_keep, "copied {f_copied} vs kept {f_keep}");
}
