"""Error paths: each raises an exception whose message names the problem, as the command line
would."""

import numpy as np
import pytest

import gpuenergy
from conftest import EXAMPLE_PTX, PROGRAM_PTX


@pytest.fixture
def saxpy():
    dev = gpuenergy.Device()
    mod = dev.load_ptx(PROGRAM_PTX)
    x = dev.empty(256, np.float32)
    return dev, mod["saxpy"], x


def test_wrong_argument_count(saxpy):
    _, k, x = saxpy
    with pytest.raises(TypeError, match=r"kernel 'saxpy' takes 4 arguments .*; 3 given"):
        k((1,), (256,), (x, x, np.float32(1)))


def test_wrong_argument_type(saxpy):
    _, k, x = saxpy
    with pytest.raises(TypeError, match=r"argument 2: parameter 'saxpy_param_2' is declared \.f32"):
        k((1,), (256,), (x, x, np.int32(1), np.int32(256)))
    with pytest.raises(TypeError, match=r"argument 3: a device array passes a 64-bit device pointer"):
        k((1,), (256,), (x, x, np.float32(1), x))
    with pytest.raises(TypeError, match=r"argument 0: .*parameter 'saxpy_param_0' is declared \.u64"):
        k((1,), (256,), (np.float32(1), x, np.float32(1), np.int32(256)))
    with pytest.raises(TypeError, match="str is neither a device array nor a number"):
        k((1,), (256,), (x, x, "2", np.int32(256)))
    with pytest.raises(TypeError, match="cannot be passed to a kernel"):
        k((1,), (256,), (x, x, np.float16(1), np.int32(256)))


def test_value_out_of_range(saxpy):
    _, k, x = saxpy
    with pytest.raises(TypeError, match=r"-1 does not fit parameter 'saxpy_param_3'"):
        k((1,), (256,), (x, x, np.float32(1), np.uint64(2**63) if False else -1))


def test_out_of_bounds_access_names_the_access(saxpy):
    _, k, x = saxpy
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"kernel 'saxpy'.*out of bounds.*kernels\.ptx:\d+"):
        k((100,), (256,), (x, x, np.float32(1), np.int32(25600)))


def test_launch_shape_limits(saxpy):
    _, k, x = saxpy
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"block: x = 2048 is above the CUDA limit 1024"):
        k((1,), (2048,), (x, x, np.float32(1), np.int32(1)))
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"grid: 0 is not a positive"):
        k((0,), (32,), (x, x, np.float32(1), np.int32(1)))
    smooth = gpuenergy.load_ptx(PROGRAM_PTX)["smooth"]
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"maxntid"):
        smooth((1,), (512,), (x, x, np.int32(1)))


def test_unknown_names():
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"unknown technique 'warped-gate' \(expected one of .*warped-gates"):
        gpuenergy.Device(technique="warped-gate")
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"gtx9999.*gtx1080ti"):
        gpuenergy.Device(preset="gtx9999")
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"pg\.bet"):
        gpuenergy.Device(set={"pg.bet": -3})
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"unknown key|not a key|pg\.nosuchkey"):
        gpuenergy.Device(set={"pg.nosuchkey": 1})
    mod = gpuenergy.load_ptx(EXAMPLE_PTX)
    with pytest.raises(KeyError, match=r"no kernel 'bfs' in the sources; kernels: bfs_step, mix_poly"):
        mod["bfs"]
    with pytest.raises(AttributeError, match=r"no kernel 'bfs'"):
        mod.bfs
    with pytest.raises(TypeError, match=r"dtype bool cannot live on the device"):
        gpuenergy.Device().empty(4, bool)


def test_ptx_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "bad.ptx"
    bad.write_text(".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k(\n  .param .u64 p\n)\n{\n  frobnicate.u32 %r1;\n}\n")
    m = gpuenergy.load_ptx(bad)
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"bad\.ptx:8:3: kernel 'k' is refused: unknown or unsupported instruction 'frobnicate'"):
        m["k"]
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"cannot read PTX file .*missing\.ptx"):
        gpuenergy.load_ptx(tmp_path / "missing.ptx")


def test_finished_device_refuses_calls(saxpy):
    dev, k, x = saxpy
    dev.finish()
    with pytest.raises(gpuenergy.GpuEnergyError, match="finished"):
        dev.finish()
    with pytest.raises(gpuenergy.GpuEnergyError, match="finished"):
        x.get()


def test_host_program_exception_propagates():
    class Boom(RuntimeError):
        pass

    def prog(dev):
        dev.empty(4)
        raise Boom("host program failed on purpose")

    with pytest.raises(Boom, match="on purpose"):
        gpuenergy.estimate(prog)
    with pytest.raises(Boom, match="on purpose"):
        gpuenergy.compare(prog, techniques=["warped-gates"])


def saxpy_once(dev):
    k = dev.load_ptx(PROGRAM_PTX)["saxpy"]
    x = dev.to_device(np.ones(256, np.float32))
    k((1,), (256,), (x, x, np.float32(1), np.int32(256)))


def test_lent_device_closes_after_the_run():
    kept = []

    def prog(dev):
        kept.append(dev)
        saxpy_once(dev)

    gpuenergy.estimate(prog)
    with pytest.raises(gpuenergy.GpuEnergyError, match="lent to one run"):
        kept[0].empty(4)


def test_estimate_elsewhere_refuses_derived_timing():
    dev = gpuenergy.Device(technique="conv-pg", set={"pg.timing": "Physical"}, tech="finfet7")
    saxpy_once(dev)
    run = dev.finish()
    gpuenergy.estimate(run)  # at its own point
    gpuenergy.estimate(run, op="ntv")  # the same derived cycles at the other supply
    with pytest.raises(gpuenergy.GpuEnergyError, match="derives knobs from the technology point"):
        gpuenergy.estimate(run, tech="40nm")


def test_compare_on_the_reference_model_errors():
    """A host program's exception comes back from a reference-mode comparison as it was
    raised; a set key that the sweep also names is refused as the command line refuses it."""

    class Boom(RuntimeError):
        pass

    def prog(dev):
        saxpy_once(dev)
        raise Boom("host program failed on purpose")

    with pytest.raises(Boom, match="on purpose"):
        gpuenergy.compare(prog, techniques=["dwf"])
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"set pg\.bet and sweep pg\.bet name the same key"):
        gpuenergy.compare("nw", techniques=["coord-blackout"], set={"pg.bet": 9}, sweep="pg.bet=9,14")


def test_sram_batch_errors_name_the_row_and_key(tmp_path):
    good = dict(tech_um=0.045, size_bytes=65536, block_bytes=64, rw_ports=1, read_ports=0,
                write_ports=0, banks=1, cell_type="itrs-hp")
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"rows\[1\], key 'size_bytes': expected a non-negative integer, found 'lots'"):
        gpuenergy.sram_batch([good, dict(good, size_bytes="lots")])
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"rows\[0\], key 'tech_um': expected a positive number, found '-1'"):
        gpuenergy.sram_batch([dict(good, tech_um=-1)])
    missing = dict(good)
    del missing["banks"]
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"rows\[1\]: missing key 'banks'"):
        gpuenergy.sram_batch([good, missing])
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"rows\[0\]: unknown key 'bank' \(keys: tech_um, "):
        gpuenergy.sram_batch([dict(good, bank=2)])
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"rows\[0\], keys 'size_bytes'/'block_bytes'/'banks': .* 3 banks"):
        gpuenergy.sram_batch([dict(good, banks=3)])
    with pytest.raises(TypeError, match="rows\\[0\\] is a str, not a dict"):
        gpuenergy.sram_batch(["tech_um=0.045"])
    bad = tmp_path / "bad.csv"
    bad.write_text(",".join(good) + "\n" + ",".join(str(v) for v in dict(good, rw_ports="x").values()) + "\n")
    with pytest.raises(gpuenergy.GpuEnergyError, match=r"bad\.csv: line 2, column 'rw_ports': expected a non-negative integer, found 'x'"):
        gpuenergy.sram_batch(bad)
    with pytest.raises(gpuenergy.GpuEnergyError, match="--batch is gpuenergy.sram_batch"):
        gpuenergy.sram(size=None, block=None, batch=str(bad))
