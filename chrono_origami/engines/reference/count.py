"""Mechanisms M and self-stress states S, numerically and by the paper's counting rules.

Numeric counts (rank of the scaled compatibility operator, see ``model``):
    S = m - rank,  M = 6P - rank, less the 6 rigid-body motions when the
    structure has no supports (the paper counts internal mechanisms).
Rank tolerance: singular values below ``rtol * sigma_max`` count as zero
(default :data:`chrono_origami.tools.linalg.RANK_RTOL`). ``Counts.gap`` reports the smallest kept and the
largest dropped singular value, so a near-singular configuration is visible.

Counting rules (paper sec. 2), as cross-checks:
    bar framework (every panel made rigid with 3 V_p - 6 bars):
        M_BF - S_BF = 3 V - 6 - E - sum_p (2 V_p - 6),
    which for a disk-like pattern is the paper's (E_b - 3) - sum_p (V_p - 3);
    panel-hinge: S_PH = S_BF + 3 V_i (all door hinges, no supports), M_PH = M_BF;
    Maxwell for the panel-hinge model as given: M - S = 6P - 6 - (sum over
    the hinges of their kind's rows: 5 H_door + 4 H_sliding with the built-in
    kinds) - (support constraints) (+6 when supported).
The rules give M - S; the paper takes M from the pattern's kinematics (M = E_b - 3
for a triangulated pattern, M = 1 for Miura-ori, the square twist and the
four-panel ring). :func:`counting_rules` uses, in this order, the ``M`` passed
in, the pattern's ``generic_mechanisms`` (the pattern family's M, set and
documented by its builder), or the generic M of the pattern's graph (the bar
framework at random vertex positions: exact for triangulated patterns).
"""
from dataclasses import dataclass
from typing import Optional

import numpy as np
import scipy.sparse as sp

from ...tools import linalg as la
from ...tools import memory
from ...tools.linalg import RANK_RTOL
from ...tools.progress import Stages
from .. import compatibility as operator
from .model import assemble


@memory.guarded(lambda structure, *a, **k: f"counting {memory.about(structure)}")
def count(structure, form="hinge", rtol=RANK_RTOL, model=None, linalg="auto"):
    """Numeric M and S of ``structure`` (:class:`~chrono_origami.results.count.Counts`) by ``operator.count``.

    ``linalg``: "auto" (dense up to :data:`~chrono_origami.tools.linalg.DENSE_LIMIT`
    columns), "dense" or "sparse" (:func:`chrono_origami.tools.linalg.choose_method`). Both paths apply the same rank rule: singular values
    at most ``rtol`` times the largest are zero.
    """
    with Stages("counting M and S") as stage:
        if model is None:
            stage("assembling the operator")
            model = assemble(structure, form)
        return operator.count(model, len(structure.supports) > 0, rtol, linalg, stage, structure.pattern)


# ------------------------------------------------------------------ counting rules
@dataclass
class RuleCounts:
    P: int
    H: int
    E_b: int
    V_i: int
    sum_V_minus_3: int
    index_BF: int   # M_BF - S_BF
    M_BF: Optional[int]   # None above GENERIC_LIMIT when no builder counted it
    S_BF: Optional[int]
    S_PH: Optional[int]
    maxwell: int    # M - S predicted for the structure as given (hinge kinds, supports)
    M_source: str   # "given", "builder", "generic graph" or "not computed (...)"

    def as_dict(self):
        return dict(P=self.P, H=self.H, E_b=self.E_b, V_i=self.V_i, sum_V_minus_3=self.sum_V_minus_3,
                    M_BF_minus_S_BF=self.index_BF, M_BF=self.M_BF, S_BF=self.S_BF, S_PH=self.S_PH,
                    maxwell_M_minus_S=self.maxwell, M_source=self.M_source)


def bar_framework_index(pattern):
    """M_BF - S_BF = 3V - 6 - E - sum_p (2 V_p - 6) of the bar framework with rigid panels."""
    return 3 * pattern.n_vertices - 6 - len(pattern.edges) - sum(2 * len(loop) - 6 for loop in pattern.panels)


#: the bar framework at random positions (the counting rules' M_BF of a pattern no builder counted) is ranked up to
#: this many columns (3 per vertex): above it, its rows are too ill-conditioned to rank (a long strip's random
#: bars: 36 mechanisms counted for 3 at 15,000 vertices, and a 30 GB null-space search at 150,000), and M_BF,
#: S_BF and S_PH are reported as not computed. They are information beside the count, which does not use them.
GENERIC_LIMIT = 30_000


def generic_graph_mechanisms(pattern, seed=0, rtol=1e-9):
    """Internal mechanisms of the bar framework with rigid panels at random vertex positions.

    The bar rows (the pattern's edges and every pair of vertices of a panel)
    are assembled as a sparse matrix and ranked by the same dense/sparse
    choice as the structure's operator (:func:`chrono_origami.tools.linalg.choose_method`).
    """
    rng = np.random.default_rng(seed)
    nv = pattern.n_vertices
    X = rng.standard_normal((nv, 3))
    pairs = [np.array(pattern.edges, dtype=np.int64).reshape(-1, 2)]
    for loop in pattern.panels:
        i, j = np.triu_indices(len(loop), 1)
        L = np.asarray(loop)
        pairs.append(np.column_stack([L[i], L[j]]))
    bars = np.unique(np.sort(np.vstack(pairs), axis=1), axis=0)
    a, b = bars[:, 0], bars[:, 1]
    d = X[b] - X[a]
    r = np.repeat(np.arange(len(bars)), 6)
    c = np.column_stack([3 * a[:, None] + np.arange(3), 3 * b[:, None] + np.arange(3)]).ravel()
    v = np.column_stack([-d, d]).ravel()
    A = sp.csr_matrix((v, (r, c)), shape=(len(bars), 3 * nv))
    return 3 * nv - 6 - la.rank(A, rtol)


def counting_rules(structure, M=None):
    """The paper's counting rules for the structure's pattern (see module docstring)."""
    pat = structure.pattern
    P, H = pat.n_panels, len(pat.hinges)
    E_b, V_i = len(pat.boundary_edges), len(pat.interior_vertices)
    sv3 = sum(len(loop) - 3 for loop in pat.panels)
    if M is not None:
        source = "given"
    elif pat.generic_mechanisms is not None:
        M, source = pat.generic_mechanisms, "builder"
    elif 3 * pat.n_vertices > GENERIC_LIMIT:
        M, source = None, f"not computed ({pat.n_vertices:,} vertices: more than {GENERIC_LIMIT // 3:,})"
    else:
        M, source = generic_graph_mechanisms(pat), "generic graph"
    index = bar_framework_index(pat)
    S_BF = None if M is None else M - index
    n_c = sum(kind.n_rows for kind in structure.kinds)
    n_s = sum(len(s.dofs) for s in structure.supports)
    maxwell = 6 * P - n_c - n_s - (0 if structure.supports else 6)
    return RuleCounts(P, H, E_b, V_i, sv3, index, M, S_BF, None if S_BF is None else S_BF + 3 * V_i, maxwell, source)
