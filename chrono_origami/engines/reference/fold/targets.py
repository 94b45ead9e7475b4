"""Folding to target fold angles (a file's ``edges_foldAngle``, an SVG's stroke opacity) at a fold percent.

Sign: FOLD's, everywhere a person reads an angle: a fold angle is positive
for a valley (the two faces' normals turn toward each other), negative for a
mountain, in [-180, 180] degrees (``foldfile.fold_angles``). Inside, a
:class:`~.problem.Drive` prescribes the relative rotation of the hinge's
second panel about the axis run by its first, which is minus the change of
the FOLD fold angle: ``drive angle = -(fold angle - start fold angle)``.

Targets (:func:`file_targets`): every "M" and "V" crease with a target
angle (FOLD ``edges_foldAngle``, or the SVG opacity x 180 deg, mountain
negative), "M"/"V" without the key at all at -180/+180 deg (Origami
Simulator's full fold), "F" creases (flat creases, hinges when
``facets="crease"``) at 0. "U" creases and creases whose angle is null
(Origami Simulator's undriven edges) have no target and fold freely.

The fold percent p (0-100, as Origami Simulator's slider from 0 % to
100 %): crease h aims at p/100 x its target. The path from the start
(fold angles rho0) is rho(s) = rho0 + s (p/100 target - rho0), s = t / T
from 0 to 1 (T: ``duration``).

Method: the fold follows the mechanism (rigid-origami simulation in Tachi's
way). Each step of h seconds from time t moves the panels by the body
increments d (6N) that solve

    min |Js d - (rho(t + h) - rho(t) + min(1, h / lag) (rho(t) - rho_now))|
    subject to Jh d = -Fh (the hinge constraints, the vertex holds, panel 1 held),

minimum norm: the wished fold-angle changes (the aim's change over the step
plus a share of the gap left behind, ``lag`` the largest step) projected onto
the free motions of the constraints (Js: the driven creases' relative angular
rates, ``FoldConstraints.hinge_rate_operator``; the misses wrapped to
(-pi, pi]). One sparse QR (or dense SVD) solve of the hard rows, weighted by
:data:`HARD_WEIGHT`, stacked on the soft rows: no basis of the free motions
is formed. The step turns no driven crease by more than a limit that follows
the predictor's error (:func:`_turn_limit`: the turn at which the corrector
would be :data:`ERROR_RATIO`, a quarter of the jump test's ratio, of the
predictor, at least :data:`MAX_TURN`), so that smooth stretches take steps
as long as the frames allow; a frame less than two steps away is reached in
two equal steps, not a step and a short one. The
corrector only brings the state back onto the constraints (minimum-norm
Newton on the hard rows): nothing pulls it toward the aim, so the path is
continuous by construction; a corrector longer than half the predictor
(:func:`jumped`) or one that does not converge halves the step. At t = T
the fold settles: projected Gauss-Newton steps toward the targets, each halved
until the misfit does not grow, until the projected step vanishes. Where the
targets are a rigid fold reached along the mechanism, every crease reaches
its target; where they are not, the fold stops where the projected rate
vanishes (a stationary point of the least-squares misfit, reached
continuously), and the last note says the percent reached (the least-squares
percent of the targets, :func:`_reached`), the creases that miss most and
whether another branch leaves the stop (:func:`_other_branch`). Free motions
left by the targets and holds (undriven creases, a single held vertex) are
noted, and the steps move along them as little as they can. The sigma ratio
of the constraint Jacobian (hard and drive rows) is taken at the frames; the
steps between them record the last one.

A flat start is singular (first-order motions that no finite fold follows).
The first step leaves it along the folding branch nearest the targets'
direction: ``start.branch_tangent`` with one exact drive (the crease of the
largest target change) and the targets' rates, so rigidly foldable patterns
(Miura-ori, Yoshimura, waterbomb bases, square twists) need no symmetry
holds. The driven creases that this branch does not turn (first order) are
held flat from then on (:func:`_waiting`; their rows join the hard ones and
the last notes name them): while they are flat, first-order motions of the
constraints turn them that no finite fold follows (their vertices' second-
order rows), and a predictor along such a motion leaves the constraints by
more than the corrector can take back. Two consequences of holding them (:func:`_straightened`,
:func:`_straight_lines`): where exactly two turning creases meet at a vertex in line to rounding
(``flat_branch.straighten``), the held creases there make the line rigid unless it is exactly straight, so the
line is straightened in memory first (the note gives the largest move); and where the panels do not get away
from the flat start on the branch nearest the targets (a near-miss of the vertex rows), the fold leaves instead
on the straight crease lines that run edge to edge (``flat_branch.chord_rates``), which fold rigidly on their
own (``_start``: the rates, note and whether that fallback was taken, for the fold that restarts on them).
A flat pattern whose geometry is inexact (Kawasaki missed by rounding)
is refused before folding (``analysis.fold.fold_to_targets``, ``structure.pattern_check``).
The targets and the problem they make are inputs (``inputs.fold.file_targets``, ``target_problem``).
"""
import numpy as np
import scipy.sparse as sp

from ....inputs.fold import Drive, FoldProblem, check_percent, target_problem
from ....results.fold import REACHED_DEG, FoldHistory
from ....tools import linalg as _linalg, sparseqr
from ....tools.errors import SolverError
from ....tools.jacobian import SINGULAR_RTOL, Jacobian
from ....tools.progress import Progress
from .constraints import FoldConstraints
from .lie import exp_update, reorthonormalize
from . import newton
from .newton import TOL, accept, schedule

#: "auto" solves on the sparse QR path beyond this many columns (50 panels; LAPACK's SVD-based least squares
#: of the stacked rows is several times slower there)
DENSE_COLUMNS = 300
#: weight of the hard rows against the soft ones (rad) in the stacked least squares of a step
HARD_WEIGHT = 1e6
#: a crease flatter than this (rad) counts as flat at the start
FLAT_RAD = 1e-9
#: largest change of a driven fold angle in one predictor (rad): the first steps' and the settling's; along the fold
#: the limit follows the predictor's error (:data:`ERROR_RATIO`), between MAX_TURN and :data:`TURN_CEIL`
MAX_TURN = np.radians(10.0)
#: the fold's step-size control aims at a corrector this long against its predictor (both the largest vertex
#: displacement / L, as ``newton.jumped`` measures them): a quarter of the jump test's ``newton.JUMP_RATIO``. The
#: corrector (the predictor's error) grows as the square of the step, their ratio as the step: after each step the
#: turn limit becomes the step's turn x ERROR_RATIO / ratio (at most doubled or halved a step)
ERROR_RATIO = 0.25 * newton.JUMP_RATIO
#: largest turn limit of the step-size control (rad)
TURN_CEIL = np.radians(30.0)
#: Newton iterations of the projection onto the hard rows
PROJECT_ITER = 12
#: Tikhonov parameter (relative to the bound on sigma_max) that the projection's factor of the hard rows may take
#: (``jacobian.Jacobian``'s ``tikhonov``: the Cholesky of their normal equations, the hard rows being rank-deficient
#: along the mechanism): its Newton steps are then minimum-norm to about eps / PROJECT_TIKHONOV^2 = 1e-4 of their
#: length, and the iteration converges linearly where a fresh factor's Newton step is inexact
PROJECT_TIKHONOV = 1e-6
#: refinement steps of the projection's Newton solves after the first Tikhonov step (``Jacobian.solve``'s
#: ``steps``): each Newton step is then minimum-norm to (delta / sigma)^4 along a direction sigma of the hard rows,
#: and the iteration converges to the same state (the 1,024-panel ORIPA sheet: percent reached and largest miss
#: the same to 1e-12 with 0, 1, 2 or 40 steps; 6.1 s against 6.8 s with 40)
PROJECT_REFINE = 1
#: residual ratios of successive Newton steps that mark a singular root (1/4: the error halves, the residual is
#: quadratic in it), which ``_Split.project`` then extrapolates
SINGULAR_RATIO = (0.15, 0.35)
#: the settling at the end stops once a projected Gauss-Newton step changes no driven angle by more than
#: SETTLE_RAD (rad), or by less than SLOW_RAD while no longer halving (round-off, or the linear convergence of a
#: misfit that stays: then the state is within about 1e-9 rad of the stationary point)
SETTLE_RAD = 1e-14
SLOW_RAD = 1e-10
#: states whose stacked rows' factor ``_Split.stacked`` keeps (the settling's candidates)
STACKED_KEPT = 3
#: largest number of settling steps
SETTLE_ITER = 200
#: relative change of the misfit that the settling cannot resolve (the corrector's residual moves it that much);
#: a step within it is taken only where it shortens the next Gauss-Newton step: a misfit that stays can make the
#: full step overshoot along a direction the misses curve (the iteration's rate beyond -1, e.g. -1.008 on
#: Origami Simulator's bird base at 60 %), and those steps would creep away from the stationary point
SETTLE_FLAT = 1e-12


def _wrap(angle):
    """Angles (rad) wrapped to (-pi, pi]."""
    return np.angle(np.exp(1j * angle))


class _Split:
    """The rows of a target fold: hard (hinges, holds, panel 1, and the creases held flat) and soft (the other drive
    rows), and their solves. ``held``: indices into ``C.drive_hinge`` of the creases held flat (:func:`_waiting`)."""

    def __init__(self, C, method):
        self.C = C
        soft = np.zeros(C.n_rows, bool)
        soft[C.drive_row] = True
        self.soft, self.hard = np.nonzero(soft)[0], np.nonzero(~soft)[0]
        self.hold(np.zeros(0, int))
        if method == "auto" and C.n_cols > DENSE_COLUMNS and sparseqr.available():
            method = "sparse"
        self.method = _linalg.choose_method((C.n_rows, C.n_cols), method)

    def hold(self, held):
        """Hold the driven creases ``held`` (indices into ``C.drive_hinge``) at their start angle: their rows move from
        the soft rows to the hard ones."""
        self.held = np.asarray(held, int)
        self._stacked = []          # the last states' stacked rows and factors (``stacked``): their rows change here
        free = np.ones(len(self.C.drive_hinge), bool)
        free[self.held] = False
        self.free = np.nonzero(free)[0]

    def evaluate(self, R, u, t, held=True):
        """(hard F, hard J, soft residuals, their Jacobian, their time derivative, the whole J of the problem).

        The soft residual of a crease is the angle rho - rho(s) itself, wrapped to (-pi, pi] (rad), not the
        drive row's sine, which turns back beyond 90 degrees; its Jacobian the relative angular rate about the
        hinge axis (``FoldConstraints.hinge_rate_operator``), exact on the constraints. A held crease's row is hard:
        its angle from the start (rad), the same Jacobian. ``held=False``: as if none were held."""
        C = self.C
        F, J, _ = C.evaluate(R, u, t)
        values = C.drive_values(R, u)
        Fs = _wrap(values - C.drive_speed * t)
        Js = C.hinge_rate_operator(R)[C.drive_hinge]
        Fh, Jh, Ft = F[self.hard], J[self.hard], -C.drive_speed
        if held and len(self.held):
            Fh = np.concatenate([Fh, _wrap(values[self.held])])
            Jh = sp.vstack([Jh, Js[self.held]]).tocsr()
            Fs, Js, Ft = Fs[self.free], Js[self.free], Ft[self.free]
        return Fh, Jh, Fs, Js, Ft, J

    def hard_residual(self, R, u, t):
        """The hard rows' residuals at (R, u, t) (``evaluate``'s first, without Jacobians)."""
        F = self.C.evaluate(R, u, t, jacobian=False)[0][self.hard]
        if not len(self.held):
            return F
        return np.concatenate([F, _wrap(self.C.drive_values(R, u)[self.held])])

    def solve(self, Jh, Js, bh, bs):
        """min |Js d - bs| subject to Jh d = bh (module doc: the hard rows weighted by :data:`HARD_WEIGHT` in
        one least-squares solve, minimum norm)."""
        return Jacobian(self._stack(Jh, Js), self.method).solve(np.concatenate([HARD_WEIGHT * bh, bs]))

    @staticmethod
    def _stack(Jh, Js):
        return sp.vstack([HARD_WEIGHT * sp.csr_matrix(Jh), sp.csr_matrix(Js)]).tocsr()

    def stacked(self, R, u, t):
        """(Fh, Jh, Fs, Js, Ft, factor) at (R, u, t): ``evaluate``'s rows and the factor of the stacked rows that
        :meth:`step` solves with (:data:`HARD_WEIGHT` on the hard ones). The last state's are kept: a step that is
        retried shorter (halved, or capped by the turn limit) starts from the same state, and only its right-hand
        side changes. The last :data:`STACKED_KEPT` states' are kept: the settling compares two candidate states by
        their Gauss-Newton steps and goes on from one of them."""
        for key in self._stacked:
            if key[0] is R and key[1] is u and key[2] == t:
                return key[3]
        Fh, Jh, Fs, Js, Ft = self.evaluate(R, u, t)[:5]
        out = (Fh, Jh, Fs, Js, Ft, Jacobian(self._stack(Jh, Js), self.method))
        self._stacked = [(R, u, t, out)] + self._stacked[:STACKED_KEPT - 1]
        return out

    def step(self, R, u, t, h=None, lag=None, cap=MAX_TURN):
        """The predictor from (R, u) at time ``t`` (s) over a step ``h`` (s): body increments (6N) whose fold-angle
        changes are the aim's change over the step plus h / ``lag`` (at most 1) of the gap aim(t) - rho, projected
        onto the free motions of the hard rows (:meth:`solve`, by the factor of :meth:`stacked`), scaled down to at most
        ``cap`` (rad, default :data:`MAX_TURN`) of any driven crease (``self.last_turn``: the largest turn before the
        cap, rad). Without
        ``h``: the whole gap at ``t`` (a Gauss-Newton step, for ``settle``)."""
        Fh, Jh, Fs, Js, Ft, jac = self.stacked(R, u, t)
        want = -Fs if h is None else -h * Ft - min(1.0, h / lag) * Fs
        d = jac.solve(np.concatenate([-HARD_WEIGHT * Fh, want]))
        turn = self.last_turn = float(np.abs(Js @ d).max(initial=0.0))
        return d * (cap / turn) if turn > cap else d

    def project(self, R, u, t, tol):
        """Newton on the hard rows alone to round-off, minimum-norm corrections: (R, u, max |F|, iterations), a
        residual above ``tol`` meaning failure. The factor of the hard rows' Jacobian is kept while the residual
        falls tenfold a step (a chord method: the corrections are small) and made anew at the current state when
        it does not (a step that does not halve it is taken back); stops once max |F| is below 1e-3 tol, or when a fresh factor's step no longer halves it (after
        two).

        Newton halves the error a step at a singular root (the residual falls by a quarter: a state where the hinge
        rows lose rank, e.g. creases that only a first-order motion turns): after two such steps with a fresh factor
        the doubled step is tried, and taken where its residual is smaller (Griewank's extrapolation: the error's
        singular part goes to zero instead of halving)."""
        Fh, Jh = self.evaluate(R, u, t)[:2]
        jac, fresh = self._hard(Jh), True
        res = float(np.abs(Fh).max(initial=0.0))
        it, ratios = 0, []
        for it in range(1, PROJECT_ITER + 1):
            if res <= 1e-3 * tol:
                break
            d = jac.solve(-Fh, PROJECT_REFINE).reshape(-1, 6)
            Rn, un = exp_update(R, u, d)
            Fn = self.hard_residual(Rn, un, t)
            new = float(np.abs(Fn).max(initial=0.0))
            if fresh and len(ratios) >= 2 and all(SINGULAR_RATIO[0] <= q <= SINGULAR_RATIO[1] for q in ratios[-2:]):
                Rx, ux = exp_update(R, u, 2.0 * d)      # a singular root: the doubled step, where it does better
                Fx = self.hard_residual(Rx, ux, t)
                nx = float(np.abs(Fx).max(initial=0.0))
                if nx < new:
                    Rn, un, Fn, new = Rx, ux, Fx, nx
            if new > 0.5 * res:
                if not fresh:
                    jac, fresh = self._hard(self.evaluate(R, u, t)[1]), True
                    continue
                if it > 2:
                    if new < res:
                        R, u, res = Rn, un, new
                    break
            slow = new > 0.1 * res
            ratios.append(new / res)
            R, u, Fh, res, fresh = Rn, un, Fn, new, False
            if slow and res > 1e-3 * tol:     # a chord that no longer gains a digit a step: a fresh factor
                jac, fresh = self._hard(self.evaluate(R, u, t)[1]), True
        return R, u, res, it

    def _hard(self, Jh):
        """The hard rows' :class:`~chrono_origami.tools.jacobian.Jacobian` for the projection's Newton steps."""
        return Jacobian(Jh, self.method, tikhonov=PROJECT_TIKHONOV)

    def correct(self, R, u, t, tol):
        """The corrector of a step: the predicted state (R, u) brought back onto the hard rows by minimum-norm
        Newton (``project``), nothing pulled toward the aim: (R, u, iterations, hard residual, converged)."""
        R, u, res, it = self.project(R, u, t, tol)
        return R, u, it, res, res <= tol

    def misfit(self, R, u, t):
        """Sum of the squared misses of the aim at time ``t`` (rad^2)."""
        Fs = self.evaluate(R, u, t)[2]
        return float(Fs @ Fs)

    def settle(self, R, u, t, tol):
        """At the end of the fold (the aim fixed at ``t``): Gauss-Newton steps along the free motions (``step``),
        each projected onto the hard rows, halved until the misfit does not grow (where it changes by less than
        :data:`SETTLE_FLAT`, until the next step is shorter) and the corrector does not jump, and doubled while the
        misfit keeps falling (a misfit that stays makes Gauss-Newton converge linearly and
        its steps short), until the projected step is below :data:`SETTLE_RAD`, or below :data:`SLOW_RAD` without
        halving, or below 1e3 :data:`SLOW_RAD` without shrinking by a tenth (round-off), or when the halving would
        take a step below SLOW_RAD (round-off too: the Gauss-Newton turn of the states there is about SLOW_RAD, and
        each try costs a projection and a factor): the stationary point of the misfit that the mechanism reaches
        continuously from (R, u). Returns (R, u, steps)."""
        f, last, least, stuck = self.misfit(R, u, t), np.inf, np.inf, 0
        steps = {}          # id(R): (R, Gauss-Newton step, its largest turn) of the states met, made once each

        def gn_step(R, u):
            got = steps.get(id(R))
            if got is None or got[0] is not R:
                d = self.step(R, u, t)
                got = steps[id(R)] = (R, d, float(np.abs(self.stacked(R, u, t)[3] @ d).max(initial=0.0)))
            return got[1], got[2]

        def gn_turn(R, u):
            return gn_step(R, u)[1]

        def attempt(d):
            Rp, up = exp_update(R, u, d.reshape(-1, 6))
            Rn, un, _, res, ok = self.correct(Rp, up, t, tol)
            if ok and not jumped(self.C, R, u, Rp, up, Rn, un, tol):
                fn = self.misfit(Rn, un, t)
                if fn <= f * (1 - SETTLE_FLAT):
                    return reorthonormalize(Rn), un, fn, None
                if fn <= f * (1 + SETTLE_FLAT):             # the misfit cannot tell: the step must shrink
                    Rn = reorthonormalize(Rn)
                    tn = gn_turn(Rn, un)
                    if tn < turn:
                        return Rn, un, fn, tn
            return None

        def better(a, b):
            if a[2] < b[2] * (1 - SETTLE_FLAT) or a[2] > b[2] * (1 + SETTLE_FLAT):
                return a[2] < b[2]
            ta = a[3] if a[3] is not None else gn_turn(a[0], a[1])
            tb = b[3] if b[3] is not None else gn_turn(b[0], b[1])
            return ta < tb

        for k in range(SETTLE_ITER):
            d, turn = gn_step(R, u)
            steps = {id(R): steps[id(R)]}          # only the current state's is needed again
            stuck = 0 if turn < 0.5 * least else stuck + 1
            least = min(least, turn)
            if turn <= SETTLE_RAD or (turn <= SLOW_RAD and turn > 0.5 * last) or (turn <= 1e3 * SLOW_RAD
                                                                                  and stuck >= 3):
                return R, u, k
            last = turn
            for j in range(12):
                got = attempt(d)
                if got is not None:
                    break
                d = d / 2
                if turn / 2 ** (j + 1) < SLOW_RAD:
                    return R, u, k          # a shorter step is round-off (a GN turn of about SLOW_RAD at any state)
            else:
                return R, u, k
            scale = 1.0
            while scale * turn < MAX_TURN / 2:
                more = attempt(2 * scale * d)
                if more is None or not better(more, got):
                    break
                got, scale = more, 2 * scale
            R, u, f = got[:3]
        return R, u, SETTLE_ITER


def fold_to_targets(structure, targets, percent=100.0, paths=(), duration=1.0, frame_interval=None,
                    dt=None, dt_max=None, dt_min=None, tol=TOL, linalg="auto", progress=None, log=None, _start=None,
                    _cache=None):
    """Fold ``structure`` from its configuration to ``percent`` % of ``targets`` (module doc): the reference
    engine's fold to target angles (``analysis.fold.fold_to_targets`` is what users call).

    targets : {hinge: fold angle (rad, FOLD sign)}. percent : 0-100. paths : vertex holds
    (``inputs.fold.VertexPath``); none holds panel 1. duration, frame_interval, dt, dt_max, dt_min : as
    ``newton.fold`` (s; the fold parameter s = t / duration). linalg : "auto", "dense" or "sparse".

    Returns a :class:`~chrono_origami.results.fold.FoldHistory`; ``history.target_miss`` = (largest
    |fold angle - aim| in deg, its hinge), ``history.percent_reached`` and ``history.frame_percents``
    (:func:`_reached` of the drive values made continuous step by step); the last note says whether every target
    was reached, or where and why the fold stopped.
    """
    again = dict(structure=structure, targets=targets, percent=percent, paths=paths, duration=duration,
                 frame_interval=frame_interval, dt=dt, dt_max=dt_max, dt_min=dt_min, tol=tol, linalg=linalg,
                 progress=progress, log=log, _cache={} if _cache is None else _cache)
    problem, start_angles = target_problem(structure, targets, percent, paths, duration)
    problem.name = f"{structure.name} to {check_percent(percent):g} % of its target angles"
    C = FoldConstraints(problem)
    S = _Split(C, linalg)
    T = float(duration)
    frame_times, dt, dt_max, dt_min = schedule(T, frame_interval, dt, dt_max, dt_min, T / 50, T * 1e-7)
    R, u = start = C.start()
    Fh, Jh, Fs, Js, Ft, J = S.evaluate(R, u, 0.0)
    res0 = float(np.abs(Fh).max(initial=0.0))
    if res0 > 1e-9:
        worst = S.hard[int(np.argmax(np.abs(Fh)))]
        raise SolverError(f"{problem.name}: the start configuration does not satisfy the constraints "
                          f"({C.row_label(worst)}: residual {res0:.3g})")
    hist = FoldHistory(problem, C.L)
    jr = Jacobian(J, S.method)
    hist.record(0.0, C.vertices(R, u), C.drive_values(R, u), res0, jr.sigma_ratio(), 0, 0.0)
    # the drive values made continuous step by step (a step turns a crease by much less than pi: TURN_CEIL), kept at
    # the frames: a crease that ends at +-180 deg to rounding reads the side it came from (frame_percents)
    along = np.asarray(C.drive_values(R, u), float)
    frame_values = [along.copy()]
    ratio_start = None      # the last frame's singular vectors: the next frame's Lanczos starts from them
    flat = bool(np.all(np.abs(start_angles) <= FLAT_RAD))
    speeds = C.drive_speed
    first, branch_miss = None, None
    if flat and np.any(speeds != 0):
        from ....structure.flat_branch import VertexRows

        rows = VertexRows(problem.structure.pattern)            # the flat start's vertex rows, built once
        try:
            first, branch_miss = _branch(problem, C, R, u, speeds, S.method,
                                         None if _start is None else _start[0], rows, again["_cache"])
        except SolverError as e:
            raise SolverError(_no_branch(problem, C, S, R, u, e, rows)) from None
        if float(np.abs(Jh @ first).max(initial=0.0)) > 1e-8 * float(np.abs(first).max(initial=0.0)):
            # the start's least-squares velocity breaks the hinge constraints: no first-order motion folds it
            raise SolverError(_locked(problem, C, S, R, u) or _no_branch(problem, C, S, R, u, None, rows))
        if _start is None:
            straight = _straightened(problem, C, R, first, rows)
            if straight is not None:                # fold the straightened pattern from the same branch
                return fold_to_targets(**{**again, "structure": straight[2]}, _start=straight[:2] + (False,))
        hist.singular_start = True
        hist.notes.append(f"{problem.name}: the flat start is singular; left on the folding branch nearest the "
                          f"targets" if _start is None else _start[1])
        S.hold(_waiting(C, R, first))
        if len(S.held):
            hist.notes.append(f"{problem.name}: {_held_text(problem, C, S, rows, -(C.hinge_rate_operator(R) @ first))}")
    bar = Progress(T, progress)
    t, fi = 0.0, 0
    free_noted = False
    midway = None            # a state along the way, to count the mechanism's free motions against the stop's
    limit = MAX_TURN         # the predictor's turn limit (rad), from its error (ERROR_RATIO)
    while t < T - 1e-12 * T:
        target = frame_times[fi]
        h = target - t if target - t <= dt * (1 + 1e-9) else dt        # a frame within rounding of a step: landed
        split = h < target - t <= 2 * dt
        if split:
            h = (target - t) / 2                            # two equal steps to the frame, not a step and a short one
        final = t + h >= T * (1 - 1e-12)
        if first is not None and t == 0.0:
            d = h * first
        else:
            d = S.step(R, u, t, h, dt_max, limit)
            turn = S.last_turn                              # the predictor's turn before its cap
            if turn > 1.01 * limit and h > dt_min:
                dt = max(h * limit / turn, dt_min)          # the aim runs ahead of the mechanism: shorter steps
                continue
        Rp, up = exp_update(R, u, d.reshape(-1, 6))
        Rn, un, it, res, ok = S.correct(Rp, up, t + h, tol)
        if ok and jumped(C, R, u, Rp, up, Rn, un, tol):
            ok = False
        if not ok:
            dt = h / 2
            if dt < dt_min:
                bar.close()
                why = ("the corrector jumps away from the predictor (to another branch)" if res <= tol else
                       f"the projection onto the hinge constraints does not converge (hard residual {res:.3g})")
                if first is not None:                       # creases no motion of the flat start turns
                    locked = _locked(problem, C, S, *start)
                    if locked:
                        raise SolverError(locked)
                reached = _reached(C, along, percent)
                if t == 0.0:
                    tail = "; the flat start's folding branch holds only to first order"
                elif first is not None and abs(reached) < 0.01 * float(percent):
                    lines = (_start is None or not _start[2]) and _straight_lines(problem, C, speeds, branch_miss, rows)
                    if lines:                               # fold the straight lines instead
                        return fold_to_targets(**{**again, "structure": lines[2]}, _start=lines[:2] + (True,))
                    tail = "; it does not get away from the flat start" + (
                        f" (the branch it left on meets the vertices' rows to {branch_miss:.1e} of its largest "
                        f"rate)" if branch_miss is not None else "")
                else:
                    tail = "; fold to a smaller percent"
                raise SolverError(f"{problem.name}: the fold cannot follow its mechanism beyond t = {t:.6g} s "
                                  f"({reached:.3g} % of the targets reached): {why} even with step {h:.3g} s; "
                                  f"{_worst_miss(problem, S, Rp, up, t + h)}{tail}")
            continue
        if first is None or t > 0.0:
            limit = _turn_limit(C, R, u, Rp, up, Rn, un, min(turn, limit), limit, tol)
        Rn = reorthonormalize(Rn)
        if final:
            Rn, un, more = S.settle(Rn, un, T, tol)
            it += more
        Fh, Jh, Fs, Js, Ft, J = S.evaluate(Rn, un, t + h)
        if abs(t + h - frame_times[fi]) <= 1e-12 * T or not hist.steps:
            jr = Jacobian(J, S.method)                      # at the frames (steps between them keep the last)
            ratio = jr.sigma_ratio(ratio_start)
            ratio_start = jr.ratio_vectors
        if ratio < SINGULAR_RTOL and not free_noted:
            free_noted = True
            hist.notes.append(f"{problem.name}: the targets and holds leave the fold free motions at t = {t + h:.6g} s "
                              f"(sigma_min/sigma_max = {ratio:.2e}: undriven creases, or a rigid motion no hold "
                              f"stops): the fold moves along them as little as it can (minimum-norm steps)")
        R, u = Rn, un
        along = along + _wrap(C.drive_values(R, u) - along)
        res = float(np.abs(Fh).max(initial=0.0))
        t, fi = accept(hist, C, R, u, t + h, h, it, res, ratio, frame_times, fi, T, log, "iterations")
        frame_values += [along.copy()] * (len(hist.times) - len(frame_values))
        if midway is None and t >= T / 2:
            midway = (R, u, t)
        if it <= 8:                 # chord iterations of the projection: cheap, and linear
            dt = min(1.5 * dt if h >= dt * (1 - 1e-9) or split else dt, dt_max)     # not after a short landing
        bar.update(t, f" residual {res:.1e}")
    bar.close()
    hist.final_poses = (R, u)
    hist.vertex_spread = C.vertex_spread(R, u)
    achieved = start_angles[C.drive_hinge] - C.drive_values(R, u)
    aim = start_angles[C.drive_hinge] - C.drive_speed * T
    miss = np.degrees(np.abs(_wrap(achieved - aim)))     # +-180 deg are one state
    k = int(np.argmax(np.round(miss, 9))) if len(miss) else 0      # ties (symmetric creases): the first
    hist.target_miss = (float(miss[k]) if len(miss) else 0.0, int(C.drive_hinge[k]) if len(miss) else None)
    aim_change = C.drive_speed * T
    n2 = float(aim_change @ aim_change)
    # the frames' drive values made continuous along the fold, step by step (above): a crease that ends at +-180 deg
    # to rounding reads the side it came from, not the other (-100 % for 100 %), however few the frames
    V = np.asarray(frame_values, float).reshape(len(hist.times), -1)
    hist.frame_percents = [float(check_percent(percent)) * (float(v @ aim_change) / n2 if n2 > 0 else t / T)
                           for v, t in zip(V, hist.times)]
    hist.percent_reached = hist.frame_percents[-1] if len(miss) and n2 > 0 else (
        _reached(C, along, percent) if len(miss) else float(percent))
    if hist.target_miss[0] <= REACHED_DEG:
        hist.notes.append(f"every target reached: largest miss {hist.target_miss[0]:.1e} deg")
    else:
        worst = [j for j in np.argsort(-np.round(miss, 9), kind="stable")[:3] if miss[j] > REACHED_DEG]
        hist.notes.append(f"the targets are not a rigid fold on this branch: the fold follows its mechanism until "
                          f"the projected rate vanishes, at {hist.percent_reached:.3g} % of the targets (asked "
                          f"{check_percent(percent):g} %); largest misses "
                          + ", ".join(f"{miss[j]:.3g} deg at hinge {C.drive_hinge[j] + 1} ({_deg(achieved[j]):.6g}"
                                      f" deg against {_deg(aim[j]):.6g} deg)" for j in worst)
                          + f"; {_other_branch(S, R, u, T, midway)}")
    return hist


def _turn_limit(C, R, u, Rp, up, Rn, un, turn, limit, tol):
    """The next predictor's turn limit (rad) after an accepted step from (R, u) that turned ``turn`` (rad) under the
    limit ``limit``, predicted to (Rp, up) and corrected to (Rn, un): the turn at which the corrector would be
    :data:`ERROR_RATIO` of the predictor (their ratio grows as the step: the corrector, the predictor's error, as its
    square), at most doubled or halved, within [:data:`MAX_TURN`, :data:`TURN_CEIL`]: never below the fixed limit it
    replaces (a larger error is the jump test's to judge, as before), longer where the predictor's error is small. A
    corrector at round-off (1e3 ``tol``) doubles it."""
    pred = newton._distance(C, R, u, Rp, up)
    corr = newton._distance(C, Rp, up, Rn, un)
    if not (pred > 0 and turn > 0):
        return limit
    aim = turn * ERROR_RATIO * pred / corr if corr > 1e3 * tol else np.inf
    return float(min(max(aim, 0.5 * limit, MAX_TURN), 2 * limit, TURN_CEIL))


def _deg(x):
    """An angle (rad) in degrees as the notes print it: to 1e-9 deg (the fold's round-off stays below it), so that
    a flat crease reads 0, not -3.9e-19 or -0."""
    return float(np.round(np.degrees(x), 9)) + 0.0


def jumped(C, R, u, Rp, up, Rn, un, tol):
    """Whether a converged corrector jumped to another branch: ``newton.jumped`` (a corrector longer than
    ``newton.JUMP_RATIO`` times the predictor), unless the corrected state lies no farther from the start of the
    step than the predicted one (largest vertex displacement / L): a corrector that takes back what the predictor
    pushed against a constraint (a crease that first-order motions turn and finite ones do not) lands nearer the
    start, not on another branch."""
    if not newton.jumped(C, R, u, Rp, up, Rn, un, tol):
        return False
    return newton._distance(C, R, u, Rn, un) > newton._distance(C, R, u, Rp, up)


def _reached(C, values, percent):
    """The percent of the targets reached (0-100): ``percent`` times the projection of the drive ``values`` reached
    (made continuous along the fold) on the targets' change, (rho - rho0) . (rho* - rho0) / |rho* - rho0|^2 (drive
    convention, rad)."""
    aim = C.drive_speed * C.problem.duration
    n2 = float(aim @ aim)
    return float(check_percent(percent)) * (float(np.asarray(values, float) @ aim) / n2 if n2 > 0 else 1.0)


def _other_branch(S, R, u, T, midway):
    """Whether another branch leaves the stopping state (R, u): the hard rows' free motions there against those at
    ``midway`` (R, u, t) along the way, counted under ``linalg.RANK_RTOL`` (a branch point has more)."""
    def free(R, u, t):
        return _linalg.null_space(S.evaluate(R, u, t)[1], _linalg.RANK_RTOL, S.method).dim

    n_free = free(R, u, T)
    mech = free(*midway) if midway is not None else None
    if mech is not None and n_free > mech:
        return (f"the stop is a branch point ({n_free} free motions against {mech} along the way): a different "
                f"branch leaves it and may go further")
    return (f"no other branch leaves the stop ({n_free} free motion{'s' if n_free != 1 else ''} there, as along "
            f"the way)")


def _waiting(C, R, first):
    """The driven creases (indices into ``C.drive_hinge``) that the flat start's branch velocity ``first`` does not turn:
    rate at most ``flat_branch.ACCEPT`` times the fastest crease's. The fold holds them flat: at a state where they
    are flat the constraints' first-order motions turn them, but no finite fold on this branch does (their vertices'
    second-order rows, ``structure.flat_branch``), and a predictor moving along such a motion meets a corrector that
    cannot bring it back."""
    from ....structure.flat_branch import ACCEPT

    rates = np.abs(C.hinge_rate_operator(R) @ first)
    driven = rates[C.drive_hinge]
    return np.nonzero(driven <= ACCEPT * float(rates.max(initial=0.0)))[0]


def _held_text(problem, C, S, rows, rates, k=3):
    """'n of the m driven creases do not turn on that branch and are held flat: crease ..., ...', and why where a
    vertex of two crossing straight lines says (``flat_branch.flat_reasons``). ``rows``: the pattern's
    ``flat_branch.VertexRows``; ``rates``: the branch's FOLD rates, one a hinge."""
    from ....structure.flat_branch import ACCEPT, flat_reasons

    names = [_crease(problem.pattern, int(C.drive_hinge[j])) for j in S.held[:k]]
    more = f" and {len(S.held) - k} more" if len(S.held) > k else ""
    signs = np.zeros(len(C.hinges))
    signs[C.drive_hinge] = -np.sign(C.drive_speed)                  # FOLD's sign
    rates = np.where(np.abs(rates) > ACCEPT * float(np.abs(rates).max(initial=0.0)), rates, 0.0)
    why = flat_reasons(rows, signs, rates, C.drive_hinge[S.held], lambda h: f"crease {h + 1}")
    return (f"{len(S.held)} of the {len(C.drive_hinge)} driven creases do not turn on that branch (first order) and "
            f"are held flat: {', '.join(names)}{more}" + (f"; {why}" if why else ""))


def _crease(pattern, h):
    """'crease h (panels p and q)', 1-based, of hinge h (0-based)."""
    p, q = pattern.hinges[h].panels
    return f"crease {h + 1} (panels {p + 1} and {q + 1})"


def _worst_miss(problem, S, R, u, t):
    """Where the predicted state (R, u) at time t misses the hinge constraints most: 'the step misses the hinge
    constraints most at crease h (panels p and q)' (a hold's or panel 1's row is named as such)."""
    Fh = S.hard_residual(R, u, t)
    k = int(np.argmax(np.abs(Fh)))
    if k >= len(S.hard):                            # a crease held flat
        return (f"the step misses the hinge constraints most at "
                f"{_crease(problem.pattern, int(S.C.drive_hinge[S.held[k - len(S.hard)]]))}, held flat")
    label = S.C.row_label(int(S.hard[k]))
    where = _crease(problem.pattern, int(label.split()[1]) - 1) if label.startswith("hinge ") else label
    return f"the step misses the hinge constraints most at {where}"


def _locked(problem, C, S, R, u):
    """One line naming the driven creases that no motion of the hinges turns at (R, u), not even to first order
    (their rows of the hinge rates vanish on the free motions of the hard rows, under ``linalg.RANK_RTOL``), with
    their panels (1-based); None when every driven crease can turn."""
    Jh, Js = (lambda x: (x[1], x[3]))(S.evaluate(R, u, 0.0, held=False))
    N = _linalg.null_space(Jh, _linalg.RANK_RTOL, S.method).basis
    rates = np.abs(Js @ N).max(axis=1) if N.shape[1] else np.zeros(Js.shape[0])
    stuck = np.nonzero(rates <= 1e-9 * max(float(rates.max(initial=0.0)), 1.0))[0]
    if not len(stuck):
        return None
    names = [_crease(problem.pattern, int(C.drive_hinge[k])) for k in stuck[:3]]
    more = f" and {len(stuck) - 3} more" if len(stuck) > 3 else ""
    return (f"{problem.name}: not rigidly foldable: no motion of the rigid panels turns {', '.join(names)}{more}, "
            f"not even to first order: the hinges around them lock their panels together")


def _no_branch(problem, C, S, R, u, error, rows=None):
    """The one line when no folding branch leaves the flat start (``start.branch_tangent`` or
    :func:`_no_vertex_branch` raised ``error``; its ``rows`` say which conditions the branches were sought on):
    :func:`_locked` when a driven crease cannot turn at all; else that no branch was found, a search result, not
    saying the pattern is not rigidly foldable (``check`` says that, from the vertices' conditions), unless every
    crease with a target meets a vertex of two crossing straight lines that cannot fold
    (``flat_branch.locked_vertices``): then no branch turns one, a proof."""
    locked = _locked(problem, C, S, R, u)
    if locked:
        return locked
    from ....structure import pattern_check

    wrong = getattr(error, "wrong", None)
    tried = getattr(error, "found", None)
    counts = getattr(error, "against", None)
    pat = problem.pattern

    if wrong is not None:
        against = f"; on every branch found, {_crease(pat, wrong)} turns against its assignment"
    elif tried and counts is not None and counts.max(initial=0) > 0:
        most = int(np.argmax(counts))
        against = (f"; {_crease(pat, most)} turns against its assignment on {int(counts[most])} of the {tried} branches "
                   f"found, the most of any crease")
    elif getattr(error, "worst_row", None):
        row = error.worst_row
        where = _crease(pat, int(row.split()[1]) - 1) if row.startswith("hinge ") else row
        against = f"; the nearest search misses the second-order condition most at {where}"
    else:
        against = ""
    from ....structure.flat_branch import VertexRows, locked_vertices

    rows = VertexRows(pat) if rows is None else rows
    signs, driven = np.zeros(len(C.hinges)), np.zeros(len(C.hinges), bool)
    signs[C.drive_hinge], driven[C.drive_hinge] = -np.sign(C.drive_speed), C.drive_speed != 0     # FOLD's sign
    locked = locked_vertices(rows, signs, driven) if rows.flat else {}
    texts = list(locked.values())
    against += "".join(f"; {x}" for x in texts[:3]) + (f"; and {len(texts) - 3} more such vertices"
                                                       if len(texts) > 3 else "")
    # every crease with a target meets such a vertex: none can turn, whatever branch (a proof, not a search)
    proof = bool(locked) and all(set(pat.hinges[int(h)].vertices) & set(locked) for h in np.nonzero(driven)[0])
    rep = pattern_check.diagnose(problem.structure)
    why = f"; {rep.misfit_text(3)}" if rep.misfits else ""
    more = (any(not (np.isfinite(k) and k <= pattern_check.EXACT) for k in rep.kawasaki) or rep.maekawa_misses
            or rep.open_faces)                    # what check says beyond the misfits named here
    hint = ("a search result, not a proof; check FILE tells more of the pattern's conditions" if more else
            "a search result, not a proof" +
            ("" if rep.misfits else ": every interior vertex meets Kawasaki's and Maekawa's conditions (check FILE)"))
    if proof:
        hint = ("every crease with a target meets a vertex of crossing lines named here, so none turns on any "
                "branch, not only on those found")
    target = (" that turns a crease toward a target angle" if len(C.drive_hinge) < len(C.hinges)
              or np.any(C.drive_speed == 0) else "")
    return (f"{problem.name}: no folding branch{target} leaves the flat start with the creases turning in the signs "
            f"of the mountain-valley assignment ({tried if tried is not None else 'no'} branch "
            f"{'direction satisfies' if tried == 1 else 'directions satisfy'} "
            f"{getattr(error, 'rows', 'the second-order condition')}{against}){why}; {hint}; fold with --drive to "
            f"follow a branch of your choice")


def _branch(problem, C, R, u, speeds, method, given=None, rows=None, cache=None):
    """(velocity, miss): the velocity leaving a flat start on the branch nearest the targets' rates (module doc): ``start.branch_tangent``
    with one exact drive, the assignment's signs and, as the wished rates, the vertex rows' branch nearest the
    targets (:func:`vertex_branch`), fitted on every hinge; where that finds none, the fold-angle multipliers' rates
    (:func:`wished_rates`) with the crease of the largest target change driven. A pattern whose panels make a disk
    and whose vertex rows have no branch in the assignment's signs stops there (:func:`_no_vertex_branch`): the
    vertices' rows are then its whole second-order condition, and the search on the panels would only repeat it,
    at the cost of a sparse factor per step. ``miss``: the largest of the vertex rows' misses of that branch
    (``VertexRows.misses``, relative to its largest rate), None where the multipliers' rates were taken.
    ``given``: FOLD rates (one a hinge) of a branch to leave on instead (``flat_branch.chord_rates``); ``rows``: the
    pattern's ``flat_branch.VertexRows`` (made here when not given); ``cache``: ``start.branch_tangent``'s (the null
    spaces of the hinge rows, kept for a restart of the same fold on its pattern straightened in memory)."""
    from ....structure.flat_branch import VertexRows
    from .start import branch_tangent

    signs = np.zeros(len(C.hinges))
    signs[C.drive_hinge] = np.sign(speeds)
    rows = VertexRows(problem.structure.pattern) if rows is None else rows
    wished = wished_rates(problem.structure, C, speeds)
    if given is None:
        wish, k = vertex_branch(rows, C, speeds, wished)
    else:
        k = int(np.argmax(np.abs(given[C.drive_hinge])))
        wish = -np.asarray(given, float) * (speeds[k] / -given[C.drive_hinge[k]])
    exact = wish is not None
    miss = max(rows.misses(-wish)[:2]) if exact else None
    if not exact:
        _no_vertex_branch(rows, signs)
        wish = wished
    h0 = int(C.drive_hinge[k])
    if wish[h0] * speeds[k] > 0:
        wish = wish * (speeds[k] / wish[h0])       # the exact drive's rate, which the velocities keep
    aux = FoldProblem(problem.structure, [Drive(h0, rate=float(speeds[k]))], problem.paths, problem.duration)
    v = branch_tangent(FoldConstraints(aux), R, u, signs, method=method, rates=wish, fit_all=exact,
                       cache=cache)
    return v, miss


def _straightened(problem, C, R, first, rows):
    """(FOLD rates, note, structure) of a flat start's branch velocity ``first`` whose lines of turning creases have
    kinks of rounding (``flat_branch.straighten``: the creases turning faster than ``flat_branch.ACCEPT`` times the
    fastest, as :func:`_waiting` holds the others flat), with those lines straightened in memory; None where
    nothing moves by more than round-off (1e-14 x the pattern's size). ``rows``: the pattern's
    ``flat_branch.VertexRows``."""
    from ....structure.flat_branch import ACCEPT, straighten

    pattern = problem.structure.pattern
    r = -(C.hinge_rate_operator(R) @ first)                 # FOLD's sign
    r = np.where(np.abs(r) > ACCEPT * float(np.abs(r).max(initial=0.0)), r, 0.0)
    if not r.any():
        return None
    X, move = straighten(rows, pattern, r)
    if move <= 1e-14 * pattern.size:                        # exact to round-off: nothing to straighten
        return None
    return r / np.abs(r).max(), (f"{problem.name}: the flat start is singular; left on the folding branch nearest "
                                 f"the targets, the creases it turns put in line in memory where two of them meet "
                                 f"nearly in line (largest vertex move {move:.1e})"), \
        problem.structure.with_pattern(pattern.with_vertices(X))


def _straight_lines(problem, C, speeds, miss, rows):
    """(FOLD rates, note, structure) of the flat start's fallback branch, for a start whose nearest branch (meeting
    the vertex rows to ``miss``) the panels cannot follow: the straight crease lines running edge to edge that the
    targets fold (``flat_branch.chord_rates``), and the structure with each such line's vertices put on the line
    (``flat_branch.straighten``) in memory. None where there are none. ``rows``: the pattern's
    ``flat_branch.VertexRows``."""
    from ....structure.flat_branch import chord_rates, straight_lines, straighten

    structure = problem.structure
    pattern = structure.pattern
    chords = straight_lines(rows, pattern)
    wish, signs = np.zeros(len(C.hinges)), np.zeros(len(C.hinges))
    wish[C.drive_hinge], signs[C.drive_hinge] = -speeds, -np.sign(speeds)        # FOLD's sign
    r = chord_rates(rows, pattern, wish, signs, chords)
    if r is None or not np.any(r[C.drive_hinge]):
        return None
    lines = [line for line in chords if np.any(r[line])]
    X, move = straighten(rows, pattern, r)
    near = f" (it meets the vertices' rows to {miss:.1e} of its largest rate)" if miss is not None else ""
    return r, (f"{problem.name}: the flat start is singular, and the panels cannot follow its folding branch nearest "
               f"the targets{near}: left instead on {len(lines)} straight crease line{'s' if len(lines) != 1 else ''} "
               f"running edge to edge, which fold rigidly on their own ({int(np.count_nonzero(r))} creases; their "
               f"vertices put on their lines in memory, largest move {move:.1e})"), \
        structure.with_pattern(pattern.with_vertices(X))


def _no_vertex_branch(rows, signs):
    """Where the panels make a disk (``flat_branch.VertexRows.disk``), raise the start's ``SolverError`` from the vertex
    rows' branches in any signs (``flat_branch.branch_search``): how many were found, the crease turning against its
    assignment on most of them, or the vertex where the nearest search misses most (:func:`_no_branch` words it).
    ``rows``: the pattern's ``VertexRows``; ``signs``: the drive convention's, one a hinge. Returns None where the
    panels do not make a disk."""
    from ....structure.flat_branch import branch_search

    if not rows.disk:
        return None
    found, against, worst = branch_search(rows, -signs)
    e = SolverError("no folding branch leaves this start with the hinge signs of the mountain-valley assignment")
    e.found = len(found)
    e.wrong = int(np.argmax(against)) if found and against.max() == len(found) else None
    e.against = against
    e.worst_row = None if worst is None else f"vertex {worst + 1}"
    e.rows = "every interior vertex's first- and second-order rows"
    raise e


def vertex_branch(rows, C, speeds, wished):
    """(rates, k): relative rates (the drive convention: minus FOLD's) of every hinge on a folding branch of the flat
    start found vertex by vertex (``structure.flat_branch.branch_rates``: each interior vertex's first- and
    second-order rows ``rows``, ``VertexRows``; the signs of ``speeds``), from the targets' and multipliers' rates
    ``wished`` (:func:`wished_rates`), and the driven crease k (index into ``C.drive_hinge``) to drive exactly. First with the crease of the largest
    target change turning at its rate; where no such branch is found, on any branch, driving its fastest driven
    crease (a branch on which the largest target's crease starts at a higher order); where the searches find none
    that turns a driven crease, on the straight lines running edge to edge that the targets fold in their signs
    (``flat_branch.chord_rates``: a rigid fold of part of the pattern, the other creases flat). Driven creases whose
    target is 0 ("F": flat creases) are kept flat first, and free only where no branch keeps them so. (None, k of
    the largest target change) where none is found."""
    from ....structure.flat_branch import branch_rates

    from ....structure.flat_branch import ACCEPT, chord_rates

    k = int(np.argmax(np.abs(speeds)))
    fold_signs = np.zeros(len(C.hinges))          # FOLD's sign: minus the drive convention's
    fold_signs[C.drive_hinge] = -np.sign(speeds)
    flat = np.zeros(len(C.hinges), bool)          # driven creases whose target is the flat start ("F"): kept flat
    flat[C.drive_hinge] = speeds == 0
    wish = np.zeros(len(C.hinges))
    wish[C.drive_hinge] = -speeds

    def turns(r):                                 # a branch that turns a crease toward a target of its own
        return r is not None and np.abs(r[C.drive_hinge[speeds != 0]]).max(initial=0.0) > ACCEPT

    for keep in ((flat, None) if flat.any() else (None,)):
        r, j = branch_rates(rows, fold_signs, wish=-wished, drive=int(C.drive_hinge[k]), flat=keep)[0], k
        if r is None:
            r = branch_rates(rows, fold_signs, wish=-wished, flat=keep)[0]
            if not turns(r):
                # the least squares' starts can miss a branch that folds part of the pattern (creases with no
                # target left out of the wish): the straight lines running edge to edge that the targets fold
                r = chord_rates(rows, C.problem.structure.pattern, wish, fold_signs, flat=keep)
            if not turns(r):
                continue
            j = int(np.argmax(np.abs(r[C.drive_hinge]) * (speeds != 0)))     # driven at a rate of its own
        k = j
        break
    else:
        return None, k
    h0 = int(C.drive_hinge[k])
    return -r * (speeds[k] / -r[h0]), k


def wished_rates(structure, C, speeds):
    """Wished relative rates (rad/s, the drive convention) of every hinge at a flat start: the targets' rates
    ``speeds`` of the driven creases, replaced on each component of creases that the fold-angle multipliers of
    degree-4 vertices link (``pattern_check.multiplier_rates``) by the multipliers' rates, scaled to fit the
    targets' rates there in least squares (the drive convention is minus FOLD's fold angle)."""
    from ....structure.pattern_check import multiplier_rates

    rates = np.zeros(len(C.hinges))
    rates[C.drive_hinge] = speeds
    mult, comp = multiplier_rates(structure)
    for k in set(comp.values()):
        hs = np.array([h for h, c in comp.items() if c == k], int)
        w = -np.array([mult[h] for h in hs])
        aim = rates[hs]
        if len(hs) < 2 or not np.any(aim):
            continue
        scale = float(w @ aim) / float(w @ w)
        if scale > 0:                              # the assignment's signs: the multipliers carry them
            rates[hs] = scale * w
    return rates
