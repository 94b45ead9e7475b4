"""Progress on stderr, only on a terminal: a bar for time-stepping analyses (folding, dynamics), stages for long counts, solves and builds."""
import sys
import time


def stderr_is_terminal(stream=None):
    """True when ``stream`` (default: sys.stderr) is an interactive terminal."""
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class Progress:
    """``label [#####     ]  42%  t = 0.42 / 1 s extra``, redrawn when the percentage changes.

    total: end time (s); enabled: True, False, or None (only when the stream is a terminal).
    ``unit``: what is counted instead of time (e.g. "cases": ``42 / 100 cases extra``).
    """

    def __init__(self, total, enabled, stream=None, width=30, label="folding", unit=None):
        self.stream = sys.stderr if stream is None else stream
        self.enabled = stderr_is_terminal(self.stream) if enabled is None else bool(enabled)
        self.total, self.width, self.label, self.unit = total, width, label, unit
        self.last = -1

    def update(self, t, extra=""):
        if not self.enabled:
            return
        frac = min(max(t / self.total, 0.0), 1.0) if self.total > 0 else 1.0
        pct = int(frac * 100)
        if pct == self.last and frac < 1.0:
            return
        self.last = pct
        bar = "#" * int(frac * self.width)
        where = f"t = {t:.4g} / {self.total:.4g} s" if self.unit is None else f"{t:g} / {self.total:g} {self.unit}"
        self.stream.write(f"\r{self.label} [{bar:<{self.width}}] {pct:3d}%  {where} {extra}")
        if frac >= 1.0:
            self.stream.write("\n")
        self.stream.flush()

    def close(self):
        if self.enabled and self.last < 100:
            self.stream.write("\n")
            self.stream.flush()
            self.last = 100


class Stages:
    """``label: what (12.3 s)`` on one stderr line, redrawn at each stage of a long analysis (count, solve, build).

    Drawn only on a terminal (``enabled`` None) and only once the analysis
    has run ``delay`` seconds, so short analyses stay silent; the line is
    cleared at the end. Use as a context manager::

        with Stages("counting") as stage:
            stage("sparse QR of the 99000 x 60000 operator")
    """

    def __init__(self, label, enabled=None, stream=None, delay=0.5):
        self.stream = sys.stderr if stream is None else stream
        self.enabled = stderr_is_terminal(self.stream) if enabled is None else bool(enabled)
        self.label, self.delay = label, float(delay)
        self.start = time.perf_counter()
        self.width = 0
        self.what = ""

    def __call__(self, what):
        self.what = what
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        if elapsed < self.delay:
            return
        line = f"{self.label}: {what} ({elapsed:.1f} s)"
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.enabled and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
