"""estimate and compare: DataFrame shapes and units, STV against NTV, determinism, the CLI's
Activity for the same launches; sram and breakeven."""

import subprocess

import numpy as np
import pytest

import gpuenergy
from conftest import (
    EXAMPLE_PTX,
    PROGRAM_PTX,
    ROOT,
    gpuenergy_binary,
    random_graph,
    run_bfs,
    splitmix64_unit,
)

pd = pytest.importorskip("pandas")

#: Columns of the estimate CSV: quantities carry their unit in the name.
ESTIMATE_UNITS = {
    "area_mm2": "mm2",
    "dynamic_mj": "mJ",
    "leakage_mj": "mJ",
    "gating_overhead_mj": "mJ",
    "leakage_mw": "mW",
    "avg_dynamic_mw": "mW",
    "avg_leakage_mw": "mW",
    "runtime_s": "s",
}


def bfs_program(dev):
    row, col = random_graph(400, 3, seed=11)
    run_bfs(dev, row, col)


def test_estimate_frame_shape_and_units():
    dev = gpuenergy.Device()
    bfs_program(dev)
    run = dev.finish()
    est = gpuenergy.estimate(run, tech="finfet7", op="stv")
    df = est.to_pandas()
    nodes = []

    def walk(n):
        nodes.append(n)
        for c in n["children"]:
            walk(c)

    walk(est.tree)
    assert len(df) == len(nodes)
    assert df["component"].iloc[0] == "chip"
    for col in ESTIMATE_UNITS:
        assert col in df.columns and pd.api.types.is_float_dtype(df[col]), col
    # the rest of the numeric columns are counts
    numeric = {c for c in df.select_dtypes("number").columns if df[c].notna().any()}
    counts = {"depth", "instances", "cycles"}
    units = ("_mm2", "_mj", "_mw", "_s", "_v", "_k", "_mhz")
    assert all(c in counts or c.endswith(units) for c in numeric), numeric
    chip = df.iloc[0]
    t = est.total
    total_mj = chip["dynamic_mj"] + chip["leakage_mj"] + chip["gating_overhead_mj"]
    assert total_mj / 1e3 == pytest.approx(t["energy_j"], rel=1e-5)
    assert chip["area_mm2"] / 1e6 == pytest.approx(t["area_m2"], rel=1e-5)
    assert t["cycles"] == run.cycles
    assert est.tree["name"] == "chip"


def test_stv_against_ntv():
    runs = {}
    for op in ("stv", "ntv"):
        dev = gpuenergy.Device(op=op)
        bfs_program(dev)
        runs[op] = gpuenergy.estimate(dev.finish()).total
    # the same cycles, a slower clock and less energy at the lower supply
    assert runs["stv"]["cycles"] == runs["ntv"]["cycles"]
    assert runs["ntv"]["runtime_s"] > runs["stv"]["runtime_s"]
    assert runs["ntv"]["dynamic_j"] < runs["stv"]["dynamic_j"]


def test_compare_frame():
    c = gpuenergy.compare(bfs_program, techniques=["warped-gates", "conv-pg"], tech="finfet7")
    df = c.to_pandas()
    assert c.baseline == "none" and c.variants == ["warped-gates", "conv-pg"]
    per_run = df[df["workload"] == "python"]
    assert list(per_run["variant"]) == ["none", "warped-gates", "conv-pg"]
    for col in ("cycles", "runtime_s", "perf_overhead", "energy_j", "energy_change", "edp_js"):
        assert col in df.columns, col
    base = per_run.iloc[0]
    assert base["perf_overhead"] == 0 and base["energy_change"] == 0
    wg = per_run.iloc[1]
    assert wg["energy_change"] == pytest.approx(wg["energy_j"] / base["energy_j"] - 1, rel=1e-9)
    d = c.to_dict()
    assert d["baseline"] == "none"


def test_compare_of_a_builtin_workload_and_estimate_by_name():
    est = gpuenergy.estimate("bfs", size="test")
    assert est.total["energy_j"] > 0
    assert "bfs" in gpuenergy.workloads()


def test_determinism():
    def once():
        dev = gpuenergy.Device(technique="warped-gates")
        bfs_program(dev)
        run = dev.finish()
        return run.to_json(), gpuenergy.estimate(run).to_json()

    a, b = once(), once()
    assert a[0] == b[0]
    assert a[1] == b[1]
    c1 = gpuenergy.compare(bfs_program, techniques=["warped-gates"]).to_json()
    c2 = gpuenergy.compare(bfs_program, techniques=["warped-gates"]).to_json()
    assert c1 == c2


def test_activity_is_the_clis_for_the_same_launches(tmp_path):
    """tests/data/programs/saxpy.toml through `gpuenergy simulate --program` and the same
    allocations, copies and launch from Python give byte-identical Activity records."""
    exe = gpuenergy_binary()
    if exe is None:
        import os

        if os.environ.get("CI"):
            pytest.fail("no gpuenergy binary (build it with cargo build --release)")
        pytest.skip("no gpuenergy binary")
    out = tmp_path / "cli.json"
    subprocess.run(
        [str(exe), "simulate", "--preset", "gtx1080ti", "--program",
         str(ROOT / "tests/data/programs/saxpy.toml"), "--out", str(out), "--quiet"],
        check=True, capture_output=True,
    )
    n = 16384
    x = (-1.0 + 2.0 * splitmix64_unit(7, n)).astype(np.float32)
    y = np.arange(n, dtype=np.float64).astype(np.float32)
    dev = gpuenergy.Device(preset="gtx1080ti")
    mod = dev.load_ptx(PROGRAM_PTX)
    dx = dev.to_device(x)
    dy = dev.to_device(y)
    mod.saxpy((64,), (256,), (dy, dx, np.float32(2.0), 16384))
    np.testing.assert_allclose(dy.get(), 2.0 * x.astype(np.float64) + y, rtol=1e-6, atol=1e-6)
    assert dev.finish().to_json() == out.read_text()


def test_sram_and_breakeven():
    sizes = [16384, 65536, 262144]
    rows = [gpuenergy.sram(size=s, block=64, tech="finfet7", op="stv") for s in sizes]
    areas = [r["area_mm2"] for r in rows]
    assert areas == sorted(areas) and areas[0] < areas[-1]
    with pytest.raises(gpuenergy.GpuEnergyError, match="unknown unit"):
        gpuenergy.sram(size="64XB", block=64)
    b = gpuenergy.breakeven(tech="finfet7", op="ntv")
    assert "point" in b
    with pytest.raises(gpuenergy.GpuEnergyError, match="unexpected argument"):
        gpuenergy.breakeven(frobnicate=1)


def test_optimize_on_a_builtin_workload(tmp_path):
    d = gpuenergy.optimize(tech="finfet7", workload="hotspot", cache_dir=tmp_path)
    assert d["workloads"] == ["hotspot"]
    assert d["chosen_name"]
    assert d["run"]["node"] == "finfet7"
    with pytest.raises(gpuenergy.GpuEnergyError, match="unknown workload 'hotspo'"):
        gpuenergy.optimize(tech="finfet7", workload="hotspo", cache_dir=tmp_path)


def test_estimate_keeps_the_devices_node():
    dev = gpuenergy.Device(tech="planar45")
    bfs_program(dev)
    run = dev.finish()
    assert gpuenergy.estimate(run).tech.startswith("planar45")
    # another temperature of the same node unless another node is named
    hot = gpuenergy.estimate(run, temperature_k=380)
    assert hot.tech.startswith("planar45")
    assert hot.to_dict()["temperature_k"] == 380
    assert gpuenergy.estimate(run, tech="finfet7").tech.startswith("finfet7")
