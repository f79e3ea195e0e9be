"""The device: kernel results against numpy, copies of every dtype, a host loop, lookups."""

import threading

import numpy as np
import pytest

import gpuenergy
from conftest import EXAMPLE_PTX, PROGRAM_PTX, bfs_levels, random_graph, run_bfs


def test_saxpy_matches_numpy():
    dev = gpuenergy.Device(preset="gtx1080ti")
    mod = dev.load_ptx(PROGRAM_PTX)
    n = 5000
    rng = np.random.default_rng(1)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    dx, dy = dev.to_device(x), dev.to_device(y)
    mod["saxpy"](((n + 255) // 256,), (256,), (dy, dx, np.float32(2.5), np.int32(n)))
    # the kernel computes a fused multiply-add (fma.rn.f32): a·x + y rounded once
    want = (2.5 * x.astype(np.float64) + y).astype(np.float32)
    np.testing.assert_allclose(dy.get(), want, rtol=1e-6, atol=1e-7)
    run = dev.finish()
    assert run.launches == 1
    assert run.cycles > 0
    assert [k["name"] for k in run.kernels] == ["saxpy"]


def test_mix_poly_matches_numpy():
    dev = gpuenergy.Device()
    mod = dev.load_ptx(EXAMPLE_PTX)
    n, rounds, terms = 1000, 5, 6
    x = np.linspace(-1, 1, n, dtype=np.float32)
    dx, dout = dev.to_device(x), dev.empty(n, np.float32)
    mod.mix_poly((8,), (128,), (dout, dx, np.int32(rounds), np.int32(terms), np.int32(n)))
    h = np.arange(n, dtype=np.uint32) * np.uint32(2654435761)
    for r in range(rounds):
        h = (h ^ (h >> np.uint32(13))) * np.uint32(1274126177) + np.uint32(r)
    acc = np.zeros(n, np.float32)
    for t in range(terms):
        acc = acc * x + np.float32(1.0) / np.float32(t + 1)
    want = acc + (h & np.uint32(1023)).astype(np.float32) * np.float32(0.0009765625)
    np.testing.assert_allclose(dout.get(), want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(
    "dtype",
    [np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.uint64, np.int64,
     np.float16, np.float32, np.float64],
)
def test_copies_round_trip_every_dtype(dtype):
    dev = gpuenergy.Device()
    a = (np.arange(24).reshape(2, 3, 4) * 3 - 7).astype(dtype)
    d = dev.to_device(a)
    assert d.shape == (2, 3, 4) and d.dtype == np.dtype(dtype) and d.nbytes == a.nbytes
    np.testing.assert_array_equal(d.get(), a)
    e = dev.empty((5, 2), dtype)
    np.testing.assert_array_equal(e.get(), np.zeros((5, 2), dtype))


def test_bfs_host_loop_matches_reference():
    row, col = random_graph(600, 3, seed=5)
    dev = gpuenergy.Device()
    levels, launches = run_bfs(dev, row, col)
    want = bfs_levels(row, col, 0)
    np.testing.assert_array_equal(levels, want)
    # one launch per level: the one from the deepest level finds nothing to do
    assert launches == want.max() + 1
    run = dev.finish()
    assert run.launches == launches
    assert run.kernels[0]["launches"] == launches


def test_module_lookups_and_text_source():
    text = EXAMPLE_PTX.read_text()
    mod = gpuenergy.load_ptx(text)
    assert set(mod.kernels) == {"bfs_step", "mix_poly"}
    assert "bfs_step" in mod
    k = mod.mix_poly
    assert k.name == "mix_poly"
    assert [t for _, t in k.params] == [".u64", ".u64", ".u32", ".u32", ".u32"]
    # an unbound module's kernel launches on the device of its array arguments
    dev = gpuenergy.Device()
    x = dev.to_device(np.ones(64, np.float32))
    out = dev.empty(64, np.float32)
    k((1,), (64,), (out, x, np.int32(1), np.int32(2), np.int32(64)))
    assert dev.launches == 1
    assert np.all(np.isfinite(out.get()))


def test_launch_releases_the_gil_and_reports_progress():
    dev = gpuenergy.Device()
    mod = dev.load_ptx(EXAMPLE_PTX)
    n = 28 * 2048
    x, out = dev.to_device(np.ones(n, np.float32)), dev.empty(n, np.float32)
    calls = []
    ticks = [0]
    busy = []
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            ticks[0] += 1
            if calls and not busy:
                # the launch holds the device: another call is refused, not deadlocked
                try:
                    dev.empty(4)
                    busy.append(None)
                except gpuenergy.GpuEnergyError as e:
                    busy.append(str(e))

    t = threading.Thread(target=spin)
    t.start()
    try:
        dev._dev.launch(
            mod.mix_poly._k,
            (n // 256,),
            (256,),
            [("ptr", out.ptr), ("ptr", x.ptr), ("i32", 400), ("i32", 40), ("i32", n)],
            0,
            lambda c, i: calls.append((c, i, ticks[0])),
        )
    finally:
        stop.set()
        t.join()
    assert calls, "no progress call during a long launch"
    cycles = [c for c, _, _ in calls]
    assert cycles == sorted(cycles)
    # the other Python thread ran while the simulation did
    assert calls[-1][2] > 0
    assert busy and "running a call in another thread" in busy[0]


def test_compile_cuda_gives_the_committed_ptx_kernels(tmp_path, monkeypatch):
    """kernels.cu through nvcc (the `nvidia-cuda-nvcc` package; required under CI) runs as its
    committed PTX does."""
    import os

    from conftest import ROOT

    monkeypatch.setenv("GPUENERGY_CACHE_DIR", str(tmp_path))
    src = ROOT / "examples" / "python" / "kernels.cu"
    dev = gpuenergy.Device()
    try:
        mod = dev.compile_cuda(src)
    except gpuenergy.GpuEnergyError as e:
        if "nvcc" in str(e) and not os.environ.get("CI"):
            pytest.skip(f"no nvcc: {e}")
        raise
    assert set(mod.kernels) == {"bfs_step", "mix_poly"}
    # the source text compiles the same (cached by content)
    assert set(dev.compile_cuda(src.read_text()).kernels) == {"bfs_step", "mix_poly"}
    row, col = random_graph(300, 3, seed=2)
    levels, _ = run_bfs(dev, row, col, mod=mod)
    np.testing.assert_array_equal(levels, bfs_levels(row, col, 0))
