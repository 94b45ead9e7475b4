"""Statics by duality (paper sec. 4.1): equilibrium Cs^T mu = -f for every panel.

With M = 0 and S = 0 the answer is unique; a structure without supports
(M counts internal mechanisms only) is free to move as a rigid body and is
solved only when its loads balance (else :class:`FreeBodyError`). Otherwise :func:`solve` raises
:class:`IndeterminateError` (with M, S and the hinges that carry self-stress
or the panels that move), unless ``allow_indeterminate=True``: then it returns
the minimum-norm particular solution (in the scaled multipliers, see
``model``), labelled ``status="minimum-norm"``, together with the self-stress
states, any multiple of which may be added.
"""
import numpy as np
import scipy.linalg as sla
import scipy.sparse.linalg as spla

from .. import linalg as la
from .. import memory
from ..errors import FreeBodyError, IndeterminateError, SolverError, StructureError
from ..progress import Stages
from ..results import StaticResult, SupportReaction, hinge_actions
from .counting import RANK_RTOL, count

#: Largest accepted relative equilibrium residual |Cs^T mu + f| / |f|.
EQUILIBRIUM_RTOL = 1e-9


#: Self-stress states and mechanisms listed one by one up to this many; above, the hinges and panels involved.
LIST_LIMIT = 20


def describe_indeterminacy(structure, counts, tol=1e-6):
    """Plain-text detail: hinges carrying each self-stress state, panels moved by each mechanism.

    Up to :data:`LIST_LIMIT` states (mechanisms) are listed one by one;
    beyond, or where the basis is too large to form (sparse path), one line
    names every hinge (panel) that some state involves, read off one generic
    member of the space (``Counts.self_stress_sample``).
    """
    model = counts.model
    lines = []

    def stress_line(mu, label):
        hinges = [h + 1 for h, rows in enumerate(model.hinge_rows) if np.abs(mu[rows]).max(initial=0) > tol]
        sups = [structure.supports[s].vertex + 1 for s, rows in enumerate(model.support_rows)
                if np.abs(mu[rows]).max(initial=0) > tol]
        line = f"  {label}: hinges {_ranges(hinges)}"
        if sups:
            line += f", supports at vertices {_ranges(sups)}"
        return line

    def motion_line(d, label):
        moving = np.linalg.norm(d.reshape(-1, 6), axis=1)
        panels = [int(p) + 1 for p in np.nonzero(moving > tol * max(moving.max(), 1e-300))[0]]
        return f"  {label}: panels {_ranges(panels)}"

    if counts.S <= LIST_LIMIT:
        for k in range(counts.S):
            lines.append(stress_line(counts.self_stresses[:, k], f"self-stress state {k + 1}"))
    elif counts.S:
        lines.append(stress_line(counts.self_stress_sample(), f"the {counts.S} self-stress states involve"))
    if counts.M <= LIST_LIMIT:
        for k in range(counts.M):
            lines.append(motion_line(counts.mechanisms[:, k], f"mechanism {k + 1}"))
    else:
        lines.append(motion_line(counts.mechanism_sample(), f"the {counts.M} mechanisms move"))
    return "\n".join(lines)


def _ranges(numbers, max_items=12):
    """[1, 2, 3, 7] -> '1-3, 7 (4 in all)' for long lists, cut after ``max_items`` runs; the plain list when short."""
    if len(numbers) <= max_items:
        return str(numbers)
    out, start = [], None
    for i, k in enumerate(numbers):
        if start is None:
            start = k
        if i + 1 == len(numbers) or numbers[i + 1] != k + 1:
            out.append(str(start) if start == k else f"{start}-{k}")
            start = None
    more = ", ..." if len(out) > max_items else ""
    return f"{', '.join(out[:max_items])}{more} ({len(numbers)} in all)"


@memory.guarded(lambda structure, *a, **k: f"the statics of {memory.about(structure)}")
def solve(structure, form="hinge", allow_indeterminate=False, rtol=RANK_RTOL, counts=None, linalg="auto"):
    """Hinge internal actions and support reactions of ``structure`` under its loads.

    ``linalg`` ("auto", "dense", "sparse") is the counting path
    (``counting.count``); the sparse path solves a determined structure by a
    sparse LU of Cs^T (SuperLU) and the minimum-norm problem by LSMR.
    """
    counts = counts or count(structure, form, rtol, linalg=linalg)
    model = counts.model
    if not counts.isostatic and not allow_indeterminate:
        raise IndeterminateError(
            f"{structure.name}: the static problem is not determined (M = {counts.M} mechanisms, "
            f"S = {counts.S} self-stress states); pass allow_indeterminate=True for the labelled "
            f"minimum-norm solution", counts.M, counts.S, describe_indeterminacy(structure, counts))
    f = model.generalized_forces(structure.panel_loads())
    A = model.Cs.T.tocsc()
    status = "determined" if counts.isostatic else "minimum-norm"
    square = A.shape[0] == A.shape[1]   # not for a free structure: Cs^T has 6 rows more (its rigid motions)
    with Stages("statics") as stage:
        if counts.linalg == "dense":
            Ad = A.toarray()
            mu = sla.solve(Ad, -f) if counts.isostatic and square else sla.lstsq(Ad, -f, cond=rtol)[0]
        elif counts.isostatic and square:
            stage(f"sparse LU of the {A.shape[0]} x {A.shape[1]} equilibrium operator")
            from .. import sparseqr

            need, how = sparseqr.lu_memory(A)
            memory.check(f"the sparse LU of the {A.shape[0]:,} x {A.shape[1]:,} equilibrium operator ({how} from its "
                         f"structure)", need)
            mu = spla.splu(A).solve(-f)
        else:
            stage(f"least squares (LSMR) on the {A.shape[0]} x {A.shape[1]} equilibrium operator")
            mu = la.min_norm_lstsq(A, -f, f"{structure.name}: the minimum-norm statics")
    res = np.linalg.norm(A @ mu + f)
    scale = max(np.linalg.norm(f), 1e-300)
    rel = res / scale if np.linalg.norm(f) > 0 else res
    if rel > EQUILIBRIUM_RTOL:
        if counts.isostatic and not counts.supported:
            raise FreeBodyError.unbalanced(structure.name, rel)
        if counts.isostatic:
            raise SolverError(f"{structure.name}: equilibrium residual {rel:.3g} after the solve (ill-conditioned)")
        raise IndeterminateError(
            f"{structure.name}: the loads cannot be equilibrated (relative residual {rel:.3g}); "
            f"the structure has M = {counts.M} mechanisms that the loads excite", counts.M, counts.S,
            describe_indeterminacy(structure, counts))
    result = StaticResult(structure, "reference", status, counts.M, counts.S,
                          multiplier_actions(structure, model, mu), _reactions(structure, model, mu), rel,
                          info={"form": form, "gap": counts.gap, "linalg": counts.linalg})
    if status != "determined":
        if counts.linalg == "dense" or counts.S <= LIST_LIMIT:
            result.self_stress_actions = self_stress_actions(structure, counts)
        else:
            result.info["self_stress_states"] = f"not formed: S = {counts.S} > {LIST_LIMIT} on the sparse path"
    return result


def self_stress_actions(structure, counts):
    """Hinge actions of each self-stress state of ``counts`` (arbitrary scale): one list of HingeAction per state."""
    return [multiplier_actions(structure, counts.model, counts.self_stresses[:, k]) for k in range(counts.S)]


def multiplier_actions(structure, model, mu):
    """Hinge actions (list of ``results.HingeAction``) of the scaled multipliers ``mu`` of ``model`` (see ``model``)."""
    pat = structure.pattern
    if not pat.hinges:
        return []
    ab = np.array([h.vertices for h in pat.hinges])
    q = np.array([h.panels[1] for h in pat.hinges])
    mid = 0.5 * (pat.vertices[ab[:, 0]] + pat.vertices[ab[:, 1]])
    F, M0 = model.hinge_wrenches(mu, q)
    return hinge_actions(pat, structure.hinge_kinds, list(zip(F, M0 - np.cross(mid - model.x0, F))))


def paper_self_stress(structure, state=0):
    """Counts and hinge actions of self-stress ``state`` (0-based) scaled like the paper's Table 8.

    The paper's self-stress has unit Euclidean norm of its multipliers lambda
    (eq. 34), mixing units: the rotation rows of each hinge (the first two of
    door and sliding hinges; ``HingeKind.hinge_row_kinds``) carry couples
    (moment units), all other rows forces. We found this by fitting Table 8
    (the fitted scale equals 1/|lambda| to 3e-6). The sign is fixed so that the
    largest |lambda| is positive. Returns (counts, list of HingeAction).
    """
    counts = count(structure, "hinge")
    if not 0 <= state < counts.S:
        raise StructureError(f"{structure.name}: no self-stress state {state + 1} (S = {counts.S})")
    model = counts.model
    mu = counts.self_stresses[:, state].copy()
    lam = mu / model.L                      # force rows: mu = L * force
    for kind, rows in zip(structure.kinds, model.hinge_rows):   # rotation rows: couples
        couples = [rows.start + i for i, k in enumerate(kind.hinge_row_kinds) if k == "r"]
        lam[couples] = mu[couples]
    scale = 1.0 / np.linalg.norm(lam)
    if lam[np.argmax(np.abs(lam))] < 0:
        scale = -scale
    return counts, multiplier_actions(structure, model, scale * mu)


def _reactions(structure, model, mu):
    out = []
    for k, (s, rows) in enumerate(zip(structure.supports, model.support_rows)):
        F, _ = model.block_wrench(rows, mu, s.panel)
        out.append(SupportReaction(k, s.vertex, s.panel, s.dofs, F))
    return out
