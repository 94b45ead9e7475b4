"""Holonomic constraints at most quadratic in the coordinates (internal constraints, lower pairs).

Every constraint of the method is a quadratic form of the system's coordinates
q in R^(12 B) (body b's rows phi, d_1, d_2, d_3 at 12 b, 12 b + 3, ...):

    Phi_k(q) = 1/2 q^T H_k q + b_k^T q + c_k,   G_k(q) = H_k q + b_k,

with constant symmetric H_k (stored as COO entries). Hence the discrete
constraint Jacobian of the energy-momentum scheme is the midpoint Jacobian
G(q_{n+1/2}) exactly (Part II, eqs. 38, 67), and the constrained scheme's
Newton matrix has the constant Hessians H_k (:meth:`Constraints.hessian`).

Rows are built from *vector expressions*: a body's point or vector (a fixed
combination of its rows) or a constant (the world, or a fixed body at its
configuration). ``kind`` marks a row as a translation ("t", length units) or a
rotation ("r", dimensionless) for scaled violations.
"""
import numpy as np
import scipy.sparse as sp


class VecExpr:
    """A 3-vector sum_k c_k q[slot_k] + const, slots (body, row) of the system's (B, 4, 3) coordinates."""

    def __init__(self, terms=(), const=None):
        self.terms = list(terms)                     # [(body, row, coefficient)]
        self.const = np.zeros(3) if const is None else np.asarray(const, float).copy()

    def __add__(self, other):
        return VecExpr(self.terms + other.terms, self.const + other.const)

    def __sub__(self, other):
        return self + other.scaled(-1.0)

    def scaled(self, s):
        return VecExpr([(b, r, c * s) for b, r, c in self.terms], self.const * s)


class Constraints:
    """Quadratic constraint rows over ``n_bodies`` bodies' coordinates (module doc)."""

    def __init__(self, n_bodies):
        self.n = 12 * n_bodies
        self._H, self._b, self._c = [], [], []
        self.kinds = []      # "t" or "r" per row
        self.owner = []      # a label per row (e.g. ("internal", b) or ("pair", k))
        self._done = False

    # ----------------------------------------------------------------- building
    @staticmethod
    def _idx(body, row, comp):
        return 12 * body + 3 * row + comp

    def add_row(self, quad=(), lin=(), const=0.0, kind="r", owner=None):
        """Add Phi = sum quad + lin + const; ``quad``: pairs of (VecExpr, VecExpr, factor) dotted; ``lin``:
        pairs (constant 3-vector, VecExpr) dotted. Returns the row index."""
        k = len(self._c)
        H, bl = [], []
        c = float(const)
        for u, w, f in quad:
            for bu, ru, cu in u.terms:
                for bw, rw, cw in w.terms:
                    g = f * cu * cw
                    for comp in range(3):
                        i, j = self._idx(bu, ru, comp), self._idx(bw, rw, comp)
                        H.append((i, j, g))
                        H.append((j, i, g))
                for comp in range(3):
                    bl.append((self._idx(bu, ru, comp), f * cu * w.const[comp]))
            for bw, rw, cw in w.terms:
                for comp in range(3):
                    bl.append((self._idx(bw, rw, comp), f * cw * u.const[comp]))
            c += f * float(u.const @ w.const)
        for e, w in lin:
            e = np.asarray(e, float)
            for bw, rw, cw in w.terms:
                for comp in range(3):
                    bl.append((self._idx(bw, rw, comp), cw * e[comp]))
            c += float(e @ w.const)
        self._H.append(H)
        self._b.append(bl)
        self._c.append(c)
        self.kinds.append(kind)
        self.owner.append(owner)
        self._done = False
        return k

    def _finish(self):
        if self._done:
            return
        m = len(self._c)
        Hk = [k for k, H in enumerate(self._H) for _ in H]
        Hij = [e for H in self._H for e in H]
        self.Hk = np.array(Hk, int)
        self.Hi = np.array([e[0] for e in Hij], int)
        self.Hj = np.array([e[1] for e in Hij], int)
        self.Hv = np.array([e[2] for e in Hij], float)
        bk = [k for k, B in enumerate(self._b) for _ in B]
        self.bk = np.array(bk, int)
        self.bi = np.array([e[0] for B in self._b for e in B], int)
        self.bv = np.array([e[1] for B in self._b for e in B], float)
        self.c = np.array(self._c, float)
        self._SH = sp.csr_matrix((np.ones(len(self.Hk)), (np.arange(len(self.Hk)), self.Hk)), shape=(len(self.Hk), m))
        self._B = sp.csr_matrix((self.bv, (self.bk, self.bi)), shape=(m, self.n))
        self.kinds_arr = np.array(self.kinds)
        self._done = True

    @property
    def m(self):
        return len(self._c)

    # ----------------------------------------------------------------- evaluation
    def phi(self, q, rows=None):
        """Phi(q) for q (..., B, 4, 3) or (..., n): (..., m) (or the selected ``rows``)."""
        self._finish()
        q = np.asarray(q, float)
        lead = q.shape[:-3] if q.shape[-2:] == (4, 3) else q.shape[:-1]
        flat = q.reshape(-1, self.n)
        vals = self.Hv * flat[:, self.Hi] * flat[:, self.Hj]
        out = 0.5 * (self._SH.T @ vals.T).T + (self._B @ flat.T).T + self.c
        out = out.reshape(lead + (self.m,))
        return out if rows is None else out[..., rows]

    def jacobian(self, q, rows=None):
        """G(q) = dPhi/dq as a sparse (m x n) matrix for one configuration q (B, 4, 3) or (n,)."""
        self._finish()
        x = np.asarray(q, float).ravel()
        G = sp.csr_matrix((self.Hv * x[self.Hj], (self.Hk, self.Hi)), shape=(self.m, self.n)) + self._B
        return G if rows is None else G[rows]

    def jacobian_dense(self, q, rows):
        """G(q)[rows] for a batch q (N, B, 4, 3): dense (N, len(rows), n)."""
        self._finish()
        rows = np.asarray(rows, int)
        N = q.shape[0]
        flat = q.reshape(N, self.n)
        pos = -np.ones(self.m, int)
        pos[rows] = np.arange(len(rows))
        out = np.zeros((N, len(rows), self.n))
        sel = pos[self.Hk] >= 0
        r, i, j, v = pos[self.Hk[sel]], self.Hi[sel], self.Hj[sel], self.Hv[sel]
        np.add.at(out, (slice(None), r, i), v * flat[:, j])
        selb = pos[self.bk] >= 0
        out[:, pos[self.bk[selb]], self.bi[selb]] += self.bv[selb]
        return out

    def hessian(self, lam):
        """sum_k lam_k H_k (sparse n x n)."""
        self._finish()
        return sp.csr_matrix((self.Hv * np.asarray(lam, float)[self.Hk], (self.Hi, self.Hj)), shape=(self.n, self.n))

    def curvature(self, v):
        """v^T H_k v for every row (the second time derivative of Phi is G a + v^T H v), v (B, 4, 3) or (n,)."""
        self._finish()
        x = np.asarray(v, float).ravel()
        vals = self.Hv * x[self.Hi] * x[self.Hj]
        return np.bincount(self.Hk, weights=vals, minlength=self.m)

    def scaled_violation(self, q, length, rows=None):
        """Largest |Phi_k(q)|: translation rows divided by ``length``, rotation rows as they are."""
        self._finish()
        ph = np.abs(self.phi(q))
        ph = np.where(self.kinds_arr == "t", ph / length, ph)
        if rows is not None:
            ph = ph[..., rows]
        return float(ph.max()) if ph.size else 0.0
