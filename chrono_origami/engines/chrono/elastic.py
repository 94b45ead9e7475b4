"""Statics with elastic hinges in Chrono (the Chrono engine's ``static --elastic``).

The hinges are the tolerance analysis's compliant links (``tolerance``): one
``ChLoadBodyBodyBushingGeneric`` per hinge, K_t on the locked translations,
K_r on the locked rotations (``structure.imperfections.HingeStiffness``), here
with no misfit. Why bushings and not links with compliance: Chrono 10's
``ChLinkMateGeneric`` has no compliance that its static analyses use (see
``tolerance``). Where M > 0 the bushings also carry the springs of the free
directions (C_r = k_c l about a free rotation, C_s = k_s l along a free
translation), as the reference engine's ``elastic`` does, so every relative
motion of two panels is resisted; supports stay rigid links; an unsupported
structure's rigid motions are held (``links.HeldCoordinates``) after its loads
are checked to balance.

The solve is Chrono's: ``ChStaticLinearAnalysis`` (one linear solve from the
reference configuration; the default, the linear theory of the reference
engine) or, with ``nonlinear``, ``ChStaticNonLinearAnalysis`` (Newton on the
bushings' exact, large-rotation forces: geometrically nonlinear; the loads
are brought in by steps, 1, 4, 16, 64, when the full load does not converge
at once). Forces are solved in the unit of ``tolerance.force_scale``.

``DoStaticAnalysis`` returns true whatever happens, so the residual is checked
here (``tolerance.equilibrium``: Chrono's generalised forces, bushings included,
with the reactions). After a nonlinear solve it must be below
``tolerance.residual_tolerance``. A linear solve is exact for the linearised
problem, but the residual is evaluated at the displaced pose, where the
bushings' exact forces differ from the linear ones by terms of the order of
the displacement over the structure's size d / L: it is accepted up to
max(``tolerance.residual_tolerance``, :data:`LINEAR_RESIDUAL` d / L).
"""
import dataclasses

import numpy as np

from ...results.counts import rigid_motions
from ...results.statics import StaticResult, hinge_actions
from ...structure import imperfections as imp
from ...tools.errors import FreeBodyError, SolverError
from ...tools.linalg import RANK_RTOL
from ..operator import EQUILIBRIUM_RTOL as BALANCE_RTOL
from ..operator import check_loads_carried, held_dofs, null_basis
from . import links as lk
from .statics import CONSTRAINT_TOL, count, static_analysis, support_reactions
from .tolerance import _COORDS, build, equilibrium, force_scale, hinge_wrenches, residual_tolerance

#: the linear solve: the loads are scaled so that the largest displacement is about this fraction of the size
LINEAR_DISPLACEMENT = 1e-6
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


def _scaled_loads(structure, factor):
    return dataclasses.replace(structure, loads=tuple(dataclasses.replace(ld, force=tuple(
        factor * np.asarray(ld.force, float))) for ld in structure.loads),
        gravity=None if structure.gravity is None else tuple(factor * np.asarray(structure.gravity, float)))


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
    eps = 1.0
    if not nonlinear:       # the loads scaled to where the response is linear (module doc)
        built, _ = build(structure, zero, stiffness, True, c, springs, held)
        static_analysis(built.system, "linear", "sparse_qr", 1, True, (list(built.supports) + built.held) or None,
                        length=L)
        d_est = displacement(built)[1]
        eps = min(1.0, LINEAR_DISPLACEMENT / d_est) if d_est > 0 else 1.0
    steps = 1
    while True:
        built, bushings = build(_scaled_loads(structure, eps / steps), zero, stiffness, True, c, springs, held)
        links = list(built.supports) + built.held
        first = [(f, f.GetMforce()) for _, f in built.loads]
        g0 = lk.arr(built.system.GetGravitationalAcceleration())
        for k in range(1, steps + 1):
            if k > 1:       # the next load step from the last equilibrium: the loads scaled in place
                for f, mag in first:
                    f.SetMforce(k * mag)
                built.system.SetGravitationalAcceleration(lk.vec(k * g0))
            static_analysis(built.system, "nonlinear", "sparse_qr", max_iterations, True, links or None, length=L)
        wrenches = hinge_wrenches(built, bushings)
        rel, viol, ref = equilibrium(built, wrenches, links)
        d, d_rel = displacement(built)
        tol = residual_tolerance(built, stiffness, ref / c)
        ok = np.isfinite(rel) and rel <= tol and viol <= CONSTRAINT_TOL
        if ok or steps >= MAX_STEPS or (structure.gravity is not None and any(built.nominal_mass)):
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
