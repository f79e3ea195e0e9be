"""estimate and compare: DataFrame shapes and units, STV against NTV, determinism, the CLI's
Activity for the same launches, comparisons on the reference-mode model against the CLI's,
the progress of an estimated host program; sram (one array and a batch) and breakeven."""

import subprocess

import numpy as np
import pytest

import gpuenergy
from conftest import (
    EXAMPLE_PTX,
    PROGRAM_PTX,
    ROOT,
    bfs_levels,
    random_graph,
    require_binary,
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
    exe = require_binary()
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


def cli_json(args):
    """`gpuenergy ARGS` (the binary the Rust tests built) as parsed JSON."""
    exe = require_binary()
    out = subprocess.run([str(exe), *args], check=True, capture_output=True, text=True)
    import json

    return json.loads(out.stdout)


def without_wall_time(d):
    """A reference-mode comparison's JSON without what differs between two runs of the same
    inputs: the wall-time rate of every run, and the command line (empty for a library call)."""
    import copy

    d = copy.deepcopy(d)
    d["run"].pop("command_line")
    for per in d["workloads"].values():
        for r in per.values():
            r.pop("thread_insts_per_s")
    return d


def test_compare_on_the_reference_model_is_the_clis():
    """A DWF comparison on a built-in workload: every run on the reference-mode model, the
    JSON the command line writes for the same arguments, and rows holding its numbers."""
    cli = cli_json(
        ["compare", "--preset", "gtx1080ti", "--tech", "finfet7", "--workload", "nw",
         "--technique", "dwf", "--format", "json", "--quiet"]
    )
    c = gpuenergy.compare("nw", techniques=["dwf"], preset="gtx1080ti", tech="finfet7")
    assert c.model == "reference-mode"
    assert (c.baseline, c.variants) == ("none", ["dwf"])
    d = c.to_dict()
    assert d["run"]["command_line"] == []
    assert d["run"]["activity_source"] == "reference"
    assert without_wall_time(d) == without_wall_time(cli)
    df = c.to_pandas()
    assert list(df["variant"]) == ["none", "dwf"] and list(df["workload"]) == ["nw", "nw"]
    for _, row in df.iterrows():
        r = cli["workloads"]["nw"][row["variant"]]
        assert row["mode"] == r["mode"]
        for k in ("cycles", "speedup", "simd_efficiency"):
            assert row[k] == r[k], k
        for k in ("warp_issues", "thread_insts"):
            assert row[k] == r["stats"][k], k
        for k, v in r["energy"].items():
            assert row[k] == v, k
        # the area columns of the cycle-level rows (the baseline's area is its row's)
        for k in ("area_mm2", "added_area_mm2", "added_area_chip_share", "added_area_per_sm_mm2",
                  "added_area_sm_share", "structures_mm2", "replaced_mm2", "added_leakage_w"):
            assert row[k] == r["area"][k], k
        h = r.get("dwf_hardware")
        for k in ("area_per_core_mm2", "area_chip_mm2", "die_share", "dynamic_j", "leakage_j"):
            if h is None:
                assert pd.isna(row["dwf_" + k]), k
            else:
                assert row["dwf_" + k] == h[k], k
    # units in the names: every float column but the ratios names its unit
    ratios = {"speedup", "simd_efficiency", "energy_change", "edp_change",
              "added_area_chip_share", "added_area_sm_share", "dwf_die_share"}
    for col in df.select_dtypes("float").columns:
        assert col in ratios or col.endswith(("_s", "_j", "_js", "_mm2", "_w")), col
    assert "reference-mode model" in c.table()


def test_compare_on_the_reference_model_runs_a_host_program():
    """A host program runs on the reference-mode model as a built-in workload does: its BFS
    gives numpy's levels under every mode, and two comparisons give the same rows."""
    row, col = random_graph(400, 3, seed=11)
    ref = bfs_levels(row, col, 0)

    def prog(dev):
        levels, _ = run_bfs(dev, row, col)
        np.testing.assert_array_equal(levels, ref)

    c = gpuenergy.compare(prog, techniques=["dwf", "mimd"], baseline="pdom")
    assert c.model == "reference-mode"
    df = c.to_pandas()
    assert list(df["variant"]) == ["pdom", "dwf", "mimd"]
    assert list(df["mode"]) == ["pdom", "dwf", "mimd"]
    assert set(df["workload"]) == {"python"}
    assert (df["cycles"] > 0).all() and (df["energy_j"] > 0).all()
    assert df["speedup"].iloc[0] == 1.0
    d = c.to_dict()
    assert d["run"]["workloads"] == ["python"]
    assert d["workloads"]["python"]["dwf"]["dwf_hardware"]["area_chip_mm2"] > 0
    again = gpuenergy.compare(prog, techniques=["dwf", "mimd"], baseline="pdom")
    assert again.to_csv() == c.to_csv()


def mix_poly_program(dev):
    """One launch long enough for the progress hook to fire (the launch of
    test_device.test_launch_releases_the_gil_and_reports_progress)."""
    mod = dev.load_ptx(EXAMPLE_PTX)
    n = 28 * 2048
    x, out = dev.to_device(np.ones(n, np.float32)), dev.empty(n, np.float32)
    mod.mix_poly((n // 256,), (256,), (out, x, np.int32(400), np.int32(40), np.int32(n)))


class FakeBar:
    """Stands for tqdm: records what the progress display is told."""

    made = []

    def __init__(self, desc, total, unit):
        self.desc, self.unit, self.n, self.closed = desc, unit, 0, False
        FakeBar.made.append(self)

    def update(self, n):
        self.n += n

    def set_postfix_str(self, s):
        self.postfix = s

    def close(self):
        self.closed = True


def test_estimate_of_a_host_program_shows_progress(monkeypatch, capsys):
    import gpuenergy._progress as gp

    monkeypatch.setattr(gp, "_bar", FakeBar)
    monkeypatch.setattr(gp.LaunchProgress, "DELAY_S", 0.0)
    FakeBar.made.clear()
    shown = gpuenergy.estimate(mix_poly_program, progress=True)
    assert len(FakeBar.made) == 1, "no progress bar during a long host program"
    bar = FakeBar.made[0]
    assert bar.desc == "estimate python" and bar.unit == "cycle" and bar.closed
    assert 0 < bar.n <= shown.total["cycles"]
    assert "warp insts" in bar.postfix
    # silent when asked, and the same estimate either way
    FakeBar.made.clear()
    quiet = gpuenergy.estimate(mix_poly_program, progress=False)
    assert FakeBar.made == []
    assert capsys.readouterr().err == ""
    assert quiet.to_json() == shown.to_json()


def test_estimate_of_a_host_program_is_its_devices():
    """The hook's calls count the whole run (the launches before the running one included),
    and the estimate of a host program is that of a Device running the same calls."""
    from gpuenergy import _native

    calls = []

    def two(dev):
        mix_poly_program(dev)
        mix_poly_program(dev)

    est = _native.estimate(
        gpuenergy._program(two), None, None, None, None, None, None, None, None, [], None,
        "test", "python", lambda c, i: calls.append((c, i)),
    )
    assert calls, "no progress call during a long host program"
    assert [c for c, _ in calls] == sorted(c for c, _ in calls)
    assert calls[-1][0] <= est.total["cycles"]
    assert calls[-1][1] <= est.total["warp_instructions"]
    dev = gpuenergy.Device()
    two(dev)
    assert gpuenergy.estimate(dev.finish()).to_json() == est.to_json()


SRAM_ROWS = [
    dict(tech_um=0.045, size_bytes=65536, block_bytes=64, rw_ports=1, read_ports=0,
         write_ports=0, banks=1, cell_type="itrs-hp"),
    dict(tech_um=0.032, size_bytes=262144, block_bytes=64, rw_ports=1, read_ports=0,
         write_ports=0, banks=4, cell_type="itrs-hp"),
]


def test_sram_batch_is_the_clis(tmp_path):
    cols = list(SRAM_ROWS[0])
    path = tmp_path / "batch.csv"
    path.write_text(
        ",".join(cols) + "\n" + "".join(",".join(str(r[c]) for c in cols) + "\n" for r in SRAM_ROWS)
    )
    df = gpuenergy.sram_batch(SRAM_ROWS)
    from_file = gpuenergy.sram_batch(path)
    assert len(df) == 2
    outputs = ["access_ns", "cycle_ns", "read_nJ", "write_nJ", "leak_bank_mW",
               "gate_leak_bank_mW", "height_mm", "width_mm"]
    assert list(df.columns[: len(cols) + len(outputs) + 1]) == cols + outputs + ["model_seconds"]
    for c in cols:
        assert list(df[c]) == [r[c] for r in SRAM_ROWS], c
    stable = [c for c in df.columns if c != "model_seconds"]
    pd.testing.assert_frame_equal(df[stable], from_file[stable])
    assert (df[outputs] > 0).all().all()
    exe = require_binary()
    out = tmp_path / "cli.csv"
    subprocess.run([str(exe), "sram", "--batch", str(path), "--out", str(out)], check=True,
                   capture_output=True)
    cli = pd.read_csv(out)
    assert list(cli.columns) == list(df.columns)
    pd.testing.assert_frame_equal(df[stable], cli[stable])


def test_estimate_of_a_host_program_is_the_clis_of_the_same_program():
    """tests/data/programs/saxpy.toml through `gpuenergy estimate --program` and the same
    calls as a host program give the same report: every figure, and `run` but for what only
    the command line knows (its command line and where the configuration came from)."""
    cli = cli_json(
        ["estimate", "--program", str(ROOT / "tests/data/programs/saxpy.toml"), "--preset",
         "gtx1080ti", "--tech", "finfet7", "--format", "json", "--quiet"]
    )

    def saxpy(dev):
        n = 16384
        x = (-1.0 + 2.0 * splitmix64_unit(7, n)).astype(np.float32)
        y = np.arange(n, dtype=np.float64).astype(np.float32)
        mod = dev.load_ptx(PROGRAM_PTX)
        dx, dy = dev.to_device(x), dev.to_device(y)
        mod.saxpy((64,), (256,), (dy, dx, np.float32(2.0), 16384))
        dy.get()

    py = gpuenergy.estimate(saxpy, preset="gtx1080ti", tech="finfet7", name="saxpy-prog").to_dict()
    for d in (py, cli):
        d["run"].pop("command_line")
        d["run"].pop("config_source")
    assert py["run"]["size"] == "program"
    assert py == cli


def saxpy_loop(dev):
    """24 launches of one saxpy: one cluster for kernel sampling."""
    n = 16384
    mod = dev.load_ptx(PROGRAM_PTX)
    dx = dev.to_device(splitmix64_unit(3, n).astype(np.float32))
    dy = dev.to_device(np.zeros(n, dtype=np.float32))
    for _ in range(24):
        mod.saxpy((64,), (256,), (dy, dx, np.float32(0.5), n))
    dy.get()


def test_sampling_in_estimate_and_compare():
    full = gpuenergy.estimate(saxpy_loop, name="loop").to_dict()["workloads"][0]
    d = gpuenergy.estimate(saxpy_loop, name="loop", sample="kernels").to_dict()
    w = d["workloads"][0]
    s = w["sample"]
    assert "sample" not in full
    assert s["method"] == "kernels" and s["clusters"] == 1 and s["launches"] == 24
    assert s["timed_launches"] < 24
    assert d["activity_source"] == "sim-sampled"
    assert w["warp_instructions"] == full["warp_instructions"]
    assert abs(w["cycles"] - full["cycles"]) / full["cycles"] <= s["estimated_error"]["cycles"] + 1e-9
    # auto with a target: kept or fallen back to every launch, and said which
    a = gpuenergy.estimate(saxpy_loop, name="loop", sample="auto", sample_error=0.5)
    assert a.to_dict()["workloads"][0]["sample"]["method"] == "kernels"
    c = gpuenergy.compare(saxpy_loop, "two-level", name="loop", sample="kernels").to_dict()
    base = c["baseline_runs"]["loop"]["sample"]
    var = c["variants"][0]["per_workload"]["loop"]["sample"]
    assert base["method"] == "kernels"
    assert (base["launches"], base["timed_launches"]) == (var["launches"], var["timed_launches"])


def test_sampling_refusals():
    with pytest.raises(gpuenergy.GpuEnergyError, match="allowed: off, kernels, auto"):
        gpuenergy.estimate("hotspot", sample="waves")
    with pytest.raises(gpuenergy.GpuEnergyError, match='sample="auto"'):
        gpuenergy.estimate("hotspot", sample="kernels", sample_error="2%")
    with pytest.raises(gpuenergy.GpuEnergyError, match="between 0 and 100"):
        gpuenergy.estimate("hotspot", sample="auto", sample_error=1.5)
    dev = gpuenergy.Device()
    saxpy_loop(dev)
    with pytest.raises(gpuenergy.GpuEnergyError, match='sample="off"'):
        gpuenergy.estimate(dev.finish(), sample="kernels")
    with pytest.raises(gpuenergy.GpuEnergyError, match='sample="off"'):
        gpuenergy.compare("hotspot", "dwf", sample="kernels")
