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


def point_form(kind, h, m, n, places):
    """Rows (n_rows x 12) of hinge ``h`` of ``kind`` in the "points" form; ``places``: "a", "b", "mid" -> point."""
    if kind.points is None:
        raise StructureError(f"hinge {h + 1}: {kind.name} hinges have no point form; use form 'hinge'")
    rows = []
    for c in kind.points:
        x = places[c.at]
        rows.append(op.spherical_hinge(x, x) if c.type == "spherical" else op.point_slider(m, n, x))
    return np.vstack(rows)


def assemble(structure, form="hinge"):
    """Assemble the scaled compatibility operator of ``structure``."""
    if form not in FORMS:
        raise StructureError(f"unknown hinge form {form!r}; expected one of {FORMS}")
    pat = structure.pattern
    X = pat.vertices
    x0 = X.mean(axis=0)
    L = pat.size or 1.0
    blocks = []  # (row array, col slices)
    hinge_rows, support_rows = [], []
    r0 = 0
    for h, kind in enumerate(structure.kinds):
        t, m, n, mid, xa, xb = hinge_geometry(pat, h)
        P, A, B = (mid - x0) / L, (xa - x0) / L, (xb - x0) / L
        if form == "hinge":
            rows = kind.operator(t, m, n, P, t, m, n, P)
        else:
            rows = point_form(kind, h, m, n, {"a": A, "b": B, "mid": P})
        if rows.shape != (kind.n_rows, 12):
            raise StructureError(f"hinge {h + 1}: the {form} form of {kind.name} hinges gives {rows.shape[0]} x "
                                 f"{rows.shape[1]} rows, expected {kind.n_rows} x 12")
        p, q = pat.hinges[h].panels
        blocks.append((rows, p, q))
        hinge_rows.append(slice(r0, r0 + len(rows)))
        r0 += len(rows)
    for s in structure.supports:
        rows = op.support((X[s.vertex] - x0) / L, [AXES[d] for d in s.dofs])
        blocks.append((rows, s.panel, None))
        support_rows.append(slice(r0, r0 + len(rows)))
        r0 += len(rows)
    I, J, V = [], [], []
    r = 0
    for rows, p, q in blocks:
        k = len(rows)
        for body, cols in ((p, slice(0, 6)), (q, slice(6, 12))):
            if body is None:
                continue
            sub = rows[:, cols]
            ii, jj = np.nonzero(sub)
            I.extend(r + ii)
            J.extend(6 * body + jj)
            V.extend(sub[ii, jj])
        r += k
    Cs = sp.csr_matrix((V, (I, J)), shape=(r, 6 * pat.n_panels))
    return Model(Cs, x0, L, hinge_rows, support_rows, pat.n_panels)
