"""Warped-Gates on a user kernel.

`mix_poly` (kernels.cu beside this file) has an integer phase (a hash) and a floating-point
phase (a polynomial), so the INT and FP units idle in turn: what power gating of the
execution units exploits. The host program runs once per variant — the baseline without
gating, conventional power gating, and Warped-Gates (gating-aware scheduling with blackout)
— and compare() returns one row per run.

    python examples/python/warped_gates.py
"""

import pathlib

import numpy as np

import gpuenergy

PTX = pathlib.Path(__file__).with_name("kernels.ptx")


def program(dev):
    k = dev.load_ptx(PTX)["mix_poly"]
    n = 28 * 4096
    x = dev.to_device(np.linspace(-1, 1, n, dtype=np.float32))
    out = dev.empty(n, np.float32)
    for rounds, terms in ((64, 4), (4, 64)):
        k((n // 256,), (256,), (out, x, np.int32(rounds), np.int32(terms), np.int32(n)))


def main():
    c = gpuenergy.compare(
        program, techniques=["conv-pg", "warped-gates"], tech="finfet7", op="stv", preset="gtx1080ti"
    )
    df = c.to_pandas()
    df = df[df["workload"] != "aggregate"]
    cols = ["variant", "cycles", "perf_overhead", "energy_j", "energy_change", "edp_change",
            "static_savings_int", "static_savings_fp", "wakeups"]
    with __import__("pandas").option_context("display.width", 200, "display.float_format", "{:.4g}".format):
        print(df[cols].to_string(index=False))


if __name__ == "__main__":
    main()
