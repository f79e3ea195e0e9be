"""The example outputs quoted in docs/python.md are regenerated, never typed: each block

    <!-- python-output: examples/python/NAME.py -->
    ```text
    (what the script printed)
    ```
    <!-- /python-output -->

is compared with a fresh run of the script, token by token: words exactly, numbers within
0.5 % (as tests/doc_outputs.rs checks the command outputs of the other pages). Lines about the
plot file (present or not, by whether matplotlib is installed) are left out.
`GPUENERGY_BLESS_DOCS=1 pytest python/tests/test_docs.py` rewrites the blocks."""

import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

DOC = ROOT / "docs" / "python.md"
TOLERANCE = 0.005
OPEN = re.compile(r"^<!-- python-output: (\S+) -->$")
SKIP = ("plot written to", "matplotlib is not installed")


def blocks(lines):
    out = []
    for i, l in enumerate(lines):
        m = OPEN.match(l)
        if m:
            close = lines.index("<!-- /python-output -->", i)
            out.append((m.group(1), i, close))
    return out


def run(script, tmp_path):
    env = dict(os.environ, MPLBACKEND="Agg")
    p = subprocess.run(
        [sys.executable, str(ROOT / script), str(tmp_path / "plot.png")],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )
    return "\n".join(l.rstrip() for l in p.stdout.splitlines() if not l.startswith(SKIP))


def number(t):
    t = t.strip(",;:()%").lstrip("x")
    try:
        return float(t)
    except ValueError:
        return None


def differs(quoted, fresh):
    q, f = quoted.split(), fresh.split()
    if len(q) != len(f):
        return f"{len(q)} tokens quoted, {len(f)} printed"
    for a, b in zip(q, f):
        x, y = number(a), number(b)
        if x is not None and y is not None:
            if abs(x - y) > TOLERANCE * max(abs(x), abs(y)) and not (x == y):
                return f"{a} quoted, {b} printed"
        elif a != b:
            return f"'{a}' quoted, '{b}' printed"
    return None


SCRIPTS = [s for s, _, _ in blocks(DOC.read_text().splitlines())]


@pytest.mark.parametrize("script", SCRIPTS)
def test_quoted_example_output(script, tmp_path):
    pytest.importorskip("pandas")
    lines = DOC.read_text().splitlines()
    _, i, close = next(b for b in blocks(lines) if b[0] == script)
    quoted = "\n".join(lines[i + 2 : close - 1])
    fresh = run(script, tmp_path)
    if os.environ.get("GPUENERGY_BLESS_DOCS"):
        lines[i + 1 : close] = ["```text", *fresh.splitlines(), "```"]
        DOC.write_text("\n".join(lines) + "\n")
        return
    d = differs(quoted, fresh)
    assert d is None, f"docs/python.md, output of {script}: {d}\n--- printed:\n{fresh}"


def test_every_example_is_quoted():
    scripts = sorted(p.name for p in (ROOT / "examples" / "python").glob("*.py"))
    assert sorted(os.path.basename(s) for s in SCRIPTS) == scripts


def test_the_comparison_catches_a_moved_figure():
    assert differs("energy 1.000 uJ", "energy 1.004 uJ") is None
    assert "quoted" in differs("energy 1.000 uJ", "energy 1.010 uJ")
    assert "quoted" in differs("ntv 13", "stv 13")
    assert "tokens" in differs("a b", "a b c")
