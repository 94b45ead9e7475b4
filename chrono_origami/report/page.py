"""A results page: one self-contained HTML file that opens offline in any browser (``--html FILE``, ``co.report.html``).

The page shows the structure in 3-D (rotate: left drag, pan: right drag, zoom:
wheel), door hinges dashed and sliding hinges solid (:mod:`.styles`, as in the
figures), supports (cones: pinned, spheres: partly held) and loads (arrows),
hinges coloured by an internal action with a colour bar (:mod:`.hinge_colors`:
the same map, range and largest hinge as the PNG figures), and on hover or
click a hinge's number and its six actions on both sides as ``hinges.csv``
writes them (the shortest text that reads back to the same float). A fold or
dynamics run gets a slider and a play button over its frames, a modal analysis
a list of its modes with their frequencies and the chosen mode's cycle played, a design its
structure before and after, a tolerance analysis the locked-in statistics per
hinge; every page shows its counts (M, S, status), its tables (sortable) and
the command line that produced it.

Library: three.js r147 (MIT, ``web/LICENSE-three.txt``): ``build/three.min.js``
and the classic-script OrbitControls and fat lines of its ``examples/js``,
660 KB together, inlined with the page's own script (``web/page.js``). The
panels are one merged mesh (thick panels placed: their solids, as in the
figures, :func:`_draw_solids`), the hinges one line set per line style: a 10^4-panel
page stays a few MB (``benchmarks/html_page.py``). The numbers shown travel
as base64 of little-endian float64 (exact, NaN and infinities included), the
vertex positions drawn as float32 (what WebGL draws); a value
that is not finite is shown as ``nan`` / ``inf`` and its hinge is drawn in
:data:`NOT_FINITE_COLOR`, counted under the colour bar, never on the map.
"""
import base64
import html as _html
import json
import os
import re
import shlex
import sys
from types import SimpleNamespace

import numpy as np

from ..results.static import HINGE_COLUMNS
from . import hinge_colors
from .styles import style
from .tables import HINGE_HEADER, SUPPORT_HEADER

WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "web")
#: the vendored scripts, inlined in this order before the page's own
VENDOR = ("three.min.js", "OrbitControls.js", "LineSegmentsGeometry.js", "LineMaterial.js", "LineSegments2.js")
#: RGB (0-1) of a hinge whose value is NaN or infinite (on neither colour map)
NOT_FINITE_COLOR = hinge_colors.NOT_FINITE_COLOR
#: entries of each colour map's lookup table (matplotlib's own resolution: the figures' colours exactly)
LUT_SIZE = 256


def command_line(argv=None, prog=None):
    """The command line as a shell takes it back: ``prog`` (default: this program, ``python3 SCRIPT.py`` or
    ``python3 -m chrono_origami``) and ``argv`` (default ``sys.argv[1:]``)."""
    if prog is None:
        first = sys.argv[0] if sys.argv else ""
        prog = ("python3 -m chrono_origami" if os.path.basename(first) in ("__main__.py", "") else
                "python3 " + shlex.quote(first) if first.endswith(".py") else shlex.quote(first))
    return " ".join([prog, shlex.join(sys.argv[1:] if argv is None else argv)]).strip()


# ------------------------------------------------------------------ encoding
def _b64(array, dtype):
    return base64.b64encode(np.ascontiguousarray(array, dtype=np.dtype(dtype).newbyteorder("<")).tobytes()).decode()


def _num(x):
    """A scalar for JSON: a float, or "nan" / "inf" / "-inf" (JSON has no such numbers)."""
    if x is None:
        return None
    x = float(x)
    return x if np.isfinite(x) else repr(x)


#: the kind of unit of a column or colouring (its name without a statistic's prefix), shown in ``units(structure)``
_MOMENTS = {"MT", "MP", "MO", "|M|", "M", "torque", "max moment"}
_FORCES = {"N", "TP", "TO", "|F|", "F", "Fx", "Fy", "Fz", "max force"}
_LENGTHS = {"ux", "uy", "uz", "|u|", "depth"}


def unit_kind(name):
    """"force", "moment", "length" or "" (no unit) of a column or colouring named ``name`` ("p95_MT", "p95 N")."""
    base = re.sub(r"^(sd|p95|p99)[_ ]", "", str(name))
    return "moment" if base in _MOMENTS else "force" if base in _FORCES else "length" if base in _LENGTHS else ""


def units(structure):
    """The page's units: N, N m and m where the FOLD file's ``frame_unit`` is "m" (SI), "model units" otherwise
    (the numbers are in the file's own consistent units, which it does not name)."""
    si = (getattr(structure, "notes", None) or {}).get("fold", {}).get("frame_unit") == "m"
    if si:
        return {"si": True, "force": "N", "moment": "N m", "length": "m", "note": "SI (the FOLD file's frame_unit m)"}
    return {"si": False, "force": "model units", "moment": "model units", "length": "model units",
            "note": "model units (the FOLD file names no frame_unit: force, length and force x length in its own "
                    "consistent units)"}


def table(title, header, rows, ints=2):
    """A table of the page: ``header``, ``rows`` (numbers; the first ``ints`` columns are integers), each column's
    kind of unit (:func:`unit_kind`)."""
    rows = np.asarray([[np.nan if v is None else float(v) for v in r] for r in rows], float).reshape(-1, len(header))
    return {"title": title, "header": list(header), "ints": ints, "n": len(rows), "data": _b64(rows, "f8"),
            "units": [unit_kind(h) for h in header]}


def _lut(name):
    return _b64(np.round(hinge_colors.colormap(name)(np.linspace(0, 1, LUT_SIZE))[:, :3] * 255), "u1")


def _coloring(c, extra=""):
    """A :class:`~.hinge_colors.HingeColoring` for the page."""
    h, v = c.largest()
    return {"component": c.component, "label": c.label + extra, "cmap": c.cmap, "vmin": _num(c.vmin),
            "vmax": _num(c.vmax), "values": _b64(c.values, "f8"), "caption": c.caption(),
            "largest": None if c.round_off is not None or not np.isfinite(v) else h + 1,
            "largest_text": c.largest_text(), "unit": unit_kind(c.component)}


# ------------------------------------------------------------------ geometry
def _geometry(structure):
    pat = structure.pattern
    tri = [(loop[0], loop[k], loop[k + 1]) for loop in pat.panels for k in range(1, len(loop) - 1)]
    kinds = [getattr(k, "name", str(k)) for k in structure.hinge_kinds]
    names = sorted(set(kinds) | {"door", "sliding"})
    styles = {n: {"color": list(style(n).color), "dashed": style(n).line != "-", "line": style(n).line_name}
              for n in names}
    return {"n_vertices": pat.n_vertices, "n_panels": pat.n_panels, "n_hinges": len(pat.hinges),
            "triangles": _b64(np.asarray(tri, int).reshape(-1, 3), "u4"),
            "hinges": _b64(np.asarray([h.vertices for h in pat.hinges], int).reshape(-1, 2), "u4"),
            "boundary": _b64(np.asarray(list(pat.boundary_edges), int).reshape(-1, 2), "u4"),
            "kinds": _b64([names.index(k) for k in kinds], "u1"), "kind_names": names, "kind_styles": styles,
            "size": float(pat.size),
            "supports": [{"vertex": s.vertex + 1, "dofs": s.dofs} for s in structure.supports],
            "loads": [{"vertex": ld.vertex + 1, "force": [_num(f) for f in ld.force]} for ld in structure.loads]}


def _draw_solids(structure, data):
    """Thick panels placed (``figures.solids_of``): the page draws each panel's solid, as the figures and the
    viewer do. Every state's vertices get, after the pattern's V, each panel's solid vertices at that state
    (``structure.solids.PanelSolids.at``; P blocks of the largest solid's count, shorter ones padded), and the
    triangles drawn (and the first contact's) become the fans of the solids' faces (a face of k vertices: k - 2
    triangles). ``geometry.n_drawn``: the vertices each state holds."""
    from .figures import solids_of

    solids = solids_of(structure)
    if solids is None:
        return
    V, P, n = structure.pattern.n_vertices, solids.P, solids.V.shape[1]

    def fans(panels):
        return [(V + p * n + loop[0], V + p * n + loop[k], V + p * n + loop[k + 1]) for p in panels
                for loop in solids.faces[p] for k in range(1, len(loop) - 1)]

    G = data["geometry"]
    G["triangles"] = _b64(np.asarray(fans(range(P)), int).reshape(-1, 3), "u4")
    G["n_drawn"] = V + P * n
    for state in data["states"]:
        X = np.frombuffer(base64.b64decode(state["vertices"]), "<f4").reshape(-1, 3).astype(float)
        state["vertices"] = _b64(np.vstack([X, solids.at(X)[0].reshape(-1, 3)]), "f4")
    if data.get("contact"):
        data["contact"]["triangles"] = [int(v) for t in fans([x - 1 for x in data["contact"]["panels"]]) for v in t]


def _state(label, vertices, kinds=None, tables=(), colorings=None, counts=None, note="", structure=None):
    """A state of the page; with ``structure``, its hinges' fold angles (``angles``, deg, FOLD sign: valley > 0;
    the tooltip, M/V)."""
    s = {"label": label, "vertices": _b64(np.asarray(vertices, float).reshape(-1, 3), "f4"), "tables": list(tables),
         "colorings": colorings or {}, "note": note}
    if structure is not None:
        from ..crease.pattern import fold_angles

        s["angles"] = _b64(np.degrees(fold_angles(structure.pattern, np.asarray(vertices, float))), "f8")
    if kinds is not None:
        s["kinds"] = [getattr(k, "name", str(k)) for k in kinds]
    if counts is not None:
        s["counts"] = counts
    return s


def _hinge_table(rows, title="hinge actions (hinges.csv)"):
    t = table(title, HINGE_HEADER, rows)
    t["hinge_table"] = True
    return t


# ------------------------------------------------------------------ the kinds of results
def static_data(result):
    """The page of a :class:`~chrono_origami.results.static.StaticResult` (static, or a measured tolerance)."""
    from ..results.static import DISPLACEMENT_HEADER, answer_label, elastic_label

    st = result.structure
    colorings = {c: _coloring(hinge_colors.coloring(result, c)) for c in hinge_colors.COMPONENTS}
    label = answer_label(result) if result.status == "minimum-norm" else None
    tables = [_hinge_table(result.hinge_rows(), "hinge actions (hinges.csv)" + (f": {label}" if label else ""))]
    if result.support_reactions:
        tables.append(table("support reactions (supports.csv)", SUPPORT_HEADER, result.support_rows()))
    if getattr(result, "displacements", None) is not None:
        tables.append(table("displacements (displacements.csv)", DISPLACEMENT_HEADER, result.displacement_rows()))
    counts = {"M": result.M, "S": result.S, "status": result.status, "engine": result.engine,
              "equilibrium residual": _num(result.equilibrium_residual)}
    caveats = []
    if result.status == "elastic":          # as the command line says it (report.tables): stiffness, sensitivity
        from .tables import displacement_large, displacement_text

        caveats.append(elastic_label(result))
        moved = displacement_text(result)
        if moved:
            caveats.append(moved)
            counts["displacement warning"] = "large" if displacement_large(result) else "none"
    elif label:
        caveats.append(label)
    data = {"kind": "static", "counts": counts, "caveats": caveats,
            "states": [_state("static", st.pattern.vertices, tables=tables, colorings=colorings, note=label or "")]}
    if getattr(result, "displacements", None) is not None:
        data["displaced"] = displaced_shape(st, result.displacements)
    return st, data


def displaced_shape(structure, displacements):
    """The page's displaced shape (a layer): each panel's outline as line segments (``segments``: (n, 2, 3)
    float32, global frame) moved by the displacements at the figure's scale (``figures.displacement_scale``),
    with that scale and the figure's caption of it."""
    from . import figures

    scale = figures.displacement_scale(displacements, structure.pattern.size)
    loops = figures.displaced_outlines(structure, structure.pattern.vertices, displacements, scale)
    segments = np.concatenate([np.stack([P, np.roll(P, -1, axis=0)], axis=1) for P in loops])
    return {"segments": _b64(segments, "f4"), "n": len(segments), "scale": scale,
            "caption": figures.displacement_caption(scale, displacements)}


def fold_data(history):
    """The page of a :class:`~chrono_origami.results.fold.FoldHistory`: one state per stored frame. With the
    contact check of thick panels (``history.contacts``, ``analysis.contact``), the first contact: its pair
    (1-based), where (the fold percent) and depth in the counts and in that frame's note, and the pair in
    ``data["contact"]`` with its panels' triangles (vertex indices), which the page draws red on that frame."""
    st = history.problem.structure
    n = len(history.times) - 1
    reached = getattr(history, "frame_percents", None)     # the percent of the targets each frame reached

    def label(k, t):
        where = f" ({reached[k]:.4g} % of the targets)" if reached is not None else ""
        return f"frame {k} of {n}{where}: t = {t:g} s"

    states = [_state(label(k, t), X, structure=st) for k, (t, X) in enumerate(zip(history.times, history.vertices))]
    counts = {"frames": len(history.times), "engine": history.engine,
              "largest residual": _num(history.max_residual), "status": "fold"}
    steps = table("stored frames", ("frame", "time", "residual", "sigma ratio"),
                  [(k, t, r, s) for k, (t, r, s) in enumerate(zip(history.times, history.residuals,
                                                                  history.sigma_ratios))], ints=1)
    contacts = getattr(history, "contacts", None)       # analysis.contact.Contacts, when thick panels were checked
    first = None if contacts is None else contacts.first
    data = {"kind": "fold", "counts": counts, "states": states, "tables": [steps]}
    if first is not None and first < len(states):
        p, q, d = contacts.pairs[first][0]
        text = f"panels {p + 1} and {q + 1} at {contacts.where(first)}, depth {_num(d)}"
        counts["first contact"] = text
        states[first]["note"] = f"first contact: {text}"
        states[first]["contact"] = [p + 1, q + 1]
        pat = st.pattern
        tri = [(loop[0], loop[k], loop[k + 1]) for r in (p, q) for loop in (pat.panels[r],)
               for k in range(1, len(loop) - 1)]
        data["contact"] = {"frame": first, "panels": [p + 1, q + 1], "depth": _num(d),
                           "percent": None if contacts.percents is None else _num(contacts.percents[first]),
                           "triangles": [int(v) for t in tri for v in t]}
    return st, data


def path_colorings(structure, actions):
    """Per frame, the page's colourings of its hinge actions (``actions[k]``: a list of HingeAction), every
    component on one scale over all frames (a dynamics run, a deployment)."""
    K = len(actions)
    per = {c: [hinge_colors.hinge_values(SimpleNamespace(structure=structure, hinge_actions=actions[k]), c)
               for k in range(K)] for c in hinge_colors.COMPONENTS}
    tops = {c: max((float(np.abs(v[np.isfinite(v)]).max(initial=0.0)) for v in values), default=0.0)
            for c, values in per.items()}           # one scale over all frames, per component
    out = []
    for k in range(K):
        colorings = {}
        for c, values in per.items():
            top = tops[c]
            signed = c not in ("|F|", "|M|")
            hc = hinge_colors.HingeColoring(c, values[k], -top if signed else 0.0, top,
                                            hinge_colors.DIVERGING if signed else hinge_colors.SEQUENTIAL,
                                            hinge_colors.NAMES[c])
            colorings[c] = _coloring(hc, " (one scale over all frames)")
        out.append(colorings)
    return out


def dynamics_data(history):
    """The page of a :class:`~chrono_origami.results.dynamics.TimeHistory`: one state per output frame, hinges
    coloured on one scale over all frames."""
    st = history.structure
    K = len(history.t)
    colorings = path_colorings(st, history.hinge_actions)
    states = []
    for k in range(K):
        rows = [(a.hinge + 1, a.panel + 1, *a.values) for a in history.hinge_actions[k]]
        states.append(_state(f"frame {k} of {K - 1}: t = {history.t[k]:g} s", history.vertices[k],
                             tables=[_hinge_table(rows, "hinge actions at this frame (hinges_t.csv)")],
                             colorings=colorings[k], structure=st))
    contact = history.contact if history.contact is not None else None
    energy = table("energies", ("frame", "t", "kinetic", "potential", "spring", "work", "dissipated")
                   + (("contact",) if contact is not None else ()),
                   [(k, history.t[k], history.kinetic[k], history.potential[k], history.spring[k], history.work[k],
                     history.dissipated[k]) + ((contact[k],) if contact is not None else ()) for k in range(K)],
                   ints=1)
    counts = {"frames": K, "engine": history.engine, "integrator": history.integrator, "dt": _num(history.dt),
              "status": "dynamics"}
    return st, {"kind": "dynamics", "counts": counts, "states": states, "tables": [energy]}


def deployment_data(dep):
    """The page of a :class:`~chrono_origami.results.deploy.Deployment`: one state per frame (placed on its
    supports), hinges coloured by that frame's actions on one scale over the path, hovering shows them; the
    torques and the largest |F| against the percent (``figures.draw_deployment``, a PNG) beside the 3-D view;
    the tables actuation, path_frames and envelope."""
    import io

    from .figures import draw_deployment, save_figure

    st = dep.structure
    K = len(dep.frames)
    colorings = path_colorings(st, [r.hinge_actions for r in dep.results])
    states = []
    for k in range(K):
        torque = ", ".join(f"hinge {h + 1}: {t:.6g}" for h, t in zip(dep.actuators, dep.torques[k]))
        states.append(_state(f"frame {dep.frames[k]} of {dep.frames[-1]}: {dep.percents[k]:.4g} % ({dep.statuses[k]})",
                             dep.results[k].structure.pattern.vertices,
                             tables=[_hinge_table(dep.results[k].hinge_rows(),
                                                  "hinge actions at this frame (path_hinges.csv)")],
                             colorings=colorings[k], note=f"actuator torque (N m, FOLD sign): {torque}",
                             structure=dep.results[k].structure))
    status = {"determined": 0, "elastic": 1}
    frames = table("path_frames (status: 0 determined, 1 elastic; near-singular: 1 in the last column)",
                   ("frame", "time", "percent", "status", "sigma_min_rel", "amplification", "M", "S", "near-singular"),
                   [(f, t, p, status[s.split(",")[0]], g, a, c[0], c[1], float("near-singular" in s))
                    for f, t, p, s, g, a, c in zip(dep.frames, dep.times, dep.percents, dep.statuses, dep.sigmas,
                                                   dep.amplifications(), dep.counts)], ints=1)
    act = table("actuation (torque: N m, FOLD sign)", ("frame", "hinge", "time", "percent", "fold_angle_deg", "torque"),
                [(r[0], r[3], r[1], r[2], r[4], r[5]) for r in dep.actuation_table().rows])
    env = table("envelope (the largest over the path; frame of the largest |F|)",
                ("hinge", "panel", "N", "TP", "TO", "MT", "MP", "MO", "F", "frame", "percent"),
                [r[:11] for r in dep.envelope_rows()])
    counts = {"frames": K, "engine": dep.engine, "actuators": ", ".join(str(h + 1) for h in dep.actuators),
              "status": "deployment"}
    wc = dep.work_check()
    if wc is not None:
        counts["work check"] = f"work {wc.work:.6g}, change of V {wc.potential_change:.6g}, mismatch {wc.relative:.2g}"
    if dep.near_singular:
        counts["near-singular frames"] = ", ".join(str(dep.frames[k]) for k in dep.near_singular)
    buf = io.BytesIO()
    save_figure(draw_deployment(dep), buf)
    return st, {"kind": "deployment", "counts": counts, "states": states, "tables": [act, frames, env],
                "figure": base64.b64encode(buf.getvalue()).decode()}


def design_data(result, structure, chosen=None, after=None):
    """The page of a :class:`~chrono_origami.results.design.DesignResult` of ``structure`` (all door hinges
    before): the hinge kinds before and after (``chosen``: the design shown, default the best; ``after``: its
    static result, whose hinge actions colour it), the ranked designs."""
    from ..structure.hinges import design_kinds

    H = result.n_hinges
    kept = structure.hinge_kinds
    best = chosen or result.best
    X = structure.pattern.vertices
    sl = table("the chosen design's sliding hinges", ("hinge",), [(h + 1,) for h in best.sliding], ints=1)
    tables, colorings = [sl], None
    if after is not None:
        _, page = static_data(after)
        tables, colorings = page["states"][0]["tables"] + tables, page["states"][0]["colorings"]
    states = [_state(f"before: all door hinges (M = {result.M_before}, S = {result.S_before})", X,
                     kinds=design_kinds(kept),
                     counts={"M": result.M_before, "S": result.S_before}),
              _state(f"after: {len(best.sliding)} sliding hinges (M = {best.M}, S = {best.S})", X,
                     kinds=best.hinge_kinds(H, kept), tables=tables, colorings=colorings, counts={"M": best.M, "S": best.S})]
    designs = table("designs, best first", ("rank", "sliding hinges", "M", "S", "sigma_min", "condition",
                                            "max force", "max moment"),
                    [(k + 1, len(d.sliding), d.M, d.S, d.sigma_min, d.condition, d.max_force, d.max_moment)
                     for k, d in enumerate(result.designs)], ints=4)
    status = "determined" if not (best.M or best.S) else f"not determined after design ({result.reason})"
    counts = {"M before": result.M_before, "S before": result.S_before, "M": best.M, "S": best.S,
              "status": status}
    return structure, {"kind": "design", "counts": counts, "states": states, "tables": [designs]}


def tolerance_data(stats):
    """The page of :class:`~chrono_origami.results.tolerance.LockedInStatistics`: hinges coloured by the
    locked-in distribution (p95 of each component's magnitude; the standard deviation where p95 is unknown)."""
    from ..analysis.tolerance import summary
    from .tolerance import STATISTICS_HEADER

    st = stats.structure
    known = bool(np.isfinite(stats.p95).any())
    stat, arr = ("p95", stats.p95) if known else ("sd", stats.sd)
    colorings = {}
    for j, c in enumerate(HINGE_COLUMNS):
        values = np.asarray(arr[:, :, j], float).max(axis=1)          # the larger side (magnitudes)
        top = float(np.abs(values[np.isfinite(values)]).max(initial=0.0))
        hc = hinge_colors.HingeColoring(f"{stat} {c}", values, 0.0, top, hinge_colors.SEQUENTIAL,
                                        f"locked-in {hinge_colors.NAMES[c]}: {stat} of its magnitude")
        colorings[hc.component] = _coloring(hc)
    order = [f"{stat} {c}" for c in ("N", "TP", "TO", "MT", "MP", "MO")]
    colorings = {k: colorings[k] for k in order}
    t = table("locked-in statistics per hinge side (locked_in.csv)", STATISTICS_HEADER, stats.rows())
    t["hinge_table"] = True
    counts = {"M": stats.info.get("M"), "S": stats.info.get("S"), "status": "elastic", "method": stats.method,
              "distribution": stats.spec.distribution, "tol": _num(stats.spec.tol)}
    note = ("isostatic (S = 0): fabrication errors lock in no force" if stats.info.get("S") == 0 else "")
    top = summary(stats)
    largest = table("largest locked-in |action| over hinges and sides (summary.csv)", tuple(top),
                    [tuple(top.values())], ints=0)
    return st, {"kind": "tolerance", "counts": counts, "tables": [largest],
                "states": [_state("locked-in forces", st.pattern.vertices, tables=[t], colorings=colorings,
                                  note=note)]}


def modal_data(analysis, n_frames=24):
    """The page of a :class:`~chrono_origami.results.modal.ModalAnalysis` (``co.modal``): one cycle of
    ``n_frames`` states per mode, mode after mode, and ``data["modes"]``, the list the page chooses a mode from
    (its label with the frequency, its first state, its frame count); the page plays the chosen mode's cycle.
    A structure without oscillatory modes gets one state, the structure, and a note of its zero modes."""
    from .modal import _Poses

    st, r = analysis.structure, analysis.result
    t = analysis.table()
    modes_table = table("modes (modes.csv)", t.columns,
                        [tuple(np.nan if v is None else float(v) for v in row) for row in t.rows], ints=1)
    zero = analysis.zero_modes
    note = (f"{len(zero)} zero mode{'s' if len(zero) != 1 else ''} (rigid-body motions, mechanisms that nothing "
            f"stiffens): " + "; ".join(f"panels {', '.join(str(p + 1) for p in ps)}"
                                       for ps in analysis.zero_mode_panels()[:10])) if zero else ""
    states, listed = [], []
    poses = _Poses(analysis.built) if analysis.modes else None
    other = analysis.without_kc.modes if analysis.without_kc is not None else None
    for k, m in enumerate(analysis.modes):
        label = f"mode {k + 1}: {m.freq_hz:.6g} Hz" + ("" if m.stable else " (unstable)")
        if other is not None:
            label += f" ({other[k].freq_hz:.6g} Hz without Kc)" if k < len(other) else " (none without Kc)"
        listed.append({"label": label, "start": len(states), "n": int(n_frames)})
        for j, X in enumerate(poses.frames(r, m, n_frames, 0.1)):
            states.append(_state(f"{label}, frame {j + 1} of {n_frames}", X, note=note))
    if not states:
        states.append(_state("no oscillatory mode", st.pattern.vertices, note=note))
    counts = {"engine": analysis.engine, "modes": len(analysis.modes), "zero modes": len(zero),
              "Kc": "compared" if other is not None else "on" if r.use_tangent_stiffness else "off",
              "status": "modes"}
    if analysis.modes:
        counts["lowest frequency [Hz]"] = _num(analysis.modes[0].freq_hz)
    return st, {"kind": "modal", "counts": counts, "states": states, "modes": listed, "tables": [modes_table]}


def page_data(result, structure=None, chosen=None, after=None, n_frames=24):
    """(structure, data dict) of any result the page shows."""
    from ..results.design import DesignResult
    from ..results.tolerance import LockedInStatistics
    from ..results.fold import FoldHistory
    from ..results.dynamics import TimeHistory
    from ..results.static import StaticResult
    from ..results.modal import ModalAnalysis

    if isinstance(result, ModalAnalysis):
        return modal_data(result, n_frames)
    if isinstance(result, StaticResult):
        return static_data(result)
    if isinstance(result, FoldHistory):
        return fold_data(result)
    if isinstance(result, TimeHistory):
        return dynamics_data(result)
    from ..results.deploy import Deployment

    if isinstance(result, Deployment):
        return deployment_data(result)
    if isinstance(result, LockedInStatistics):
        return tolerance_data(result)
    if isinstance(result, DesignResult):
        if structure is None:
            raise TypeError("a design's page needs the structure it designed: html(result, path, structure=...)")
        return design_data(result, structure, chosen, after)
    raise TypeError(f"no results page for a {type(result).__name__}")


def html(result, path, structure=None, command=None, color_by="|F|", title=None, chosen=None, after=None,
         n_frames=24):
    """Write the results page of ``result`` to ``path`` (folders made); returns ``path``.

    ``result``: a static result (``co.static``), a fold history (``co.fold``), a dynamics history
    (``co.dynamics``), a modal analysis (``co.modal``: each mode animated, chosen from a list), locked-in statistics (``co.tolerances.locked_in_statistics``) or a design
    (``co.design``; then ``structure``: the structure it designed, ``chosen``: the design shown after, default
    the best, ``after``: its static result, optional). ``command``: the command line shown
    (default: this process's). ``color_by``: the component the hinges are coloured by at first (F, M, N, TP,
    TO, MT, MP, MO; ``kind``: by hinge kind). ``n_frames``: the frames of a mode's cycle (a modal analysis).
    """
    with np.errstate(invalid="ignore", over="ignore"):      # a failed analysis's NaN and inf are shown as such
        structure, data = page_data(result, structure, chosen, after, n_frames)
    data["title"] = title or structure.name
    data["command"] = command_line() if command is None else command
    data["geometry"] = _geometry(structure)
    data["units"] = units(structure)
    _draw_solids(structure, data)
    data["color_by"] = color_by if color_by == "kind" else hinge_colors.component(color_by)
    data["luts"] = {name: _lut(name) for name in (hinge_colors.SEQUENTIAL, hinge_colors.DIVERGING)}
    data["not_finite_color"] = list(NOT_FINITE_COLOR)
    data.setdefault("tables", [])
    text = render(data)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def _script(text):
    return text.replace("</script", "<\\/script")


def render(data):
    """The page's HTML text: the template with the vendored scripts, the data and the page's script inlined."""
    def read(name):
        with open(os.path.join(WEB, name), encoding="utf-8") as f:
            return f.read()

    vendor = "\n".join(f"<script>\n{_script(read(n))}\n</script>" for n in VENDOR)
    payload = json.dumps(data, allow_nan=False, separators=(",", ":")).replace("</", "<\\/")
    parts = {"TITLE": _html.escape(data["title"]), "VENDOR": vendor, "DATA": payload, "PAGE": _script(read("page.js"))}
    return re.sub(r"\{\{(TITLE|VENDOR|DATA|PAGE)\}\}", lambda m: parts[m.group(1)], read("page.html"))
