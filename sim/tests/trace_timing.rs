//! The same timing model runs execution-driven (PTX emulator) and trace-driven (Accel-Sim traces
//! written from the same workload): identical cycles and instruction counts both ways.

use sim::config::GpuConfig;
use sim::timing::{Program, Simulation, TimingGpu};
use sim::trace::gpu::TraceGpu;
use sim::trace::{TraceFolder, TraceForm};
use sim::workloads::{self, Size};

#[test]
fn workloads_give_identical_cycles_from_ptx_and_from_traces() {
    let cfg = GpuConfig::preset("gtx480").unwrap();
    for name in ["hotspot", "bfs", "histo", "sgemm", "nw"] {
        let w = workloads::find(name).unwrap();
        let (run, direct) = Simulation::new(&cfg)
            .run(Program(|gpu: &mut TimingGpu| w.run(Size::Test, gpu, false)))
            .unwrap();
        run.unwrap();

        let dir = std::env::temp_dir().join(format!("gpuenergy-tt-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut tg = TraceGpu::create(&dir, TraceForm::Rich).unwrap();
        w.run(Size::Test, &mut tg, false).unwrap();
        tg.finish().unwrap();
        let traced = Simulation::new(&cfg).run(TraceFolder::new(&dir)).unwrap();
        let _ = std::fs::remove_dir_all(&dir);

        let (a, b) = (&direct.aggregate, &traced.activity.aggregate);
        println!(
            "{name}: PTX {} cycles / {} warp insts; trace {} cycles / {} warp insts",
            a.cycles, a.warp_insts, b.cycles, b.warp_insts
        );
        assert_eq!(a.warp_insts, b.warp_insts, "{name}: warp instructions");
        assert_eq!(a.cycles, b.cycles, "{name}: cycles");
        assert_eq!(
            direct.kernels.len(),
            traced.activity.kernels.len(),
            "{name}: kernels"
        );
    }
}
