"""Statics with elastic hinges: the hinge forces of any structure, determined or not (the reference engine's
``static --elastic``).

Hinges get the stiffness of ``structure.tolerance.HingeStiffness`` (K_t
on every locked translation, K_r on every locked rotation, per hinge); supports
stay rigid. The answer is that of the linear theory of ``tolerance`` (and
``docs/tolerances.md``) with no misfit: the multipliers solve

    F mu + Cs u = 0,      Cs^T mu = -f,

so that mu = mu_0 - S (S^T F S)^-1 S^T F mu_0 for any particular mu_0 and a
self-stress basis S (the force method; :func:`tolerance.formula` evaluates it
densely, the tests compare). It is solved in the stiffness form, sparse, with
one factorisation of Cs^T F^-1 Cs (``tolerance.Solver``): no basis is formed,
so it scales to 10^4-10^5 panels. u is the displacement of the panels
(scaled coordinates (omega, w / L) of ``engines.compatibility``).

Where S = 0 and M = 0 the answer is the determined one, whatever the
stiffness. Where M > 0, the structure as given has no answer for loads that
work on its mechanisms; elastic hinges then get springs about (and along) the
directions their kind leaves free as well (crease stiffness C_r = k_c l about
a free rotation, C_s = k_s l along a free translation;
``HingeStiffness.crease``, ``.slide``): each hinge's rows are its kind's
locked rows followed by its free rows (the rows of the kind that locks what
this one frees, ``compliance.spring_kind``), and every relative motion of two
panels is resisted. The loads then have a unique, linear answer: forces and a
displacement, which may be large where a mechanism carries the loads on the
springs alone -- :func:`solve` reports the largest vertex displacement and its
ratio to the structure's size (the linear theory holds while it is small;
Chrono's ``--nonlinear`` solve follows large ones).

An unsupported structure's rigid motions are held (``operator.held_dofs``)
after checking that its loads balance (``FreeBodyError`` otherwise).
"""
import numpy as np
import scipy.sparse as sp

from ...results.count import rigid_motions
from ...results.static import StaticResult
from ...structure import tolerance as imp
from ...structure.hinges import hinge_frames
from ...tools.errors import FreeBodyError
from ...tools.linalg import RANK_RTOL
from .. import compliance
from ..compliance import largest_displacement, row_flexibility, slot_displacements, spring_kind
from ..compatibility import EQUILIBRIUM_RTOL, Model, _reactions, check_loads_carried, held_dofs, multiplier_actions
from . import tolerance as tol
from .count import count


def spring_model(structure, model):
    """(Model, row kinds, spring mask): ``model`` with each hinge's free rows after its locked rows (module doc).

    Row kinds: "r" rotation, "t" translation, "s" support, per row; spring mask: True on the free rows."""
    pat = structure.pattern
    kinds = structure.kinds
    H = len(kinds)
    t, m, n, mid, _, _ = hinge_frames(pat)
    P = (mid - model.x0) / model.L
    pq = np.array([h.panels for h in pat.hinges], dtype=np.int64).reshape(-1, 2)
    locked = np.array([k.n_rows for k in kinds], dtype=np.int64)
    free = np.array([len(k.free) for k in kinds], dtype=np.int64)
    start = np.r_[0, np.cumsum(locked + free)].astype(np.int64)
    nh = int(start[-1])
    m_old = model.Cs.shape[0]
    old_nh = model.hinge_rows[-1].stop if H else 0
    # the old rows' new places
    new_of_old = np.empty(m_old, dtype=np.int64)
    kind_of = np.empty(m_old + int(free.sum()), dtype="<U1")
    spring = np.zeros(len(kind_of), dtype=bool)
    for h, (kind, rows) in enumerate(zip(kinds, model.hinge_rows)):
        new_of_old[rows] = start[h] + np.arange(rows.stop - rows.start)
        kind_of[start[h]:start[h] + locked[h]] = kind.hinge_row_kinds
    new_of_old[old_nh:] = nh + np.arange(m_old - old_nh)
    kind_of[nh:] = "s"
    C = model.Cs.tocoo()
    I, J, V = [new_of_old[C.row]], [C.col], [C.data]
    for kind in {k.name: k for k in kinds}.values():
        sk = spring_kind(kind)
        if sk is None:
            continue
        hs = np.array([h for h in range(H) if kinds[h] is kind])
        rows = sk.rows(t[hs], m[hs], n[hs], P[hs])                       # (k, r, 12)
        k, r, _ = rows.shape
        first = start[hs] + locked[hs]
        ri = (first[:, None, None] + np.arange(r)[None, :, None]).repeat(12, axis=2)
        body = np.where(np.arange(12) < 6, 0, 1)
        ci = np.broadcast_to(6 * pq[hs][:, body][:, None, :] + (np.arange(12) % 6)[None, None, :], rows.shape)
        I.append(ri.ravel())
        J.append(ci.ravel())
        V.append(rows.ravel())
        for j, rk in enumerate(sk.hinge_row_kinds):
            kind_of[first + j] = rk
            spring[first + j] = True
    I, J, V = np.concatenate(I), np.concatenate(J), np.concatenate(V)
    keep = V != 0
    Cs = sp.csr_matrix((V[keep], (I[keep], J[keep])), shape=(len(kind_of), model.Cs.shape[1]))
    hinge_rows = [slice(int(start[h]), int(start[h + 1])) for h in range(H)]
    support_rows = [slice(nh + r.start - old_nh, nh + r.stop - old_nh) for r in model.support_rows]
    return Model(Cs, model.x0, model.L, hinge_rows, support_rows, model.n_bodies), kind_of, spring


def solve(structure, stiffness=None, counts=None, rtol=RANK_RTOL, linalg="auto", form="hinge", springs=None,
          hinge_sensitivity=False):
    """Hinge actions and reactions of ``structure`` with elastic hinges (``results.StaticResult``, engine
    "reference", status "elastic"; module doc).

    ``counts``: the structure's counts (``counting.count``), made when None. ``springs``: add the springs of the
    free directions (default: where M > 0). ``hinge_sensitivity``: also ``compliance.hinge_sensitivity`` (``info``). The
    result's ``displacements``: every panel vertex's (``compliance.slot_displacements``). ``info``: ``springs``,
    ``displacement`` (largest vertex displacement, length units), ``displacement_relative`` (over the structure's
    size), ``equilibrium_residual``, ``stiffness`` (``HingeStiffness.as_dict``), ``solver``.
    """
    stiffness = stiffness or imp.HingeStiffness()
    counts = counts or count(structure, form, rtol, linalg=linalg)
    model = counts.model
    springs = counts.M > 0 if springs is None else bool(springs)
    f = model.generalized_forces(structure.panel_loads())
    held = np.zeros(0, dtype=np.int64)
    if not counts.supported:            # rigid motions: the loads must balance, then hold them
        N = rigid_motions(model.n_bodies)
        nf = np.linalg.norm(f)
        if nf > 0:
            rel = np.linalg.norm(N.T @ f) / nf
            if rel > EQUILIBRIUM_RTOL:
                raise FreeBodyError.unbalanced(structure.name, rel)
        held = held_dofs(N)
    if springs:
        emodel, kind_of, spring = spring_model(structure, model)
        flex = row_flexibility(structure, emodel, kind_of, spring, stiffness)
        solver = tol.Solver(structure, stiffness, counts, model=emodel, flex=flex, held=held)
    elif counts.M:      # loads that do no work on the mechanisms: these held, as the tolerance analysis does
        check_loads_carried(structure, counts)
        emodel, solver = model, tol.Solver(structure, stiffness, counts)
    else:
        emodel = model
        solver = tol.Solver(structure, stiffness, counts, model=model,
                            flex=tol.flexibility(structure, model, stiffness), held=held)
    if not springs:
        kind_of = np.array(["s"] * emodel.Cs.shape[0], dtype="<U1")
        for kind, rows in zip(structure.kinds, emodel.hinge_rows):
            kind_of[rows] = kind.hinge_row_kinds
        spring = np.zeros(len(kind_of), dtype=bool)
    mu, u = solver.solve(None, f, displacements=True)
    Cs = emodel.Cs
    eq = np.linalg.norm(Cs.T @ mu + f)
    scale = max(np.linalg.norm(f), 1e-300)
    d = slot_displacements(structure, emodel, u)
    big, rel_big = largest_displacement(d, emodel.L)
    info = {"form": form, "linalg": counts.linalg, "springs": springs, "displacement": big,
            "displacement_relative": rel_big, "equilibrium_residual": float(eq / scale if np.linalg.norm(f) else eq),
            "stiffness": stiffness.as_dict(), "solver": solver.method}
    if hinge_sensitivity:
        info["hinge_sensitivity"] = compliance.hinge_sensitivity(structure, solver, mu, kind_of, spring,
                                                                 counts.M == 0 and counts.S == 0)
    return StaticResult(structure, "reference", "elastic", counts.M, counts.S,
                        multiplier_actions(structure, emodel, mu), _reactions(structure, emodel, mu),
                        info["equilibrium_residual"], info=info, displacements=d)

