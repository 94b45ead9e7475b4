"""Assembly of the structure's compatibility operator from the paper's operators.

Scaling (documented because every count and solve depends on it): positions
enter as x' = (x - x0) / L, with x0 the centroid of the vertices and L the
pattern size (bounding-box diagonal). The assembled operator ``Cs`` then has
entries of order one, so rank decisions use a relative tolerance. In these
variables body i moves with (omega_i, w_i / L) and its generalised force is
(moment about x0, L * force); multipliers ``mu`` all carry moment units.
A constraint block's wrench on body i is ``Cs_block^T mu_block``, read as
(moment about x0, L * force).

Hinge frames: for hinge h with vertices (a, b) as run by its first panel p,
t = (b - a)/|b - a|, m = normal of panel p made orthogonal to t, n = t x m;
P is the edge midpoint. Each hinge's rows come from its kind
(``chrono_origami.hinges``): form "hinge", the kind's ``hinge_operator``
(eqs. 4, 6 for sliding and door hinges); form "points", its point
constraints -- point sliders (eq. 8) and spherical hinges (eq. 14) at the
vertices a, b or the midpoint, as eqs. (13), (15) compose them.
"""
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..errors import StructureError
from ..geometry import newell_normal
from . import operators as op

#: hinge forms: "hinge" uses eqs. (4) and (6); "points" uses eqs. (13) and (15).
FORMS = ("hinge", "points")
AXES = {"x": np.array([1.0, 0, 0]), "y": np.array([0, 1.0, 0]), "z": np.array([0, 0, 1.0])}


@dataclass
class Model:
    """Assembled operator: ``Cs`` (m x 6P, sparse CSR), row blocks, scaling."""

    Cs: sp.csr_matrix
    x0: np.ndarray
    L: float
    hinge_rows: list
    support_rows: list
    n_bodies: int

    @property
    def shape(self):
        return self.Cs.shape

    def generalized_forces(self, panel_loads):
        """Scaled generalised force vector (moment about x0, L * force) per body."""
        f = np.zeros(6 * self.n_bodies)
        for p, x, F in panel_loads:
            F = np.asarray(F, float)
            f[6 * p:6 * p + 3] += np.cross(np.asarray(x, float) - self.x0, F)
            f[6 * p + 3:6 * p + 6] += self.L * F
        return f

    def hinge_wrenches(self, mu, bodies):
        """(H x 3 forces, H x 3 moments about x0) applied by each hinge's rows to ``bodies[h]`` for ``mu``."""
        C = self.Cs.tocoo()
        H = len(self.hinge_rows)
        starts = np.array([r.start for r in self.hinge_rows] + [self.hinge_rows[-1].stop if H else 0])
        hinge = np.searchsorted(starts, C.row, side="right") - 1
        keep = (C.row < starts[-1]) & (hinge >= 0)
        hinge, col, val = hinge[keep], C.col[keep], C.data[keep] * mu[C.row[keep]]
        mine = col // 6 == np.asarray(bodies)[hinge]
        W = np.zeros((H, 6))
        np.add.at(W, (hinge[mine], col[mine] % 6), val[mine])
        return W[:, 3:] / self.L, W[:, :3]

    def block_wrench(self, rows, mu, body):
        """(force, moment about x0) applied by the row block to ``body`` for multipliers ``mu``."""
        blk = self.Cs[rows, 6 * body:6 * body + 6]
        w = blk.T @ mu[rows]
        return np.asarray(w[3:]).ravel() / self.L, np.asarray(w[:3]).ravel()


def hinge_geometry(pattern, h, vertices=None):
    """(t, m, n, midpoint, a, b) of hinge h in the frame of its first panel."""
    X = pattern.vertices if vertices is None else vertices
    hinge = pattern.hinges[h]
    a, b = hinge.vertices
    xa, xb = X[a], X[b]
    t = (xb - xa) / np.linalg.norm(xb - xa)
    p = hinge.panels[0]
    if vertices is None:
        m = pattern.panel_normal(p)
    else:
        m = newell_normal(X[list(pattern.panels[p])])
    m = m - (m @ t) * t
    m /= np.linalg.norm(m)
    n = np.cross(t, m)
    return t, m, n, 0.5 * (xa + xb), xa, xb


def hinge_frames(pattern):
    """Arrays of every hinge's frame: (t, m, n, midpoint, a, b), each H x 3, as :func:`hinge_geometry` gives them."""
    X = pattern.vertices
    H = len(pattern.hinges)
    if H == 0:
        z = np.zeros((0, 3))
        return z, z, z, z, z, z
    ab = np.array([h.vertices for h in pattern.hinges])
    first = np.array([h.panels[0] for h in pattern.hinges])
    xa, xb = X[ab[:, 0]], X[ab[:, 1]]
    t = (xb - xa) / np.linalg.norm(xb - xa, axis=1, keepdims=True)
    m = pattern.panel_normals[first]
    m = m - (m * t).sum(axis=1, keepdims=True) * t
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    return t, m, np.cross(t, m), 0.5 * (xa + xb), xa, xb


def point_form(kind, h, m, n, places):
    """Rows of the "points" form of ``kind`` (n_rows x 12, or k x n_rows x 12 for a batch of k hinges).

    ``places``: "a", "b", "mid" -> point(s); ``h``: the (first) hinge, for the message.
    """
    if kind.points is None:
        raise StructureError(f"hinge {h + 1}: {kind.name} hinges have no point form; use form 'hinge'")
    rows = []
    for c in kind.points:
        x = places[c.at]
        rows.append(op.spherical_hinge(x, x) if c.type == "spherical" else op.point_slider(m, n, x))
    return np.concatenate(rows, axis=-2)


def _kind_rows(kind, form, hs, t, m, n, P, A, B):
    """Rows (k x n_rows x 12) of the hinges ``hs`` of one kind, by one batched call of its operator.

    A registered operator that does not take batches (module ``hinges``) is called hinge by hinge.
    """
    def one(i):
        if form == "hinge":
            return kind.operator(t[i], m[i], n[i], P[i], t[i], m[i], n[i], P[i])
        return point_form(kind, hs[i], m[i], n[i], {"a": A[i], "b": B[i], "mid": P[i]})

    want = (len(hs), kind.n_rows, 12)
    try:
        rows = np.asarray(kind.operator(t, m, n, P, t, m, n, P) if form == "hinge" else
                          point_form(kind, hs[0], m, n, {"a": A, "b": B, "mid": P}))
    except (ValueError, IndexError, TypeError):
        rows = None
    if rows is None or rows.shape != want:
        rows = np.array([one(i) for i in range(len(hs))])
    if rows.shape != want:
        bad = next(i for i in range(len(hs)) if np.shape(one(i)) != want[1:])
        got = np.shape(one(bad))
        raise StructureError(f"hinge {hs[bad] + 1}: the {form} form of {kind.name} hinges gives "
                             f"{' x '.join(map(str, got))} rows, expected {kind.n_rows} x 12")
    return rows


def assemble(structure, form="hinge"):
    """Assemble the scaled compatibility operator of ``structure`` (vectorised: one operator call per kind)."""
    if form not in FORMS:
        raise StructureError(f"unknown hinge form {form!r}; expected one of {FORMS}")
    pat = structure.pattern
    X = pat.vertices
    x0 = X.mean(axis=0)
    L = pat.size or 1.0
    P_ = pat.n_panels
    t, m, n, mid, xa, xb = hinge_frames(pat)
    P, A, B = (mid - x0) / L, (xa - x0) / L, (xb - x0) / L
    kinds = structure.kinds
    H = len(kinds)
    counts = np.array([k.n_rows for k in kinds], dtype=np.int64)
    start = np.r_[0, np.cumsum(counts)].astype(np.int64)
    hinge_rows = [slice(int(start[h]), int(start[h + 1])) for h in range(H)]
    pq = np.array([h.panels for h in pat.hinges], dtype=np.int64).reshape(-1, 2)
    I, J, V = [], [], []
    for kind in {k.name: k for k in kinds}.values():
        hs = np.array([h for h in range(H) if kinds[h] is kind])
        rows = _kind_rows(kind, form, hs, t[hs], m[hs], n[hs], P[hs], A[hs], B[hs])   # (k, r, 12)
        k, r, _ = rows.shape
        ri = (start[hs][:, None, None] + np.arange(r)[None, :, None]).repeat(12, axis=2)
        body = np.where(np.arange(12) < 6, 0, 1)
        ci = 6 * pq[hs][:, body][:, None, :] + (np.arange(12) % 6)[None, None, :]
        ci = np.broadcast_to(ci, rows.shape)
        I.append(ri.ravel())
        J.append(ci.ravel())
        V.append(rows.ravel())
    r0 = int(start[-1])
    # supports: one row per held direction, (x x e, e) on the panel's columns
    sup = [(k, s) for k, s in enumerate(structure.supports)]
    support_rows = []
    if sup:
        n_dir = np.array([len(s.dofs) for _, s in sup])
        sstart = r0 + np.r_[0, np.cumsum(n_dir)]
        support_rows = [slice(int(sstart[k]), int(sstart[k + 1])) for k in range(len(sup))]
        xs = np.repeat(np.array([(X[s.vertex] - x0) / L for _, s in sup]), n_dir, axis=0)
        es = np.array([AXES[d] for _, s in sup for d in s.dofs])
        panel = np.repeat(np.array([s.panel for _, s in sup]), n_dir)
        rows = op.support(xs, es)                                   # (n, 6)
        I.append(np.repeat(r0 + np.arange(len(rows)), 6))
        J.append((6 * panel[:, None] + np.arange(6)[None, :]).ravel())
        V.append(rows.ravel())
        r0 = int(sstart[-1])
    I, J, V = (np.concatenate(x) if x else np.zeros(0) for x in (I, J, V))
    keep = V != 0
    Cs = sp.csr_matrix((V[keep], (I[keep], J[keep])), shape=(r0, 6 * P_))
    return Model(Cs, x0, L, hinge_rows, support_rows, P_)
