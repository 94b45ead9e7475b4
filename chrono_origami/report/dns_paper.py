"""The files of the discrete null space paper's scenes (``analysis.dns_paper``): invariants and conditioning."""
import csv
import os


def write_csv(path, header, rows):
    """A CSV with full precision (%.17g; text as it is)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)) or ".", exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow([x if isinstance(x, str) else "%.17g" % float(x) for x in r])


def write_invariants(series, path):
    """``t,E,L1,L2,L3``: total energy and angular momentum of a ``dns_paper.Series``."""
    write_csv(path, ("t", "E", "L1", "L2", "L3"), ((t, e, *l) for t, e, l in zip(series.t, series.E, series.L)))


def write_conditioning(rows, path):
    """``dt,scheme,condition`` rows of ``dns_paper.conditioning_rows``."""
    write_csv(path, ("dt", "scheme", "condition"), rows)
