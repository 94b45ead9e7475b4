"""Statics with elastic hinges in Chrono (the Chrono engine's ``static --elastic``).

The hinges are the tolerance analysis's compliant links (``tolerance``): one
``ChLoadBodyBodyBushingGeneric`` per hinge, K_t on the locked translations,
K_r on the locked rotations (``structure.tolerance.HingeStiffness``), here
with no misfit. Why bushings and not links with compliance: Chrono 10's
``ChLinkMateGeneric`` has no compliance that its static analyses use (see
``tolerance``). Where M > 0 the bushings also carry the springs of the free
directions (C_r = k_c l about a free rotation, C_s = k_s l along a free
translation), as the reference engine's ``elastic`` does, so every relative
motion of two panels is resisted; supports stay rigid links; an unsupported
structure's rigid motions are held (``links.HeldCoordinates``) after its loads
are checked to balance.

The solve is Chrono's static analysis with a direct sparse solver (:data:`SOLVER`).

* Linear (the default; the reference engine's linear theory): Chrono's
  Jacobian of the bushings is a finite difference, too coarse for one linear
  solve where stiff hinges meet soft springs (a mechanism sheet's crease
  springs: a residual of 3 % after ``ChStaticLinearAnalysis``). So the linear
  answer is the limit of small loads, found by Chrono's Newton solver
  (``ChStaticNonLinearAnalysis``, whose residual uses the exact forces): one
  ``ChStaticLinearAnalysis`` estimates the largest displacement d under the
  loads, the loads are scaled by eps = min(1, :data:`LINEAR_DISPLACEMENT` L / d),
  Newton solves, and forces, reactions and displacement are divided by eps.
* ``nonlinear``: Newton under the full loads, which keep their direction
  while the panels turn (the bushings' exact, large-rotation forces:
  geometrically nonlinear); the loads are brought in by steps, 1, 4, 16, 64,
  when the full load does not converge at once.

Forces are solved in the unit of ``tolerance.force_scale``.
``DoStaticAnalysis`` returns true whatever happens, so the residual is checked
here (``tolerance.equilibrium``: Chrono's generalised forces, bushings included,
with the reactions) against ``tolerance.residual_tolerance`` (the round-off
floor of stiff bushings, one body's, times sqrt(P) for the 2-norm over P
bodies: where hinges of 1e8 N/m meet crease springs of
1 N m/rad the engines agree to about 5e-4 of the largest force, with crease
springs of 1e5 to 2e-7), and the supports' violation against
``statics.CONSTRAINT_TOL``.
"""
import dataclasses

import numpy as np

from ...results.count import rigid_motions
from ...results.static import StaticResult, hinge_actions
from ...structure import tolerance as imp
from ...tools.errors import FreeBodyError, SolverError
from ...tools.linalg import RANK_RTOL
from ..compatibility import EQUILIBRIUM_RTOL as BALANCE_RTOL
from ..compatibility import check_loads_carried, held_dofs, null_basis
from . import links as lk
from .static import CONSTRAINT_TOL, EQUILIBRIUM_RTOL, count, static_analysis, support_reactions
from .tolerance import _COORDS, build, equilibrium, force_scale, hinge_wrenches, residual_tolerance

#: the linear solve: the loads are scaled so that the largest displacement is about this fraction of the size
LINEAR_DISPLACEMENT = 1e-6
#: Chrono's direct solver: the bushings leave only the supports and holds as constraints, independent rows, so
#: ``ChSolverSparseLU`` (Eigen's SparseLU, fill-reducing ordering) solves them; ``ChSolverSparseQR`` took 12.5 s
#: on 256 panels and grows like the cube of the size
SOLVER = "sparse_lu"
#: Newton iterations of one nonlinear load step
MAX_ITERATIONS = 60
#: most load steps of the nonlinear continuation
MAX_STEPS = 64


def _held(counts, springs):
    """(x0, {panel: coordinates}) to hold: the rigid motions of an unsupported structure, and the mechanisms when
    there are no springs (``operator.held_dofs``)."""
    if springs:
        N = np.zeros((counts.n_dof, 0)) if counts.supported else rigid_motions(counts.model.n_bodies)
    else:
        N = null_basis(counts)
    by_panel = {}
    for c in held_dofs(N):
        by_panel.setdefault(int(c) // 6, []).append(_COORDS[int(c) % 6])
    return counts.model.x0, {p: tuple(cs) for p, cs in sorted(by_panel.items())}


def displacement(built):
    """(largest |displacement| of a panel vertex from the reference configuration, over the structure's size)."""
    pat = built.pattern
    big = 0.0
    for p, loop in enumerate(pat.panels):
        X = pat.vertices[list(loop)]
        now = np.array([built.material_point(p, x) for x in X])
        big = max(big, float(np.linalg.norm(now - X, axis=1).max()))
    return big, big / (pat.size or 1.0)


def solve(structure, stiffness=None, nonlinear=False, counts=None, rtol=RANK_RTOL, linalg="auto", springs=None,
          form=None, max_iterations=MAX_ITERATIONS):
    """Hinge actions and reactions of ``structure`` with elastic hinges solved in Chrono (``results.StaticResult``,
    engine "chrono", status "elastic"; module doc). ``counts``: Chrono's counts of the structure (``statics.count``);
    ``springs``: the springs of the free directions (default: where M > 0). ``info`` as the reference engine's
    (``engines.reference.elastic.solve``), with ``nonlinear``, ``load_steps``, ``residual_tolerance``."""
    stiffness = stiffness or imp.HingeStiffness()
    counts = counts or count(structure, rtol=rtol, linalg=linalg)
    springs = counts.M > 0 if springs is None else bool(springs)
    if not springs:
        check_loads_carried(structure, counts)     # else the held coordinates would carry them
    elif not counts.supported:
        f = counts.model.generalized_forces(structure.panel_loads())
        nf = np.linalg.norm(f)
        if nf > 0:
            rel = np.linalg.norm(rigid_motions(counts.model.n_bodies).T @ f) / nf
            if rel > BALANCE_RTOL:
                raise FreeBodyError.unbalanced(structure.name, rel)
    held = _held(counts, springs)
    c = force_scale(structure, stiffness)
    zero = imp.Errors(np.zeros((len(structure.pattern.hinges), 2, 5)),
                      np.zeros((len(imp.vertex_slots(structure.pattern)), 3)))
    L = structure.pattern.size or 1.0
    method = "nonlinear" if nonlinear else "linear"
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

    eps = 1.0
    if not nonlinear:       # the loads scaled to where the response is linear (module doc)
        static_analysis(built.system, "linear", SOLVER, 1, True, links or None, length=L)
        d_est = displacement(built)[1]
        eps = min(1.0, LINEAR_DISPLACEMENT / d_est) if d_est > 0 else 1.0
    steps = 1
    while True:
        built.set_configuration(structure.pattern.vertices)     # from the reference configuration
        for k in range(1, steps + 1):
            load_factor(eps * k / steps)
            static_analysis(built.system, "nonlinear", SOLVER, max_iterations, True, links or None, length=L)
        wrenches = hinge_wrenches(built, bushings)
        rel, viol, ref = equilibrium(built, wrenches, links)
        d, d_rel = displacement(built)
        tol = residual_tolerance(built, stiffness, ref / c)
        if tol > EQUILIBRIUM_RTOL:      # the round-off floor is one body's: over P bodies it adds like sqrt(P)
            tol *= np.sqrt(len(built.bodies))
        ok = np.isfinite(rel) and rel <= tol and viol <= CONSTRAINT_TOL
        if ok or steps >= MAX_STEPS or not nonlinear:      # load steps only for the nonlinear solve
            break
        steps *= 4
    if not ok:
        raise SolverError(f"{structure.name}: Chrono's {method} static analysis of the elastic hinges did not "
                          f"converge{f' in {steps} load steps' if nonlinear else ''}: relative equilibrium residual "
                          f"{rel:.3g} (tolerance {tol:.3g}), constraint violation {viol:.3g} (tolerance "
                          f"{CONSTRAINT_TOL:g})")
    wrenches = [(F / (c * eps), M / (c * eps)) for F, M in wrenches]
    d, d_rel = d / eps, d_rel / eps
    actions = hinge_actions(structure.pattern, structure.hinge_kinds, wrenches)
    if not np.all(np.isfinite([a.values for a in actions])):
        raise SolverError(f"{structure.name}: Chrono's elastic statics gave non-finite hinge actions")
    supports = [dataclasses.replace(r, force=np.asarray(r.force) / (c * eps)) for r in support_reactions(built)]
    info = {"springs": springs, "displacement": d, "displacement_relative": d_rel, "equilibrium_residual": rel,
            "residual_tolerance": tol, "constraint_violation": viol, "stiffness": stiffness.as_dict(),
            "nonlinear": bool(nonlinear), "load_steps": steps, "load_factor": eps, "hinge_model": "ChLoadBodyBodyBushingGeneric",
            "force_scale": c, "held_coordinates": sum(len(x) for x in held[1].values()), "linalg": counts.linalg}
    return StaticResult(structure, "chrono", "elastic", counts.M, counts.S, actions, supports, rel, info=info)
