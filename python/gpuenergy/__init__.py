"""gpuenergy: a simulated GPU you drive from Python.

Launch PTX or CUDA kernels on numpy arrays with a CuPy-like device, get the cycle-level
Activity of the run, its energy and area estimate, and comparisons of techniques, as
DataFrames. Everything runs in the simulator's library (``gpuenergy._native``); no
subprocess is started::

    import numpy as np, gpuenergy
    dev = gpuenergy.Device(preset="gtx1080ti")
    mod = dev.load_ptx("kernels.ptx")
    x = dev.to_device(np.arange(1024, dtype=np.float32))
    y = dev.empty(1024, np.float32)
    mod["scale"]((4,), (256,), (y, x, np.float32(2.0), np.uint32(1024)))
    print(y.get()[:4])
    run = dev.finish()
    est = gpuenergy.estimate(run, tech="finfet7", op="stv")
    est.to_pandas()

Errors are :class:`GpuEnergyError` (a ``ValueError``) with the command line's messages;
launch arguments that do not fit the kernel's ``.param`` list raise ``TypeError``.
"""

import json as _json

from . import _native
from ._device import Device, DeviceArray, Kernel, Module, compile_cuda, load_ptx
from ._progress import LaunchProgress, RunsProgress, set_progress
from ._results import Activity, Comparison, Estimate

GpuEnergyError = _native.GpuEnergyError
Error = GpuEnergyError

__all__ = [
    "Activity",
    "Comparison",
    "Device",
    "DeviceArray",
    "Error",
    "Estimate",
    "GpuEnergyError",
    "Kernel",
    "Module",
    "breakeven",
    "compare",
    "compile_cuda",
    "estimate",
    "load_ptx",
    "optimize",
    "presets",
    "set_progress",
    "sram",
    "sram_batch",
    "techniques",
    "workloads",
]


def _program(fn, progress=False):
    """``fn(dev)`` as the native host program: the native device it is lent, wrapped."""
    return lambda native: fn(Device._lent(native, progress))


def estimate(
    target,
    tech=None,
    op=None,
    vdd=None,
    device=None,
    temperature_k=None,
    preset=None,
    config=None,
    technique=None,
    set=None,
    scheduler=None,
    size="test",
    name="python",
    progress=None,
    sample="off",
    sample_error=None,
):
    """The energy and area estimate of ``target``: an :class:`Activity` from
    ``Device.finish()`` (costed on its device's configuration, at its technology point unless
    ``tech``/``op``/``vdd``/``device`` are given), a host program ``fn(dev)`` (run once on a
    device of ``preset``/``config``/``technique``/``set``), or a built-in workload's name.
    ``tech`` defaults to finfet7 at its ``stv`` point; ``size`` is the built-in workloads'
    tier (test or bench). A host program's run draws a progress bar of its simulated cycles
    after half a second, built-in workloads one of the runs done (``progress`` as for a
    device: None automatic, False silent, True always). ``sample`` is ``--sample``: "off",
    "kernels" (cluster a program's launches by their functional signature, time a few per
    cluster, extrapolate the rest) or "auto" (kernels while the estimated errors are within
    ``sample_error``, "2%" or 0.02 by default, else every launch); the estimate's ``sample``
    entry per workload (``to_dict()``) holds what it did and its estimated errors. A sampled
    host program draws no progress bar."""
    from ._device import _set_list

    if isinstance(target, Activity):
        target, bar = target._a, None
    elif callable(target):
        target, bar = _program(target), LaunchProgress(f"estimate {name}", progress)
    else:
        bar = RunsProgress("estimate", progress)
    if config is not None:
        import os

        config = os.fspath(config)
    try:
        e = _native.estimate(
            target,
            tech,
            op,
            vdd,
            device,
            temperature_k,
            preset,
            config,
            technique,
            _set_list(set),
            scheduler,
            size,
            name,
            bar if bar is not None and bar.on else None,
            sample,
            sample_error,
        )
    finally:
        if bar is not None:
            bar.close()
    return Estimate(e)


def compare(
    fn,
    techniques,
    baseline="none",
    tech="finfet7",
    op=None,
    vdd=None,
    device=None,
    temperature_k=None,
    preset=None,
    config=None,
    set=None,
    scheduler=None,
    sweep=None,
    size="test",
    name="python",
    progress=None,
    sample="off",
    sample_error=None,
):
    """Techniques against a baseline: ``fn(dev)`` (a host program, run once per variant, the
    variants in parallel) or a built-in workload's name, on ``preset`` (default gtx1080ti)
    with ``set`` applied to every run, each variant ``baseline`` or a name of
    :func:`techniques` (``"gates+coord-blackout"`` combines). ``sweep="pg.bet=9,14,19"`` runs
    every variant once per value. When the baseline or a variant sets ``reconv.mode`` to dwf,
    mimd or nrec (techniques ``dwf``, ``mimd``, ``nrec``), every run goes to the
    reference-mode model, one after another, as ``gpuenergy compare`` does
    (``Comparison.model`` is then ``"reference-mode"``). ``sample``/``sample_error`` sample
    the launches as for :func:`estimate`; every variant times the launches the baseline chose,
    so a difference is not sampling noise (not with the reference-mode model)."""
    from ._device import _set_list

    if isinstance(techniques, str):
        techniques = [techniques]
    if callable(fn):
        fn = _program(fn)
    if config is not None:
        import os

        config = os.fspath(config)
    bar = RunsProgress("compare", progress)
    try:
        c = _native.compare(
            fn,
            list(techniques),
            baseline,
            tech,
            op,
            vdd,
            device,
            temperature_k,
            preset,
            config,
            _set_list(set),
            scheduler,
            sweep,
            size,
            name,
            bar if bar.on else None,
            sample,
            sample_error,
        )
    finally:
        bar.close()
    return Comparison(c)


def _argv(kwargs):
    """Keyword arguments as the command's flags: ``design_vdd=0.5`` -> ``--design-vdd 0.5``,
    ``sweep_vdd=True`` -> ``--sweep-vdd``; a list repeats the flag."""
    argv = []
    for k, v in kwargs.items():
        if v is None or v is False:
            continue
        flag = "--" + k.replace("_", "-")
        if v is True:
            argv.append(flag)
        elif isinstance(v, (list, tuple)):
            for x in v:
                argv += [flag, str(x)]
        else:
            argv += [flag, str(v)]
    return argv


def sram(size, block, **kwargs):
    """``gpuenergy sram`` of one array of ``size`` bytes read ``block`` bytes at a time (ints
    or strings such as "64KiB"); the other keywords are the command's flags (tech, op, vdd,
    device, design_vdd, lanes, back_gate, rw_ports, read_ports, write_ports, banks, cell,
    temperature). Returns the command's JSON as a dict (SI units in the key names)."""
    if "format" in kwargs:
        raise TypeError("sram returns a dict; it takes no format")
    argv = _argv(dict(size=size, block=block, **kwargs))
    return _json.loads(_native.sram(argv))


def sram_batch(rows):
    """``gpuenergy sram --batch``: the CACTI-class SRAM model on many arrays. ``rows`` is a
    CSV file's path (its header names the columns below; other columns are ignored) or a list
    of dicts with the keys ``tech_um`` (the node in micrometres, 0.045 for 45 nm),
    ``size_bytes``, ``block_bytes``, ``rw_ports``, ``read_ports``, ``write_ports``, ``banks``
    and ``cell_type`` (CACTI's names). Returns a DataFrame, one row per array, with the
    command's columns: the inputs, then ``access_ns``, ``cycle_ns``, ``read_nJ``,
    ``write_nJ``, ``leak_bank_mW``, ``gate_leak_bank_mW``, ``height_mm``, ``width_mm``,
    ``model_seconds`` (the model's wall time on the row) and the run columns. A bad value
    raises :class:`GpuEnergyError` naming the row (``rows[2]``, or the file's line) and the
    key."""
    import os

    from ._results import _frame

    if isinstance(rows, (str, os.PathLike)):
        return _frame(_native.sram_batch_file(os.fspath(rows)))
    if not isinstance(rows, (list, tuple)):
        raise TypeError(
            "sram_batch takes a CSV file's path or a list of dicts (one per array), got "
            f"{type(rows).__name__}"
        )
    from collections.abc import Mapping

    text_rows = []
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise TypeError(f"sram_batch: rows[{i}] is a {type(row).__name__}, not a dict")
        text_rows.append({str(k): v if isinstance(v, str) else str(v) for k, v in row.items()})
    return _frame(_native.sram_batch_rows(text_rows))


def breakeven(**kwargs):
    """``gpuenergy breakeven``: sleep-transistor physics of a gating domain; the keywords are
    the command's flags (tech, vdd, op, temperature, clock_mhz, domain, unit, switch_scale,
    switch, rail, logic_flavour, switch_flavour, calibration, sweep_vdd, sweep_scale, plot).
    Returns the command's JSON as a dict."""
    if "format" in kwargs:
        raise TypeError("breakeven returns a dict; it takes no format")
    return _json.loads(_native.breakeven(_argv(kwargs)))


def optimize(**kwargs):
    """``gpuenergy optimize`` on built-in workloads (``workload="hotspot"``) or program files
    (``program="prog.toml"``): the keywords are the command's flags (preset, tech, op,
    workload, size, objective, budget, max_slowdown, sample="kernels", ...). Returns the
    command's JSON as a dict."""
    if "format" in kwargs:
        raise TypeError("optimize returns a dict; it takes no format")
    return _json.loads(_native.optimize(_argv(kwargs)))


def presets():
    """The built-in GPU presets."""
    return _native.presets()


def techniques():
    """The named techniques (``compare``'s variants, ``Device(technique=...)``)."""
    return _native.techniques()


def workloads():
    """The built-in workloads (``estimate``/``compare`` take their names)."""
    return _native.workloads()
