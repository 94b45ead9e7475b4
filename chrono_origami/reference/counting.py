"""Mechanisms M and self-stress states S, numerically and by the paper's counting rules.

Numeric counts (rank of the scaled compatibility operator, see ``model``):
    S = m - rank,  M = 6P - rank, less the 6 rigid-body motions when the
    structure has no supports (the paper counts internal mechanisms).
Rank tolerance: singular values below ``rtol * sigma_max`` count as zero
(default :data:`RANK_RTOL`). ``Counts.gap`` reports the smallest kept and the
largest dropped singular value, so a near-singular configuration is visible.

Counting rules (paper sec. 2), as cross-checks:
    bar framework: M_BF - S_BF = (E_b - 3) - sum_p (V_p - 3), with M_BF and
    S_BF from the generic rank of the bar framework on the pattern's graph
    (every panel made rigid), evaluated at random vertex positions;
    panel-hinge: S_PH = S_BF + 3 V_i (all door hinges, no supports), M_PH = M_BF;
    Maxwell for the panel-hinge model: M - S = 6P - 6 - (5 H_door + 4 H_sliding)
    - (support constraints) (+6 when supported).
"""
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla

from ..structure import SLIDING
from .model import assemble

#: Relative tolerance on singular values for rank decisions.
RANK_RTOL = 1e-8


@dataclass
class Counts:
    M: int
    S: int
    rank: int
    n_dof: int
    n_constraints: int
    supported: bool
    singular_values: np.ndarray = field(repr=False)
    mechanisms: np.ndarray = field(repr=False)      # (6P x M), scaled velocities (omega, w/L)
    self_stresses: np.ndarray = field(repr=False)   # (m x S), scaled multipliers mu
    rtol: float = RANK_RTOL
    model: object = field(default=None, repr=False)

    @property
    def gap(self):
        """(smallest kept, largest dropped) singular value, relative to the largest."""
        s = self.singular_values
        smax = s[0] if len(s) else 1.0
        kept = s[self.rank - 1] / smax if self.rank else np.nan
        dropped = s[self.rank] / smax if self.rank < len(s) else 0.0
        return kept, dropped

    @property
    def isostatic(self):
        return self.M == 0 and self.S == 0


def rigid_motions(n_bodies, x0=None):
    """Orthonormal basis (6P x 6) of the scaled rigid-body motions of the whole assembly."""
    B = np.zeros((6 * n_bodies, 6))
    for i in range(n_bodies):
        B[6 * i:6 * i + 3, :3] = np.eye(3)   # common rotation: omega, w = 0 about x0
        B[6 * i + 3:6 * i + 6, 3:] = np.eye(3)
    return B / np.sqrt(n_bodies)


def count(structure, form="hinge", rtol=RANK_RTOL, model=None):
    """Numeric M and S of ``structure`` with bases of mechanisms and self-stress states."""
    model = model or assemble(structure, form)
    C = model.Cs.toarray()
    m, n = C.shape
    U, s, Vt = sla.svd(C, full_matrices=True, lapack_driver="gesvd") if m and n else (np.eye(m), np.zeros(0), np.eye(n))
    smax = s[0] if len(s) else 0.0
    rank = int(np.sum(s > rtol * smax)) if smax > 0 else 0
    null_C = Vt[rank:].T
    self_stress = U[:, rank:]
    supported = len(structure.supports) > 0
    if not supported:
        R = rigid_motions(model.n_bodies)
        # remove the rigid motions from the null space
        P = null_C - R @ (R.T @ null_C)
        Q, sv, _ = np.linalg.svd(P, full_matrices=False)
        k = int(np.sum(sv > 1e-6))
        mech = Q[:, :k]
    else:
        mech = null_C
    M = mech.shape[1]
    return Counts(M, m - rank, rank, n, m, supported, s, mech, self_stress, rtol, model)


# ------------------------------------------------------------------ counting rules
@dataclass
class RuleCounts:
    P: int
    H: int
    E_b: int
    V_i: int
    sum_V_minus_3: int
    M_BF: int
    S_BF: int
    S_PH: int
    maxwell: int   # M - S predicted for the structure as given (hinge kinds, supports)

    def as_dict(self):
        return dict(P=self.P, H=self.H, E_b=self.E_b, V_i=self.V_i, sum_V_minus_3=self.sum_V_minus_3,
                    M_BF=self.M_BF, S_BF=self.S_BF, S_PH=self.S_PH, maxwell_M_minus_S=self.maxwell)


def bar_framework_counts(pattern, seed=0):
    """Generic (M_BF, S_BF) of the bar framework with rigid panels, at random vertex positions."""
    rng = np.random.default_rng(seed)
    nv = pattern.n_vertices
    X = rng.standard_normal((nv, 3))
    bars = set(pattern.edges)
    extra_stress = 0
    for loop in pattern.panels:
        k = len(loop)
        for i in range(k):
            for j in range(i + 1, k):
                bars.add(tuple(sorted((loop[i], loop[j]))))
        # a complete graph on k points carries k(k-1)/2 - (3k - 6) self-stresses of its own
        extra_stress += k * (k - 1) // 2 - (3 * k - 6)
    bars = sorted(bars)
    A = np.zeros((len(bars), 3 * nv))
    for r, (a, b) in enumerate(bars):
        d = X[b] - X[a]
        A[r, 3 * a:3 * a + 3] = -d
        A[r, 3 * b:3 * b + 3] = d
    s = np.linalg.svd(A, compute_uv=False)
    rank = int(np.sum(s > 1e-9 * s[0]))
    M = 3 * nv - 6 - rank
    S = len(bars) - rank - extra_stress
    return M, S


def counting_rules(structure):
    """The paper's counting rules for the structure's pattern (see module docstring)."""
    pat = structure.pattern
    P, H = pat.n_panels, len(pat.hinges)
    E_b, V_i = len(pat.boundary_edges), len(pat.interior_vertices)
    sv3 = sum(len(loop) - 3 for loop in pat.panels)
    M_BF, S_BF = bar_framework_counts(pat)
    n_c = sum(4 if k == SLIDING else 5 for k in structure.hinge_kinds)
    n_s = sum(len(s.dofs) for s in structure.supports)
    maxwell = 6 * P - n_c - n_s - (0 if structure.supports else 6)
    return RuleCounts(P, H, E_b, V_i, sv3, M_BF, S_BF, S_BF + 3 * V_i, maxwell)
