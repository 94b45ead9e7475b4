"""User journeys through the command line, from files written in other tools' styles to hinge forces.

Every file is made by ``tests/journey_files.py`` from closed forms computed there with numpy (never by
chrono_origami's writer), as the other tools write them: Origami Simulator SVGs (Illustrator paths, coordinates
rounded to 3 decimals, opacity for the target angles), a FOLD example in the spec's style with two frames, a
crease-pattern editor's faceless file, an Origami Simulator FOLD export with yellow facet lines. Each journey runs
the README's commands, each step reading the files the step before wrote (in the journey's folder): the first
command of each journey, and the ``design && static`` chain, as subprocesses, as a user types them
(``python -m chrono_origami``: the exit code the shell sees, stderr with no traceback); the others through the
same ``cli.main`` in this process (0.7 s of interpreter start-up each spared; a traceback there fails the test),
all as subprocesses with ``CHRONO_ORIGAMI_CLI_SUBPROCESS=1``:

    fold FILE --percent P --out F        -> F/fold.fold (a history)
    support F/fold.fold --frame last     -> the proposal, what is still free, the supports that stop it
    design F/fold.fold --frame last --support auto --support ... -o D.fold
    static D.fold --load ... --out R --figure R/f.svg

and checks real numbers at each step: M and S against the counting rules' closed forms (M - S by Maxwell, the
Miura-ori's one mechanism, 3 self-stress states per interior vertex plus the bar framework's), the targets
reached (the fold against the file's own folded form, or the closed-form fold of ``journey_files``), the
reactions balancing the loads in force and moment, every panel in equilibrium under the hinge rows of
hinges.csv (read in the README's {n, t, m} convention from the written file's geometry), and the figure's colour
of the largest hinge. Patterns that physics stops end in one line naming the reason, with the documented exit
code: the classic square twist (not rigidly foldable, exit 1) and a 4 x 4 Miura-ori sheet (S = 8 remain after
design, exit 3).
"""
import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import journey_files as jf
from cli_inprocess import run_cli

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def co(cwd, *args, typed=False):
    """``python -m chrono_origami ARGS`` in ``cwd``: a subprocess, as a user runs it, when ``typed``; otherwise
    ``cli.main`` in this process (``cli_inprocess.run_cli``)."""
    return run_cli(cwd, *args, typed=typed)


def ok(r):
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    assert "Traceback" not in r.stderr
    return r.stdout


def one_line_error(r, code, *parts):
    """The run ended with exit ``code`` and one line ``error: ...`` containing ``parts``."""
    assert r.returncode == code, (r.returncode, r.stdout[-2000:], r.stderr)
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.stderr
    for p in parts:
        assert p in r.stderr, (p, r.stderr)
    return r.stderr


def counts_of(text, lead="with it"):
    m = re.search(lead + r": M = (\d+) mechanisms?, S = (\d+) self-stress", text)
    return int(m.group(1)), int(m.group(2))


def stop_forms(text):
    """The ``--support`` forms of the support command's "to stop ..." line, after its ``--support auto``."""
    line = next(x for x in text.splitlines() if x.startswith("to stop "))
    forms = re.findall(r"--support (\S+)", line)
    assert forms[0] == "auto"
    return forms[1:]


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(x) for x in r] for r in rows[1:]])


def loads_printed(text):
    """(vertex 0-based, force, panel 0-based or None) of the "loads:" table a command printed."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("loads:"):
            inside = True
            continue
        if inside:
            m = re.match(r"^\s+(shared|\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+\S+$", line)
            if line.strip().startswith("panel"):
                continue
            if not m:
                break
            panel = None if m.group(1) == "shared" else int(m.group(1)) - 1
            out.append((int(m.group(2)) - 1, np.array([float(m.group(k)) for k in (3, 4, 5)]), panel))
    return out


def kabsch(A, B):
    """The distance of ``B`` from ``A`` after the best rigid motion of ``B`` onto ``A`` (n x 3 each)."""
    a, b = A - A.mean(0), B - B.mean(0)
    U, _, Vt = np.linalg.svd(b.T @ a)
    d = np.sign(np.linalg.det(U @ Vt))
    R = U @ np.diag([1, 1, d]) @ Vt
    return float(np.abs(b @ R - a).max())


def frames_of(path):
    """The vertex coordinates of every frame of a FOLD file (frame 0 the top level), read with json."""
    d = json.loads(Path(path).read_text())
    out = [np.array(d["vertices_coords"], float)]
    for f in d.get("file_frames", []):
        out.append(np.array(f.get("vertices_coords", out[-1]), float))
    return [np.column_stack([X, np.zeros(len(X))]) if X.shape[1] == 2 else X for X in out]


def normal(P):
    """Newell's normal of a polygon (right-hand rule on its loop), unit."""
    n = np.zeros(3)
    for a, b in zip(P, np.roll(P, -1, axis=0)):
        n += np.cross(a, b)
    return n / np.linalg.norm(n)


def check_statics(designed, out, printed, scale_force=1.0):
    """Reactions balance the loads (force and moment); every panel is in equilibrium under its hinge rows, loads
    and reactions, the hinge rows read in the README's convention: a row (hinge h, panel P) is the action on P by
    its neighbour at the hinge edge's midpoint, components on (n, t, m) of P: m P's normal (right hand on its
    loop), t the edge's direction as P's loop runs it, n = t x m. Returns (hinge, |F|) of the largest |F|."""
    d = json.loads(Path(designed).read_text())
    X = np.array(d["vertices_coords"], float)
    faces = [list(f) for f in d["faces_vertices"]]
    L = float(np.linalg.norm(X.max(0) - X.min(0)))
    loads = loads_printed(printed)
    _, hin = read_csv(out / "hinges.csv")
    _, sup = read_csv(out / "supports.csv")
    assert loads and len(sup)
    # the whole: reactions + loads = 0, in force and in moment about the origin
    F = sum(f for _, f, _ in loads) + sup[:, 2:].sum(0)
    Mo = sum(np.cross(X[v], f) for v, f, _ in loads) + sum(np.cross(X[int(r[1]) - 1], r[2:]) for r in sup)
    assert np.abs(F).max() < 1e-9 * scale_force
    assert np.abs(Mo).max() < 1e-9 * scale_force * L
    # each panel
    force = {p: np.zeros(3) for p in range(len(faces))}
    moment = {p: np.zeros(3) for p in range(len(faces))}
    c = X.mean(0)

    def add(p, x, f, m=np.zeros(3)):
        force[p] += f
        moment[p] += m + np.cross(x - c, f)

    for v, f, p in loads:
        at = [p] if p is not None else [q for q, loop in enumerate(faces) if v in loop]
        for q in at:
            add(q, X[v], f / len(at))
    for r in sup:
        add(int(r[0]) - 1, X[int(r[1]) - 1], r[2:])
    sides = {}
    for r in hin:
        sides.setdefault(int(r[0]), []).append(int(r[1]))
    largest = (0, 0.0)
    for r in hin:
        h, p = int(r[0]), int(r[1]) - 1
        q = [s for s in sides[h] if s != p + 1][0] - 1
        loop = faces[p]
        shared = [v for v in loop if v in faces[q]]
        assert len(shared) == 2, (h, p, q)
        i = loop.index(shared[0])
        a, b = (shared[0], shared[1]) if loop[(i + 1) % len(loop)] == shared[1] else (shared[1], shared[0])
        t = (X[b] - X[a]) / np.linalg.norm(X[b] - X[a])
        m = normal(X[loop])
        n = np.cross(t, m)
        MT, MP, MO, N, TP, TO = r[2:]
        f = N * n + TP * t + TO * m
        add(p, 0.5 * (X[a] + X[b]), f, MT * n + MP * t + MO * m)
        if np.linalg.norm(f) > largest[1]:
            largest = (h, float(np.linalg.norm(f)))
    for p in force:
        assert np.abs(force[p]).max() < 1e-8 * scale_force, (p + 1, force[p])
        assert np.abs(moment[p]).max() < 1e-8 * scale_force * L, (p + 1, moment[p])
    return largest


def hinge_colour(svg, h):
    """The stroke colour (hex) of hinge ``h``'s line in a matplotlib SVG figure (its gid "hinge h")."""
    text = Path(svg).read_text()
    m = re.search(rf'<g id="hinge {h}">\s*<path[^>]*stroke: (#[0-9a-f]{{6}})', text)
    return m.group(1)


def viridis_end():
    import matplotlib

    r, g, b = matplotlib.colormaps["viridis"](1.0)[:3]
    return "#{:02x}{:02x}{:02x}".format(*(int(round(255 * x)) for x in (r, g, b)))


def static_step(tmp_path, designed, loads, engine=None):
    """static DESIGNED --load ... --out R --figure R/f.svg and R/f.png: determined, statics checked, the largest
    hinge drawn in the colour map's end colour; returns (stdout, R)."""
    out = tmp_path / "R"
    args = ["static", designed, *sum((["--load", x] for x in loads), []), "--out", out]
    if engine:
        args += ["--engine", engine]
    text = ok(co(tmp_path, *args, "--figure", out / "f.svg"))
    assert json.loads((out / "counts.json").read_text())["status"] == "determined"
    assert "M = 0 mechanisms, S = 0 self-stress states" in text
    h, top = check_statics(designed, out, text)
    caption = re.search(r"largest \|F\| = (\S+) at hinge (\d+)", text)
    assert int(caption.group(2)) == h and float(caption.group(1)) == pytest.approx(top, rel=1e-3)
    assert hinge_colour(out / "f.svg", h) == viridis_end()
    ok(co(tmp_path, *args, "--figure", out / "f.png"))
    assert (out / "f.png").stat().st_size > 20000
    return text, out


# ------------------------------------------------------------------ 1. Miura-ori, Origami Simulator SVG
def test_miura_svg_rounded_from_file_to_hinge_forces(tmp_path):
    """A 4 x 2 Miura-ori as Origami Simulator's Illustrator SVGs are written (3 decimals: Kawasaki missed by
    1e-5 rad at its 3 interior vertices; opacity 4 digits), zig-zag target 90 degrees."""
    svg, X, edges, letters, angles = jf.miura_svg(tmp_path / "miura.svg", 4, 2, width=600 / 7, height=460 / 6)
    # open: check names the inexact vertices and the way on (exit 1)
    r = co(tmp_path, "check", "miura.svg", typed=True)
    assert r.returncode == 1 and "3 interior vertices" in r.stdout and "0 exact (<= 1e-09 rad), 3 inexact" in r.stdout
    assert "fold with --fix-geometry" in r.stdout
    # fold to 100 % of the file's angles, the geometry corrected in memory
    text = ok(co(tmp_path, "fold", "miura.svg", "--fix-geometry", "--out", "F"))
    move = float(re.search(r"largest vertex move (\S+) \(vertex", text).group(1))
    assert 1e-6 < move < 1e-3 * 400                         # a rounding's correction, below --max-move
    miss = re.search(r"(every target reached: largest miss|miss a rigid fold by) (\S+) deg", text)
    assert float(miss.group(2)) < 180 * 0.5e-4               # within the opacity's 4 digits
    assert "within the file's rounding" in text or "every target reached" in text
    assert "(frames 0-20: 0 the start, 20 the folded state" in text
    # the folded Miura-ori against the closed form at its zig-zag angle (opacity 0.5 -> 90 deg), aligned
    frames = frames_of(tmp_path / "F" / "fold.fold")
    order = [int(np.argmin(np.linalg.norm(frames[0][:, :2] - x, axis=1))) for x in X]
    closed, _ = jf.fold_by_angles(X, edges, angles)
    assert kabsch(closed, frames[-1][order]) < 0.05           # 4-digit opacities, 3-decimal coordinates
    # supports: proposed, on the history's last frame
    text = ok(co(tmp_path, "support", "F/fold.fold", "--frame", "last"))
    assert "F/fold.fold: frame 20 of 0-20, the last (foldedForm; t = 1 s)" in text
    assert "(6 held directions, the fewest that stop the six rigid-body motions" in text
    M, S = counts_of(text)
    # the counting rules: the Miura-ori folds with one degree of freedom (M = M_BF = 1), S = S_BF + 3 V_i with
    # M_BF - S_BF = (E_b - 3) - sum_p (V_p - 3) over its quadrilateral panels; Maxwell M - S = 6P - 6 - 5H
    E_b, P, V_i, H = 12, 8, 3, 10
    S_BF = 1 - ((E_b - 3) - P)
    assert (M, S) == (1, S_BF + 3 * V_i) == (1, 9)
    assert M - S == 6 * P - 6 - 5 * H
    stops = stop_forms(text)
    assert len(stops) == 1 and "with it M = 0 and S = 9, unchanged" in text
    # the order of --support: auto then the stop = what support printed (M = 0, S = 9); the other way round, auto
    # completes the stop and the mechanism stays
    stop = ["--support", stops[0]]
    # without the stop, static's minimum-norm answer cannot carry a load that works on the mechanism: one line
    # pointing at the support command, exit 3
    err = one_line_error(co(tmp_path, "static", "F/fold.fold", "--frame", "last", "--support", "auto", "--load",
                            "max-x:0,0,-10", "--min-norm", "--engine", "reference"), 3,
                         "the structure has M = 1 mechanism that the loads excite",
                         "the support command (support FILE) names held directions that do")
    assert "mechanism_stops" not in err
    both = ok(co(tmp_path, "count", "F/fold.fold", "--frame", "last", "--support", "auto", *stop))
    assert "M = 0 mechanisms, S = 9 self-stress states" in both
    other = ok(co(tmp_path, "count", "F/fold.fold", "--frame", "last", *stop, "--support", "auto"))
    assert "M = 0 mechanisms" not in other
    # design: isostatic with 9 sliding hinges (one per self-stress state); design && static goes on
    text = ok(co(tmp_path, "design", "F/fold.fold", "--frame", "last", "--support", "auto", *stop, "-o", "D.fold"))
    assert "before (all door hinges): M = 0, S = 9" in text and "after: M = 0, S = 0 with 9 sliding hinges" in text
    # static: a load on the free end (x largest), with Chrono's solvers (the default engine)
    text, out = static_step(tmp_path, tmp_path / "D.fold", ["max-x:0,0,-10"])
    assert "4 from file" in text                              # the supports kept in the designed file
    # a bad value on the journey's files: one line naming it, exit 2
    one_line_error(co(tmp_path, "static", "D.fold", "--support", "1:xyz:p2"), 2,
                   "--support '1:xyz:p2': vertex 1 is not a vertex of panel 2")
    one_line_error(co(tmp_path, "static", "D.fold", "--load", "max-x:0,nan,-1"), 2,
                   "--load 'max-x:0,nan,-1': the force must be three finite numbers")
    for p in ("150", "-1", "nan", "half"):
        one_line_error(co(tmp_path, "fold", "miura.svg", "--percent", p), 2, "argument --percent", p)


def test_an_exact_miura_svg_reaches_every_target(tmp_path):
    """The same Miura-ori with coordinates and opacities at full precision, the targets as stroke-opacity: every
    target reached (1e-9 deg), the folded state the closed form at the file's angles within 1e-9 of the sheet's
    size."""
    _, X, edges, letters, angles = jf.miura_svg(tmp_path / "m.svg", 4, 2, width=600 / 7, height=460 / 6, digits=12,
                                                opacity_digits=15, stroke_opacity=True)
    assert 'stroke-opacity="0.5"' in (tmp_path / "m.svg").read_text()
    text = ok(co(tmp_path, "fold", "m.svg", "--out", "F", "--quiet",
                 typed=True))
    assert float(re.search(r"every target reached: largest miss (\S+) deg", text).group(1)) < 1e-9
    frames = frames_of(tmp_path / "F" / "fold.fold")
    order = [int(np.argmin(np.linalg.norm(frames[0][:, :2] - x, axis=1))) for x in X]
    closed, _ = jf.fold_by_angles(X, edges, angles)
    assert kabsch(closed, frames[-1][order]) < 1e-9 * 400


# ------------------------------------------------------------------ 2. waterbomb base, FOLD example with frames
def test_waterbomb_fold_example_with_two_frames(tmp_path):
    """The waterbomb base as the FOLD spec's examples write a file: a crease pattern with edges_foldAngle and a
    folded form in file_frames. The fold from the crease pattern reaches the file's own folded form."""
    path, targets, folded = jf.waterbomb_fold(tmp_path / "waterbomb.fold", diagonal_deg=-120.0, angle_digits=None)
    # a file of two frames without --frame: one line listing them, exit 2
    one_line_error(co(tmp_path, "fold", "waterbomb.fold", typed=True), 2,
                   "waterbomb.fold has 2 frames: 0 (creasePattern), 1 (foldedForm; Waterbomb base: folded)", "--frame")
    one_line_error(co(tmp_path, "count", "waterbomb.fold", "--frame", "5"), 2, "--frame 5", "no frame 5")
    # option values argparse refuses: one line naming the option, exit 2 (not the whole usage)
    for argv, option in ((["fold", "waterbomb.fold", "--frame", "0", "--frames", "0"], "argument --frames"),
                         (["count", "waterbomb.fold", "--frame", "0", "--merge-tol", "0.5"], "argument --merge-tol"),
                         (["design", "waterbomb.fold", "--frame", "0", "--rotation", "1"], "argument --rotation"),
                         (["static", "waterbomb.fold", "--frame", "0", "--color-by", "Q"], "argument --color-by")):
        one_line_error(co(tmp_path, *argv), 2, option, "--help lists the options")
    text = ok(co(tmp_path, "fold", "waterbomb.fold", "--frame", "creasePattern", "--out", "W", "--quiet"))
    assert "waterbomb.fold: frame 0 of 0-1 (creasePattern)" in text
    assert float(re.search(r"every target reached: largest miss (\S+) deg", text).group(1)) < 1e-6
    frames = frames_of(tmp_path / "W" / "fold.fold")
    assert kabsch(folded, frames[-1]) < 2e-6                   # the file's folded form, 6 decimals
    # the file's folded form reads as the same structure
    text = ok(co(tmp_path, "count", "waterbomb.fold", "--frame", "foldedForm", "--engine", "reference"))
    assert "waterbomb.fold: frame 1 of 0-1, the last (foldedForm; Waterbomb base: folded)" in text
    assert "M = 5 mechanisms, S = 3 self-stress states" in text
    # a percent: part of the way, on the least-squares path (the targets at 50 % are not a rigid fold)
    text = ok(co(tmp_path, "fold", "waterbomb.fold", "--frame", "0", "--percent", "50", "--out", "W50", "--quiet"))
    assert "folded to 50 % of its target angles (8 creases" in text
    # supports: a degree-8 vertex has 8 - 3 = 5 mechanisms and 3 self-stress states
    text = ok(co(tmp_path, "support", "W/fold.fold", "--frame", "-1", "--engine", "reference"))
    assert counts_of(text) == (5, 3)
    stops = stop_forms(text)
    held = sum(len(s.split(":")[1]) for s in stops)
    assert held == 5 and "with them M = 0 and S = 3, unchanged" in text
    stop = sum((["--support", s] for s in stops), [])
    r = co(tmp_path, "design", "W/fold.fold", "--frame", "-1", "--support", "auto", *stop, "-o", "D.fold")
    assert "after: M = 0, S = 0 with 3 sliding hinges" in ok(r)
    # static: the apex (vertex 1) pushed down; the reference engine
    static_step(tmp_path, tmp_path / "D.fold", ["1:0,0,-1"], engine="reference")


# ------------------------------------------------------------------ 3. Yoshimura, faceless editor file
def test_yoshimura_faceless_editor_file(tmp_path):
    """A crease-pattern editor's flat Yoshimura pattern (vertices and edges only, 2-D): faces found, folded to
    its uniform rigid fold (horizontal valleys +60 deg, diagonals the closure's mountains), supported, designed,
    solved."""
    path, X, edges, letters, angles = jf.yoshimura_editor(tmp_path / "yoshimura.fold", 3, 2, horizontal_deg=60.0,
                                                          angle_digits=None)
    text = ok(co(tmp_path, "check", "yoshimura.fold", typed=True))
    assert "CreasePattern(13 vertices, 14 panels, 16 hinges, 10 boundary edges)" in text   # rows of 2 x 3 + 1
    text = ok(co(tmp_path, "fold", "yoshimura.fold", "--out", "Y", "--quiet"))
    assert float(re.search(r"every target reached: largest miss (\S+) deg", text).group(1)) < 1e-9
    closed, _ = jf.fold_by_angles(X, edges, angles)
    assert kabsch(closed, frames_of(tmp_path / "Y" / "fold.fold")[-1]) < 1e-10
    text = ok(co(tmp_path, "support", "Y/fold.fold", "--frame", "last", "--engine", "reference"))
    M, S = counts_of(text)
    dense = ok(co(tmp_path, "count", "Y/fold.fold", "--frame", "last", "--support", "auto", "--engine", "reference",
                  "--linalg", "dense"))
    assert f"M = {M} mechanisms, S = {S} self-stress states" in dense
    assert M - S == 6 * 14 - 6 - 5 * 16                        # Maxwell, all door hinges, free
    stops = stop_forms(text)
    assert sum(len(s.split(":")[1]) for s in stops) == M
    stop = sum((["--support", s] for s in stops), [])
    r = co(tmp_path, "design", "Y/fold.fold", "--frame", "last", "--support", "auto", *stop, "-o", "D.fold")
    assert f"after: M = 0, S = 0 with {S} sliding hinges" in ok(r)
    static_step(tmp_path, tmp_path / "D.fold", ["max-z:0,0,-1", "min-z:0,0,1"], engine="reference")


# ------------------------------------------------------------------ 4. Origami Simulator's FOLD export
def test_origami_simulator_fold_export_with_facet_lines(tmp_path):
    """Origami Simulator's FOLD export of a 3 x 2 Miura-ori folded to 60 % of its zig-zag angle, each panel
    split by a yellow facet line: read as 6 rigid panels (said in one note line), folded on to 100 %."""
    path, X3, X, edges, letters, targets = jf.simulator_export(tmp_path / "miura.fold", 3, 2, percent=60.0)
    text = ok(co(tmp_path, "count", "miura.fold", "--engine", "reference", typed=True))
    assert "note: miura.fold was written by Origami Simulator (file_creator): its \"F\" lines are read as facet " \
           "lines inside rigid faces (--facets facet; --facets crease reads them as flat creases)" in text
    assert "P = 6 panels, H = 7 hinges" in text
    assert "M = 1 mechanism, S = 6 self-stress states" in text          # 1 and 3 V_i (S_BF = 0)
    crease = ok(co(tmp_path, "count", "miura.fold", "--engine", "reference", "--facets", "crease"))
    assert "P = 12 panels, H = 13 hinges" in crease
    text = ok(co(tmp_path, "fold", "miura.fold", "--out", "F", "--quiet"))
    assert float(re.search(r"every target reached: largest miss (\S+) deg", text).group(1)) < 1e-9
    closed, _ = jf.fold_by_angles(X, edges, targets)
    closed = closed[:, [0, 2, 1]]                                 # Origami Simulator's (x, z, y), y up
    assert kabsch(closed, frames_of(tmp_path / "F" / "fold.fold")[-1]) < 1e-9 * 300
    text = ok(co(tmp_path, "support", "F/fold.fold", "--frame", "foldedForm", "--engine", "reference"))
    assert counts_of(text) == (1, 6)
    stop = ["--support", stop_forms(text)[0]]
    r = co(tmp_path, "design", "F/fold.fold", "--frame", "foldedForm", "--support", "auto", *stop, "-o", "D.fold")
    assert "after: M = 0, S = 0 with 6 sliding hinges" in ok(r)
    static_step(tmp_path, tmp_path / "D.fold", ["max-x:0,-5,0"], engine="reference")


# ------------------------------------------------------------------ 5. what physics stops
def test_the_classic_square_twist_is_not_rigidly_foldable(tmp_path):
    """Origami Simulator's single square twist (central square all valleys, pleats alternating): Kawasaki holds
    at its 4 vertices, but their fold-angle multipliers do not close around the central square: no rigid fold.
    check and fold say so in one line naming the panel and its vertices, exit 1, before any fold step."""
    _, X, edges, letters = jf.square_twist_svg(tmp_path / "twist.svg")
    r = co(tmp_path, "check", "twist.svg", typed=True)
    assert r.returncode == 1 and "4 exact (<= 1e-09 rad), 0 inexact" in r.stdout
    assert "closing around 1 panel): 0 close" in r.stdout
    line = next(x for x in r.stdout.splitlines() if "not rigidly foldable" in x)
    centre = re.search(r"around panel (\d+) \(vertices ([\d, ]+)\) by (\S+)", line)
    corners = sorted(int(v) for v in centre.group(2).split(", "))
    assert len(corners) == 4 and float(centre.group(3)) > 1e-3
    assert "--fix-geometry" not in r.stdout                        # no rounding to correct
    err = one_line_error(co(tmp_path, "fold", "twist.svg", "--percent", "50"), 1,
                         f"twist: not rigidly foldable: the fold-angle multipliers",
                         f"around panel {centre.group(1)} (vertices", "see the check command (check FILE)")
    assert "fix_geometry" not in err and "keep_geometry" not in err and "--keep-geometry" in err


def test_a_miura_sheet_stops_at_design_with_the_reason(tmp_path):
    """A 4 x 4 Miura-ori sheet (Origami Simulator SVG, rounded): folded, supported, but its 31 self-stress
    states outnumber its 24 hinges: design ends in one line, S = 8 remain, no axial component, exit 3, so
    design && static stops there."""
    jf.miura_svg(tmp_path / "sheet.svg", 4, 4, width=600 / 7, height=460 / 6)
    # its 4 inner panels depend on the rounded vertices: the fold refuses them at once, naming the worst vertex
    one_line_error(co(tmp_path, "fold", "sheet.svg", "--percent", "80", typed=True), 1,
                   "sheet: not rigidly foldable as drawn: vertex", "misses Kawasaki's condition by 1e-05 rad",
                   "--fix-geometry", "--keep-geometry")
    ok(co(tmp_path, "fold", "sheet.svg", "--fix-geometry", "--percent", "80", "--out", "F", "--quiet"))
    text = ok(co(tmp_path, "support", "F/fold.fold", "--frame", "last", "--engine", "reference"))
    E_b, P, V_i, H = 16, 16, 9, 24
    M_BF = 1
    S_BF = M_BF - ((E_b - 3) - P)
    assert counts_of(text) == (1, S_BF + 3 * V_i) == (1, 31)
    stop = ["--support", stop_forms(text)[0]]
    r = subprocess.run(f"{sys.executable} -m chrono_origami design F/fold.fold --frame last --support auto "
                       f"{' '.join(stop)} -o D.fold && {sys.executable} -m chrono_origami static D.fold > s.txt",
                       shell=True, cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=900)
    one_line_error(r, 3, "not isostatic after design: S = 8 remain after design: no axial component on hinges "
                   "1-24 (24 in all)")
    assert not (tmp_path / "s.txt").exists() and (tmp_path / "D.fold").exists()
    assert re.search(r"design \S.* \(23 in all\) \(M = 0, S = 8\) written to D.fold", r.stdout)
