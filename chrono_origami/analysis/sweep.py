"""Parametric sweeps: one row of a tidy table per case (``docs/sweeps.md``; cases from ``inputs.sweep``).

:func:`run_case` (case) -> row: a pure function of the case (the same row,
but for ``wall_s`` and ``cpu_s``, in any process), which never raises: a case that fails
gives its row with the one-line ``error`` and empty outputs. :func:`run`
sends cases to a ``tools.cluster.Executor`` (here, a local Dask cluster or the
user's) and yields their rows as they complete.

What a case computes (reference engine unless the spec's engine says chrono)
----------------------------------------------------------------------------
1. the structure: the family's geometry, supports and the load case's loads,
   with the design's hinge kinds: "door" every hinge a door hinge; "own" the
   family's (or file's) own; "isostatic" the best design of
   ``design.design`` from all door hinges (its ``max_ranked``, ``orders``
   -- the search's random orders -- and ``improve``); a given list: those
   hinges (1-based) sliding, the others door;
2. M and S (the rank rule of the linear theory, ``engines.linear()``) and the condition
   number of the design: sigma_max / sigma_min of the nonzero singular values
   of the scaled operator Cs (the design search's ranking metric);
3. the hinge actions under the load case (columns ``max_N`` ... ``max_MO``:
   the largest |value| over hinges and sides of each component, forces N
   and moments N m in SI). ``statics`` says how they were found: "rigid"
   (M = S = 0: equilibrium alone), "elastic" (S > 0 or M > 0: the elastic
   hinges of the case's stiffness ``k_t``, ``k_r``, and crease springs
   ``k_c`` where M > 0: ``analysis.static.static(elastic=True)``), "none"
   (the load case has no load: zeros), or "not carried" (the loads of a
   structure without supports do not balance: empty). With "elastic",
   ``stiffness_sensitivity``: the largest relative change of |F| or |M| when
   each kind's stiffness, or one hinge's, is doubled
   (``results.static.sensitivity_max``; 0 for "rigid"), and ``displacement_rel``: the largest vertex displacement over
   the structure's size;
4. the locked-in statistics of the tolerance (``tolerances.locked_in_statistics``
   and ``tolerances.summary``: ``locked_sd_C``, ``locked_p95_C``,
   ``locked_p99_C``, the largest over hinges of each component C) and, with
   Monte Carlo samples, ``locked_max_p95_C`` / ``locked_max_p99_C`` (the
   percentiles of the largest over hinges);
5. ``wall_s``: the case's wall time (s), where it ran; ``cpu_s``: the CPU
   time of the thread that ran it (s): ``wall_s`` well above ``cpu_s``
   means the machine was busy with other work.
"""
import time

import numpy as np

from .. import engines
from ..engines.protocol import LINEAR_THEORY
from ..inputs import sweep as sweepspec
from ..results.static import sensitivity_max
from ..structure import tolerance as imp
from ..structure.hinges import DOOR, SLIDING
from ..tools.errors import FreeBodyError, IndeterminateError, OrigamiError, SchedulerError, SpecError
from . import static as analysis
from . import tolerance as tl

#: components in the order of the summary columns
COMPONENTS = ("N", "TP", "TO", "MT", "MP", "MO")
#: the table's output columns (after ``case``, ``case_id`` and ``sweepspec.PARAM_COLUMNS``) and their kinds
OUTPUT_COLUMNS = (
    (("panels", "int"), ("hinges", "int"), ("sliding", "int"), ("sliding_hinges", "text"), ("M", "int"),
     ("S", "int"), ("condition", "float"), ("statics", "text"))
    + tuple((f"max_{c}", "float") for c in COMPONENTS)
    + (("stiffness_sensitivity", "float"), ("displacement_rel", "float"))
    + tuple((f"locked_{s}_{c}", "float") for c in COMPONENTS for s in ("sd", "p95", "p99"))
    + tuple((f"locked_max_{s}_{c}", "float") for c in COMPONENTS for s in ("p95", "p99"))
    + (("method", "text"), ("mc_samples", "int"), ("wall_s", "float"), ("cpu_s", "float"), ("error", "text")))
#: every column of the table, in order, with its kind ("int", "float", "text")
COLUMNS = (("case", "int"), ("case_id", "text")) + sweepspec.PARAM_COLUMNS + OUTPUT_COLUMNS
COLUMN_NAMES = tuple(n for n, _ in COLUMNS)
#: the columns that differ between two runs of the same case (where and when it ran)
TIMING_COLUMNS = ("wall_s", "cpu_s")
#: relative equilibrium residual above which loads are said to work on a mechanism
CARRIED_RTOL = 1e-8


def one_line(exc):
    """The one-line error of a failed case: the message (its first line), with the exception's type for an
    error that is not the project's own (a bug, or a library's)."""
    text = str(exc).split("\n", 1)[0].strip()
    if isinstance(exc, OrigamiError):
        return text or type(exc).__name__
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def empty_row(case):
    """The row of ``case`` with its parameters and no outputs."""
    row = dict.fromkeys(COLUMN_NAMES)
    row.update(case.params)
    row["case"], row["case_id"] = case.number, case.id
    return row


def designed(structure, case):
    """(structure with the case's design, 0-based sliding hinges)."""
    design = case.params["design"]
    H = len(structure.pattern.hinges)
    if design == "own":
        kinds = structure.hinge_kinds
    elif design == "door":
        kinds = (DOOR,) * H
    elif design == "isostatic":
        from . import design as dz

        o = case.options["search"]
        result = dz.design(sweepspec.all_door(structure), max_ranked=o["max_ranked"], samples=o["orders"],
                           improve=o["improve"])
        kinds = result.best.hinge_kinds(H)
    else:
        given = case.options["sliding"]
        bad = [h for h in given if h > H]
        if bad:
            raise SpecError(f"design {design!r}: hinge {bad[0]} does not exist ({H} hinges)")
        sl = {h - 1 for h in given}
        kinds = tuple(SLIDING if h in sl else DOOR for h in range(H))
    st = structure.with_hinge_kinds(kinds)
    return st, [h for h, k in enumerate(st.hinge_kinds) if k == SLIDING]


def _largest(structure, result):
    """Largest |value| per component (N, TP, TO, MT, MP, MO) over hinges and sides."""
    vals = np.abs(tl.side_values(structure, result)).reshape(-1, 6)
    order = [tl.COMPONENTS.index(c) for c in COMPONENTS]
    return vals.max(axis=0, initial=0.0)[order]


def forces(structure, solver, engine, stiffness):
    """("rigid" | "elastic" | "none" | "not carried", largest |value| per component or None, stiffness sensitivity,
    relative displacement) under the loads. ``engine``: an engine object or name (``engines.get``); one of the
    linear theory (``LINEAR_THEORY``) reuses ``solver``'s counts and leaves judging its equilibrium residual here."""
    if not structure.loads and structure.gravity is None:
        return "none", np.zeros(6), 0.0, None
    eng = engines.get(engine)
    c = solver.counts
    linear = LINEAR_THEORY in eng.capabilities
    reuse = {"counts": c} if linear else {}
    if c.M == 0 and c.S == 0:
        res = analysis.static(structure, eng, **reuse)
        return "rigid", _largest(structure, res), 0.0, None
    try:                            # unbalanced loads on a structure without supports are refused
        res = analysis.static(structure, eng, elastic=True, stiffness=stiffness, **reuse)
    except (IndeterminateError, FreeBodyError):
        return "not carried", None, None, None
    if linear and res.info["equilibrium_residual"] > CARRIED_RTOL:
        return "not carried", None, None, None
    return ("elastic", _largest(structure, res), sensitivity_max(res.info),
            float(res.info["displacement_relative"]))


def run_case(case):
    """The table row of ``case`` (a dict of :data:`COLUMN_NAMES`); a failure is recorded in ``error``."""
    t0, c0 = time.perf_counter(), time.thread_time()
    row = empty_row(case)
    try:
        _compute(case, row)
    except Exception as exc:               # recorded, and the sweep goes on
        keep = {k: row[k] for k in ("case", "case_id", *case.params)}
        row = dict.fromkeys(COLUMN_NAMES)
        row.update(keep)
        row["error"] = one_line(exc)
    row["wall_s"], row["cpu_s"] = time.perf_counter() - t0, time.thread_time() - c0
    return row


def _compute(case, row):
    p = case.params
    structure, sliding = designed(sweepspec.case_structure(case), case)
    pat = structure.pattern
    row.update(panels=pat.n_panels, hinges=len(pat.hinges), sliding=len(sliding),
               sliding_hinges=" ".join(str(h + 1) for h in sliding))
    stiffness = case.stiffness()
    solver = engines.linear().tolerance_solver(structure, stiffness)
    c = solver.counts
    kept = c.gap[0]
    row.update(M=int(c.M), S=int(c.S), condition=float(1.0 / kept) if c.rank and kept > 0 else float("nan"))
    how, largest, row["stiffness_sensitivity"], row["displacement_rel"] = forces(structure, solver, p["engine"],
                                                                                  stiffness)
    row["statics"] = how
    for k, comp in enumerate(COMPONENTS):
        row[f"max_{comp}"] = float("nan") if largest is None else float(largest[k])
    spec = case.tolerance_spec()
    o = case.options["statistics"]
    stats = tl.locked_in_statistics(structure, spec, stiffness, method=o["method"], probes=o["probes"],
                                    seed=p["seed"], solver=solver)
    row.update(tl.summary(stats))
    row["method"] = stats.method
    row["mc_samples"] = int(o["samples"])
    if o["samples"]:
        mc = tl.monte_carlo(structure, spec, o["samples"], stiffness, p["engine"], seed=p["seed"])
        row.update({k: v for k, v in tl.summary(mc).items() if k.startswith("locked_max_")})


def run(cases, executor):
    """Yield ``(case, row, failure)`` for every case as it completes on ``executor`` (``tools.cluster.Executor``):
    ``row`` its table row (a failed case included: its ``error``), or ``failure`` the exception of a task that
    did not return (a worker lost too often, the cluster gone): that case has no row and stays to be run."""
    cases = list(cases)
    keys = [f"chrono-origami-case-{c.id}" for c in cases]
    for i, ok, value in executor.run(run_case, cases, keys=keys):
        if ok and isinstance(value, dict):
            yield cases[i], value, None
        elif ok:                            # run_case always returns a row: its result was lost on the way
            yield cases[i], None, SchedulerError(f"case {cases[i].number}: its row was lost on the way from "
                                                 f"{getattr(executor, 'name', 'the executor')}")
        else:
            yield cases[i], None, value
