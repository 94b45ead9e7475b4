"""Exact constraint functions of a fold and their Jacobian on SE(3)^N.

Every body (panel) i has the pose g_i = (R_i, u_i) taking its reference
(start) configuration to the current one. Positions are scaled,
x' = (x - x0) / L (x0 the vertex centroid, L the pattern size, as in
``engines.compatibility``), so that every row is of order one.

The Jacobian is taken with respect to the increments delta_i = (omega_i, w_i)
of the update g_i <- exp(delta_i) g_i (eq. 33): a body point x moves by
omega_i x x + w_i. It is the exact derivative of the functions below (checked
against finite differences in the tests), unlike the paper's symmetrised
c_1 = (t_1.m_2 + t_2.m_1)/2 whose derivative vanishes at t_1 = t_2 (see
``engines.reference.operators``). For hinge h with first panel p (body 1) and second
panel q (body 2), t, m, n its reference frame in p (``structure.hinges.hinge_frames``)
and P its midpoint:

* hinge: the exact constraints of its kind, ``HingeKind.residual``
  (``chrono_origami.structure.hinges``): for door and sliding hinges the axis
  alignment t_2.m_1 = 0, t_2.n_1 = 0, then p_2 - p_1 = 0 (door, 3 rows, p_i
  the image of P under g_i) or (p_2 - p_1).m_1 = 0, (p_2 - p_1).n_1 = 0
  (sliding);
* rotation drive: sin(phi - theta(t)) = 0, with phi the rotation of q
  relative to p about t_1: with a = R_1 n, b = R_2 n,
  c = (a x b).t_1 cos(theta) - (a.b) sin(theta);
* slide drive: (p_2 - p_1).t_1 - s(t)/L = 0;
* vertex path: (x - x_start).e = 0 for each held direction e.

At a consistent configuration the rows of door and sliding hinges are the
paper's operators (eqs. 4, 6).
"""
import numpy as np
import scipy.sparse as sp

from ....structure.hinges import hinge_frames
from ....tools.geometry import rotation_angle, skew


def _rot(R, x):
    """R_i x_i for stacks R (k, 3, 3), x (k, 3)."""
    return np.einsum("kij,kj->ki", R, x)


def _dot(a, b):
    return np.einsum("ki,ki->k", a, b)


class FoldConstraints:
    """Constraint functions and sparse Jacobian of a :class:`~chrono_origami.inputs.fold.FoldProblem`.

    Rows: the hinges in order (``HingeKind.residual``'s rows), the drives in
    the problem's order, the vertex-path directions, then panel 1's six rows
    when no vertex path is given. Every row kind is evaluated for all its
    rows at once; J is assembled as CSR on a sparsity pattern fixed here.
    """

    def __init__(self, problem):
        self.problem = problem
        pat = problem.pattern
        X = pat.vertices
        self.x0 = X.mean(axis=0)
        self.L = pat.size or 1.0
        self.Xs = (X - self.x0) / self.L
        self.n_bodies = pat.n_panels
        self.hinges = []   # (h, p, q, t, m, n, P, kind)
        frames = hinge_frames(pat)        # (t, m, n, midpoint) of every hinge at once
        for h, kind in enumerate(problem.structure.kinds):
            p, q = pat.hinges[h].panels
            self.hinges.append((h, p, q, frames[0][h], frames[1][h], frames[2][h], (frames[3][h] - self.x0) / self.L,
                                kind))
        nh = len(self.hinges)
        self.hp = np.array([hh[1] for hh in self.hinges], int)
        self.hq = np.array([hh[2] for hh in self.hinges], int)
        self.ht, self.hm, self.hn, self.hP = (np.array([hh[k] for hh in self.hinges], float).reshape(nh, 3)
                                              for k in (3, 4, 5, 6))
        self.rows = []     # (label, start row, stop row)
        starts = np.zeros(nh, int)
        r = 0
        for (h, *_rest, kind) in self.hinges:
            self.rows.append((f"hinge {h + 1}", r, r + kind.n_rows))
            starts[h] = r
            r += kind.n_rows
        self.n_hinge_rows = r
        # hinges grouped by kind: (kind, hinge indices, their first rows)
        self.kind_groups = []
        for name in dict.fromkeys(k.name for k in problem.structure.kinds):
            idx = np.array([h for h, k in enumerate(problem.structure.kinds) if k.name == name], int)
            self.kind_groups.append((problem.structure.kinds[idx[0]], idx, starts[idx]))
        self.drive_rows = []
        for d in problem.drives:
            self.rows.append((f"drive of hinge {d.hinge + 1}", r, r + 1))
            self.drive_rows.append(r)
            r += 1
        T = problem.duration
        drives = problem.drives
        self.drive_hinge = np.array([d.hinge for d in drives], int)
        self.drive_row = np.array(self.drive_rows, int)
        self.drive_speed = np.array([d.speed(T) for d in drives], float)   # value(t) = speed t
        self.drive_slide = np.array([d.kind == "slide" for d in drives], bool)
        self.paths = []
        path_rows = []     # per held direction: (row, vertex, panel, e)
        for vp in problem.paths:
            D = np.asarray(vp.directions, float)
            self.paths.append((vp.vertex, vp.panel, D, self.Xs[vp.vertex].copy()))
            self.rows.append((f"vertex {vp.vertex + 1} ({vp.label or 'held'})", r, r + len(D)))
            path_rows += [(r + k, vp.vertex, vp.panel, e) for k, e in enumerate(D)]
            r += len(D)
        self.path_row = np.array([x[0] for x in path_rows], int)
        self.path_vertex = np.array([x[1] for x in path_rows], int)
        self.path_panel = np.array([x[2] for x in path_rows], int)
        self.path_dir = np.array([x[3] for x in path_rows], float).reshape(-1, 3)
        self.hold_first_panel = not problem.paths
        self.hold_row = r
        if self.hold_first_panel:
            self.rows.append(("panel 1 held", r, r + 6))
            r += 6
        self.n_rows = r
        self.n_cols = 6 * self.n_bodies
        # vertex copies: (vertex, panel) for every panel holding each vertex
        pairs = [(v, p) for v, ps in enumerate(pat.vertex_panels) for p in ps]
        self.copy_vertex = np.array([x[0] for x in pairs], int)
        self.copy_panel = np.array([x[1] for x in pairs], int)
        self.copies = np.bincount(self.copy_vertex, minlength=len(self.Xs)).astype(float)
        self._pattern()

    # ------------------------------------------------------------------ sparsity
    def _pattern(self):
        """Row and column of every Jacobian entry, in the order :meth:`evaluate` computes them, and the CSR map."""
        rows, cols = [], []
        six = np.arange(6)
        for kind, idx, r0 in self.kind_groups:
            k = kind.n_rows
            c = np.concatenate([6 * self.hp[idx, None] + six, 6 * self.hq[idx, None] + six], axis=1)  # (H, 12)
            rows.append(np.broadcast_to(r0[:, None, None] + np.arange(k)[None, :, None], (len(idx), k, 12)).ravel())
            cols.append(np.broadcast_to(c[:, None, :], (len(idx), k, 12)).ravel())
        p, q = self.hp[self.drive_hinge], self.hq[self.drive_hinge]
        rows.append(np.repeat(self.drive_row, 12))
        cols.append(np.concatenate([6 * p[:, None] + six, 6 * q[:, None] + six], axis=1).ravel())
        rows.append(np.repeat(self.path_row, 6))
        cols.append((6 * self.path_panel[:, None] + six).ravel())
        if self.hold_first_panel:
            r = self.hold_row
            rows.append(np.concatenate([np.repeat(r + np.arange(3), 3), np.repeat(r + 3 + np.arange(3), 6)]))
            cols.append(np.concatenate([np.tile(np.arange(3), 3), np.tile(six, 3)]))
        rows, cols = np.concatenate(rows), np.concatenate(cols)
        self._order = np.lexsort((cols, rows))
        self._indices = cols[self._order].astype(np.int32)
        self._indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=self.n_rows))]).astype(np.int32)

    # ------------------------------------------------------------------ state
    def start(self):
        """Identity poses: (R (N,3,3), u (N,3))."""
        return np.repeat(np.eye(3)[None], self.n_bodies, axis=0), np.zeros((self.n_bodies, 3))

    def _copies(self, R, u):
        """Every panel's copy of every vertex it holds (scaled)."""
        v, p = self.copy_vertex, self.copy_panel
        return _rot(R[p], self.Xs[v]) + u[p]

    def _mean_copies(self, Y):
        return np.column_stack([np.bincount(self.copy_vertex, Y[:, k], len(self.Xs)) for k in range(3)]) \
            / self.copies[:, None]

    def vertices(self, R, u):
        """Vertex positions (V x 3, global frame, length units): mean over the panels holding each vertex."""
        return self._mean_copies(self._copies(R, u)) * self.L + self.x0

    def vertex_spread(self, R, u):
        """Largest distance (length units) between the copies of a vertex carried by its panels."""
        Y = self._copies(R, u)
        M = self._mean_copies(Y)
        return float(np.linalg.norm(Y - M[self.copy_vertex], axis=1).max(initial=0.0)) * self.L

    def _drive_terms(self, R, u):
        """(p1, p2, t1, a, b) of every drive: hinge midpoints on p and q, axis, n on p and q (scaled, global)."""
        h = self.drive_hinge
        p, q = self.hp[h], self.hq[h]
        Rp, Rq = R[p], R[q]
        P = self.hP[h]
        return (_rot(Rp, P) + u[p], _rot(Rq, P) + u[q], _rot(Rp, self.ht[h]), _rot(Rp, self.hn[h]),
                _rot(Rq, self.hn[h]))

    def drive_values(self, R, u):
        """Current relative angle (rad) or slide (length) of every driven hinge, from the start."""
        p1, p2, t1, a, b = self._drive_terms(R, u)
        angle = rotation_angle(t1, a, b)
        return np.where(self.drive_slide, _dot(p2 - p1, t1) * self.L, angle)

    # --------------------------------------------------------- F and Jacobian
    def evaluate(self, R, u, time, jacobian=True):
        """(F, J, dF/dt) at ``time`` (s): residuals (n_rows), Jacobian (n_rows x 6N, CSR) and time derivative."""
        F = np.zeros(self.n_rows)
        Ft = np.zeros(self.n_rows)
        data = []
        for kind, idx, r0 in self.kind_groups:
            p, q = self.hp[idx], self.hq[idx]
            Fh, Jh = kind.residuals(R[p], u[p], R[q], u[q], (self.ht[idx], self.hm[idx], self.hn[idx]),
                                    self.hP[idx], jacobian)
            F[r0[:, None] + np.arange(kind.n_rows)] = Fh
            if jacobian:
                data.append(Jh.ravel())
        # drives: rotation sin(phi - theta) = 0, slide (p2 - p1).t1 - s / L = 0 (module doc)
        sl = self.drive_slide
        p1, p2, t1, a, b = self._drive_terms(R, u)
        d = p2 - p1
        val = self.drive_speed * time
        c, sn = np.cos(val), np.sin(val)
        s, k = _dot(np.cross(a, b), t1), _dot(a, b)
        F[self.drive_row] = np.where(sl, _dot(d, t1) - val / self.L, s * c - k * sn)
        Ft[self.drive_row] = np.where(sl, -self.drive_speed / self.L, -(s * sn + k * c) * self.drive_speed)
        if jacobian:
            g = c[:, None] * (k[:, None] * t1 - _dot(b, t1)[:, None] * a) - sn[:, None] * np.cross(b, a)
            Jd = np.zeros((len(sl), 12))
            Jd[:, 0:3] = np.where(sl[:, None], -np.cross(p1, t1) + np.cross(t1, d), -g)
            Jd[:, 3:6] = np.where(sl[:, None], -t1, 0.0)
            Jd[:, 6:9] = np.where(sl[:, None], np.cross(p2, t1), g)
            Jd[:, 9:12] = np.where(sl[:, None], t1, 0.0)
            data.append(Jd.ravel())
        # vertex paths: (x - x_start).e = 0
        p, e = self.path_panel, self.path_dir
        Xv = self.Xs[self.path_vertex]
        x = _rot(R[p], Xv) + u[p]
        F[self.path_row] = _dot(x - Xv, e)
        if jacobian:
            data.append(np.concatenate([np.cross(x, e), e], axis=1).ravel())   # rows (x x e, e)
        if self.hold_first_panel:
            # rotation vector of R_0 (small-angle form is enough near the solution) and u_0
            r = self.hold_row
            A = R[0]
            F[r:r + 3] = 0.5 * np.array([A[2, 1] - A[1, 2], A[0, 2] - A[2, 0], A[1, 0] - A[0, 1]])
            F[r + 3:r + 6] = u[0]
            if jacobian:
                data.append(np.concatenate([(0.5 * (np.trace(A) * np.eye(3) - A)).ravel(),
                                            np.hstack([-skew(u[0]), np.eye(3)]).ravel()]))
        if not jacobian:
            return F, None, Ft
        data = np.concatenate(data)[self._order]
        J = sp.csr_matrix((data, self._indices, self._indptr), shape=(self.n_rows, self.n_cols))
        J.has_sorted_indices = True
        return F, J, Ft

    def hinge_rate_operator(self, R):
        """Sparse (hinges x 6N) operator giving each hinge's relative angular rate (rad/s) about its axis t_1."""
        tt = _rot(R[self.hp], self.ht)
        nh = len(self.hp)
        rows = np.repeat(np.arange(nh), 6)
        cols = np.concatenate([6 * self.hq[:, None] + np.arange(3), 6 * self.hp[:, None] + np.arange(3)], 1).ravel()
        vals = np.concatenate([tt, -tt], axis=1).ravel()
        return sp.csr_matrix((vals, (rows, cols)), shape=(nh, self.n_cols))

    def row_label(self, row):
        for label, a, b in self.rows:
            if a <= row < b:
                return label
        return f"row {row}"
