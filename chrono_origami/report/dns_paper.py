"""The tables of the discrete null space paper's scenes (``papers.dns_paper``): invariants and conditioning,
written by the one writer (``report.write``)."""
from ..results.table import Table
from .write import DEFAULT_FORMAT, write_table


def invariants_table(series):
    """``t,E,L1,L2,L3``: total energy and angular momentum of a ``dns_paper.Series``."""
    return Table("invariants", ("t", "E", "L1", "L2", "L3"),
                 ((t, e, *l) for t, e, l in zip(series.t, series.E, series.L)), {"units": {"t": "s"}})


def conditioning_table(rows):
    """``dt,scheme,condition`` rows of ``dns_paper.conditioning_rows``."""
    return Table("conditioning", ("dt", "scheme", "condition"), rows, {"units": {"dt": "s"}})


def write_invariants(series, path, fmt=DEFAULT_FORMAT):
    """:func:`invariants_table` at ``path``."""
    return write_table(invariants_table(series), path, fmt)


def write_conditioning(rows, path, fmt=DEFAULT_FORMAT):
    """:func:`conditioning_table` at ``path``."""
    return write_table(conditioning_table(rows), path, fmt)
