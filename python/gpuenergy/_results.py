"""What runs and studies return: Activity, Estimate and Comparison, each a thin view of the
native result with JSON, CSV and (pandas imported only when asked) DataFrame conversions.
Column names are those of the command line's CSV, units in the names."""

import io
import json


def _frame(csv_text):
    import pandas as pd

    return pd.read_csv(io.StringIO(csv_text))


class Activity:
    """The Activity record of a run (``gpuenergy.activity.v1``)."""

    def __init__(self, native):
        self._a = native

    @classmethod
    def from_json(cls, text, label="<activity>"):
        """An Activity from its JSON (``gpuenergy simulate --out``)."""
        from . import _native

        return cls(_native.Activity.from_json(text, label))

    def to_json(self):
        """The record as JSON, byte for byte what ``gpuenergy simulate --out`` writes."""
        return self._a.to_json()

    def save(self, path):
        """Writes the record to ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_json())

    @property
    def cycles(self):
        """Simulated core cycles of the run."""
        return self._a.cycles

    @property
    def warp_insts(self):
        """Warp instructions issued."""
        return self._a.warp_insts

    @property
    def launches(self):
        return self._a.launches

    @property
    def truncated(self):
        return self._a.truncated

    @property
    def config_name(self):
        return self._a.config_name

    @property
    def config_hash(self):
        return self._a.config_hash

    @property
    def kernels(self):
        """One record per kernel name: name, launches, cycles, warp_insts, thread_insts,
        truncated."""
        return self._a.kernels

    def to_pandas(self):
        """The per-kernel records as a DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.kernels)

    def __repr__(self):
        return repr(self._a)


class Estimate:
    """A costed run: the ``gpuenergy estimate`` report."""

    def __init__(self, native):
        self._e = native

    @property
    def total(self):
        """The run's totals in SI units (energy_j, dynamic_j, leakage_j, runtime_s, cycles,
        warp_instructions, average_power_w, edp_js, area_m2, leakage_w, truncated)."""
        return self._e.total

    @property
    def tech(self):
        return self._e.tech

    def to_json(self):
        """The report as ``gpuenergy estimate --format json`` writes it."""
        return self._e.to_json()

    def to_dict(self):
        return json.loads(self.to_json())

    @property
    def tree(self):
        """The component tree of the (first) run: nested dicts with ``name``, ``children``
        and each node's quantities in SI units."""
        d = self.to_dict()
        runs = d.get("workloads") or []
        return runs[0]["estimate"]["root"] if runs else d["area"]

    def to_csv(self):
        """One row per component, as ``gpuenergy estimate --format csv`` writes it."""
        return self._e.to_csv()

    def to_pandas(self):
        """One row per component (columns as the CSV: area_mm2, dynamic_mj, leakage_mj, ...)."""
        return _frame(self.to_csv())

    def table(self):
        """The report as ``gpuenergy estimate`` prints it."""
        return self._e.table()

    def __str__(self):
        return self.table()

    def __repr__(self):
        t = self.total
        if "energy_j" in t:
            return f"Estimate({self.tech}: {t['energy_j']:.4e} J over {t['runtime_s']:.4e} s)"
        return f"Estimate({self.tech}: static)"


class Comparison:
    """Techniques against a baseline: the ``gpuenergy compare`` report."""

    def __init__(self, native):
        self._c = native

    @property
    def baseline(self):
        return self._c.baseline

    @property
    def variants(self):
        return self._c.variants

    @property
    def tech(self):
        return self._c.tech

    @property
    def model(self):
        """What the cycles come from: ``"cycle-level"`` (the timing model) or
        ``"reference-mode"`` (a run sets ``reconv.mode`` to dwf, mimd or nrec)."""
        return self._c.model

    def to_json(self):
        """The report as JSON: the fields of ``gpuenergy compare --format json``; on the
        reference-mode model its whole document, ``run`` included (with an empty
        ``command_line``: a library call)."""
        return self._c.to_json()

    def to_dict(self):
        return json.loads(self.to_json())

    def to_csv(self):
        """One row per run (baseline and variants x workloads), as ``gpuenergy compare
        --format csv`` writes it (without its provenance columns). On the reference-mode
        model (which the command line prints as a table or JSON only): variant, workload,
        mode, cycles, speedup, simd_efficiency, warp_issues, thread_insts, then the JSON's
        ``energy`` and ``area`` figures under their names (runtime_s, energy_j, ...,
        added_area_mm2, ...) and a DWF run's structures (dwf_area_chip_mm2, dwf_dynamic_j,
        ...)."""
        return self._c.to_csv()

    def to_pandas(self):
        """One row per run: variant, workload, cycles, runtime_s, perf_overhead, energy_j,
        energy_change, edp_js, edp_change, ... (the columns of :meth:`to_csv`)."""
        return _frame(self.to_csv())

    def table(self):
        return self._c.table()

    def __str__(self):
        return self.table()

    def __repr__(self):
        return f"Comparison({self.baseline} vs {', '.join(self.variants)} at {self.tech})"
