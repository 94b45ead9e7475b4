"""The files of the discrete null space paper's scenes (``analysis.dns_paper``): invariants and conditioning,
written by ``tables.write_csv``."""
from .tables import write_csv


def write_invariants(series, path):
    """``t,E,L1,L2,L3``: total energy and angular momentum of a ``dns_paper.Series``."""
    write_csv(path, ("t", "E", "L1", "L2", "L3"), ((t, e, *l) for t, e, l in zip(series.t, series.E, series.L)))


def write_conditioning(rows, path):
    """``dt,scheme,condition`` rows of ``dns_paper.conditioning_rows``."""
    write_csv(path, ("dt", "scheme", "condition"), rows)
