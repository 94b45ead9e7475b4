"""Folding problems: driven hinges and vertex path constraints on a structure.

Indices are 0-based in Python, 1-based in every message (as in the paper).

Drives
------
``Drive(hinge, rate=...)`` prescribes the relative rotation of a hinge's
second panel q with respect to its first panel p (``pattern.hinges[h].panels``)
about the hinge axis t = (x_b - x_a)/|x_b - x_a|, with (a, b) the hinge's
vertices as run by p (right-hand rule about t): angle(t) = rate * t, in rad,
measured from the start configuration. ``Drive(hinge, angle=...)`` reaches
``angle`` (rad) at the end of the fold at a constant rate. From a flat start
the driven angle is the signed angle between the panels' normals, see
:func:`hinge_angle`.

A sliding hinge keeps its sliding freedom when its rotation is driven;
``Drive(hinge, slide_rate=...)`` (length/s) or ``Drive(hinge, slide=...)``
(length, reached at the end) drives instead the relative translation of q
with respect to p along t. A drive needs its motion free in the hinge's kind
(``HingeKind.free``: "rz" for a rotation, "z" for a slide).

Vertex paths
------------
A :class:`VertexPath` holds vertex ``vertex`` of panel ``panel`` (default: the
first panel containing it) at its start position in the global directions
``directions`` (rows of unit vectors): :func:`fixed` (x, y, z), :func:`along`
(moving only along an axis: the two directions normal to it are held),
:func:`in_plane` (the plane normal is held), :func:`blocked` ("xy" etc.).
"""
from dataclasses import dataclass, field

import numpy as np

from ..crease.pattern import CreasePattern, hinge_rotations
from ..structure.structure import Structure
from ..tools.errors import OrigamiError, StructureError, positive

AXES = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0)}


@dataclass(frozen=True)
class Drive:
    """A driven hinge: give exactly one of rate (rad/s), angle (rad), slide_rate (length/s), slide (length)."""

    hinge: int
    rate: float = None
    angle: float = None
    slide_rate: float = None
    slide: float = None

    @property
    def kind(self):
        return "slide" if (self.slide_rate is not None or self.slide is not None) else "rotation"

    def value(self, t, duration):
        """Prescribed relative angle (rad) or slide (length) at time t (s)."""
        if self.rate is not None:
            return self.rate * t
        if self.slide_rate is not None:
            return self.slide_rate * t
        target = self.angle if self.angle is not None else self.slide
        return target * t / duration

    def speed(self, duration):
        """d value / dt (rad/s or length/s)."""
        for r in (self.rate, self.slide_rate):
            if r is not None:
                return r
        target = self.angle if self.angle is not None else self.slide
        return target / duration


@dataclass(frozen=True)
class VertexPath:
    """Vertex held at its start position in ``directions`` (k x 3 unit rows, global frame)."""

    vertex: int
    directions: tuple
    panel: int = None
    label: str = ""


def _unit_rows(dirs, what):
    D = np.atleast_2d(np.asarray(dirs, float))
    if D.ndim != 2 or D.shape[1] != 3 or not np.all(np.isfinite(D)):
        raise StructureError(f"{what}: directions must be 3-vectors, got {dirs!r}")
    n = np.linalg.norm(D, axis=1)
    if np.any(n < 1e-12):
        raise StructureError(f"{what}: a direction is the zero vector")
    return D / n[:, None]


def _axis(a, what):
    if isinstance(a, str):
        if a.lower() not in AXES:
            raise StructureError(f"{what}: unknown axis {a!r}; expected x, y, z or a 3-vector")
        return np.array(AXES[a.lower()])
    return _unit_rows(a, what)[0]


def fixed(vertex, panel=None):
    """Vertex held in x, y and z."""
    return VertexPath(vertex, tuple(map(tuple, np.eye(3))), panel, "fixed")


def blocked(vertex, dofs, panel=None):
    """Vertex held in the global directions named in ``dofs`` (a subset of "xyz")."""
    if not dofs or set(dofs) - set("xyz") or len(set(dofs)) != len(dofs):
        raise StructureError(f"vertex {vertex + 1}: blocked directions must be a non-empty subset of 'xyz', got {dofs!r}")
    return VertexPath(vertex, tuple(AXES[d] for d in dofs), panel, f"blocked {dofs}")


def along(vertex, axis, panel=None):
    """Vertex moving only along ``axis`` ("x", "y", "z" or a 3-vector) through its start position."""
    a = _axis(axis, f"vertex {vertex + 1}")
    e1 = np.cross(a, [1.0, 0, 0] if abs(a[0]) < 0.9 else [0, 1.0, 0])
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(a, e1)
    return VertexPath(vertex, (tuple(e1), tuple(e2)), panel, f"along {axis}")


def in_plane(vertex, normal, panel=None):
    """Vertex moving only in the plane through its start position with normal ``normal``."""
    n = _axis(normal, f"vertex {vertex + 1}")
    return VertexPath(vertex, (tuple(n),), panel, "in plane")


@dataclass
class FoldProblem:
    """A structure (or crease pattern, all door hinges) to fold for ``duration`` seconds.

    With no vertex path at all, panel ``1`` is held fixed (six conditions)
    so that the rigid-body motion is determined.
    """

    structure: object
    drives: tuple
    paths: tuple = ()
    duration: float = 1.0
    name: str = field(default=None)

    def __post_init__(self):
        if isinstance(self.structure, CreasePattern):
            self.structure = Structure(self.structure)
        if not isinstance(self.structure, Structure):
            raise StructureError("a fold needs a Structure or a CreasePattern")
        st = self.structure
        pat = st.pattern
        H = len(pat.hinges)
        self.drives = tuple(self.drives)
        self.paths = tuple(self.paths)
        if not self.drives:
            raise StructureError("a fold needs at least one driven hinge")
        positive("the fold duration", self.duration, StructureError, "seconds")
        seen = set()
        for d in self.drives:
            if not isinstance(d, Drive):
                raise StructureError(f"drives must be Drive objects, got {d!r}")
            if not (isinstance(d.hinge, (int, np.integer)) and 0 <= d.hinge < H):
                shown = d.hinge + 1 if isinstance(d.hinge, (int, np.integer)) else d.hinge
                raise StructureError(f"driven hinge {shown} does not exist: the pattern has hinges 1..{H}")
            given = [x for x in (d.rate, d.angle, d.slide_rate, d.slide) if x is not None]
            if len(given) != 1:
                raise StructureError(f"hinge {d.hinge + 1}: give exactly one of rate, angle, slide_rate, slide")
            if not np.isfinite(given[0]):
                raise StructureError(f"hinge {d.hinge + 1}: the drive value must be finite, got {given[0]!r}")
            kind = st.kinds[d.hinge]
            if not kind.frees("z" if d.kind == "slide" else "rz"):
                motion = "translation along" if d.kind == "slide" else "rotation about"
                raise StructureError(f"hinge {d.hinge + 1} is a {kind.name} hinge: its {motion} the hinge axis is "
                                     f"locked, so it cannot be driven")
            if (d.hinge, d.kind) in seen:
                raise StructureError(f"hinge {d.hinge + 1} is driven twice")
            seen.add((d.hinge, d.kind))
        paths = []
        for k, p in enumerate(self.paths):
            if not isinstance(p, VertexPath):
                raise StructureError(f"paths must be VertexPath objects, got {p!r}")
            v = p.vertex
            if not (isinstance(v, (int, np.integer)) and 0 <= v < pat.n_vertices):
                shown = v + 1 if isinstance(v, (int, np.integer)) else v
                raise StructureError(f"held vertex {shown} does not exist: the pattern has vertices 1..{pat.n_vertices}")
            panel = p.panel
            if panel is None:
                panel = pat.vertex_panels[v][0]
            elif not (isinstance(panel, (int, np.integer)) and 0 <= panel < pat.n_panels) or v not in pat.panels[panel]:
                raise StructureError(f"held vertex {v + 1}: panel {panel + 1 if isinstance(panel, (int, np.integer)) else panel} "
                                     f"does not contain it (its panels are {[q + 1 for q in pat.vertex_panels[v]]})")
            D = _unit_rows(p.directions, f"held vertex {v + 1}")
            paths.append(VertexPath(int(v), tuple(map(tuple, D)), int(panel), p.label))
        self.paths = tuple(paths)
        if self.name is None:
            self.name = st.name

    @property
    def pattern(self):
        return self.structure.pattern


def hinge_angle(pattern, vertices, h):
    """Signed angle (rad) from the normal of hinge h's first panel to that of its second, about t.

    For a fold from a flat start this is the driven relative rotation; t is
    the hinge axis as run by the first panel: ``crease.pattern.hinge_rotations``
    as it is (the FOLD fold angle is minus it).
    """
    return float(hinge_rotations(pattern, vertices, [h])[0])


def parse_hinges(text, n_hinges):
    """'1,2,5-9' (1-based) -> sorted 0-based hinge indices, with a clear error for bad items."""
    return _parse_ids(text, n_hinges, "hinge")


def parse_vertices(text, n_vertices):
    return _parse_ids(text, n_vertices, "vertex")


def _parse_ids(text, n, what):
    out = []
    for item in str(text).split(","):
        item = item.strip()
        if not item:
            continue
        try:
            if "-" in item:
                lo, hi = (int(s) for s in item.split("-"))
                ids = range(lo, hi + 1)
            else:
                ids = [int(item)]
        except ValueError:
            raise OrigamiError(f"cannot read {what} {item!r}: expected numbers like 1,2,5-9") from None
        for i in ids:
            if not 1 <= i <= n:
                raise OrigamiError(f"{what} {i} does not exist: valid {what} numbers are 1..{n}")
            out.append(i - 1)
    if not out:
        raise OrigamiError(f"no {what} given")
    return sorted(set(out))


def assignment_from_fold(pattern, edges_assignment):
    """{hinge: sign} from FOLD ``edges_assignment`` (one letter per edge of ``pattern.edges``).

    FOLD's valley "V" (positive FOLD fold angle) is a negative driven angle
    here, mountain "M" a positive one; other letters set no preference.
    """
    if len(edges_assignment) != len(pattern.edges):
        raise StructureError(f"edges_assignment has {len(edges_assignment)} entries, the pattern has "
                             f"{len(pattern.edges)} edges")
    hinge_of = {tuple(sorted(h.vertices)): h.index for h in pattern.hinges}
    out = {}
    for e, a in zip(pattern.edges, edges_assignment):
        if e in hinge_of and a in ("M", "V"):
            out[hinge_of[e]] = 1 if a == "M" else -1
    return out


def file_assignment(structure):
    """{hinge: sign} (:func:`assignment_from_fold`) of the M/V assignment of the file ``structure`` was read
    from; {} when it has none."""
    letters = (structure.notes or {}).get("fold", {}).get("edges_assignment")
    if not letters or len(letters) != len(structure.pattern.edges):
        return {}
    return assignment_from_fold(structure.pattern, letters)


def assignment_from_vertices(pattern, vertices, tol=1e-9):
    """{hinge: sign of its driven-angle convention} read from a folded configuration (e.g. a closed form)."""
    out = {}
    for h in range(len(pattern.hinges)):
        a = hinge_angle(pattern, vertices, h)
        if abs(a) > tol:
            out[h] = 1 if a > 0 else -1
    return out


# ------------------------------------------------------------------ target fold angles
#: the steps (deg) a file may round its target angles to: decimals of a degree (FOLD ``edges_foldAngle``) and
#: decimals of 180 degrees (an SVG's opacity x 180), coarsest first; a target on a coarser grid is taken as
#: written to this one at least (integers are exact more often than rounded)
ROUNDING_STEPS = sorted({round(10.0 ** -k, 12) for k in range(1, 9)} |
                        {round(180.0 * 10.0 ** -k, 12) for k in range(3, 11)}, reverse=True)


def _grid(x, steps):
    """The coarsest of ``steps`` that ``x`` is a multiple of (to round-off), 0.0 when none."""
    return next((s for s in steps if abs(x / s - round(x / s)) <= 1e-6), 0.0)


def coordinate_rounding(structure):
    """The step (length units) to which the file wrote its vertex coordinates, 0 when they are not rounded: the
    finest decimal grid (1 to 1e-8) of the coordinates of ``structure.pattern`` (as :func:`target_rounding` finds
    the targets'), leaving out coordinates on a grid coarser than 1e-3 x the pattern's size (0.5 on a unit
    square: a point drawn on a grid, exact)."""
    X = np.asarray(structure.pattern.vertices, float)
    size = float(np.ptp(X, axis=0).max()) if len(X) else 0.0
    steps = [10.0 ** -k for k in range(0, 9)]
    grids = (_grid(x, steps) for x in X.ravel() if x != 0 and np.isfinite(x))
    return min((g for g in grids if g < 1e-3 * size), default=0.0)


def target_rounding(structure):
    """The step (deg) to which the file wrote its target angles, 0 when it wrote none or they are not rounded.

    Each target (``structure.notes["fold"]["edges_foldAngle"]``, degrees) that is not a whole number of degrees
    (exact by intent: 0, 90, -180) lies on the coarsest grid of :data:`ROUNDING_STEPS` it is a multiple of (to
    round-off); the file's step is the finest of these, the precision its writer kept (Origami Simulator's
    opacity with 4 decimals: 0.018 deg; a FOLD file with 4 decimals of a degree: 1e-4 deg). Targets that lie on
    no grid (full precision) give 0.
    """
    angles = ((structure.notes or {}).get("fold", {}) or {}).get("edges_foldAngle") or []
    steps = []
    for x in angles:
        if x is None or not np.isfinite(x) or abs(x - round(x)) <= 1e-9:
            continue
        steps.append(_grid(x, ROUNDING_STEPS))
    return min(steps, default=0.0)


def check_percent(percent):
    """``percent`` as a float in [0, 100], or a one-line :class:`StructureError` naming it."""
    try:
        p = float(percent)
    except (TypeError, ValueError):
        raise StructureError(f"the fold percent must be a number from 0 to 100, got {percent!r}") from None
    if not (np.isfinite(p) and 0.0 <= p <= 100.0):
        raise StructureError(f"the fold percent must be from 0 to 100, got {percent!r}")
    return p


def target_problem(structure, targets, percent=100.0, paths=(), duration=1.0):
    """(problem, start fold angles): a :class:`FoldProblem` whose drives reach p % of ``targets`` at ``duration``.

    ``targets``: {hinge: fold angle (rad, FOLD sign)}. Crease h aims at p/100 x its target along
    rho(s) = rho0 + s (p/100 target - rho0), s = t / duration, from the start's fold angles rho0; its drive
    is the change in the drive convention, minus the change of the fold angle (:class:`Drive`).
    """
    from ..structure.foldfile import file_notes, fold_angles

    p = check_percent(percent) / 100.0
    pat = structure.pattern
    H = len(pat.hinges)
    if not targets:
        raise StructureError(f"{structure.name}: no target fold angles (FOLD edges_assignment M/V with "
                             "edges_foldAngle, or an SVG's mountain and valley lines)")
    start = np.zeros(H)
    # a crease folded flat onto itself starts on its file's side (+180 a valley), not through flat
    by_edge = dict(zip(pat.edges, np.radians(fold_angles(pat, file_letters=file_notes(structure)[0]))))
    for h in pat.hinges:
        start[h.index] = by_edge[tuple(sorted(h.vertices))]
    drives = []
    for h, x in sorted(targets.items()):
        if not (isinstance(h, (int, np.integer)) and 0 <= h < H):
            raise StructureError(f"target angle for hinge {h + 1 if isinstance(h, (int, np.integer)) else h}, "
                                 f"which does not exist (hinges 1..{H})")
        if not (np.isfinite(x) and abs(x) <= np.pi + 1e-12):
            raise StructureError(f"hinge {h + 1}: the target fold angle must be a number of degrees in "
                                 f"[-180, 180], got {np.degrees(x) if np.isfinite(x) else x}")
        drives.append(Drive(int(h), angle=-(p * x - start[h])))
    return FoldProblem(structure, drives, paths, duration), start
