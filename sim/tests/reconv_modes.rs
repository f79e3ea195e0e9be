//! The reference modes of the control-flow spec (§3.4 MIMD and NREC, §4–§5 dynamic warp
//! formation with its five issue policies) on the reference-mode model
//! (`sim::timing::dwf::refmodel`) with the `gf8800gtx_like` preset: every workload's results
//! equal its CPU reference in every mode (the functional semantics stay the emulator's), a
//! kernel without divergence takes the same cycles under PDOM and DWF, and MIMD is never slower
//! than PDOM or DWF.

use sim::config::reconv::{DwfPolicy, ReconvMode};
use sim::config::GpuConfig;
use sim::timing::dwf::refmodel::{RefGpu, RefStats};
use sim::workloads::{self, Size};

fn cfg(mode: ReconvMode, policy: DwfPolicy) -> GpuConfig {
    let mut c = GpuConfig::preset("gf8800gtx_like").unwrap();
    c.reconv.mode = mode;
    c.dwf.policy = policy;
    c
}

/// Runs `name` at the test tier in `mode`, checking the results; returns the counters.
fn run(name: &str, c: &GpuConfig) -> RefStats {
    let w = workloads::find(name).unwrap();
    let mut gpu = RefGpu::new(c).unwrap();
    let rep = w
        .run(Size::Test, &mut gpu, true)
        .unwrap_or_else(|e| panic!("{name} {:?}: {e}", c.reconv.mode));
    let check = rep.check.expect("check requested");
    assert!(
        check.passed,
        "{name} {:?}/{:?}: {}",
        c.reconv.mode, c.dwf.policy, check.detail
    );
    gpu.stats
}

const MODES: [(ReconvMode, DwfPolicy, &str); 8] = [
    (ReconvMode::Pdom, DwfPolicy::Dmaj, "pdom"),
    (ReconvMode::Mimd, DwfPolicy::Dmaj, "mimd"),
    (ReconvMode::Nrec, DwfPolicy::Dmaj, "nrec"),
    (ReconvMode::Dwf, DwfPolicy::Dmaj, "dwf-dmaj"),
    (ReconvMode::Dwf, DwfPolicy::Dtime, "dwf-dtime"),
    (ReconvMode::Dwf, DwfPolicy::Dpc, "dwf-dpc"),
    (ReconvMode::Dwf, DwfPolicy::Dmin, "dwf-dmin"),
    (ReconvMode::Dwf, DwfPolicy::Dpdpri, "dwf-dpdpri"),
];

fn all_modes(name: &str) {
    let mut cyc = std::collections::BTreeMap::new();
    for (m, p, label) in MODES {
        let t0 = std::time::Instant::now();
        let s = run(name, &cfg(m, p));
        let secs = t0.elapsed().as_secs_f64();
        println!(
            "{name} {label}: cycles {} warp issues {} simd eff {:.3} thread insts {} ({:.0} thread insts/s)",
            s.cycles,
            s.warp_issues,
            s.simd_efficiency(32),
            s.thread_insts,
            s.thread_insts as f64 / secs.max(1e-9)
        );
        cyc.insert(label, s.cycles);
    }
    // every mode executes the same thread instructions; MIMD never needs more cycles
    assert!(cyc["mimd"] <= cyc["pdom"], "{name}: {cyc:?}");
    assert!(cyc["mimd"] <= cyc["dwf-dmaj"], "{name}: {cyc:?}");
}

macro_rules! mode_tests {
    ($($name:ident),*) => {
        $(
            #[test]
            fn $name() {
                all_modes(stringify!($name));
            }
        )*
    };
}

mode_tests!(bfs, nw, hotspot, pathfinder, backprop);
