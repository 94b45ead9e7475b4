"""The paper's folding integrator: Newton-Raphson on SE(3)^N (sec. 3.4, eqs. 32-33).

Time is advanced in steps. At each step the start of the step is moved along
the tangent of the fold (a predictor, J v = -dF/dt), then corrected at the new
time by Newton iterations on the Lie group, eq. (32)-(33):

    F(g_n) + J(g_n) delta = 0,   g_{n+1} = exp(delta) g_n,

with the minimum-norm least-squares solution of the linear system (the
constraints of a fold may be redundant, as the paper's Yoshimura example is).

Step-size control: a step is accepted when Newton converges (max |F| below
``tol``, scaled units) within ``max_iter`` iterations with a contracting
residual and a corrector shorter than half the predictor, both measured as
the largest vertex displacement / L (:func:`jumped`: a longer corrector
jumped to another branch); otherwise the step is halved. After an easy step it grows by 1.5 up to ``dt_max``.

Singularity: the driven fold is regular where the constraint Jacobian J has
full column rank 6N (one velocity for the given drive rates). The ratio
sigma_6N / sigma_1 of its singular values is checked at every accepted step;
below ``singular_rtol`` (or when the step has to shrink below ``dt_min``
while the ratio is small) the fold stops with
:class:`~chrono_origami.tools.errors.SingularConfigurationError` instead of letting Newton jump
to another branch.

Linear algebra (``linalg="auto"|"dense"|"sparse"``, one switch,
``linalg.choose_method`` on J's shape): J is sparse (``FoldConstraints``);
"dense" forms it and uses LAPACK, "sparse" factors it by SuiteSparseQR and
never forms a dense whole-structure matrix (see ``tools.jacobian``). One
factor per state serves its solves: each Newton iterate's, and at an accepted
state both its sigma ratio and the predictor of the next step.
"""
import numpy as np

from ....results.fold import FoldHistory
from ....tools import linalg as _linalg
from ....tools import memory as _memory
from ....tools.errors import SingularConfigurationError, SolverError
from ....tools.jacobian import SINGULAR_RTOL, Jacobian
from ....tools.progress import Progress
from .constraints import FoldConstraints
from .lie import exp_update, reorthonormalize
from ....inputs.fold import file_assignment

#: Newton tolerance on max |F| (scaled units: lengths / L, angles in rad).
TOL = 1e-12
#: near-singular ratio that turns a failed step at dt_min into a singularity report.
NEAR_SINGULAR_RTOL = 1e-3
#: a converged step whose corrector is longer than this fraction of its predictor jumped branch (:func:`jumped`)
JUMP_RATIO = 0.5


def newton(C, R, u, time, tol=TOL, max_iter=12, method="auto"):
    """Newton-Raphson on the Lie group at fixed ``time``: returns (R, u, iterations, max|F|, converged)."""
    F, J, _ = C.evaluate(R, u, time)
    res = np.abs(F).max()
    it = 0
    while res > tol and it < max_iter:
        delta = Jacobian(J, method).solve(-F)
        R, u = exp_update(R, u, delta.reshape(-1, 6))
        F, J, _ = C.evaluate(R, u, time)
        new = np.abs(F).max()
        it += 1
        if it > 2 and new > 0.5 * res:
            return R, u, it, new, False
        res = new
    return R, u, it, res, res <= tol


def _describe_free(C, jac, k=3):
    """Which panels move in a free direction of the :class:`~chrono_origami.tools.jacobian.Jacobian` ``jac`` (a short text)."""
    v = jac.free_motion(SINGULAR_RTOL).reshape(-1, 6)
    mag = np.linalg.norm(v, axis=1)
    panels = [int(p) + 1 for p in np.argsort(-mag)[:k] if mag[p] > 1e-6 * mag.max()]
    return f"a free motion moves panels {panels} most"


@_memory.guarded(lambda problem, *a, **k: f"folding {_memory.about(problem)}")
def fold(problem, frame_interval=None, dt=None, dt_max=None, dt_min=None, tol=TOL,
         singular_rtol=SINGULAR_RTOL, allow_singular_start=False, assignment=None, progress=None, log=None,
         linalg="auto"):
    """Fold ``problem`` from its start configuration for ``problem.duration`` seconds.

    frame_interval : s between stored frames (default: duration / 20); the
        start and the end are always stored.
    dt, dt_max, dt_min : first, largest and smallest step (s); defaults
        duration/200, duration/20, duration*1e-9.
    allow_singular_start : a start at a singular configuration (e.g. a flat
        state) raises unless True; then the first step leaves it along the
        minimum-norm tangent, or along the branch chosen by ``assignment``,
        and the start is recorded as singular in the history.
    assignment : {hinge: +1 or -1} (0-based hinges, the driven-angle sign
        convention; see :func:`assignment_from_fold` for FOLD's M/V): at a
        singular start, the folding branch to take (``start.branch_tangent``).
        Default (None): the M/V assignment of the file the structure was read
        from (``problem.file_assignment``), if any; {} takes none.
    progress : progress bar on stderr: True, False, or None (default: only
        when stderr is a terminal).
    log : callable(str) receiving one line per accepted step (time, step,
        iterations, residual, sigma ratio).
    linalg : "auto", "dense" or "sparse": the linear algebra of the solves,
        sigma ratios and rank checks (module doc); "auto" is dense up to
        ``linalg.DENSE_LIMIT`` columns (6 per panel).

    The start is singular when J has fewer rows than columns or its sigma
    ratio is below ``linalg.RANK_RTOL``; its free directions are counted
    under that tolerance (``linalg.null_space``).

    Returns a :class:`~chrono_origami.results.fold.FoldHistory`.
    """
    C = FoldConstraints(problem)
    method = _linalg.choose_method((C.n_rows, C.n_cols), linalg)
    T = float(problem.duration)
    frame_times, dt, dt_max, dt_min = schedule(T, frame_interval, dt, dt_max, dt_min, T / 200, T * 1e-9)
    R, u = C.start()
    F, J, _ = C.evaluate(R, u, 0.0)
    hist = FoldHistory(problem, C.L)
    res0 = float(np.abs(F).max())
    if res0 > 1e-9:
        worst = int(np.argmax(np.abs(F)))
        raise SolverError(f"{problem.name}: the start configuration does not satisfy the constraints "
                          f"({C.row_label(worst)}: residual {res0:.3g})")
    jac = Jacobian(J, method)
    ratio0 = jac.sigma_ratio()
    if J.shape[0] < J.shape[1] or ratio0 < _linalg.RANK_RTOL:
        # free motions at the start: a singular start, or a fold that drives and holds too little
        n_free = max(_linalg.null_space(J, _linalg.RANK_RTOL, method).dim, 1)
        free = f"{n_free} free direction(s)"
        msg = (f"{problem.name}: the start configuration is singular for this fold: the constraint Jacobian has "
               f"{free} ({_describe_free(C, jac)}); the drives and vertex holds do not "
               f"determine the motion here")
        if not allow_singular_start:
            raise SingularConfigurationError(msg + " (pass allow_singular_start=True to leave it along the "
                                             "minimum-norm tangent)", 0.0, C.vertices(R, u), hist, ratio0)
        hist.notes.append(msg)
        hist.singular_start = True
    start_tangent = None
    if assignment is None:
        assignment = file_assignment(problem.structure)
    if hist.singular_start and assignment:
        from .start import branch_tangent

        signs = np.zeros(len(C.hinges))
        for h, sgn in dict(assignment).items():
            if not 0 <= h < len(signs):
                raise SolverError(f"assignment names hinge {h + 1}, which does not exist (1..{len(signs)})")
            signs[h] = np.sign(sgn)
        start_tangent = branch_tangent(C, R, u, signs, method=method)
    hist.record(0.0, C.vertices(R, u), C.drive_values(R, u), res0, ratio0, 0, 0.0)
    bar = Progress(T, progress)
    t = 0.0
    fi = 0
    last_ratio = ratio0
    while t < T - 1e-12 * T:
        target = frame_times[fi]
        h = min(dt, target - t)
        F, _, Ft = C.evaluate(R, u, t, jacobian=False)   # J at (R, u, t) is jac's
        v = start_tangent if (start_tangent is not None and t == 0.0) else jac.solve(-Ft)
        Rp, up = exp_update(R, u, (h * v).reshape(-1, 6))
        Rn, un, it, res, ok = newton(C, Rp, up, t + h, tol, method=method)
        if ok and jumped(C, R, u, Rp, up, Rn, un, tol):
            ok = False            # the corrector must stay small beside the predictor: no jump to another branch
        if not ok:
            dt = h / 2
            if dt < dt_min:
                bar.close()
                verts = C.vertices(R, u)
                if last_ratio < NEAR_SINGULAR_RTOL:
                    raise SingularConfigurationError(
                        f"{problem.name}: singular configuration at t = {t:.6g} s: the fold cannot continue on "
                        f"its branch (constraint Jacobian sigma_min/sigma_max = {last_ratio:.2e}, "
                        f"{_describe_free(C, jac)}); drive values {_fmt(problem, C.drive_values(R, u))}",
                        t, verts, hist, last_ratio)
                raise SolverError(f"{problem.name}: Newton did not converge at t = {t + h:.6g} s even with "
                                  f"step {h:.3g} s (residual {res:.3g}); the drives may be incompatible with the "
                                  f"vertex holds")
            continue
        Rn = reorthonormalize(Rn)
        Fn, Jn, _ = C.evaluate(Rn, un, t + h)
        jac_n = Jacobian(Jn, method)
        ratio = jac_n.sigma_ratio(jac.ratio_vectors)       # Lanczos from the last state's singular vectors
        if ratio < singular_rtol:
            bar.close()
            hist.record(t + h, C.vertices(Rn, un), C.drive_values(Rn, un), float(np.abs(Fn).max()), ratio, it, h)
            raise SingularConfigurationError(
                f"{problem.name}: singular configuration at t = {t + h:.6g} s: the constraint Jacobian lost rank "
                f"(sigma_min/sigma_max = {ratio:.2e} < {singular_rtol:g}; {_describe_free(C, jac_n)}); "
                f"stopping instead of continuing on an undetermined branch; drive values "
                f"{_fmt(problem, C.drive_values(Rn, un))}", t + h, C.vertices(Rn, un), hist, ratio)
        R, u, jac = Rn, un, jac_n
        last_ratio = ratio
        t, fi = accept(hist, C, R, u, t + h, h, it, float(np.abs(Fn).max()), ratio, frame_times, fi, T, log, "newton")
        if it <= 3:
            dt = min(1.5 * h if h == dt else dt, dt_max)
        bar.update(t, f" residual {res:.1e}")
    bar.close()
    hist.final_poses = (R, u)
    hist.vertex_spread = C.vertex_spread(R, u)
    return hist


def schedule(T, frame_interval, dt, dt_max, dt_min, dt_first, dt_smallest):
    """(frame times, first step, largest step, smallest step) of a fold of ``T`` seconds: frames every
    ``frame_interval`` (default T / 20) and at T; steps by default ``dt_first``, at most T / 20, at least
    ``dt_smallest`` (s)."""
    frame_interval = T / 20 if frame_interval is None else float(frame_interval)
    if not frame_interval > 0:
        raise SolverError(f"frame_interval must be positive, got {frame_interval}")
    dt_max = T / 20 if dt_max is None else float(dt_max)
    dt = min(dt_first if dt is None else float(dt), dt_max)
    dt_min = dt_smallest if dt_min is None else float(dt_min)
    n_frames = int(np.floor(T / frame_interval + 1e-9))
    frame_times = [k * frame_interval for k in range(1, n_frames + 1)]
    if not frame_times or frame_times[-1] < T - 1e-12 * T:
        frame_times.append(T)
    return frame_times, dt, dt_max, dt_min


def accept(hist, C, R, u, t, h, it, res, ratio, frame_times, fi, T, log, word):
    """Record an accepted step at time t (s) in ``hist`` (and a frame when t is the next frame time), log it;
    returns (t, index of the next frame time)."""
    hist.steps.append((t, h, it, res, ratio))
    if log:
        log(f"t = {t:.6g} s  dt = {h:.3g} s  {word} {it}  residual {res:.2e}  sigma ratio {ratio:.2e}")
    if abs(t - frame_times[fi]) <= 1e-12 * T:
        t = frame_times[fi]
        hist.record(t, C.vertices(R, u), C.drive_values(R, u), res, ratio, it, h)
        fi += 1
    return t, fi


def jumped(C, R, u, Rp, up, Rn, un, tol):
    """Whether a converged corrector jumped to another branch: its length, from the predictor (Rp, up) to the
    converged state (Rn, un), above ``JUMP_RATIO`` times the predictor's, from the start of the step (R, u) to
    (Rp, up), and above 1e3 ``tol`` (round-off). Both are measured alike: the largest vertex displacement / L
    (:func:`_distance`), so the test is the same for any number of panels and mixes no radians with lengths."""
    corrector = _distance(C, Rp, up, Rn, un)
    return corrector > JUMP_RATIO * _distance(C, R, u, Rp, up) and corrector > 1e3 * tol


def _distance(C, R1, u1, R2, u2):
    """Largest vertex displacement (scaled) between two states."""
    return float(np.abs(C.vertices(R1, u1) - C.vertices(R2, u2)).max() / C.L)


def _fmt(problem, values):
    """Driven values as a person reads them: a rotation as the change of the FOLD fold angle (rad, valley
    positive: minus the drive's relative rotation), a slide in length units."""
    return ", ".join(f"hinge {d.hinge + 1}: {(-x if d.kind == 'rotation' else x):.6g}"
                     f"{' rad (fold angle change)' if d.kind == 'rotation' else ' (slide)'}"
                     for d, x in zip(problem.drives, values))
