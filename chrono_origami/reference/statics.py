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

from ..errors import FreeBodyError, IndeterminateError, SolverError
from ..results import StaticResult, SupportReaction, hinge_actions
from .counting import RANK_RTOL, count

#: Largest accepted relative equilibrium residual |Cs^T mu + f| / |f|.
EQUILIBRIUM_RTOL = 1e-9


def describe_indeterminacy(structure, counts, tol=1e-6):
    """Plain-text detail: hinges carrying each self-stress state, panels moved by each mechanism."""
    model = counts.model
    lines = []
    for k in range(counts.S):
        mu = counts.self_stresses[:, k]
        hinges = [h + 1 for h, rows in enumerate(model.hinge_rows) if np.abs(mu[rows]).max(initial=0) > tol]
        sups = [structure.supports[s].vertex + 1 for s, rows in enumerate(model.support_rows)
                if np.abs(mu[rows]).max(initial=0) > tol]
        line = f"  self-stress state {k + 1}: hinges {hinges}"
        if sups:
            line += f", supports at vertices {sups}"
        lines.append(line)
    for k in range(counts.M):
        d = counts.mechanisms[:, k].reshape(-1, 6)
        moving = np.linalg.norm(d, axis=1)
        panels = [int(p) + 1 for p in np.nonzero(moving > tol * max(moving.max(), 1e-300))[0]]
        lines.append(f"  mechanism {k + 1}: panels {panels}")
    return "\n".join(lines)


def solve(structure, form="hinge", allow_indeterminate=False, rtol=RANK_RTOL, counts=None):
    """Hinge internal actions and support reactions of ``structure`` under its loads."""
    counts = counts or count(structure, form, rtol)
    model = counts.model
    if not counts.isostatic and not allow_indeterminate:
        raise IndeterminateError(
            f"{structure.name}: the static problem is not determined (M = {counts.M} mechanisms, "
            f"S = {counts.S} self-stress states); pass allow_indeterminate=True for the labelled "
            f"minimum-norm solution", counts.M, counts.S, describe_indeterminacy(structure, counts))
    f = model.generalized_forces(structure.panel_loads())
    A = model.Cs.T.toarray()
    if counts.isostatic and not counts.supported:
        # free: Cs^T has 6 more rows than columns (the rigid motions); unique when the loads balance
        mu = sla.lstsq(A, -f)[0]
        status = "determined"
        rel = np.linalg.norm(A @ mu + f) / max(np.linalg.norm(f), 1e-300)
        if rel > EQUILIBRIUM_RTOL:
            raise FreeBodyError(f"{structure.name}: the structure has no supports, so it is free to move as a rigid "
                                f"body, and its loads do not balance (relative resultant {rel:.3g}); add supports "
                                f"(FOLD key vertices_origami:support)")
    elif counts.isostatic:
        mu = sla.solve(A, -f)
        status = "determined"
    else:
        mu = sla.lstsq(A, -f, cond=rtol)[0]
        status = "minimum-norm"
    res = np.linalg.norm(A @ mu + f)
    scale = max(np.linalg.norm(f), 1e-300)
    rel = res / scale if np.linalg.norm(f) > 0 else res
    if rel > EQUILIBRIUM_RTOL:
        if counts.isostatic:
            raise SolverError(f"{structure.name}: equilibrium residual {rel:.3g} after the solve (ill-conditioned)")
        raise IndeterminateError(
            f"{structure.name}: the loads cannot be equilibrated (relative residual {rel:.3g}); "
            f"the structure has M = {counts.M} mechanisms that the loads excite", counts.M, counts.S,
            describe_indeterminacy(structure, counts))
    result = StaticResult(structure, "reference", status, counts.M, counts.S,
                          _actions(structure, model, mu), _reactions(structure, model, mu), rel,
                          info={"form": form, "gap": counts.gap})
    if status != "determined":
        result.self_stress_actions = self_stress_actions(structure, counts)
    return result


def self_stress_actions(structure, counts):
    """Hinge actions of each self-stress state of ``counts`` (arbitrary scale): one list of HingeAction per state."""
    return [_actions(structure, counts.model, counts.self_stresses[:, k]) for k in range(counts.S)]


def _actions(structure, model, mu):
    pat = structure.pattern
    wrenches = []
    for h, rows in enumerate(model.hinge_rows):
        q = pat.hinges[h].panels[1]
        a, b = pat.hinges[h].vertices
        mid = 0.5 * (pat.vertices[a] + pat.vertices[b])
        F, M0 = model.block_wrench(rows, mu, q)
        wrenches.append((F, M0 - np.cross(mid - model.x0, F)))
    return hinge_actions(pat, structure.hinge_kinds, wrenches)


def _reactions(structure, model, mu):
    out = []
    for k, (s, rows) in enumerate(zip(structure.supports, model.support_rows)):
        F, _ = model.block_wrench(rows, mu, s.panel)
        out.append(SupportReaction(k, s.vertex, s.panel, s.dofs, F))
    return out
