"""An SRAM sweep to a plot: area, read energy and access time of a 64-byte-wide array from
4 KiB to 1 MiB at finfet7's stv and ntv points (the CACTI-class model of `gpuenergy sram`).

    python examples/python/sram_sweep.py [PLOT.png]

Writes the plot with matplotlib when it is installed (default sram_sweep.png); prints the
table either way.
"""

import sys

import gpuenergy

SIZES_KIB = [4, 8, 16, 32, 64, 128, 256, 512, 1024]


def main():
    import pandas as pd

    rows = []
    for op in ("stv", "ntv"):
        for kib in SIZES_KIB:
            r = gpuenergy.sram(size=f"{kib}KiB", block=64, tech="finfet7", op=op)
            rows.append(
                dict(op=op, size_kib=kib, area_mm2=r["area_mm2"], read_pj=r["read_pj"],
                     access_ns=r["access_ns"], leakage_mw=r["leakage_mw"])
            )
    df = pd.DataFrame(rows)
    with pd.option_context("display.width", 200, "display.float_format", "{:.4g}".format):
        print(df.to_string(index=False))
    out = sys.argv[1] if len(sys.argv) > 1 else "sram_sweep.png"
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot written")
        return
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    for op, g in df.groupby("op"):
        for ax, col, label in zip(axes, ("area_mm2", "read_pj", "access_ns"),
                                  ("area (mm²)", "read energy (pJ)", "access time (ns)")):
            ax.plot(g["size_kib"], g[col], marker="o", label=op)
            ax.set_xscale("log", base=2)
            ax.set_xlabel("capacity (KiB)")
            ax.set_ylabel(label)
    axes[0].legend(title="finfet7")
    fig.suptitle("SRAM, 64-byte access, 1 RW port, finfet7 (gpuenergy sram)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"plot written to {out}")


if __name__ == "__main__":
    main()
