"""A multibody system for the discrete null space method: bodies, pairs, tree, closures, null space.

Open-loop tree (Part II, sec. 4.2, 5.4.1)
-----------------------------------------
The pairs are split into a spanning tree and closures. The tree is grown
breadth-first from the grounded nodes (the world and the fixed bodies) in
the order the pairs are given, never through the pairs in ``exclude`` (or
taken from ``tree``, a list of pair indices; the first pair of a floating
part has its body 1 as root); a body no pair reaches from the ground is a
*free root* with its own twist (6 unknowns). A tree pair whose body 2 is the parent is
reversed (``pair.reversed``). The generalised velocities nu are, body by
body in tree order, a free root's twist (v, omega) or the tree pair's joint
velocities tau; the twists follow by the recursion t^2 = A t^1 + B tau
(eq. 178-184), and the open-loop null space matrix is P^o = P_int P_ext^o
(eq. 185). It is never formed: :meth:`Multibody.forward` applies P_ext^o and
:meth:`Multibody.backward` its transpose, in O(B) per vector.

Closed loops (sec. 5.4.2; Part I, App. C)
-----------------------------------------
The rows of the closure pairs, Phi_c, constrain the open-loop system. Their
Jacobian in nu, A = G_c(q) P^o(q), has rank r_c (decided at t = 0 on A
scaled to dimensionless entries: translation rows / L, translation columns
x L, singular values below ``rank_rtol`` x the largest count as zero). Rows
are dropped one at a time, each time the one whose removal leaves the
best-conditioned set, until r_c remain (``closure_rows``); the dropped rows
are redundant (self-stress) and left out everywhere. (For the six-body
linkage this drops the loop's e_3 translation row.) The mobility is
M = dim(nu) - r_c. The discrete null space matrix of the closed system is
P = P^o(q_n, q_{n+1}) P^oc with P^oc spanning the null space of the
midpoint A = G_c(q_{n+1/2}) P^o(q_n, q_{n+1}) by coordinate partitioning
(the paper's eq. 191 is its continuous form): nu_dep = -A_dep^-1 A_ind nu_ind.
The independent coordinates come from a pivoted QR of A (or ``independent``)
and are re-chosen at the start of a step when cond(A_dep) exceeds
``partition_cond``.

Units: ``length`` L is the system's length scale (scaled violations and
Newton steps).
"""
from collections import deque

import numpy as np
import scipy.linalg as sla

from ....tools.errors import StructureError
from .body import WORLD, angular_velocity, cross, expm1, pint, pint_t
from .constraints import Constraints, VecExpr
from .forces import Forces

_ZERO43 = np.zeros((1, 4, 3))
_ZERO33 = np.zeros((1, 3, 3))
#: relative singular value below which closure rows are dependent
RANK_RTOL = 1e-8
#: condition number of the dependent block above which the closure partition is re-chosen
PARTITION_COND = 10.0


def _internal_rows(C, b):
    d = [VecExpr([(b, i + 1, 1.0)]) for i in range(3)]
    rows = [C.add_row(quad=[(d[i], d[i], 0.5)], const=-0.5, kind="r", owner=("internal", b)) for i in range(3)]
    for i, j in ((0, 1), (0, 2), (1, 2)):
        rows.append(C.add_row(quad=[(d[i], d[j], 1.0)], kind="r", owner=("internal", b)))
    return rows


class Multibody:
    """Bodies (``body.Body``), pairs (``pairs``), gravity (3,), dead loads [(body, X body comps, F)],
    hinge terms (``forces.HingeTerm``); see the module doc for ``tree``, ``independent``."""

    def __init__(self, bodies, pairs, gravity=None, loads=(), hinge_terms=(), length=None, tree=None,
                 independent=None, rank_rtol=RANK_RTOL, partition_cond=PARTITION_COND, exclude=()):
        self.bodies = list(bodies)
        self.B = len(self.bodies)
        self.q0 = np.array([b.q0 for b in self.bodies])
        self.moving = np.array([not b.fixed for b in self.bodies])
        self.mrow = np.array([b.mass_row for b in self.bodies])
        self.M = np.where(self.moving[:, None], self.mrow, 0.0)[:, :, None] * np.ones(3)   # (B, 4, 3)
        self.pairs = list(pairs)
        if length is None:
            pts = self.q0[:, 0]
            length = float(np.linalg.norm(pts.max(0) - pts.min(0))) if self.B > 1 else 1.0
        self.length = length if length > 0 else 1.0
        self.rank_rtol, self.partition_cond = rank_rtol, partition_cond
        self._build_tree(tree, set(exclude))
        C = Constraints(self.B)
        self.internal_rows = []
        for b in range(self.B):
            if self.moving[b]:
                self.internal_rows += _internal_rows(C, b)
        for k, pr in enumerate(self.pairs):
            pr.add_rows(C, self.q0, owner=("pair", k))
        self.C = C
        self.forces = Forces(self.mrow, self.moving, gravity, loads, hinge_terms)
        self.closure_all = [r for k in self.closures for r in self.pairs[k].rows]
        viol = C.scaled_violation(self.q0, self.length)
        if viol > 1e-9:
            k = int(np.argmax(np.abs(C.phi(self.q0))))
            raise StructureError(f"the initial configuration violates constraint row {k + 1} "
                                 f"({self.describe_row(k)}) by {viol:.3g}")
        self._setup_closures(independent)

    # ------------------------------------------------------------------ tree
    def _build_tree(self, tree, exclude):
        pairs = self.pairs
        grounded = [None] + [b for b in range(self.B) if not self.moving[b]]
        visited = set(grounded)
        order = []        # (body, pair index or None for a free root)
        used = set()

        def attach(k, parent, child):
            pr = pairs[k]
            if pr.b1 != parent:
                if not hasattr(pr, "reversed"):
                    raise StructureError(f"pair {k + 1} ({pr.kind}) joins its body 2 to the tree first and "
                                         f"cannot be reversed; give it with the parent as body 1")
                pairs[k] = pr.reversed(self.q0)
            visited.add(child)
            used.add(k)
            order.append((child, k))

        roots = []
        if tree is not None:
            for k in tree:
                pr = pairs[k]
                if pr.b1 not in visited and pr.b2 not in visited and pr.b1 is not None:
                    visited.add(pr.b1)              # a floating part: body 1 its free root
                    roots.append(pr.b1)
                    order.append((pr.b1, None))
                if pr.b1 in visited and pr.b2 not in visited:
                    attach(k, pr.b1, pr.b2)
                elif pr.b2 in visited and pr.b1 not in visited:
                    attach(k, pr.b2, pr.b1)
                else:
                    raise StructureError(f"tree pair {k + 1} does not join a new body to the tree")
        queue = deque(n for n in grounded if any(n in (p.b1, p.b2) for p in pairs))
        queue.extend(b for b, _ in order)
        while True:
            while queue:
                node = queue.popleft()
                if tree is not None:
                    continue
                for k, pr in enumerate(pairs):
                    if k in used or k in exclude or node not in (pr.b1, pr.b2):
                        continue
                    other = pr.b2 if pr.b1 == node else pr.b1
                    if other in visited:
                        continue
                    attach(k, node, other)
                    queue.append(other)
            rest = [b for b in range(self.B) if b not in visited]
            if not rest:
                break
            visited.add(rest[0])
            roots.append(rest[0])
            order.append((rest[0], None))
            queue.append(rest[0])
        self.order = order
        self.tree = [k for _, k in order if k is not None]
        self.closures = [k for k in range(len(pairs)) if k not in used]
        slices, units, start = [], [], 0
        for b, k in order:
            u = ("t", "t", "t", "a", "a", "a") if k is None else pairs[k].units
            slices.append(slice(start, start + len(u)))
            units += list(u)
            start += len(u)
        self.slices = slices
        self.units = np.array(units)
        self.d_open = start
        self.nu_scale = np.where(self.units == "t", 1.0, 1.0)
        self.parent = {b: (None if k is None else pairs[k].b1) for b, k in order}

    # ------------------------------------------------------------------ kinematics
    def qb(self, q, b):
        """Configurations of body b in a batch q (N, B, 4, 3); the world's for b None."""
        return WORLD[None] if b is None else q[..., b, :, :]

    def edges(self, qm):
        """A, B blocks of every tree pair (None for a free root) at midpoint configurations qm (N, B, 4, 3)."""
        return [None if k is None else self.pairs[k].edge(self.qb(qm, self.pairs[k].b1), qm[:, b])
                for b, k in self.order]

    def forward(self, edges, nu):
        """Twists (N, B, 6) of generalised velocities nu (N, d_open): t = P_ext^o nu."""
        N = nu.shape[0]
        t = np.zeros((N, self.B, 6))
        for (b, k), sl, AB in zip(self.order, self.slices, edges):
            if k is None:
                t[:, b] = nu[:, sl]
                continue
            A, Bm = AB
            t[:, b] = np.einsum("nij,nj->ni", Bm, nu[:, sl])
            p = self.pairs[k].b1
            if p is not None and self.moving[p]:
                t[:, b] += np.einsum("nij,nj->ni", A, t[:, p])
        return t

    def backward(self, edges, w):
        """(P_ext^o)^T w for wrenches w (N, ..., B, 6) -> (N, ..., d_open)."""
        acc = w.copy()
        out = np.zeros(w.shape[:-2] + (self.d_open,))
        for (b, k), sl, AB in zip(reversed(self.order), reversed(self.slices), reversed(edges)):
            wb = acc[..., b, :]
            if k is None:
                out[..., sl] = wb
                continue
            A, Bm = AB
            out[..., sl] = np.einsum("nji,n...j->n...i", Bm, wb)
            p = self.pairs[k].b1
            if p is not None and self.moving[p]:
                acc[..., p, :] += np.einsum("nji,n...j->n...i", A, wb)
        return out

    def velocities(self, q, nu):
        """Coordinate velocities v = P(q) nu (B, 4, 3) at a configuration q (B, 4, 3) (continuous null space)."""
        qq = q[None]
        t = self.forward(self.edges(qq), np.asarray(nu, float)[None])
        return pint(qq, t)[0] * self.moving[:, None, None]

    def reparam(self, U, qn, state):
        """dq = F_{q_n}(u) - q_n for a batch U (N, d_open) (eqs. 44, 75-78, 188-189), as increments (``pairs``)."""
        N = U.shape[0]
        dq = np.zeros((N,) + qn.shape)
        W = np.zeros((N, self.B, 3, 3))
        for (b, k), sl in zip(self.order, self.slices):
            mu = U[:, sl]
            if k is None:
                Wb = expm1(mu[:, 3:])
                dq[:, b, 0] = mu[:, :3]
                dq[:, b, 1:] = np.einsum("nkj,ij->nik", Wb, qn[b, 1:])
                W[:, b] = Wb
                continue
            pr = self.pairs[k]
            p = pr.b1
            if p is None:
                q1n, dq1, W1 = WORLD, _ZERO43, _ZERO33
            else:
                q1n, dq1, W1 = qn[p], dq[:, p], W[:, p]
            dq[:, b], W[:, b] = pr.reparam(q1n, dq1, W1, qn[b], mu, state[k])
        return dq

    def initial_state(self):
        return {k: self.pairs[k].initial_state(self.q0) for k in self.tree}

    def advance(self, state, u):
        new = dict(state)
        for (b, k), sl in zip(self.order, self.slices):
            if k is not None:
                new[k] = self.pairs[k].advance(state[k], u[sl])
        return new

    # ------------------------------------------------------------------ closures
    def closure_matrix(self, qm, edges, rows):
        """A = G_rows(q_mid) P_int(q_mid) P_ext^o: (N, len(rows), d_open)."""
        G = self.C.jacobian_dense(qm, rows).reshape(qm.shape[0], len(rows), self.B, 4, 3)
        w = pint_t(qm[:, None], G) * self.moving[:, None]
        return self.backward(edges, w)

    def _scales(self, rows):
        rs = np.where(np.array([self.C.kinds[r] for r in rows]) == "t", 1.0 / self.length, 1.0) if rows else np.zeros(0)
        cs = np.where(self.units == "t", self.length, 1.0)
        return rs, cs

    def _setup_closures(self, independent):
        rows = self.closure_all
        self.closure_rows, self.dropped_rows = [], []
        self.dep = np.zeros(0, int)
        self.ind = np.arange(self.d_open)
        self.closure_rank = 0
        self.closure_singular_values = np.zeros(0)
        if not rows:
            self.mobility = self.d_open
            return
        q = self.q0[None]
        A = self.closure_matrix(q, self.edges(q), rows)[0]
        rs, cs = self._scales(rows)
        As = rs[:, None] * A * cs
        s = np.linalg.svd(As, compute_uv=False)
        r = int(np.sum(s > self.rank_rtol * s[0])) if len(s) and s[0] > 0 else 0
        self.closure_singular_values = s
        keep = self._independent_rows(As, r)
        self.closure_rows = [rows[i] for i in keep]
        self.dropped_rows = [rows[i] for i in range(len(rows)) if i not in keep]
        self.closure_rank = r
        self.mobility = self.d_open - r
        if independent is not None:
            ind = np.array(sorted(independent), int)
            if len(ind) != self.mobility:
                raise StructureError(f"independent: the closed system has {self.mobility} degrees of freedom, "
                                     f"{len(ind)} independent coordinates were given")
            self._set_partition(ind)
            c = self._partition_cond(As[keep])
            if not np.isfinite(c) or c > 1e12:
                raise StructureError(f"independent: coordinates {[i + 1 for i in ind]} cannot be independent here "
                                     f"(the dependent block is singular)")
        else:
            self.repartition(self.q0)

    @staticmethod
    def _independent_rows(As, r):
        """r rows of the scaled closure matrix As spanning its row space: drop, one at a time, the row whose
        removal leaves the best-conditioned set (sigma_min / sigma_max largest; up to 40 rows), else a
        pivoted QR of As^T."""
        m = As.shape[0]
        if r == m:
            return list(range(m))
        if m > 40:
            _, _, piv = sla.qr(As.T, pivoting=True, mode="economic")
            return sorted(piv[:r])
        keep = list(range(m))
        while len(keep) > r:
            best, score = None, -1.0
            for i in keep:
                rest = [j for j in keep if j != i]
                s = np.linalg.svd(As[rest], compute_uv=False)
                k = min(len(rest), r)
                ratio = s[k - 1] / s[0] if s[0] > 0 else 0.0
                if ratio > score:
                    best, score = i, ratio
            keep.remove(best)
        return keep

    def _set_partition(self, ind):
        self.ind = np.array(sorted(ind), int)
        self.dep = np.array([i for i in range(self.d_open) if i not in set(self.ind)], int)

    def _partition_cond(self, As_sel):
        return np.linalg.cond(As_sel[:, self.dep]) if len(self.dep) else 1.0

    def repartition(self, q, force=True):
        """Choose the independent coordinates at configuration q by a pivoted QR (module doc)."""
        if not self.closure_rows:
            return False
        qq = q[None]
        rows = self.closure_rows
        A = self.closure_matrix(qq, self.edges(qq), rows)[0]
        rs, cs = self._scales(rows)
        As = rs[:, None] * A * cs
        if not force and len(self.dep) and self._partition_cond(As) <= self.partition_cond:
            return False
        _, _, piv = sla.qr(As, pivoting=True, mode="economic")
        r = self.closure_rank
        self._set_partition([i for i in range(self.d_open) if i not in set(piv[:r])])
        return True

    def null_oc(self, A):
        """P^oc (N, d_open, M) spanning the null space of A (N, r_c, d_open) by the current partition."""
        N = A.shape[0]
        P = np.zeros((N, self.d_open, len(self.ind)))
        P[:, self.ind, np.arange(len(self.ind))] = 1.0
        if len(self.dep):
            P[:, self.dep, :] = -np.linalg.solve(A[:, :, self.dep], A[:, :, self.ind])
        return P

    def null_space(self, q):
        """The continuous null space matrix P(q) (12 B, M) in the current coordinates (for checks)."""
        qq = q[None]
        edges = self.edges(qq)
        eye = np.eye(self.d_open)[None].repeat(1, 0)
        cols = []
        for j in range(self.d_open):
            t = self.forward(edges, eye[:, j])
            cols.append(pint(qq, t)[0].ravel() * np.repeat(self.moving, 12))
        Po = np.array(cols).T
        if self.closure_rows:
            A = self.closure_matrix(qq, edges, self.closure_rows)
            return Po @ self.null_oc(A)[0]
        return Po

    # ------------------------------------------------------------------ invariants
    def kinetic(self, v):
        return 0.5 * float(np.sum(self.M * v * v))

    def linear_momentum(self, v):
        return (self.M[:, 0] * v[:, 0]).sum(axis=0)

    def angular_momentum(self, q, v):
        """sum_b phi x M_phi v_phi + sum_I E_I d_I x v_I (about the origin, global frame)."""
        return np.sum(cross(q, self.M * v), axis=(0, 1))

    def describe_row(self, k):
        owner = self.C.owner[k]
        if owner is None:
            return f"row {k + 1}"
        if owner[0] == "internal":
            return f"rigidity of {self.bodies[owner[1]].name}"
        pr = self.pairs[owner[1]]
        return f"{pr.kind} pair {owner[1] + 1}" + (f" ({pr.label})" if pr.label is not None else "")

    def omega(self, q, v):
        return angular_velocity(q, v)
