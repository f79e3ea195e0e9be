"""Shared paths and helpers of the package's tests: the repository's kernels (their PTX is
committed beside their CUDA sources, so no test needs nvcc) and small reference programs."""

import os
import pathlib

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE_PTX = ROOT / "examples" / "python" / "kernels.ptx"
PROGRAM_PTX = ROOT / "tests" / "data" / "programs" / "kernels.ptx"


@pytest.fixture(autouse=True)
def _quiet():
    import gpuenergy

    gpuenergy.set_progress(False)
    yield


def random_graph(n, degree, seed):
    """A CSR graph of `n` vertices, each with `degree` random out-edges (numpy generator)."""
    rng = np.random.default_rng(seed)
    col = rng.integers(0, n, size=n * degree, dtype=np.int32)
    row = np.arange(0, n * degree + 1, degree, dtype=np.int32)
    return row, col


def bfs_levels(row, col, src):
    """Reference BFS levels (-1 unreached)."""
    n = len(row) - 1
    level = np.full(n, -1, dtype=np.int32)
    level[src] = 0
    frontier = [src]
    cur = 0
    while frontier:
        nxt = []
        for v in frontier:
            for u in col[row[v] : row[v + 1]]:
                if level[u] < 0:
                    level[u] = cur + 1
                    nxt.append(u)
        frontier = nxt
        cur += 1
    return level


def run_bfs(dev, row, col, src=0, mod=None):
    """BFS on the device with a host loop: one launch per level until no vertex changes, with
    `mod`'s bfs_step (default: the committed PTX's). Returns (levels, launches)."""
    mod = mod or dev.load_ptx(EXAMPLE_PTX)
    n = len(row) - 1
    level = np.full(n, -1, dtype=np.int32)
    level[src] = 0
    d_row, d_col = dev.to_device(row), dev.to_device(col)
    d_level = dev.to_device(level)
    d_changed = dev.empty(1, np.int32)
    cur = 0
    launches = 0
    while True:
        d_changed.set(np.zeros(1, np.int32))
        mod.bfs_step(
            ((n + 127) // 128,),
            (128,),
            (d_row, d_col, d_level, d_changed, np.int32(cur), np.int32(n)),
        )
        launches += 1
        if d_changed.get()[0] == 0:
            break
        cur += 1
    return d_level.get(), launches


def splitmix64_unit(seed, n):
    """The program files' `random` init for floats: SplitMix64 from `seed`, (u >> 11)·2^-53."""
    mask = (1 << 64) - 1
    state = seed
    out = np.empty(n, dtype=np.float64)
    for i in range(n):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        out[i] = (z >> 11) * (1.0 / (1 << 53))
    return out


def gpuenergy_binary():
    """The command-line binary built beside the package (`cargo build --release`), or None."""
    env = os.environ.get("GPUENERGY_BIN")
    if env:
        return pathlib.Path(env)
    p = ROOT / "target" / "release" / "gpuenergy"
    return p if p.exists() else None


def require_binary():
    """The command-line binary; the test fails without it under CI, else is skipped."""
    exe = gpuenergy_binary()
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("no gpuenergy binary (build it with cargo build --release)")
        pytest.skip("no gpuenergy binary")
    return exe
