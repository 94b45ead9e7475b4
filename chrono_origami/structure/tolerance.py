"""Fabrication imperfections and elastic hinges: the inputs of a tolerance analysis (engine-neutral).

Each panel is made on its own, with errors; assembled, the panels no longer
fit, and a hyperstatic structure locks in self-stress (``docs/tolerances.md``
derives the theory; ``chrono_origami.analysis.tolerance`` runs it).

Errors (lengths in the structure's length unit; SI: metres)
-----------------------------------------------------------
Per hinge h and per side (each of its two panels P), in P's hinge frame
{n, t, m} (``results.static``: t along the edge in the direction P's vertex loop
runs it, m P's normal made orthogonal to t, n = t x m pointing out of P):

* ``offset``: the hinge axis on P displaced across itself, along m and n
  (2 components);
* ``tilt``: the axis on P turned about its midpoint, given as the
  displacement of its end ahead along t, along m and n (2 components; the
  rotation is 2 tilt / l, l the hinge length);
* ``position``: the hinge point on P moved along the axis (1 component; only
  hinges that lock the translation along t, door hinges, feel it).

Per panel P and per vertex v of P, ``vertex``: the vertex as made on P
displaced by (dx, dy, dz) (global axes, 3 components); it moves and turns
the hinge lines of P's edges through v. A vertex has its own error on each
of its panels.

Every component is drawn independently, seeded, from its tolerance ``tol``:
``uniform`` in [-tol, tol], or ``normal`` with standard deviation
tol / :data:`NORMAL_SIGMAS` (99.7 % of the errors within the tolerance).

Measured errors (:func:`read_measured`): a CSV file, one row per hinge side,

    hinge,panel,offset_m,offset_n,tilt_m,tilt_n,position

(1-based hinge and panel, the panel one of the hinge's two; missing columns
are 0; lengths as above), optionally with vertex rows in a second file
``panel,vertex,dx,dy,dz``. A key (column) that is not one of these, or a
value that is not a number, is a :class:`ToleranceError` naming it (the
command line: exit code 2), and so is any row naming a hinge, panel or
vertex the structure does not have, or a panel not of its hinge, or a vertex
not on its panel (1-based numbers named, as the command line's options'
are).

Per hinge side the errors make a small rigid motion of the hinge frame on
P, (alpha, d): rotation vector alpha and displacement d of the hinge
midpoint, global frame (:func:`frame_errors`). Both engines take their
misfit from these: the reference engine as the constraint rows' misfit
(``engines.reference.tolerance.misfit``), the Chrono engine as the imperfect link
frames on each body (``engines.chrono.tolerance``).

Elastic hinges (:class:`HingeStiffness`)
----------------------------------------
Per hinge kind, a translational stiffness k_t (force per length, per unit
hinge length: N/m per m) for every locked translation and a rotational
stiffness k_r (moment per radian, per unit hinge length: N m/rad per m) for
every locked rotation; a hinge of length l has K_t = k_t l and K_r = k_r l.
Defaults (SI; a steel hinge of about 1 mm leaves):
:data:`DEFAULT_TRANSLATIONAL` 1e8 N/m per m and :data:`DEFAULT_ROTATIONAL`
1e7 N m/rad per m (about k_t (1 m)^2 / 12: a 1 m line of the translational
springs turned about its midpoint), the same for every kind; per-hinge
overrides. Forces scale with the stiffness: give your hinges' own.
Supports stay rigid.

Springs about the free directions (statics with elastic hinges of a
structure with mechanisms, ``engines.reference.elastic``): a rotational
crease spring k_c (N m/rad per m; :data:`DEFAULT_CREASE` 1 N m/rad per m,
a polymer living hinge's order) about every rotation a hinge's kind leaves
free, and a translational spring k_s (N/m per m; :data:`DEFAULT_SLIDE`
1e3 N/m per m) along every free translation (a sliding hinge's axis); a
hinge of length l has C_r = k_c l and C_s = k_s l. They are used only where
M > 0, where without them the loads would have no answer.

Setting the stiffness (:func:`parse_stiffness`, the one parser of the
command line's ``--hinge-stiffness`` and of the FOLD file's
``origami:stiffness`` / ``edges_origami:stiffness``): ``KT,KR`` every hinge;
``KIND:KT,KR`` every hinge of a kind (``door:1e8,1e7``); ``H:KT,KR`` the
hinges numbered H (1-based, ``3``, ``1,4,7-9``); ``crease:KC`` and
``slide:KS`` the springs of the free directions. Later specs override
earlier ones; a hinge's own value beats its kind's, which beats the default.
"""
import csv
import math
from dataclasses import dataclass, field, replace

import numpy as np

from ..tools.errors import StructureError
from ..tools.geometry import edge_frame

#: a normal error's standard deviation is its tolerance / NORMAL_SIGMAS (tolerance = 3 sigma)
NORMAL_SIGMAS = 3.0
DISTRIBUTIONS = ("normal", "uniform")
#: components per hinge side: offset (m, n), tilt (m, n), position (t)
SIDE_COMPONENTS = ("offset_m", "offset_n", "tilt_m", "tilt_n", "position")
#: columns of a measured-errors file
MEASURED_KEYS = ("hinge", "panel") + SIDE_COMPONENTS
VERTEX_KEYS = ("panel", "vertex", "dx", "dy", "dz")
#: default stiffness per unit hinge length (SI): translational N/m per m, rotational N m/rad per m
DEFAULT_TRANSLATIONAL = 1e8
DEFAULT_ROTATIONAL = 1e7
#: default springs about the free directions per unit hinge length (SI): rotational N m/rad per m, along a free
#: translation N/m per m (used where M > 0)
DEFAULT_CREASE = 1.0
DEFAULT_SLIDE = 1e3


class ToleranceError(StructureError):
    """A tolerance, stiffness or measured-errors input is invalid (a usage error: exit code 2)."""


def _tolerance(name, value):
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ToleranceError(f"tolerance {name}= must be a number, got {value!r}") from None
    if math.isnan(x) or x < 0 or math.isinf(x):
        raise ToleranceError(f"tolerance {name}= must be a finite number >= 0, got {value!r}")
    return x


@dataclass(frozen=True)
class ToleranceSpec:
    """Tolerances of the errors (lengths), their distribution and the seed.

    ``tol``: the default of every component; ``offset``, ``tilt``,
    ``position``, ``vertex``: each component's own tolerance (None: ``tol``;
    0: no such error). ``distribution``: "normal" (sd = tol / 3) or
    "uniform" ([-tol, tol]). ``seed``: the random seed of :func:`sample`.
    """

    tol: float = 0.0
    offset: float = None
    tilt: float = None
    position: float = None
    vertex: float = None
    distribution: str = "normal"
    seed: int = 0

    def __post_init__(self):
        object.__setattr__(self, "tol", _tolerance("tol", self.tol))
        for name in ("offset", "tilt", "position", "vertex"):
            v = getattr(self, name)
            object.__setattr__(self, name, self.tol if v is None else _tolerance(name, v))
        if self.distribution not in DISTRIBUTIONS:
            raise ToleranceError(f"unknown error distribution {self.distribution!r}; expected one of {DISTRIBUTIONS}")
        if not isinstance(self.seed, (int, np.integer)) or isinstance(self.seed, bool) or self.seed < 0:
            raise ToleranceError(f"seed must be an integer >= 0, got {self.seed!r}")

    def scaled(self, factor):
        """The same spec with every tolerance times ``factor`` (same seed: the same errors, scaled)."""
        return ToleranceSpec(self.tol * factor, self.offset * factor, self.tilt * factor, self.position * factor,
                             self.vertex * factor, self.distribution, self.seed)

    def with_seed(self, seed):
        return ToleranceSpec(self.tol, self.offset, self.tilt, self.position, self.vertex, self.distribution, seed)

    @property
    def side_tolerances(self):
        """Tolerance of each of :data:`SIDE_COMPONENTS`."""
        return np.array([self.offset, self.offset, self.tilt, self.tilt, self.position])

    def sd(self, tol):
        """Standard deviation of an error of tolerance ``tol`` under this distribution."""
        tol = np.asarray(tol, float)
        return tol / NORMAL_SIGMAS if self.distribution == "normal" else tol / np.sqrt(3.0)

    def as_dict(self):
        return {"tol": self.tol, "offset": self.offset, "tilt": self.tilt, "position": self.position,
                "vertex": self.vertex, "distribution": self.distribution, "seed": int(self.seed)}


@dataclass
class Errors:
    """One set of fabrication errors (see the module doc).

    ``side``: (H, 2, 5) per hinge, per side (0: the hinge's first panel p,
    1: its second panel q), :data:`SIDE_COMPONENTS` in that side's frame;
    ``vertex``: (sum of panel sizes, 3) per panel-vertex slot, in the order
    of :func:`vertex_slots`.
    """

    side: np.ndarray
    vertex: np.ndarray

    def scaled(self, factor):
        return Errors(self.side * factor, self.vertex * factor)


def vertex_slots(pattern):
    """(panel, vertex) of every panel-vertex slot, panels in order, each panel's loop in order: (n, 2) ints."""
    return np.array([(p, v) for p, loop in enumerate(pattern.panels) for v in loop], dtype=np.int64).reshape(-1, 2)


def n_raw(pattern):
    """Number of error components: 10 per hinge, 3 per panel-vertex slot."""
    return 10 * len(pattern.hinges) + 3 * len(vertex_slots(pattern))


def sample(structure, spec, seed=None):
    """:class:`Errors` drawn from ``spec`` (``seed``: default ``spec.seed``)."""
    pat = structure.pattern
    rng = np.random.default_rng(spec.seed if seed is None else seed)
    H, nv = len(pat.hinges), len(vertex_slots(pat))
    if spec.distribution == "normal":
        z = rng.standard_normal(n_raw(pat))
    else:
        z = rng.uniform(-1.0, 1.0, n_raw(pat))
    side = z[:10 * H].reshape(H, 2, 5) * spec.side_tolerances
    vert = z[10 * H:].reshape(nv, 3) * spec.vertex
    if spec.distribution == "normal":
        side, vert = side / NORMAL_SIGMAS, vert / NORMAL_SIGMAS
    return Errors(side, vert)


def raw_sd(structure, spec):
    """Standard deviation of every error component, in the order of :func:`sample`'s draws (n_raw,)."""
    pat = structure.pattern
    H, nv = len(pat.hinges), len(vertex_slots(pat))
    side = np.broadcast_to(spec.sd(spec.side_tolerances), (H, 2, 5)).ravel()
    vert = np.full(3 * nv, float(spec.sd(spec.vertex)))
    return np.concatenate([side, vert])


def raw_vector(errors):
    """The errors as one vector, in the order of :func:`sample`'s draws."""
    return np.concatenate([errors.side.ravel(), errors.vertex.ravel()])


def side_frames(pattern):
    """(H, 2, 3, 3): columns (n, t, m) of each hinge side's frame, side 0 the first panel p, side 1 q."""
    X = pattern.vertices
    H = len(pattern.hinges)
    if H == 0:
        return np.zeros((0, 2, 3, 3))
    ab = np.array([h.vertices for h in pattern.hinges])
    pq = np.array([h.panels for h in pattern.hinges])
    normals = pattern.panel_normals
    fp = edge_frame(X[ab[:, 0]], X[ab[:, 1]], normals[pq[:, 0]])
    fq = edge_frame(X[ab[:, 1]], X[ab[:, 0]], normals[pq[:, 1]])
    return np.stack([fp, fq], axis=1)


def frame_error_operator(pattern):
    """Sparse J (12 H x n_raw): the errors' small rigid motions of the hinge frames, (alpha, d) per hinge side.

    Row block 12 h + 6 s is side s of hinge h: alpha (rotation vector, rad)
    then d (displacement of the hinge midpoint), global frame; columns the
    error components in :func:`sample`'s order. Linear in the errors (the
    rotation of a tilted axis to first order).
    """
    import scipy.sparse as sp

    X = pattern.vertices
    H = len(pattern.hinges)
    if H == 0:
        return sp.csr_matrix((0, n_raw(pattern)))
    slots = vertex_slots(pattern)
    nv_total = pattern.n_vertices
    slot_index = np.full(pattern.n_panels * nv_total, -1, dtype=np.int64)
    slot_index[slots[:, 0] * nv_total + slots[:, 1]] = np.arange(len(slots))
    F = side_frames(pattern)                      # (H, 2, 3, 3): columns n, t, m
    n, t, m = F[..., 0], F[..., 1], F[..., 2]     # (H, 2, 3)
    ab = np.array([h.vertices for h in pattern.hinges])
    pq = np.array([h.panels for h in pattern.hinges])
    length = np.linalg.norm(X[ab[:, 1]] - X[ab[:, 0]], axis=1)        # (H,)
    t_ab = (X[ab[:, 1]] - X[ab[:, 0]]) / length[:, None]
    hs = np.arange(H)[:, None].repeat(2, axis=1)
    ss = np.array([0, 1])[None, :].repeat(H, axis=0)
    r_alpha = 12 * hs + 6 * ss                    # (H, 2)
    r_d = r_alpha + 3
    c0 = 10 * hs + 5 * ss
    blocks = []                                   # (row start (H, 2), column (H, 2), 3-vectors (H, 2, 3))
    blocks.append((r_d, c0 + 0, m))                                        # offset along m
    blocks.append((r_d, c0 + 1, n))                                        # offset along n
    # tilt: the end ahead along t moves by tau (along m or n), the other end by -tau: dt = 2 tau / l, alpha = t x dt
    blocks.append((r_alpha, c0 + 2, 2.0 / length[:, None, None] * np.cross(t, m)))
    blocks.append((r_alpha, c0 + 3, 2.0 / length[:, None, None] * np.cross(t, n)))
    blocks.append((r_d, c0 + 4, t))                                        # position along t
    # vertex errors of this side's panel at the edge ends: d = (da + db) / 2, alpha = t_ab x (db - da) / l
    base_v = 10 * H
    eye = np.eye(3)
    for end, sign in ((0, -1.0), (1, 1.0)):
        slot = slot_index[pq * nv_total + ab[:, end][:, None]]          # (H, 2)
        if np.any(slot < 0):
            raise StructureError("a hinge vertex is not a vertex of its panel")
        for i in range(3):
            col = base_v + 3 * slot + i
            blocks.append((r_d, col, np.broadcast_to(0.5 * eye[i], (H, 2, 3))))
            rot = sign / length[:, None] * np.cross(t_ab, eye[i])          # (H, 3)
            blocks.append((r_alpha, col, np.broadcast_to(rot[:, None, :], (H, 2, 3))))
    rows = np.concatenate([(r[..., None] + np.arange(3)).ravel() for r, _, _ in blocks])
    cols = np.concatenate([np.broadcast_to(c[..., None], (H, 2, 3)).ravel() for _, c, _ in blocks])
    vals = np.concatenate([np.asarray(v).ravel() for _, _, v in blocks])
    keep = vals != 0
    return sp.csr_matrix((vals[keep], (rows[keep], cols[keep])), shape=(12 * H, n_raw(pattern)))


def frame_errors(pattern, errors, J=None):
    """(H, 2, 6): (alpha, d) of each hinge side's frame for ``errors`` (:func:`frame_error_operator`)."""
    J = frame_error_operator(pattern) if J is None else J
    return (J @ raw_vector(errors)).reshape(-1, 2, 6)


# ------------------------------------------------------------------ measured errors
def _read_rows(path, keys, what):
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            header = [h.strip() for h in (reader.fieldnames or [])]
            rows = [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in reader]
    except OSError as e:
        raise ToleranceError(f"{path}: cannot read the {what} file: {e.strerror or e}") from None
    if not header:
        raise ToleranceError(f"{path}: the {what} file has no header line (expected {','.join(keys)})")
    unknown = [h for h in header if h not in keys]
    if unknown:
        raise ToleranceError(f"{path}: unknown key {unknown[0]!r} in the {what} file; expected some of "
                             f"{', '.join(keys)}")
    for k in keys[:2]:
        if k not in header:
            raise ToleranceError(f"{path}: the {what} file has no {k!r} column")
    return rows


def _number(path, line, key, text, integer=False):
    try:
        x = int(text) if integer else float(text) if text else 0.0
    except ValueError:
        raise ToleranceError(f"{path}, line {line}: {key} must be {'an integer' if integer else 'a number'}, "
                             f"got {text!r}") from None
    if not integer and not math.isfinite(x):
        raise ToleranceError(f"{path}, line {line}: {key} must be finite, got {text!r}")
    return x


def read_measured(structure, path, vertex_path=None):
    """:class:`Errors` from measured-errors CSV files (module doc); sides and vertices not listed have no error."""
    pat = structure.pattern
    H = len(pat.hinges)
    side = np.zeros((H, 2, 5))
    slots = vertex_slots(pat)
    slot_of = {(int(p), int(v)): k for k, (p, v) in enumerate(slots)}
    vert = np.zeros((len(slots), 3))
    if path is not None:
        seen = set()
        for i, r in enumerate(_read_rows(path, MEASURED_KEYS, "measured-errors"), start=2):
            h = _number(path, i, "hinge", r.get("hinge", ""), True)
            p = _number(path, i, "panel", r.get("panel", ""), True)
            if not 1 <= h <= H:
                raise ToleranceError(f"{path}, line {i}: hinge {h} does not exist ({H} hinges)")
            panels = pat.hinges[h - 1].panels
            if p - 1 not in panels:
                raise ToleranceError(f"{path}, line {i}: panel {p} is not a panel of hinge {h} "
                                     f"(its panels are {panels[0] + 1} and {panels[1] + 1})")
            s = panels.index(p - 1)
            if (h, s) in seen:
                raise ToleranceError(f"{path}, line {i}: hinge {h}, panel {p} is listed twice")
            seen.add((h, s))
            side[h - 1, s] = [_number(path, i, k, r.get(k, "")) for k in SIDE_COMPONENTS]
    if vertex_path is not None:
        for i, r in enumerate(_read_rows(vertex_path, VERTEX_KEYS, "measured vertex-errors"), start=2):
            p = _number(vertex_path, i, "panel", r.get("panel", ""), True)
            v = _number(vertex_path, i, "vertex", r.get("vertex", ""), True)
            k = slot_of.get((p - 1, v - 1))
            if k is None:       # a bad row of the file (exit code 2), as a non-number is
                if not 1 <= p <= len(pat.panels):
                    raise ToleranceError(f"{vertex_path}, line {i}: panel {p} does not exist "
                                         f"({len(pat.panels)} panels)")
                if not 1 <= v <= len(pat.vertices):
                    raise ToleranceError(f"{vertex_path}, line {i}: vertex {v} does not exist "
                                         f"({len(pat.vertices)} vertices)")
                theirs = [str(q + 1) for q, loop in enumerate(pat.panels) if v - 1 in loop]
                raise ToleranceError(f"{vertex_path}, line {i}: vertex {v} is not a vertex of panel {p} (its "
                                     f"panels: {', '.join(theirs)})")
            vert[k] = [_number(vertex_path, i, c, r.get(c, "")) for c in ("dx", "dy", "dz")]
    return Errors(side, vert)


# ------------------------------------------------------------------ elastic hinges
@dataclass(frozen=True)
class HingeStiffness:
    """Stiffness of elastic hinges per unit hinge length (module doc; SI defaults).

    ``translational`` (N/m per m) and ``rotational`` (N m/rad per m): every
    kind's default; ``per_kind``: {kind name: (k_t, k_r)}; ``overrides``:
    {hinge (0-based): (k_t, k_r)}, the stiffness of that hinge itself.
    """

    translational: float = DEFAULT_TRANSLATIONAL
    rotational: float = DEFAULT_ROTATIONAL
    per_kind: dict = field(default_factory=dict)
    overrides: dict = field(default_factory=dict)
    crease: float = DEFAULT_CREASE
    slide: float = DEFAULT_SLIDE

    def __post_init__(self):
        for name in ("translational", "rotational", "crease", "slide"):
            _stiffness(name, getattr(self, name))
        for k, v in dict(self.per_kind).items():
            _pair(f"hinge kind {k!r}", v)
        for h, v in dict(self.overrides).items():
            _pair(f"hinge {h + 1}" if isinstance(h, (int, np.integer)) else f"hinge {h!r}", v)

    def of_hinge(self, structure, h):
        """(k_t, k_r) per unit length of hinge h (0-based)."""
        if h in self.overrides:
            return tuple(float(x) for x in self.overrides[h])
        kind = structure.hinge_kinds[h]
        if kind in self.per_kind:
            return tuple(float(x) for x in self.per_kind[kind])
        return float(self.translational), float(self.rotational)

    def hinge_values(self, structure):
        """(H, 2): K_t = k_t l and K_r = k_r l of every hinge (force per length; moment per radian)."""
        pat = structure.pattern
        X = pat.vertices
        H = len(pat.hinges)
        for h in self.overrides:
            if not (isinstance(h, (int, np.integer)) and 0 <= h < H):
                raise ToleranceError(f"stiffness override for hinge {h + 1 if isinstance(h, int) else h}: "
                                     f"no such hinge ({H} hinges)")
        ab = np.array([hg.vertices for hg in pat.hinges], dtype=np.int64).reshape(-1, 2)
        length = np.linalg.norm(X[ab[:, 1]] - X[ab[:, 0]], axis=1)
        k = np.tile([float(self.translational), float(self.rotational)], (H, 1))
        kinds = np.asarray(structure.hinge_kinds, dtype=object)
        for name, v in self.per_kind.items():
            k[kinds == name] = [float(x) for x in v]
        for h, v in self.overrides.items():
            k[h] = [float(x) for x in v]
        return k * length[:, None]

    def spring_values(self, structure):
        """(H, 2): C_s = k_s l and C_r = k_c l of every hinge: the springs along its free translations (force per
        length) and about its free rotations (moment per radian)."""
        pat = structure.pattern
        X = pat.vertices
        ab = np.array([h.vertices for h in pat.hinges], dtype=np.int64).reshape(-1, 2)
        length = np.linalg.norm(X[ab[:, 1]] - X[ab[:, 0]], axis=1)
        return np.stack([self.slide * length, self.crease * length], axis=1)

    def doubled(self, structure, kind, which="both"):
        """The same stiffness with that of every hinge of ``kind`` (a kind's name; "crease", "slide": the springs
        of the free directions) times 2: its translational (``which`` "k_t"), rotational ("k_r") or both
        stiffnesses (the sensitivity of ``analysis.static``). Doubling every stiffness at once changes no force
        (supports are rigid): the ratios are what matter."""
        if kind in ("crease", "slide"):
            return replace(self, **{kind: 2.0 * getattr(self, kind)})
        factor = {"both": (2.0, 2.0), "k_t": (2.0, 1.0), "k_r": (1.0, 2.0)}[which]
        per_kind = dict(self.per_kind)
        per_kind[kind] = tuple(f * float(x) for f, x in zip(factor, per_kind.get(kind, (self.translational,
                                                                                         self.rotational))))
        over = {h: (tuple(f * float(x) for f, x in zip(factor, v)) if structure.hinge_kinds[h] == kind else v)
                for h, v in self.overrides.items()}
        return replace(self, per_kind=per_kind, overrides=over)

    def as_dict(self, structure=None):
        """Plain dict (counts.json): the defaults, per kind, per hinge (1-based), springs; SI per metre of hinge."""
        d = {"unit": "per metre of hinge: translational N/m, rotational N m/rad",
             "translational": self.translational, "rotational": self.rotational,
             "crease": self.crease, "slide": self.slide}
        if self.per_kind:
            d["per_kind"] = {k: list(map(float, v)) for k, v in self.per_kind.items()}
        if self.overrides:
            d["per_hinge"] = {str(int(h) + 1): list(map(float, v)) for h, v in sorted(self.overrides.items())}
        return d

    def text(self, springs=True):
        """One line: the stiffness used (SI per metre of hinge); ``springs``: with the springs of the free
        directions."""
        parts = [f"k_t {self.translational:g} N/m, k_r {self.rotational:g} N m/rad"]
        parts += [f"{k}: {float(v[0]):g}, {float(v[1]):g}" for k, v in self.per_kind.items()]
        if self.overrides:
            n = len(self.overrides)
            parts.append(f"{n} hinge{'s' if n != 1 else ''} of {'their' if n != 1 else 'its'} own")
        if springs:
            parts.append(f"crease springs {self.crease:g} N m/rad, slide springs {self.slide:g} N/m")
        return "; ".join(parts) + " (per metre of hinge)"


def parse_stiffness(specs, structure=None, base=None, what="--hinge-stiffness"):
    """:class:`HingeStiffness` of ``specs`` (module doc: ``KT,KR``, ``KIND:KT,KR``, ``H:KT,KR``, ``crease:KC``,
    ``slide:KS``), applied in order on ``base`` (default: the defaults). With ``structure``, a hinge number it does
    not have is refused. Every bad spec is a :class:`ToleranceError` naming it (``what``: the option's name)."""
    from . import hinges as hk

    k = base or HingeStiffness()
    t, r, crease, slide = k.translational, k.rotational, k.crease, k.slide
    per_kind, over = dict(k.per_kind), dict(k.overrides)
    H = len(structure.pattern.hinges) if structure is not None else None
    for spec in specs:
        text = str(spec).strip()
        sel, _, vals = text.rpartition(":")
        sel = sel.strip()
        nums = [v.strip() for v in vals.split(",")]
        if sel in ("crease", "slide"):
            if len(nums) != 1:
                raise ToleranceError(f"{what} {text}: {sel}: takes one stiffness ({sel}:K), got {vals!r}")
            x = _stiffness(f"{what} {text}: {sel}", nums[0])
            crease, slide = (x, slide) if sel == "crease" else (crease, x)
            continue
        if len(nums) != 2:
            raise ToleranceError(f"{what} {text}: expected KT,KR (translational N/m per m, rotational N m/rad per "
                                 f"m), optionally after KIND: or hinge numbers H:, or crease:K / slide:K")
        pair = (_stiffness(f"{what} {text}: translational", nums[0]),
                _stiffness(f"{what} {text}: rotational", nums[1]))
        if not sel:
            t, r = pair
            per_kind, over = {}, {}
        elif sel in hk.KINDS:
            per_kind[sel] = pair
            over = {h: v for h, v in over.items()
                    if structure is None or structure.hinge_kinds[h] != sel}
        elif sel[0].isdigit():
            for h in _hinge_numbers(sel, H, f"{what} {text}"):
                over[h] = pair
        else:
            raise ToleranceError(f"{what} {text}: {sel!r} is not a hinge kind ({hk.expected()}), hinge numbers, "
                                 f"crease or slide")
    return HingeStiffness(t, r, per_kind, over, crease, slide)


def _hinge_numbers(sel, H, what):
    """0-based hinges of ``3``, ``1,4,7-9`` (1-based); a number not in 1..H is refused."""
    out = []
    for part in sel.split(","):
        a, _, b = part.strip().partition("-")
        try:
            lo, hi = int(a), int(b) if b else int(a)
        except ValueError:
            raise ToleranceError(f"{what}: hinge numbers must be integers like 3 or 1,4,7-9, got {sel!r}") from None
        if lo < 1 or hi < lo:
            raise ToleranceError(f"{what}: bad hinge range {part.strip()!r} (1-based, low-high)")
        if H is not None and hi > H:
            raise ToleranceError(f"{what}: hinge {hi} does not exist ({H} hinges)")
        out += range(lo - 1, hi)
    return out


def _stiffness(name, value):
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ToleranceError(f"{name} stiffness must be a number, got {value!r}") from None
    if not (math.isfinite(x) and x > 0):
        raise ToleranceError(f"{name} stiffness must be a finite number > 0, got {value!r}")
    return x


def _pair(what, v):
    try:
        kt, kr = v
    except (TypeError, ValueError):
        raise ToleranceError(f"{what}: stiffness must be a pair (translational, rotational), got {v!r}") from None
    _stiffness(f"{what} translational", kt)
    _stiffness(f"{what} rotational", kr)
