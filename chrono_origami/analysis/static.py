"""Counting (M, S) and statics of a structure, by either engine (``engines.get``).

``engine``: an engine object or ``"reference"``, ``"chrono"``, ``None``/``"auto"``
(``engines.get``, the one rule: Chrono where PyChrono imports). Both
engines return the same result types (``results``), so the same tables, CSV
and figures come out; ``options`` go to the engine (``form``/``hinge_form``,
``rtol``, ``linalg``, ...).
"""
import numpy as np

from .. import engines
from ..structure import hinges
from ..structure.tolerance import HingeStiffness
from ..results.count import number_ranges
from ..tools.errors import FreeBodyError, UsageError
from .support import free_pieces
from ..structure.hinges import DOOR
from ..tools import memory
from ..tools.threads import with_blas_threads


@with_blas_threads
@memory.guarded(lambda structure, *a, **k: f"counting {memory.about(structure)}")
def count(structure, engine=None, **options):
    """Numeric counts (``results.count.Counts``) from the chosen engine's constraint Jacobian."""
    return engines.get(engine).count(structure, **options)


@with_blas_threads
@memory.guarded(lambda structure, *a, **k: f"the statics of {memory.about(structure)}")
def static(structure, engine=None, allow_indeterminate=False, elastic=False, stiffness=None, nonlinear=False,
           sensitivity=True, **options):
    """Hinge internal actions and support reactions (``results.static.StaticResult``).

    ``elastic``: with elastic hinges (``stiffness``: a ``structure.tolerance.HingeStiffness``, default its
    SI defaults), for any structure (status "elastic"); ``nonlinear``: the geometrically nonlinear solve
    (an engine with ``NONLINEAR_ELASTIC``: Chrono; the others refuse it). ``sensitivity``: also
    :func:`stiffness_sensitivity` (``info["sensitivity"]``) and the largest change of one hinge's stiffness doubled
    (``info["hinge_sensitivity"]``, ``engines.compliance.hinge_sensitivity``; the linear solve's).
    ``allow_indeterminate`` (the minimum-norm answer) and ``elastic`` exclude each other.
    """
    if not elastic:
        if nonlinear:
            raise UsageError("nonlinear= is a setting of the elastic statics (elastic=True)")
        return engines.get(engine).static(structure, allow_indeterminate=allow_indeterminate, **options)
    if allow_indeterminate:
        raise UsageError("--elastic and --min-norm exclude each other: elastic hinges give the one answer the "
                         "structure carries, the minimum-norm answer is one of many")
    check_held(structure)
    stiffness = stiffness or HingeStiffness()
    eng = engines.get(engine)
    extra = {"hinge_sensitivity": True} if sensitivity and not nonlinear else {}
    result = eng.static_elastic(structure, stiffness, nonlinear=nonlinear, **extra, **options)
    if sensitivity:
        result.info["sensitivity"] = stiffness_sensitivity(structure, result, eng, stiffness, nonlinear, **options)
        result.info.setdefault("hinge_sensitivity", {
            "F": None, "M": None, "at_F": None, "at_M": None, "tried": 0, "of": len(structure.pattern.hinges),
            "method": "not computed" + (": the nonlinear solve tries each kind's stiffness only" if nonlinear
                                        else f" by the {eng.name} engine")})
    return result


def check_held(structure):
    """Refuse (``FreeBodyError``, exit 2) elastic statics of a structure whose supports leave a piece (panels joined by
    hinges) free to move as a rigid body (``support.free_pieces``): elastic hinges resist only relative motions of
    hinged panels. A structure of one piece without any support is not refused: its loads must balance and its rigid
    motions are held (the engines' elastic statics)."""
    n_pieces = len(structure.pattern.pieces)
    free = free_pieces(structure)
    if not free or (n_pieces == 1 and not structure.supports):
        return
    shown = "; ".join(f"panel{'s' if len(p) > 1 else ''} {number_ranges([int(i) + 1 for i in p], 4).strip('[]')} "
                      f"({k} free motion{'s' if k > 1 else ''})" for p, k in free[:3])
    more = f"; and {len(free) - 3} more pieces" if len(free) > 3 else ""
    whole = "the structure" if n_pieces == 1 else f"{len(free)} of the structure's {n_pieces} pieces (panels joined by hinges)"
    raise FreeBodyError(f"{structure.name}: the supports leave {whole} free to move as a rigid body, which elastic "
                        f"hinges cannot hold (they resist only relative motions of hinged panels): {shown}{more}; hold "
                        f"each piece in six independent directions (--support SELECTOR:DOFS; support FILE proposes "
                        f"them)")


def force_resultants(result):
    """|F| of every hinge side of a static result (the order of ``result.hinge_actions``)."""
    return np.array([float(np.linalg.norm(a.force)) for a in result.hinge_actions])


def moment_resultants(result):
    """|M| (about the hinge's midpoint) of every hinge side of a static result (the order of
    ``result.hinge_actions``)."""
    return np.array([float(np.linalg.norm(a.moment)) for a in result.hinge_actions])


def stiffness_sensitivity(structure, result, eng, stiffness, nonlinear=False, **options):
    """{stiffness: {"F": largest change of |F| over hinge sides / the largest |F|, "M": the same of |M|}} when that
    stiffness alone is doubled: "KIND k_t" and "KIND k_r" the translational and rotational stiffness of the hinges
    of each kind present (``HingeStiffness.doubled``), "crease" and "slide" the springs of the free directions where
    they are used (``results.static.resultant_changes``: moments below round-off of the largest |F| x L are
    measured against it). Each is a second solve. (Doubling every stiffness at once changes no force: supports
    are rigid.) An isostatic structure's answer does not depend on the stiffness: every entry is 0 (not
    solved)."""
    from ..results.static import resultant_changes

    kinds = list(dict.fromkeys(structure.hinge_kinds))
    names = [(k, w) for k in kinds for w in ("k_t", "k_r")]
    if result.info.get("springs"):
        names.append(("crease", "both"))
        if any(c in "xyz" for k in kinds for c in hinges.get(k).free):
            names.append(("slide", "both"))
    label = {n: n[0] if n[1] == "both" else f"{n[0]} {n[1]}" for n in names}
    if result.M == 0 and result.S == 0:
        return {label[n]: {"F": 0.0, "M": 0.0} for n in names}
    F0, M0 = force_resultants(result), moment_resultants(result)
    L = structure.pattern.size or 1.0
    out = {}
    for n in names:
        other = eng.static_elastic(structure, stiffness.doubled(structure, *n), nonlinear=nonlinear, **options)
        dF, dM = resultant_changes(F0, M0, force_resultants(other), moment_resultants(other), L)
        out[label[n]] = {"F": float(dF), "M": float(dM)}
    return out


def counts_summary(structure, counts):
    """Plain dict for counts.json: numeric M, S beside the counting-rule values."""
    rules = engines.linear().counting_rules(structure)
    kept, dropped = counts.gap
    d = {"M": int(counts.M), "S": int(counts.S), "rank": int(counts.rank),
         "n_dof": int(counts.n_dof), "n_constraints": int(counts.n_constraints),
         "sigma_min_kept_rel": float(kept), "sigma_max_dropped_rel": float(dropped),
         "rank_rtol": counts.rtol, "linalg": counts.linalg}
    d.update(rules.as_dict())
    generic = (not structure.supports) and set(structure.hinge_kinds) <= {DOOR}   # the bar-framework comparison
    d["singular"] = bool(counts.M > rules.M_BF) if generic and rules.M_BF is not None else None
    return d
