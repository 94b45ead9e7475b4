"""Assembly of the structure's compatibility operator (the reference engine's).

The result is an ``engines.compatibility.Model``, scaled as that module says
(positions (x - x0) / L, multipliers in moment units).

Hinge frames (``structure.hinges.hinge_frames``): for hinge h with vertices
(a, b) as run by its first panel p, t = (b - a)/|b - a|, m = normal of panel p
made orthogonal to t, n = t x m; P is the edge midpoint. Each hinge's rows
come from its kind (``chrono_origami.structure.hinges``): form "hinge",
``HingeKind.rows`` (the linearisation of the kind's exact constraints: the
paper's eqs. 4, 6 for sliding and door hinges); form "points", its point
constraints -- point sliders (eq. 8) and spherical hinges (eq. 14) at the
vertices a, b or the midpoint, as eqs. (13), (15) compose them.
"""
import numpy as np
import scipy.sparse as sp

from ...structure.hinges import hinge_frames
from ...tools.errors import StructureError
from ..compatibility import Model
from . import operators as op

#: hinge forms: "hinge" the kinds' rows (eqs. 4 and 6 for sliding and door hinges); "points" eqs. (13) and (15).
FORMS = ("hinge", "points")
AXES = {"x": np.array([1.0, 0, 0]), "y": np.array([0, 1.0, 0]), "z": np.array([0, 0, 1.0])}


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
    """Rows (k x n_rows x 12) of the hinges ``hs`` of one kind: its linearised constraints (``HingeKind.rows``,
    form "hinge") or its point constraints (form "points")."""
    if form == "hinge":
        return kind.rows(t, m, n, P)
    return point_form(kind, hs[0], m, n, {"a": A, "b": B, "mid": P})


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
