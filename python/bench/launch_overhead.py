"""Overhead of a launch from Python against the same launch from the command line.

The kernel is `mix_poly` of examples/python/kernels.ptx with 40 integer rounds and 8
polynomial terms over 114,688 threads: 1,039,360 warp instructions on the gtx1080ti preset.
The command line runs it as `gpuenergy simulate --ptx ... --format json`, whose `wall_s` is the
simulation's own time (after start-up and parsing); Python times the `k(grid, block, args)`
call alone, on a device made and given zeroed buffers beforehand (as `--param buf:N` gives).
Both are medians of RUNS runs, taken alternately; the ratio is Python over the command line.

    python python/bench/launch_overhead.py [RUNS] [path/to/gpuenergy]
"""

import json
import pathlib
import statistics
import subprocess
import sys
import time

import numpy as np

import gpuenergy

ROOT = pathlib.Path(__file__).resolve().parents[2]
PTX = ROOT / "examples" / "python" / "kernels.ptx"
N = 448 * 256
ROUNDS, TERMS = 40, 8


def cli(exe):
    out = subprocess.run(
        [str(exe), "simulate", "--preset", "gtx1080ti", "--ptx", str(PTX), "--kernel", "mix_poly",
         "--grid", "448", "--block", "256", "--param", f"buf:{N * 4}", "--param", f"buf:{N * 4}",
         "--param", f"u32:{ROUNDS}", "--param", f"u32:{TERMS}", "--param", f"u32:{N}",
         "--quiet", "--format", "json"],
        check=True, capture_output=True, text=True,
    ).stdout
    d = json.loads(out)
    return d["wall_s"], d["warp_instructions"], d["cycles"]


def python():
    dev = gpuenergy.Device(preset="gtx1080ti", progress=False)
    k = dev.load_ptx(PTX)["mix_poly"]
    out, x = dev.empty(N, np.float32), dev.empty(N, np.float32)
    t = time.perf_counter()
    k((448,), (256,), (out, x, np.uint32(ROUNDS), np.uint32(TERMS), np.uint32(N)))
    wall = time.perf_counter() - t
    run = dev.finish()
    return wall, run.warp_insts, run.cycles


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    exe = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "target" / "release" / "gpuenergy"
    c, p = [], []
    for _ in range(runs):
        c.append(cli(exe))
        p.append(python())
    assert {r[1:] for r in c} == {r[1:] for r in p}, (c[0], p[0])
    mc, mp = statistics.median(r[0] for r in c), statistics.median(r[0] for r in p)
    print(f"kernel: mix_poly, {c[0][1]} warp instructions, {c[0][2]} cycles (gtx1080ti)")
    print(f"command line (simulate wall_s): median {mc:.3f} s of {runs}: {' '.join(f'{r[0]:.3f}' for r in c)}")
    print(f"python (launch call):           median {mp:.3f} s of {runs}: {' '.join(f'{r[0]:.3f}' for r in p)}")
    print(f"python / command line: {mp / mc:.3f} ({(mp / mc - 1) * 100:+.1f} %)")


if __name__ == "__main__":
    main()
