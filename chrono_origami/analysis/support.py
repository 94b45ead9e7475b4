"""A minimal support proposal: the fewest held vertex directions that stop the six rigid-body motions.

Engine-neutral: the proposal works from the structure's geometry alone, and
its report from the counts of the supported structure (any engine's
:class:`~chrono_origami.reference.counting.Counts`: 6 scaled velocities per
panel).

Method
------
A rigid-body motion of the whole structure moves a point x with
u(x) = w + omega x (x - c). Holding vertex x in the global direction e_d is
the row e_d . u(x) = e_d . w + omega . ((x - c) x e_d); on the six rigid
motions it is the 6-vector r = ((x - c) x e_d / L, e_d) (L the structure's
size, c its centroid, so both halves are of order one). The supports already
given hold the rigid motions their rows span (rank r0); the proposal adds
6 - r0 rows, one at a time, each the candidate whose component orthogonal to
the rows held so far is largest:

* candidate vertices, in this order: A, the vertex nearest the lowest corner
  of the bounding box (min x, min y, min z); B, the vertex farthest from A;
  C, the vertex farthest from the line AB; then the others by decreasing
  distance from A. At A the three directions are taken, at B the two that
  stop the rotations about A, at C the one that stops the rotation about AB
  (the classic 3-2-1 support, spread as far apart as the structure allows);
* a row is taken when its orthogonal component is at least :data:`WELL_POSED`
  of its norm (a first pass), or above round-off (a second pass, for
  degenerate geometry).

Each row taken raises the rank on the rigid motions by one, so removing any
held direction frees a rigid motion (minimal), and the rows are independent on
the whole null space of the structure's operator: its nullity drops by exactly
6 - r0. Without supports given, the supported structure therefore keeps
exactly the internal mechanisms of the free structure (M counts them in both)
and its self-stress states (S unchanged): a support of the fewest directions
never stops a mechanism. The report names them, with the panels that move most.

No whole-structure operator is formed: the proposal needs 6-vectors of the
candidate rows only; the counts of the report come from ``analysis.count``
(sparse on large structures).

Each piece (panels joined by hinges) is held on its own, in this way about
its own centroid and size; pieces that meet at a vertex are held there apart.
Each support goes on the piece's lowest-numbered panel at its vertex.
"""
from dataclasses import dataclass, field

import numpy as np

from ..results.count import number_ranges
from ..structure.boundary import support_text
from ..tools.errors import SolverError, StructureError
from ..tools.threads import with_blas_threads
from ..structure.structure import Support

#: a row is taken in the first pass when its component orthogonal to the rows held is this fraction of its norm
WELL_POSED = 0.05
#: second pass: any row whose orthogonal component exceeds this fraction of its norm
ROUND_OFF = 1e-8
#: mechanisms listed one by one in the report (beyond: one generic combination)
LIST_MECHANISMS = 5
#: panels named per mechanism
LIST_PANELS = 5
#: the report gives supports that stop the mechanisms up to this many mechanisms (one held direction each)
STOP_LIMIT = 12


@dataclass
class SupportProposal:
    """The proposal for ``original``: ``supports`` (0-based records, added to the original's) and ``structure``
    (the original with them). ``rank_before``: rigid motions the original's supports stopped (0 to 6 a piece);
    ``n_pieces``: the pieces (panels joined by hinges), six rigid motions each."""

    original: object
    supports: tuple
    structure: object
    rank_before: int
    vertices: tuple = field(default=())    # A, B, C (0-based) as chosen
    n_pieces: int = 1                      # pieces (panels joined by hinges), each with six rigid motions

    @property
    def n_held(self):
        """Directions held by the proposal (6 x pieces - rank_before)."""
        return sum(len(s.dofs) for s in self.supports)

    @property
    def motions(self):
        """'the six rigid-body motions', or of each piece when there are several."""
        return ("the six rigid-body motions" if self.n_pieces == 1 else
                f"the six rigid-body motions of each of its {self.n_pieces} pieces (panels joined by hinges)")

    def texts(self):
        """The ``--support`` text forms (1-based) of the proposed supports."""
        return [support_text(s) for s in self.supports]

    def summary(self):
        """One line: what is proposed and why it is minimal."""
        if not self.supports:
            return f"{self.original.name}: its supports already stop {self.motions}: no support proposed"
        total = 6 * self.n_pieces
        given = (f"its supports stop {self.rank_before} of the {'six' if total == 6 else total} rigid-body motions; "
                 if self.rank_before else "")
        what = self.motions if not self.rank_before else (
            "the other rigid-body motions" if self.n_pieces == 1 else f"the other rigid-body motions of its "
                                                                      f"{self.n_pieces} pieces")
        return (f"proposed support: {' '.join(self.texts())} ({given}{self.n_held} held direction"
                f"{'s' if self.n_held != 1 else ''}, the fewest that stop {what}: removing any one frees one)")

    def accepted(self):
        """One line for a command that accepts the proposal (``--support auto``): what it holds, what it leaves."""
        if not self.supports:
            return self.summary()
        leaves = ("it stops no internal mechanism (the support command names what is still free)"
                  if self.rank_before == 0 else "")
        return (f"--support auto: {' '.join(self.texts())} ({self.n_held} held direction"
                f"{'s' if self.n_held != 1 else ''}, the fewest that stop the rigid-body motions"
                f"{'' if self.n_pieces == 1 else f' of its {self.n_pieces} pieces'}{'; ' + leaves if leaves else ''})")

    def report(self, counts=None):
        """Plain text: the proposed supports as a table, why minimal, and (with the ``counts`` of
        ``self.structure``) what is still free: the mechanisms, with the panels that move most."""
        lines = [self.summary()]
        if self.supports:
            lines.append("  panel  vertex  held  --support")
            for s, text in zip(self.supports, self.texts()):
                lines.append(f"  {s.panel + 1:>5}  {s.vertex + 1:>6}  {s.dofs:<4}  {text}")
        if counts is not None:
            lines += still_free(self.structure, counts, self.rank_before == 0 and bool(self.supports),
                                "--support auto" if self.supports else None)
        return "\n".join(lines)


def still_free(structure, counts, fresh=True, accept=None):
    """Lines naming what a supported structure can still do: M, S and each mechanism's most moving panels, and
    the supports that stop them (:func:`stop_line`).

    ``fresh``: the supports are a proposal on a structure that had none (so the mechanisms are exactly the free
    structure's internal ones). ``accept``: the option that accepts the proposal (``--support auto``), written
    before the stops, which complete it.
    """
    M, S = counts.M, counts.S
    lines = [f"with it: M = {M} mechanism{'s' if M != 1 else ''}, S = {S} self-stress state{'s' if S != 1 else ''}"]
    if M == 0:
        lines.append("it stops every motion: the supported structure has no mechanism")
        return lines
    why = (" (a support of the fewest directions stops the rigid-body motions only: these are the free "
           "structure's internal mechanisms)" if fresh else "")
    lines.append(f"it does not stop the {M} mechanisms{why}:" if M != 1 else f"it does not stop the mechanism{why}:")
    lines += mechanism_lines(counts)
    stop = stop_line(structure, counts)
    lines.append(f"to stop {'it' if M == 1 else 'them'}: {accept + ' ' if accept else ''}{stop}" if stop else
                 "to stop them: hold more vertices of the panels that move most (--support SELECTOR:DOFS, e.g. "
                    "a vertex of one of them)" + (", or make sliding hinges door hinges" if structure.n_sliding else ""))
    return lines


def stop_line(structure, counts):
    """The ``--support`` forms of :func:`mechanism_stops` and what they leave (M = 0, S unchanged), in one line;
    None when there are none to give."""
    stops = mechanism_stops(structure, counts)
    if not stops:
        return None
    forms = " ".join(f"--support {support_text(s)}" for s in stops)
    n = sum(len(s.dofs) for s in stops)
    return (f"{forms} ({n} more held direction{'s' if n != 1 else ''}, one per mechanism, where "
            f"{'it moves' if counts.M == 1 else 'they move'} most; with {'it' if n == 1 else 'them'} M = 0 and "
            f"S = {counts.S}, unchanged)")


def mechanism_stops(structure, counts, limit=STOP_LIMIT):
    """Supports (0-based records, one held direction each, on the vertex's lowest-numbered panel) that stop every
    mechanism of a supported structure, or () when there are none or more than ``limit`` mechanisms, or their
    basis is not formed.

    Holding vertex x of panel p in direction e is the row e . (w_p + omega_p x (x - x0)) on the velocities; on
    the mechanisms (the orthonormal null basis N of the structure's operator, ``counts.mechanisms``) it is the
    M-vector a = row . N. Rows are taken one at a time, each the candidate whose component orthogonal to the rows
    taken is largest (the direction that moves most in what is still free), until M are taken: the M x M matrix
    of their a's is then invertible, so with them no mechanism remains (M = 0), and each row raises the rank by
    one, so S is unchanged. A structure without supports (M counts internal mechanisms only) gets none: its
    rigid-body motions come first (``--support auto``).
    """
    M = counts.M
    if M == 0 or M > limit or not structure.supports or counts.model is None:
        return ()
    try:
        N = np.asarray(counts.mechanisms)
    except SolverError:
        return ()
    if N.shape[1] != M:
        return ()
    pat = structure.pattern
    model = counts.model
    x = (pat.vertices - model.x0) / model.L
    cand, rows = [], []
    for v in range(pat.n_vertices):
        if not pat.vertex_panels[v]:
            continue
        p = pat.vertex_panels[v][0]
        block = N[6 * p:6 * p + 6]
        for d in "xyz":
            if any(s.vertex == v and s.panel == p and d in s.dofs for s in structure.supports):
                continue
            e = np.eye(3)["xyz".index(d)]
            cand.append((v, p, d))
            rows.append(np.concatenate([np.cross(x[v], e), e]) @ block)
    if not rows:
        return ()
    A = np.array(rows)
    scale = np.linalg.norm(A, axis=1).max()
    taken, Q = [], np.zeros((0, M))
    while len(taken) < M:
        resid = A - (A @ Q.T) @ Q
        norms = np.linalg.norm(resid, axis=1)
        k = int(np.argmax(norms))
        if not norms[k] > 1e-6 * scale:
            return ()
        taken.append(k)
        Q = np.vstack([Q, resid[k] / norms[k]])
    by = {}
    for k in taken:
        v, p, d = cand[k]
        by.setdefault((v, p), "")
        by[(v, p)] += d
    return tuple(Support(v, p, "".join(a for a in "xyz" if a in ds)) for (v, p), ds in by.items())


def mechanism_lines(counts, n_list=LIST_MECHANISMS, n_panels=LIST_PANELS):
    """One line per mechanism (up to ``n_list``; beyond, one generic combination): the panels that move most.

    A panel's motion is the norm of its 6 scaled velocities (rotation, translation / size) in the mechanism
    (orthonormal basis of ``counts``), relative to the largest.
    """
    try:
        if counts.M <= n_list:
            vectors = [(f"mechanism {k + 1}", counts.mechanisms[:, k]) for k in range(counts.M)]
        else:
            vectors = [(f"the {counts.M} mechanisms (a generic combination)", counts.mechanism_sample())]
    except SolverError as e:
        return [f"  (the mechanisms are not formed: {e})"]
    out = []
    for label, d in vectors:
        move = np.linalg.norm(np.asarray(d).reshape(-1, 6), axis=1)
        top = np.argsort(-move, kind="stable")[:n_panels]
        scale = move.max() or 1.0
        names = ", ".join(f"{p + 1} ({move[p] / scale:.2f})" for p in top if move[p] > 1e-6 * scale)
        out.append(f"  {label}: panels {names} move most (relative motion)")
    return out


def rigid_rows(pattern, vertex, dofs, center, L):
    """The rows (len(dofs) x 6) of holding ``vertex`` in ``dofs`` on the rigid motions (omega, w / L)."""
    x = (pattern.vertices[vertex] - center) / L
    return np.array([np.concatenate([np.cross(x, e), e]) for e in (np.eye(3)["xyz".index(d)] for d in dofs)])


@with_blas_threads
def propose_support(structure):
    """A :class:`SupportProposal` for ``structure``: the fewest directions that, added to its supports, stop the
    six rigid-body motions of each of its pieces (panels joined by hinges; module doc). An empty proposal when its
    supports already stop them."""
    pat = structure.pattern
    pieces = [_piece(structure, panels, len(pat.pieces) == 1) for panels in pat.pieces]
    taken, rank_before = [], 0          # (vertex, direction, panel)
    for panels, inside, verts, center, L, Q in pieces:
        rank_before += Q.shape[0]
        if Q.shape[0] == 6:
            continue
        chosen = set()                  # (vertex, direction) held on this piece
        X = pat.vertices
        order = _candidates(X, verts)
        for threshold in (WELL_POSED, ROUND_OFF):
            for v in order:
                while Q.shape[0] < 6:
                    free = [d for d in "xyz" if not _holds(structure.supports, chosen, v, d, inside)]
                    if not free:
                        break
                    rows = rigid_rows(pat, v, free, center, L)
                    resid = rows - (rows @ Q.T) @ Q
                    ratio = np.linalg.norm(resid, axis=1) / np.linalg.norm(rows, axis=1)
                    k = int(np.argmax(ratio))
                    if ratio[k] < threshold:
                        break
                    chosen.add((int(v), free[k]))
                    taken.append((int(v), free[k], min(p for p in pat.vertex_panels[v] if p in inside)))
                    Q = np.vstack([Q, resid[k] / np.linalg.norm(resid[k])])
                if Q.shape[0] == 6:
                    break
            if Q.shape[0] == 6:
                break
        if Q.shape[0] < 6:     # its vertices on one line (no area): a plain error, no wrong answer
            raise SolverError(f"{structure.name}: no support found that stops the six rigid-body motions of the "
                              f"piece of panel{'s' if len(panels) > 1 else ''} "
                              f"{number_ranges([int(p) + 1 for p in panels], 4).strip('[]')} (rank {Q.shape[0]} of "
                              f"6 on its rigid motions: are its vertices on one line?)")
    by_vertex = {}
    for v, d, p in taken:
        by_vertex.setdefault((v, p), []).append(d)
    new = tuple(Support(v, p, "".join(a for a in "xyz" if a in ds)) for (v, p), ds in by_vertex.items())
    if not new:
        return SupportProposal(structure, (), structure, rank_before, n_pieces=len(pieces))
    try:
        supported = structure.with_supports(*new, origin="proposed")
    except StructureError as e:      # pragma: no cover - the candidates skip held directions
        raise SolverError(f"{structure.name}: the proposed support is not valid: {e}") from None
    return SupportProposal(structure, new, supported, rank_before, tuple(v for v, _ in by_vertex),
                           n_pieces=len(pieces))


def free_pieces(structure):
    """The pieces of ``structure`` (``CreasePattern.pieces``: panels joined by hinges) whose supports do not stop all
    six of their rigid-body motions: a list of (panels (0-based, sorted), number of free rigid motions). A piece's
    free rigid motions are 6 minus the rank of its supports' rows on its rigid motions (:func:`_piece`; rank by the
    SVD, relative :data:`ROUND_OFF`). Elastic hinges resist only
    relative motions of hinged panels: these motions are free in every engine's elastic statics."""
    pat = structure.pattern
    pieces = (_piece(structure, panels, len(pat.pieces) == 1) for panels in pat.pieces)
    return [(panels, 6 - Q.shape[0]) for panels, _, _, _, _, Q in pieces if Q.shape[0] < 6]


def _piece(structure, panels, whole):
    """(panels, their set, vertices (sorted), center, L, Q) of one piece: Q orthonormal rows spanning its supports'
    rows on its rigid motions (:func:`rigid_rows` about the center, lengths over L: the structure's centroid and size
    when it is ``whole``, else the piece's)."""
    pat = structure.pattern
    inside = set(int(p) for p in panels)
    verts = np.unique(np.concatenate([np.asarray(pat.panels[p], int) for p in panels]))
    X = pat.vertices
    center = X.mean(axis=0) if whole else X[verts].mean(axis=0)
    L = max(pat.size if whole else float(np.linalg.norm(np.ptp(X[verts], axis=0))), 1e-300)
    held = [r for s in structure.supports if s.panel in inside for r in rigid_rows(pat, s.vertex, s.dofs, center, L)]
    return panels, inside, verts, center, L, _orthonormal(np.array(held).reshape(-1, 6))


def _holds(supports, taken, v, d, inside):
    """Whether vertex v is held in direction d already on the piece of panels ``inside`` (by a support on any of
    its panels: a vertex is held once a direction on a piece; pieces meeting there are held apart), or taken."""
    return any(s.vertex == v and d in s.dofs and s.panel in inside for s in supports) or (v, d) in taken


def _orthonormal(rows, tol=ROUND_OFF):
    """Orthonormal rows spanning ``rows`` (their rank by the SVD, relative ``tol``)."""
    if rows.shape[0] == 0:
        return np.zeros((0, 6))
    _, s, Vt = np.linalg.svd(rows, full_matrices=False)
    r = int(np.sum(s > tol * max(s[0], 1e-300)))
    return Vt[:r]


def _candidates(X, on_panels):
    """Vertices in the order A, B, C, then by decreasing distance from A (module doc)."""
    P = X[on_panels]
    lo = P.min(axis=0)
    a = int(on_panels[np.argmin(np.linalg.norm(P - lo, axis=1))])
    d = np.linalg.norm(P - X[a], axis=1)
    b = int(on_panels[np.argmax(d)])
    u = X[b] - X[a]
    u = u / (np.linalg.norm(u) or 1.0)
    rel = P - X[a]
    off = np.linalg.norm(rel - np.outer(rel @ u, u), axis=1)
    c = int(on_panels[np.argmax(off)])
    rest = [int(v) for v in on_panels[np.argsort(-d, kind="stable")] if v not in (a, b, c)]
    return list(dict.fromkeys([a, b, c] + rest))
