"""The tolerance analysis's record: statistics of the hinge actions that fabrication errors lock into elastic
hinges (:class:`LockedInStatistics`, made by ``analysis.tolerance``)."""
from dataclasses import dataclass, field

import numpy as np

from .static import ACTION_UNITS, HINGE_COLUMNS
from .table import Table

#: the components in the order of the hinge tables
COMPONENTS = HINGE_COLUMNS


@dataclass
class LockedInStatistics:
    """Statistics of the locked-in hinge actions (see the module doc).

    Arrays are (H, 2, 6): hinge, side (0 the hinge's first panel p, 1 its
    second panel q), component (MT, MP, MO, N, TP, TO), each side in its own
    panel's {n, t, m} frame (``results.static``). ``sd``: standard deviation;
    ``p95``, ``p99``: percentiles of the magnitude (NaN where unknown: the
    closed form for uniform errors). Monte Carlo runs also give ``se_sd``,
    ``se_p95``, ``se_p99`` (standard errors) and ``max_p95``, ``max_p99``
    (6,): the percentiles of the largest magnitude over all hinges.
    """

    structure: object
    spec: object
    stiffness: object
    method: str
    sd: np.ndarray
    p95: np.ndarray
    p99: np.ndarray
    samples: int = 0
    se_sd: np.ndarray = None
    se_p95: np.ndarray = None
    se_p99: np.ndarray = None
    max_p95: np.ndarray = None
    max_p99: np.ndarray = None
    info: dict = field(default_factory=dict)

    HEADER = ("hinge", "panel") + tuple(f"{s}_{c}" for c in COMPONENTS for s in ("sd", "p95", "p99"))

    def rows(self):
        """Rows (hinge, panel, sd_MT, p95_MT, p99_MT, ..., sd_TO, p95_TO, p99_TO), 1-based, sorted like the
        hinge tables (by hinge, then panel)."""
        pat = self.structure.pattern
        out = []
        for h, hinge in enumerate(pat.hinges):
            for s in sorted((0, 1), key=lambda s: hinge.panels[s]):
                vals = []
                for c in range(6):
                    vals += [self.sd[h, s, c], self.p95[h, s, c], self.p99[h, s, c]]
                out.append((h + 1, hinge.panels[s] + 1, *vals))
        return out


    def table(self, name="locked_in", **meta):
        """:meth:`rows` as a ``results.table.Table`` ``name`` (``locked_in``; a Monte Carlo run's
        ``monte_carlo``), labelled by the method, the samples, the error distribution and ``meta``."""
        units = {f"{s}_{c}": ACTION_UNITS[c] for c in COMPONENTS for s in ("sd", "p95", "p99")}
        return Table(name, self.HEADER, self.rows(),
                     dict(method=self.method, samples=int(self.samples), distribution=self.spec.distribution,
                          units=units, **meta))
