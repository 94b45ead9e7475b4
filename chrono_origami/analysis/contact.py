"""Contact between thick panels along a fold: the range of motion.

Each panel is the convex solid its placement makes (``structure.solids``),
carried rigidly with the panel from frame to frame (the rotation that takes
its pattern frame to its frame in the fold, ``properties.panel_frame``). Two
solids interpenetrate when their penetration depth is above
:data:`DEPTH_RTOL` x the pattern size (a touch below it: faces that meet, as
two panels do on a crease in the flat pattern or face to face at 180 deg).

Penetration depth (length units): the least translation that separates two
convex polytopes A and B, the distance from the origin to the boundary of the
Minkowski difference B - A, is the least overlap of their projections over
the directions normal to that difference's faces: the face normals of A, of
B, and the cross products of an edge of A with an edge of B (the
separating-axis theorem). Over any other direction the overlap is not
smaller, so the minimum over all of them is the depth, exact; a negative
value is a gap. Broad phase: only the pairs whose bounding boxes overlap
(a k-d tree on their centres), so a sheet of P panels costs O(P) pairs.
"""
from dataclasses import dataclass, field

import numpy as np

from ..structure.properties import panel_frame
from ..structure.solids import check_thickness, face_loops, placement_of

#: overlaps up to this fraction of the pattern size are touches, not contacts (the fold's vertices are exact to
#: its Newton tolerance, 1e-12 of the pattern size)
DEPTH_RTOL = 1e-9


@dataclass
class Contacts:
    """The contacts of a fold's frames: ``pairs[k]`` the (p, q, depth) of frame k (0-based panels p < q, depth in
    length units, largest first); ``first`` the first frame with one (None: none)."""

    structure: object
    times: list
    percents: list = None
    pairs: list = field(default_factory=list)

    @property
    def first(self):
        return next((k for k, c in enumerate(self.pairs) if c), None)

    def where(self, k):
        """Frame ``k`` as a person reads it: "62.5 % of the targets" or "t = 0.625 s"."""
        if self.percents is not None:
            return f"{self.percents[k]:.4g} % of the targets"
        return f"t = {self.times[k]:.6g} s"

    def summary(self):
        """Lines: the first contact (frame, where, panel pair 1-based, depth) and the last frame free of contact,
        or that no two panels touch."""
        pl = placement_of(self.structure).describe()
        k = self.first
        if k is None:
            return [f"contact ({pl}): no two panels interpenetrate in frames 0-{len(self.pairs) - 1} (to "
                    f"{self.where(len(self.pairs) - 1)})"]
        p, q, d = self.pairs[k][0]
        free = f"; the last frame free of contact is {k - 1} ({self.where(k - 1)})" if k > 0 else \
            "; already in the first frame"
        more = f" (and {len(self.pairs[k]) - 1} more pairs)" if len(self.pairs[k]) > 1 else ""
        return [f"contact ({pl}): first at frame {k} ({self.where(k)}): panels {p + 1} and {q + 1} interpenetrate "
                f"by {d:.4g}{more}{free}"]

    def listing(self):
        """One line per frame with contacts: every pair (1-based) and its depth."""
        return [f"frame {k} ({self.where(k)}): " + ", ".join(f"panels {p + 1}-{q + 1} depth {d:.4g}" for p, q, d in c)
                for k, c in enumerate(self.pairs) if c]


class PanelSolids:
    """The panels' solids of ``structure`` (placement, thickness), placed at any configuration of its vertices."""

    def __init__(self, structure):
        pat = structure.pattern
        solids = check_thickness(structure)
        self.structure, self.P = structure, pat.n_panels
        self.L = float(pat.size) if np.isscalar(pat.size) else float(np.ptp(pat.vertices, axis=0).max())
        self.live = np.array([s is not None for s in solids])
        pad = lambda arrays: np.array([np.concatenate([a, np.repeat(a[:1], max(len(b) for b in arrays) - len(a), 0)])
                                       for a in arrays])
        dummy = (np.zeros((1, 3)), np.array([[0.0, 0.0, 1.0]]), np.array([[1.0, 0.0, 0.0]]))
        solids = [s if s is not None else dummy for s in solids]
        #: per panel, its faces as loops of indices into its vertices (to draw it)
        self.faces = [face_loops(s[0], s[1], self.L) if live else [] for s, live in zip(solids, self.live)]
        self.V, self.N, self.E = (pad([s[i] for s in solids]) for i in range(3))
        self.frames0 = self._frames(pat.vertices)

    def _frames(self, X):
        """(origin (P, 3), frame (P, 3, 3)) of every panel at vertices ``X``."""
        pat = self.structure.pattern
        O, F = np.zeros((self.P, 3)), np.zeros((self.P, 3, 3))
        sizes = np.array([len(loop) for loop in pat.panels])
        for k in np.unique(sizes):
            idx = np.flatnonzero(sizes == k)
            pts = X[np.array([pat.panels[p] for p in idx])]
            O[idx], F[idx] = pts[:, 0], panel_frame(pts)
        return O, F

    def at(self, X):
        """(vertices, face normals, edge directions) of every panel's solid at vertices ``X`` (V x 3)."""
        O0, F0 = self.frames0
        O, F = self._frames(np.asarray(X, float))
        R = F @ np.swapaxes(F0, 1, 2)
        V = np.einsum("pij,pnj->pni", R, self.V - O0[:, None]) + O[:, None]
        return V, np.einsum("pij,pnj->pni", R, self.N), np.einsum("pij,pnj->pni", R, self.E)

    def polygons(self, X):
        """Every face of every panel's solid at vertices ``X``, as (panel, (k, 3) polygon), to draw them."""
        V = self.at(X)[0]
        return [(p, V[p][loop]) for p in range(self.P) for loop in self.faces[p]]

    def contacts(self, X):
        """[(p, q, depth)] of the interpenetrating pairs at vertices ``X``, deepest first."""
        V, N, E = self.at(X)
        lo, hi = V.min(axis=1), V.max(axis=1)
        pairs = candidate_pairs(lo, hi, np.flatnonzero(self.live))
        if not len(pairs):
            return []
        depth = np.concatenate([penetration(V[c[:, 0]], N[c[:, 0]], E[c[:, 0]], V[c[:, 1]], N[c[:, 1]], E[c[:, 1]])
                                for c in np.array_split(pairs, max(1, len(pairs) // 4000))])
        hit = np.flatnonzero(depth > DEPTH_RTOL * self.L)
        order = hit[np.argsort(-depth[hit], kind="stable")]
        return [(int(pairs[i, 0]), int(pairs[i, 1]), float(depth[i])) for i in order]


def candidate_pairs(lo, hi, live):
    """(n, 2) panel pairs p < q among ``live`` whose bounding boxes (``lo``, ``hi``: (P, 3)) overlap."""
    from scipy.spatial import cKDTree

    c, h = 0.5 * (lo + hi)[live], 0.5 * (hi - lo)[live]
    if len(live) < 2:
        return np.zeros((0, 2), int)
    pairs = cKDTree(c).query_pairs(2 * float(h.max()) * (1 + 1e-12) + 1e-300, p=np.inf, output_type="ndarray")
    if not len(pairs):
        return np.zeros((0, 2), int)
    i, j = pairs[:, 0], pairs[:, 1]
    ok = np.all(np.abs(c[i] - c[j]) <= h[i] + h[j], axis=1)
    out = np.sort(live[pairs[ok]], axis=1)
    return out[np.lexsort((out[:, 1], out[:, 0]))]


def penetration(VA, NA, EA, VB, NB, EB):
    """Penetration depth (K,) of K pairs of convex polytopes (module doc): vertices (K, n, 3), unit face normals
    (K, f, 3), unit edge directions (K, e, 3) of each; negative: the largest gap found along those axes."""
    K = len(VA)
    X = np.cross(EA[:, :, None, :], EB[:, None, :, :]).reshape(K, -1, 3)
    n = np.linalg.norm(X, axis=2, keepdims=True)
    X = np.where(n > 1e-9, X / np.where(n > 0, n, 1), NA[:, :1])     # parallel edges: no axis (a repeat of one)
    axes = np.concatenate([NA, NB, X], axis=1)
    pa = np.einsum("kxi,kni->kxn", axes, VA)
    pb = np.einsum("kxi,kni->kxn", axes, VB)
    overlap = np.minimum(pa.max(axis=2) - pb.min(axis=2), pb.max(axis=2) - pa.min(axis=2))
    return overlap.min(axis=1)


def fold_contacts(history, percent=None, engine="reference", structure=None):
    """:class:`Contacts` of every stored frame of a fold history (``results.fold.FoldHistory``); ``percent``: the
    fold percent of its last frame when it folds to target angles (frame k is at percent x t_k / T). ``engine``:
    "reference" (:class:`PanelSolids`, separating axes) or "chrono" (Bullet's convex hulls,
    ``engines.chrono.contact``). ``structure``: the panels' thickness and placement, when not the history's (the
    same pattern)."""
    st = history.problem.structure if structure is None else structure
    st = st.with_pattern(st.pattern.with_vertices(history.vertices[0]))
    if engine == "chrono":
        from ..engines.chrono.contact import ChronoPanelSolids as solids_of
    else:
        solids_of = PanelSolids
    solids = solids_of(st)
    T = float(history.problem.duration)
    percents = None if percent is None else [float(percent) * t / T for t in history.times]
    return Contacts(st, list(history.times), percents, [solids.contacts(X) for X in history.vertices])
