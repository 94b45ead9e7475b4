"""Analyses with Chrono's own solvers: assembly, counting (M, S), statics, reactions.

Counting
--------
Chrono's constraint Jacobian Cq is written by ``ChSystem.WriteSystemMatrices``
(COO text, read with SciPy). Its columns are Chrono's body velocities (velocity
of the centre of mass, global frame; angular velocity, body frame); its rows
the links' scalar constraints. It is mapped to the reference engine's scaled
variables (``reference.model``: (omega, w / L) per body, w the velocity of the
body point at x0; translational rows divided by L, so every multiplier has
moment units): Cs = D Cq T. Rank decisions, mechanisms and self-stress states
then use the reference engine's :func:`~chrono_origami.reference.counting.count`
on this Chrono-derived operator: M and S come from Chrono's Jacobian alone.

Statics
-------
Determined structures (M = 0, S = 0) are solved by ``ChSystem.DoStaticAnalysis``
with ``ChStaticLinearAnalysis`` (default) or ``ChStaticNonLinearAnalysis``
(Newton with the constraint tangent stiffness Kc), always with a direct sparse
solver (``ChSolverSparseQR`` or ``ChSolverSparseLU``). ``DoStaticAnalysis``
returns true whatever happens, so after every solve the equilibrium residual
(recomputed here from the link reactions and the structure's loads) and the
constraint violation are checked; :class:`~chrono_origami.errors.SolverError`
when they are not small. Hinge actions come from ``GetReaction1``/``GetReaction2``
(links.py documents the frames): the action on the hinge's second panel q,
about the current position of the midpoint as a point of q, rotated back to
q's reference orientation, becomes ``results.hinge_actions``'s wrench (panel
p's row is the opposite action).

``form`` (the reference engine's name: "hinge" or "points") is accepted as an
alias of ``hinge_form`` ("mate" or "points"), so ``chrono_origami.analysis``
can pass the same keywords to both engines.

A structure whose statics is not determined raises
:class:`~chrono_origami.errors.IndeterminateError` (with M, S and the hinges
involved) unless ``allow_indeterminate=True``: then the answer is the
minimum-norm solution of Cs^T mu = -f on Chrono's Jacobian (Chrono's direct
solvers cannot give a minimum-norm answer for a singular KKT system), labelled
``status="minimum-norm"`` and returned with the self-stress states.

An unsupported structure is analysed with panel 1 welded to the ground (an
``AnchorLink``); its reaction must vanish (self-equilibrated loads).
"""
import os
import tempfile
from dataclasses import dataclass

import numpy as np
import pychrono as chrono
import scipy.sparse as sp

from ..errors import IndeterminateError, OrigamiError, SolverError, StructureError
from ..geometry import skew
from ..reference import counting as _counting
from ..reference import statics as _statics
from ..reference.model import Model
from ..results import StaticResult, SupportReaction, hinge_actions
from ..structure import Structure
from . import links as lk
from .system import build_system

#: relative equilibrium residual accepted after a Chrono solve (same measure as reference.statics)
EQUILIBRIUM_RTOL = 1e-8
#: constraint violation accepted after a solve: translations / L and rotations (quaternion parts), dimensionless
CONSTRAINT_TOL = 1e-9
SOLVERS = ("sparse_qr", "sparse_lu")
METHODS = ("linear", "nonlinear")

_EXIT_FLAGS = {chrono.ExitFlag_NOT_CONVERGED: "NOT_CONVERGED", chrono.ExitFlag_SUCCESS: "SUCCESS",
               chrono.ExitFlag_ABSTOL_RESIDUAL: "ABSTOL_RESIDUAL", chrono.ExitFlag_RELTOL_UPDATE: "RELTOL_UPDATE",
               chrono.ExitFlag_ABSTOL_UPDATE: "ABSTOL_UPDATE"}


# ------------------------------------------------------------------ constraint residual
def _row_kinds(link):
    """'t' (translation, length units) or 'r' (rotation) for each scalar constraint of ``link``, in row order.

    chrono-origami links (mate and lock) by their constrained coordinates; any other ``ChLinkMateGeneric``
    (motors included) by its constrained flags.
    """
    if isinstance(link, (lk._MateLink, lk._LockLink)):
        return ["r" if c.startswith("r") else "t" for c in link.constrained]
    mate = chrono.CastToChLinkMateGeneric(link)   # any other mate: motors, held vertices, Chrono-side proxies
    if mate is not None:
        flags = [mate.IsConstrainedX(), mate.IsConstrainedY(), mate.IsConstrainedZ(),
                 mate.IsConstrainedRx(), mate.IsConstrainedRy(), mate.IsConstrainedRz()]
        return [k for k, on in zip("tttrrr", flags) if on]
    raise TypeError(f"not a chrono-origami link nor a ChLinkMateGeneric: {link!r}")


def link_violation(link, L):
    """Largest scaled constraint violation of ``link``: |C_t| / L for translations, |C_r| for rotations."""
    C = link.GetConstraintViolation()
    kinds = _row_kinds(link)
    if C.Size() != len(kinds):
        raise SolverError(f"{link.GetName()}: {C.Size()} constraint residuals, expected {len(kinds)}")
    return max((abs(C.GetItem(i)) / (L if k == "t" else 1.0) for i, k in enumerate(kinds)), default=0.0)


def constraint_residual(built):
    """(largest scaled violation, name of that link) over the structure's links and the anchor, current state."""
    built.system.Update()
    L = built.pattern.size or 1.0
    items = built.structure_links() + ([built.anchor] if built.anchor is not None else [])
    values = [(link_violation(link, L), link.GetName()) for link in items]
    return max(values, key=lambda v: v[0], default=(0.0, None))


@dataclass
class AssemblyReport:
    """``exit_flag``: Chrono's ``AssemblyAnalysis::ExitFlag`` name; ``converged``: our own check,
    ``constraint_residual <= CONSTRAINT_TOL`` (Chrono's flag may say NOT_CONVERGED after a last, exact step)."""

    exit_flag: str
    converged: bool
    constraint_residual: float
    worst_link: str


def assemble(built, max_iterations=20, abstol_residual=1e-12, reltol_update=1e-12, abstol_update=1e-14,
             solver="sparse_qr"):
    """``DoAssembly`` at position level with a direct sparse solver; the exit flag and the largest scaled constraint violation after it."""
    built.system.SetSolver(_make_solver(solver))
    flag = built.system.DoAssembly(chrono.POSITION, max_iterations, abstol_residual, reltol_update, abstol_update)
    res, name = constraint_residual(built)
    name_flag = _EXIT_FLAGS.get(flag, str(flag))
    return AssemblyReport(name_flag, bool(res <= CONSTRAINT_TOL), res, name)


# ------------------------------------------------------------------ counting
def constraint_jacobian(system, workdir=None):
    """Chrono's constraint Jacobian Cq of ``system`` (SciPy CSR, all active constraints x all active variables).

    Written by ``ChSystem.WriteSystemMatrices`` (0-based COO) after ``Setup``
    and ``Update``, so the link Jacobians are those of the current state.
    """
    system.Setup()
    system.Update()
    nrow, ncol = system.GetNumConstraints(), system.GetNumCoordsVelLevel()
    with tempfile.TemporaryDirectory(dir=workdir) as d:
        prefix = os.path.join(d, "solve")
        system.WriteSystemMatrices(False, False, False, True, prefix, False)
        path = prefix + "_Cq.dat"
        data = np.loadtxt(path, ndmin=2) if os.path.getsize(path) else np.zeros((0, 3))
    if data.size and (data[:, 0].max() >= nrow or data[:, 1].max() >= ncol):
        raise SolverError(f"Chrono's Cq file has entries beyond {nrow} x {ncol}")
    return sp.csr_matrix((data[:, 2], (data[:, 0].astype(int), data[:, 1].astype(int))), shape=(nrow, ncol))


def chrono_model(built, workdir=None):
    """The reference-engine :class:`~chrono_origami.reference.model.Model` made from Chrono's Cq (see module doc)."""
    pat = built.pattern
    X = pat.vertices
    x0 = X.mean(axis=0)
    L = pat.size or 1.0
    Cq = constraint_jacobian(built.system, workdir).tocsc()
    P = pat.n_panels
    # columns: Chrono (v_com, omega_local) of body i  <-  reference (omega, w / L) at x0
    cols, T = [], []
    for p, body in enumerate(built.bodies):
        off = body.GetOffset_w()
        cols.extend(range(off, off + 6))
        r = lk.arr(body.GetPos()) - x0
        Rb = lk.rotation(body)
        Ti = np.zeros((6, 6))
        Ti[:3, :3] = -skew(r)
        Ti[:3, 3:] = L * np.eye(3)
        Ti[3:, :3] = Rb.T
        T.append(Ti)
    # rows: the structure's links, hinge by hinge then supports; translational rows / L
    rows, scale, hinge_rows, support_rows = [], [], [], []
    r0 = 0
    for hl in built.hinges:
        start = r0
        for link in hl.links:
            off, kinds = link.GetOffset_L(), _row_kinds(link)
            rows.extend(range(off, off + len(kinds)))
            scale.extend(1.0 / L if k == "t" else 1.0 for k in kinds)
            r0 += len(kinds)
        hinge_rows.append(slice(start, r0))
    for link in built.supports:
        off, kinds = link.GetOffset_L(), _row_kinds(link)
        rows.extend(range(off, off + len(kinds)))
        scale.extend(1.0 / L for _ in kinds)
        support_rows.append(slice(r0, r0 + len(kinds)))
        r0 += len(kinds)
    sub = Cq[rows][:, cols]
    Cs = sp.diags(scale) @ sub @ sp.block_diag(T)
    Cs = sp.csr_matrix(Cs)
    Cs.eliminate_zeros()
    return Model(Cs, x0, L, hinge_rows, support_rows, P)


def _check_structure(structure):
    if not isinstance(structure, Structure):
        raise StructureError(f"the chrono engine expects a chrono_origami Structure, got {type(structure).__name__}")


def _hinge_form(hinge_form, form):
    if form is None:
        return hinge_form
    aliases = {"hinge": "mate", "points": "points"}
    if form not in aliases:
        raise ValueError(f"unknown form {form!r}; expected 'hinge' or 'points' (or hinge_form 'mate', 'lock', 'points')")
    return aliases[form]


def count(structure, hinge_form="mate", rtol=_counting.RANK_RTOL, built=None, workdir=None, form=None):
    """Numeric M and S (``reference.counting.Counts``) from Chrono's own constraint Jacobian.

    ``built``: count an existing :class:`~.system.ChronoStructure` (its
    current configuration) instead of building ``structure`` anew.
    """
    hinge_form = _hinge_form(hinge_form, form)
    if built is None:
        built = build_system(structure, hinge_form=hinge_form, visual=False)
    model = chrono_model(built, workdir)
    counts = _counting.count(built.structure, rtol=rtol, model=model)
    return counts


# ------------------------------------------------------------------ statics
def _make_solver(solver):
    if solver == "sparse_qr":
        s = chrono.ChSolverSparseQR()
    elif solver == "sparse_lu":
        s = chrono.ChSolverSparseLU()
    else:
        raise ValueError(f"unknown solver {solver!r}; expected one of {SOLVERS} (direct sparse solvers only)")
    s.LockSparsityPattern(False)
    return s


def _body_wrenches(built):
    """Per panel: (force, moment about x0) of the structure's loads and of every link, current configuration."""
    pat = built.pattern
    x0 = pat.vertices.mean(axis=0)
    P = pat.n_panels
    load = np.zeros((P, 6))
    for p, x, F in built.structure.panel_loads():
        F = np.asarray(F, float)
        xc = built.material_point(p, x)
        load[p, :3] += np.cross(xc - x0, F)
        load[p, 3:] += F
    react = np.zeros((P, 6))
    for hl in built.hinges:
        p, q = pat.hinges[hl.hinge].panels
        for link, qs in zip(hl.links, hl.q_sides):
            for side, panel in ((qs, q), (3 - qs, p)):
                F, M = lk.wrench_about(link, side, x0)
                react[panel] += np.concatenate([M, F])
    for s, link in zip(built.structure.supports, built.supports):
        F, M = lk.wrench_about(link, 1, x0)
        react[s.panel] += np.concatenate([M, F])
    if built.anchor is not None:
        F, M = lk.wrench_about(built.anchor, 1, x0)
        react[0] += np.concatenate([M, F])
    return load, react


def equilibrium_residual(built):
    """Relative residual |sum of loads and reactions| / |loads| in the reference scaling (moment about x0, L x force)."""
    L = built.pattern.size or 1.0
    load, react = _body_wrenches(built)
    scale = np.array([1, 1, 1, L, L, L], float)
    f = (load * scale).ravel()
    r = ((load + react) * scale).ravel()
    nf = np.linalg.norm(f)
    rel = np.linalg.norm(r) / nf if nf > 0 else np.linalg.norm(r)
    worst = int(np.argmax(np.linalg.norm((load + react) * scale, axis=1)))
    return rel, worst


def run_static(built, method="linear", solver="sparse_qr", max_iterations=50, use_tangent_stiffness=True):
    """Run Chrono's static analysis on ``built`` and return (constraint violation, its link, equilibrium residual, worst panel).

    No checks here (see :func:`static`): ``DoStaticAnalysis`` returns true
    whatever happens, so its outcome is only known from these residuals.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {METHODS}")
    system = built.system
    system.SetSolver(_make_solver(solver))
    if method == "linear":
        analysis = chrono.ChStaticLinearAnalysis()
    else:
        analysis = chrono.ChStaticNonLinearAnalysis()
        analysis.SetMaxIterations(int(max_iterations))
        analysis.SetCorrectionTolerance(1e-12, 1e-14)
    built.set_tangent_stiffness(use_tangent_stiffness)
    system.DoStaticAnalysis(analysis)
    viol, vlink = constraint_residual(built)
    rel, worst = equilibrium_residual(built)
    return viol, vlink, rel, worst


def static(structure, allow_indeterminate=False, hinge_form="mate", method="linear", solver="sparse_qr",
           use_tangent_stiffness=True, max_iterations=50, rtol=_counting.RANK_RTOL, built=None, form=None):
    """Hinge internal actions and support reactions computed in Chrono (``results.StaticResult``, engine "chrono").

    hinge_form: "mate", "lock" or "points" (see ``system.build_system``);
    method: "linear" (``ChStaticLinearAnalysis``) or "nonlinear"
    (``ChStaticNonLinearAnalysis``, Newton, with Kc when
    ``use_tangent_stiffness``); solver: "sparse_qr" or "sparse_lu".
    ``built``: analyse an existing ``ChronoStructure`` (e.g. one whose bodies
    were moved off the reference configuration, for the nonlinear analysis).
    """
    hinge_form = _hinge_form(hinge_form, form)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {METHODS}")
    if not (isinstance(max_iterations, (int, np.integer)) and max_iterations >= 1):
        raise ValueError(f"max_iterations must be a positive integer, got {max_iterations!r}")
    _make_solver(solver)   # validates the name before any work
    if built is None:
        _check_structure(structure)
        built = build_system(structure, hinge_form=hinge_form, use_tangent_stiffness=use_tangent_stiffness,
                             visual=False, anchor=not structure.supports)
    structure = built.structure
    counts = count(structure, rtol=rtol, built=built)
    if not counts.isostatic:
        if not allow_indeterminate:
            raise IndeterminateError(
                f"{structure.name}: the static problem is not determined (M = {counts.M} mechanisms, "
                f"S = {counts.S} self-stress states, from Chrono's constraint Jacobian); pass "
                f"allow_indeterminate=True for the labelled minimum-norm solution", counts.M, counts.S,
                _statics.describe_indeterminacy(structure, counts))
        res = _statics.solve(structure, allow_indeterminate=True, rtol=rtol, counts=counts)
        res.engine = "chrono"
        res.info.update({"hinge_form": built.hinge_form, "solver": "minimum-norm least squares on Chrono's Cq"})
        return res
    viol, vlink, rel, worst = run_static(built, method, solver, max_iterations, use_tangent_stiffness)
    what = f"{structure.name} ({method} static analysis, {solver}, {built.hinge_form} hinges)"
    if not np.isfinite(viol) or viol > CONSTRAINT_TOL:
        raise SolverError(f"{what}: the solve did not converge: constraint violation {viol:.3g} at {vlink} "
                          f"(tolerance {CONSTRAINT_TOL:g}; translations / L, rotations as quaternion parts)")
    if not np.isfinite(rel) or rel > EQUILIBRIUM_RTOL:
        raise SolverError(f"{what}: the solve did not converge: relative equilibrium residual {rel:.3g}, "
                          f"largest on panel {worst + 1} (tolerance {EQUILIBRIUM_RTOL:g})")
    return _result(built, counts, method, solver, viol, rel)


def _result(built, counts, method, solver, viol, rel):
    structure = built.structure
    pat = structure.pattern
    wrenches = []
    for hl in built.hinges:
        h = hl.hinge
        a, b = pat.hinges[h].vertices
        q = pat.hinges[h].panels[1]
        mid = 0.5 * (pat.vertices[a] + pat.vertices[b])
        mid_now = built.material_point(q, mid)
        Rq = built.panel_rotation(q)
        F = np.zeros(3)
        M = np.zeros(3)
        for link, qs in zip(hl.links, hl.q_sides):
            f, m = lk.wrench_about(link, qs, mid_now)
            F += f
            M += m
        # back to q's reference orientation (the rows are in the panel's own frame)
        wrenches.append((Rq.T @ F, Rq.T @ M))
    actions = hinge_actions(pat, structure.hinge_kinds, wrenches)
    supports = []
    for k, (s, link) in enumerate(zip(structure.supports, built.supports)):
        F, _, _ = lk.reaction_on(link, 1)
        supports.append(SupportReaction(k, s.vertex, s.panel, s.dofs, F))
    info = {"hinge_form": built.hinge_form, "method": method, "solver": solver,
            "constraint_violation": viol, "gap": counts.gap}
    if built.anchor is not None:
        F, M, _ = lk.reaction_on(built.anchor, 1)
        L = pat.size or 1.0
        load, _ = _body_wrenches(built)
        scale = max(np.linalg.norm(load * np.array([1, 1, 1, L, L, L])), 1e-300)
        anchor_rel = np.linalg.norm(np.concatenate([M, L * F])) / scale
        info["anchor_reaction_rel"] = anchor_rel
        if anchor_rel > EQUILIBRIUM_RTOL and np.linalg.norm(load) > 0:
            raise OrigamiError(f"{structure.name}: the structure has no supports and its loads are not "
                               f"self-equilibrated (relative resultant {anchor_rel:.3g}); add supports")
    return StaticResult(structure, "chrono", "determined", counts.M, counts.S, actions, supports, rel, info=info)
