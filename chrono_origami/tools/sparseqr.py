"""Sparse rank-revealing QR of a whole-structure operator, and what follows from it.

Factorisation
-------------
A (m x n, SciPy sparse) is factored in its tall orientation: B = A if m >= n,
else B = A^T, so that B is p x q with p >= q. SuiteSparseQR (multifrontal
Householder QR with a fill-reducing column ordering, :data:`ORDERING`) gives
``B[:, perm] = Q R`` with R upper triangular (q x q). Householder QR is
backward stable, so the singular values of R are those of A to
eps * ||A||: unlike a factorisation of A^T A, nothing is squared, and a
relative rank tolerance of 1e-8 stays meaningful.

The rank decision needs R only. Through SuiteSparseQR's C interface
(:func:`suitesparse`, the library that pyspqr ships) the factorisation keeps
no Householder vectors: on the 10,000-panel Miura-ori operator R has 6.8 M
entries and Q's vectors 17.5 M, so the Q-less factor takes about a third of
the memory and half the time. Solves with R and R^T are triangular solves
(:class:`Triangular`: SuperLU's compiled triangular solve, no LU), without
copying or refactoring R. Folding needs Q (its minimum-norm steps):
:func:`factor` with ``keep_q`` goes through ``pyspqr.qr``.

Rank and gap
------------
The ordering is chosen for fill, not for rank, so R's diagonal does not
decide the rank. The decision is made on singular values, on the
regularised matrix [B; delta I] with delta = :data:`DELTA_FACTOR` x the
tolerance (rtol * sigma_max). Its R has the singular values
sqrt(sigma_i^2 + delta^2), so it is invertible with condition at most
1 / (DELTA_FACTOR rtol); (R^T R)^-1 = (B^T B + delta^2 I)^-1 is applied with
two triangular solves. Its eigenvalues are lambda_i = 1 / (sigma_i^2 +
delta^2): null directions sit at 1 / delta^2, a kept singular value sigma at
1 / (sigma^2 + delta^2), so sigma_i = sqrt(1 / lambda_i - delta^2), and those
at most rtol * sigma_max are dropped.

The count's factor (:func:`rank_factor`) regularises only some columns S:
[B; delta I_S], S the last columns of METIS's order (the root separators),
made in that order (:meth:`~.suitesparse.SuiteSparse.metis`, on the graph of
the structure's bodies when the caller gives them: 0.03 s where SuiteSparseQR's
own METIS takes 0.43 s on the 10^4-panel Miura patch). The delta rows of all
columns make every front taller (1.11e10 flops against B's 6.06e9 on that
patch); those of the root separators cost nothing measurable. For any S,
B^T B <= R^T R <= B^T B + delta^2 I, so sigma_i(B)^2 <= lambda_i(R^T R) <=
sigma_i(B)^2 + delta^2: a null direction is decided on B itself (Rayleigh-Ritz
of B on the candidates, :meth:`SparseQR.ritz`; at most the tolerance: null for
certain), and the proof that none is left is the same as with every column
regularised (a largest Lanczos value with sqrt(1 / lambda - delta^2) above the
tolerance). Every column is regularised after all, in the same order, when a
pivot is below :data:`FLOOR` delta (a column that depends on those before it
outside S: flat patterns' local mechanisms), when a Lanczos value at most the
tolerance is above it on B (a kept singular value between tol and about
delta, which only the full regularisation resolves), or when the null
directions found lie too little on S (:data:`WEIGHT`).

* Many null directions (flat crease patterns: hundreds to thousands of
  mechanisms). They share one eigenvalue, which a Krylov space resolves only
  a few vectors at a time, so they are found by a block method whose block is
  at least the null space: R's diagonal is not rank-revealing, but a column
  that depends on the columns before it (B x = 0 with x_j = 1 and x zero
  beyond j) has |R_jj| <= delta |x|, so the columns whose |R_jj| is below
  sqrt(delta sigma_max) are candidates (on the flat 75 x 75 box pleat: 154
  of them for a null space of 154). The block starts as R^-1 on those unit
  vectors (plus :data:`EXTRA` random ones); steps of subspace iteration with
  (R^T R)^-1, each followed by Rayleigh-Ritz, go on until no Ritz value lies between the tolerance and
  :data:`GAP` times it (or their number settles), and Rayleigh-Ritz (the
  singular values of R X, X orthonormal) decides: a Ritz value is at least
  the eigenvalue of its rank (Courant-Fischer), so each Ritz value at most
  the tolerance is a null direction for certain. When every Ritz value is
  null, the block was too small: the search goes on with a doubled block on
  the complement. On large flat patterns some null directions leave no pivot
  that small (a fold line across a 173 x 173 box pleat: |R_jj| up to 1e4
  delta), so the next candidates by |R_jj| follow in batches of a fifth as
  many, on the complement, while a batch finds null directions. With
  :data:`BLOCK` candidates or fewer (a folded pattern's few mechanisms and
  rigid motions) the block method runs on them alone, no batches: a few
  solves where a Lanczos round of :data:`BLOCK` eigenpairs takes some 30.
* Lanczos (ARPACK) rounds on the complement of the null vectors found then
  look for what is left: each round asks :data:`BLOCK` eigenpairs (doubled
  after a round that finds only null directions) until a round finds no null
  direction, i.e. the largest eigenvalue left is a kept one (a round that
  finds null and kept directions is followed by a one-eigenpair round). By
  Cauchy's interlacing, the largest eigenvalue on the complement of k
  vectors is at least the (k+1)-th largest, so a kept one there proves that
  no more than k singular values are dropped. Lanczos resolves eigenvalues
  to 1e-10, and the regularisation keeps (R^T R)^-1 bounded however close to
  the tolerance the kept values crowd (slender towers). The one-eigenpair
  rounds run their own Lanczos, stopped at the first step that meets
  ARPACK's test (:func:`_lanczos`).
* The smallest kept singular value, the gap report's (smallest kept, largest
  dropped, relative to sigma_max), comes from the kept Ritz vectors of the
  last rounds: one step of block inverse iteration, then the smallest
  singular value of B on that block (Rayleigh-Ritz, more accurate than
  1 / lambda; a cluster of equal singular values is resolved together).
  Dropped values are resolved to about 1e-5 delta.

Why not SuiteSparseQR's own rank detection: with a tolerance tol it drops
a pivot column whose norm, once the columns before it are eliminated, is at
most tol (Heath's test), and counts the rest. That test looks at one column
at a time in the fill-reducing order. On the flat 75 x 75 box pleat, with tol
= 1e-8 sigma_max, it drops 153 columns for a null space of 154 (the 154th
null direction leaves no column that small: its smallest singular value
left in the kept columns is 5e-14 sigma_max), and the dropped columns' norms,
each below tol, add up to 1.6 tol: no singular-value statement follows from
it. The regularised factor above is made with the detection off.

B is the orientation with fewer columns, so its nullity (min(m, n) - rank)
is the smaller of the two null spaces. The null space is held as the Ritz
vectors found; :attr:`SparseRank.null_vectors` refines them by one step of
subspace iteration (the null directions' error shrinks by delta^2 /
(sigma_kept^2 + delta^2)) when first asked.

Blocks
------
:func:`rank` ranks the independent blocks of A one by one (:func:`blocks`:
the connected components of the row-column graph, once the smallest entries
whose squares sum to at most (:data:`SPLIT_RTOL` sigma_max)^2 are dropped --
the dense SVD's own round-off), all under the one tolerance rtol
sigma_max(A): the singular values of a block-diagonal matrix are those of
its blocks. A flat pattern's operator, its velocities turned into the
plane's frame (the caller's ``columns``: ``engines.reference.count.flat_columns``),
falls into an out-of-plane block (omega . e1, omega . e2, w . n; two rows of
a door hinge) that holds every mechanism, and an in-plane block (three rows)
that moves as one rigid sheet. Blocks with at most :data:`SMALL_BLOCK` rows
or columns are decided by the dense SVD.

Memory
------
A factor that would not fit is refused before it is computed, in one line
naming the operator and the memory needed (:func:`factor_memory`: from
SuiteSparseQR's symbolic analysis when a first estimate comes near the
available memory), and so are the dense blocks of the null space
(:mod:`chrono_origami.memory`).

Backend
-------
SuiteSparseQR through ``pyspqr`` (PyPI wheels for Linux x86-64, macOS arm64 and
Windows, SuiteSparse bundled). pyspqr is GPL-3 (SuiteSparseQR GPL-2+), so
chrono-origami (BSD-3) takes it as an optional dependency, the ``sparse``
extra. Without it, :func:`factor` raises :class:`SparseBackendUnavailable`
and callers use the SciPy-only path (``linalg``). :func:`suitesparse`
calls the C interface of the SuiteSparseQR library that pyspqr loads
(``SuiteSparseQR_i_C``: no Householder vectors kept; statistics read from
``cholmod_common``, whose layout is checked against CHOLMOD's defaults
first); where that library cannot be found or fails the check, the same
factor comes from ``pyspqr.qr`` (Q formed, then dropped). SuiteSparse prints
CHOLMOD's status lines on the C-level stdout: file descriptor 1 is silenced
during each call.
"""
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from . import memory
from .errors import SolverError, SparseBackendUnavailable
from .suitesparse import ORDERING, _quiet_stdout, suitesparse

#: The regularisation delta of :func:`rank`, in units of the rank tolerance rtol * sigma_max.
DELTA_FACTOR = 10.0
#: Eigenpairs asked by the first Lanczos round of :func:`rank` when no column is a null candidate; with more
#: candidates than this, the block method is followed by further candidate batches.
BLOCK = 8
#: Random columns added to the block method's start (more than the candidates, so that the block can show a gap).
EXTRA = 8
#: The block method iterates while a Ritz value lies between the tolerance and GAP times it.
GAP = 1e3
#: Random vectors of one step of (R^T R)^-1 after the block method on a few candidates, for null directions that
#: leave no small pivot.
PROBE = 2
#: Blocks of up to this many columns have their largest Ritz value from their Gram matrix, wider ones by Lanczos.
GRAM_RITZ = 512
#: Most subspace-iteration steps of one block.
BLOCK_STEPS = 6
#: The count's factor regularises only the last columns of METIS's order (the root separators, where the null
#: directions of a folded pattern show): SEPARATOR x sqrt(q) of them (:func:`rank_factor`).
SEPARATOR = 2.0
#: ... unless a pivot of that factor is below FLOOR x delta (a column dependent on those before it, outside the
#: regularised ones: flat patterns' local mechanisms): then every column is regularised.
FLOOR = 1e-2
#: ... or unless the null directions found lie so little on S that R^T R along them is below WEIGHT delta^2.
WEIGHT = 1e-3

def available():
    """True when the SuiteSparseQR backend (pyspqr) imports."""
    try:
        import pyspqr  # noqa: F401
    except ImportError:
        return False
    return True


# ------------------------------------------------------------------ triangular solves
try:
    from scipy.sparse.linalg._dsolve import _superlu as _superlu_module
    _GSTRS = getattr(_superlu_module, "gstrs", None)
except ImportError:   # pragma: no cover
    _GSTRS = None


def _reverse(a, chunk=1 << 18):
    """a[::-1], in place (a 1-D contiguous array), ``chunk`` entries at a time: a temporary of 2 MB, not of half the
    array (memory the process has not touched yet costs about 2 ms a MB on this project's machine)."""
    n = len(a)
    h = n // 2
    for i in range(0, h, chunk):
        c = min(chunk, h - i)
        head = a[i:i + c].copy()
        a[i:i + c] = a[n - i - c:n - i][::-1]
        a[n - i - c:n - i] = head[::-1]


def _scale_columns(A, s):
    """A's columns times s, in place (A CSC)."""
    try:
        from scipy.sparse import _sparsetools
        _sparsetools.csr_scale_rows(A.shape[1], A.shape[0], A.indptr, A.indices, A.data, s)   # A^T's rows
    except (ImportError, AttributeError, TypeError, ValueError):
        A.data *= np.repeat(s, np.diff(A.indptr))


#: Blocks of at least this many right-hand sides are solved by dense row blocks of R (:class:`_RowBlocks`).
BLOCK_RHS = 32


class _RowBlocks:
    """A unit upper triangular M (q x q) as dense blocks of consecutive rows (the fronts of the multifrontal QR:
    rows of a front share their columns), for solves with many right-hand sides: per block one dense triangular
    solve (LAPACK trtrs) and one product with the block's columns beyond it -- M is read once per solve, not once
    per right-hand side. ``cap``: most rows in a block."""

    def __init__(self, M, cap=128):
        from scipy.linalg import lapack

        self._trtrs = lapack.dtrtrs
        M = sp.csr_matrix(M)
        M.sort_indices()
        q = M.shape[0]
        ip, ix = M.indptr, M.indices
        n = np.diff(ip)
        # row i+1 continues row i's block when its pattern is row i's without i (a front's next pivot row)
        first_off = np.where(n >= 2, ix[np.minimum(ip[:-1] + 1, max(len(ix) - 1, 0))], -1)
        last = np.where(n >= 1, ix[np.maximum(ip[1:] - 1, 0)], -1)
        total = np.add.reduceat(ix.astype(np.int64), ip[:-1]) if len(ix) else np.zeros(q, np.int64)
        i = np.arange(q - 1)
        join = ((n[1:] == n[:-1] - 1) & (first_off[:-1] == i + 1) & (last[1:] == last[:-1])
                & (total[:-1] - i == total[1:]))
        bounds = np.r_[0, np.nonzero(~join)[0] + 1, q]
        self.blocks = []
        for a, b in zip(bounds[:-1], bounds[1:]):
            for r0 in range(a, b, cap):
                r1 = min(r0 + cap, b)
                k, lo, hi = r1 - r0, ip[r0], ip[r1]
                # the block's columns: r0..r1-1, then those beyond -- row r0's own (sorted), since each next row's
                # pattern is the one before without its first column (checked: else their union)
                cols = ix[lo:ip[r0 + 1]]
                at = np.searchsorted(cols, ix[lo:hi])
                if not np.array_equal(cols[np.minimum(at, len(cols) - 1)], ix[lo:hi]):
                    cols = np.unique(ix[lo:hi])
                    at = np.searchsorted(cols, ix[lo:hi])
                D = np.zeros((k, len(cols)))
                D[np.repeat(np.arange(k), n[r0:r1]), at] = M.data[lo:hi]
                self.blocks.append((r0, r1, np.asfortranarray(D[:, :k]), np.ascontiguousarray(D[:, k:]), cols[k:]))

    @property
    def nbytes(self):
        return sum(T.nbytes + O.nbytes + c.nbytes for _, _, T, O, c in self.blocks)

    def solve(self, B):
        """Y with M Y = B (backward substitution, block by block)."""
        Y = np.array(B, dtype=float, copy=True)
        for r0, r1, T, O, cols in reversed(self.blocks):
            rhs = Y[r0:r1] - O @ Y[cols] if len(cols) else Y[r0:r1]
            Y[r0:r1] = self._trtrs(T, rhs, lower=0, trans=0, unitdiag=1)[0]
        return Y

    def solve_T(self, B, overwrite=False):
        """Y with M^T Y = B (forward substitution, block by block; ``overwrite``: B, float, may hold Y)."""
        Z = B if overwrite else np.array(B, dtype=float, copy=True)
        for r0, r1, T, O, cols in self.blocks:
            y = self._trtrs(T, Z[r0:r1], lower=0, trans=1, unitdiag=1)[0]
            Z[r0:r1] = y
            if len(cols):
                Z[cols] -= O.T @ y
        return Z


class Triangular:
    """A non-singular upper triangular R (q x q), held as its diagonal d and U = R D^-1 - I (strictly upper).

    Solves with R and R^T by SuperLU's compiled triangular solve (``gstrs``,
    the solve that ``scipy.sparse.linalg.spsolve_triangular`` calls) with unit
    triangular factors L = I and I + U: no LU; U is made in R's arrays, and
    its reversed transpose W = J U^T J is kept beside it so that both solves
    read R column by column (SuperLU's transposed solve; its solve with U
    scatters, twice as slow);
    blocks of at least :data:`BLOCK_RHS` right-hand sides by dense row blocks
    of R (:class:`_RowBlocks`, made on first use: 5 times faster on 160
    right-hand sides of the box pleat's out-of-plane factor). Without ``gstrs``
    (SciPy < 1.15), by a SuperLU factorisation of R in its own order. Exact
    zeros on the diagonal (dead columns) are replaced by eps x the largest.
    ``overwrite``: R's arrays may be used for U (the factor's own R).
    """

    def __init__(self, R, overwrite=False):
        R = sp.csc_matrix(R, dtype=float, copy=not overwrite)
        q = R.shape[0]
        R.sort_indices()
        self.q = q
        ip, ix = R.indptr, R.indices
        last = ip[1:] - 1
        upper = R.nnz == 0 or bool(np.all(ix[np.maximum(last, 0)][ip[1:] > ip[:-1]] <= np.arange(q)[ip[1:] > ip[:-1]]))
        if upper:         # R upper triangular, rows sorted: a column's diagonal entry is its last
            at = np.nonzero((ip[1:] > ip[:-1]) & (ix[np.maximum(last, 0)] == np.arange(q)))[0]
            d = np.zeros(q)
            d[at] = R.data[last[at]]
        else:
            d = R.diagonal().copy()
        scale = float(np.abs(d).max()) if d.size else 1.0
        tiny = np.finfo(float).eps * max(scale, np.finfo(float).tiny)
        d[np.abs(d) < tiny] = tiny
        self.d = d
        self._lu = None
        if _GSTRS is None or not upper:
            self._R = (R - sp.diags(R.diagonal()) + sp.diags(d)).tocsc()
            self._lu = spla.splu(self._R, permc_spec="NATURAL", diag_pivot_thresh=0.0,
                                 options=dict(SymmetricMode=False))
            return
        # U = R D^-1 - I in R's own arrays (a copy of R unless ``overwrite``): columns scaled in place, the
        # diagonal entries set to zero (the unit diagonal is implied)
        data = R.data
        _scale_columns(R, 1.0 / d)
        data[last[at]] = 0.0
        self.U = (R.nnz, data, np.ascontiguousarray(ix, np.intc), np.ascontiguousarray(ip, np.intc))
        # and U's transpose with rows and columns reversed, W = J U^T J (J the reversal; upper triangular): the
        # solve with I + U as SuperLU's transposed solve with I + W, which reads R by columns (a gather per unknown)
        # where the solve with I + U scatters each unknown into the rows above it (twice as slow)
        Ut = sp.csr_matrix((data, ix, ip), shape=(q, q)).tocsc()     # the CSC arrays of U^T
        w_data, w_indices = Ut.data, np.ascontiguousarray(Ut.indices, np.intc)
        _reverse(w_data)
        _reverse(w_indices)
        np.subtract(q - 1, w_indices, out=w_indices)
        self._W = (R.nnz, w_data, w_indices, np.ascontiguousarray(R.nnz - Ut.indptr[::-1], np.intc))
        del Ut
        self._L = (q, np.ones(q), np.arange(q, dtype=np.intc), np.arange(q + 1, dtype=np.intc))
        self._blocks = None

    def _row_blocks(self):
        if self._blocks is None:
            U = sp.csc_matrix((self.U[1], self.U[2], self.U[3]), shape=(self.q, self.q))
            memory.check(f"the row blocks of a {self.q:,} x {self.q:,} triangular factor", 3 * self.U[1].nbytes)
            self._blocks = _RowBlocks(U + sp.identity(self.q, format="csc"))
        return self._blocks

    @property
    def nbytes(self):
        if self._lu is not None:
            return 12 * (self._lu.nnz + self._R.nnz)
        return sum(a.nbytes for a in self.U[1:] + self._W[1:]) + self.d.nbytes

    def _diag(self, x):
        return self.d if x.ndim == 1 else self.d[:, None]

    def _gstrs(self, trans, b):
        """(I + U)^-1 b for "N", (I + U)^-T b for "T" (b: Fortran order; the "T" solve overwrites it)."""
        if trans == "N":           # (I + U) x = b  <=>  (I + W)^T (J x) = J b
            x, info = _GSTRS("T", self.q, *self._L, self.q, *self._W, np.array(b[::-1], order="F", copy=True))
            if info:
                raise SolverError(f"triangular solve failed (SuperLU info {info})")
            return x[::-1]
        x, info = _GSTRS(trans, self.q, *self._L, self.q, *self.U, b)
        if info:
            raise SolverError(f"triangular solve failed (SuperLU info {info})")
        return x

    def _many(self, b):
        return self._lu is None and b.ndim == 2 and b.shape[1] >= BLOCK_RHS

    def solve(self, b):
        """x with R x = b (b: q or q x k)."""
        b = np.asarray(b, dtype=float)
        if self._many(b):
            x = self._row_blocks().solve(b)
            x /= self._diag(b)
            return x
        if self._lu is not None:
            return self._lu.solve(np.array(b, order="F", copy=True))
        return self._gstrs("N", b) / self._diag(b)

    def solve_T(self, b):
        """x with R^T x = b."""
        b = np.asarray(b, dtype=float)
        if self._many(b):
            return self._row_blocks().solve_T(b / self._diag(b), overwrite=True)
        if self._lu is not None:
            return self._lu.solve(np.array(b, order="F"), trans="T")
        return self._gstrs("T", np.asfortranarray(b / self._diag(b)))

    def matvec(self, X):
        """R X (X: q or q x k)."""
        X = np.asarray(X, float)
        if self._lu is not None:
            return self._R @ X
        DX = X * self._diag(X)
        U = sp.csc_matrix((self.U[1], self.U[2], self.U[3]), shape=(self.q, self.q))
        return U @ DX + DX


@dataclass
class SparseQR:
    """``B[:, perm] = Q R`` for B = A (``transposed`` False) or A^T; R is q x q upper triangular (:class:`Triangular`).

    ``Q``: pyspqr's Householder operator (p x p) when the factor was made
    with ``keep_q``, else None.
    """

    shape: tuple            # of A
    transposed: bool
    R: Triangular = field(repr=False)
    perm: np.ndarray = field(repr=False)
    Q: object = field(default=None, repr=False)
    stats: dict = field(default_factory=dict, repr=False)
    delta: float = 0.0
    #: None: every column regularised ([B; delta I]); else the factored matrix B[:, perm] (CSR) of
    #: [B[:, perm]; delta I_S], S the columns where ``regularised`` (a mask, permuted coordinates) is True
    B: object = field(default=None, repr=False)
    regularised: np.ndarray = field(default=None, repr=False)

    @property
    def partial(self):
        """True when only some columns are regularised: R^T R = B^T B + delta^2 I_S, between B^T B and
        B^T B + delta^2 I (permuted coordinates), so sigma_i(B)^2 <= lambda_i(R^T R) <= sigma_i(B)^2 + delta^2."""
        return self.regularised is not None

    def ritz(self, X):
        """Rayleigh-Ritz of B^T B on span(X) (X orthonormal, permuted coordinates): (singular values of B,
        ascending; Ritz vectors). From R X (sqrt(s^2 - delta^2)) when every column is regularised, else from B X."""
        if self.partial:
            _, s, Wt = np.linalg.svd(self.B @ X, full_matrices=False)
            return s[::-1], X @ Wt[::-1].T
        _, s, Wt = np.linalg.svd(self.R.matvec(X), full_matrices=False)
        s, W = s[::-1], Wt[::-1].T
        return np.sqrt(np.maximum(s * s - self.delta * self.delta, 0.0)), X @ W

    def null_step(self, X):
        """One step of subspace iteration towards null(B) (permuted coordinates): (R^T R)^-1 X when every column is
        regularised (R^T R = B^T B + delta^2 I: the same eigenvectors as B^T B, a kept direction sigma shrinking by
        delta^2 / (sigma^2 + delta^2) against a null one); else X - (R^T R)^-1 B^T B X, which leaves null(B) fixed
        and shrinks a kept direction at least as much (R^T R - B^T B = delta^2 I_S, at most delta^2 I), where
        (R^T R)^-1 alone would turn null directions towards I_S's eigenvectors."""
        if not self.partial:
            return self.gram_solve(X)
        return X - self.gram_solve(np.asarray(self.B.T @ (self.B @ X)))

    def largest_ritz(self, X):
        """The largest singular value of B on span(X) (X orthonormal, permuted coordinates)."""
        if self.partial:
            return _largest_ritz(np.asarray(self.B @ X))
        top = _largest_ritz(self.R.matvec(X))
        return float(np.sqrt(max(top * top - self.delta * self.delta, 0.0)))

    @property
    def q(self):
        return self.R.q

    @property
    def p(self):
        return self.Q.shape[0]

    def solve_R(self, b):
        """x with R x = b (permuted column coordinates of B; b: q or q x k)."""
        return self.R.solve(b)

    def solve_RT(self, b):
        """x with R^T x = b."""
        return self.R.solve_T(b)

    def gram_solve(self, b):
        """(R^T R)^-1 b."""
        return self.R.solve(self.R.solve_T(b))

    def apply_Q(self, x):
        """Q x (x of length p; needs ``keep_q``)."""
        return self.Q.matvec(np.ascontiguousarray(x, dtype=float))

    def apply_QT(self, x):
        """Q^T x (x of length p; needs ``keep_q``)."""
        return self.Q.rmatvec(np.ascontiguousarray(x, dtype=float))

    def inverse_gram(self, deflate=None, before=True):
        """LinearOperator x -> (R^T R)^-1 x, optionally restricted to the complement of the orthonormal columns
        ``deflate``: P (R^T R)^-1 P, P = I - V V^T; ``before`` False: (R^T R)^-1 then P only, for a Krylov method
        whose vectors already lie in range(P) -- they are combinations of its start, projected, and of earlier
        products, projected (a round-off component eps along V comes back at most eps / delta^2 in size, which P
        does not remove: the operator's error, against the null directions' 1 / delta^2)."""
        q = self.q
        project = deflate is not None and deflate.shape[1]

        def mv(x):
            x = np.asarray(x, float).ravel()
            if project and before:
                x = x - deflate @ (deflate.T @ x)
            y = self.gram_solve(x)
            if project:
                y -= deflate @ (deflate.T @ y)
            return y

        return spla.LinearOperator((q, q), matvec=mv, dtype=float)


def _orientation(A, side):
    m, n = A.shape
    if side not in ("auto", "right", "left"):
        raise ValueError(f"side must be 'auto', 'right' or 'left', got {side!r}")
    return (m < n) if side == "auto" else side == "left"


def fill(B, room=None):
    """(entries of R, entries of Q's Householder vectors, how) of the sparse QR of B (p x q, any shape).

    A first estimate from the size: R of a sheet-like operator (panels on a
    surface, nested dissection) has about 20 q log2(q) entries (measured: 78 to
    136 per column from 5,400 to 190,000 columns), Q's vectors 2.6 times as
    many. When that comes within ``room`` bytes' reach (46 bytes an entry of R
    and 12 one of Q: the largest use below) and SuiteSparseQR's C interface is
    there, its symbolic analysis gives the bounds instead (``how`` =
    "analysis"; else "estimate"). They also bound an LU factorisation of B with
    the same column order (George and Ng: L and U lie in the patterns of Q's
    vectors and R).
    """
    q = B.shape[1]
    nnz_R = 20.0 * q * max(np.log2(max(q, 2)), 1.0)
    first = (nnz_R, 2.6 * nnz_R, "estimate")
    lib = suitesparse()
    if lib is None or room is None or 58 * nnz_R < 0.5 * room:
        return first
    s = lib.symbolic(B)
    return float(s["nnz_R"]), float(s["nnz_H"]), "analysis"


def factor_memory(A, delta=0.0, side="auto", keep_q=False):
    """(bytes, how) the factor of :func:`factor` needs (:func:`fill`): SuiteSparseQR's peak (22 bytes an entry of R,
    measured) plus the copy (which becomes the triangular factor's U) and U's reversed transpose (12 and 12), plus
    Q's vectors (12 bytes an entry) with ``keep_q``."""
    transposed = _orientation(A, side)
    q = A.shape[0] if transposed else A.shape[1]
    B = A.T if transposed else A
    if delta > 0:
        B = sp.vstack([B, sp.identity(q, format="csc")], format="csc")
    avail = memory.available()
    nnz_R, nnz_H, how = fill(sp.csc_matrix(B), None if avail is None else memory.FRACTION * avail)
    return 46 * nnz_R + (12 * nnz_H if keep_q else 0), how


def lu_memory(A):
    """(bytes, how): an estimate of what SuperLU's LU of the square sparse A needs -- twice L and U's bound from
    :func:`fill` (12 bytes an entry), SuperLU's working memory included."""
    avail = memory.available()
    nnz_R, nnz_H, how = fill(sp.csc_matrix(A), None if avail is None else memory.FRACTION * avail)
    return 24 * (nnz_R + nnz_H), how


def factor(A, delta=0.0, side="auto", keep_q=True, what=None):
    """Sparse QR (:class:`SparseQR`) of B, or of [B; delta I] when ``delta`` > 0.

    B = A for ``side="right"`` (null(A)), A^T for ``"left"`` (null(A^T)); ``"auto"``: the tall orientation.
    ``keep_q``: keep Q (pyspqr's Householder operator: folding's minimum-norm steps); without it the factor is
    Q-less when SuiteSparseQR's C interface is available (:func:`suitesparse`). A factor that would not fit in
    memory raises :class:`~chrono_origami.errors.InsufficientMemoryError` (:func:`factor_memory`) naming ``what``
    (default: "m x n operator").
    """
    try:
        import pyspqr
    except ImportError as exc:
        raise SparseBackendUnavailable(
            "the sparse QR backend needs pyspqr (pip install pyspqr, or chrono-origami[sparse])") from exc
    A = sp.csc_matrix(A, dtype=float)
    m, n = A.shape
    transposed = _orientation(A, side)
    B = sp.csc_matrix(A.T) if transposed else A
    if not delta > 0 and B.shape[0] < B.shape[1]:
        raise ValueError("an unregularised factorisation needs the tall orientation")
    q = B.shape[1]
    need, how = factor_memory(A, delta, side, keep_q)
    what = what or f"{m:,} x {n:,} operator"
    memory.check(f"the sparse QR of the {what} ({how} from its structure)", need)
    if delta > 0:
        B = sp.vstack([B, delta * sp.identity(q, format="csc")], format="csc")
    lib = None if keep_q else suitesparse()
    Q, stats = None, {}
    if lib is not None:
        _, R, perm, stats = lib.qr(B, -1.0)
    else:
        with _quiet_stdout():
            try:
                Q, R, E = pyspqr.qr(B, ordering=ORDERING)
            except MemoryError:
                raise
            except Exception:   # a SuiteSparse built without METIS: AMD, its default
                Q, R, E = pyspqr.qr(B, ordering="AMD")
        perm = np.asarray(E.permutation)
        R = sp.csc_matrix(R)
        if not keep_q:
            Q = None
    del B
    R = _square(R, q)         # R is p x q with its rows beyond q empty: the same arrays, q x q
    return SparseQR((m, n), transposed, Triangular(R, overwrite=True), perm, Q, stats, float(max(delta, 0.0)))


def _square(R, q):
    """R (e x q, its rows beyond q empty) as q x q, the same arrays."""
    if R.shape[0] == q:
        return R
    return sp.csc_matrix((R.data, R.indices, R.indptr), shape=(q, q)) if R.indices.max(initial=-1) < q else R[:q]


class _Undecided(Exception):
    """A singular value the partly regularised factor cannot place against the tolerance: factor them all."""


def rank_factor(A, delta, side="auto", what=None, full=False, order=None, groups=None):
    """The regularised Q-less factor of :func:`rank` (:class:`SparseQR`, ``delta`` > 0).

    Every column regularised, [B; delta I]: without SuiteSparseQR's C interface, or ``full`` without ``order``
    (:func:`factor`, SuiteSparseQR's own order); ``full`` with ``order``: in that order, fixed. Else METIS's order first (``order``: one already made; ``groups``: a label per column of A, the order made on
    the graph of the groups, :meth:`~chrono_origami.tools.suitesparse.SuiteSparse.metis`), then
    [B[:, order]; delta I_S] in that order, S its last :data:`SEPARATOR` sqrt(q) columns: the root separators,
    whose fronts are factored last and widest anyway, so the delta rows leave the other fronts as short as B's own
    (on the 10^4-panel Miura patch, 6.07e9 flops against 6.06e9 for B alone and 1.11e10 for [B; delta I]).
    R^T R = B^T B + delta^2 I_S lies between B^T B and B^T B + delta^2 I. When a pivot is below :data:`FLOOR` delta
    (a column that depends on earlier ones outside S), every column is regularised after all, in the same order.
    Returns (factor, order: None when SuiteSparseQR ordered it).
    """
    lib = suitesparse()
    if full and order is None or lib is None:
        return factor(A, delta, side, keep_q=False, what=what), None
    A = sp.csc_matrix(A, dtype=float)
    m, n = A.shape
    transposed = _orientation(A, side)
    B = sp.csc_matrix(A.T) if transposed else A
    p, q = B.shape
    what = what or f"{m:,} x {n:,} operator"
    need, how = factor_memory(A, delta, side, False)
    memory.check(f"the sparse QR of the {what} ({how} from its structure)", need)
    try:
        if order is None:
            order = lib.metis(B, None if transposed else groups)
        Bo = sp.csc_matrix(B[:, order])
        S = np.arange(q) if full else np.arange(q - min(q, int(np.ceil(SEPARATOR * np.sqrt(q)))), q)
        for attempt in range(2):
            D = sp.csc_matrix((np.full(len(S), float(delta)), (np.arange(len(S)), S)), shape=(len(S), q))
            _, R, perm, stats = lib.qr(sp.vstack([Bo, D], format="csc"), -1.0, ordering="FIXED")
            del D
            R = _square(R, q)
            if len(S) == q:
                break
            small = np.nonzero(np.abs(R.diagonal()) < FLOOR * delta)[0]
            if not len(small):
                break
            # a column that depends on earlier ones outside S (its pivot round-off): every column regularised
            del R
            S = np.arange(q)
    except (MemoryError, OSError):       # METIS or the fixed order refused: SuiteSparseQR's own, every column
        return factor(A, delta, side, keep_q=False, what=what), None
    regularised = None
    Bp = None
    if len(S) < q:
        regularised = np.zeros(q, bool)
        regularised[S] = True
        regularised = regularised[perm]
        Bp = sp.csr_matrix(Bo[:, perm])
    del Bo
    return SparseQR((m, n), transposed, Triangular(R, overwrite=True), order[perm], None, stats, float(delta), Bp,
                    regularised), order


def largest_singular_value(A, tol=1e-7):
    """sigma_max(A) by Lanczos on the smaller Gram matrix, products with A and A^T (:func:`_lanczos_largest`: the
    Ritz pair's residual at most ``tol`` times its value, the value then to about tol^2; ARPACK where that does not
    converge). On the 10^4-panel Miura patch 74 products, 0.09 s, within 1e-14 of the value to 1e-14; ARPACK's
    eigsh at tol 1e-6 took 71 products and 0.15 s (its reorthogonalisation), within 4e-13."""
    A = sp.csr_matrix(A, dtype=float)
    m, n = A.shape
    if A.nnz == 0:
        return 0.0
    At = sp.csr_matrix(A.T)
    if m < n:
        A, At = At, A
    if min(m, n) <= 2:
        G = (At @ A).toarray()
        return float(np.sqrt(max(np.linalg.eigvalsh(G).max(), 0.0)))
    v0 = np.random.default_rng(0).standard_normal(A.shape[1])    # a fixed start: the same value every call
    lam = _lanczos_largest(lambda x: At @ (A @ x), v0, tol, 20 * A.shape[1] if A.shape[1] < 100 else 2000)
    if lam is None:
        G = At @ A
        lam = spla.eigsh(G, k=1, which="LA", return_eigenvectors=False, tol=tol, v0=v0)[0]
    return float(np.sqrt(max(lam, 0.0)))


def _lanczos_largest(mv, v0, tol, steps):
    """The largest eigenvalue of a symmetric positive semi-definite operator ``mv`` by Lanczos from v0 (three-term
    recurrence, no reorthogonalisation: a converged Ritz value is an eigenvalue to round-off, Paige), stopped at
    the first step whose largest Ritz pair has a residual at most ``tol`` times its value; None after ``steps``."""
    from scipy.linalg import eigh_tridiagonal

    a, b = [], []
    v = v0 / np.linalg.norm(v0)
    previous = None
    for j in range(steps):
        w = mv(v)
        alpha = float(v @ w)
        a.append(alpha)
        w -= alpha * v
        if previous is not None:
            w -= b[-1] * previous
        beta = float(np.linalg.norm(w))
        theta, S = eigh_tridiagonal(np.array(a), np.array(b), select="i", select_range=(j, j))
        if abs(beta * S[-1, 0]) <= tol * abs(theta[0]) or beta == 0.0:
            return float(theta[0])
        b.append(beta)
        previous, v = v, w / beta
    return None


# ------------------------------------------------------------------ rank
@dataclass
class SparseRank:
    """Rank decision of a sparse A (see the module docstring).

    ``nullity`` is that of the factored tall matrix (dim null(A) when A is
    tall, dim null(A^T) when it is wide: ``transposed``); :attr:`null_vectors`
    (q x nullity, orthonormal, in the factored matrix's original column order)
    spans that null space, refined and formed when first asked.
    :meth:`right_null` and :meth:`left_null` give either null space (the other
    one by a second factorisation); :meth:`project_right_null` and
    :meth:`project_left_null` project a vector on them, from the one factor. ``gap`` is (smallest kept, largest
    dropped) singular value relative to sigma_max (NaN when not estimated).
    ``operator``: the matrix ranked (A times ``columns`` when given).
    """

    rank: int
    sigma_max: float
    gap: tuple
    nullity: int
    ritz: np.ndarray = field(repr=False)        # the null Ritz vectors, permuted coordinates (q x nullity)
    qr: SparseQR = field(repr=False)
    _null: np.ndarray = field(default=None, repr=False)
    operator: object = field(default=None, repr=False)
    columns: object = field(default=None, repr=False)
    rtol: float = None

    @property
    def transposed(self):
        return bool(self.qr is not None and self.qr.transposed)

    @property
    def null_vectors(self):
        if self._null is None:
            V = self.ritz
            if V.shape[1] and self.qr is not None:
                memory.check(f"the {V.shape[0]:,} x {V.shape[1]:,} null-space basis", 4 * V.nbytes)
                # one step of subspace iteration: the error shrinks by delta^2 / (sigma_kept^2 + delta^2)
                V = _orthonormal(self.qr.null_step(V))
            N = np.empty_like(V)
            if self.qr is not None:
                N[self.qr.perm] = V           # back to the factored matrix's column order
            else:
                N = V
            self._null = N
        return self._null

    def _other(self, side):
        return rank(self.operator, self.rtol, sigma_max=self.sigma_max, side=side, split=False)

    def right_null(self):
        """Orthonormal basis of null(A) (A's columns: ``columns`` times the operator's)."""
        N = self._other("right").null_vectors if self.transposed else self.null_vectors
        return N if self.columns is None else np.asarray(self.columns @ N)

    def left_null(self):
        """Orthonormal basis of null(A^T)."""
        return self.null_vectors if self.transposed else self._other("left").null_vectors

    def project_left_null(self, g, steps=8):
        """The projection of g (m) on null(A^T): g minus its least-squares fit by range(A)."""
        g = np.asarray(g, float)
        if self.qr is None or self.transposed:
            L = self.left_null()
            return L @ (L.T @ g)
        return range_residual(self, self.operator, g, steps)

    def project_right_null(self, g, steps=8):
        """The projection of g (n, A's own column coordinates) on null(A), without forming a basis when the
        factor is of A^T (g minus its least-squares fit by range(A^T))."""
        g = np.asarray(g, float)
        if self.columns is not None:
            g = np.asarray(self.columns.T @ g)
        if self.qr is None or not self.transposed:
            N = self.null_vectors
            z = N @ (N.T @ g)
        else:
            z = range_residual(self, sp.csc_matrix(self.operator.T), g, steps)
        return z if self.columns is None else np.asarray(self.columns @ z)


@dataclass
class BlockRank:
    """Rank decision of a sparse A made of independent blocks (:func:`blocks`), one :class:`SparseRank` (or a
    dense decision, for small blocks) each, all under the same tolerance rtol * sigma_max(A).

    ``parts``: (rows, columns, rank of the block) -- a block without rows or without
    columns has rank 0. ``rank``, ``gap``: of A (sums; the smallest kept and the
    largest dropped over the blocks). The methods are :class:`SparseRank`'s.
    """

    rank: int
    sigma_max: float
    gap: tuple
    nullity: int
    shape: tuple
    parts: list = field(repr=False)
    side: str = "auto"
    columns: object = field(default=None, repr=False)

    @property
    def transposed(self):
        sides = {part.transposed for _, _, part in self.parts if part is not None}
        return sides == {True}

    @property
    def null_vectors(self):
        if self.side == "left" or (self.side == "auto" and self.transposed):
            return self.left_null()
        return self.right_null(rotated=False)

    def _assemble(self, pieces, size, which):
        total = sum(P.shape[1] for _, P in pieces)
        memory.check(f"the {size:,} x {total:,} {which} null-space basis", 8 * size * total)
        N = np.zeros((size, total))
        k = 0
        for idx, P in pieces:
            N[idx, k:k + P.shape[1]] = P
            k += P.shape[1]
        return N

    def right_null(self, rotated=True):
        """Orthonormal basis of null(A), block by block."""
        pieces = []
        for rows, cols, part in self.parts:
            if part is None:                  # a block without rows: its columns are free
                pieces.append((cols, np.eye(len(cols))))
            elif len(cols):
                pieces.append((cols, part.right_null()))
        N = self._assemble(pieces, self.shape[1], "right")
        return N if (self.columns is None or not rotated) else np.asarray(self.columns @ N)

    def left_null(self):
        """Orthonormal basis of null(A^T), block by block."""
        pieces = []
        for rows, cols, part in self.parts:
            if part is None or not len(cols):
                if len(rows):
                    pieces.append((rows, np.eye(len(rows))))
            else:
                pieces.append((rows, part.left_null()))
        return self._assemble(pieces, self.shape[0], "left")

    def project_left_null(self, g, steps=8):
        """The projection of g on null(A^T), block by block."""
        g = np.asarray(g, float)
        z = np.zeros_like(g)
        for rows, cols, part in self.parts:
            if len(rows):
                z[rows] = g[rows] if part is None else part.project_left_null(g[rows], steps)
        return z

    def project_right_null(self, g, steps=8):
        """The projection of g (A's own column coordinates) on null(A), block by block."""
        g = np.asarray(g, float)
        if self.columns is not None:
            g = np.asarray(self.columns.T @ g)
        z = np.zeros_like(g)
        for rows, cols, part in self.parts:
            if len(cols):
                z[cols] = g[cols] if part is None else part.project_right_null(g[cols], steps)
        return z if self.columns is None else np.asarray(self.columns @ z)


class _DenseRank:
    """The dense SVD's decision on a small block (same interface as :class:`SparseRank`)."""

    def __init__(self, A, rtol, smax):
        A = A.toarray() if sp.issparse(A) else np.asarray(A, float)
        U, s, Vt = np.linalg.svd(A, full_matrices=True)
        tol = rtol * smax
        self.rank = int(np.sum(s > tol))
        self.gap = (float(s[self.rank - 1] / smax) if self.rank else np.nan,
                    float(s[self.rank] / smax) if self.rank < len(s) else 0.0)
        self._right, self._left = Vt[self.rank:].T, U[:, self.rank:]
        self.transposed = A.shape[0] < A.shape[1]
        self.nullity = min(A.shape) - self.rank

    def right_null(self):
        return self._right

    def left_null(self):
        return self._left

    def project_left_null(self, g, steps=8):
        return self._left @ (self._left.T @ g)

    def project_right_null(self, g, steps=8):
        return self._right @ (self._right.T @ g)


#: Before a split into independent blocks, the smallest entries of A whose squares sum to at most
#: (SPLIT_RTOL sigma_max)^2 are dropped: the singular values move by less than that, which is the size of the
#: dense SVD's own round-off on these operators (and of Chrono's 13 written digits), far below the tolerance.
SPLIT_RTOL = 1e-13
#: Blocks with at most this many rows or columns are decided by the dense SVD.
SMALL_BLOCK = 60


def blocks(A, smax):
    """Independent blocks of A: (rows, columns) of each connected component of its row-column graph after the
    negligible entries are dropped (:data:`SPLIT_RTOL`), or None when A is one block.

    A flat crease pattern's operator, its columns turned to the pattern's plane (the caller's ``columns``),
    falls into an out-of-plane block (the mechanisms) and an in-plane block; separate pieces of a pattern are
    blocks too. Zero rows and columns form blocks of their own, without columns or without rows.
    """
    from scipy.sparse.csgraph import connected_components

    A = sp.csr_matrix(A)
    m, n = A.shape
    a = np.abs(A.data)
    budget = (SPLIT_RTOL * smax) ** 2
    small = np.nonzero(a * a <= budget)[0]        # only these can be dropped (one larger entry alone exceeds it)
    order = small[np.argsort(a[small], kind="stable")]
    dropped = np.searchsorted(np.cumsum(a[order] ** 2), budget, side="right")
    keep = np.ones(len(a), bool)
    keep[order[:dropped]] = False
    keep &= a > 0
    rows = np.repeat(np.arange(m), np.diff(A.indptr))[keep]
    cols = A.indices[keep]
    G = sp.csr_matrix((np.ones(len(rows)), (rows, m + cols)), shape=(m + n, m + n))
    count, label = connected_components(G, directed=False)
    if count == 1:
        return None
    out = []
    by = np.argsort(label, kind="stable")
    bounds = np.searchsorted(label[by], np.arange(count + 1))
    for k in range(count):
        members = by[bounds[k]:bounds[k + 1]]
        out.append((members[members < m], members[members >= m] - m))
    return out


def _block_rank(A, parts, rtol, smax, side, block, stage, columns, what, groups=None):
    A = sp.csr_matrix(A)
    m, n = A.shape
    done, total, kept, dropped, nullity = [], 0, np.inf, 0.0, 0
    free_rows = [r for r, c in parts if not len(c)]
    free_cols = [c for r, c in parts if not len(r)]
    for rows, cols in parts:
        if not len(rows) or not len(cols):
            continue
        Ab = A[rows][:, cols]
        if min(Ab.shape) <= SMALL_BLOCK:
            r = _DenseRank(Ab, rtol, smax)
        else:
            stage(f"block of {len(rows):,} x {len(cols):,}")
            r = rank(Ab, rtol, sigma_max=smax, side=side, block=block, split=False,
                     what=f"{len(rows):,} x {len(cols):,} block of the {what}",
                     groups=None if groups is None else np.asarray(groups)[cols])
        done.append((rows, cols, r))
        total += r.rank
        nullity += r.nullity
        if np.isfinite(r.gap[0]):
            kept = min(kept, r.gap[0])
        dropped = max(dropped, r.gap[1])
    rows_free = np.concatenate(free_rows) if free_rows else np.zeros(0, int)
    cols_free = np.concatenate(free_cols) if free_cols else np.zeros(0, int)
    if len(rows_free) or len(cols_free):
        done.append((rows_free, cols_free, None))
    gap = (kept if np.isfinite(kept) else np.nan, dropped)
    return BlockRank(total, smax, gap, nullity, (m, n), done, side, columns)


#: Most steps of the one-eigenpair Lanczos of :func:`_lanczos` before ARPACK takes over from its Ritz vector.
LANCZOS_STEPS = 40
#: Its test: the Ritz pair's residual at most LANCZOS_TOL times the value (ARPACK's tol in the other rounds).
LANCZOS_TOL = 1e-10


def _lanczos(qr, k, deflate):
    """The k largest eigenpairs of (R^T R)^-1 on the complement of the orthonormal columns ``deflate``.

    Returns (1 / eigenvalue, i.e. squared singular values of R, ascending; vectors, permuted coordinates).
    ARPACK (eigsh, tol 1e-10), but for k = 1 (the rounds that prove no null direction is left) Lanczos with full
    reorthogonalisation, stopped at the first step whose Ritz pair meets ARPACK's test (residual at most 1e-10 times
    the value), where ARPACK tests only at the end of a cycle of ncv = 20 products: on the 10^4-panel Miura patch 17
    products instead of 21, the same value and vector. After :data:`LANCZOS_STEPS` steps ARPACK goes on from the
    Ritz vector.
    """
    q = qr.q
    k = min(k, q - deflate.shape[1] - 1)
    if k <= 0:
        return np.zeros(0), np.zeros((q, 0))
    op = qr.inverse_gram(deflate, before=False)     # the start is projected: every Lanczos vector lies in range(P)
    v0 = _deflated(np.random.default_rng(0).standard_normal(q), deflate)
    if k == 1:
        val, vec = _lanczos_top(op.matvec, v0, LANCZOS_TOL, min(LANCZOS_STEPS, q - deflate.shape[1]))
        if val is not None:
            vals, vecs = np.array([val]), vec[:, None]
        else:
            v0 = _deflated(vec, deflate)
    if k > 1 or val is None:
        vals, vecs = spla.eigsh(op, k=k, which="LA", tol=1e-10, ncv=min(q, max(2 * k + 1, 20)), v0=v0)
    keep = vals > 0                        # the deflated directions come back as zeros
    vals, vecs = vals[keep], vecs[:, keep]
    order = np.argsort(vals)[::-1]
    return 1.0 / vals[order], vecs[:, order]


def _lanczos_top(mv, v0, tol, steps):
    """The largest eigenpair of the symmetric ``mv`` by Lanczos from v0 with full reorthogonalisation (twice), stopped
    at the first step whose Ritz pair (theta, y) has |beta_j s_j| <= tol |theta| (ARPACK's test). Returns (theta, y),
    or (None, the last Ritz vector) after ``steps`` steps."""
    from scipy.linalg import eigh_tridiagonal

    q = len(v0)
    memory.check(f"the Lanczos vectors ({q:,} x {steps})", 8 * q * steps)
    Q = np.empty((steps, q))
    Q[0] = v0 / np.linalg.norm(v0)
    a, b = [], []
    for j in range(steps):
        w = np.asarray(mv(Q[j]), float).ravel()
        a.append(float(Q[j] @ w))
        for _ in range(2):
            w -= Q[:j + 1].T @ (Q[:j + 1] @ w)
        beta = float(np.linalg.norm(w))
        theta, S = eigh_tridiagonal(np.array(a), np.array(b), select="i", select_range=(j, j))
        y = Q[:j + 1].T @ S[:, 0]
        if abs(beta * S[-1, 0]) <= tol * abs(theta[0]) or beta == 0.0:
            return float(theta[0]), y
        if j + 1 < steps:
            b.append(beta)
            Q[j + 1] = w / beta
    return None, y


def _smallest_kept(qr, A, K, V):
    """Smallest singular value of the factored matrix B on span(K), refined (permuted coordinates).

    K: kept Ritz vectors (up to 8 of the last round, and those of the round before when it found null
    directions too; they may overlap: the block is K's well-determined span). One step of block
    inverse iteration with (R^T R)^-1 on the complement of the null vectors
    V, then Rayleigh-Ritz: the smallest singular value of B X (X the
    orthonormal block). A cluster of equal or close singular values (mirror
    designs, symmetric structures) is resolved together; the value agrees
    with the dense SVD's to about 1e-11 relative (Lanczos's tolerance alone
    gives 1e-10 to 1e-9).
    """
    K = K - V @ (V.T @ K)
    K = qr.gram_solve(K)
    K = K - V @ (V.T @ K)
    U, s, _ = np.linalg.svd(K, full_matrices=False)
    K = U[:, s > 1e-8 * s[0]]
    X = np.empty_like(K)
    X[qr.perm] = K
    B = A.T if qr.transposed else A
    return float(np.linalg.svd(np.asarray(B @ X), compute_uv=False).min())


def _ritz(qr, X, delta):
    """Rayleigh-Ritz of B^T B on span(X) (X orthonormal): (singular values sigma of B, ascending; Ritz vectors)
    (:meth:`SparseQR.ritz`; ``delta``: the factor's)."""
    return qr.ritz(X)


def _largest_ritz(Y):
    """Largest singular value of the dense q x p block Y: LAPACK's SVD when p is small; up to :data:`GRAM_RITZ`
    columns the largest eigenvalue of the p x p Gram matrix Y^T Y (absolute error about p eps |Y|^2 in sigma^2);
    beyond, Lanczos on Y^T Y (a Gram matrix of 2,000 columns costs more than 20 products with Y)."""
    p = Y.shape[1]
    if p <= 64:
        return float(np.linalg.svd(Y, compute_uv=False)[0]) if p else 0.0
    if p <= GRAM_RITZ:
        from scipy.linalg import eigh
        from scipy.linalg.blas import dsyrk

        Y = np.ascontiguousarray(Y)
        G = dsyrk(1.0, Y.T, trans=0, lower=0)
        top = eigh(G, lower=False, eigvals_only=True, subset_by_index=[p - 1, p - 1], check_finite=False)[0]
        return float(np.sqrt(max(top, 0.0)))
    op = spla.LinearOperator((p, p), matvec=lambda x: Y.T @ (Y @ x), dtype=float)
    v0 = np.random.default_rng(2).standard_normal(p)
    return float(np.sqrt(max(spla.eigsh(op, k=1, which="LA", tol=1e-8, v0=v0, return_eigenvectors=False)[0], 0.0)))


def _orthonormal(X):
    """An orthonormal basis of span(X) (q x p, p <= q, full rank): Cholesky QR twice (two Gram matrices and two
    triangular solves: a third of numpy's Householder QR on 30,000 x 201), with Householder QR when the second
    Gram matrix is not within 0.5 of I (then the first pass lost orthogonality: X too ill-conditioned)."""
    from scipy.linalg import cholesky, qr as householder
    from scipy.linalg.blas import dsyrk, dtrsm

    q, p = X.shape
    if p == 0 or p > q:
        return np.linalg.qr(X)[0]
    Q = np.array(X, dtype=float, order="C", copy=True)     # Q.T: Fortran order, p x q, for BLAS without copies
    try:
        for step in range(2):
            G = dsyrk(1.0, Q.T, trans=0, lower=0)                # Q^T Q, upper triangle
            if step == 1 and np.abs(np.triu(G) - np.eye(p)).max() > 0.5:
                raise np.linalg.LinAlgError("lost orthogonality")
            R = cholesky(G, lower=False, overwrite_a=True, check_finite=False)
            Q = dtrsm(1.0, R, Q.T, side=0, lower=0, trans_a=1, overwrite_b=1).T     # (R^-T Q^T)^T = Q R^-1
        if not np.all(np.isfinite(Q)):
            raise np.linalg.LinAlgError("not finite")
        return Q
    except np.linalg.LinAlgError:
        return householder(X, mode="economic", check_finite=False)[0]


def _deflated(X, V):
    return X - V @ (V.T @ X) if V.shape[1] else X


def _append(V, W):
    """V (orthonormal) with the new directions W, made orthonormal to V and among themselves (only W is
    re-orthonormalised: the q x k block V is not factored again)."""
    if not W.shape[1]:
        return V
    return np.hstack([V, _orthonormal(_deflated(W, V))])


def _block_null(qr, candidates, tol, delta, V, stage, what):
    """Null directions of B by a block method started on the candidate columns (module doc).

    Returns (null vectors, V included, orthonormal; largest dropped sigma; kept Ritz vectors next to the null ones).
    """
    q = qr.q
    rng = np.random.default_rng(1)
    p = min(len(candidates), q - V.shape[1] - 1)
    if p <= 0:
        return V, 0.0, np.zeros((q, 0))
    memory.check(f"the block null-space search on the {what} ({q:,} x {p + EXTRA:,} blocks)", 6 * 8 * q * (p + EXTRA))
    stage(f"block iteration on R: {p} candidate null directions")
    X = np.zeros((q, p))
    X[candidates[:p], np.arange(p)] = 1.0
    X = qr.solve_R(X)
    X /= np.sqrt(np.einsum("ij,ij->j", X, X))       # column norms (numpy.linalg.norm along axis 0: 3 times slower)
    X = _orthonormal(_deflated(qr.null_step(X), V))
    # every candidate null? The largest singular value of B on span(X) at most tol (Courant-Fischer: then so are
    # p singular values of B)
    largest = qr.largest_ritz(X)
    if largest <= tol:
        return np.hstack([V, X]), largest, np.zeros((q, 0))
    # some are not: Rayleigh-Ritz, with EXTRA random columns, and more steps while a Ritz value is unsure
    dropped, seen = 0.0, np.zeros((q, 0))
    X = np.hstack([X, rng.standard_normal((q, min(EXTRA, q - V.shape[1] - p - 1)))])
    while X.shape[1] > 0:
        count = -1
        for _ in range(BLOCK_STEPS):
            X = _orthonormal(_deflated(X, V))
            sig, Y = _ritz(qr, X, delta)
            null = sig <= tol
            unsure = (sig > tol) & (sig <= GAP * tol)
            if not unsure.any() or int(null.sum()) == count:
                break
            count = int(null.sum())
            X = qr.null_step(Y)
        if null.any():
            dropped = max(dropped, float(sig[null].max()))
            V = _append(V, Y[:, null])
        if not null.all():
            seen = Y[:, ~null][:, :BLOCK]
            break
        # every Ritz value null: the block was too small; a doubled random block on the complement
        p = min(2 * X.shape[1], q - V.shape[1] - 1)
        memory.check(f"the block null-space search on the {what} ({q:,} x {p:,} blocks)", 6 * 8 * q * p)
        stage(f"block iteration on R: {p} vectors, {V.shape[1]} null directions so far")
        X = qr.solve_R(rng.standard_normal((q, p))) if p > 0 else np.zeros((q, 0))
    return V, dropped, seen


def rank(A, rtol, sigma_max=None, side="auto", block=BLOCK, stage=None, columns=None, split=True, what=None,
         groups=None):
    """:class:`SparseRank` of A: singular values below ``rtol * sigma_max`` count as zero.

    See the module docstring: the regularised Q-less factor; the block method
    when many columns are null candidates; Lanczos rounds on the complement
    of the null vectors found until a round finds none; the gap by
    Rayleigh-Ritz on the kept Ritz vectors. ``side``: "right" for null(A),
    "left" for null(A^T), "auto" the one with fewer columns; ``block``:
    eigenpairs of the first Lanczos round, doubled after a full round that
    finds only null directions (a one-eigenpair round that finds one is
    followed by a round of ``block``); ``stage``: a callable told each step
    (a :class:`chrono_origami.tools.progress.Stages`). No limit on the nullity but
    the memory of its dense q x nullity blocks.

    ``columns``: an orthogonal matrix (n x n, sparse) by which A's columns are
    turned first (the singular values stay; :meth:`SparseRank.right_null`
    turns its vectors back): a flat pattern's velocities in its plane's frame.
    ``split``: rank the independent blocks of A one by one (:func:`blocks`;
    a :class:`BlockRank` is returned when there are several). ``what``: the
    operator's name in a memory error (default "m x n operator"). ``groups``: a label per column of A (the body of
    each velocity column; ``columns`` must keep them apart), for the fill-reducing order
    (:func:`rank_factor`).
    """
    stage = stage or (lambda what: None)
    A = sp.csc_matrix(A, dtype=float)
    if columns is not None:
        A = sp.csc_matrix(A @ columns)
    m, n = A.shape
    what = what or f"{m:,} x {n:,} operator"
    if sigma_max is None:
        stage(f"largest singular value of the {m} x {n} operator")
    smax = largest_singular_value(A) if sigma_max is None else float(sigma_max)
    if min(m, n) == 0 or smax == 0.0:
        q = m if _orientation(A, side) else n
        return SparseRank(0, smax, (np.nan, 0.0), q, np.eye(q), None, np.eye(q), A, columns, rtol)
    if split:
        parts = blocks(A, smax)
        if parts is not None:
            return _block_rank(A, parts, rtol, smax, side, block, stage, columns, what, groups)
    tol = rtol * smax
    delta = DELTA_FACTOR * tol
    stage(f"sparse QR of the {m} x {n} operator")
    qr, order = rank_factor(A, delta, side, what, groups=groups)
    try:
        V, dropped, kept = _null_search(qr, A, tol, smax, block, stage, what)
    except _Undecided:
        stage(f"sparse QR of the {m} x {n} operator, every column regularised")
        del qr
        qr, _ = rank_factor(A, delta, side, what, full=True, order=order)
        V, dropped, kept = _null_search(qr, A, tol, smax, block, stage, what)
    q, nz = qr.q, V.shape[1]
    return SparseRank(q - nz, smax, (kept / smax, dropped / smax), nz, V, qr, None, A, columns, rtol)


def _probe(qr, V, tol, dropped, seen):
    """One step towards null(B) (:meth:`SparseQR.null_step`) on :data:`PROBE` random vectors on the complement of V,
    then Rayleigh-Ritz: finds null directions that leave no small pivot, when they lie well apart from the kept
    values (a null one certain when at most the tolerance); the rest is left to the Lanczos rounds. Returns (V,
    dropped, seen, whether any was found)."""
    q = qr.q
    if q - V.shape[1] <= PROBE:
        return V, dropped, seen, False
    X = _deflated(np.random.default_rng(3).standard_normal((q, PROBE)), V)
    sig, Y = qr.ritz(_orthonormal(_deflated(qr.null_step(X), V)))
    null = sig <= tol
    if not null.any():
        return V, dropped, seen, False
    # one more step on those found, so that their singular values are resolved as Lanczos's are
    sig_n, Z = qr.ritz(_orthonormal(_deflated(qr.null_step(Y[:, null]), V)))
    found = sig_n <= tol
    dropped = max(dropped, float(sig_n[found].max(initial=0.0)))
    return _append(V, Z[:, found]), dropped, np.hstack([seen, Y[:, ~null]])[:, :BLOCK], bool(found.any())


def _null_search(qr, A, tol, smax, block, stage, what):
    """The null directions of the factored B (:func:`rank`, after the factor): (V, largest dropped sigma, smallest
    kept sigma). With a partly regularised factor (:attr:`SparseQR.partial`) a Lanczos value sqrt(1 / lambda -
    delta^2) is only a lower bound of the singular value of its rank: one at most the tolerance is checked on B
    (Rayleigh-Ritz), and :class:`_Undecided` raised when B puts it above the tolerance."""
    delta = qr.delta
    q = qr.q
    V = np.zeros((q, 0))
    dropped, kept = 0.0, np.nan
    seen = np.zeros((q, 0))        # kept Ritz vectors of the last round that found null directions too
    order = np.argsort(np.abs(qr.R.d), kind="stable")
    first = int(np.count_nonzero(np.abs(qr.R.d) <= np.sqrt(delta * smax)))
    ask = block                    # eigenpairs of the next Lanczos round
    if first > block:
        V, dropped, seen = _block_null(qr, order[:first], tol, delta, V, stage, what)
        # on large patterns some null directions leave no pivot that small: the next candidates (by |R_jj|), a
        # fifth as many a batch, while a batch finds some -- when the probe finds any (the flat 10^4-panel Miura
        # patch: none, where a batch of 40 took 0.45 s to find none)
        V, dropped, seen, probed = _probe(qr, V, tol, dropped, seen)
        pos = first if probed else q
        while pos < q - V.shape[1] - 1:
            batch = order[pos:pos + max(2 * EXTRA, first // 5)]
            pos += len(batch)
            found = V.shape[1]
            V, more, kept_ritz = _block_null(qr, batch, tol, delta, V, stage, what)
            dropped = max(dropped, more)
            if kept_ritz.shape[1]:
                seen = kept_ritz
            if V.shape[1] == found:
                break
        ask = 1
    elif first > 0:
        # a few candidates: the block method on them alone (a few solves, where a Lanczos round of ``block``
        # eigenpairs takes some 30: on the 10^4-panel Miura patch, 7 candidates, 7 null directions), then
        # one-eigenpair rounds on the complement
        V, dropped, seen = _block_null(qr, order[:first], tol, delta, V, stage, what)
        # a null direction may leave no pivot that small (the 10^5-panel patch: 6 candidates for 7, the 7th at
        # |R_jj| = 3.3e4 delta)
        V, dropped, seen, _ = _probe(qr, V, tol, dropped, seen)
        ask = 1
    while True:
        stage(f"Lanczos on R: {V.shape[1]} null directions so far")
        # after a block or a round with both null and kept directions, one eigenpair is enough to tell whether null
        # directions remain (the largest eigenvalue left)
        sig2, vecs = _lanczos(qr, ask, V)
        if len(sig2) == 0:
            break
        sig = np.sqrt(np.maximum(sig2 - delta ** 2, 0.0))
        zero = sig <= tol
        if qr.partial and zero.any():
            # sig is a lower bound here (R^T R <= B^T B + delta^2 I): those at most the tolerance are checked on B;
            # their Rayleigh-Ritz values at most the tolerance are null for certain (Courant-Fischer), one above
            # it is undecided
            sig_b, Y = qr.ritz(_orthonormal(vecs[:, zero]))
            if (sig_b > tol).any():
                raise _Undecided
            vecs = np.hstack([Y, vecs[:, ~zero]])
            sig = np.concatenate([sig_b, sig[~zero]])
            zero = np.r_[np.ones(len(sig_b), bool), np.zeros(int((~zero).sum()), bool)]
        if not zero.any():
            # the largest eigenvalue left is a kept one: no null direction remains (a round that found some may
            # have missed others of the same, degenerate eigenvalue: a Krylov space sees one vector of it)
            kept = _smallest_kept(qr, A, np.hstack([seen, vecs[:, :BLOCK]]), V)
            break
        dropped = max(dropped, float(sig[zero].max()))
        memory.check(f"the null space of the {what} ({q:,} x {V.shape[1] + int(zero.sum()):,})",
                     3 * 8 * q * (V.shape[1] + int(zero.sum())))
        V = _append(V, vecs[:, zero])
        if zero.all():
            if ask == block:
                block *= 2         # a full round all null: a larger round next
            ask = block
            seen = np.zeros((q, 0))
        else:
            seen = vecs[:, ~zero][:, :BLOCK]
            ask = 1
    if qr.partial and V.shape[1]:
        # the null directions must be held by the delta rows: (R^T R)^-1 along them at most 1 / (WEIGHT delta^2),
        # so that round-off along them (eps relative) stays far below the kept directions' 1 / sigma^2
        RV = qr.R.matvec(V)
        weight = float(np.linalg.eigvalsh(RV.T @ RV)[0]) / delta ** 2
        if weight < WEIGHT:
            raise _Undecided
    return V, dropped, kept


def range_residual(r, B, g, steps=8):
    """g - B x, x the least-squares solution of B x = g, B the matrix factored by :func:`rank` (A, or A^T when
    ``r.transposed``), with its regularised factor.

    x starts as the regularised solution (R^T R)^-1 B^T g (R^T R = B^T B + delta^2 I, or B^T B + delta^2 I_S for
    the count's partly regularised factor) and is refined ``steps`` times; each step shrinks the residual's error
    along a singular direction sigma by at most delta^2 / (sigma^2 + delta^2).
    """
    qr, perm = r.qr, r.qr.perm
    if B.shape[1] != qr.q:
        raise ValueError(f"range_residual needs the factored matrix ({qr.q} columns), got {B.shape[1]} columns")
    g = np.asarray(g, float)

    def gram_solve(b):
        w = qr.gram_solve(b[perm])
        x = np.empty_like(w)
        x[perm] = w
        return x

    x = np.zeros(B.shape[1])
    z = g.copy()
    for _ in range(steps):
        x += gram_solve(B.T @ z)
        z = g - B @ x
    return z
