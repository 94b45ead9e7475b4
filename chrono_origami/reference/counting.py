"""Mechanisms M and self-stress states S, numerically and by the paper's counting rules.

Numeric counts (rank of the scaled compatibility operator, see ``model``):
    S = m - rank,  M = 6P - rank, less the 6 rigid-body motions when the
    structure has no supports (the paper counts internal mechanisms).
Rank tolerance: singular values below ``rtol * sigma_max`` count as zero
(default :data:`chrono_origami.linalg.RANK_RTOL`). ``Counts.gap`` reports the smallest kept and the
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
import scipy.sparse as sp

from .. import linalg as la
from .. import memory
from ..errors import SolverError
from ..linalg import RANK_RTOL  # noqa: F401 (the one rank tolerance, re-exported)
from ..progress import Stages
from .model import assemble

#: A pattern whose vertices all lie within this fraction of its size of one plane is flat: its operator is ranked
#: in the plane's frame, where it splits into independent blocks (:func:`flat_columns`).
FLAT_RTOL = 1e-12
#: Bases larger than this many numbers (rows x states) are not formed (``Counts.mechanisms``, ``self_stresses``).
BASIS_ENTRIES = 50_000_000


@dataclass
class Counts:
    """Numeric counts of a structure's compatibility operator (``model.Cs``).

    ``gap``: (smallest kept, largest dropped) singular value relative to the
    largest, from the dense SVD or estimated by the sparse path
    (:mod:`chrono_origami.sparseqr`). ``linalg``: "dense" or "sparse".
    ``mechanisms`` (6P x M, scaled velocities (omega, w / L), rigid motions
    removed when unsupported) and ``self_stresses`` (m x S, scaled
    multipliers mu) are orthonormal bases formed on first use; the sparse path
    forms them only when they are small (:data:`BASIS_ENTRIES`), and
    :meth:`self_stress_sample` / :meth:`mechanism_sample` give one generic
    member of each space at any size.
    """

    M: int
    S: int
    rank: int
    n_dof: int
    n_constraints: int
    supported: bool
    gap: tuple
    sigma_max: float
    linalg: str
    rtol: float = RANK_RTOL
    model: object = field(default=None, repr=False)
    singular_values: np.ndarray = field(default=None, repr=False)   # dense path only
    _bases: dict = field(default_factory=dict, repr=False)
    _sparse: object = field(default=None, repr=False)                 # sparseqr.SparseRank (sparse path)

    @property
    def isostatic(self):
        return self.M == 0 and self.S == 0

    @property
    def mechanisms(self):
        """Orthonormal basis (6P x M) of the internal mechanisms (scaled velocities)."""
        if "mechanisms" not in self._bases:
            self._bases["mechanisms"] = _mechanism_basis(self)
        return self._bases["mechanisms"]

    @property
    def self_stresses(self):
        """Orthonormal basis (m x S) of the self-stress states (scaled multipliers)."""
        if "self_stresses" not in self._bases:
            self._bases["self_stresses"] = _left_null_basis(self)
        return self._bases["self_stresses"]

    def self_stress_sample(self, seed=0):
        """A generic self-stress state (m,), unit norm: the residual of a random vector's least-squares fit by range(Cs).

        Its non-zero rows are those of every hinge and support that carries
        some self-stress (with probability one). Zero vector when S = 0.
        """
        if self.S == 0:
            return np.zeros(self.n_constraints)
        if self._sparse is None:
            B = self.self_stresses
            z = B @ np.random.default_rng(seed).standard_normal(B.shape[1])
        else:
            z = self._sparse.project_left_null(np.random.default_rng(seed).standard_normal(self.n_constraints))
        return z / np.linalg.norm(z)

    def mechanism_sample(self, seed=0):
        """A generic mechanism (6P,), unit norm (zero vector when M = 0): a random vector projected on null(Cs)
        (the sparse path needs no basis), rigid motions removed when unsupported."""
        if self.M == 0:
            return np.zeros(self.n_dof)
        if self._sparse is None:
            B = self.mechanisms
            z = B @ np.random.default_rng(seed).standard_normal(B.shape[1])
        else:
            z = self._sparse.project_right_null(np.random.default_rng(seed).standard_normal(self.n_dof))
            if not self.supported:
                R = rigid_motions(self.model.n_bodies)
                z = z - R @ (R.T @ z)
        return z / np.linalg.norm(z)


def rigid_motions(n_bodies, x0=None):
    """Orthonormal basis (6P x 6) of the scaled rigid-body motions of the whole assembly."""
    B = np.zeros((6 * n_bodies, 6))
    for i in range(n_bodies):
        B[6 * i:6 * i + 3, :3] = np.eye(3)   # common rotation: omega, w = 0 about x0
        B[6 * i + 3:6 * i + 6, 3:] = np.eye(3)
    return B / np.sqrt(n_bodies)


@memory.guarded(lambda structure, *a, **k: f"counting {memory.about(structure)}")
def count(structure, form="hinge", rtol=RANK_RTOL, model=None, linalg="auto"):
    """Numeric M and S of ``structure`` (:class:`Counts`), by the dense SVD or the sparse QR path.

    ``linalg``: "auto" (dense up to :data:`~chrono_origami.linalg.DENSE_LIMIT`
    columns), "dense" or "sparse" (:func:`chrono_origami.linalg.choose_method`). Both paths apply the same rank rule: singular values
    at most ``rtol`` times the largest are zero.
    """
    with Stages("counting M and S") as stage:
        if model is None:
            stage("assembling the operator")
            model = assemble(structure, form)
        m, n = model.Cs.shape
        supported = len(structure.supports) > 0
        if la.choose_method((m, n), linalg) == "dense":
            stage(f"dense SVD of the {m} x {n} operator")
            return _count_dense(model, rtol, supported)
        return _count_sparse(model, rtol, supported, stage, structure.pattern)


def _count_dense(model, rtol, supported):
    C = model.Cs.toarray()
    m, n = C.shape
    if m and n:
        U, s, Vt = la.singular_values(C, full=True)
    else:
        U, s, Vt = np.eye(m), np.zeros(0), np.eye(n)
    smax = s[0] if len(s) else 0.0
    rank = int(np.sum(s > rtol * smax)) if smax > 0 else 0
    kept = s[rank - 1] / smax if rank else np.nan
    dropped = s[rank] / smax if rank < len(s) else 0.0
    mech = _remove_rigid(Vt[rank:].T, model.n_bodies, supported)
    c = Counts(mech.shape[1], m - rank, rank, n, m, supported, (kept, dropped), float(smax), "dense", rtol, model,
               singular_values=s)
    c._bases.update(mechanisms=mech, self_stresses=U[:, rank:])
    return c


def _remove_rigid(null_C, n_bodies, supported):
    """Orthonormal basis of null(Cs) less the rigid motions (unsupported structures)."""
    if supported:
        return null_C
    R = rigid_motions(n_bodies)
    P = null_C - R @ (R.T @ null_C)
    if P.shape[1] == 0:
        return P
    Q, sv, _ = np.linalg.svd(P, full_matrices=False)
    return Q[:, :int(np.sum(sv > 1e-6))]


def plane_frame(pattern):
    """Rows e1, e2, n (3 x 3, orthonormal) of the plane of a flat pattern -- every vertex within
    :data:`FLAT_RTOL` x its size of the plane -- or None."""
    X = np.asarray(pattern.vertices, float)
    if len(X) < 3:
        return None
    c = X - X.mean(axis=0)
    Vt = np.linalg.svd(c, full_matrices=False)[2]
    if Vt.shape[0] < 3 or np.abs(c @ Vt[2]).max() > FLAT_RTOL * (pattern.size or 1.0):
        return None
    return Vt


def flat_columns(pattern, n_bodies):
    """The orthogonal column change (6P x 6P, sparse) that turns each body's (omega, w / L) into the frame of a flat
    pattern's plane, or None: the operator of a flat pattern then falls into an out-of-plane block (omega . e1,
    omega . e2, w . n: the mechanisms) and an in-plane block (sparseqr.blocks)."""
    Q = plane_frame(pattern)
    if Q is None:
        return None
    block = np.zeros((6, 6))
    block[:3, :3] = Q.T
    block[3:, 3:] = Q.T
    return sp.block_diag([block] * n_bodies, format="csr")


def _sparse_rank(model, rtol, pattern, stage=None):
    from .. import sparseqr

    columns = flat_columns(pattern, model.n_bodies) if pattern is not None else None
    return sparseqr.rank(model.Cs, rtol, stage=stage, columns=columns)


def _count_sparse(model, rtol, supported, stage=None, pattern=None):
    from .. import sparseqr

    C = model.Cs
    m, n = C.shape
    try:
        r = _sparse_rank(model, rtol, pattern, stage)
    except sparseqr.SparseBackendUnavailable as exc:
        need = la.gigabytes(la.dense_memory((m, n)))
        raise SolverError(f"counting the {m} x {n} operator: the sparse path needs pyspqr (pip install pyspqr); "
                          f"the dense SVD would need {need} (linalg='dense')") from exc
    M = n - r.rank - (0 if supported else 6)
    return Counts(M, m - r.rank, r.rank, n, m, supported, r.gap, r.sigma_max, "sparse", rtol, model, _sparse=r)


def _check_basis_size(counts, rows, cols, what):
    if rows * cols > BASIS_ENTRIES:
        raise SolverError(f"the {what} basis would be {rows} x {cols} ({la.gigabytes(8 * rows * cols)}); use "
                          f"Counts.{'self_stress_sample' if what == 'self-stress' else 'mechanism_sample'}() "
                          f"for one generic member")


def _mechanism_basis(counts):
    r = counts._sparse
    if r.transposed:               # the null vectors found are null(Cs^T): null(Cs) needs a second factor
        _check_basis_size(counts, counts.n_dof, counts.M, "mechanism")
    return _remove_rigid(r.right_null(), counts.model.n_bodies, counts.supported)


def _left_null_basis(counts):
    r = counts._sparse
    if counts.S == 0:
        return np.zeros((counts.n_constraints, 0))
    if not r.transposed:
        _check_basis_size(counts, counts.n_constraints, counts.S, "self-stress")
    return r.left_null()


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


def generic_graph_mechanisms(pattern, seed=0, rtol=1e-9):
    """Internal mechanisms of the bar framework with rigid panels at random vertex positions.

    The bar rows (the pattern's edges and every pair of vertices of a panel)
    are assembled as a sparse matrix and ranked by the same dense/sparse
    choice as the structure's operator (:func:`chrono_origami.linalg.choose_method`).
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
    else:
        M, source = generic_graph_mechanisms(pat), "generic graph"
    index = bar_framework_index(pat)
    S_BF = M - index
    n_c = sum(kind.n_rows for kind in structure.kinds)
    n_s = sum(len(s.dofs) for s in structure.supports)
    maxwell = 6 * P - n_c - n_s - (0 if structure.supports else 6)
    return RuleCounts(P, H, E_b, V_i, sv3, index, M, S_BF, S_BF + 3 * V_i, maxwell, source)
