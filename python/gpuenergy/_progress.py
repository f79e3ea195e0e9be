"""Progress display of long simulations: a tqdm bar (``tqdm.auto``, so notebooks get a
widget) when tqdm is installed, else one self-rewriting line on stderr.

Shown when asked (``progress=True``), never when ``progress=False``, and by default
(``progress=None``) only in a terminal or a notebook and only for runs that last longer
than half a second. ``set_progress(False)`` silences every display of the process.
"""

import sys
import time

_default = None


def set_progress(enabled):
    """Sets the default of every ``progress=`` argument: True, False or None (automatic)."""
    global _default
    if enabled not in (True, False, None):
        raise ValueError("set_progress takes True, False or None")
    _default = enabled


def _wanted(progress):
    if progress is None:
        progress = _default
    if progress is None:
        if "ipykernel" in sys.modules:
            return True
        try:
            return sys.stderr.isatty()
        except (AttributeError, ValueError):
            return False
    return bool(progress)


class _Line:
    """A one-line display on stderr for when tqdm is not installed."""

    def __init__(self, desc, total, unit):
        self.desc, self.total, self.unit, self.n = desc, total, unit, 0

    def update(self, n):
        self.n += n
        of = f"/{self.total}" if self.total else ""
        sys.stderr.write(f"\r{self.desc}: {self.n}{of} {self.unit}")
        sys.stderr.flush()

    def set_postfix_str(self, s):
        sys.stderr.write(f"\r{self.desc}: {self.n} {self.unit} ({s})")
        sys.stderr.flush()

    def close(self):
        sys.stderr.write("\n")
        sys.stderr.flush()


def _bar(desc, total, unit):
    try:
        from tqdm.auto import tqdm

        return tqdm(desc=desc, total=total, unit=unit, leave=False)
    except ImportError:
        return _Line(desc, total, unit)


class LaunchProgress:
    """Called by the simulator with (cycles, warp_insts) of the running launch."""

    DELAY_S = 0.5

    def __init__(self, label, progress):
        self.label = label
        self.on = _wanted(progress)
        self.start = time.monotonic()
        self.bar = None
        self.cycles = 0

    def __call__(self, cycles, insts):
        if not self.on or time.monotonic() - self.start < self.DELAY_S:
            return
        if self.bar is None:
            self.bar = _bar(self.label, None, "cycle")
        self.bar.update(max(0, cycles - self.cycles))
        self.cycles = cycles
        self.bar.set_postfix_str(f"{insts} warp insts")

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class RunsProgress:
    """Called by a study with (done, total, label) after each run."""

    def __init__(self, label, progress):
        self.label = label
        self.on = _wanted(progress)
        self.bar = None
        self.done = 0

    def __call__(self, done, total, what):
        if not self.on:
            return
        if self.bar is None:
            self.bar = _bar(self.label, total, "run")
        self.bar.update(max(0, done - self.done))
        self.done = done
        self.bar.set_postfix_str(what)

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None
