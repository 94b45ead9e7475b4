"""The static answer's files and the paper-style printed tables.

Files: every table goes through the one writer, ``report.write`` (CSV,
JSON, Parquet: ``--format``); :func:`write_results` is the static output
contract.

Printed tables (text, Markdown, LaTeX) are for reading: numbers are 1-based
like the paper; hinge, panel, vertex and state numbers are integers; values
use the paper's ``%.4e`` and an entry below ``ZERO_RTOL`` (1e-12) times the
table's largest magnitude -- round-off, where the paper prints 0 -- is
printed as 0.
Hinge columns: hinge, panel, MT, MP, MO, N, TP, TO (see ``results`` for the
frame and sign convention). Support columns: panel, vertex, Fx, Fy, Fz.
"""
import json
import os

import numpy as np

from ..results.static import HINGE_HEADER, SUPPORT_HEADER, elastic_label, sensitivity_max
from . import write
from .write import csv_text  # noqa: F401  (the CSV format's text: ``report.write``)

FMT = "{:.4e}"
#: printed entries smaller than this fraction of the table's largest magnitude are round-off: printed as 0
ZERO_RTOL = 1e-12


def _printed(rows):
    """Cells of printed rows: numbers (first two columns) as integers, values as FMT, round-off as 0."""
    scale = max((abs(float(x)) for r in rows for x in r[2:]), default=0.0)

    def value(x):
        x = float(x)
        return FMT.format(0.0 if abs(x) < ZERO_RTOL * scale or x == 0 else x)

    return [[str(int(x)) if i < 2 else value(x) for i, x in enumerate(r)] for r in rows]


def _fixed_width(header, cells, title=None):
    """The lines of a fixed-width table of printed ``cells`` (strings) under ``header``, right-aligned."""
    cells = [list(header)] + cells
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    lines = [title] if title else []
    for k, c in enumerate(cells):
        lines.append("  ".join(s.rjust(w) for s, w in zip(c, widths)))
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def text_table(header, rows, title=None):
    """Fixed-width table like the paper's."""
    return _fixed_width(header, _printed(rows), title)


def mixed_text_table(header, rows, title=None):
    """A fixed-width table of mixed cells: integers as they are, numbers to 6 digits, text as it is."""
    def cell(x):
        if isinstance(x, str):
            return x
        if isinstance(x, (int, np.integer)):
            return str(int(x))
        return f"{float(x) + 0.0:.6g}"

    return _fixed_width(header, [[cell(x) for x in r] for r in rows], title)


def markdown_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(c) + " |" for c in _printed(rows)]
    return "\n".join(out)


def latex_table(header, rows, caption=None):
    names = {"MT": r"$M_T$", "MP": r"$M_P$", "MO": r"$M_O$", "N": r"$N$", "TP": r"$T_P$", "TO": r"$T_O$",
             "Fx": r"$F_x$", "Fy": r"$F_y$", "Fz": r"$F_z$"}
    out = [r"\begin{table}", r"\centering"]
    if caption:
        out.append(r"\caption{" + caption + "}")
    out.append(r"\begin{tabular}{" + "r" * len(header) + "}")
    out.append(r"\hline")
    out.append(" & ".join(names.get(h, h) for h in header) + r" \\")
    out.append(r"\hline")
    for cells in _printed(rows):
        out.append(" & ".join("$" + c + "$" if i >= 2 else c for i, c in enumerate(cells)) + r" \\")
    out += [r"\hline", r"\end{tabular}", r"\end{table}"]
    return "\n".join(out)


def elastic_summary(result):
    """counts.json's entries of an elastic answer: status, stiffness, sensitivity (each kind's stiffness doubled:
    {"F", "M"}; one hinge's: ``stiffness_sensitivity_hinge``; the largest of all), displacement."""
    info = result.info
    return {"status": "elastic", "stiffness": info.get("stiffness"), "stiffness_sensitivity": info.get("sensitivity"),
            "stiffness_sensitivity_hinge": info.get("hinge_sensitivity"),
            "stiffness_sensitivity_max": sensitivity_max(info),
            "springs": bool(info.get("springs")), "displacement": info.get("displacement"),
            "displacement_relative": info.get("displacement_relative"),
            "nonlinear": bool(info.get("nonlinear", False)), "engine": result.engine}


def displacement_text(result):
    """The largest displacement of an elastic answer and its ratio to the structure's size, in words."""
    info = result.info
    d, rel = info.get("displacement"), info.get("displacement_relative")
    if d is None:
        return ""
    line = f"largest vertex displacement {d:.3g} (length units) = {rel:.3g} of the structure's size"
    if displacement_large(result):
        line += ("; large: the linear theory is not accurate there (a mechanism carries the loads on its springs; "
                 "--nonlinear solves it in Chrono)" if not info.get("nonlinear") else " (geometrically nonlinear)")
    return line


#: an elastic answer whose largest displacement exceeds this fraction of the structure's size is flagged large
LARGE_DISPLACEMENT = 1e-2


def displacement_large(result):
    """Whether an elastic answer's largest displacement exceeds :data:`LARGE_DISPLACEMENT` of the structure's
    size (False without one)."""
    rel = result.info.get("displacement_relative")
    return rel is not None and rel > LARGE_DISPLACEMENT


def write_results(result, out_dir, counts=None, fmt=write.DEFAULT_FORMAT):
    """Write the output contract: the answer's tables (``result.tables()``: hinges, supports) in format ``fmt``
    and, if given, counts.json; returns the tables' paths.

    A minimum-norm or elastic answer (``result.status``) starts both CSV files with the comment line of
    :func:`minimum_norm_label` (in JSON and Parquet: ``meta["comment"]``, beside ``meta["status"]``), so that no
    reader takes it for the determined answer (a plain CSV reader stops at it; pandas reads past it with
    ``comment="#"``).
    """
    paths = write.write_tables(result.tables(), out_dir, fmt)
    if counts is not None:
        write_counts(counts, out_dir)
    return paths


def write_counts(counts, out_dir):
    """``counts.json`` (the counts' summary; JSON whatever the tables' format), atomically."""
    os.makedirs(out_dir, exist_ok=True)

    def dump(tmp):
        with open(tmp, "w") as f:
            json.dump(counts, f, indent=2, default=float)
            f.write("\n")

    write.atomic_write(os.path.join(out_dir, "counts.json"), dump)


#: a static result with more hinge rows (hinge sides) than this shows its SCREEN_TOP largest on screen
SCREEN_ROWS = 200
SCREEN_TOP = 20


def largest_rows(rows, top, key=None):
    """The ``top`` hinge rows (HINGE_HEADER) largest by ``key(row)``, largest first; by default the force resultant
    ``|F| = |(N, TP, TO)|``."""
    key = key or (lambda r: float(np.linalg.norm(np.asarray(r[5:8], float))))
    return sorted(rows, key=lambda r: -key(r))[:top]


def format_result(result, title=None, max_rows=None, where="--out DIR writes them all"):
    """Both tables of a static result as text; with ``max_rows``, a result with more hinge rows shows the
    :data:`SCREEN_TOP` of largest ``|F|`` (``where``: where all of them are)."""
    head = title or f"{result.structure.name} ({result.engine} engine, {result.status})"
    rows = result.hinge_rows()
    what = ": hinge internal actions"
    if max_rows is not None and len(rows) > max_rows:
        rows, what = largest_rows(rows, SCREEN_TOP), f": hinge internal actions, the {SCREEN_TOP} of largest |F| " \
                                                      f"of {len(rows):,} rows ({where})"
    parts = [text_table(HINGE_HEADER, rows, head + what)]
    if result.support_reactions:
        parts.append(text_table(SUPPORT_HEADER, result.support_rows(), head + ": support reactions"))
    if result.status == "elastic":
        parts.insert(0, elastic_label(result) + ".\n" + displacement_text(result))
    elif result.status != "determined":
        n = len(result.self_stress_actions)
        parts.insert(0, f"WARNING: not determined (M = {result.M}, S = {result.S}): minimum-norm particular "
                        f"solution; add any "
                        + (f"combination of the {n} self-stress states." if n != 1 else "multiple of the self-stress "
                           "state."))
    return "\n\n".join(parts)


# ------------------------------------------------------------------ what an analysis uses
#: supports and loads listed one by one on screen (beyond: the first ones and a count)
INPUT_ROWS = 20


def inputs_text(structure, max_rows=INPUT_ROWS):
    """The supports, loads and self-weight a structure carries, 1-based as in supports.csv, with their origin
    ("file", "--support", "proposed", "given" for a structure built in Python or by a scene, ...); at most
    ``max_rows`` rows each."""
    from ..structure.properties import structure_mass_properties

    def origins(what):
        return structure.origins(what)

    def tail(n):
        return [f"  ... and {n - max_rows} more"] if n > max_rows else []

    def where(items, what):
        from collections import Counter

        c = Counter(origins(what))
        return ", ".join(f"{n} {o}" if o in ("proposed", "added") else f"{n} from {o}" for o, n in c.items())

    sups = structure.supports
    lines = []
    if not sups:
        lines.append("supports: none (free structure: M counts its internal mechanisms; --support auto proposes the "
                     "fewest held directions that stop its rigid-body motions)")
    else:
        n_dir = sum(len(s.dofs) for s in sups)
        lines.append(f"supports: {len(sups)} ({n_dir} held directions; {where(sups, 'supports')}), 1-based as in "
                     f"supports.csv:")
        lines.append("  panel  vertex  held  from")
        for s, o in list(zip(sups, origins("supports")))[:max_rows]:
            lines.append(f"  {s.panel + 1:>5}  {s.vertex + 1:>6}  {s.dofs:<4}  {o}")
        lines += tail(len(sups))
    loads = structure.loads
    if loads:
        lines.append(f"loads: {len(loads)} point force{'s' if len(loads) != 1 else ''} ({where(loads, 'loads')}), "
                     f"global frame:")
        rows = [("panel", "vertex", "Fx", "Fy", "Fz", "from")]
        for ld, o in list(zip(loads, origins("loads")))[:max_rows]:
            rows.append(("shared" if ld.panel is None else str(ld.panel + 1), str(ld.vertex + 1),
                         *(f"{float(x):.6g}" for x in ld.force), o))
        widths = [max(len(r[i]) for r in rows) for i in range(6)]
        lines += ["  " + "  ".join(c.rjust(w) if i < 5 else c for i, (c, w) in enumerate(zip(r, widths)))
                  for r in rows]
        lines += tail(len(loads))
    if structure.gravity is not None:
        weight = float(structure_mass_properties(structure)[0].sum())
        th = sorted(set(structure.thickness))
        thick = f"{th[0]:g}" if len(th) == 1 else f"{th[0]:g} .. {th[-1]:g}"
        g = tuple(float(x) for x in structure.gravity)
        lines.append(f"self-weight: gravity ({g[0]:g}, {g[1]:g}, {g[2]:g}), density {structure.density:g}, "
                     f"thickness {thick}: total mass {weight:.6g}, weight {weight * float(np.linalg.norm(g)):.6g} at "
                     f"the panel centroids")
    elif not loads:
        lines.append("loads: none")
    return "\n".join(lines)
