"""BFS with a host loop on finfet7 at STV and NTV.

The host program launches one BFS level at a time and reads a device flag back after each
launch, stopping when a level labels no new vertex: a loop a program file cannot express.
The same program runs on a GTX 1080 Ti-like device at the super-threshold (stv, 0.45 V) and
near-threshold (ntv, 0.30 V) points of finfet7; the cycles are the same, the clock, energy
and energy-delay product are not.

    python examples/python/bfs_stv_ntv.py
"""

import pathlib

import numpy as np

import gpuenergy

PTX = pathlib.Path(__file__).with_name("kernels.ptx")


def graph(n, degree, seed):
    """A CSR graph of n vertices with `degree` random out-edges each."""
    rng = np.random.default_rng(seed)
    col = rng.integers(0, n, size=n * degree, dtype=np.int32)
    row = np.arange(0, n * degree + 1, degree, dtype=np.int32)
    return row, col


def bfs(dev, row, col, src=0):
    """Levels of every vertex from `src` (-1: unreached), one launch per level."""
    step = dev.load_ptx(PTX)["bfs_step"]
    n = len(row) - 1
    level = np.full(n, -1, dtype=np.int32)
    level[src] = 0
    d_row, d_col, d_level = dev.to_device(row), dev.to_device(col), dev.to_device(level)
    changed = dev.empty(1, np.int32)
    cur = 0
    while True:
        changed.set(np.zeros(1, np.int32))
        step(((n + 255) // 256,), (256,), (d_row, d_col, d_level, changed, np.int32(cur), np.int32(n)))
        if changed.get()[0] == 0:
            return d_level.get()
        cur += 1


def main():
    row, col = graph(20000, 4, seed=1)
    print(f"graph: {len(row) - 1} vertices, {len(col)} edges")
    rows = []
    for op in ("stv", "ntv"):
        dev = gpuenergy.Device(preset="gtx1080ti", tech="finfet7", op=op)
        levels = bfs(dev, row, col)
        run = dev.finish()
        t = gpuenergy.estimate(run).total
        rows.append((op, run.launches, levels.max(), run.cycles, t))
    print(f"{'op':4} {'launches':>8} {'depth':>5} {'cycles':>8} {'runtime us':>11} {'energy uJ':>10} {'avg W':>7} {'EDP J*s':>11}")
    for op, launches, depth, cycles, t in rows:
        print(
            f"{op:4} {launches:8d} {depth:5d} {cycles:8d} {t['runtime_s'] * 1e6:11.3f} "
            f"{t['energy_j'] * 1e6:10.3f} {t['average_power_w']:7.3f} {t['edp_js']:11.4e}"
        )
    stv, ntv = rows[0][4], rows[1][4]
    print(
        f"ntv against stv: runtime x{ntv['runtime_s'] / stv['runtime_s']:.2f}, "
        f"energy x{ntv['energy_j'] / stv['energy_j']:.3f}, EDP x{ntv['edp_js'] / stv['edp_js']:.3f}"
    )


if __name__ == "__main__":
    main()
