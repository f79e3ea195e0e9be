//! Small kernels run on the functional emulator and checked against values computed here.

use sim::emu::Emulator;
use sim::ptx::Module;
use sim::{Gpu, Launch, ParamValue, SimError};

fn launch(
    m: &Module,
    name: &str,
    grid: [u32; 3],
    block: [u32; 3],
    params: Vec<ParamValue>,
) -> Launch {
    Launch {
        kernel: m.kernel(name).expect("kernel"),
        grid,
        block,
        params,
        shared_bytes: 0,
        cooperative: false,
    }
}

fn upload_u32(gpu: &mut Emulator, v: &[u32]) -> u64 {
    let p = gpu.alloc(v.len() as u64 * 4).unwrap();
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    gpu.copy_to_device(p, &bytes).unwrap();
    p
}

fn download_u32(gpu: &mut Emulator, p: u64, n: usize) -> Vec<u32> {
    let mut b = vec![0u8; n * 4];
    gpu.copy_from_device(p, &mut b).unwrap();
    b.chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn f32s(v: &[u32]) -> Vec<f32> {
    v.iter().map(|x| f32::from_bits(*x)).collect()
}

const VADD: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry vadd(
    .param .u64 a,
    .param .u64 b,
    .param .u64 c,
    .param .u32 n
)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<10>;

    ld.param.u64 %rd1, [a];
    ld.param.u64 %rd2, [b];
    ld.param.u64 %rd3, [c];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd4, %rd1;
    mul.wide.u32 %rd5, %r5, 4;
    add.s64 %rd6, %rd4, %rd5;
    add.s64 %rd7, %rd2, %rd5;
    add.s64 %rd8, %rd3, %rd5;
    ld.global.f32 %f1, [%rd6];
    ld.global.nc.f32 %f2, [%rd7];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd8], %f3;
DONE:
    ret;
}
"#;

#[test]
fn vector_add() {
    let m = Module::parse(VADD, "vadd.ptx").unwrap();
    let n = 1000u32;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| 3.0 - i as f32).collect();
    let mut gpu = Emulator::new();
    let pa = upload_u32(&mut gpu, &a.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    let pb = upload_u32(&mut gpu, &b.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    let pc = gpu.alloc(n as u64 * 4).unwrap();
    let l = launch(
        &m,
        "vadd",
        [4, 1, 1],
        [256, 1, 1],
        vec![
            ParamValue::U64(pa),
            ParamValue::U64(pb),
            ParamValue::U64(pc),
            ParamValue::U32(n),
        ],
    );
    gpu.launch(&l).unwrap();
    let c = f32s(&download_u32(&mut gpu, pc, n as usize));
    for i in 0..n as usize {
        assert_eq!(c[i], a[i] + b[i], "element {i}");
    }
    // 4 CTAs x 8 warps; the last CTA's tail warps (lanes >= 1000) take the short path.
    assert!(gpu.warp_insts() > 0);
}

const REDUCE: &str = r#"
.version 7.0
.target sm_70
.address_size 64

// Sum of 256 u32 per CTA with a shared-memory tree and bar.sync.
.visible .entry reduce(.param .u64 in, .param .u64 out)
.reqntid 256, 1, 1
{
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    .shared .align 4 .u32 buf[256];

    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    shl.b32 %r3, %r2, 8;
    add.s32 %r3, %r3, %r1;
    mul.wide.u32 %rd3, %r3, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r4, [%rd4];
    mov.u32 %r5, buf;
    shl.b32 %r6, %r1, 2;
    add.s32 %r7, %r5, %r6;
    st.shared.u32 [%r7], %r4;
    bar.sync 0;
    mov.u32 %r8, 128;
LOOP:
    setp.ge.u32 %p1, %r1, %r8;
    @%p1 bra SKIP;
    shl.b32 %r9, %r8, 2;
    add.s32 %r9, %r7, %r9;
    ld.shared.u32 %r10, [%r9];
    ld.shared.u32 %r11, [%r7];
    add.s32 %r11, %r11, %r10;
    st.shared.u32 [%r7], %r11;
SKIP:
    bar.sync 0;
    shr.u32 %r8, %r8, 1;
    setp.ne.u32 %p2, %r8, 0;
    @%p2 bra LOOP;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra END;
    ld.shared.u32 %r10, [buf];
    mul.wide.u32 %rd5, %r2, 4;
    add.s64 %rd6, %rd2, %rd5;
    st.global.u32 [%rd6], %r10;
END:
    exit;
}
"#;

#[test]
fn shared_memory_reduction_with_barriers() {
    let m = Module::parse(REDUCE, "reduce.ptx").unwrap();
    let k = m.kernel("reduce").unwrap();
    assert_eq!(k.static_shared_bytes(), 1024);
    let data: Vec<u32> = (0..1024u32)
        .map(|i| i.wrapping_mul(2654435761) >> 20)
        .collect();
    let mut gpu = Emulator::new();
    let pin = upload_u32(&mut gpu, &data);
    let pout = gpu.alloc(16).unwrap();
    let l = launch(
        &m,
        "reduce",
        [4, 1, 1],
        [256, 1, 1],
        vec![ParamValue::U64(pin), ParamValue::U64(pout)],
    );
    gpu.launch(&l).unwrap();
    let got = download_u32(&mut gpu, pout, 4);
    for c in 0..4 {
        let want: u32 = data[c * 256..(c + 1) * 256].iter().sum();
        assert_eq!(got[c], want, "CTA {c}");
    }
    // .reqntid is enforced.
    let bad = launch(
        &m,
        "reduce",
        [4, 1, 1],
        [128, 1, 1],
        vec![ParamValue::U64(pin), ParamValue::U64(pout)],
    );
    assert!(matches!(gpu.launch(&bad), Err(SimError::Launch { .. })));
}

const DIVERGE: &str = r#"
.version 7.0
.target sm_70
.address_size 64

// out[i] = (i odd) ? i*3 : (i < 10 ? 100 : i/2); then every lane adds 1 after reconvergence.
.visible .entry diverge(.param .u64 out)
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 1;
    setp.eq.u32 %p1, %r2, 1;
    @%p1 bra ODD;
    setp.lt.u32 %p2, %r1, 10;
    @!%p2 bra BIG;
    mov.u32 %r3, 100;
    bra JOIN;
BIG:
    shr.u32 %r3, %r1, 1;
    bra JOIN;
ODD:
    mul.lo.u32 %r3, %r1, 3;
JOIN:
    add.u32 %r3, %r3, 1;
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    ret;
}
"#;

#[test]
fn divergent_if_else_reconverges() {
    let m = Module::parse(DIVERGE, "div.ptx").unwrap();
    let mut gpu = Emulator::new();
    let out = gpu.alloc(64 * 4).unwrap();
    let l = launch(
        &m,
        "diverge",
        [1, 1, 1],
        [64, 1, 1],
        vec![ParamValue::U64(out)],
    );
    gpu.launch(&l).unwrap();
    // Both warps split odd/even; only warp 0 splits again at `< 10`. That inner branch has the
    // same reconvergence point as the enclosing entry, so the entry is popped before the two
    // pushes (control-flow §3.2 step 4) and the depth stays at 3.
    let st = gpu.stack_stats();
    assert_eq!(st.divergent_branches, 3);
    assert_eq!(st.max_depth, 3);
    assert_eq!(st.pushes, 6);
    let got = download_u32(&mut gpu, out, 64);
    for i in 0..64u32 {
        let want = if i % 2 == 1 {
            i * 3
        } else if i < 10 {
            100
        } else {
            i / 2
        };
        assert_eq!(got[i as usize], want + 1, "thread {i}");
    }
    // Through the stream: the divergent branch carries its reconvergence PC, and the add at
    // JOIN executes once per warp with the full mask.
    let mut gpu2 = Emulator::new();
    let out2 = gpu2.alloc(64 * 4).unwrap();
    let l2 = launch(
        &m,
        "diverge",
        [1, 1, 1],
        [64, 1, 1],
        vec![ParamValue::U64(out2)],
    );
    let k = l2.kernel.clone();
    let mut s = gpu2.stream(&l2).unwrap();
    s.begin_cta(0, 0, 0).unwrap();
    let mut rec = sim::inst::WarpInst::new(0, sim::inst::Family::Int, sim::inst::OpClass::Nop, 0);
    let join_pc = 8 * 11;
    let mut seen = Vec::new();
    while s.next_inst(0, 0, 0, &mut rec).unwrap() == sim::Step::Inst {
        seen.push((rec.pc, rec.active_mask, rec.reconv_pc));
    }
    assert_eq!(seen[3], (8 * 3, 0xAAAA_AAAA, Some(join_pc)));
    assert_eq!(k.reconv_pc(8 * 3), join_pc);
    let join: Vec<_> = seen.iter().filter(|x| x.0 == join_pc).collect();
    assert_eq!(join.len(), 1);
    assert_eq!(join[0].1, u32::MAX);
}
