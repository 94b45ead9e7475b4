"""The compatibility operator both engines assemble, its counts and its statics by duality (engine-neutral).

The reference engine assembles the scaled operator from the paper's
operators (``engines.reference.model.assemble``), the Chrono engine from
Chrono's constraint Jacobian Cq (``engines.chrono.static.chrono_model``);
both give a :class:`Model`, and the rest is common:

* :func:`count`: numeric M and S (:class:`~chrono_origami.results.count.Counts`)
  by the rank rule of :mod:`chrono_origami.tools.linalg` (dense SVD) or
  :mod:`chrono_origami.tools.sparseqr` (sparse QR);
* :func:`solve`: statics by duality (paper sec. 4.1), equilibrium
  Cs^T mu = -f for every panel. With M = 0 and S = 0 the answer is unique; a
  structure without supports (M counts internal mechanisms only) is free to
  move as a rigid body and is solved only when its loads balance (else
  :class:`FreeBodyError`). Otherwise :func:`solve` raises
  :class:`IndeterminateError` (with M, S and the hinges that carry
  self-stress or the panels that move), unless ``allow_indeterminate=True``:
  then it returns the minimum-norm particular solution (in the scaled
  multipliers), labelled ``status="minimum-norm"``, together with the
  self-stress states, any multiple of which may be added;
* :func:`null_basis` and :func:`held_dofs`: the coordinates to hold fixed
  so that the mechanisms and rigid motions are gone and no self-equilibrated
  force changes (the tolerance analyses of both engines).

Scaling (documented because every count and solve depends on it): positions
enter as x' = (x - x0) / L, with x0 the centroid of the vertices and L the
pattern size (bounding-box diagonal). The assembled operator ``Cs`` then has
entries of order one, so rank decisions use a relative tolerance. In these
variables body i moves with (omega_i, w_i / L) and its generalised force is
(moment about x0, L * force); multipliers ``mu`` all carry moment units.
A constraint block's wrench on body i is ``Cs_block^T mu_block``, read as
(moment about x0, L * force).
"""
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from ..results.count import Counts, _remove_rigid, counted, counts_text, rigid_motions, number_ranges  # noqa: F401  (compatibility.number_ranges)
from ..results.static import StaticResult, SupportReaction, hinge_actions
from ..tools import linalg as la
from ..tools import memory
from ..tools.errors import FreeBodyError, IndeterminateError, SolverError
from ..tools.linalg import RANK_RTOL
from ..tools.progress import Stages


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
        if not len(panel_loads):
            return f
        p = np.array([int(q) for q, _, _ in panel_loads])
        x = np.array([np.asarray(x, float) for _, x, _ in panel_loads]).reshape(-1, 3)
        F = np.array([np.asarray(F, float) for _, _, F in panel_loads]).reshape(-1, 3)
        w = np.hstack([np.cross(x - self.x0, F), self.L * F])     # (moment about x0, L force) per load
        np.add.at(f, (6 * p[:, None] + np.arange(6)[None, :]).ravel(), w.ravel())
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


def count(model, supported, rtol=RANK_RTOL, linalg="auto", stage=None, pattern=None):
    """Numeric M and S of the operator ``model`` (:class:`~chrono_origami.results.count.Counts`).

    ``supported``: the structure has supports (else its 6 rigid motions are
    not mechanisms). ``linalg``: "auto" (dense up to
    :data:`~chrono_origami.tools.linalg.DENSE_LIMIT` columns), "dense" or
    "sparse" (:func:`chrono_origami.tools.linalg.choose_method`). Both paths
    apply the same rank rule: singular values at most ``rtol`` times the
    largest are zero. ``stage``: a ``progress.Stages`` callback, or None.
    ``pattern``: the structure's crease pattern; when it is flat, the sparse
    path ranks the operator in the plane's frame (:func:`flat_columns`).
    """
    m, n = model.Cs.shape
    if la.choose_method((m, n), linalg) == "dense":
        if stage is not None:
            stage(f"dense SVD of the {m} x {n} operator")
        return _count_dense(model, rtol, supported)
    return _count_sparse(model, rtol, supported, stage, pattern)


#: A pattern whose vertices all lie within this fraction of its size of one plane is flat: its operator is ranked
#: in the plane's frame, where it splits into independent blocks (:func:`flat_columns`).
FLAT_RTOL = 1e-12


def plane_frame(pattern):
    """Rows e1, e2, n (3 x 3, orthonormal) of the plane of a flat pattern -- every vertex within
    :data:`FLAT_RTOL` x its size of the plane -- or None."""
    X = np.asarray(pattern.vertices, float)
    if len(X) < 3:
        return None
    c = X - X.mean(axis=0)
    Vt = np.linalg.svd(c, full_matrices=False)[2]
    if Vt.shape[0] < 3 or np.abs(c @ Vt[2]).max() > FLAT_RTOL * (pattern.size or 1.0):
        return None
    return Vt


def flat_columns(pattern, n_bodies):
    """The orthogonal column change (6P x 6P, sparse) that turns each body's (omega, w / L) into the frame of a flat
    pattern's plane, or None: the operator of a flat pattern then falls into an out-of-plane block (omega . e1,
    omega . e2, w . n: the mechanisms) and an in-plane block (``tools.sparseqr.blocks``)."""
    Q = plane_frame(pattern)
    if Q is None:
        return None
    block = np.zeros((6, 6))
    block[:3, :3] = Q.T
    block[3:, 3:] = Q.T
    return sp.block_diag([block] * n_bodies, format="csr")


def _count_dense(model, rtol, supported):
    C = model.Cs.toarray()
    m, n = C.shape
    if m and n:
        U, s, Vt = la.singular_values(C, full=True)
    else:
        U, s, Vt = np.eye(m), np.zeros(0), np.eye(n)
    smax = s[0] if len(s) else 0.0
    rank = int(np.sum(s > rtol * smax)) if smax > 0 else 0
    kept = s[rank - 1] / smax if rank else np.nan
    dropped = s[rank] / smax if rank < len(s) else 0.0
    mech = _remove_rigid(Vt[rank:].T, model.n_bodies, supported)
    c = Counts(mech.shape[1], m - rank, rank, n, m, supported, (kept, dropped), float(smax), "dense", rtol, model,
               singular_values=s)
    c._bases.update(mechanisms=mech, self_stresses=U[:, rank:])
    return c


def _count_sparse(model, rtol, supported, stage=None, pattern=None):
    from ..tools import sparseqr

    C = model.Cs
    m, n = C.shape
    columns = flat_columns(pattern, model.n_bodies) if pattern is not None else None
    try:
        # each body's 6 velocity columns (turned within the body by ``columns``) ordered together
        groups = np.arange(n) // 6 if n == 6 * model.n_bodies else None
        r = sparseqr.rank(C, rtol, stage=stage, columns=columns, groups=groups)
    except sparseqr.SparseBackendUnavailable as exc:
        need = la.gigabytes(la.dense_memory((m, n)))
        raise SolverError(f"counting the {m} x {n} operator: the sparse path needs pyspqr (pip install pyspqr); "
                          f"the dense SVD would need {need} (linalg='dense')") from exc
    M = n - r.rank - (0 if supported else 6)
    return Counts(M, m - r.rank, r.rank, n, m, supported, r.gap, r.sigma_max, "sparse", rtol, model, _sparse=r)


#: Largest accepted relative equilibrium residual |Cs^T mu + f| / |f|.
EQUILIBRIUM_RTOL = 1e-9


#: Self-stress states and mechanisms listed one by one up to this many; above, the hinges and panels involved.
LIST_LIMIT = 20


def null_basis(counts):
    """Orthonormal-column basis (6P x k) of null(Cs): the mechanisms, and the rigid motions when unsupported."""
    parts = []
    if counts.M:
        parts.append(counts.mechanisms)
    if not counts.supported:
        parts.append(rigid_motions(counts.model.n_bodies))
    if not parts:
        return np.zeros((counts.n_dof, 0))
    return np.hstack(parts)


def loads_excite_mechanisms(structure, counts, measure):
    """The ``IndeterminateError`` (exit 3) of loads that work on the structure's mechanisms (``measure``: how
    much, in words), with the panels each mechanism moves."""
    return IndeterminateError(
        f"{structure.name}: the loads cannot be equilibrated ({measure}); the structure has "
        f"M = {counted(counts.M, 'mechanism')} that the loads excite (supports can stop "
        f"{'it' if counts.M == 1 else 'them'}: support_proposal.mechanism_stops names held directions that do)",
        counts.M, counts.S, describe_indeterminacy(structure, counts))


def check_loads_carried(structure, counts):
    """Raise when the structure's loads do work on a motion nothing resists, so that no hinge or support force can
    carry them: on the rigid motions of an unsupported structure (``FreeBodyError``, exit 2) or on a mechanism
    (``IndeterminateError``, exit 3); the work is measured as |N^T f| / |f| > :data:`EQUILIBRIUM_RTOL` with N an
    orthonormal basis of those motions and f the scaled generalised loads. Used where such motions are held fixed
    instead of refused (the tolerance analyses), which would otherwise carry the loads on the holds."""
    f = counts.model.generalized_forces(structure.panel_loads())
    nf = np.linalg.norm(f)
    if nf == 0:
        return
    if not counts.supported:
        rel = np.linalg.norm(rigid_motions(counts.model.n_bodies).T @ f) / nf
        if rel > EQUILIBRIUM_RTOL:
            raise FreeBodyError.unbalanced(structure.name, rel)
    if counts.M:
        rel = np.linalg.norm(counts.mechanisms.T @ f) / nf
        if rel > EQUILIBRIUM_RTOL:
            raise loads_excite_mechanisms(structure, counts, f"relative work on the mechanisms {rel:.3g}")


def held_dofs(N):
    """Columns (scaled coordinates (omega, w / L) of the bodies, 6 a body) to hold fixed so that Cs without them
    has full column rank, for a basis N of null(Cs) (:func:`null_basis`): pivoted QR of N^T. Holding them removes
    the mechanisms and rigid motions and, for self-equilibrated forces, changes no multiplier (both engines'
    tolerance analyses)."""
    if N.shape[1] == 0:
        return np.zeros(0, dtype=np.int64)
    _, R, piv = sla.qr(N.T, mode="economic", pivoting=True)
    k = N.shape[1]
    d = np.abs(np.diag(R))
    if d[-1] < 1e-8 * d[0]:
        raise SolverError("the null space of the operator could not be held by fixing coordinates")
    return np.sort(piv[:k])


def describe_indeterminacy(structure, counts, tol=1e-6):
    """Plain-text detail: hinges carrying each self-stress state, panels moved by each mechanism.

    Up to :data:`LIST_LIMIT` states (mechanisms) are listed one by one;
    beyond, or where the basis is too large to form (sparse path), one line
    names every hinge (panel) that some state involves, read off one generic
    member of the space (``Counts.self_stress_sample``).
    """
    model = counts.model
    lines = []
    note = near_singular_note(counts)
    if note:
        lines.append("  " + note)

    def stress_line(mu, label):
        hinges = [h + 1 for h, rows in enumerate(model.hinge_rows) if np.abs(mu[rows]).max(initial=0) > tol]
        sups = [structure.supports[s].vertex + 1 for s, rows in enumerate(model.support_rows)
                if np.abs(mu[rows]).max(initial=0) > tol]
        line = f"  {label}: hinges {number_ranges(hinges)}"
        if sups:
            line += f", supports at vertices {number_ranges(sups)}"
        return line

    def motion_line(d, label):
        moving = np.linalg.norm(d.reshape(-1, 6), axis=1)
        panels = [int(p) + 1 for p in np.nonzero(moving > tol * max(moving.max(), 1e-300))[0]]
        return f"  {label}: panels {number_ranges(panels)}"

    if counts.S <= LIST_LIMIT:
        for k in range(counts.S):
            lines.append(stress_line(counts.self_stresses[:, k], f"self-stress state {k + 1}"))
    elif counts.S:
        lines.append(stress_line(counts.self_stress_sample(), f"the {counts.S} self-stress states involve"))
    if counts.M <= LIST_LIMIT:
        for k in range(counts.M):
            lines.append(motion_line(counts.mechanisms[:, k], f"mechanism {k + 1}"))
    else:
        lines.append(motion_line(counts.mechanism_sample(), f"the {counts.M} mechanisms move"))
    return "\n".join(lines)


#: A dropped singular value above this fraction of the rank tolerance is not round-off: the dropped ones of exact
#: mechanisms and self-stress states lie at 1e-16 to 3e-12 sigma_max (dense SVD; the sparse path's bounds),
#: those of nearly singular structures near the tolerance (4e-9 to 6e-9 sigma_max on the 10^5-panel strip).
NEAR_SINGULAR = 1e-2


def near_singular_note(counts):
    """One sentence when the largest singular value counted as zero is far above round-off (more than
    :data:`NEAR_SINGULAR` times the rank tolerance): the structure is nearly, not exactly, singular; else ''."""
    dropped = float(counts.gap[1]) if counts.gap is not None and len(counts.gap) > 1 else 0.0
    if not dropped > NEAR_SINGULAR * counts.rtol:
        return ""
    return (f"nearly singular: the largest singular value counted as zero is {dropped:.2g} sigma_max, under the rank "
            f"rule's {counts.rtol:.0e} sigma_max but far above round-off, so M and S count near-mechanisms (a very "
            f"slender structure, or one near a singular configuration), not exact ones (rtol= sets the rule)")


def solve(structure, counts, allow_indeterminate=False, rtol=RANK_RTOL, form="hinge"):
    """Hinge internal actions and support reactions of ``structure`` under its loads, from ``counts.model``.

    ``counts``: :func:`count` of the structure's operator (its ``linalg`` path
    is the solve's: the sparse path solves a determined structure by a sparse
    LU of Cs^T (SuperLU) and the minimum-norm problem by LSMR); ``form``: the
    hinge form the operator was assembled in, for ``info``.
    """
    model = counts.model
    if not counts.isostatic and not allow_indeterminate:
        raise IndeterminateError(
            f"{structure.name}: the static problem is not determined ({counts_text(counts.M, counts.S)}); "
            f"pass allow_indeterminate=True for the labelled "
            f"minimum-norm solution", counts.M, counts.S, describe_indeterminacy(structure, counts))
    f = model.generalized_forces(structure.panel_loads())
    A = model.Cs.T.tocsc()
    status = "determined" if counts.isostatic else "minimum-norm"
    square = A.shape[0] == A.shape[1]   # not for a free structure: Cs^T has 6 rows more (its rigid motions)
    with Stages("statics") as stage:
        if counts.linalg == "dense":
            Ad = A.toarray()
            mu = sla.solve(Ad, -f) if counts.isostatic and square else sla.lstsq(Ad, -f, cond=rtol)[0]
        elif counts.isostatic and square:
            stage(f"sparse LU of the {A.shape[0]} x {A.shape[1]} equilibrium operator")
            from ..tools import sparseqr

            need, how = sparseqr.lu_memory(A)
            memory.check(f"the sparse LU of the {A.shape[0]:,} x {A.shape[1]:,} equilibrium operator ({how} from its "
                         f"structure)", need)
            mu = spla.splu(A).solve(-f)
        else:
            stage(f"least squares (LSMR) on the {A.shape[0]} x {A.shape[1]} equilibrium operator")
            mu = la.min_norm_lstsq(A, -f, f"{structure.name}: the minimum-norm statics")
    res = np.linalg.norm(A @ mu + f)
    scale = max(np.linalg.norm(f), 1e-300)
    rel = res / scale if np.linalg.norm(f) > 0 else res
    if rel > EQUILIBRIUM_RTOL:
        if counts.isostatic and not counts.supported:
            raise FreeBodyError.unbalanced(structure.name, rel)
        if counts.isostatic:
            raise SolverError(f"{structure.name}: equilibrium residual {rel:.3g} after the solve (ill-conditioned)")
        raise loads_excite_mechanisms(structure, counts, f"relative residual {rel:.3g}")
    result = StaticResult(structure, "reference", status, counts.M, counts.S,
                          multiplier_actions(structure, model, mu), _reactions(structure, model, mu), rel,
                          info={"form": form, "gap": counts.gap, "linalg": counts.linalg})
    if status != "determined":
        if counts.linalg == "dense" or counts.S <= LIST_LIMIT:
            result.self_stress_actions = self_stress_actions(structure, counts)
        else:
            result.info["self_stress_states"] = f"not formed: S = {counts.S} > {LIST_LIMIT} on the sparse path"
    return result


def self_stress_actions(structure, counts):
    """Hinge actions of each self-stress state of ``counts`` (arbitrary scale): one list of HingeAction per state."""
    return [multiplier_actions(structure, counts.model, counts.self_stresses[:, k]) for k in range(counts.S)]


def multiplier_actions(structure, model, mu):
    """Hinge actions (list of ``results.static.HingeAction``) of the scaled multipliers ``mu`` of ``model`` (see ``model``)."""
    pat = structure.pattern
    if not pat.hinges:
        return []
    ab = np.array([h.vertices for h in pat.hinges])
    q = np.array([h.panels[1] for h in pat.hinges])
    mid = 0.5 * (pat.vertices[ab[:, 0]] + pat.vertices[ab[:, 1]])
    F, M0 = model.hinge_wrenches(mu, q)
    return hinge_actions(pat, structure.hinge_kinds, list(zip(F, M0 - np.cross(mid - model.x0, F))))


def _reactions(structure, model, mu):
    out = []
    for k, (s, rows) in enumerate(zip(structure.supports, model.support_rows)):
        F, _ = model.block_wrench(rows, mu, s.panel)
        out.append(SupportReaction(k, s.vertex, s.panel, s.dofs, F))
    return out
