//! Instruction mix of every workload at the test tier, measured on the functional emulator's
//! instruction stream (the same records the timing model consumes): FP and INT share of warp
//! instructions, mean active lanes, barriers per 50 warp instructions, memory share.
//! `cargo test --release -p sim --test workloads_mix -- --ignored --nocapture`

use sim::emu::Emulator;
use sim::inst::{Family, WarpInst};
use sim::stream::Step;
use sim::workloads::{self, Size};
use sim::{DevPtr, Gpu, Launch, SimError};

#[derive(Default)]
struct Mix {
    total: u64,
    fp: u64,
    int: u64,
    sfu: u64,
    mem: u64,
    bar: u64,
    lanes: u64,
}

struct Profiling {
    emu: Emulator,
    mix: Mix,
}

impl Gpu for Profiling {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.emu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.emu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.emu.copy_from_device(src, out)
    }
    /// Steps each CTA's warps round-robin, holding a warp at a barrier until all live warps of
    /// its CTA have arrived.
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        let mut s = self.emu.stream(launch)?;
        let info = s.info().clone();
        let nw = info.warps_per_cta();
        let mut inst = WarpInst::new(0, Family::Int, sim::inst::OpClass::Nop, 0);
        for cta in 0..info.num_ctas() {
            s.begin_cta(cta, 0, 0)?;
            let mut done = vec![false; nw as usize];
            let mut at_bar = vec![false; nw as usize];
            while done.iter().any(|d| !d) {
                for w in 0..nw as usize {
                    while !done[w] && !at_bar[w] {
                        match s.next_inst(cta, w as u32, 0, &mut inst)? {
                            Step::Done => done[w] = true,
                            Step::Inst => {
                                let m = &mut self.mix;
                                m.total += 1;
                                m.lanes += inst.lanes() as u64;
                                match inst.family {
                                    // the built-in workloads have no tensor instructions;
                                    // a product would count as floating point
                                    Family::Fp | Family::Dp | Family::Tensor => m.fp += 1,
                                    Family::Int | Family::Ctrl => m.int += 1,
                                    Family::Sfu => m.sfu += 1,
                                    Family::Mem => m.mem += 1,
                                    Family::Bar => {
                                        m.bar += 1;
                                        at_bar[w] = true;
                                    }
                                }
                            }
                        }
                    }
                }
                // Release the barrier once every live warp has arrived.
                if (0..nw as usize).all(|w| done[w] || at_bar[w]) {
                    at_bar.iter_mut().for_each(|b| *b = false);
                }
            }
            s.end_cta(cta)?;
        }
        Ok(())
    }
}

#[test]
#[ignore = "prints a table; run explicitly"]
fn instruction_mix() {
    println!("workload        warp_insts    FP%   INT%   SFU%   MEM%  lanes  bar/50");
    for w in workloads::all() {
        let mut g = Profiling {
            emu: Emulator::new(),
            mix: Mix::default(),
        };
        let r = w.run(Size::Test, &mut g, true).unwrap();
        assert!(r.check.unwrap().passed);
        let m = &g.mix;
        let pct = |x: u64| 100.0 * x as f64 / m.total as f64;
        println!(
            "{:14} {:11} {:6.1} {:6.1} {:6.1} {:6.1} {:6.1} {:7.2}",
            w.info().name,
            m.total,
            pct(m.fp),
            pct(m.int),
            pct(m.sfu),
            pct(m.mem),
            m.lanes as f64 / m.total as f64,
            50.0 * m.bar as f64 / m.total as f64
        );
    }
}
