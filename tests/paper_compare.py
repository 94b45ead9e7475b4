"""Comparison of computed hinge actions with the paper's tables (a test helper: only the tests use it).

The paper's sign convention changes from row to row (some rows give the
action on the neighbour, some use the opposite n and m). A row therefore
matches when, after flipping the sign of the whole row and/or rotating the
frame by pi about n, t or m, every component is within ``atol`` of ours.
Both operations act on the moment and force components of an axis together,
so together they amount to one sign per axis (n, t, m) -- nothing else is
allowed: no swapping of components, no scaling.
"""
import csv
import itertools

import numpy as np

#: the eight allowed sign patterns on the axes (n, t, m)
SIGN_PATTERNS = [np.array(s, float) for s in itertools.product((1, -1), repeat=3)]


def read_paper_table(path):
    """(header, rows as float arrays) of a paper-table CSV (its '#' caption line skipped)."""
    with open(path) as f:
        lines = [ln for ln in f if not ln.startswith("#")]
    reader = csv.reader(lines)
    header = next(reader)
    rows = [np.array([float(x) for x in r]) for r in reader if r]
    return header, rows


def row_match(ours, paper, atol):
    """Sign pattern (n, t, m) under which ``ours`` (MT, MP, MO, N, TP, TO) equals ``paper``, or None."""
    ours = np.asarray(ours, float)
    paper = np.asarray(paper, float)
    best = None
    for s in SIGN_PATTERNS:
        d = np.abs(np.concatenate([s, s]) * ours - paper).max()
        if d <= atol and (best is None or d < best[1]):
            best = (s, d)
    return None if best is None else best[0]


def row_distance(ours, paper):
    """Smallest max-abs difference over the allowed sign patterns."""
    ours = np.asarray(ours, float)
    paper = np.asarray(paper, float)
    return min(np.abs(np.concatenate([s, s]) * ours - paper).max() for s in SIGN_PATTERNS)


def table_tolerance(paper_rows, columns, rtol=2e-4):
    """``rtol`` times the largest magnitude among ``columns`` of the table's rows."""
    return rtol * max(np.abs(r[columns]).max() for r in paper_rows)
