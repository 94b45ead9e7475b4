"""Analyses with Chrono's own solvers: assembly, counting (M, S), statics, reactions.

Counting
--------
Chrono's constraint Jacobian Cq is written by ``ChSystem.WriteSystemMatrices``
(COO text, read with SciPy). Its columns are Chrono's body velocities (velocity
of the centre of mass, global frame; angular velocity, body frame); its rows
the links' scalar constraints. It is mapped to the reference engine's scaled
variables (``engines.compatibility``: (omega, w / L) per body, w the velocity of the
body point at x0; translational rows divided by L, so every multiplier has
moment units): Cs = D Cq T. Rank decisions, mechanisms and self-stress states
then use the engine-neutral :func:`~chrono_origami.engines.compatibility.count`
on this Chrono-derived operator: M and S come from Chrono's Jacobian alone.

Statics
-------
Determined structures (M = 0, S = 0) are solved by ``ChSystem.DoStaticAnalysis``
with ``ChStaticLinearAnalysis`` (default) or ``ChStaticNonLinearAnalysis``
(Newton with the constraint tangent stiffness Kc), always with a direct sparse
solver (``ChSolverSparseQR`` or ``ChSolverSparseLU``), through :func:`static_analysis`,
the one static driver (the modal analysis uses it too). ``DoStaticAnalysis``
returns true whatever happens, so after every solve the equilibrium residual
(recomputed here from Chrono's generalised forces and constraint forces,
:class:`Equilibrium`) and the constraint violation are checked;
:class:`~chrono_origami.tools.errors.SolverError` when they are not small. Hinge actions come from ``GetReaction1``/``GetReaction2``
(links.py documents the frames): the action on the hinge's second panel q,
about the current position of the midpoint as a point of q, rotated back to
q's reference orientation, becomes ``results.static.hinge_actions``'s wrench (panel
p's row is the opposite action).

``form`` (the reference engine's name: "hinge" or "points") is accepted as an
alias of ``hinge_form`` ("mate" or "points"), so ``chrono_origami.analysis.static``
can pass the same keywords to both engines.

A structure whose statics is not determined raises
:class:`~chrono_origami.tools.errors.IndeterminateError` (with M, S and the hinges
involved) unless ``allow_indeterminate=True``: then the answer is the
minimum-norm solution of Cs^T mu = -f on Chrono's Jacobian
(:func:`chrono_origami.engines.compatibility.solve`: Chrono's direct solvers
cannot give a minimum-norm answer for a singular KKT system), labelled
``status="minimum-norm"`` and returned with the self-stress states.

An unsupported structure is analysed with panel 1 welded to the ground (an
``AnchorLink``); its reaction must vanish (self-equilibrated loads).
"""
from dataclasses import dataclass

import numpy as np
import pychrono as chrono
import scipy.sparse as sp

from ...results.count import counts_text
from ...results.static import StaticResult, SupportReaction, hinge_actions
from ...structure.structure import Structure
from ...tools.errors import FreeBodyError, IndeterminateError, SolverError, StructureError
from ...tools.geometry import skew
from ...tools.linalg import RANK_RTOL
from ...tools.progress import Stages
from .. import compatibility as operator
from ..compatibility import Model
from . import links as lk
from .matrices import active_bodies, generalized_forces, length_scale, raw_matrices, system_matrices
from .system import build_system

#: relative equilibrium residual accepted after a Chrono solve (:class:`Equilibrium`)
EQUILIBRIUM_RTOL = 1e-8
#: constraint violation accepted after a solve: translations / L and rotations (quaternion parts), dimensionless
CONSTRAINT_TOL = 1e-9
#: Newton's stopping test in ``ChStaticNonLinearAnalysis`` (correction test, :func:`static_analysis`)
NEWTON_RELTOL = 1e-12
NEWTON_ABSTOL = 1e-14
#: most Newton iterations of a static analysis (:func:`static_analysis`)
MAX_ITERATIONS = 50
SOLVERS = ("auto", "sparse_qr", "sparse_lu")
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


def largest_violation(links, L):
    """(largest scaled violation, name of that link) over ``links`` (proxies from ``system.GetLinks()`` too)
    with constraint rows, scaled as :func:`link_violation`; (0, None) when there is none."""
    values = [(link_violation(lk.python_link(link) or link, L), link.GetName())
              for link in links if link.GetConstraintViolation().Size()]
    return max(values, key=lambda v: v[0], default=(0.0, None))


def structure_links(built):
    """The links of a built structure: hinges, supports and the anchor (when there is one)."""
    return built.structure_links() + ([built.anchor] if built.anchor is not None else [])


def constraint_residual(built):
    """(largest scaled violation, name of that link) over the structure's links and the anchor, current state."""
    built.system.Update()
    return largest_violation(structure_links(built), built.pattern.size or 1.0)


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

    Written by ``ChSystem.WriteSystemMatrices`` (:func:`.matrices.raw_matrices`)
    after ``Setup`` and ``Update``, so the link Jacobians are those of the current state.
    """
    return raw_matrices(system, workdir, damping=False, mass=False, stiffness=False)[3]


def chrono_model(built, workdir=None):
    """The :class:`~chrono_origami.engines.compatibility.Model` made from Chrono's Cq (see module doc)."""
    pat = built.pattern
    X = pat.vertices
    x0 = X.mean(axis=0)
    L = pat.size or 1.0
    Cq = constraint_jacobian(built.system, workdir).tocsc()
    P = pat.n_panels
    # columns: Chrono (v_com, omega_local) of body i  <-  reference (omega, w / L) at x0:
    # v_com = -[r] omega + L (w / L), omega_local = R^T omega, r = com - x0
    off = np.array([body.GetOffset_w() for body in built.bodies], dtype=np.int64)
    r = np.array([lk.arr(body.GetPos()) for body in built.bodies]).reshape(P, 3) - x0
    Rb = np.array([lk.rotation(body) for body in built.bodies]).reshape(P, 3, 3)
    T = np.zeros((P, 6, 6))
    T[:, :3, :3] = -skew(r)
    T[:, :3, 3:] = L * np.eye(3)
    T[:, 3:, :3] = np.transpose(Rb, (0, 2, 1))
    cols = (off[:, None] + np.arange(6)).ravel()
    bi = (6 * np.arange(P)[:, None, None] + np.arange(6)[None, :, None]).repeat(6, axis=2)
    bj = (6 * np.arange(P)[:, None, None] + np.arange(6)[None, None, :]).repeat(6, axis=1)
    Tm = sp.csr_matrix((T.ravel(), (bi.ravel(), bj.ravel())), shape=(6 * P, 6 * P))
    # rows: the structure's links, hinge by hinge then supports; translational rows / L
    groups = [list(hl.links) for hl in built.hinges] + [[link] for link in built.supports]
    n_hinges = len(built.hinges)
    offs, kinds, sizes = [], [], []
    for links in groups:
        size = 0
        for link in links:
            k = _row_kinds(link)
            offs.append(np.arange(link.GetOffset_L(), link.GetOffset_L() + len(k)))
            kinds.extend(k)
            size += len(k)
        sizes.append(size)
    rows = np.concatenate(offs) if offs else np.zeros(0, dtype=np.int64)
    scale = np.where(np.array(kinds) == "t", 1.0 / L, 1.0) if kinds else np.zeros(0)
    start = np.r_[0, np.cumsum(sizes)].astype(np.int64)
    hinge_rows = [slice(int(start[g]), int(start[g + 1])) for g in range(n_hinges)]
    support_rows = [slice(int(start[g]), int(start[g + 1])) for g in range(n_hinges, len(groups))]
    sub = Cq[rows][:, cols]
    Cs = sp.csr_matrix(sp.diags(scale) @ sub @ Tm)
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


def count(structure, hinge_form="mate", rtol=RANK_RTOL, built=None, workdir=None, form=None, linalg="auto"):
    """Numeric M and S (``results.count.Counts``) from Chrono's own constraint Jacobian (``operator.count``).

    ``built``: count an existing :class:`~.system.ChronoStructure` (its
    current configuration) instead of building ``structure`` anew.
    """
    hinge_form = _hinge_form(hinge_form, form)
    if built is None:
        built = build_system(structure, hinge_form=hinge_form, visual=False)
    model = chrono_model(built, workdir)
    with Stages("counting M and S") as stage:
        return operator.count(model, len(built.structure.supports) > 0, rtol, linalg, stage, built.structure.pattern)


# ------------------------------------------------------------------ statics
def choose_solver(solver, independent):
    """The direct sparse solver for ``solver`` ("auto", "sparse_qr", "sparse_lu") on a KKT system whose
    constraints are ``independent`` (full row rank of Cq): "auto" takes ``ChSolverSparseLU`` then
    (much faster: 0.3 s instead of 12 s on a 400-panel strip, 2,400 unknowns) and ``ChSolverSparseQR``
    (redundant constraints allowed) otherwise."""
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; expected one of {SOLVERS} (direct sparse solvers only)")
    if solver == "auto":
        return "sparse_lu" if independent else "sparse_qr"
    return solver


def _make_solver(solver):
    if solver == "sparse_qr":
        s = chrono.ChSolverSparseQR()
    elif solver == "sparse_lu":
        s = chrono.ChSolverSparseLU()
    else:
        raise ValueError(f"unknown solver {solver!r}; expected one of {SOLVERS} (direct sparse solvers only)")
    s.LockSparsityPattern(False)
    return s


def _load_wrenches(built):
    """Per panel: (moment about x0, force) of the structure's loads, current configuration (P x 6)."""
    pat = built.pattern
    x0 = pat.vertices.mean(axis=0)
    load = np.zeros((pat.n_panels, 6))
    for p, x, F in built.structure.panel_loads():
        F = np.asarray(F, float)
        xc = built.material_point(p, x)
        load[p, :3] += np.cross(xc - x0, F)
        load[p, 3:] += F
    return load


@dataclass
class Equilibrium:
    """A static state measured (``DoStaticAnalysis`` returns true whatever happens): the one equilibrium check.

    residual: |F + Cq^T L| / max(|F|, |Cq^T L|, f0), F the applied generalised
    forces (gravity, ``ChForce``, ``ChLoad``), Cq^T L the constraint forces,
    per body (force x ``length``, torque in the body frame), so that every
    row is a moment; f0 = 1e-6 x total mass x |g| (1 without gravity) x
    length, the scale of an unloaded system. violation: largest constraint
    residual (translations / ``length``, rotations as quaternion parts) and
    worst_link its link; worst_body: the body with the largest residual.
    converged: residual <= :data:`EQUILIBRIUM_RTOL` and violation <= :data:`CONSTRAINT_TOL`.
    """

    converged: bool
    residual: float
    violation: float
    worst_body: str
    length: float
    use_tangent_stiffness: bool
    worst_link: str = None

    def check(self, what="the static analysis"):
        """Raise :class:`~chrono_origami.tools.errors.SolverError` naming what failed unless ``converged``; returns self."""
        if self.converged:
            return self
        bad = []
        if not self.violation <= CONSTRAINT_TOL:
            bad.append(f"constraint violation {self.violation:.3g} at {self.worst_link} (tolerance "
                       f"{CONSTRAINT_TOL:g}; translations / L, rotations as quaternion parts)")
        if not self.residual <= EQUILIBRIUM_RTOL:
            bad.append(f"relative equilibrium residual {self.residual:.3g}, largest on {self.worst_body} "
                       f"(tolerance {EQUILIBRIUM_RTOL:g})")
        hint = ("" if self.use_tangent_stiffness is not False else
                "; without the constraint tangent stiffness Kc, Newton's matrix has no stiffness along the "
                "mechanisms that the loads work on")
        raise SolverError(f"{what} did not converge: {'; '.join(bad)}{hint}")


def check_equilibrium(system, length=None, use_tangent_stiffness=None, links=None):
    """:class:`Equilibrium` of the current state of ``system`` (no solve).

    ``length``: default the size of the system (:func:`.matrices.length_scale`);
    ``links``: those whose violation counts (default: every link of the system).
    """
    system.Setup()
    system.Update()
    bodies = active_bodies(system)
    ell = length or length_scale(system)
    F, CL = generalized_forces(system)
    scale = np.tile([ell, ell, ell, 1.0, 1.0, 1.0], len(bodies))
    r = (F + CL) * scale
    # an unloaded system has no force scale: forces below 1e-6 of (total mass) a L, a = |g| or 1, count as none
    g = np.linalg.norm(lk.arr(system.GetGravitationalAcceleration()))
    floor = 1e-6 * sum(b.GetMass() for b in bodies) * (g if g > 0 else 1.0) * ell
    ref = max(np.linalg.norm(F * scale), np.linalg.norm(CL * scale), floor)
    rel = float(np.linalg.norm(r) / ref) if ref > 0 else float(np.linalg.norm(r))
    worst = bodies[int(np.argmax(np.linalg.norm(r.reshape(-1, 6), axis=1)))].GetName() if bodies else None
    viol, vlink = largest_violation(system.GetLinks() if links is None else links, ell)
    ok = bool(np.isfinite(rel) and np.isfinite(viol) and rel <= EQUILIBRIUM_RTOL and viol <= CONSTRAINT_TOL)
    return Equilibrium(ok, rel, viol, worst, ell, use_tangent_stiffness, vlink)


def constraint_violation(system, length):
    """Largest constraint residual over the system's links, scaled as :func:`link_violation`."""
    return largest_violation(system.GetLinks(), length)[0]


def static_analysis(system, method="nonlinear", solver="sparse_qr", max_iterations=MAX_ITERATIONS,
               use_tangent_stiffness=True, links=None, assemble=False, length=None, check=False):
    """Chrono's static analysis of ``system``, measured: the one static driver (:class:`Equilibrium`).

    method: "linear" (``ChStaticLinearAnalysis``) or "nonlinear"
    (``ChStaticNonLinearAnalysis``, Newton, with Kc when
    ``use_tangent_stiffness``); solver: "sparse_qr" or "sparse_lu". Kc is
    switched on ``links`` (default: every link of the system;
    :func:`.links.set_tangent_stiffness`), whose violations are then checked.
    ``assemble``: a full ``DoAssembly`` first (it computes the reactions the
    first Newton step's Kc needs, as Chrono's demo does). ``check``: raise
    :class:`~chrono_origami.tools.errors.SolverError` unless converged.

    Tolerances (one set). Newton stops on Chrono's correction test: the WRMS
    of the last correction of the coordinates (positions, quaternions) with
    weights 1 / (:data:`NEWTON_RELTOL` |x| + :data:`NEWTON_ABSTOL`) below 1.
    Newton converges quadratically, so a last correction of 1e-12 |x| leaves
    an error at round-off, far below the acceptance (:data:`EQUILIBRIUM_RTOL`
    1e-8, :data:`CONSTRAINT_TOL` 1e-9), and 1e-12 is still a hundred times
    above the round-off of a sparse QR solve, so a converged Newton meets the
    test and stops. Chrono's other test (residual) is absolute, in force units,
    so no one value suits every structure; the 1e-14 / 1e-16 correction and
    1e-16 residual tolerances the modal analysis used before were at round-off:
    Newton ran all its 100 iterations (0.5 s instead of 0.1 s on the anchor
    chain, same residuals). :data:`MAX_ITERATIONS` (50) is for failure only:
    converging analyses here need at most 9 (the Kc paper's anchor chain from
    its straight start; its pendulum turned over from 120 degrees, 5); without
    Kc a loaded mechanism never converges.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {METHODS}")
    system.SetSolver(_make_solver(solver))
    lk.set_tangent_stiffness(system if links is None else links, use_tangent_stiffness)
    system.Setup()
    if assemble:
        system.DoAssembly(chrono.FULL)
    if method == "linear":
        analysis = chrono.ChStaticLinearAnalysis()
    else:
        analysis = chrono.ChStaticNonLinearAnalysis()
        analysis.SetMaxIterations(int(max_iterations))
        analysis.SetCorrectionTolerance(NEWTON_RELTOL, NEWTON_ABSTOL)
    system.DoStaticAnalysis(analysis)
    eq = check_equilibrium(system, length, use_tangent_stiffness, links)
    return eq.check() if check else eq


def static_equilibrium(system, use_tangent_stiffness=True, max_iterations=MAX_ITERATIONS, length=None,
                       assemble=True, check=True):
    """Nonlinear static equilibrium of a whole system (Kc switched on all its links), assembled first and checked.

    :func:`static_analysis` with ``ChSolverSparseQR``; returns :class:`Equilibrium`
    (:class:`~chrono_origami.tools.errors.SolverError` when not converged and ``check``).
    """
    return static_analysis(system, "nonlinear", "sparse_qr", max_iterations, use_tangent_stiffness, None, assemble,
                      length, check)


def linearise(system, use_tangent_stiffness=True, equilibrium=True, max_iterations=None, length=None,
              kc_correction=True, load_stiffness=True, damping=True):
    """(SystemMatrices, Equilibrium): ``system`` taken to its static equilibrium, then its M, R, K, Cq there.

    equilibrium: True finds it with Kc (:func:`static_equilibrium`), ``"no-kc"`` without Kc, False only
    checks the current state (:class:`~chrono_origami.tools.errors.SolverError` when it is not an
    equilibrium). The matrices (``matrices.system_matrices``) have Kc when ``use_tangent_stiffness``.
    ``max_iterations``: of the static analysis (None: :data:`MAX_ITERATIONS`).
    """
    max_iterations = MAX_ITERATIONS if max_iterations is None else max_iterations
    if equilibrium is True:
        eq = static_equilibrium(system, True, max_iterations, length)
    elif equilibrium == "no-kc":
        eq = static_equilibrium(system, False, max_iterations, length)
    elif equilibrium is False:
        eq = check_equilibrium(system, length)
        if not eq.converged:
            raise SolverError(f"the current state is not an equilibrium: relative residual {eq.residual:.3g} "
                              f"(largest on {eq.worst_body}), constraint violation {eq.violation:.3g}; run the "
                              "static analysis (equilibrium=True)")
    else:
        raise ValueError(f"equilibrium must be True, False or 'no-kc', got {equilibrium!r}")
    mats = system_matrices(system, use_tangent_stiffness, load_stiffness, kc_correction, length, damping=damping)
    return mats, eq


def static(structure, allow_indeterminate=False, hinge_form="mate", method="linear", solver="auto",
           use_tangent_stiffness=True, max_iterations=MAX_ITERATIONS, rtol=RANK_RTOL, built=None, form=None,
           linalg="auto", counts=None):
    """Hinge internal actions and support reactions computed in Chrono (``results.static.StaticResult``, engine "chrono").

    hinge_form: "mate", "lock" or "points" (see ``system.build_system``);
    method: "linear" (``ChStaticLinearAnalysis``) or "nonlinear"
    (``ChStaticNonLinearAnalysis``, Newton, with Kc when
    ``use_tangent_stiffness``); solver: "auto" (:func:`choose_solver`: LU, as
    a determined structure's constraints are independent), "sparse_qr" or
    "sparse_lu". ``linalg``: the counting path (``operator.count``).
    ``built``: analyse an existing ``ChronoStructure`` (e.g. one whose bodies
    were moved off the reference configuration, for the nonlinear analysis).
    ``counts``: :func:`count` of this structure in its reference configuration, when already known (not
    counted again).
    """
    hinge_form = _hinge_form(hinge_form, form)
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {METHODS}")
    if not (isinstance(max_iterations, (int, np.integer)) and max_iterations >= 1):
        raise ValueError(f"max_iterations must be a positive integer, got {max_iterations!r}")
    choose_solver(solver, True)   # validates the name before any work
    if built is None:
        _check_structure(structure)
        built = build_system(structure, hinge_form=hinge_form, use_tangent_stiffness=use_tangent_stiffness,
                             visual=False, anchor=not structure.supports)
    structure = built.structure
    counts = counts or count(structure, rtol=rtol, built=built, linalg=linalg)
    if not counts.isostatic:
        if not allow_indeterminate:
            raise IndeterminateError(
                f"{structure.name}: the static problem is not determined ({counts_text(counts.M, counts.S)}, "
                f"from Chrono's constraint Jacobian); pass "
                f"allow_indeterminate=True for the labelled minimum-norm solution", counts.M, counts.S,
                operator.describe_indeterminacy(structure, counts))
        res = operator.solve(structure, counts, allow_indeterminate=True, rtol=rtol)
        res.engine = "chrono"
        res.info.update({"hinge_form": built.hinge_form, "solver": "minimum-norm least squares on Chrono's Cq"})
        return res
    solver = choose_solver(solver, independent=True)    # M = S = 0 (and the anchor, if any, is independent)
    eq = static_analysis(built.system, method, solver, max_iterations, use_tangent_stiffness, structure_links(built),
                    length=built.pattern.size or 1.0)
    eq.check(f"{structure.name} ({method} static analysis, {solver}, {built.hinge_form} hinges): the solve")
    return _result(built, counts, method, solver, eq.violation, eq.residual)


def hinge_wrenches(built):
    """Per hinge: (midpoint, F, M), the action of its links on its second panel q, global frame.

    The midpoint is the current position of the hinge midpoint as a point of q;
    M is about it. Both statics (rotated back to q's reference orientation)
    and dynamics (``results.static.hinge_actions`` with the panel rotations) read the
    hinge actions from here.
    """
    pat = built.pattern
    out = []
    for hl in built.hinges:
        h = hl.hinge
        a, b = pat.hinges[h].vertices
        q = pat.hinges[h].panels[1]
        mid_now = built.material_point(q, 0.5 * (pat.vertices[a] + pat.vertices[b]))
        F = np.zeros(3)
        M = np.zeros(3)
        for link, qs in zip(hl.links, hl.q_sides):
            f, m = lk.wrench_about(link, qs, mid_now)
            F += f
            M += m
        out.append((mid_now, F, M))
    return out


def support_reactions(built):
    """``results.static.SupportReaction`` per support of the structure: the force on the panel, global frame."""
    out = []
    for k, (s, link) in enumerate(zip(built.structure.supports, built.supports)):
        F, _, _ = lk.reaction_on(link, 1)
        out.append(SupportReaction(k, s.vertex, s.panel, s.dofs, F))
    return out


def _result(built, counts, method, solver, viol, rel):
    structure = built.structure
    pat = structure.pattern
    wrenches = []
    for hl, (_, F, M) in zip(built.hinges, hinge_wrenches(built)):
        Rq = built.panel_rotation(pat.hinges[hl.hinge].panels[1])
        # back to q's reference orientation (the rows are in the panel's own frame)
        wrenches.append((Rq.T @ F, Rq.T @ M))
    actions = hinge_actions(pat, structure.hinge_kinds, wrenches)
    supports = support_reactions(built)
    info = {"hinge_form": built.hinge_form, "method": method, "solver": solver,
            "constraint_violation": viol, "gap": counts.gap}
    if built.anchor is not None:
        F, M, _ = lk.reaction_on(built.anchor, 1)
        L = pat.size or 1.0
        load = _load_wrenches(built)
        scale = max(np.linalg.norm(load * np.array([1, 1, 1, L, L, L])), 1e-300)
        anchor_rel = np.linalg.norm(np.concatenate([M, L * F])) / scale
        info["anchor_reaction_rel"] = anchor_rel
        if anchor_rel > EQUILIBRIUM_RTOL and np.linalg.norm(load) > 0:
            raise FreeBodyError.unbalanced(structure.name, anchor_rel)
    return StaticResult(structure, "chrono", "determined", counts.M, counts.S, actions, supports, rel, info=info)
