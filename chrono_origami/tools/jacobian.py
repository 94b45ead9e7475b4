"""A fold step's constraint Jacobian J (m x 6N, scaled units): minimum-norm least squares, sigma ratio, free motion.

One object per state (``Jacobian(J, method)``), factored once on first use
and shared by the solves at that state, its sigma ratio and its free motion.
``method`` is ``linalg.choose_method``'s: "dense" up to ``linalg.DENSE_LIMIT``
columns under "auto", else "sparse".

Dense (LAPACK on the formed matrix): least squares by ``lstsq`` with
rcond :data:`DENSE_RCOND` (singular values below it are truncated); sigma
values and the free motion by the SVD.

Sparse (nothing of size m x n or n x n is formed): SuiteSparseQR
(``sparseqr.factor``) of the regularised matrix [J; delta I] with
delta = :data:`SPARSE_DELTA` x ||J||_bound (sqrt(||J||_1 ||J||_inf) >= sigma_max).

* least squares: iterated Tikhonov, x_0 = 0, x_{k+1} = x_k + argmin
  |J d - (b - J x_k)|^2 + delta^2 |d|^2, each step by Q^T and one solve with
  R (backward stable, nothing squared). The error along a singular
  direction sigma shrinks by delta^2 / (sigma^2 + delta^2) per step, so the
  iterates converge to the minimum-norm least-squares solution where sigma
  >> delta (a regular fold: sigma_min / sigma_max > ``SINGULAR_RTOL``
  = 10 delta / bound, at most about 3e-2 per step (bound <= 2 sigma_max here), about 1e-10 at
  sigma_min = 1e-3).
  Steps stop at a correction below :data:`REFINE_RTOL` |x|, or when the
  corrections stop shrinking: a direction with sigma << delta gains the
  same sigma beta / delta^2 at every step (beta: the part of b along its
  left singular vector, not 0 when b is outside the range), so the last
  correction lies along it, and x is made orthogonal to it when |J d| <= 2
  delta |d|: truncation at delta, as the dense path truncates at rcond.
* Cholesky of the normal equations (:data:`CHOLESKY`, where CHOLMOD loads): the factor L L^T = P (J^T J +
  delta^2 I) P^T (``suitesparse.NormalAnalysis``: the ordering and symbolic analysis once per sparsity pattern,
  kept across states; a numeric factorisation is about 8 times cheaper than the QR at 1,000 panels) serves every
  solve below in place of R^T R, each Tikhonov step by (J^T J + delta^2 I)^-1 J^T r: the seminormal equations,
  whose error eps (bound / sigma)^2 the iterated Tikhonov steps remove as they remove delta's. It is taken only
  where it is that accurate: the smallest eigenvalue of J^T J + delta^2 I (three steps of inverse iteration from a
  fixed random start, an upper bound that falls fast onto it) at least :data:`CHOLESKY_RCOND` bound^2, and a
  solve whose steps do not converge to :data:`REFINE_RTOL` is made again by the QR. A rank-deficient J (delta^2
  its smallest eigenvalue, 1e-16 bound^2) thus goes to the QR, unless the caller asks a larger Tikhonov parameter
  (``tikhonov``: the corrector's minimum-norm Newton steps on the hard rows, where each step may be inexact).
* sigma_max by Lanczos on J^T J (products with J and J^T);
  sigma_min by Lanczos on (R^T R)^-1 = (J^T J + delta^2 I)^-1 (two
  triangular solves per product), its Ritz vector refined by one step of
  inverse iteration, and sigma_min = |J x| for that unit vector x (a
  Rayleigh quotient: accurate where 1 / lambda - delta^2 is not). x is the
  free motion reported at a singular configuration.
* range residual W - J X (X the least-squares solutions, one column each):
  the same iterated Tikhonov steps, each by the seminormal equations
  (R^T R)^-1 J^T, so a block of columns costs two triangular solves with
  many right-hand sides and no product with Q (as ``sparseqr.range_residual``).
  Only J X matters, and the seminormal equations' error
  eps (sigma_max / sigma)^2 along a kept direction sigma is removed by the
  next step; the steps stop when J times the next correction, predicted
  from the last two (geometric decrease), is below :data:`REFINE_RTOL` |W|
  in every column, or when the corrections stop shrinking.
"""
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from . import linalg, memory, sparseqr
from .errors import SolverError

#: sigma_min / sigma_max of a fold's J below which a configuration is singular (both engines' folds)
SINGULAR_RTOL = 1e-7
#: rcond of the dense minimum-norm least squares (relative singular values below it are truncated)
DENSE_RCOND = 1e-12
#: Tikhonov parameter of the sparse factor, relative to the bound sqrt(||J||_1 ||J||_inf) on sigma_max
SPARSE_DELTA = 1e-8
#: the sparse least-squares refinement stops once a correction is below this times |x| (or stops shrinking)
REFINE_RTOL = 1e-15
#: most refinement steps of the sparse least squares
REFINE_STEPS = 40
#: solve by the Cholesky of the normal equations where it is accurate (module doc); False: always the QR
CHOLESKY = True
#: the Cholesky is taken when the smallest eigenvalue of J^T J + delta^2 I is at least this times bound^2: its
#: error eps bound^2 / lambda_min is then below 0.1, which each refinement step multiplies the error by
CHOLESKY_RCOND = 1e-15
#: the normal equations' analyses (``suitesparse.NormalAnalysis``) kept, by pattern, across states
_ANALYSES = []


def norm_bound(J):
    """sqrt(||J||_1 ||J||_inf) of the sparse J, a bound on its largest singular value (1 when J has no entry)."""
    if not J.nnz:
        return 1.0
    A = abs(J)
    return float(np.sqrt(A.sum(axis=0).max() * A.sum(axis=1).max()))


def _analysis(J):
    """CHOLMOD's analysis of J^T J for the pattern of the CSR matrix J (made once a pattern, the last few kept)."""
    from .suitesparse import NormalAnalysis, suitesparse

    for a in _ANALYSES:
        if a.matches(J):
            return a
    lib = suitesparse()
    if lib is None:
        return None
    try:
        a = NormalAnalysis(lib, J)
    except (OSError, MemoryError):
        return None
    _ANALYSES.insert(0, a)
    del _ANALYSES[6:]
    return a


def normal_cholesky(J, delta, rcond=CHOLESKY_RCOND):
    """The CHOLMOD factor of J^T J + delta^2 I (``suitesparse.NormalCholesky``) of the sorted CSR J, or None where
    CHOLMOD is not there, the matrix is not positive definite, or its smallest eigenvalue (three steps of inverse
    iteration) is below ``rcond`` times bound^2 (module doc); ``rcond`` None: no check (delta^2 is that large).""" 
    a = _analysis(J)
    if a is None:
        return None
    m, n = J.shape
    memory.check(f"the Cholesky factor of the normal equations of the {m:,} x {n:,} operator (the constraint "
                 f"Jacobian; analysis from its structure)", 24 * a.lnz)
    F = a.factorize(J.data, delta * delta)
    if F is None or rcond is None:
        return F
    bound2 = norm_bound(J) ** 2
    v = np.random.default_rng(0).standard_normal(J.shape[1])
    lam = np.inf
    for _ in range(3):
        w = F.solve(v)
        nw = float(np.linalg.norm(w))
        if not np.isfinite(nw) or nw == 0:
            return None
        lam = float(np.linalg.norm(v)) / nw
        v = w / nw
    if lam < rcond * bound2:
        return None
    F.lam_min, F.bound = lam, float(np.sqrt(bound2))
    return F


def _perturbed(v):
    """A Lanczos start near ``v``: v plus 1e-3 |v| of a fixed random vector, so that it has a part along every
    eigenvector (a start that is an eigenvector of another eigenvalue would stop Lanczos there)."""
    r = np.random.default_rng(1).standard_normal(len(v))
    return v + 1e-3 * float(np.linalg.norm(v)) / float(np.linalg.norm(r)) * r


class Jacobian:
    """J (SciPy sparse or dense, m x n) prepared for ``method`` ("auto", "dense" or "sparse"; module doc)."""

    def __init__(self, J, method="auto", tikhonov=None):
        """``tikhonov``: on the sparse path, the Tikhonov parameter relative to the bound that the Cholesky may
        use (a larger one than :data:`SPARSE_DELTA` where J may be rank-deficient and inexact solves do; module
        doc)."""
        self.shape = J.shape
        self.tikhonov = tikhonov
        self._chol = None
        self.method = linalg.choose_method(J.shape, method)
        if self.method == "dense":
            self.J = J.toarray() if sp.issparse(J) else np.asarray(J, float)
        else:
            if not sparseqr.available():
                raise SolverError(f"the sparse path for the {J.shape[0]} x {J.shape[1]} constraint Jacobian needs "
                                  "pyspqr (pip install pyspqr, or chrono-origami[sparse]); or pass linalg='dense'")
            self.J = sp.csr_matrix(J, dtype=float)
            self.J.sort_indices()
        self._svd = None
        self._qr = None
        self._smallest = None

    # ------------------------------------------------------------------ dense
    def _full_svd(self):
        if self._svd is None:
            self._svd = np.linalg.svd(self.J)
        return self._svd

    # ------------------------------------------------------------------ sparse
    def _bound(self):
        return norm_bound(self.J) or 1.0

    def _cholesky(self):
        """The Cholesky factor of the normal equations (module doc), or None where the QR serves."""
        if self._chol is None and self._qr is None:
            self._chol = False
            if CHOLESKY:
                delta = max(SPARSE_DELTA, self.tikhonov or 0.0) * self._bound()
                # a Tikhonov parameter that keeps the smallest eigenvalue above the check's: no check
                checked = (self.tikhonov or 0.0) ** 2 < 1e3 * CHOLESKY_RCOND
                F = normal_cholesky(self.J, delta, CHOLESKY_RCOND if checked else None)
                if F is not None:
                    self._chol, self.delta = F, delta
        return self._chol or None

    def _factor(self):
        if self._qr is None:
            self._chol = False
            self.delta = SPARSE_DELTA * self._bound()
            self._qr = sparseqr.factor(self.J, self.delta, side="right")
        return self._qr

    def _gram_solve(self, G):
        """(J^T J + delta^2 I)^-1 G (G: n or n x k) by the factor in use."""
        F = self._cholesky()
        if F is not None:
            return F.solve(G)
        qr = self._factor()
        D = np.empty_like(G)
        D[qr.perm] = qr.solve_R(qr.solve_RT(G[qr.perm]))
        return D

    def _tikhonov(self, r):
        """argmin |J d - r|^2 + delta^2 |d|^2 by the factor of [J; delta I] (or the normal equations')."""
        F = self._cholesky()
        if F is not None:
            return F.solve(self.J.T @ r)
        qr = self._factor()
        m, n = self.shape
        rhs = np.zeros(qr.p)
        rhs[:m] = r
        w = qr.solve_R(qr.apply_QT(rhs)[:n])
        x = np.empty(n)
        x[qr.perm] = w
        return x

    # ------------------------------------------------------------------ API
    def solve(self, b, steps=None):
        """Minimum-norm least-squares solution x of J x = b (module doc). ``steps``: on the sparse path, at most so
        many refinement steps after the first Tikhonov step (default :data:`REFINE_STEPS`): an inexact solve, for a
        Newton iteration that converges anyway."""
        b = np.asarray(b, float)
        if self.method == "dense":
            return np.linalg.lstsq(self.J, b, rcond=DENSE_RCOND)[0]
        x = self._tikhonov(b)
        last = np.inf
        for _ in range(REFINE_STEPS if steps is None else steps):
            d = self._tikhonov(b - self.J @ x)
            size = float(np.linalg.norm(d))
            if size <= REFINE_RTOL * np.linalg.norm(x):
                return x + d
            if size > 0.5 * last:
                if self._chol and not self.tikhonov and not self._within_conditioning(b, x, size):
                    self._factor()            # the normal equations are not accurate enough: the QR
                    return self.solve(b)
                # no longer shrinking: d lies along directions with sigma below about delta, which every step
                # moves by the same sigma beta / delta^2; truncated (x made orthogonal to d) when J d is that small
                e = d / size
                if np.linalg.norm(self.J @ e) <= 2.0 * self.delta:
                    x = x - e * (e @ x)
                return x
            x += d
            last = size
        return x

    def _within_conditioning(self, b, x, size):
        """Whether a correction of ``size`` that no longer shrinks lies within the least-squares problem's own
        sensitivity to a relative change eps of J (Wedin): eps (kappa |x| + kappa^2 |b - J x| / |J|), kappa = bound /
        sigma_min with sigma_min^2 the Cholesky's inverse-iteration estimate of the smallest eigenvalue; the QR's
        answer is no more accurate than that."""
        F = self._chol
        eps = np.finfo(float).eps
        kappa2 = F.bound ** 2 / F.lam_min
        r = float(np.linalg.norm(b - self.J @ x))
        return size <= 10 * eps * (np.sqrt(kappa2) * float(np.linalg.norm(x)) + kappa2 * r / F.bound)

    def range_residual(self, W):
        """W - J X, X the least-squares solutions of J X = W (W: m or m x p): the part of W outside range(J).

        Dense: by the SVD, singular values below :data:`DENSE_RCOND` sigma_max
        truncated. Sparse: block iterated Tikhonov by the seminormal
        equations of the factor (module doc).
        """
        W = np.asarray(W, float)
        if self.method == "dense":
            U, s, _ = self._full_svd()
            U1 = U[:, :int(np.sum(s > DENSE_RCOND * s[0]))] if len(s) and s[0] > 0 else U[:, :0]
            return W - U1 @ (U1.T @ W)
        Z = W.copy()
        size = np.linalg.norm(W, axis=0) + np.finfo(float).tiny
        last = np.inf
        for _ in range(REFINE_STEPS):
            D = self._gram_solve(np.asarray(self.J.T @ Z))
            JD = np.asarray(self.J @ D)
            Z = Z - JD
            change = float(np.max(np.linalg.norm(JD, axis=0) / size))
            predicted = change * min(1.0, change / last) if np.isfinite(last) else change   # the next correction
            if predicted <= REFINE_RTOL or change > 0.5 * last:
                break
            last = change
        return Z

    def sigma_ratio(self, start=None):
        """sigma_n / sigma_1 of J (0 when J has fewer rows than columns or is zero). ``start``: the
        :attr:`ratio_vectors` of a nearby state's Jacobian (the last frame's), from which the sparse path's Lanczos
        starts instead of a fixed random vector: it converges in fewer products to the same tolerance."""
        m, n = self.shape
        if m < n:
            return 0.0
        if self.method == "dense":
            s = np.linalg.svd(self.J, compute_uv=False)
            return float(s[n - 1] / s[0]) if s[0] > 0 else 0.0
        v = [None, None] if start is None else [_perturbed(x) for x in start]
        smax = self._largest(v[0])
        if smax == 0:
            return 0.0
        return self.smallest(v[1])[0] / smax

    def _largest(self, v0=None):
        """sigma_max of J by Lanczos on J^T J (relative accuracy about 1e-8; products with J, J^T J not formed),
        from ``v0`` or a fixed random start; keeps its vector in :attr:`ratio_vectors`."""
        n = self.shape[1]
        if self.J.nnz == 0:
            return 0.0
        if n <= 2:
            return float(np.linalg.norm(self.J.toarray(), 2))
        op = spla.LinearOperator((n, n), matvec=lambda v: self.J.T @ (self.J @ np.asarray(v, float).ravel()),
                                 dtype=float)
        v0 = np.random.default_rng(0).standard_normal(n) if v0 is None else v0
        lam, vec = spla.eigsh(op, k=1, which="LA", tol=1e-8, v0=v0)
        self._vmax = vec[:, 0]
        return float(np.sqrt(max(lam[0], 0.0)))

    @property
    def ratio_vectors(self):
        """(largest, smallest) right singular vectors found by :meth:`sigma_ratio` (sparse path), or None."""
        if getattr(self, "_vmax", None) is None or self._smallest is None:
            return None
        return self._vmax, self._smallest[1]

    def smallest(self, v0=None):
        """(sigma_min, unit right singular vector) on the sparse path (module doc); ``v0``: the Lanczos start
        (default a fixed random vector)."""
        if self._smallest is None:
            m, n = self.shape
            if n < 3:    # too small for ARPACK
                _, s, Vt = np.linalg.svd(self.J.toarray())
                self._smallest = (float(s[-1]) if m >= n else 0.0, Vt[-1])
                return self._smallest
            v0 = np.random.default_rng(0).standard_normal(n) if v0 is None else v0
            op = spla.LinearOperator((n, n), matvec=lambda v: self._gram_solve(np.asarray(v, float).ravel()),
                                     dtype=float)
            _, vecs = spla.eigsh(op, k=1, which="LA", tol=1e-10, ncv=min(n, 20), v0=v0)
            w = self._gram_solve(vecs[:, 0])     # one step of inverse iteration
            x = w / np.linalg.norm(w)
            self._smallest = (float(np.linalg.norm(self.J @ x)), x)
        return self._smallest

    def free_motion(self, rtol):
        """A unit vector (n) along a free direction of J: a right singular vector of sigma_min
        (dense: the first beyond the rank at ``rtol``)."""
        m, n = self.shape
        if self.method == "dense":
            _, s, Vt = self._full_svd()
            free = Vt[len(s[s > rtol * s[0]]):] if m >= n else Vt[m:]
            return free[0] if len(free) else Vt[-1]
        return self.smallest()[1]

