//! `%clock` and `%clock64` in timing runs hold the cycle at which the reading instruction
//! issues (as on hardware), not the fetch cycle at which the functional front end executed it:
//! the timing model rewrites the destination at issue, and an instruction that reads or writes
//! that destination is not fetched before the read has issued.

use sim::config::{GpuConfig, OooMode};
use sim::emu::Emulator;
use sim::ptx::Module;
use sim::timing::{Simulation, Traced};
use sim::{Gpu, Launch, ParamValue};

const KERNEL: &str = r#".version 7.0
.target sm_70
.address_size 64
.visible .entry clocks(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<10>;
    ld.param.u64 %rd1, [out];
    mov.u64 %rd2, %clock64;
    mov.u32 %r1, %tid.x;
    mov.u64 %rd3, %clock64;
    add.u64 %rd4, %rd3, 0;
    mov.u32 %r2, %clock;
    shr.u32 %r3, %r1, 5;
    mul.wide.u32 %rd5, %r3, 24;
    add.s64 %rd6, %rd1, %rd5;
    st.global.u64 [%rd6], %rd2;
    st.global.u64 [%rd6+8], %rd4;
    st.global.u32 [%rd6+16], %r2;
    ret;
}
"#;

/// PCs (8 bytes per instruction) of the three clock reads.
const CLOCK_PCS: [u32; 3] = [8, 24, 40];

fn config(mode: OooMode) -> GpuConfig {
    let mut c = GpuConfig::preset("gtx480").unwrap();
    c.gpu.n_sm = 1;
    c.frontend.perfect_icache = true;
    c.sched.ooo.mode = mode;
    c
}

/// Runs two warps and returns, per warp, the three values stored and the issue cycles of the
/// three clock reads.
fn run(mode: OooMode) -> Vec<([u64; 3], [u64; 3])> {
    let m = Module::parse(KERNEL, "clocks.ptx").unwrap();
    let mut gpu = Emulator::new();
    let warps = 2usize;
    let out = gpu.alloc(24 * warps as u64).unwrap();
    let l = Launch {
        kernel: m.kernel("clocks").unwrap(),
        grid: [1, 1, 1],
        block: [32 * warps as u32, 1, 1],
        params: vec![ParamValue::U64(out)],
        shared_bytes: 0,
        cooperative: false,
    };
    let log = {
        let mut s = gpu.stream(&l).unwrap();
        let (_, log) = Simulation::new(&config(mode))
            .run(Traced(s.as_mut()))
            .unwrap();
        log
    };
    let mut b = vec![0u8; 24 * warps];
    gpu.copy_from_device(out, &mut b).unwrap();
    let u64_at = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap());
    (0..warps)
        .map(|w| {
            let stored = [
                u64_at(24 * w),
                u64_at(24 * w + 8),
                u32::from_le_bytes(b[24 * w + 16..24 * w + 20].try_into().unwrap()) as u64,
            ];
            let issued = CLOCK_PCS.map(|pc| {
                let e: Vec<_> = log
                    .iter()
                    .filter(|e| e.warp_slot == w as u32 && e.pc == pc)
                    .collect();
                assert_eq!(e.len(), 1, "{mode:?}: warp {w} issues pc {pc} once");
                e[0].cycle
            });
            (stored, issued)
        })
        .collect()
}

#[test]
fn clock_reads_hold_their_issue_cycle_under_every_issue_stage() {
    for mode in [OooMode::None, OooMode::Socgpu, OooMode::Loog] {
        for (w, (stored, issued)) in run(mode).into_iter().enumerate() {
            // the second read is also seen through a dependent add fetched after it issued
            assert_eq!(stored, issued, "{mode:?}, warp {w}");
            assert!(
                stored[0] < stored[1] && stored[1] < stored[2],
                "{mode:?}: {stored:?}"
            );
        }
    }
}
