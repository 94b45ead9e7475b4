"""Mechanisms M and self-stress states S, numerically and by the paper's counting rules.

Numeric counts (rank of the scaled compatibility operator, see ``model``):
    S = m - rank,  M = 6P - rank, less the 6 rigid-body motions when the
    structure has no supports (the paper counts internal mechanisms).
Rank tolerance: singular values below ``rtol * sigma_max`` count as zero
(default :data:`RANK_RTOL`). ``Counts.gap`` reports the smallest kept and the
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
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla

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
    index_BF: int   # M_BF - S_BF
    M_BF: int
    S_BF: int
    S_PH: int
    maxwell: int    # M - S predicted for the structure as given (hinge kinds, supports)
    M_source: str   # "given", "builder" or "generic graph"

    def as_dict(self):
        return dict(P=self.P, H=self.H, E_b=self.E_b, V_i=self.V_i, sum_V_minus_3=self.sum_V_minus_3,
                    M_BF_minus_S_BF=self.index_BF, M_BF=self.M_BF, S_BF=self.S_BF, S_PH=self.S_PH,
                    maxwell_M_minus_S=self.maxwell, M_source=self.M_source)


def bar_framework_index(pattern):
    """M_BF - S_BF = 3V - 6 - E - sum_p (2 V_p - 6) of the bar framework with rigid panels."""
    return 3 * pattern.n_vertices - 6 - len(pattern.edges) - sum(2 * len(loop) - 6 for loop in pattern.panels)


def generic_graph_mechanisms(pattern, seed=0):
    """Internal mechanisms of the bar framework with rigid panels at random vertex positions."""
    rng = np.random.default_rng(seed)
    nv = pattern.n_vertices
    X = rng.standard_normal((nv, 3))
    bars = set(pattern.edges)
    for loop in pattern.panels:
        k = len(loop)
        bars.update(tuple(sorted((loop[i], loop[j]))) for i in range(k) for j in range(i + 1, k))
    bars = sorted(bars)
    A = np.zeros((len(bars), 3 * nv))
    for r, (a, b) in enumerate(bars):
        d = X[b] - X[a]
        A[r, 3 * a:3 * a + 3] = -d
        A[r, 3 * b:3 * b + 3] = d
    s = np.linalg.svd(A, compute_uv=False)
    return 3 * nv - 6 - int(np.sum(s > 1e-9 * s[0]))


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
    else:
        M, source = generic_graph_mechanisms(pat), "generic graph"
    index = bar_framework_index(pat)
    S_BF = M - index
    n_c = sum(kind.n_rows for kind in structure.kinds)
    n_s = sum(len(s.dofs) for s in structure.supports)
    maxwell = 6 * P - n_c - n_s - (0 if structure.supports else 6)
    return RuleCounts(P, H, E_b, V_i, sv3, index, M, S_BF, S_BF + 3 * V_i, maxwell, source)
