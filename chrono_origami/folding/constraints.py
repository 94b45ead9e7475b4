"""Exact constraint functions of a fold and their Jacobian on SE(3)^N.

Every body (panel) i has the pose g_i = (R_i, u_i) taking its reference
(start) configuration to the current one. Positions are scaled,
x' = (x - x0) / L (x0 the vertex centroid, L the pattern size, as in
``reference.model``), so that every row is of order one.

The Jacobian is taken with respect to the increments delta_i = (omega_i, w_i)
of the update g_i <- exp(delta_i) g_i (eq. 33): a body point x moves by
omega_i x x + w_i. It is the exact derivative of the functions below (checked
against finite differences in the tests), unlike the paper's symmetrised
c_1 = (t_1.m_2 + t_2.m_1)/2 whose derivative vanishes at t_1 = t_2 (see
``reference.operators``). For hinge h with first panel p (body 1) and second
panel q (body 2), t, m, n its reference frame in p (``model.hinge_geometry``)
and P its midpoint:

* hinge: the exact constraints of its kind, ``HingeKind.residual``
  (``chrono_origami.hinges``): for door and sliding hinges the axis
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

from ..geometry import skew
from ..reference.model import hinge_geometry


class FoldConstraints:
    """Constraint functions and Jacobian of a :class:`~.problem.FoldProblem`."""

    def __init__(self, problem):
        self.problem = problem
        pat = problem.pattern
        X = pat.vertices
        self.x0 = X.mean(axis=0)
        self.L = pat.size or 1.0
        self.Xs = (X - self.x0) / self.L
        self.n_bodies = pat.n_panels
        self.hinges = []   # (h, p, q, t, m, n, P, kind)
        for h, kind in enumerate(problem.structure.kinds):
            t, m, n, mid, _, _ = hinge_geometry(pat, h)
            p, q = pat.hinges[h].panels
            self.hinges.append((h, p, q, t, m, n, (mid - self.x0) / self.L, kind))
        self.rows = []     # (label, start row, stop row)
        r = 0
        for (h, *_rest, kind) in self.hinges:
            self.rows.append((f"hinge {h + 1}", r, r + kind.n_rows))
            r += kind.n_rows
        self.n_hinge_rows = r
        self.drive_rows = []
        for d in problem.drives:
            self.rows.append((f"drive of hinge {d.hinge + 1}", r, r + 1))
            self.drive_rows.append(r)
            r += 1
        self.paths = []
        for vp in problem.paths:
            D = np.asarray(vp.directions, float)
            self.paths.append((vp.vertex, vp.panel, D, self.Xs[vp.vertex].copy()))
            self.rows.append((f"vertex {vp.vertex + 1} ({vp.label or 'held'})", r, r + len(D)))
            r += len(D)
        self.hold_first_panel = not problem.paths
        if self.hold_first_panel:
            self.rows.append(("panel 1 held", r, r + 6))
            r += 6
        self.n_rows = r
        self.n_cols = 6 * self.n_bodies

    # ------------------------------------------------------------------ state
    def start(self):
        """Identity poses: (R (N,3,3), u (N,3))."""
        return np.repeat(np.eye(3)[None], self.n_bodies, axis=0), np.zeros((self.n_bodies, 3))

    def vertices(self, R, u):
        """Vertex positions (V x 3, global frame, length units): mean over the panels holding each vertex."""
        pat = self.problem.pattern
        out = np.zeros_like(self.Xs)
        for v, ps in enumerate(pat.vertex_panels):
            out[v] = np.mean([R[p] @ self.Xs[v] + u[p] for p in ps], axis=0)
        return out * self.L + self.x0

    def vertex_spread(self, R, u):
        """Largest distance (length units) between the copies of a vertex carried by its panels."""
        pat = self.problem.pattern
        worst = 0.0
        for v, ps in enumerate(pat.vertex_panels):
            P = np.array([R[p] @ self.Xs[v] + u[p] for p in ps])
            worst = max(worst, float(np.linalg.norm(P - P.mean(0), axis=1).max()))
        return worst * self.L

    def drive_values(self, R, u):
        """Current relative angle (rad) or slide (length) of every driven hinge, from the start."""
        out = []
        H = {h[0]: h for h in self.hinges}
        for d in self.problem.drives:
            h, p, q, t, m, n, P, _ = H[d.hinge]
            t1 = R[p] @ t
            if d.kind == "slide":
                out.append(float(((R[q] @ P + u[q]) - (R[p] @ P + u[p])) @ t1) * self.L)
            else:
                a, b = R[p] @ n, R[q] @ n
                out.append(float(np.arctan2(np.cross(a, b) @ t1, a @ b)))
        return np.array(out)

    # --------------------------------------------------------- F and Jacobian
    def evaluate(self, R, u, time, jacobian=True):
        """(F, J, dF/dt): residuals (n_rows), Jacobian (n_rows x 6N) and time derivative at ``time`` (s)."""
        F = np.zeros(self.n_rows)
        J = np.zeros((self.n_rows, self.n_cols)) if jacobian else None
        Ft = np.zeros(self.n_rows)
        r = 0
        for (h, p, q, t, m, n, P, kind) in self.hinges:
            k = kind.n_rows
            F[r:r + k], Jh = kind.residual(R[p], u[p], R[q], u[q], (t, m, n), P, jacobian)
            if jacobian:
                J[r:r + k, 6 * p:6 * p + 6] = Jh[:, :6]
                J[r:r + k, 6 * q:6 * q + 6] = Jh[:, 6:]
            r += k
        H = {hh[0]: hh for hh in self.hinges}
        T = self.problem.duration
        for dr in self.problem.drives:
            h, p, q, t, m, n, P, _ = H[dr.hinge]
            t1 = R[p] @ t
            if dr.kind == "slide":
                p1, p2 = R[p] @ P + u[p], R[q] @ P + u[q]
                d = p2 - p1
                F[r] = d @ t1 - dr.value(time, T) / self.L
                Ft[r] = -dr.speed(T) / self.L
                if jacobian:
                    J[r, 6 * p:6 * p + 3] = -np.cross(p1, t1) + np.cross(t1, d)
                    J[r, 6 * p + 3:6 * p + 6] = -t1
                    J[r, 6 * q:6 * q + 3] = np.cross(p2, t1)
                    J[r, 6 * q + 3:6 * q + 6] = t1
            else:
                th = dr.value(time, T)
                a, b = R[p] @ n, R[q] @ n
                s, k = np.cross(a, b) @ t1, a @ b
                c, sn = np.cos(th), np.sin(th)
                F[r] = s * c - k * sn
                Ft[r] = -(s * sn + k * c) * dr.speed(T)
                if jacobian:
                    g = c * (k * t1 - (b @ t1) * a) - sn * np.cross(b, a)
                    J[r, 6 * p:6 * p + 3] = -g
                    J[r, 6 * q:6 * q + 3] = g
            r += 1
        for (v, p, D, x_start) in self.paths:
            x = R[p] @ self.Xs[v] + u[p]
            k = len(D)
            F[r:r + k] = D @ (x - x_start)
            if jacobian:
                J[r:r + k, 6 * p:6 * p + 3] = np.cross(x, D)   # rows (x x e)
                J[r:r + k, 6 * p + 3:6 * p + 6] = D
            r += k
        if self.hold_first_panel:
            # rotation vector of R_0 (small-angle form is enough near the solution) and u_0
            A = R[0]
            F[r:r + 3] = 0.5 * np.array([A[2, 1] - A[1, 2], A[0, 2] - A[2, 0], A[1, 0] - A[0, 1]])
            F[r + 3:r + 6] = u[0]
            if jacobian:
                J[r:r + 3, 0:3] = 0.5 * (np.trace(A) * np.eye(3) - A)
                J[r + 3:r + 6, 0:3] = -skew(u[0])
                J[r + 3:r + 6, 3:6] = np.eye(3)
            r += 6
        return F, J, Ft

    def row_label(self, row):
        for label, a, b in self.rows:
            if a <= row < b:
                return label
        return f"row {row}"
