"""Numeric counts of a structure's compatibility operator: :class:`Counts` (M, S, the rank and its gap).

Filled by ``engines.compatibility.count`` from either engine's operator (the
rank rule: singular values at most ``rtol`` sigma_max are zero, see
:mod:`chrono_origami.tools.linalg`): S = m - rank, M = 6P - rank, less the 6
rigid-body motions when the structure has no supports (the paper counts
internal mechanisms). The bases of the mechanisms and self-stress states are
formed on first use.
"""
from dataclasses import dataclass, field

import numpy as np

from ..tools import linalg as la
from ..tools.errors import SolverError
from ..tools.linalg import LEFT_BASIS_ENTRIES, RANK_RTOL


def counted(n, word, words=None):
    """``n`` and the noun in agreement: "1 mechanism", "2 mechanisms" (``words``: an irregular plural)."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def counts_text(M, S):
    """"M = 1 mechanism, S = 2 self-stress states": the counts as every message and report writes them."""
    return f"M = {counted(M, 'mechanism')}, S = {counted(S, 'self-stress state')}"


#: Bases larger than this many numbers (rows x states) are not formed (``Counts.mechanisms``, ``self_stresses``).
BASIS_ENTRIES = LEFT_BASIS_ENTRIES


@dataclass
class Counts:
    """Numeric counts of a structure's compatibility operator (``model.Cs``).

    ``gap``: (smallest kept, largest dropped) singular value relative to the
    largest, from the dense SVD or estimated by the sparse path
    (:mod:`chrono_origami.tools.sparseqr`). ``linalg``: "dense" or "sparse".
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


def number_ranges(numbers, max_items=12):
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
