"""Statics with elastic hinges in Chrono (the Chrono engine's ``static --elastic``).

Hinges as compliant links, in two forms of one model (K_t on the locked
translations, K_r on the locked rotations, ``structure.tolerance.HingeStiffness``;
where M > 0 also the springs of the free directions, C_r = k_c l about a free
rotation and C_s = k_s l along a free translation, as the reference engine's
``elastic``, so every relative motion of two panels is resisted; supports stay
rigid; an unsupported structure's rigid motions are held after its loads are
checked to balance).

* Linear (the default; the reference engine's linear theory): each hinge is
  its kind's ``ChLinkMateGeneric`` (the locked rows) and, with springs, a
  second ``ChLinkMateGeneric`` at the same frame locking the directions the
  kind frees; every row gets the compliance of its direction. Chrono's exact
  constraint Jacobian Cq of these links (``WriteSystemMatrices``, as the count
  reads it: ``statics.chrono_model``; rotation rows, which Chrono writes on the
  quaternion's vector part, 1/2 of the angle, rescaled to the angle) is the
  operator of the compliant rows, and the mixed system F mu + Cs u = 0,
  Cs^T mu = -f is solved by the engines' one saddle-point solver
  (``engines.compliance.Solver``, refined to a relative residual of 1e-10), as
  the count is Chrono's Jacobian with the engines' one rank rule. The hinge
  forces are the multipliers mu: every panel balances to round-off (Cs^T mu =
  -f), and the answer is the reference engine's to the agreement of the two
  Jacobians. Why not Chrono's static analyses of bushings (the form of
  ``--nonlinear``): the bushings' forces are K times poses computed from the
  bodies' absolute positions, and Chrono differentiates them numerically; where
  hinges of 1e8 N/m meet crease springs of 1 N m/rad their stiff deformations
  under a load small enough to be linear are 1e-14 of the size, a hundred ulps
  of the positions: Newton under loads scaled to a displacement of 1e-6 of the
  size agreed with the linear theory only to 8e-4 of the largest force on a
  Miura sheet with M = 1 (``benchmarks/chrono_compliant_hinges.py``; where M = 0
  and no crease springs, to 3e-8-1e-7 at displacements of 1e-8 of the size, but
  1e-5-7e-5 at a thousandth of those loads), and its panels balanced only to
  1e-7, and the finite-difference Jacobian (errors of 1e-8 K_t) cannot resolve
  the springs for one linear solve. Chrono's model is
  built once per structure (kept for the last few, by identity): the
  stiffness-sensitivity solves only refactor.
* ``nonlinear``: ``ChLoadBodyBodyBushingGeneric`` hinges (``tolerance``: the
  bushings' exact, large-rotation forces), Newton of
  ``ChStaticNonLinearAnalysis`` with a direct sparse solver (:data:`SOLVER`)
  under the full loads, which keep their direction while the panels turn
  (geometrically nonlinear); the loads come in by steps, 1, 4, 16, 64, when
  the full load does not converge at once. Forces are solved in the unit of
  ``tolerance.force_scale``. ``DoStaticAnalysis`` returns true whatever
  happens, so the residual is checked here (``tolerance.equilibrium``: Chrono's
  generalised forces, bushings included, with the reactions, in the deformed
  configuration) against ``tolerance.residual_tolerance`` (the round-off floor
  of stiff bushings, one body's, times sqrt(P) for the 2-norm over P bodies),
  and the supports' violation against ``statics.CONSTRAINT_TOL``.
"""
import dataclasses

import numpy as np
import scipy.sparse as sp

from ...results.count import rigid_motions
from ...results.static import StaticResult, hinge_actions
from ...structure import tolerance as imp
from ...tools.errors import FreeBodyError, SolverError
from ...tools.linalg import RANK_RTOL
from .. import compliance
from ..compatibility import EQUILIBRIUM_RTOL as BALANCE_RTOL
from ..compatibility import Model, _reactions, check_loads_carried, held_dofs, multiplier_actions, null_basis
from . import links as lk
from .static import CONSTRAINT_TOL, EQUILIBRIUM_RTOL, _row_kinds, chrono_model, count, static_analysis, \
    support_reactions
from .system import build_system
from .tolerance import _COORDS, build, equilibrium, force_scale, hinge_wrenches, residual_tolerance

#: Chrono's direct solver of the nonlinear solve: the bushings leave only the supports and holds as constraints,
#: independent rows, so ``ChSolverSparseLU`` (Eigen's SparseLU, fill-reducing ordering) solves them;
#: ``ChSolverSparseQR`` took 12.5 s on 256 panels and grows like the cube of the size
SOLVER = "sparse_lu"
#: Newton iterations of one nonlinear load step
MAX_ITERATIONS = 60
#: most load steps of the nonlinear continuation
MAX_STEPS = 64
#: the last few structures' compliant models (:func:`compliant_model`), by identity
_MODELS = []
_MODEL_CACHE = 4


def compliant_model(structure):
    """(Model, row kinds, spring mask): Chrono's operator of ``structure``'s hinges as compliant links (module doc):
    per hinge its kind's locked rows then the rows of its free directions, then the supports' rows; scaled
    variables of ``engines.compatibility``, every hinge row a unit relative rotation (rad) or translation (/ L) in the
    hinge link frame. Row kinds: "r", "t" on hinge rows, "s" on support rows; spring mask: True on the free rows.
    Kept for the last few structures (by identity)."""
    for st, kept in _MODELS:
        if st is structure:
            return kept
    bare = dataclasses.replace(structure, loads=(), gravity=None)
    built = build_system(bare, visual=False, use_tangent_stiffness=False)
    pat = structure.pattern
    mids, Rs = lk.hinge_link_frames(pat)
    classes = {}
    for h, (kind, hl) in enumerate(zip(structure.kinds, built.hinges)):
        if kind.name not in classes:
            sk = compliance.spring_kind(kind)
            classes[kind.name] = None if sk is None else lk.mate_class(sk)
        cls = classes[kind.name]
        if cls is None:
            continue
        p, q = pat.hinges[h].panels
        link = cls(False, f"hinge {h + 1} ({kind.name}): its free directions")
        link.Initialize(built.bodies[p], built.bodies[q], lk.chframe(mids[h], Rs[h]))
        built.system.AddLink(link)
        hl.links.append(link)
    model = chrono_model(built)
    m = model.Cs.shape[0]
    kind_of = np.full(m, "s", dtype="<U1")
    spring = np.zeros(m, dtype=bool)
    q_of = np.full(m, -1, dtype=np.int64)
    for h, (hl, rows) in enumerate(zip(built.hinges, model.hinge_rows)):
        kind_of[rows] = [k for link in hl.links for k in _row_kinds(link)]
        spring[rows.start + len(_row_kinds(hl.links[0])):rows.stop] = True
        q_of[rows] = pat.hinges[h].panels[1]
    # each hinge row's size on its panel q: |axis| on the rotation (rotation rows) or translation (translation
    # rows) columns; Chrono writes rotation rows on the quaternion's vector part (1/2)
    C = model.Cs.tocoo()
    on = q_of[C.row] >= 0
    on &= C.col // 6 == q_of[C.row]
    on &= (C.col % 6 < 3) == (kind_of[C.row] == "r")
    size = np.sqrt(np.bincount(C.row[on], C.data[on] ** 2, minlength=m))
    scale = np.ones(m)
    hinge = q_of >= 0
    scale[hinge] = 1.0 / size[hinge]
    Cs = sp.csr_matrix(sp.diags(scale) @ model.Cs)
    kept = (Model(Cs, model.x0, model.L, model.hinge_rows, model.support_rows, model.n_bodies), kind_of, spring)
    _MODELS.insert(0, (structure, kept))
    del _MODELS[_MODEL_CACHE:]
    return kept


def _without_springs(model, kind_of, spring):
    """``model`` without the rows of the free directions (module doc), with its row kinds and spring mask."""
    keep = ~spring
    new = np.cumsum(np.r_[0, keep]).astype(np.int64)      # new index of each old row boundary
    hinge_rows = [slice(int(new[r.start]), int(new[r.stop])) for r in model.hinge_rows]
    support_rows = [slice(int(new[r.start]), int(new[r.stop])) for r in model.support_rows]
    return (Model(model.Cs[keep], model.x0, model.L, hinge_rows, support_rows, model.n_bodies), kind_of[keep],
            spring[keep])


def _check_loads(structure, counts, springs):
    """Loads that the held coordinates would carry are refused: without springs, loads on the mechanisms; an
    unsupported structure's unbalanced loads."""
    if not springs:
        check_loads_carried(structure, counts)     # else the held coordinates would carry them
    elif not counts.supported:
        f = counts.model.generalized_forces(structure.panel_loads())
        nf = np.linalg.norm(f)
        if nf > 0:
            rel = np.linalg.norm(rigid_motions(counts.model.n_bodies).T @ f) / nf
            if rel > BALANCE_RTOL:
                raise FreeBodyError.unbalanced(structure.name, rel)


def _held_columns(counts, springs):
    """Scaled coordinates to hold: the rigid motions of an unsupported structure, and the mechanisms when there
    are no springs (``operator.held_dofs``)."""
    if springs:
        N = np.zeros((counts.n_dof, 0)) if counts.supported else rigid_motions(counts.model.n_bodies)
    else:
        N = null_basis(counts)
    return held_dofs(N)


def _held(counts, springs):
    """(x0, {panel: coordinates}) of :func:`_held_columns`, for ``links.HeldCoordinates``."""
    by_panel = {}
    for c in _held_columns(counts, springs):
        by_panel.setdefault(int(c) // 6, []).append(_COORDS[int(c) % 6])
    return counts.model.x0, {p: tuple(cs) for p, cs in sorted(by_panel.items())}


def displacement(built):
    """(n, 3): every panel vertex's displacement from the reference configuration (the slots of
    ``structure.tolerance.vertex_slots``, as ``compliance.slot_displacements``)."""
    pat = built.pattern
    out = [np.array([built.material_point(p, x) for x in pat.vertices[list(loop)]]) - pat.vertices[list(loop)]
           for p, loop in enumerate(pat.panels)]
    return np.concatenate(out) if out else np.zeros((0, 3))


def solve(structure, stiffness=None, nonlinear=False, counts=None, rtol=RANK_RTOL, linalg="auto", springs=None,
          form=None, max_iterations=MAX_ITERATIONS, hinge_sensitivity=False):
    """Hinge actions and reactions of ``structure`` with elastic hinges solved in Chrono (``results.StaticResult``,
    engine "chrono", status "elastic"; module doc). ``counts``: Chrono's counts of the structure (``statics.count``);
    ``springs``: the springs of the free directions (default: where M > 0). ``hinge_sensitivity``: the linear solve
    also gives ``compliance.hinge_sensitivity`` (the nonlinear solve does not). ``info`` and ``displacements`` as
    the reference engine's (``engines.reference.elastic.solve``), with ``nonlinear``, ``hinge_model``,
    ``residual_tolerance`` (and ``load_steps``, ``force_scale``, ``constraint_violation`` of the nonlinear solve)."""
    stiffness = stiffness or imp.HingeStiffness()
    counts = counts or count(structure, rtol=rtol, linalg=linalg)
    springs = counts.M > 0 if springs is None else bool(springs)
    _check_loads(structure, counts, springs)
    if nonlinear:
        return _nonlinear(structure, stiffness, counts, springs, max_iterations)
    model, kind_of, spring = compliant_model(structure)
    if not springs:
        model, kind_of, spring = _without_springs(model, kind_of, spring)
    flex = compliance.row_flexibility(structure, model, kind_of, spring, stiffness)
    held = _held_columns(counts, springs)
    solver = compliance.Solver(model, flex, held, structure.name)
    f = model.generalized_forces(structure.panel_loads())
    mu, u = solver.solve(None, f, displacements=True)
    nf = np.linalg.norm(f)
    eq = np.linalg.norm(model.Cs.T @ mu + f)
    rel = float(eq / nf) if nf > 0 else float(eq)
    if not rel <= EQUILIBRIUM_RTOL:
        raise SolverError(f"{structure.name}: the elastic-hinge solve on Chrono's Jacobian left a relative "
                          f"equilibrium residual of {rel:.3g} (tolerance {EQUILIBRIUM_RTOL:g})")
    actions = multiplier_actions(structure, model, mu)
    if not np.all(np.isfinite([a.values for a in actions])):
        raise SolverError(f"{structure.name}: Chrono's elastic statics gave non-finite hinge actions")
    disp = compliance.slot_displacements(structure, model, u)
    d, d_rel = compliance.largest_displacement(disp, model.L)
    info = {"springs": springs, "displacement": d, "displacement_relative": d_rel, "equilibrium_residual": rel,
            "residual_tolerance": EQUILIBRIUM_RTOL, "stiffness": stiffness.as_dict(), "nonlinear": False,
            "hinge_model": "ChLinkMateGeneric, compliant rows", "solver": solver.method,
            "held_coordinates": len(held), "linalg": counts.linalg}
    if hinge_sensitivity:
        info["hinge_sensitivity"] = compliance.hinge_sensitivity(structure, solver, mu, kind_of, spring,
                                                                 counts.M == 0 and counts.S == 0)
    return StaticResult(structure, "chrono", "elastic", counts.M, counts.S, actions,
                        _reactions(structure, model, mu), rel, info=info, displacements=disp)


def _nonlinear(structure, stiffness, counts, springs, max_iterations):
    """The geometrically nonlinear solve of :func:`solve` (module doc: bushings, Newton, load steps)."""
    held = _held(counts, springs)
    c = force_scale(structure, stiffness)
    zero = imp.Errors(np.zeros((len(structure.pattern.hinges), 2, 5)),
                      np.zeros((len(imp.vertex_slots(structure.pattern)), 3)))
    L = structure.pattern.size or 1.0
    built, bushings = build(structure, zero, stiffness, True, c, springs, held)
    links = list(built.supports) + built.held
    full = [(f, f.GetMforce()) for _, f in built.loads]

    def load_factor(x):
        """The loads at x times the structure's: in place, or (self-weight: the nominal weights of massless panels
        are cancelled by fixed forces made with the system) a system built anew."""
        nonlocal built, bushings, links
        if structure.gravity is None:
            for f, mag in full:
                f.SetMforce(x * mag)
            return
        g = tuple(x * np.asarray(structure.gravity, float))
        scaled = dataclasses.replace(structure, gravity=g, loads=tuple(dataclasses.replace(
            ld, force=tuple(x * np.asarray(ld.force, float))) for ld in structure.loads))
        built, bushings = build(scaled, zero, stiffness, True, c, springs, held)
        links = list(built.supports) + built.held

    steps = 1
    while True:
        built.set_configuration(structure.pattern.vertices)     # from the reference configuration
        for k in range(1, steps + 1):
            load_factor(k / steps)
            static_analysis(built.system, "nonlinear", SOLVER, max_iterations, True, links or None, length=L)
        wrenches = hinge_wrenches(built, bushings)
        rel, viol, ref = equilibrium(built, wrenches, links)
        tol = residual_tolerance(built, stiffness, ref / c)
        if tol > EQUILIBRIUM_RTOL:      # the round-off floor is one body's: over P bodies it adds like sqrt(P)
            tol *= np.sqrt(len(built.bodies))
        ok = np.isfinite(rel) and rel <= tol and viol <= CONSTRAINT_TOL
        if ok or steps >= MAX_STEPS:
            break
        steps *= 4
    if not ok:
        raise SolverError(f"{structure.name}: Chrono's nonlinear static analysis of the elastic hinges did not "
                          f"converge in {steps} load steps: relative equilibrium residual {rel:.3g} (tolerance "
                          f"{tol:.3g}), constraint violation {viol:.3g} (tolerance {CONSTRAINT_TOL:g})")
    wrenches = [(F / c, M / c) for F, M in wrenches]
    disp = displacement(built)
    d, d_rel = compliance.largest_displacement(disp, structure.pattern.size)
    actions = hinge_actions(structure.pattern, structure.hinge_kinds, wrenches)
    if not np.all(np.isfinite([a.values for a in actions])):
        raise SolverError(f"{structure.name}: Chrono's elastic statics gave non-finite hinge actions")
    supports = [dataclasses.replace(r, force=np.asarray(r.force) / c) for r in support_reactions(built)]
    info = {"springs": springs, "displacement": d, "displacement_relative": d_rel, "equilibrium_residual": rel,
            "residual_tolerance": tol, "constraint_violation": viol, "stiffness": stiffness.as_dict(),
            "nonlinear": True, "load_steps": steps, "hinge_model": "ChLoadBodyBodyBushingGeneric",
            "force_scale": c, "held_coordinates": sum(len(x) for x in held[1].values()), "linalg": counts.linalg}
    return StaticResult(structure, "chrono", "elastic", counts.M, counts.S, actions, supports, rel, info=info,
                        displacements=disp)
