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

Rank and gap
------------
The ordering is chosen for fill, not for rank, so R's diagonal says little
about the rank. The decision is made on singular values, on the regularised
matrix [B; delta I] with delta = :data:`DELTA_FACTOR` x the tolerance
(rtol * sigma_max). Its R has the singular values sqrt(sigma_i^2 + delta^2),
so it is invertible with condition at most 1 / (DELTA_FACTOR rtol). Lanczos
(ARPACK) on (R^T R)^-1, applied with two triangular solves (SuperLU on R in
the natural ordering, so nothing fills in), gives the largest eigenvalues
lambda_i = 1 / (sigma_i^2 + delta^2), i.e. the smallest sigma_i =
sqrt(1 / lambda_i - delta^2); those at most rtol * sigma_max are dropped,
and their Ritz vectors are the null space of B. Null directions sit at
1 / delta^2 and a kept singular value sigma at 1 / (sigma^2 + delta^2):
only 1 % below it at sigma = rtol sigma_max (delta = 10 rtol sigma_max),
but Lanczos resolves eigenvalues to 1e-10, and the regularisation keeps
(R^T R)^-1 bounded however close to the tolerance the kept values crowd
(slender towers). The null directions share one eigenvalue, which a Krylov
space resolves only a few vectors at a time, so Lanczos runs in rounds,
each on the complement of the null vectors found, until the largest
eigenvalue left is a kept one (a round that finds null and kept directions
is followed by a one-eigenpair round that tells whether null ones remain).
The smallest kept singular value, the gap report's (smallest kept, largest
dropped, relative to sigma_max), comes from the kept Ritz vectors of the
last rounds: one step of block inverse iteration, then the smallest
singular value of B on that block (Rayleigh-Ritz, more accurate than
1 / lambda; a cluster of equal singular values is resolved together).
Dropped values are resolved to about 1e-5 delta (Lanczos's 1e-10 on lambda
through the square root). B is the
orientation with fewer columns, so its nullity (min(m, n) - rank) is the
smaller of the two null spaces; up to :data:`NULLITY_LIMIT` of it is
resolved.

Backend
-------
SuiteSparseQR through ``pyspqr`` (PyPI wheels for Linux x86-64, macOS arm64 and
Windows, SuiteSparse bundled). pyspqr is GPL-3 (SuiteSparseQR GPL-2+), so
chrono-origami (BSD-3) takes it as an optional dependency, the ``sparse``
extra. Without it, :func:`factor` raises :class:`SparseBackendUnavailable`
and callers use the SciPy-only path (``linalg``). pyspqr prints CHOLMOD's
status lines on the C-level stdout: :func:`factor` silences file descriptor 1
during the call.
"""
import contextlib
import ctypes
import os
import sys
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from .errors import NullityLimitError, SparseBackendUnavailable

#: Fill-reducing column ordering of the QR: METIS's nested dissection. On the 10,000-panel Miura-ori operator
#: it factors in 1.5 s (R: 6.8 M entries) where AMD takes 2.2 s (9.1 M), and its cost grows as P^1.29 from
#: 1,000 to 10,000 panels against AMD's P^1.57; below 1,000 panels the two are within 0.02 s.
ORDERING = "METIS"
#: The regularisation delta of :func:`rank`, in units of the rank tolerance rtol * sigma_max.
DELTA_FACTOR = 10.0
#: Largest null space of the factored matrix that the Lanczos iteration resolves (NullityLimitError above).
NULLITY_LIMIT = 400


def available():
    """True when the SuiteSparseQR backend (pyspqr) imports."""
    try:
        import pyspqr  # noqa: F401
    except ImportError:
        return False
    return True


def _c_fflush():
    """Flush the C library's stdio buffers (CHOLMOD prints with printf)."""
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):
        pass


@contextlib.contextmanager
def _quiet_stdout():
    """Silence the C-level stdout (file descriptor 1) for the duration, its stdio buffer included."""
    try:
        sys.stdout.flush()
    except (AttributeError, OSError, ValueError):
        pass
    _c_fflush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            try:
                yield
            finally:
                _c_fflush()
                os.dup2(saved, 1)
    finally:
        os.close(saved)


@dataclass
class SparseQR:
    """``B[:, perm] = Q R`` for B = A (``transposed`` False) or A^T; R is q x q upper triangular (CSC)."""

    shape: tuple            # of A
    transposed: bool
    R: sp.csc_matrix
    perm: np.ndarray
    Q: object = field(repr=False)          # pyspqr HouseholderOrthogonal (p x p); matvec needs contiguous float64
    _lu: object = field(default=None, repr=False)

    @property
    def q(self):
        return self.R.shape[1]

    @property
    def p(self):
        return self.Q.shape[0]

    def _triangular(self):
        if self._lu is None:
            R = self.R.tocsc(copy=True)
            d = R.diagonal()
            scale = float(np.abs(d).max()) if d.size else 1.0
            tiny = np.finfo(float).eps * max(scale, np.finfo(float).tiny)
            fix = np.where(np.abs(d) < tiny, tiny, 0.0)   # exact zeros (dead columns): keep R invertible
            if fix.any():
                R = (R + sp.diags(fix)).tocsc()
            self._lu = spla.splu(R, permc_spec="NATURAL", diag_pivot_thresh=0.0,
                                 options=dict(SymmetricMode=False))
        return self._lu

    def solve_R(self, b):
        """x with R x = b (permuted column coordinates of B)."""
        return self._triangular().solve(np.ascontiguousarray(b, dtype=float))

    def solve_RT(self, b):
        """x with R^T x = b."""
        return self._triangular().solve(np.ascontiguousarray(b, dtype=float), trans="T")

    def apply_Q(self, x):
        """Q x (x of length p)."""
        return self.Q.matvec(np.ascontiguousarray(x, dtype=float))

    def apply_QT(self, x):
        """Q^T x (x of length p)."""
        return self.Q.rmatvec(np.ascontiguousarray(x, dtype=float))

    def inverse_gram(self, deflate=None):
        """LinearOperator x -> (R^T R)^-1 x, optionally restricted to the complement of the orthonormal columns ``deflate``."""
        q = self.q

        def mv(x):
            x = np.asarray(x, float).ravel()
            if deflate is not None and deflate.shape[1]:
                x = x - deflate @ (deflate.T @ x)
            y = self.solve_R(self.solve_RT(x))
            if deflate is not None and deflate.shape[1]:
                y = y - deflate @ (deflate.T @ y)
            return y

        return spla.LinearOperator((q, q), matvec=mv, dtype=float)


def factor(A, delta=0.0, side="auto"):
    """Sparse QR (:class:`SparseQR`) of B, or of [B; delta I] when ``delta`` > 0.

    B = A for ``side="right"`` (null(A)), A^T for ``"left"`` (null(A^T)); ``"auto"``: the tall orientation.
    """
    try:
        import pyspqr
    except ImportError as exc:
        raise SparseBackendUnavailable(
            "the sparse QR backend needs pyspqr (pip install pyspqr, or chrono-origami[sparse])") from exc
    A = sp.csc_matrix(A, dtype=float)
    m, n = A.shape
    if side not in ("auto", "right", "left"):
        raise ValueError(f"side must be 'auto', 'right' or 'left', got {side!r}")
    transposed = (m < n) if side == "auto" else side == "left"
    B = sp.csc_matrix(A.T) if transposed else A
    if not delta > 0 and B.shape[0] < B.shape[1]:
        raise ValueError("an unregularised factorisation needs the tall orientation")
    q = B.shape[1]
    if delta > 0:
        B = sp.vstack([B, delta * sp.identity(q, format="csc")], format="csc")
    with _quiet_stdout():
        try:
            Q, R, E = pyspqr.qr(B, ordering=ORDERING)
        except Exception:   # a SuiteSparse built without METIS: AMD, its default
            Q, R, E = pyspqr.qr(B, ordering="AMD")
    R = sp.csc_matrix(R)
    if R.shape[0] != q:       # R is p x q with its rows beyond q empty: the same arrays, q x q (no copy)
        R = sp.csc_matrix((R.data, R.indices, R.indptr), shape=(q, q)) if R.indices.max(initial=-1) < q else R[:q]
    return SparseQR((m, n), transposed, R, np.asarray(E.permutation), Q)


def largest_singular_value(A, tol=1e-6):
    """sigma_max(A) by Lanczos on the smaller Gram matrix (relative accuracy about ``tol``)."""
    A = sp.csr_matrix(A, dtype=float)
    m, n = A.shape
    if A.nnz == 0:
        return 0.0
    G = (A @ A.T) if m < n else (A.T @ A)
    if G.shape[0] <= 2:
        return float(np.sqrt(max(np.linalg.eigvalsh(G.toarray()).max(), 0.0)))
    v0 = np.random.default_rng(0).standard_normal(G.shape[0])    # a fixed start: the same value every call
    lam = spla.eigsh(G, k=1, which="LA", return_eigenvectors=False, tol=tol, v0=v0)[0]
    return float(np.sqrt(max(lam, 0.0)))


@dataclass
class SparseRank:
    """Rank decision of a sparse A (see the module docstring).

    ``nullity`` is that of the factored tall matrix (dim null(A) when A is
    tall, dim null(A^T) when it is wide); ``null_vectors`` (q x nullity, in
    the factored matrix's original column order) spans that null space when
    it was computed (nullity <= NULLITY_LIMIT), else None. ``gap`` is
    (smallest kept, largest dropped) singular value relative to sigma_max
    (NaN when not estimated).
    """

    rank: int
    sigma_max: float
    gap: tuple
    nullity: int
    null_vectors: object
    qr: SparseQR = field(repr=False)


def _lanczos(qr, k, deflate):
    """The k largest eigenpairs of (R^T R)^-1 on the complement of the orthonormal columns ``deflate``.

    Returns (1 / eigenvalue, i.e. squared singular values of R, ascending; vectors, permuted coordinates).
    """
    q = qr.q
    k = min(k, q - deflate.shape[1] - 1)
    if k <= 0:
        return np.zeros(0), np.zeros((q, 0))
    op = qr.inverse_gram(deflate)
    v0 = np.random.default_rng(0).standard_normal(q)
    vals, vecs = spla.eigsh(op, k=k, which="LA", tol=1e-10, ncv=min(q, max(2 * k + 1, 20)), v0=v0)
    keep = vals > 0                        # the deflated directions come back as zeros
    vals, vecs = vals[keep], vecs[:, keep]
    order = np.argsort(vals)[::-1]
    return 1.0 / vals[order], vecs[:, order]


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
    K = np.column_stack([qr.solve_R(qr.solve_RT(k)) for k in K.T])
    K = K - V @ (V.T @ K)
    U, s, _ = np.linalg.svd(K, full_matrices=False)
    K = U[:, s > 1e-8 * s[0]]
    X = np.empty_like(K)
    X[qr.perm] = K
    B = A.T if qr.transposed else A
    return float(np.linalg.svd(np.asarray(B @ X), compute_uv=False).min())


def rank(A, rtol, sigma_max=None, side="auto", nullity_limit=NULLITY_LIMIT, block=8, stage=None):
    """:class:`SparseRank` of A: singular values below ``rtol * sigma_max`` count as zero.

    See the module docstring: the regularised factor, Lanczos in rounds on
    the complement of the null vectors found, the gap by Rayleigh-Ritz on the kept Ritz vectors.
    ``side``: "right" for null(A), "left" for null(A^T), "auto" the one with
    fewer columns; ``block``: eigenpairs of the first round, doubled after
    a full round that finds only null directions (a one-eigenpair round
    that finds one is followed by a round of ``block``); ``stage``: a callable
    told each step (a :class:`chrono_origami.tools.progress.Stages`).
    """
    stage = stage or (lambda what: None)
    A = sp.csc_matrix(A, dtype=float)
    m, n = A.shape
    if sigma_max is None:
        stage(f"largest singular value of the {m} x {n} operator")
    smax = largest_singular_value(A) if sigma_max is None else float(sigma_max)
    if min(m, n) == 0 or smax == 0.0:
        q = m if ((m < n) if side == "auto" else side == "left") else n
        return SparseRank(0, smax, (np.nan, 0.0), q, np.eye(q), None)
    tol = rtol * smax
    delta = DELTA_FACTOR * tol
    stage(f"sparse QR of the {m} x {n} operator")
    qr = factor(A, delta, side)
    q = qr.q
    V = np.zeros((q, 0))
    dropped, kept = 0.0, np.nan
    seen = np.zeros((q, 0))        # kept Ritz vectors of the last round that found null directions too
    while True:
        stage(f"Lanczos on R: {V.shape[1]} null directions so far")
        # after a round with both null and kept directions, one eigenpair is enough to tell whether null
        # directions remain (the largest eigenvalue left)
        sig2, vecs = _lanczos(qr, 1 if seen.shape[1] else block, V)
        if len(sig2) == 0:
            break
        sig = np.sqrt(np.maximum(sig2 - delta ** 2, 0.0))
        zero = sig <= tol
        if not zero.any():
            # the largest eigenvalue left is a kept one: no null direction remains (a round that found some may
            # have missed others of the same, degenerate eigenvalue: a Krylov space sees one vector of it)
            kept = _smallest_kept(qr, A, np.hstack([seen, vecs[:, :8]]), V)
            break
        dropped = max(dropped, float(sig[zero].max()))
        V = np.linalg.qr(np.hstack([V, vecs[:, zero]]))[0]
        if zero.all():
            if not seen.shape[1]:
                block *= 2         # all null: a larger round next
            seen = np.zeros((q, 0))
        else:
            seen = vecs[:, ~zero][:, :8]
        if V.shape[1] > nullity_limit:
            raise NullityLimitError(f"more than {nullity_limit} singular values of the {m} x {n} operator are below "
                                    f"the rank tolerance: the sparse path resolves null spaces of dimension up to "
                                    f"{nullity_limit} (linalg='dense' has no such limit, where the memory allows)")
    nz = V.shape[1]
    if nz:   # one step of subspace iteration: the null directions' error shrinks by delta^2 / (sigma_kept^2 + delta^2)
        V = np.linalg.qr(np.column_stack([qr.solve_R(qr.solve_RT(v)) for v in V.T]))[0]
    N = np.empty_like(V)
    N[qr.perm] = V           # back to the factored matrix's column order
    return SparseRank(q - nz, smax, (kept / smax, dropped / smax), nz, N, qr)


def range_residual(r, A, g, steps=8):
    """g - A x, x the least-squares solution of A x = g, with the regularised factor of :func:`rank` (side "right").

    x starts as the regularised solution (A^T A + delta^2 I)^-1 A^T g and is
    refined ``steps`` times; each step shrinks the error along a singular
    direction sigma by delta^2 / (sigma^2 + delta^2).
    """
    if r.qr.transposed:
        raise ValueError("range_residual needs the factor of A itself (side 'right')")
    qr, perm = r.qr, r.qr.perm
    g = np.asarray(g, float)

    def gram_solve(b):
        w = qr.solve_R(qr.solve_RT(b[perm]))
        x = np.empty_like(w)
        x[perm] = w
        return x

    x = np.zeros(A.shape[1])
    z = g.copy()
    for _ in range(steps):
        x += gram_solve(A.T @ z)
        z = g - A @ x
    return z
