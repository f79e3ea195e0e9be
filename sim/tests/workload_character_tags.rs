//! The character tags of spec §4 rows 11–20, checked on the dynamic instruction stream of the
//! test tier (the emulator's `KernelStream`, driven CTA by CTA with barrier release): each tag
//! a workload carries must show in its instruction mix.
//!
//! Minimum signature per tag (fractions of all warp instructions):
//! F: FP-family ≥ 5 %; I: INT-family ≥ 50 %; S: SFU ≥ 3 %; M: memory ≥ 10 %;
//! B: at least one barrier per 200 instructions; Sh: shared-memory accesses ≥ 2 %;
//! A: atomics present; D: divergent branches present.

use sim::emu::Emulator;
use sim::inst::{Family, MemSpace, OpClass, WarpInst};
use sim::workloads::{self, Size};
use sim::{DevPtr, Gpu, Launch, SimError, Step};

#[derive(Default, Debug)]
struct Mix {
    insts: u64,
    fp: u64,
    int: u64,
    sfu: u64,
    mem: u64,
    bars: u64,
    shared: u64,
    atomics: u64,
    divergent_branches: u64,
}

/// A `Gpu` that runs every launch through the emulator's `KernelStream` and tallies the mix.
struct Streamed {
    emu: Emulator,
    mix: Mix,
}

impl Gpu for Streamed {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.emu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.emu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.emu.copy_from_device(src, out)
    }
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        let mut s = self.emu.stream(launch)?;
        let info = s.info().clone();
        let nw = info.warps_per_cta() as usize;
        let mut out = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
        let m = &mut self.mix;
        for cta in 0..info.num_ctas() {
            s.begin_cta(cta, 0, 0)?;
            let mut done = vec![false; nw];
            let mut at_bar = vec![false; nw];
            while !done.iter().all(|&d| d) {
                for w in 0..nw {
                    while !done[w] && !at_bar[w] {
                        match s.next_inst(cta, w as u32, 0, &mut out)? {
                            Step::Done => done[w] = true,
                            Step::Inst => {
                                m.insts += 1;
                                match out.family {
                                    Family::Fp => m.fp += 1,
                                    Family::Int => m.int += 1,
                                    Family::Sfu => m.sfu += 1,
                                    Family::Mem => m.mem += 1,
                                    Family::Bar => {
                                        m.bars += 1;
                                        at_bar[w] = true;
                                    }
                                    _ => {}
                                }
                                if out.reconv_pc.is_some() {
                                    m.divergent_branches += 1;
                                }
                                if matches!(out.op, OpClass::Atomic | OpClass::Reduction) {
                                    m.atomics += 1;
                                }
                                if out.mem.is_some_and(|x| x.space == MemSpace::Shared) {
                                    m.shared += 1;
                                }
                            }
                        }
                    }
                }
                // every live warp waits at the barrier (or has exited): release it
                at_bar.iter_mut().for_each(|b| *b = false);
            }
            s.end_cta(cta)?;
        }
        Ok(())
    }
}

fn check_tags(name: &str) {
    let w = workloads::find(name).unwrap();
    let mut gpu = Streamed {
        emu: Emulator::new(),
        mix: Mix::default(),
    };
    let rep = w.run(Size::Test, &mut gpu, true).unwrap();
    let check = rep.check.unwrap();
    assert!(check.passed, "{name} through the stream: {}", check.detail);
    let m = &gpu.mix;
    let n = m.insts as f64;
    let frac = |x: u64| x as f64 / n;
    println!("{name}: {m:?}");
    for tag in w.info().character.split_whitespace() {
        let ok = match tag {
            "F" => frac(m.fp) >= 0.05,
            "I" => frac(m.int) >= 0.50,
            "S" => frac(m.sfu) >= 0.03,
            "M" => frac(m.mem) >= 0.10,
            "B" => frac(m.bars) >= 1.0 / 200.0,
            "Sh" => frac(m.shared) >= 0.02,
            "A" => m.atomics > 0,
            "D" => m.divergent_branches > 0,
            other => panic!("{name}: tag {other} has no check here"),
        };
        assert!(ok, "{name}: tag {tag} not borne out by the mix {m:?}");
    }
}

#[test]
fn tags_of_rows_11_to_20() {
    for name in [
        "srad",
        "heartwall_like",
        "sgemm",
        "mriq",
        "cutcp",
        "spmv",
        "stencil",
        "lbm",
        "histo",
        "cp",
    ] {
        check_tags(name);
    }
}
