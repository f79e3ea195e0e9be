//! Functional-emulation throughput in warp instructions per second on one core.
//!
//! Runs every built-in workload (or those named on the command line) at the `bench` size (or
//! `--size test`) on the functional emulator and prints, per workload and in total, the warp
//! instructions executed, the wall time and the CPU time spent inside kernel launches, and the
//! rates. Input generation and host-side work are excluded by timing only `Gpu::launch`. The CPU
//! time (this thread's on-CPU time from `/proc/thread-self/schedstat`, Linux) gives the per-core
//! rate even when the machine is shared; where it is unavailable the column shows the wall time.
//!
//! With `--stream` each launch is driven through [`Emulator::stream`] instead (one CTA at a time,
//! warps round-robin one instruction each, honouring barriers), which measures the
//! record-producing path the timing model consumes.
//!
//! `cargo bench -p sim --bench emu_rate [-- [--size test|bench] [--stream] [NAME ...]]`

use sim::emu::Emulator;
use sim::inst::{Family, OpClass, WarpInst};
use sim::workloads::{self, Size};
use sim::{DevPtr, Gpu, Launch, SimError, Step};
use std::time::{Duration, Instant};

/// The emulator with the time spent in launches accumulated.
struct Timed {
    emu: Emulator,
    in_launch: Duration,
    cpu_ns: u64,
    stream: bool,
}

/// Runs a launch through the KernelStream interface: CTAs in order, warps round-robin.
fn run_stream(emu: &mut Emulator, launch: &Launch) -> Result<(), SimError> {
    let mut s = emu.stream(launch)?;
    let info = s.info().clone();
    let nw = info.warps_per_cta();
    let mut rec = WarpInst::new(0, Family::Int, OpClass::Nop, 0);
    for cta in 0..info.num_ctas() {
        s.begin_cta(cta, 0, 0)?;
        let mut done = vec![false; nw as usize];
        let mut waiting = vec![false; nw as usize];
        while done.iter().any(|d| !d) {
            for w in 0..nw as usize {
                if done[w] || waiting[w] {
                    continue;
                }
                match s.next_inst(cta, w as u32, 0, &mut rec)? {
                    Step::Done => done[w] = true,
                    Step::Inst if rec.op == OpClass::Barrier => waiting[w] = true,
                    Step::Inst => {}
                }
            }
            // Every live warp has reached the barrier: it has been released.
            if (0..nw as usize).all(|w| done[w] || waiting[w]) {
                waiting.iter_mut().for_each(|x| *x = false);
            }
        }
        s.end_cta(cta)?;
    }
    Ok(())
}

/// This thread's on-CPU time in nanoseconds, if the kernel exposes it.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

impl Gpu for Timed {
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
        let c0 = thread_cpu_ns();
        let t = Instant::now();
        let r = if self.stream {
            run_stream(&mut self.emu, launch)
        } else {
            self.emu.launch(launch)
        };
        let wall = t.elapsed();
        self.in_launch += wall;
        self.cpu_ns += match (c0, thread_cpu_ns()) {
            (Some(a), Some(b)) => b - a,
            _ => wall.as_nanos() as u64,
        };
        r
    }
}

fn main() {
    let mut size = Size::Bench;
    let mut names: Vec<String> = Vec::new();
    let mut stream = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--size" => {
                let v = args.next().unwrap_or_default();
                size = v.parse().unwrap_or_else(|e| {
                    eprintln!("{e}");
                    std::process::exit(2)
                });
            }
            "--bench" => {}
            "--stream" => stream = true,
            _ if a.starts_with("--") => {}
            _ => names.push(a),
        }
    }
    let list: Vec<_> = workloads::all()
        .into_iter()
        .filter(|w| names.is_empty() || names.iter().any(|n| n == w.info().name))
        .collect();
    if list.is_empty() {
        println!("emu_rate: no workloads registered or matched; nothing to measure");
        return;
    }
    println!(
        "functional emulation rate, size {size}, 1 thread, {}",
        if stream {
            "KernelStream path (records)"
        } else {
            "Gpu::launch path"
        }
    );
    println!(
        "{:<16} {:>14} {:>9} {:>9} {:>12} {:>12}",
        "workload", "warp insts", "wall s", "cpu s", "M/s (wall)", "M/s (cpu)"
    );
    let (mut total_n, mut total_t, mut total_c) = (0u64, 0.0f64, 0.0f64);
    for w in list {
        let name = w.info().name;
        let mut g = Timed {
            emu: Emulator::new(),
            in_launch: Duration::ZERO,
            cpu_ns: 0,
            stream,
        };
        match w.run(size, &mut g, false) {
            Ok(_) => {
                let n = g.emu.warp_insts();
                let t = g.in_launch.as_secs_f64();
                let c = g.cpu_ns as f64 * 1e-9;
                total_n += n;
                total_t += t;
                total_c += c;
                println!(
                    "{name:<16} {n:>14} {t:>9.3} {c:>9.3} {:>12.2} {:>12.2}",
                    n as f64 / t.max(1e-9) / 1e6,
                    n as f64 / c.max(1e-9) / 1e6
                );
            }
            Err(e) => println!("{name:<16} error: {e}"),
        }
    }
    println!(
        "{:<16} {total_n:>14} {total_t:>9.3} {total_c:>9.3} {:>12.2} {:>12.2}",
        "TOTAL",
        total_n as f64 / total_t.max(1e-9) / 1e6,
        total_n as f64 / total_c.max(1e-9) / 1e6
    );
}
