"""Sweep specifications: the cases of a parametric sweep and the structure of each case (``docs/sweeps.md``).

A spec is a TOML file (read with Python's ``tomllib``) or the same data as a
dict. :func:`read_spec` / :func:`make_spec` check every key and value (an
unknown key or a bad value is one :class:`SpecError` naming the key, its
table and, from a file, its line) and expand the spec into its
:class:`Case` list, in a fixed order (:func:`expand`).

Tables (every key is listed, with its default, in ``docs/sweeps.md``):

* ``[sweep]``: ``mode`` ("grid" or "random"), ``samples`` (random draws per
  pattern table), ``seed``, ``engine`` ("reference" or "chrono");
* ``[[pattern]]`` (one or more; ``[pattern]`` for one): ``family`` and its
  parameters (:data:`FAMILIES`: ``miura``, ``kresling``, ``yoshimura``, ``file``);
* ``[design]``: ``designs`` (names: "door", "isostatic", "own", or a name of
  ``[design.sliding]``), the design search's ``max_ranked``, ``orders`` and
  ``improve``; ``[design.sliding]``: ``name = [1-based sliding hinges]``;
* ``[loads.NAME]``: load cases, ``kind`` "family" (``scale``), "none",
  "gravity" (``g``) or "points" (``points``);
* ``[tolerance]``: ``tol``, ``offset``, ``tilt``, ``position``, ``vertex``,
  ``distribution``, ``method``, ``probes``, ``samples`` (Monte Carlo);
* ``[stiffness]``: ``translational``, ``rotational``, ``crease`` (swept: compare designs by how much their
  forces depend on the stiffness).

Swept values: a parameter marked sweepable takes a scalar (fixed), a list
(grid: each value; random: a uniform choice) or a range table ``{min = ..,
max = .., steps = .., log = true|false}`` (grid: ``steps`` values from min
to max, linear or geometric; integers without ``steps``: every integer from
min to max; random: uniform, or log-uniform, in [min, max]; integers: uniform
integers).

Cases, their order and identity
-------------------------------
Grid: for each pattern table in order, the product of its parameters (the
family's parameter order, then tolerance and stiffness keys; the last varies
fastest), then load cases, then designs (innermost: the designs of one
geometry are neighbours). Random: for each pattern table, ``samples`` draws;
draw k uses the generator ``numpy.random.default_rng([seed, table, k])``
(so draw k does not depend on ``samples``) and seed ``seed + k``; each draw
runs every load case and every design. A case's **seed** (the sweep's seed,
or ``seed + k``) seeds its randomized statistics and Monte Carlo samples.
A case's **id** (:attr:`Case.id`) is a hash (SHA-256, 16 hex digits) of its
parameters, everything else that changes its numbers (design and load
definitions, design-search and statistics options, a file's content) and
its seed: a resumed sweep skips the ids already in its output.
"""
import hashlib
import itertools
import json
import math
import os
import re
from dataclasses import dataclass, field, replace

import numpy as np

from ..structure import tolerance as imp
from ..structure.hinges import DOOR
from ..structure.structure import Load, Structure, Support
from ..tools.errors import OrigamiError, SpecError

#: version of the case identity: change it when the meaning of a parameter changes
ID_VERSION = 2
MODES = ("grid", "random")
ENGINES = ("reference", "chrono")
METHODS = ("auto", "exact", "randomized")
BUILTIN_DESIGNS = ("door", "isostatic", "own")
LOAD_KINDS = ("family", "none", "gravity", "points")
#: defaults of the spec's tolerance (length, the structure's unit: 0.1 mm on metre-sized panels)
DEFAULT_TOL = 1e-4


# ------------------------------------------------------------------ parameters
@dataclass(frozen=True)
class Param:
    """A parameter: its column ``name``, ``kind`` ("int", "float", "text"), ``default`` (None: the family's
    own), bounds (``low``/``high``; open or closed), ``choices`` (text), whether it can be swept, and ``help``."""

    name: str
    kind: str
    default: object
    help: str
    low: float = None
    high: float = None
    low_open: bool = False
    high_open: bool = False
    choices: tuple = ()
    sweepable: bool = True

    def bounds_text(self):
        lo = "" if self.low is None else f"{'>' if self.low_open else '>='} {self.low:g}"
        hi = "" if self.high is None else f"{'<' if self.high_open else '<='} {self.high:g}"
        return " and ".join(t for t in (lo, hi) if t)

    def check(self, value):
        """The value as its kind, or a text saying what is wrong."""
        if self.kind == "text":
            if self.name == "frame" and isinstance(value, int) and not isinstance(value, bool):
                value = str(value)       # a FOLD frame: an index or a frame class
            if not isinstance(value, str):
                return None, f"must be a text, got {value!r}"
            if self.choices and value not in self.choices:
                return None, f"must be one of {', '.join(self.choices)}; got {value!r}"
            return value, None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None, f"must be a number, got {value!r}"
        if self.kind == "int":
            if isinstance(value, float) and not value.is_integer():
                return None, f"must be an integer, got {value!r}"
            value = int(value)
        else:
            value = float(value)
            if not math.isfinite(value):
                return None, f"must be a finite number{' ' + self.bounds_text() if self.bounds_text() else ''}, " \
                             f"got {value!r}"
        bad = (self.low is not None and (value < self.low or (self.low_open and value == self.low))) or \
              (self.high is not None and (value > self.high or (self.high_open and value == self.high)))
        if bad:
            return None, f"must be {'an integer' if self.kind == 'int' else 'a finite number'} {self.bounds_text()}, " \
                         f"got {value!r}"
        return value, None


def _length(name, default, help):
    return Param(name, "float", default, help, low=0.0, low_open=True)


THICKNESS = Param("thickness", "float", 0.0, "panel thickness (length)", low=0.0)
DENSITY = Param("density", "float", 1.0, "mass per volume (for gravity loads)", low=0.0)


@dataclass(frozen=True)
class Family:
    """A pattern family of the sweep: ``params`` (in column order), ``build(values) -> Structure`` with the
    family's own hinge kinds, supports and loads (the "own" design and the "family" load case), ``check``
    (values -> (key, text) of a combination that cannot be built, or None)."""

    name: str
    params: tuple
    build: object
    help: str
    check: object = None


def _miura_check(v):
    if v["supports"] == "cantilever" and v["rows"] < 2:
        return "rows", "the cantilever supports need rows >= 2 (both ends of the clamped column line)"
    return None


def _miura(v):
    from ..patterns import miura

    rows, cols = v["rows"], v["columns"]
    pat = miura.miura_pattern(rows, cols, v["sector_angle"], v["fold_angle"], v["a"], v["b"])
    vx = lambda i, j: miura.grid_vertex(i, j, rows)  # noqa: E731
    pn = lambda k, j: miura.grid_panel(k, j, rows)   # noqa: E731
    supports, loads = (), ()
    if v["supports"] == "cantilever":
        c = cols
        supports = (Support(vx(c, 0), pn(c - 1, 0), "xyz"), Support(vx(c, 1), pn(c - 1, 0), "x"),
                    Support(vx(c, rows), pn(c - 1, rows - 1), "xyz"))
        loads = (Load(vx(0, rows // 2), (0.0, 0.0, -1.0), None),)
    return Structure(pat, None, v["thickness"], v["density"], supports, loads,
                     name=f"Miura-ori {rows} x {cols} ({v['sector_angle']:g} deg, fold {v['fold_angle']:g} deg)")


def _kresling(v):
    from ..patterns import kresling

    st = kresling.kresling_tower(v["modules"], door_module=min(v["door_module"], v["modules"]),
                                 height=v["height"], diameter=v["diameter"], twist=math.radians(v["twist"]))
    return replace(st, thickness=v["thickness"], density=v["density"])


def _kresling_check(v):
    if v["door_module"] > v["modules"]:
        return "door_module", f"door_module {v['door_module']} exceeds modules = {v['modules']}"
    return None


def _yoshimura(v):
    from ..patterns import yoshimura

    return replace(yoshimura.table4_structure(), thickness=v["thickness"], density=v["density"])


def _file(v, structure=None):
    st = structure
    changes = {k: v[k] for k in ("thickness", "density") if v.get(k) is not None}
    return replace(st, **changes) if changes else st


FAMILIES = {
    "miura": Family("miura", (
        Param("rows", "int", 2, "panel rows (along the straight creases)", low=1),
        Param("columns", "int", 6, "panel columns (along the zigzag creases)", low=1),
        Param("sector_angle", "float", 60.0, "sector angle alpha (deg)", low=0.0, high=90.0, low_open=True,
              high_open=True),
        Param("fold_angle", "float", 60.0, "fold angle theta between the normals across a straight crease (deg; "
              "0 is flat)", low=0.0, high=180.0, high_open=True),
        _length("a", 1.0, "zigzag segment length"),
        _length("b", 1.0, "straight segment length"),
        THICKNESS, DENSITY,
        Param("supports", "text", "cantilever", "'cantilever': the paper's clamp on the last column line (its "
              "bottom and top vertices pinned, the next one held along x); 'none': free", choices=("cantilever",
                                                                                                  "none")),
    ), _miura, "parallelogram Miura-ori sheet (patterns.miura.miura_pattern), all door hinges as built; family "
               "load: a unit downward force at the tip column line's middle vertex (none when free)", _miura_check),
    "kresling": Family("kresling", (
        Param("modules", "int", 2, "modules stacked", low=1),
        Param("twist", "float", 20.0, "twist angle (deg)", low=-180.0, high=180.0, low_open=True),
        _length("height", 20.0, "module height"),
        _length("diameter", 20.0, "diameter"),
        Param("door_module", "int", 1, "the module of door hinges in the 'own' design (others sliding)", low=1),
        THICKNESS, DENSITY,
    ), _kresling, "simply supported Kresling tower (patterns.kresling.kresling_tower); family load: a unit "
                  "downward force at each top vertex", _kresling_check),
    "yoshimura": Family("yoshimura", (THICKNESS, DENSITY), _yoshimura,
                        "the paper's Yoshimura wedge at Table 4's coordinates, supported; 'own' design: the "
                        "paper's isostatic one; family load: the unit tip load"),
    "file": Family("file", (
        Param("path", "text", None, "FOLD or SVG file (relative to the spec's folder); read when the spec is "
              "read, so workers need not see it"),
        Param("frame", "text", "0", "FOLD frame: an index or a frame class", sweepable=False),
        Param("thickness", "float", None, "panel thickness (default: the file's)", low=0.0),
        Param("density", "float", None, "density (default: the file's)", low=0.0),
    ), _file, "a structure read from a FOLD or SVG file: its own hinge kinds, supports and loads"),
}

#: tolerance keys that are swept like parameters (column names)
TOLERANCE_PARAMS = (
    Param("tol", "float", DEFAULT_TOL, "tolerance of every error component (length)", low=0.0),
    Param("offset", "float", None, "hinge axis offset tolerance (default tol)", low=0.0),
    Param("tilt", "float", None, "hinge axis tilt tolerance (default tol)", low=0.0),
    Param("position", "float", None, "hinge position along the axis tolerance (default tol)", low=0.0),
    Param("vertex", "float", None, "vertex position tolerance per coordinate (default tol)", low=0.0),
    Param("distribution", "text", "normal", "error distribution", choices=imp.DISTRIBUTIONS),
)
TOLERANCE_OPTIONS = (
    Param("method", "text", "auto", "closed-form statistics method", choices=METHODS, sweepable=False),
    Param("probes", "int", 1000, "probes of the randomized closed form", low=2, sweepable=False),
    Param("samples", "int", 0, "Monte Carlo samples per case (0: none; else >= 2)", low=0, sweepable=False),
)
STIFFNESS_PARAMS = (
    Param("translational", "float", imp.DEFAULT_TRANSLATIONAL, "translational stiffness per unit hinge length "
          "(N/m per m)", low=0.0, low_open=True),
    Param("rotational", "float", imp.DEFAULT_ROTATIONAL, "rotational stiffness per unit hinge length "
          "(N m/rad per m)", low=0.0, low_open=True),
    Param("crease", "float", imp.DEFAULT_CREASE, "crease springs about the free rotations where M > 0 "
          "(N m/rad per m)", low=0.0, low_open=True),
)
#: stiffness keys -> their columns
STIFFNESS_COLUMNS = {"translational": "k_t", "rotational": "k_r", "crease": "k_c"}
SWEEP_KEYS = (
    Param("mode", "text", "grid", "grid or random", choices=MODES, sweepable=False),
    Param("samples", "int", None, "random mode: draws per pattern table", low=1, sweepable=False),
    Param("seed", "int", 0, "seed of the random draws and of each case's statistics (an integer >= 0)", low=0,
          sweepable=False),
    Param("engine", "text", "reference", "engine of the hinge forces under loads and of Monte Carlo samples",
          choices=ENGINES, sweepable=False),
)
DESIGN_KEYS = (
    Param("designs", "list", None, "designs to run (default: door, isostatic and every [design.sliding] name)",
          sweepable=False),
    Param("max_ranked", "int", 100, "design search: designs re-counted and ranked (design.design's default)",
          low=1, sweepable=False),
    Param("orders", "int", 32, "design search: random orders of the greedy search (design.design's samples)",
          low=0, sweepable=False),
    Param("improve", "int", 0, "design search: passes of the exchange search", low=0, sweepable=False),
)

#: every parameter column of the table, in order, and its kind
PARAM_COLUMNS = (("family", "text"), ("path", "text"), ("frame", "text"), ("rows", "int"), ("columns", "int"),
                 ("modules", "int"), ("sector_angle", "float"), ("fold_angle", "float"), ("twist", "float"),
                 ("a", "float"), ("b", "float"), ("height", "float"), ("diameter", "float"),
                 ("door_module", "int"), ("thickness", "float"), ("density", "float"), ("supports", "text"),
                 ("design", "text"), ("load_case", "text"), ("tol", "float"), ("offset", "float"),
                 ("tilt", "float"), ("position", "float"), ("vertex", "float"), ("distribution", "text"),
                 ("k_t", "float"), ("k_r", "float"), ("k_c", "float"), ("engine", "text"), ("seed", "int"))


@dataclass
class Case:
    """One case of a sweep: ``params`` (the table's parameter columns), ``options`` (the rest that changes its
    numbers: design and load definitions, search and statistics options), ``number`` (1-based, in the spec's
    order), ``id`` (module doc); ``structure``: the file family's structure (read when the spec was read)."""

    number: int
    params: dict
    options: dict
    id: str = ""
    structure: object = field(default=None, repr=False, compare=False)

    def tolerance_spec(self):
        p = self.params
        return imp.ToleranceSpec(p["tol"], p["offset"], p["tilt"], p["position"], p["vertex"], p["distribution"],
                                 p["seed"])

    def stiffness(self):
        return imp.HingeStiffness(self.params["k_t"], self.params["k_r"], crease=self.params["k_c"])


def case_id(params, options):
    """16 hex digits of SHA-256 of the canonical JSON of (version, params, options)."""
    text = json.dumps({"v": ID_VERSION, "params": params, "options": options}, sort_keys=True,
                      separators=(",", ":"), allow_nan=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# ------------------------------------------------------------------ locating keys in the TOML text
_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def _key_pattern(key):
    return re.compile(r"^\s*(?:\"|')?" + re.escape(key) + r"(?:\"|')?\s*(=|\.)")


def key_line(text, table, key=None):
    """1-based line of ``key`` in ``table`` (a path such as ("pattern", 0) or ("loads", "tip")) in the TOML
    ``text``, or of the table's header when ``key`` is None; None when not found (best effort)."""
    if text is None:
        return None
    names = [t for t in table if isinstance(t, str)]
    index = next((t for t in table if isinstance(t, int)), None)
    want = ".".join(names)
    seen = {}
    current = ""
    header_line = None
    parent_hits = []
    for n, line in enumerate(text.splitlines(), start=1):
        m = _HEADER.match(line)
        if m and not line.lstrip().startswith("#"):
            current = m.group(2).replace(" ", "")
            k = seen.get(current, -1) + 1 if m.group(1) == "[[" else 0
            seen[current] = k
            on = current == want and (index is None or k == index)
            if on and key is None:
                return n
            header_line = n if on else None
            continue
        if header_line is not None and key is not None and _key_pattern(key).match(line):
            return n
        # dotted or inline forms in a parent table: [loads] tip.kind = ... / tip = { kind = ... }
        if key is not None and names and current == ".".join(names[:-1]) and index is None:
            child = names[-1]
            if _key_pattern(child).match(line) and re.search(r"\b" + re.escape(key) + r"\b", line):
                parent_hits.append(n)
        if key is None and names and current == ".".join(names[:-1]) and _key_pattern(names[-1]).match(line):
            return n
        if not names and current == "" and key is not None and _key_pattern(key).match(line):
            return n
    return parent_hits[0] if parent_hits else None


def nearest(word, words):
    """[the word of ``words`` nearest to ``word``] (difflib's ratio, else a word that starts with it), or []."""
    import difflib

    near = difflib.get_close_matches(word, list(words), n=1)
    return near or [w for w in words if w.startswith(word)][:1]


class _Reader:
    """Checks a parsed spec, raising :class:`SpecError` with the source and the line of the key."""

    def __init__(self, source, text):
        self.source, self.text = source, text

    def where(self, table, key=None):
        line = key_line(self.text, table, key)
        if line is None and key is not None:         # the key may name a table: [design.slidng]
            line = key_line(self.text, tuple(table) + (key,))
        return f"{self.source} line {line}" if line else self.source

    def fail(self, table, key, message):
        raise SpecError(f"{self.where(table, key)}: {message}")

    @staticmethod
    def table_name(table, family=None):
        names = [t for t in table if isinstance(t, str)]
        index = next((t for t in table if isinstance(t, int)), None)
        if index is not None:
            what = f"[[{'.'.join(names)}]] table {index + 1}"
            return what + (f" (family {family})" if family else "")
        what = f"[{'.'.join(names)}]" if names else "the top level"
        return what + (f" (family {family})" if family else "")

    def unknown(self, table, data, allowed, family=None):
        for key in data:
            if key not in allowed:
                near = nearest(key, allowed)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                self.fail(table, key, f"unknown key {key!r} in {self.table_name(table, family)}{hint}; expected "
                                      f"one of: {', '.join(allowed)}")

    def table(self, parent, key, value, where):
        if not isinstance(value, dict):
            self.fail(where[:-1] if len(where) > 1 else (), key, f"{key!r} must be a table, got {value!r}")
        return value

    def scalar(self, table, param, value):
        v, err = param.check(value)
        if err:
            self.fail(table, param.name, f"{self.table_name(table)} {param.name} {err}")
        return v

    def values(self, table, param, value, mode):
        """The value list (grid) or a draw rule (random) of a sweepable parameter."""
        name = f"{self.table_name(table)} {param.name}"
        if isinstance(value, list):
            if not value:
                self.fail(table, param.name, f"{name} is an empty list")
            return ("list", [self.scalar(table, param, x) for x in value])
        if isinstance(value, dict):
            if param.kind == "text":
                self.fail(table, param.name, f"{name}: a text parameter takes a value or a list, not a range")
            self.unknown(table, value, ("min", "max", "steps", "log"))
            for k in ("min", "max"):
                if k not in value:
                    self.fail(table, param.name, f"{name}: a range needs min and max (missing {k})")
            lo, hi = self.scalar(table, param, value["min"]), self.scalar(table, param, value["max"])
            if hi < lo:
                self.fail(table, param.name, f"{name}: range max {hi!r} is below min {lo!r}")
            log = value.get("log", False)
            if not isinstance(log, bool):
                self.fail(table, param.name, f"{name}: log must be true or false, got {log!r}")
            if log and lo <= 0:
                self.fail(table, param.name, f"{name}: a log range needs min > 0, got {lo!r}")
            steps = value.get("steps")
            if steps is not None and (isinstance(steps, bool) or not isinstance(steps, int) or steps < 1):
                self.fail(table, param.name, f"{name}: steps must be an integer >= 1, got {steps!r}")
            if mode == "random":
                return ("range", (lo, hi, log))
            if steps is None:
                if param.kind != "int":
                    self.fail(table, param.name, f"{name}: a range of a grid needs steps (how many values)")
                return ("list", list(range(lo, hi + 1)))
            if steps == 1 and lo != hi:
                self.fail(table, param.name, f"{name}: one step cannot span min {lo!r} to max {hi!r}")
            pts = np.geomspace(lo, hi, steps) if log else np.linspace(lo, hi, steps)
            if param.kind == "int":
                return ("list", sorted(set(int(round(x)) for x in pts)))
            return ("list", [float(x) for x in pts])
        if value is None:
            return ("list", [None])
        return ("list", [self.scalar(table, param, value)])


# ------------------------------------------------------------------ the spec
@dataclass
class Spec:
    """A checked sweep spec: ``cases`` in order (module doc), and what was read."""

    source: str
    mode: str
    seed: int
    engine: str
    cases: list
    designs: tuple
    load_cases: tuple
    text: str = None

    def __len__(self):
        return len(self.cases)


def _toml():
    try:
        import tomllib
    except ModuleNotFoundError:      # Python 3.10
        import tomli as tomllib
    return tomllib


def read_spec(path):
    """The :class:`Spec` of the TOML file ``path`` (relative file paths in it are relative to its folder)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise SpecError(f"{path}: cannot read the sweep spec: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SpecError(f"{path}: the sweep spec is not UTF-8 text ({e.reason} at byte {e.start})") from None
    tomllib = _toml()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"{path}: not valid TOML: {e}") from None
    return make_spec(data, source=str(path), text=text, folder=os.path.dirname(os.path.abspath(path)))


def make_spec(data, source="spec", text=None, folder=None):
    """The :class:`Spec` of a parsed spec ``data`` (a dict shaped like the TOML file; ``folder``: where
    relative file paths start, default the working folder)."""
    r = _Reader(source, text)
    if not isinstance(data, dict):
        raise SpecError(f"{source}: a sweep spec is a table of tables, got {type(data).__name__}")
    r.unknown((), data, ("sweep", "pattern", "design", "loads", "tolerance", "stiffness"))
    sweep = r.table((), "sweep", data.get("sweep", {}), ("sweep",))
    r.unknown(("sweep",), sweep, [p.name for p in SWEEP_KEYS])
    opts = {p.name: (p.default if p.name not in sweep else r.scalar(("sweep",), p, sweep[p.name]))
            for p in SWEEP_KEYS}
    mode = opts["mode"]
    if mode == "random" and opts["samples"] is None:
        r.fail(("sweep",), "mode", "[sweep] mode = 'random' needs samples (draws per pattern table)")
    if mode == "grid" and opts["samples"] is not None:
        r.fail(("sweep",), "samples", "[sweep] samples is for mode = 'random' (a grid runs every combination)")
    patterns = data.get("pattern")
    if patterns is None:
        raise SpecError(f"{source}: no [[pattern]] table: a sweep needs at least one pattern family")
    if isinstance(patterns, dict):
        patterns, array = [patterns], False
    elif isinstance(patterns, list) and patterns and all(isinstance(p, dict) for p in patterns):
        array = True
    else:
        raise SpecError(f"{r.where(('pattern',))}: pattern must be a table or an array of tables [[pattern]]")
    designs, design_opts, given = _designs(r, data.get("design", {}))
    load_cases = _load_cases(r, data.get("loads"))
    tol_table = r.table((), "tolerance", data.get("tolerance", {}), ("tolerance",))
    r.unknown(("tolerance",), tol_table, [p.name for p in TOLERANCE_PARAMS + TOLERANCE_OPTIONS])
    tol_opts = {p.name: (p.default if p.name not in tol_table else r.scalar(("tolerance",), p, tol_table[p.name]))
                for p in TOLERANCE_OPTIONS}
    if tol_opts["samples"] == 1:
        r.fail(("tolerance",), "samples", "[tolerance] samples must be 0 (no Monte Carlo) or >= 2, got 1")
    stiff_table = r.table((), "stiffness", data.get("stiffness", {}), ("stiffness",))
    r.unknown(("stiffness",), stiff_table, [p.name for p in STIFFNESS_PARAMS])
    shared = [(("tolerance",), p, tol_table.get(p.name, p.default), p.name) for p in TOLERANCE_PARAMS]
    shared += [(("stiffness",), p, stiff_table.get(p.name, p.default), STIFFNESS_COLUMNS[p.name])
               for p in STIFFNESS_PARAMS]
    shared_rules = [(col, r.values(t, p, v, mode)) for t, p, v, col in shared]
    cases = []
    for t, pat in enumerate(patterns):
        where = ("pattern", t) if array else ("pattern",)
        fam_name = pat.get("family")
        if fam_name is None:
            r.fail(where, None, f"{r.table_name(where)} has no family; expected one of {', '.join(FAMILIES)}")
        if not isinstance(fam_name, str):
            r.fail(where, "family", f"{r.table_name(where)}: family is one name; give each family its own "
                                    f"[[pattern]] table")
        if fam_name not in FAMILIES:
            r.fail(where, "family", f"{r.table_name(where)}: unknown family {fam_name!r}; expected one of "
                                    f"{', '.join(FAMILIES)}")
        fam = FAMILIES[fam_name]
        r.unknown(where, pat, ["family"] + [p.name for p in fam.params], fam_name)
        rules = []
        for p in fam.params:
            if p.name not in pat:
                rules.append((p.name, ("list", [p.default])))
            elif p.sweepable:
                rules.append((p.name, r.values(where, p, pat[p.name], mode)))
            else:
                rules.append((p.name, ("list", [r.scalar(where, p, pat[p.name])])))
        files = {}
        if fam_name == "file":
            files = _read_files(r, where, dict(rules), folder)
        for k, values in _draws(rules + shared_rules, mode, opts["samples"], opts["seed"], t):
            seed = opts["seed"] + (k if mode == "random" else 0)
            v = dict(values)
            if fam.check:
                bad = fam.check(v)
                if bad:
                    r.fail(where, bad[0], f"{r.table_name(where, fam_name)}: {bad[1]}")
            _check_tolerance(r, v)
            for lname, ldef in load_cases:
                for dname in designs:
                    cases.append(_case(fam_name, v, dname, given, design_opts, lname, ldef, tol_opts, opts, seed,
                                       files))
    for i, c in enumerate(cases):
        c.number = i + 1
    return Spec(source, mode, opts["seed"], opts["engine"], cases, tuple(designs), tuple(n for n, _ in load_cases),
                text)


def _draws(rules, mode, samples, seed, table):
    """(draw index, [(column, value)]) of every grid point or random draw."""
    if mode == "grid":
        names = [n for n, _ in rules]
        for combo in itertools.product(*[vals for _, (_, vals) in rules]):
            yield 0, list(zip(names, combo))
        return
    for k in range(samples):
        rng = np.random.default_rng([seed, table, k])
        out = []
        for name, (how, arg) in rules:
            if how == "list":
                out.append((name, arg[int(rng.integers(len(arg)))] if len(arg) > 1 else arg[0]))
            else:
                lo, hi, log = arg
                if isinstance(lo, int):
                    out.append((name, int(rng.integers(lo, hi + 1))))
                elif log:
                    out.append((name, float(math.exp(rng.uniform(math.log(lo), math.log(hi))))))
                else:
                    out.append((name, float(rng.uniform(lo, hi))))
        yield k, out


def _check_tolerance(r, v):
    try:
        imp.ToleranceSpec(v["tol"], v["offset"], v["tilt"], v["position"], v["vertex"], v["distribution"])
    except imp.ToleranceError as e:
        r.fail(("tolerance",), None, f"[tolerance] {e}")


def _designs(r, table):
    where = ("design",)
    table = r.table((), "design", table, where)
    r.unknown(where, table, [p.name for p in DESIGN_KEYS] + ["sliding"])
    given = {}
    sliding = table.get("sliding", {})
    if not isinstance(sliding, dict):
        r.fail(where, "sliding", "[design] sliding must be a table of name = [1-based hinges]")
    for name, hinges in sliding.items():
        if name in BUILTIN_DESIGNS:
            r.fail(("design", "sliding"), name, f"[design.sliding] {name!r} is a built-in design's name; "
                                                f"choose another")
        if not (isinstance(hinges, list) and all(isinstance(h, int) and not isinstance(h, bool) and h >= 1
                                                 for h in hinges)):
            r.fail(("design", "sliding"), name, f"[design.sliding] {name} must be a list of hinge numbers >= 1 "
                                                f"(1-based), got {hinges!r}")
        given[name] = sorted(set(hinges))
    opts = {p.name: (p.default if p.name not in table else r.scalar(where, p, table[p.name]))
            for p in DESIGN_KEYS[1:]}
    names = table.get("designs")
    if names is None:
        names = ["door", "isostatic"] + list(given)
    if isinstance(names, str):
        names = [names]
    if not (isinstance(names, list) and names and all(isinstance(n, str) for n in names)):
        r.fail(where, "designs", f"[design] designs must be a list of design names, got {names!r}")
    for n in names:
        if n not in BUILTIN_DESIGNS and n not in given:
            r.fail(where, "designs", f"[design] designs: unknown design {n!r}; expected door, isostatic, own "
                                     f"or a name of [design.sliding]")
    if len(set(names)) != len(names):
        r.fail(where, "designs", f"[design] designs lists a design twice: {names!r}")
    return names, opts, given


def _load_cases(r, table):
    if table is None:
        return [("family", {"kind": "family", "scale": 1.0})]
    table = r.table((), "loads", table, ("loads",))
    if not table:
        r.fail(("loads",), None, "[loads] has no load case; give [loads.NAME] tables or leave [loads] out")
    out = []
    for name, d in table.items():
        where = ("loads", name)
        if not isinstance(d, dict):
            r.fail(("loads",), name, f"[loads] {name} must be a table (a load case), got {d!r}")
        kind = d.get("kind", "family")
        if kind not in LOAD_KINDS:
            r.fail(where, "kind", f"[loads.{name}] unknown kind {kind!r}; expected one of {', '.join(LOAD_KINDS)}")
        allowed = {"family": ("kind", "scale"), "none": ("kind",), "gravity": ("kind", "g"),
                   "points": ("kind", "points")}[kind]
        r.unknown(where, d, allowed)
        if kind == "family":
            scale = r.scalar(where, Param("scale", "float", 1.0, ""), d.get("scale", 1.0))
            out.append((name, {"kind": kind, "scale": scale}))
        elif kind == "none":
            out.append((name, {"kind": kind}))
        elif kind == "gravity":
            g = d.get("g", [0.0, 0.0, -9.81])
            out.append((name, {"kind": kind, "g": _vector(r, where, "g", g)}))
        else:
            pts = d.get("points")
            if not (isinstance(pts, list) and pts):
                r.fail(where, "points", f"[loads.{name}] points must be a list of {{vertex, panel, force}} tables")
            clean = []
            for k, p in enumerate(pts):
                if not isinstance(p, dict):
                    r.fail(where, "points", f"[loads.{name}] point {k + 1} must be a table {{vertex = .., "
                                            f"panel = .., force = [x, y, z]}}, got {p!r}")
                bad = [x for x in p if x not in ("vertex", "panel", "force")]
                if bad:
                    r.fail(where, "points", f"[loads.{name}] point {k + 1}: unknown key {bad[0]!r}; expected "
                                            f"vertex, panel, force")
                one = Param("vertex", "int", None, "", low=1)
                v = r.scalar(where, one, p.get("vertex"))
                panel = None if p.get("panel") is None else r.scalar(where, replace(one, name="panel"), p["panel"])
                if "force" not in p:
                    r.fail(where, "points", f"[loads.{name}] point {k + 1} has no force")
                clean.append({"vertex": v, "panel": panel, "force": _vector(r, where, "points", p["force"])})
            out.append((name, {"kind": kind, "points": clean}))
    return out


def _vector(r, where, key, v):
    if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                        and math.isfinite(x) for x in v)):
        r.fail(where, key, f"[{'.'.join(str(w) for w in where)}] {key} must be 3 finite numbers, got {v!r}")
    return [float(x) for x in v]


def _read_files(r, where, rules, folder):
    """{path as written: (structure, sha256)} of the file family's paths, read now."""
    from ..structure.foldfile import read_structure

    out = {}
    paths = rules["path"][1]
    frame = rules["frame"][1][0]
    frame = int(frame) if isinstance(frame, str) and frame.isdigit() else frame
    for path in paths:
        if path is None:
            r.fail(where, None, f"{r.table_name(where, 'file')} needs path (a FOLD or SVG file)")
        full = path if os.path.isabs(path) or folder is None else os.path.join(folder, path)
        if not os.path.isfile(full):
            r.fail(where, "path", f"{r.table_name(where, 'file')}: {path}: no such file")
        with open(full, "rb") as f:
            sha = hashlib.sha256(f.read()).hexdigest()
        try:
            st = read_structure(full, frame=frame)
        except OrigamiError as e:
            r.fail(where, "path", f"{path}: {str(e).splitlines()[0]}")
        out[path] = (st, sha)
    return out


def _case(family, v, design, given, design_opts, load_name, load_def, tol_opts, opts, seed, files):
    params = {name: None for name, _ in PARAM_COLUMNS}
    params.update({k: x for k, x in v.items()})
    for k in ("offset", "tilt", "position", "vertex"):       # the tolerances in effect (the same case, one id)
        if params[k] is None:
            params[k] = params["tol"]
    params.update(family=family, design=design, load_case=load_name, engine=opts["engine"], seed=int(seed))
    options = {"load": load_def, "statistics": dict(tol_opts)}
    if design == "isostatic":
        options["search"] = dict(design_opts)
    elif design in given:
        options["sliding"] = list(given[design])
    structure = None
    if family == "file":
        structure, sha = files[v["path"]]
        options["file_sha256"] = sha
    c = Case(0, params, options, structure=structure)
    c.id = case_id(params, options)
    return c


# ------------------------------------------------------------------ the structure of a case
def base_structure(case):
    """The family's structure of ``case`` with its own hinge kinds, supports and loads (before the load case)."""
    fam = FAMILIES[case.params["family"]]
    values = {p.name: case.params[p.name] for p in fam.params}
    if fam.name == "file":
        return _file(values, case.structure)
    return fam.build(values)


def with_load_case(structure, load):
    """``structure`` under the load case ``load`` (a checked definition: module doc); vertex and panel numbers of
    "points" are 1-based (a number the structure does not have is a ``StructureError`` naming it)."""
    kind = load["kind"]
    if kind == "family":
        s = float(load["scale"])
        loads = tuple(Load(ld.vertex, tuple(s * float(x) for x in ld.force), ld.panel) for ld in structure.loads)
        g = None if structure.gravity is None else tuple(s * float(x) for x in structure.gravity)
        return replace(structure, loads=loads, gravity=g)
    if kind == "none":
        return replace(structure, loads=(), gravity=None)
    if kind == "gravity":
        return replace(structure, loads=(), gravity=tuple(load["g"]))
    loads = tuple(Load(p["vertex"] - 1, tuple(p["force"]), None if p["panel"] is None else p["panel"] - 1)
                  for p in load["points"])
    return replace(structure, loads=loads, gravity=None)


def case_structure(case):
    """The structure of ``case`` under its load case, with its family's own hinge kinds (the design is the
    analysis's: ``analysis.sweep.designed``)."""
    return with_load_case(base_structure(case), case.options["load"])


def all_door(structure):
    return structure.with_hinge_kinds((DOOR,) * len(structure.pattern.hinges))
