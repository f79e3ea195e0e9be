//! Local memory as the hardware interleaves it (`timing/localmem.rs`): in the timing model a
//! warp's access to the same local word of each thread is one coalesced 128-byte run (two for
//! an 8-byte value), and distinct warps touch distinct lines, while the values stay those of
//! each thread's own local memory.

use sim::activity::KernelActivity;
use sim::config::GpuConfig;
use sim::ptx::Module;
use sim::timing::TimingGpu;
use sim::{Gpu, Launch, ParamValue};

/// Each thread stores its thread index to a 4-byte local word and twice it to an 8-byte local
/// value, loads both back and writes their sum to `out[global thread]`.
const STORE_LOAD: &str = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry loc(.param .u64 p_out)
{
    .local .align 8 .b8 buf[16];
    .reg .b32 %r<6>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [p_out];
    mov.u32 %r1, %tid.x;
    st.local.u32 [buf], %r1;
    ld.local.u32 %r2, [buf];
    mul.wide.u32 %rd2, %r1, 2;
    st.local.u64 [buf+8], %rd2;
    ld.local.u64 %rd3, [buf+8];
    cvt.u32.u64 %r3, %rd3;
    add.u32 %r4, %r2, %r3;
    mov.u32 %r5, %ctaid.x;
    mad.lo.u32 %r5, %r5, %ntid.x, %r1;
    mul.wide.u32 %rd4, %r5, 4;
    add.u64 %rd5, %rd1, %rd4;
    st.global.u32 [%rd5], %r4;
    ret;
}
"#;

/// Each thread loads one local word (never written: zero) and writes it to `out`.
const LOAD_ONLY: &str = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry loc(.param .u64 p_out)
{
    .local .align 4 .b8 buf[4];
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [p_out];
    ld.local.u32 %r2, [buf];
    mov.u32 %r1, %tid.x;
    mov.u32 %r3, %ctaid.x;
    mad.lo.u32 %r3, %r3, %ntid.x, %r1;
    mul.wide.u32 %rd2, %r3, 4;
    add.u64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
}
"#;

const CTAS: u32 = 2;
const THREADS: u32 = 128;
const WARPS: u64 = (CTAS * THREADS / 32) as u64;

/// Runs `ptx` on one SM of `preset`; the output words and the launch's activity.
fn run(ptx: &str, preset: &str) -> (Vec<u32>, KernelActivity) {
    let mut cfg = GpuConfig::preset(preset).unwrap();
    cfg.gpu.n_sm = 1;
    let mut gpu = TimingGpu::new(cfg);
    let m = Module::parse(ptx, "loc.ptx").unwrap();
    let n = (CTAS * THREADS) as usize;
    let out = gpu.alloc(4 * n as u64).unwrap();
    gpu.launch(&Launch {
        kernel: m.load("loc").unwrap(),
        grid: [CTAS, 1, 1],
        block: [THREADS, 1, 1],
        params: vec![ParamValue::U64(out)],
        shared_bytes: 0,
        cooperative: false,
    })
    .unwrap();
    let mut b = vec![0u8; 4 * n];
    gpu.copy_from_device(out, &mut b).unwrap();
    let words = b
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (words, gpu.activity().kernels[0].clone())
}

fn requests(k: &KernelActivity) -> u64 {
    k.sms.iter().map(|s| s.ldst.global_requests).sum()
}

#[test]
fn a_warps_local_word_is_one_coalesced_128_byte_run() {
    // 128-byte L1 segments (gtx480): per warp, the 4-byte store and load are one segment each,
    // the 8-byte store and load two each (two interleaved words), the global store one.
    let (out, k) = run(STORE_LOAD, "gtx480");
    let want: Vec<u32> = (0..CTAS * THREADS).map(|i| 3 * (i % THREADS)).collect();
    assert_eq!(out, want, "the values are each thread's own");
    assert_eq!(requests(&k), WARPS * (1 + 1 + 2 + 2 + 1));
    // 32-byte sectors (v100): a 128-byte run is four sector requests
    let (out, k) = run(STORE_LOAD, "v100");
    assert_eq!(out, want);
    assert_eq!(requests(&k), WARPS * (4 + 4 + 8 + 8 + 4));
}

#[test]
fn distinct_warps_touch_distinct_local_lines() {
    // every warp loads the same local word of its threads: each warp's run is its own line,
    // so each misses (no hit on another warp's line, no merge with its fill)
    let (out, k) = run(LOAD_ONLY, "gtx480");
    assert!(out.iter().all(|&x| x == 0));
    let reads = |f: fn(&sim::activity::Outcomes) -> u64| -> u64 {
        k.sms.iter().map(|s| f(&s.l1d.read)).sum()
    };
    assert_eq!(reads(|o| o.miss), WARPS);
    assert_eq!(reads(|o| o.hit) + reads(|o| o.hit_reserved), 0);
}

#[test]
fn local_layout_runs_are_deterministic() {
    let a = run(STORE_LOAD, "v100");
    let b = run(STORE_LOAD, "v100");
    assert_eq!(a.0, b.0);
    assert_eq!(
        serde_json::to_string(&a.1).unwrap(),
        serde_json::to_string(&b.1).unwrap()
    );
}
