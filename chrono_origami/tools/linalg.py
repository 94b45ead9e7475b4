"""Rank decisions and null spaces, dense or sparse, with one tolerance (engine-neutral).

Rank rule
---------
A singular value of ``A`` below ``rtol * sigma_max(A)`` counts as zero
(default :data:`RANK_RTOL`). Callers pass *scaled* operators, whose entries
share one unit (``engines.compatibility``'s Cs: translational rows / L, so every
entry is a length ratio; the modal analysis's Cq D: rotations x L), so one
relative tolerance fits them all. ``NullSpace.gap`` reports the smallest kept
and the largest dropped singular value relative to sigma_max, so a
near-singular decision is visible.

Methods
-------
* ``"dense"``: LAPACK SVD of the dense array (``gesdd``; ``gesvd`` when
  ``gesdd`` does not converge).
* ``"sparse"``: the sparse QR path of :mod:`chrono_origami.tools.sparseqr`
  (SuiteSparseQR of the regularised operator, Lanczos on (R^T R)^-1): no
  squaring, both null spaces, resolves singular values far below the
  tolerance. Where pyspqr is not installed, the fallback is shift-and-invert
  Lanczos (ARPACK through SciPy, SuperLU factor) on the Gram matrix G = A^T A
  for the eigenpairs nearest zero,
  growing their number until one is not in the null space; a vector v counts
  as null when |A v| <= rtol sigma_max (the residual is computed on A itself,
  so the squaring in G does not square the tolerance). No dense matrix of the
  size of A is formed. No left null space. G's round-off (1e-16 sigma_max^2)
  limits what it can resolve: a null vector is found with |A v| up to about
  1e-16 sigma_max^2 / sigma_kept (sigma_kept the smallest kept singular
  value), so with the default tolerance the decision is sound while the kept
  singular values stay above about 1e-7 sigma_max and the dropped ones below
  1e-8; a tolerance much below 1e-8 is beyond this method.
* ``"auto"``: dense when A has at most :data:`DENSE_LIMIT` columns
  (:func:`choose_method`); forcing "dense" on an operator whose SVD does not
  fit in memory is a one-line :class:`~chrono_origami.tools.errors.SolverError`
  with the memory needed.

Gap convention: (smallest kept, largest dropped) singular value relative to
sigma_max, NaN when nothing is kept, 0.0 when nothing is dropped.
"""
import os
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from . import sparseqr
from .errors import InsufficientMemoryError, SolverError
from .memory import FRACTION
from .memory import available as available_memory
from .memory import gigabytes

#: Relative tolerance of every rank decision: singular values below ``RANK_RTOL * sigma_max`` are zero.
#: Round-off in a scaled operator is about 1e-13 sigma_max (Chrono writes its matrices with 13 significant
#: digits; LAPACK adds ~1e-16 sqrt(n)), so 1e-8 leaves five orders above it, and a configuration closer to
#: singular than 1e-8 is reported as singular (``gap`` shows how close).
RANK_RTOL = 1e-8

#: Largest number of columns (unknowns) of an operator handled densely under ``method="auto"`` (counts, null
#: spaces and solves: counting, statics, the design search, folding); above it the sparse methods run. Chosen
#: from ``benchmarks/scale.py``'s crossover on the project's 2-core machine, one BLAS thread: the dense count
#: (full SVD, both bases) is faster up to 150 columns, the sparse one from 216 columns on folded patches and
#: towers (384 on a flat box pleat), and the two are within 0.01 s between; at 1,350 columns the dense count
#: takes 4.7 s, the sparse one 0.08 s. (The modal analysis has its own switch, ``modal.DENSE_LIMIT``: its dense
#: pencil gives every mode.)
DENSE_LIMIT = 200

#: Operators of at most this size are handled by LAPACK on the formed matrix even on a sparse path
#: (ARPACK needs k < N - 1 eigenpairs and gains nothing on small operators).
SMALL_OPERATOR = 60

METHODS = ("auto", "dense", "sparse")

#: The sparse path forms a basis of null(A^T) (``null_space(left=True)``) of at most this many numbers.
LEFT_BASIS_ENTRIES = 50_000_000

#: Forcing the dense method is refused when its SVD needs more than this fraction of the available memory.
DENSE_MEMORY_FRACTION = FRACTION


@dataclass
class NullSpace:
    """Null space of an m x n operator A under the rank rule (module doc).

    basis: n x k orthonormal columns spanning null(A); rank = n - k;
    sigma_max: largest singular value of A (0 for a zero operator);
    gap: (smallest kept, largest dropped) singular value / sigma_max, None
    where there is none (the sparse method gets the dropped one from A on the
    null space found: a value near 1e-9 to a few per cent, as A^T A squares
    it into its round-off); left: m x (m - rank) orthonormal basis of null(A^T)
    (dense method, when asked), else None; method: "dense" or "sparse".
    """

    basis: np.ndarray
    rank: int
    sigma_max: float
    gap: tuple
    left: np.ndarray = None
    method: str = "dense"

    @property
    def dim(self):
        """Dimension of the null space (n - rank)."""
        return self.basis.shape[1]


def choose_method(shape, method="auto"):
    """"dense" or "sparse" for an m x n operator: ``auto`` is dense up to :data:`DENSE_LIMIT` columns.

    Forcing "dense" on an operator whose full SVD would need more than
    :data:`DENSE_MEMORY_FRACTION` of the available memory raises a one-line
    :class:`~chrono_origami.tools.errors.SolverError` with the memory needed.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {METHODS}")
    m, n = shape
    if method == "auto":
        return "dense" if n <= DENSE_LIMIT else "sparse"
    if method == "dense":
        need, avail = dense_memory(shape), available_memory()
        if avail is not None and need > DENSE_MEMORY_FRACTION * avail:
            raise InsufficientMemoryError(f"the dense SVD of the {m} x {n} operator needs about {gigabytes(need)} of memory, "
                              f"{gigabytes(avail)} is available; use the sparse method")
    return method


def dense_memory(shape):
    """Bytes the dense method holds at once: the operator (and its copy), U (m x m), Vt (n x n), LAPACK's work."""
    m, n = shape
    return 8 * (2 * m * n + m * m + n * n + 4 * min(m, n) ** 2)


def _method(A, method):
    return choose_method(A.shape, method)


def singular_values(A, full=False):
    """(U, s, Vt) of the dense ``A`` (``gesdd``, ``gesvd`` when it does not converge); s only when not ``full``.

    ``full``: U is m x m and Vt n x n (both null spaces); otherwise no vectors.
    """
    A = A.toarray() if sp.issparse(A) else np.asarray(A, float)
    if not full:
        try:
            return sla.svd(A, compute_uv=False, lapack_driver="gesdd")
        except sla.LinAlgError:
            return sla.svd(A, compute_uv=False, lapack_driver="gesvd")
    try:
        return sla.svd(A, full_matrices=True, lapack_driver="gesdd")
    except sla.LinAlgError:   # gesdd can fail to converge where the slower gesvd does not
        return sla.svd(A, full_matrices=True, lapack_driver="gesvd")


def _count(s, rtol):
    """Rank and gap from singular values ``s`` (descending)."""
    smax = float(s[0]) if len(s) else 0.0
    if smax == 0:
        return 0, 0.0, (np.nan, 0.0)
    r = int(np.sum(s > rtol * smax))
    gap = (float(s[r - 1] / smax) if r else np.nan, float(s[r] / smax) if r < len(s) else 0.0)
    return r, smax, gap


def _dense(A, rtol, left):
    m, n = A.shape
    if m == 0 or n == 0:
        return NullSpace(np.eye(n), 0, 0.0, (np.nan, 0.0), np.eye(m) if left else None, "dense")
    U, s, Vt = singular_values(A, full=True)
    r, smax, gap = _count(s, rtol)
    return NullSpace(Vt[r:].T, r, smax, gap, U[:, r:] if left else None, "dense")


def _sparse(A, rtol):
    """Null space of A by shift-invert Lanczos on A^T A (module doc)."""
    A = sp.csr_matrix(A)
    m, n = A.shape
    if m == 0 or n == 0:
        return NullSpace(np.eye(n), 0, 0.0, (np.nan, 0.0), None, "sparse")
    G = (A.T @ A).tocsc()
    G.eliminate_zeros()
    if G.nnz == 0:
        return NullSpace(np.eye(n), 0, 0.0, (np.nan, 0.0), None, "sparse")
    if n < 3:   # too small for ARPACK at all
        vals, vecs = np.linalg.eigh(G.toarray())
        smax = float(np.sqrt(max(vals.max(), 0.0)))
    else:
        smax = float(np.sqrt(max(spla.eigsh(G, k=1, which="LA", return_eigenvectors=False)[0], 0.0)))
    if smax == 0:
        return NullSpace(np.eye(n), 0, 0.0, (np.nan, 0.0), None, "sparse")
    if n >= 3:
        shift = -1e-10 * smax * smax
        lu = spla.splu((G - shift * sp.identity(n, format="csc")).tocsc())
        op = spla.LinearOperator((n, n), matvec=lu.solve, dtype=float)
        want = max(n - m, 0) + 12
        while True:
            want = min(want, n - 2)
            vals, vecs = spla.eigsh(G, k=want, sigma=shift, which="LM", OPinv=op)
            vecs = vecs[:, np.argsort(vals)]
            res = np.linalg.norm(A @ vecs, axis=0)
            zero = res <= rtol * smax
            if not zero.all() or want >= n - 2:
                break
            want *= 2
    else:
        res = np.linalg.norm(A @ vecs, axis=0)
        zero = res <= rtol * smax
    N, _ = np.linalg.qr(vecs[:, zero])
    kept = res[~zero]
    # the largest dropped singular value: of A restricted to the null space found
    dropped = np.linalg.svd(np.asarray(A @ N), compute_uv=False) if N.shape[1] else np.zeros(0)
    gap = (float(kept.min() / smax) if kept.size else np.nan, float(dropped.max() / smax) if dropped.size else 0.0)
    return NullSpace(N, n - N.shape[1], smax, gap, None, "sparse")


def _sparse_qr(A, rtol, left, left_limit=None):
    """Null space of A (and of A^T when ``left``, up to ``left_limit`` dimensions) by the sparse QR path
    (:mod:`chrono_origami.tools.sparseqr`)."""
    A = sp.csc_matrix(A, dtype=float)
    m, n = A.shape
    if min(m, n) == 0 or A.nnz == 0:
        return NullSpace(np.eye(n), 0, 0.0, (np.nan, 0.0), np.eye(m) if left else None, "sparse")
    r = sparseqr.rank(A, rtol, side="right")
    L = None
    if left and m * (m - r.rank) <= LEFT_BASIS_ENTRIES and (left_limit is None or m - r.rank <= left_limit):
        L = sparseqr.rank(A, rtol, sigma_max=r.sigma_max, side="left").null_vectors
    return NullSpace(r.null_vectors, r.rank, r.sigma_max, r.gap, L, "sparse")


def null_space(A, rtol=RANK_RTOL, method="auto", left=False, left_limit=None):
    """:class:`NullSpace` of the m x n operator ``A`` (dense array or SciPy sparse) by ``method`` (module doc).

    ``left``: also an orthonormal basis of null(A^T) (dense; sparse with
    pyspqr when it has at most :data:`LEFT_BASIS_ENTRIES` numbers and, when ``left_limit`` is given, at most that
    many dimensions: the rank is known first, so a larger one costs nothing; else None). The Gram fallback examines the
    eigenpairs of A^T A nearest zero; when the null space has n - 2 or more
    dimensions ARPACK cannot look past it and all of them are taken as null.
    """
    method = _method(A, method)
    if method == "dense":
        return _dense(A.toarray() if sp.issparse(A) else np.asarray(A, float), rtol, left)
    if sparseqr.available():
        return _sparse_qr(A, rtol, left, left_limit)
    return _sparse(A, rtol)


def rank(A, rtol=RANK_RTOL, method="auto"):
    """Numerical rank of ``A`` under the rank rule (module doc).

    Dense: singular values only. Sparse: the sparse QR path on the side with
    fewer columns; the Gram fallback through the null space of that side.
    """
    method = _method(A, method)
    m, n = A.shape
    if m == 0 or n == 0:
        return 0
    if method == "dense":
        return _count(singular_values(A), rtol)[0]
    if sparseqr.available():
        return sparseqr.rank(A, rtol).rank
    if m < n:
        return m - _sparse(sp.csr_matrix(A).T, rtol).dim
    return n - _sparse(A, rtol).dim


def min_norm_lstsq(A, b, what, tol=1e-14, conlim=1e14):
    """Minimum-norm least-squares solution of the sparse A x = b by LSMR (``tol``: its atol and btol).

    Raises a one-line :class:`~chrono_origami.tools.errors.SolverError` naming ``what`` when LSMR stops at its
    iteration limit (20 x max(m, n)) instead of converging; callers still check their own residuals.
    """
    maxiter = 20 * max(A.shape)
    out = spla.lsmr(A, b, atol=tol, btol=tol, conlim=conlim, maxiter=maxiter)
    if out[1] == 7:
        raise SolverError(f"{what}: LSMR did not converge in {maxiter} iterations (relative residual "
                          f"{out[3] / max(np.linalg.norm(b), 1e-300):.3g})")
    return out[0]


def independent_rows(A, rtol=RANK_RTOL):
    """Indices (sorted) of a maximal set of independent rows of ``A``: pivoted QR of A^T (dense).

    A row is kept while |R_kk| > rtol |R_00| (the pivoted-QR form of the rank rule).
    """
    A = A.toarray() if sp.issparse(A) else np.asarray(A, float)
    if A.shape[0] == 0 or A.shape[1] == 0:
        return np.arange(0)
    _, R, piv = sla.qr(A.T, mode="economic", pivoting=True)
    d = np.abs(np.diag(R))
    r = int((d > rtol * d[0]).sum()) if d.size and d[0] > 0 else 0
    return np.sort(piv[:r])
