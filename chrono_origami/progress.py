"""A one-line progress bar on stderr for time-stepping analyses (folding, dynamics)."""
import sys


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
    """

    def __init__(self, total, enabled, stream=None, width=30, label="folding"):
        self.stream = sys.stderr if stream is None else stream
        self.enabled = stderr_is_terminal(self.stream) if enabled is None else bool(enabled)
        self.total, self.width, self.label = total, width, label
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
        self.stream.write(f"\r{self.label} [{bar:<{self.width}}] {pct:3d}%  t = {t:.4g} / {self.total:.4g} s {extra}")
        if frac >= 1.0:
            self.stream.write("\n")
        self.stream.flush()

    def close(self):
        if self.enabled and self.last < 100:
            self.stream.write("\n")
            self.stream.flush()
            self.last = 100
