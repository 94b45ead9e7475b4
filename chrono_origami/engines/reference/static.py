"""Statics by duality (paper sec. 4.1) on the reference engine's operator: :func:`solve` assembles and
counts it (``counting.count``) and solves it by :func:`chrono_origami.engines.compatibility.solve` (which says
how determined, free and indeterminate structures are treated); :func:`paper_self_stress` scales a
self-stress state like the paper's Table 8.
"""
import numpy as np

from ...tools import memory
from ...tools.errors import StructureError
from ...tools.linalg import RANK_RTOL
from .. import compatibility as operator
from .count import count


@memory.guarded(lambda structure, *a, **k: f"the statics of {memory.about(structure)}")
def solve(structure, form="hinge", allow_indeterminate=False, rtol=RANK_RTOL, counts=None, linalg="auto"):
    """Hinge internal actions and support reactions of ``structure`` under its loads (``operator.solve``).

    ``linalg`` ("auto", "dense", "sparse") is the counting path
    (``counting.count``); the sparse path solves a determined structure by a
    sparse LU of Cs^T (SuperLU) and the minimum-norm problem by LSMR.
    """
    counts = counts or count(structure, form, rtol, linalg=linalg)
    return operator.solve(structure, counts, allow_indeterminate, rtol, form)


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
    return counts, operator.multiplier_actions(structure, model, scale * mu)


