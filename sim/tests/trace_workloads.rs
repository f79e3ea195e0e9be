//! Every built-in workload, traced through the Accel-Sim writer and read back, gives the
//! emulator's instruction streams exactly (up to what the SASS format cannot carry:
//! reconvergence PCs, the param/const distinction and int↔int `cvt`).

mod common;
use common::Replay;

use sim::emu::Emulator;
use sim::inst::{Family, MemSpace, OpClass, WarpInst};
use sim::stream::{DevPtr, Gpu};
use sim::trace::{
    drive_cta, read_kernel_list, ListEntry, TraceForm, TraceKernel, TraceOptions, TraceWriter,
};
use sim::workloads::{self, Size};
use sim::{KernelStream, Launch, SimError, Step};

use common::Streams;

/// What survives the trace format.
fn normalise(mut i: WarpInst) -> WarpInst {
    i.reconv_pc = None;
    if let Some(m) = i.mem.as_mut() {
        if m.space == MemSpace::Param {
            m.space = MemSpace::Const;
        }
    }
    if i.family == Family::Int && i.op == OpClass::Cvt {
        i.family = Family::Fp;
    }
    i
}

/// Runs launches on the emulator, writing traces and keeping the streams for comparison.
struct Recorder {
    emu: Emulator,
    writer: TraceWriter,
    kernels: Vec<Streams>,
}

impl Gpu for Recorder {
    fn alloc(&mut self, bytes: u64) -> Result<DevPtr, SimError> {
        self.emu.alloc(bytes)
    }
    fn copy_to_device(&mut self, dst: DevPtr, data: &[u8]) -> Result<(), SimError> {
        self.writer.memcpy_h2d(dst, data.len() as u64)?;
        self.emu.copy_to_device(dst, data)
    }
    fn copy_from_device(&mut self, src: DevPtr, out: &mut [u8]) -> Result<(), SimError> {
        self.emu.copy_from_device(src, out)
    }
    fn launch(&mut self, launch: &Launch) -> Result<(), SimError> {
        // Record the streams from one functional execution, then write the trace from a replay
        // of that same execution, so both see identical instructions.
        let mut streams = Streams::new();
        let info = {
            let mut s = self.emu.stream(launch)?;
            let info = s.info().clone();
            for cta in 0..info.num_ctas() {
                drive_cta(&mut *s, cta, |w, i| {
                    streams.entry((cta, w)).or_default().push(*i)
                })?;
            }
            info
        };
        let mut replay = Replay::new(info, streams.clone());
        self.writer.write_kernel(&mut replay)?;
        self.kernels.push(streams);
        Ok(())
    }
}

#[test]
fn every_workload_round_trips_through_traces() {
    let mut failures = Vec::new();
    for w in workloads::all() {
        let name = w.info().name;
        let dir =
            std::env::temp_dir().join(format!("gpuenergy-wl-trace-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut rec = Recorder {
            emu: Emulator::new(),
            writer: TraceWriter::create(&dir, TraceForm::Rich).unwrap(),
            kernels: Vec::new(),
        };
        if let Err(e) = w.run(Size::Test, &mut rec, false) {
            failures.push(format!("{name}: run failed: {e}"));
            continue;
        }
        rec.writer.finish().unwrap();
        let list = read_kernel_list(&dir).unwrap();
        let files: Vec<_> = list
            .iter()
            .filter_map(|e| match e {
                ListEntry::Kernel(p) => Some(p.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(files.len(), rec.kernels.len(), "{name}");
        let mut n = 0u64;
        'kernels: for (file, expected) in files.iter().zip(&rec.kernels) {
            let mut k = TraceKernel::open(file, &TraceOptions::default()).unwrap();
            let info = k.info().clone();
            let mut inst = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
            for cta in 0..info.num_ctas() {
                k.begin_cta(cta, 0, 0).unwrap();
                for wp in 0..info.warps_per_cta() {
                    let exp = expected.get(&(cta, wp)).cloned().unwrap_or_default();
                    let mut got = Vec::new();
                    while k.next_inst(cta, wp, 0, &mut inst).unwrap() == Step::Inst {
                        got.push(inst);
                    }
                    // A warp whose stream does not end in EXIT gets one appended by the reader.
                    if exp.last().map(|i| i.op != OpClass::Exit).unwrap_or(false) {
                        got.pop();
                    }
                    n += got.len() as u64;
                    if got.len() != exp.len() {
                        failures.push(format!(
                            "{name} cta {cta} warp {wp}: {} vs {} instructions",
                            got.len(),
                            exp.len()
                        ));
                        break 'kernels;
                    }
                    for (g, e) in got.iter().zip(exp.iter()) {
                        if *g != normalise(*e) {
                            failures.push(format!(
                                "{name} cta {cta} warp {wp}:\n  emulator {:?}\n  trace    {:?}",
                                normalise(*e),
                                g
                            ));
                            break 'kernels;
                        }
                    }
                }
                k.end_cta(cta).unwrap();
            }
        }
        println!(
            "{name}: {} kernel(s), {n} instructions round-tripped",
            files.len()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
