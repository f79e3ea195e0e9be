//! Renderers of `gpuenergy run`: the text of a functional run on the SIMT emulator (launches,
//! dynamic warp instructions, wall time, emulation rate, the reference check and the buffers
//! written back).
//!
//! The emulation rate counts only the time inside kernel launches, so host-side input
//! generation and checking do not dilute it.

use sim::ptx::Kernel;
use sim::workloads::Size;
use std::fmt::Write;

/// The counts and timing lines shared by both kinds of run: `launches`, `warp_insts` executed,
/// `total_s` seconds of wall time of which `launch_s` inside kernel launches, and the rate
/// `warp_insts / launch_s` in millions per second (0 when no launch time was measured).
pub fn counts(launches: u64, warp_insts: u64, total_s: f64, launch_s: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "launches:          {launches}");
    let _ = writeln!(s, "warp instructions: {warp_insts}");
    let _ = writeln!(
        s,
        "wall time:         {total_s:.3} s ({launch_s:.3} s in kernel launches)"
    );
    let rate = if launch_s > 0.0 {
        warp_insts as f64 / launch_s
    } else {
        0.0
    };
    let _ = writeln!(
        s,
        "emulation rate:    {:.2} M warp instructions/s",
        rate / 1e6
    );
    s
}

/// The text of a built-in workload's run: its name and size, [`counts`], and the reference
/// check as (passed, detail) when one was run.
pub fn workload(
    name: &str,
    size: Size,
    launches: u64,
    warp_insts: u64,
    total_s: f64,
    launch_s: f64,
    check: Option<(bool, &str)>,
) -> String {
    let mut s = format!("workload:          {name} ({size})\n");
    s.push_str(&counts(launches, warp_insts, total_s, launch_s));
    if let Some((passed, detail)) = check {
        let _ = writeln!(
            s,
            "check:             {} ({})",
            if passed { "passed" } else { "FAILED" },
            detail
        );
    }
    s
}

/// The text of a user program's run: its name and file, [`counts`], and its checks as
/// (passed, detail) when they were run.
pub fn program(
    name: &str,
    file: &str,
    launches: u64,
    warp_insts: u64,
    total_s: f64,
    launch_s: f64,
    check: Option<(bool, &str)>,
) -> String {
    let mut s = format!("program:           {name} ({file})\n");
    s.push_str(&counts(launches, warp_insts, total_s, launch_s));
    if let Some((passed, detail)) = check {
        let _ = writeln!(
            s,
            "check:             {} ({})",
            if passed { "passed" } else { "FAILED" },
            detail
        );
    }
    s
}

/// The text of one user kernel's launch: the kernel's static figures (instructions, registers
/// per thread, static shared memory) and [`counts`] of its single launch of `launch_s` seconds.
pub fn user_kernel(kernel: &Kernel, warp_insts: u64, launch_s: f64) -> String {
    let mut s = format!(
        "kernel:            {} ({} instructions, {} registers/thread, {} B static shared)\n",
        kernel.name,
        kernel.len(),
        kernel.regs_per_thread(),
        kernel.static_shared_bytes()
    );
    s.push_str(&counts(1, warp_insts, launch_s, launch_s));
    s
}

/// The line of a buffer written back: its index, its size in bytes and the file.
pub fn dump(index: usize, bytes: u64, file: &std::path::Path) -> String {
    format!(
        "buffer {index}:          {bytes} bytes written to {}\n",
        file.display()
    )
}
