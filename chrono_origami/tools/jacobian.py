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
* sigma_max by Lanczos on J^T J (``sparseqr.largest_singular_value``);
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

from . import linalg, sparseqr
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


class Jacobian:
    """J (SciPy sparse or dense, m x n) prepared for ``method`` ("auto", "dense" or "sparse"; module doc)."""

    def __init__(self, J, method="auto"):
        self.shape = J.shape
        self.method = linalg.choose_method(J.shape, method)
        if self.method == "dense":
            self.J = J.toarray() if sp.issparse(J) else np.asarray(J, float)
        else:
            if not sparseqr.available():
                raise SolverError(f"the sparse path for the {J.shape[0]} x {J.shape[1]} constraint Jacobian needs "
                                  "pyspqr (pip install pyspqr, or chrono-origami[sparse]); or pass linalg='dense'")
            self.J = sp.csr_matrix(J, dtype=float)
        self._svd = None
        self._qr = None
        self._smallest = None

    # ------------------------------------------------------------------ dense
    def _full_svd(self):
        if self._svd is None:
            self._svd = np.linalg.svd(self.J)
        return self._svd

    # ------------------------------------------------------------------ sparse
    def _factor(self):
        if self._qr is None:
            A = abs(self.J)
            bound = float(np.sqrt(A.sum(axis=0).max() * A.sum(axis=1).max())) if self.J.nnz else 1.0
            self.delta = SPARSE_DELTA * (bound or 1.0)
            self._qr = sparseqr.factor(self.J, self.delta, side="right")
        return self._qr

    def _tikhonov(self, r):
        """argmin |J d - r|^2 + delta^2 |d|^2 by the factor of [J; delta I]."""
        qr = self._factor()
        m, n = self.shape
        rhs = np.zeros(qr.p)
        rhs[:m] = r
        w = qr.solve_R(qr.apply_QT(rhs)[:n])
        x = np.empty(n)
        x[qr.perm] = w
        return x

    # ------------------------------------------------------------------ API
    def solve(self, b):
        """Minimum-norm least-squares solution x of J x = b (module doc)."""
        b = np.asarray(b, float)
        if self.method == "dense":
            return np.linalg.lstsq(self.J, b, rcond=DENSE_RCOND)[0]
        x = self._tikhonov(b)
        last = np.inf
        for _ in range(REFINE_STEPS):
            d = self._tikhonov(b - self.J @ x)
            size = float(np.linalg.norm(d))
            if size <= REFINE_RTOL * np.linalg.norm(x):
                return x + d
            if size > 0.5 * last:
                # no longer shrinking: d lies along directions with sigma below about delta, which every step
                # moves by the same sigma beta / delta^2; truncated (x made orthogonal to d) when J d is that small
                e = d / size
                if np.linalg.norm(self.J @ e) <= 2.0 * self.delta:
                    x = x - e * (e @ x)
                return x
            x += d
            last = size
        return x

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
        qr = self._factor()
        perm = qr.perm
        Z = W.copy()
        size = np.linalg.norm(W, axis=0) + np.finfo(float).tiny
        last = np.inf
        for _ in range(REFINE_STEPS):
            G = np.asarray(self.J.T @ Z)
            D = np.empty_like(G)
            D[perm] = qr.solve_R(qr.solve_RT(G[perm]))
            JD = np.asarray(self.J @ D)
            Z = Z - JD
            change = float(np.max(np.linalg.norm(JD, axis=0) / size))
            predicted = change * min(1.0, change / last) if np.isfinite(last) else change   # the next correction
            if predicted <= REFINE_RTOL or change > 0.5 * last:
                break
            last = change
        return Z

    def sigma_ratio(self):
        """sigma_n / sigma_1 of J (0 when J has fewer rows than columns or is zero)."""
        m, n = self.shape
        if m < n:
            return 0.0
        if self.method == "dense":
            s = np.linalg.svd(self.J, compute_uv=False)
            return float(s[n - 1] / s[0]) if s[0] > 0 else 0.0
        smax = sparseqr.largest_singular_value(self.J, tol=1e-8)
        if smax == 0:
            return 0.0
        return self.smallest()[0] / smax

    def smallest(self):
        """(sigma_min, unit right singular vector) on the sparse path (module doc)."""
        if self._smallest is None:
            m, n = self.shape
            if n < 3:    # too small for ARPACK
                _, s, Vt = np.linalg.svd(self.J.toarray())
                self._smallest = (float(s[-1]) if m >= n else 0.0, Vt[-1])
                return self._smallest
            qr = self._factor()
            v0 = np.random.default_rng(0).standard_normal(n)
            _, vecs = spla.eigsh(qr.inverse_gram(), k=1, which="LA", tol=1e-10, ncv=min(n, 20), v0=v0)
            w = qr.solve_R(qr.solve_RT(vecs[:, 0]))     # one step of inverse iteration
            x = np.empty(n)
            x[qr.perm] = w / np.linalg.norm(w)
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

