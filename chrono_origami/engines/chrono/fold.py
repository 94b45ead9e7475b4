"""Folding in a Chrono system: rotation motors on the driven hinges, vertex path links, assembly each step.

The structure is built by ``engines.chrono.system.build_system`` (door hinges
``DoorHinge``, sliding hinges ``SlidingHinge``). A rotation drive adds a
``ChLinkMotorRotationAngle`` between the hinge's second panel q (body 1) and
first panel p (body 2) with its Z axis on the hinge axis t (as run by p) and
a free spindle constraint: it prescribes only the relative angle, so a
sliding hinge keeps its sliding freedom. A slide drive adds a
``ChLinkMotorLinearPosition`` along t with a free guide. A vertex path is a
``ChLinkMateGeneric`` between the panel and the ground whose frame axes span
the held directions. Without any path, panel 1 is welded to the ground.

Each step sets the system time and runs Chrono's position-level assembly
(``DoAssembly(POSITION)``: Newton-Raphson, each iteration a sparse QR
factorisation of [M Cq^T; Cq 0]), starting from a predictor: the last three
configurations extrapolated to the new time (quadratic in time; positions and
rotation vectors of each body), or at the first step the velocity of a
velocity-level assembly (``DoAssembly(VELOCITY)``, one more factorisation)
times the step. Chrono's assembly stops on the infinity norm of its
residual C, of its update Dx, or of Dx/X (``ChAssemblyAnalysis``); the last
never applies to rigid bodies (Dx has 6 entries a body, X 7), and the first
two have a round-off floor near 1e-15 to 3e-14, so tolerances below it make
every call run ``max_iterations``. The fold stops on the update alone:
|Dx| below ``UPDATE_TOL`` (translations / L, rotations in rad), after which
Newton's quadratic convergence leaves an error near UPDATE_TOL^2; the
residual stop is off (a small C near a singular configuration is not a
small error), except at the start, which is taken as it is when its
residual is below ``START_RESIDUAL``. A step takes two or three factorisations (the fold
command on the Yoshimura wedge, 200 steps: 4.5 s, from 68 s when 181 of
its 200 assemblies ran all 30 iterations). Every step reports Chrono's
Newton iterations, the largest scaled constraint violation and the sigma
ratio of Chrono's constraint Jacobian Cq (``statics.constraint_jacobian``);
a violation above ``tol`` is a :class:`~chrono_origami.tools.errors.SolverError`,
a ratio below ``singular_rtol`` stops the fold with
:class:`~chrono_origami.tools.errors.SingularConfigurationError`, as in the reference engine.

A singular start (a flat pattern: the first-order equations do not fix the
velocity, and a position-level assembly cannot choose the branch) is not
folded in Chrono. ``fold(problem, start=analysis.fold.regular_start(problem, t0))`` starts
instead at time t0 from the reference engine's configuration there: its
first step leaves the singular start on the branch of the mountain-valley
``assignment`` (``start.branch_tangent``) or along the minimum-norm tangent.
The links are built in the flat reference configuration, the panels are then
posed at that configuration (``ChronoStructure.set_configuration``), so the
motors measure the angle from flat and the vertex paths hold the flat
positions, as in the reference engine; from t0 on Chrono folds alone.
"""

import numpy as np
import pychrono as chrono
import scipy.sparse as sp

from ...results.fold import FoldHistory
from ...structure.hinges import hinge_geometry
from ...structure.structure import Structure
from ...tools import memory
from ...tools.errors import SingularConfigurationError, SolverError, positive
from ...tools.jacobian import SINGULAR_RTOL, Jacobian
from ...tools.progress import Progress
from . import static as chan
from .links import arr, chframe, vec
from .system import build_system

#: largest accepted scaled constraint violation after an assembly
CONSTRAINT_TOL = 1e-10
#: the position assembly stops after a Newton update |Dx| below this (translations / L, rotations in rad)
UPDATE_TOL = 1e-10
#: the start's assembly stops at once below this residual: a start that meets its constraints (the pattern, or
#: the reference engine's regular start) costs no factorisation (15 s on a 20 x 20 Miura patch)
START_RESIDUAL = 1e-14
#: configurations the predictor extrapolates through (3: quadratic in time)
PREDICTOR_POINTS = 3


class ChronoFold:
    """A fold problem built in Chrono: ``built`` (ChronoStructure), ``motors``, ``path_links``."""

    def __init__(self, problem):
        self.problem = problem
        st = problem.structure
        bare = Structure(st.pattern, st.hinge_kinds, st.thickness, st.density, name=st.name)
        self.built = build_system(bare, visual=False)
        b = self.built
        pat = st.pattern
        self.L = pat.size or 1.0
        self.motors = []
        for d in problem.drives:
            t, m, n, mid, _, _ = hinge_geometry(pat, d.hinge)
            p, q = pat.hinges[d.hinge].panels
            R = np.column_stack([m, np.cross(t, m), t])   # Z = t
            T = problem.duration
            if d.kind == "slide":
                mot = chrono.ChLinkMotorLinearPosition()
                mot.SetGuideConstraint(chrono.ChLinkMotorLinear.GuideConstraint_FREE)
            else:
                mot = chrono.ChLinkMotorRotationAngle()
                mot.SetSpindleConstraint(chrono.ChLinkMotorRotation.SpindleConstraint_FREE)
            mot.SetMotorFunction(chrono.ChFunctionRamp(0.0, d.speed(T)))
            mot.SetName(f"drive of hinge {d.hinge + 1}")
            mot.Initialize(b.bodies[q], b.bodies[p], chframe(mid, R))
            b.system.AddLink(mot)
            self.motors.append(mot)
        self.path_links = []
        X = pat.vertices
        for vp in problem.paths:
            D = np.asarray(vp.directions, float)
            Q, _ = np.linalg.qr(np.vstack([D, np.eye(3)]).T)   # first k columns span the held directions
            k = int(np.linalg.matrix_rank(D))
            Rf = Q[:, :3] * np.sign(np.linalg.det(Q[:, :3]))
            link = chrono.ChLinkMateGeneric(bool(k > 0), bool(k > 1), bool(k > 2), False, False, False)
            link.SetName(f"vertex {vp.vertex + 1} ({vp.label or 'held'})")
            link.Initialize(b.bodies[vp.panel], b.ground, chframe(X[vp.vertex], Rf))
            b.system.AddLink(link)
            self.path_links.append(link)
        if not problem.paths:
            weld = chrono.ChLinkMateGeneric(True, True, True, True, True, True)
            weld.SetName("panel 1 held")
            weld.Initialize(b.bodies[0], b.ground, chframe(b.com[0]))
            b.system.AddLink(weld)
            self.path_links.append(weld)
        b.system.SetSolver(chrono.ChSolverSparseQR())

    def vertices(self):
        pat = self.problem.pattern
        X = pat.vertices
        return np.array([np.mean([self.built.material_point(p, X[v]) for p in ps], axis=0)
                         for v, ps in enumerate(pat.vertex_panels)])

    def drive_values(self):
        out = []
        for d, mot in zip(self.problem.drives, self.motors):
            if d.kind == "slide":
                out.append(float(mot.GetMotorPos()))
            else:
                out.append(float(mot.GetMotorAngle()))
        return np.array(out)

    def residual(self):
        """(largest scaled constraint violation over every link, its name)."""
        worst, name = 0.0, ""
        for link in self.links():
            v = chan.link_violation(link, self.L)   # translations / L, rotations as they are
            if v > worst:
                worst, name = v, link.GetName()
        return worst, name

    def links(self):
        """Every link of the system as the object that knows its row kinds (hinges, supports, motors, paths)."""
        b = self.built
        out = b.structure_links() + ([b.anchor] if b.anchor is not None else []) + self.motors + self.path_links
        n = b.system.GetLinks().size() if hasattr(b.system.GetLinks(), "size") else len(b.system.GetLinks())
        if len(out) != n:
            raise RuntimeError(f"ChronoFold knows {len(out)} links, the system has {n}")
        return out

    def sigma_ratio(self, method="auto"):
        """sigma_min / sigma_max of Chrono's Cq, translational columns scaled by L as in the reference engine
        (``tools.jacobian``: dense SVD or the sparse estimate, by ``method``)."""
        Cq = chan.constraint_jacobian(self.built.system).tocsr()
        return Jacobian(Cq @ sp.diags(_column_scale(Cq.shape[1], self.L)), method).sigma_ratio()


def _column_scale(n, L):
    """L on the translational columns (the first 3 of each body's 6), 1 on the rotational ones."""
    sc = np.ones(n)
    sc.reshape(-1, 6)[:, :3] = L
    return sc


def _poses(bodies):
    """(positions (P x 3), rotations as ``ChQuaterniond`` copies) of the bodies."""
    return (np.array([[b.GetPos().x, b.GetPos().y, b.GetPos().z] for b in bodies]),
            [chrono.ChQuaterniond(b.GetRot()) for b in bodies])


def _predict(system, bodies, past, t, h):
    """Pose the bodies at the predictor of time t + h: the polynomial in time through the ``past`` configurations
    ((time, poses), the newest last, at time t) -- positions and rotation vectors relative to the newest
    rotation -- or, from one configuration, its velocity from a velocity-level assembly (world frame) times h."""
    if len(past) == 1:
        system.SetChTime(t)
        system.DoAssembly(chrono.VELOCITY)
        for body in bodies:
            body.SetPos(body.GetPos() + body.GetPosDt() * h)
            body.SetRot(chrono.QuatFromRotVec(body.GetAngVelParent() * h) * body.GetRot())
        return
    times = np.array([tk for tk, _ in past])
    w = np.array([np.prod([(t + h - tm) / (tj - tm) for m, tm in enumerate(times) if m != j])
                  for j, tj in enumerate(times)])     # Lagrange weights at t + h
    x = np.einsum("k,kpi->pi", w, np.array([pos for _, (pos, _) in past]))
    newest = past[-1][1][1]
    for p, body in enumerate(bodies):
        q = newest[p]
        r = sum(wj * arr((rots[p] * q.GetConjugate()).GetRotVec()) for wj, (_, (_, rots)) in zip(w, past[:-1]))
        body.SetPos(vec(x[p]))
        body.SetRot(chrono.QuatFromRotVec(vec(r)) * q)


@memory.guarded(lambda problem, *a, **k: f"folding {memory.about(problem)} in Chrono")
def fold(problem, frame_interval=None, dt=None, tol=CONSTRAINT_TOL, singular_rtol=SINGULAR_RTOL, progress=None,
         log=None, max_iterations=30, start=None, linalg="auto"):
    """Fold ``problem`` in Chrono; returns a :class:`~chrono_origami.results.fold.FoldHistory` (``engine="chrono"``).

    Fixed steps ``dt`` (default duration/200, shortened to hit the frame times).
    ``start``: (t0, vertices), a regular configuration of the fold at time t0
    (``analysis.fold.regular_start``) to begin from instead of the pattern at time 0;
    the frames are then t0 and the multiples of ``frame_interval`` after it.
    ``progress``: True, False or None (only on a terminal); ``linalg``: the
    sigma ratio's linear algebra, as in ``engines.reference.fold.newton.fold``.
    """
    T = float(problem.duration)
    frame_interval = T / 20 if frame_interval is None else positive("frame_interval", frame_interval, ValueError, "seconds")
    dt = T / 200 if dt is None else positive("dt", dt, ValueError, "seconds")
    cf = ChronoFold(problem)
    sys_ = cf.built.system
    hist = FoldHistory(problem, cf.L, engine="chrono")
    t = 0.0
    if start is not None:
        t = float(start[0])
        if not 0 <= t < T:
            raise SolverError(f"{problem.name}: the start time {t:g} s is outside the fold [0, {T:g}) s")
        misfit = cf.built.set_configuration(start[1])
        if misfit > 1e-9 * cf.L:
            raise SolverError(f"{problem.name}: the start configuration is not a rigid-panel configuration of the "
                              f"pattern (panel vertices off by {misfit:.3g})")
        hist.notes.append(f"Chrono started at t = {t:g} s from the given start configuration")
    sys_.SetChTime(t)
    update_tol = UPDATE_TOL * min(cf.L, 1.0)    # Chrono's one norm over translations (length) and rotations (rad)
    rep = chan.assemble(cf.built, max_iterations, abstol_residual=START_RESIDUAL, reltol_update=0.0,
                        abstol_update=update_tol)
    solver = sys_.GetSolver().AsDirect()     # chan.assemble set a direct sparse solver
    res, name = cf.residual()
    ratio = cf.sigma_ratio(linalg)
    hist.record(t, cf.vertices(), cf.drive_values(), res, ratio)
    if res > tol:
        raise SolverError(f"{problem.name}: Chrono's assembly of the start did not converge at t = {t:g} s "
                          f"(largest violation {res:.3g} in {name}; Chrono's exit flag {rep.exit_flag})")
    if ratio < singular_rtol:
        raise SingularConfigurationError(
            f"{problem.name}: the start configuration is singular for this fold in Chrono (Cq sigma ratio "
            f"{ratio:.2e}); leave it with from_singular=True (the reference engine's first step, then Chrono: "
            f"fold(problem, start=regular_start(problem, t0)))", t, cf.vertices(), hist, ratio)
    n_frames = int(np.floor(T / frame_interval + 1e-9))
    frame_times = [k * frame_interval for k in range(1, n_frames + 1) if k * frame_interval > t + 1e-12 * T]
    if not frame_times or frame_times[-1] < T * (1 - 1e-12):
        frame_times.append(T)
    bar = Progress(T, progress)
    past = [(t, _poses(cf.built.bodies))]    # converged configurations, the newest last
    for target in frame_times:
        while t < target - 1e-12 * T:
            h = min(dt, target - t)
            _predict(sys_, cf.built.bodies, past, t, h)
            sys_.SetChTime(t + h)
            setups = solver.GetNumSetupCalls()
            sys_.DoAssembly(chrono.POSITION, max_iterations, 0.0, 0.0, update_tol)
            iterations = solver.GetNumSetupCalls() - setups     # one factorisation per Newton iteration
            res, name = cf.residual()
            if res > tol:
                bar.close()
                raise SolverError(f"{problem.name}: Chrono's assembly did not converge at t = {t + h:.6g} s "
                                  f"(largest violation {res:.3g} in {name} after {iterations} iterations)")
            ratio = cf.sigma_ratio(linalg)
            t += h
            past = (past + [(t, _poses(cf.built.bodies))])[-PREDICTOR_POINTS:]
            hist.steps.append((t, h, iterations, res, ratio))
            if log:
                log(f"t = {t:.6g} s  {iterations} iterations  residual {res:.2e} ({name})  sigma ratio {ratio:.2e}")
            if ratio < singular_rtol:
                bar.close()
                raise SingularConfigurationError(
                    f"{problem.name}: singular configuration at t = {t:.6g} s in Chrono: Cq lost rank "
                    f"(sigma_min/sigma_max = {ratio:.2e})", t, cf.vertices(), hist, ratio)
            bar.update(t, f" residual {res:.1e}")
        hist.record(t, cf.vertices(), cf.drive_values(), res, ratio, iterations, h)
    bar.close()
    hist.vertex_spread = None
    return hist
