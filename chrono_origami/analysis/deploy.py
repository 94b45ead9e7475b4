"""Deployment: actuator torques and hinge forces at every stored frame of a fold (``fold --forces``).

A fold history (``results.fold.FoldHistory``) gives the kinematics; the structure gives the supports and loads.
At each stored frame (:func:`frame_loop`):

* the frame is placed rigidly so that the supported vertices stay where they are at frame 0 in their held
  directions (:func:`place_frames`; the fold itself holds panel 1): supports then do no work, and gravity keeps
  its direction;
* the actuated hinges are held at their angle: a door hinge becomes a joint that locks the rotation about its
  axis too (the kind ``joined``), a sliding hinge one that leaves only the slide free (:func:`held_structure`);
  the reaction of that extra row is the motor's torque, the hinge's moment about its own axis;
* statics by the reference engine (``analysis.static``): rigid where the held structure is determined (M = S =
  0); with ``elastic=True`` elastic hinges (``engines.reference.elastic``) at every frame, which is the determined
  answer where there is one and the forces elastic hinges carry where there is not; without it an
  undetermined frame ends the analysis (``IndeterminateError``, exit 3) naming ``design`` and ``--elastic``.

Torque (N m, FOLD sign): tau = -M_q . t, with M_q the moment the held hinge applies to its second panel q and t
its axis as run by its first panel p (``structure.hinges``); the fold angle is minus q's rotation about t
(``crease.pattern.hinge_rotations``), so the motor's power is tau dtheta/dt: a positive torque drives the fold
angle up, and sum int tau dtheta = the rise of the loads' potential energy (the work check,
``results.deploy.WorkCheck``).

Actuators (:func:`choose_actuators`): by default one per mechanism of the supported structure at the middle
frame, each where the mechanisms still free turn a crease fastest (as ``support.mechanism_stops`` chooses held
directions); a crease the mechanisms do not turn cannot hold them and is refused (:func:`check_actuators`).
``cli.modal``'s ``fold --modes`` may reuse :func:`choose_actuators`, :func:`held_structure`, :func:`place_frames`
and :func:`frame_loop`.
"""
from contextlib import contextmanager

import numpy as np

from .. import engines
from ..crease.pattern import fold_angles
from ..engines.protocol import HELD_MOTORS
from ..results.count import number_ranges
from ..results.deploy import Deployment
from ..structure import hinges
from ..structure.hinges import DOOR, JOINED, SLIDING, HingeKind, hinge_frames
from ..tools.errors import IndeterminateError, StructureError, UsageError
from ..tools.linalg import RANK_RTOL

#: the kind of a held sliding hinge: only the slide along the axis free (registered while a deployment runs)
HELD_SLIDING = "sliding, held"
#: a placed frame's supported vertices may leave their held directions by this fraction of the size (else refused)
PLACE_RTOL = 1e-7
#: a crease turns in the mechanisms when its rate is above this fraction of the fastest crease's
TURNS_RTOL = 1e-6
#: rates of the default actuators within this relative distance of the largest are a tie (``choose_actuators``):
#: symmetric creases, equal to round-off, which the round-off of the fold would otherwise choose among
TIE_RTOL = 1e-9


@contextmanager
def held_kinds():
    """Register :data:`HELD_SLIDING` for the duration (a kind only a deployment uses)."""
    mine = HELD_SLIDING not in hinges.KINDS
    if mine:
        hinges.register(HingeKind(HELD_SLIDING, ("z",), description="sliding hinge held at its angle by a motor"))
    try:
        yield
    finally:
        if mine:
            hinges.unregister(HELD_SLIDING)


def held_structure(structure, actuators):
    """``structure`` with the ``actuators`` (0-based hinges) held at their angle: door -> joined, sliding ->
    :data:`HELD_SLIDING` (inside :func:`held_kinds`)."""
    kinds = list(structure.hinge_kinds)
    for h in actuators:
        kinds[h] = JOINED if kinds[h] == DOOR else HELD_SLIDING
    return structure.with_hinge_kinds(kinds)


def check_kinds(structure, actuators):
    """Refuse (``StructureError``) an actuator that is not a door or sliding hinge, or named twice."""
    seen = set()
    for h in actuators:
        k = structure.hinge_kinds[h]
        if k not in (DOOR, SLIDING):
            raise StructureError(f"hinge {h + 1} is a {k} hinge: a motor turns a door or sliding hinge about its "
                                 f"axis")
        if h in seen:
            raise StructureError(f"hinge {h + 1} is named twice")
        seen.add(h)


# ------------------------------------------------------------------ frames
def frame_structure(structure, X):
    """The structure with the vertex positions ``X`` (V x 3) of a rigid fold's frame; its panels' mass properties
    are the structure's moved with each panel (``properties.moved_mass_properties``), not rebuilt from the solids."""
    from ..structure.properties import moved_mass_properties, with_mass_properties

    X = np.asarray(X, float)
    return with_mass_properties(structure.with_pattern(structure.pattern.with_vertices(X)),
                                moved_mass_properties(structure, X))


def place_frames(structure, frames):
    """The frames (V x 3 each) moved rigidly so that every supported vertex stays at its frame-0 position in its
    held directions (Gauss-Newton on the six rigid motions; least squares when the supports hold fewer).
    Refuses (``StructureError``) supports that the fold moves in a held direction (they stop the fold)."""
    sup = [(s.vertex, "xyz".index(d)) for s in structure.supports for d in s.dofs]
    frames = [np.asarray(X, float) for X in frames]
    if not sup:
        return frames
    v = np.array([a for a, _ in sup])
    E = np.eye(3)[[d for _, d in sup]]
    L = structure.pattern.size or 1.0
    target = np.einsum("ij,ij->i", frames[0][v], E)
    out = [frames[0]]
    for k, X in enumerate(frames[1:], 1):
        Y = X.copy()
        for _ in range(20):
            c = Y.mean(axis=0)
            r = np.einsum("ij,ij->i", Y[v], E) - target
            J = np.hstack([np.cross(Y[v] - c, E) / L, E])          # (omega L, w) on e . (omega x (y - c) + w)
            step = np.linalg.lstsq(J, -r, rcond=1e-12)[0]
            om, w = step[:3] / L, step[3:]
            th = np.linalg.norm(om)
            if th > 0:
                K = np.array([[0, -om[2], om[1]], [om[2], 0, -om[0]], [-om[1], om[0], 0]]) / th
                R = np.eye(3) + np.sin(th) * K + (1 - np.cos(th)) * K @ K
                Y = (Y - c) @ R.T + c
            Y = Y + w
            if np.linalg.norm(step) < 1e-15 * L:
                break
        r = np.einsum("ij,ij->i", Y[v], E) - target
        worst = int(np.argmax(np.abs(r)))
        if abs(r[worst]) > PLACE_RTOL * L:
            raise StructureError(f"the supports stop the fold: at frame {k} the support at vertex {v[worst] + 1} "
                                 f"would move by {abs(r[worst]):.3g} along {'xyz'[sup[worst][1]]}, which it holds "
                                 f"(a deployment's supports must let it fold: hold the vertices of one panel, as "
                                 f"fold --forces --support auto does)")
        out.append(Y)
    return out


def panel_support(structure, panel=0):
    """Supports (0-based records) of the fewest held directions that stop the rigid-body motions, all on one
    ``panel`` (default panel 1, the one the fold holds): ``support.propose_support``'s 3-2-1 rule on that panel's
    vertices alone. A deployment's supports must let the fold proceed; supports spread over the whole sheet (the
    proposal for statics) hold vertices whose distances the fold changes, and stop it (:func:`place_frames`)."""
    from ..crease.pattern import CreasePattern
    from ..structure.structure import Structure, Support
    from .support import propose_support

    loop = list(structure.pattern.panels[panel])
    one = Structure(CreasePattern(structure.pattern.vertices[loop], [list(range(len(loop)))]), name=structure.name)
    return tuple(Support(loop[s.vertex], panel, s.dofs) for s in propose_support(one).supports)


def potential(structure):
    """The loads' potential energy V = -sum F . x (dead loads and gravity; work units) at the structure's state."""
    return -sum(float(np.dot(F, x)) for _, x, F in structure.panel_loads())


def load_total(structure):
    """The loads' total magnitude sum |P| (dead loads and weights; force units) at the structure's state: the
    scale of a frame's amplification (``results.deploy``)."""
    return float(sum(np.linalg.norm(F) for _, _, F in structure.panel_loads()))


def torques(result, actuators):
    """The motors' torques (N m, FOLD sign; module doc) of a static result of the held structure."""
    pat = result.structure.pattern
    t = hinge_frames(pat)[0]
    out = []
    for h in actuators:
        q = pat.hinges[h].panels[1]
        out.append(-float(np.dot(result.action(h, q).moment, t[h])))
    return out


# ------------------------------------------------------------------ actuators
def hinge_rates(structure, counts):
    """(H x M): each hinge's rate of relative rotation about its axis in each mechanism (orthonormal basis of
    ``counts``, rad per unit of the scaled velocities)."""
    N = np.asarray(counts.mechanisms)
    pat = structure.pattern
    t = hinge_frames(pat)[0]
    pq = np.array([h.panels for h in pat.hinges])
    W = N.reshape(pat.n_panels, 6, -1)[:, :3, :]                  # panels x 3 x M angular velocities
    return np.einsum("hi,him->hm", t, W[pq[:, 1]] - W[pq[:, 0]])


def choose_actuators(structure, counts):
    """The default actuators (0-based hinges, door or sliding): one per mechanism of the supported ``structure``
    (``counts``: its counts at the frame of choice), each the crease whose rate, orthogonal to those of the
    creases taken, is largest (``support.mechanism_stops``' rule on hinge rates; rates within :data:`TIE_RTOL` of the
    largest are a tie, symmetric creases equal to round-off, and the lowest-numbered crease is taken): held together
    they stop every mechanism. [] when M = 0."""
    if counts.M == 0:
        return []
    A = hinge_rates(structure, counts)
    ok = np.array([k in (DOOR, SLIDING) for k in structure.hinge_kinds])
    A = np.where(ok[:, None], A, 0.0)
    scale = np.abs(A).max()
    taken, Q = [], np.zeros((0, A.shape[1]))
    while len(taken) < counts.M:
        resid = A - (A @ Q.T) @ Q
        norms = np.linalg.norm(resid, axis=1)
        h = int(np.argmax(norms >= (1 - TIE_RTOL) * norms.max()))     # ties (symmetric creases): the first
        if not norms[h] > TURNS_RTOL * scale:
            break
        taken.append(h)
        Q = np.vstack([Q, resid[h] / norms[h]])
    return taken


def check_actuators(structure, counts, actuators):
    """Refuse (``StructureError``, one line) an actuator that the mechanisms of the supported structure do not
    turn (it cannot hold them). Returns the number of mechanisms the actuators leave free (0: they hold them)."""
    check_kinds(structure, actuators)
    if counts.M == 0:
        return 0
    A = hinge_rates(structure, counts)
    scale = np.abs(A).max()
    for h in actuators:
        if not np.linalg.norm(A[h]) > TURNS_RTOL * scale:
            raise StructureError(f"hinge {h + 1} does not turn in the fold's mechanism"
                                 f"{'s' if counts.M > 1 else ''} (M = {counts.M}): a motor there cannot hold "
                                 f"the motion; actuate a crease that turns")
    s = np.linalg.svd(A[list(actuators)], compute_uv=False) if actuators else np.zeros(0)
    return int(counts.M - np.sum(s > TURNS_RTOL * scale))


def actuator_line(actuators):
    """The ``--actuate`` option to copy (1-based)."""
    return f"--actuate {number_ranges([h + 1 for h in actuators]).strip('[]')}"


# ------------------------------------------------------------------ the per-frame loop
def smallest_singular(counts):
    """The held structure's smallest singular value over its largest: the smallest kept one (``counts.gap``), or
    where mechanisms remain (M > 0: more than the actuators hold; a singular state) the largest counted as zero."""
    if counts.gap is None:
        return 0.0
    x = counts.gap[1] if counts.M else counts.gap[0]
    return float(x) if np.isfinite(x) else 0.0


def frame_statics(held, elastic=False, stiffness=None, rtol=RANK_RTOL, linalg="auto", frame=None, motors=None):
    """(StaticResult, status, sigma_min_rel, (M, S)) of a held structure at one frame, counted by the reference
    engine: "determined" (rigid statics) or, with ``elastic``, "elastic" at every frame (an isostatic frame's elastic
    answer is the determined one, whatever the stiffness); without it an undetermined frame raises ``IndeterminateError``
    (exit 3) naming ``design`` and ``--elastic``. ``motors``: (engine with ``HELD_MOTORS``, actuators, hinge kinds)
    solves a determined frame with the actuators held by that engine's motors (Chrono) instead of the reference
    engine's held rows."""
    from . import static as analysis

    eng = engines.get("reference", notice=False)
    counts = analysis.count(held, eng, rtol=rtol, linalg=linalg)
    sigma = smallest_singular(counts)
    if counts.isostatic and not elastic:
        if motors is not None:
            by, actuators, kinds = motors
            where = f"{held.name}, frame {frame}" if frame is not None else held.name
            res = by.held_static(held, actuators, counts, kinds, label=where)
        else:
            res = analysis.static(held, eng, counts=counts, rtol=rtol, linalg=linalg)
        return res, "determined", sigma, (counts.M, counts.S)
    if not elastic:
        where = f"frame {frame}" if frame is not None else "a frame"
        raise IndeterminateError(
            f"{held.name}: the forces at {where} are not determined with the actuators held (M = {counts.M}, "
            f"S = {counts.S}): --elastic gives the forces of elastic hinges; design makes the structure "
            f"isostatic (the kinematics are written)", counts.M, counts.S)
    res = analysis.static(held, eng, elastic=True, stiffness=stiffness, counts=counts, sensitivity=False,
                          rtol=rtol, linalg=linalg)
    return res, "elastic", sigma, (counts.M, counts.S)


def frame_loop(structure, frames, actuators, solve, progress=None):
    """Yield (k, placed frame structure, held structure, solve(held, k)) for every frame of ``frames`` (placed:
    :func:`place_frames`) with ``actuators`` held; inside :func:`held_kinds`. ``solve``: per-frame analysis,
    e.g. :func:`frame_statics` (a modal analysis along the fold may pass its own)."""
    placed = place_frames(structure, frames)
    with held_kinds():
        for k, X in enumerate(placed):
            st = frame_structure(structure, X)
            held = held_structure(st, actuators)
            yield k, st, held, solve(held, k)
            if progress is not None:
                progress(k)


def middle_counts(structure, frames, rtol=RANK_RTOL, linalg="auto"):
    """(frame index, placed structure, counts) of the supported structure at the middle stored frame (where the
    actuators are chosen and checked: away from a flat start's singular state)."""
    from . import static as analysis

    k = len(frames) // 2
    placed = place_frames(structure, [frames[0], frames[k]])[-1] if k else np.asarray(frames[0], float)
    st = frame_structure(structure, placed)
    return k, st, analysis.count(st, engines.get("reference", notice=False), rtol=rtol, linalg=linalg)


def frame_percents(structure, frames, times, duration=None):
    """Each frame's fold percent: the least-squares percent of the file's target angles
    (``structure.targets.file_targets``) reached, 100 sum(rho t) / sum(t^2) (rho made continuous from frame to
    frame), or 100 t / T without targets. Of the file's targets, from wherever the fold started (a fold's own
    ``history.frame_percents`` measure the way from its start to its aim: the same from a flat start)."""
    from ..structure.targets import file_targets

    tg = file_targets(structure)
    hs = [h for h, x in tg.items() if x]
    if not hs:
        T = duration or (times[-1] if times and times[-1] else 1.0)
        return [100.0 * t / T for t in times]
    aim = np.array([tg[h] for h in hs])
    rho = np.unwrap(np.array([fold_angles(structure.pattern, X, list(hs)) for X in frames]), axis=0)
    return [float(100.0 * np.dot(r, aim) / np.dot(aim, aim)) for r in rho]



def deployment(history, structure=None, actuators=None, elastic=False, stiffness=None, percents=None,
               rtol=RANK_RTOL, linalg="auto", engine=None, progress=None, middle=None):
    """The forces along the fold ``history`` (:class:`~chrono_origami.results.deploy.Deployment`).

    ``structure``: the structure with its supports and loads (default the history's), the fold's topology;
    ``actuators``: 0-based hinges (default :func:`choose_actuators`); ``elastic``: elastic hinges at every frame
    (``stiffness``: a ``HingeStiffness``; the determined answer where there is one); ``percents``: each frame's fold percent
    (default :func:`frame_percents`); ``middle``: :func:`middle_counts` when already made. ``engine``: "reference"
    or "chrono" (rotation motors and Chrono's static analysis, ``engines.chrono.deploy``); None: the one rule
    (``engines.get``), the reference engine with ``elastic``. An undetermined frame without ``elastic`` raises
    ``IndeterminateError``; the loads must not be empty (``StructureError``).
    """
    structure = structure if structure is not None else history.problem.structure
    if not structure.panel_loads():
        raise StructureError(f"{structure.name}: no loads to carry: give --load, --self-weight or --gravity")
    frames, times = list(history.vertices), list(history.times)
    if percents is None:
        percents = frame_percents(structure, frames, times, getattr(history.problem, "duration", None))
    k_mid, st_mid, counts = middle or middle_counts(structure, frames, rtol, linalg)
    if actuators is None:
        actuators = choose_actuators(st_mid, counts)
        free = 0
    else:
        actuators = list(actuators)
        free = check_actuators(st_mid, counts, actuators)
    check_kinds(structure, actuators)
    if elastic and engine in (None, "auto"):       # elastic hinges along the fold: the reference engine's
        engine = "reference"
    eng = engines.get(engine)
    dep = Deployment(structure, list(actuators), eng.name)
    if free:
        dep.notes.append(f"the actuators leave {free} of the {counts.M} mechanisms free at frame {k_mid}: "
                         f"{'elastic hinges carry' if elastic else 'the forces are not determined there without'} "
                         f"{'them' if elastic else '--elastic'}")
    if HELD_MOTORS in eng.capabilities:
        if elastic:
            raise UsageError("the forces of elastic hinges along the fold are the reference engine's: --elastic "
                             "with --engine reference (Chrono solves the determined frames, with motors)")
        motors = (eng, list(actuators), structure.hinge_kinds)

        def solve(held, k):
            return frame_statics(held, False, None, rtol, linalg, frame=k, motors=motors)
    else:
        def solve(held, k):
            return frame_statics(held, elastic, stiffness, rtol, linalg, frame=k)
    for k, st, held, (res, status, sigma, ms) in frame_loop(structure, frames, actuators, solve, progress):
        dep.frames.append(k)
        dep.times.append(float(times[k]))
        dep.percents.append(float(percents[k]))
        dep.statuses.append(status)
        dep.sigmas.append(sigma)
        dep.counts.append(ms)
        dep.angles.append(fold_angles(st.pattern, None, list(actuators)))
        dep.torques.append(torques(res, actuators))
        dep.results.append(res)
        dep.potentials.append(potential(st))
        dep.loads.append(load_total(st))
    dep.flag()
    return dep
