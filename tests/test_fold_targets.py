"""Folding to a file's target angles (edges_foldAngle, SVG opacity): percent, FOLD's sign, frames, M/V kept,
inexact geometry.

Every pattern folds from flat to its targets at 100 % with no holds, against
its closed form: the Miura-ori (``patterns.miura``), the Yoshimura wedge (the
symmetric degree-6 vertex, ``patterns.waterbomb.degree6_fold_angles``, which
also gives the paper's inclined 1.068016 rad at vertical 1 rad), the
waterbomb bases of 6 and 8 creases (their symmetric closed forms) and the
square twist (``patterns.simple.square_twist_folded``). Files are written in
other tools' styles by ``tests/styles.py`` (Origami Simulator SVGs, rounded
or exact; FOLD files with and without faces) and run through the command line.
"""
import json
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from chrono_origami.analysis.fold import fold_to_targets
from chrono_origami.engines.reference.fold.newton import fold
from chrono_origami.cli import main
from chrono_origami.inputs.fold import Drive, FoldProblem, file_assignment, hinge_angle
from chrono_origami.structure.targets import file_targets
from chrono_origami.patterns import miura, simple, waterbomb, yoshimura
from chrono_origami.structure import foldfile, pattern_check
from chrono_origami.structure.structure import Structure
from chrono_origami.tools.errors import SolverError, StructureError
from chrono_origami.tools.geometry import best_rigid_alignment

import styles


def aligned_distance(X, T):
    R, d = best_rigid_alignment(X, T)
    return float(np.linalg.norm(X @ R.T + d - T, axis=1).max())


def targets_of(pattern, folded):
    """{hinge: FOLD angle (rad)} of a folded configuration."""
    by = dict(zip(pattern.edges, np.radians(foldfile.fold_angles(pattern, folded))))
    return {h.index: by[tuple(sorted(h.vertices))] for h in pattern.hinges}


def edge_error(flat, X):
    return max(abs(np.linalg.norm(X[a] - X[b]) - np.linalg.norm(flat.vertices[a] - flat.vertices[b]))
               for a, b in flat.edges)


def yoshimura_folded_angles(vertical=1.0):
    """(vertical, inclined) FOLD angles (rad) of the Yoshimura wedge's symmetric fold: the degree-6 vertex with
    its collinear (vertical) pair 22.5 deg from the inclined creases, closed form solved for the vertical angle."""
    from scipy.optimize import brentq

    eps = brentq(lambda e: waterbomb.degree6_fold_angles(22.5, e)[0] - vertical, 1e-9, 0.7, xtol=1e-15)
    return waterbomb.degree6_fold_angles(22.5, eps)


def yoshimura_targets(vertical=1.0):
    flat = yoshimura.wedge_pattern()
    v, i = yoshimura_folded_angles(vertical)
    return flat, {h: (v if h < 15 else i) for h in range(len(flat.hinges))}


# ------------------------------------------------------------------ the closed forms, in Python
def test_the_closed_forms_are_rigid_folds_with_the_waterbomb_assignment():
    """Both waterbomb bases keep every edge length (1e-15); the 8-crease diagonals fold by -2 eps exactly, and at
    eps -> 90 deg reach Origami Simulator's targets (-180, +90); the Yoshimura vertex gives the paper's 1.068016."""
    for n in (6, 8):
        flat = waterbomb.waterbomb_base(n)
        for eps in (10.0, 40.0, 70.0):
            X = waterbomb.waterbomb_base_folded(eps, n).vertices
            assert edge_error(flat, X) < 1e-15
            a = dict(zip(flat.edges, foldfile.fold_angles(flat, X)))
            diagonals = [a[(0, k)] for k in range(1, n + 1) if (n == 8 and k % 2 == 0) or (n == 6 and k not in (1, 4))]
            midlines = [a[(0, k)] for k in range(1, n + 1) if (n == 8 and k % 2 == 1) or (n == 6 and k in (1, 4))]
            assert max(diagonals) < 0 < min(midlines)           # diagonals mountain, midlines valley
            if n == 8:
                np.testing.assert_allclose(diagonals, -2 * eps, atol=1e-12)
    X = waterbomb.waterbomb_base_folded(89.999999, 8).vertices
    a = dict(zip(waterbomb.waterbomb_base(8).edges, foldfile.fold_angles(waterbomb.waterbomb_base(8), X)))
    assert a[(0, 2)] == pytest.approx(-180, abs=1e-5) and a[(0, 1)] == pytest.approx(90, abs=1e-5)
    v, i = yoshimura_folded_angles(1.0)
    assert v == pytest.approx(1.0, abs=1e-14) and i == pytest.approx(-1.068016, abs=1e-6)


CASES = {
    "miura 4x4": lambda: (miura.miura_pattern(4, 4, fold_angle_deg=0.0), miura.miura_vertices(4, 4, fold_angle_deg=60.0)),
    "waterbomb 8": lambda: (waterbomb.waterbomb_base(8), waterbomb.waterbomb_base_folded(50.0, 8).vertices),
    "waterbomb 6": lambda: (waterbomb.waterbomb_base(6), waterbomb.waterbomb_base_folded(50.0, 6).vertices),
    "square twist": lambda: (simple.square_twist(), simple.square_twist_folded(40.0).vertices),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_flat_patterns_fold_to_their_closed_forms_at_100_percent_without_holds(name):
    """Flat -> the targets of the closed form, panel 1 held only: every vertex within 1e-12 of the closed form
    (after the best rigid alignment), constraints to 1e-14 (scaled), every target within 1e-9 deg."""
    flat, T = CASES[name]()
    H = fold_to_targets(Structure(flat), targets_of(flat, T), 100.0)
    assert H.singular_start and H.times[-1] == 1.0
    assert aligned_distance(H.final, T) < 1e-12
    assert H.max_residual < 1e-14 and H.vertex_spread < 1e-12
    assert H.target_miss[0] < 1e-9
    assert edge_error(flat, H.final) < 1e-12


def test_the_yoshimura_wedge_folds_to_its_symmetric_closed_form_and_the_papers_fold():
    """All 35 hinges toward the closed-form pair (vertical +1 rad valley, inclined -1.068016 mountain), no holds:
    every hinge reaches it to 1e-9 deg, and the fold is the paper's sec. 3.4.3 fold (15 vertical hinges driven,
    10 vertex holds) to 1e-11 after alignment."""
    flat, targets = yoshimura_targets(1.0)
    H = fold_to_targets(Structure(flat), targets, 100.0)
    assert H.target_miss[0] < 1e-9 and H.max_residual < 1e-13
    from chrono_origami.inputs import fold_examples as examples

    paper = fold(examples.yoshimura_problem(), frame_interval=200.0, allow_singular_start=True)
    assert aligned_distance(H.final, paper.final) < 1e-11
    inclined = [hinge_angle(flat, H.final, h) for h in range(15, 35)]
    np.testing.assert_allclose(inclined, 1.068016, atol=1e-6)     # the paper's, in the drive convention


def test_a_percent_folds_part_of_the_way_on_the_least_squares_path():
    """Origami Simulator's waterbomb base (diagonals -180, midlines +90) at 50 %: the targets (-90, +45) are not a
    rigid fold; the result is the symmetric rigid state nearest them: on the closed form (diagonals at -2 eps), the
    constraints exact, and the history says how far the targets are missed."""
    flat = waterbomb.waterbomb_base(8)
    targets = {h.index: (-np.pi if (h.vertices[0] + h.vertices[1]) % 2 == 0 else np.pi / 2) for h in flat.hinges}
    H = fold_to_targets(Structure(flat), targets, 50.0)
    a = dict(zip(flat.edges, foldfile.fold_angles(flat, H.final)))
    diag, mid = a[(0, 2)], a[(0, 1)]
    assert np.allclose([a[(0, k)] for k in (2, 4, 6, 8)], diag, atol=1e-9)
    closed = waterbomb.waterbomb_base_folded(-diag / 2, 8).vertices
    assert aligned_distance(H.final, closed) < 1e-10
    assert mid == pytest.approx(dict(zip(flat.edges, foldfile.fold_angles(flat, closed)))[(0, 1)], abs=1e-9)
    # the least-squares minimum (of the angle misses, rad) along the closed form, by a scalar search
    from scipy.optimize import minimize_scalar

    def misfit(eps):
        b = dict(zip(flat.edges, foldfile.fold_angles(flat, waterbomb.waterbomb_base_folded(eps, 8).vertices)))
        return sum(np.radians(b[(0, k)] - (-90.0 if k % 2 == 0 else 45.0)) ** 2 for k in range(1, 9))

    best = minimize_scalar(misfit, bounds=(30.0, 60.0), method="bounded", options={"xatol": 1e-10})
    assert -diag / 2 == pytest.approx(best.x, abs=1e-6)
    assert H.target_miss[0] > 1.0 and "not a rigid fold" in H.notes[-1]
    with pytest.raises(StructureError, match="fold percent must be from 0 to 100"):
        fold_to_targets(Structure(flat), targets, 120)


def test_file_targets_read_the_assignment_and_angles():
    """M/V with angles are targets; null is none (Origami Simulator's undriven); F is 0; U is free; M/V of a file
    without edges_foldAngle fold fully (-180/+180)."""
    flat = waterbomb.waterbomb_base(8)
    letters = ["V" if (a + b) % 2 else "M" for a, b in flat.edges]
    letters = ["B" if 0 not in e else x for e, x in zip(flat.edges, letters)]
    angles = [None if x == "B" else (30.0 if x == "V" else -60.0) for x in letters]
    spokes = [k for k, e in enumerate(flat.edges) if 0 in e]
    letters[spokes[0]], angles[spokes[0]] = "U", 10.0
    letters[spokes[1]], angles[spokes[1]] = "F", 0.0
    angles[spokes[2]] = None
    d = {"vertices_coords": flat.vertices.tolist(), "faces_vertices": [list(p) for p in flat.panels],
         "edges_vertices": [list(e) for e in flat.edges], "edges_assignment": letters, "edges_foldAngle": angles}
    t = file_targets(foldfile.read_structure(d))
    hinge_of = {tuple(sorted(h.vertices)): h.index for h in flat.hinges}
    e = flat.edges
    u, f, null = (hinge_of[e[k]] for k in spokes[:3])
    assert u not in t and null not in t and t[f] == 0.0
    assert all(np.degrees(t[hinge_of[e[k]]]) == pytest.approx(angles[k]) for k in spokes[3:])
    assert len(t) == 6
    del d["edges_foldAngle"]
    t = file_targets(foldfile.read_structure(d))
    assert sorted({round(np.degrees(x)) for x in t.values()}) == [-180, 0, 180]


def mirrored_miura_sheets(tmp_path):
    """An ORIPA Miura sheet (``styles.oripa_miura``, 4 x 4) as drawn and with every M and V swapped: the two
    structures, the first crease of the multipliers' component a mountain on one and a valley on the other."""
    from chrono_origami.structure.pattern_check import _letters

    path, _ = styles.oripa_miura(tmp_path / "miura.fold", 4, 4)
    d = json.loads(open(path).read())
    out = {}
    for name, swap in (("drawn", {}), ("swapped", {"M": "V", "V": "M"})):
        d2 = dict(d, edges_assignment=[swap.get(x, x) for x in d["edges_assignment"]])
        s = foldfile.read_structure(d2)
        comp = pattern_check.multiplier_rates(s)[1]
        first = _letters(s)[tuple(sorted(s.pattern.hinges[min(comp)].vertices))]
        out[first] = s
    assert sorted(out) == ["M", "V"]
    return out


def test_multiplier_rates_carry_the_assignment_signs_whichever_crease_comes_first(tmp_path):
    """``pattern_check.multiplier_rates`` gives FOLD rates with each crease's assignment sign (valley +, mountain
    -), whether the component's first crease is a mountain or a valley; and ``wished_rates`` takes them (the least-
    squares scale on the targets' rates is positive) on both sheets: the wished rates are the multipliers' (unequal,
    where the targets' are all 180 deg/s) and the swapped sheet's are the negatives of the drawn one's."""
    from chrono_origami.engines.reference.fold import targets as tg
    from chrono_origami.engines.reference.fold.constraints import FoldConstraints
    from chrono_origami.inputs.fold import target_problem

    wished = {}
    for first, s in mirrored_miura_sheets(tmp_path).items():
        mult, comp = pattern_check.multiplier_rates(s)
        assert len(set(comp.values())) == 1 and len(mult) >= 20
        t = file_targets(s)
        assert all(np.sign(mult[h]) == np.sign(t[h]) for h in mult), first
        C = FoldConstraints(target_problem(s, t, 100.0, (), 1.0)[0])
        wish = tg.wished_rates(s, C, C.drive_speed)
        hs = np.array(sorted(mult))
        m = np.array([mult[h] for h in hs])
        scale = float(-m @ wish[hs]) / float(m @ m)
        assert scale > 0 and np.abs(wish[hs] + scale * m).max() <= 1e-12 * np.abs(wish).max(), first
        assert np.ptp(np.abs(wish[hs])) > 0.1 * np.abs(wish).max()     # not the targets' equal rates
        wished[first] = {tuple(sorted(h.vertices)): wish[h.index] for h in s.pattern.hinges}
    assert wished["M"].keys() == wished["V"].keys()
    np.testing.assert_allclose([wished["M"][e] for e in wished["M"]], [-wished["V"][e] for e in wished["M"]],
                               rtol=1e-12, atol=1e-12 * max(abs(x) for x in wished["M"].values()))


def test_a_sheet_turned_over_folds_as_the_sheet(tmp_path, capsys):
    """Origami Simulator's bird base (its multipliers' components each start on a mountain) and the same file with
    its red and blue strokes swapped (every M a V: the sheet seen from the other side) fold at 60 % to the same
    percent of their targets, with the same largest miss: the fold does not depend on which crease of a component
    comes first (the first command line said 62.5 % and 48.4 % when the multipliers' signs were not the
    assignment's)."""
    src = os.path.join(os.path.dirname(__file__), "data", "origami_simulator", "birdBase.svg")
    text = open(src).read()
    assert text.count("#FF0000") > 0 and text.count("#0000FF") > 0
    swapped = text.replace("#FF0000", "#TMP").replace("#0000FF", "#FF0000").replace("#TMP", "#0000FF")
    heads = []
    for name, body in (("bird.svg", text), ("turned.svg", swapped)):
        (tmp_path / name).write_text(body)
        code, out, err = run(capsys, "fold", tmp_path / name, "--fix-geometry", "--percent", "60", "--quiet")
        assert code == 0, err
        heads.append(out.splitlines()[0].split(": ", 1)[1])
    pick = [(h.split(" (")[0], h.split("largest target miss ")[1].split(" deg")[0]) for h in heads]
    assert pick[0] == pick[1], heads


# ------------------------------------------------------------------ the command line, other tools' files
def run(capsys, *argv):
    code = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_an_origami_simulator_svg_folds_to_its_opacity_targets(tmp_path, capsys):
    """A Miura-ori drawn as Origami Simulator lines (exact coordinates, opacity = |angle| / 180): `fold FILE`
    folds to 100 % with no option; the folded vertices are the closed form's (vertices matched by position)."""
    flat = miura.miura_pattern(3, 4, fold_angle_deg=0.0)
    T = miura.miura_vertices(3, 4, fold_angle_deg=50.0)
    letters, angles = styles.targets_of(flat, T)
    path = styles.svg_lines(tmp_path / "miura.svg", flat, letters, angles, digits=None, opacity_digits=17)
    code, out, err = run(capsys, "fold", path, "--quiet", "--out", tmp_path / "out")
    assert code == 0, err
    assert "folded to 100 % of its target angles" in out and "every target reached" in out
    assert "(frames 0-20: 0 the start, 20 the folded state at t = 1 s" in out
    X = foldfile.read_structure(str(tmp_path / "out" / "fold.fold"), frame="last").pattern.vertices
    read = foldfile.read_structure(str(path)).pattern.vertices
    order = [int(np.argmin(np.linalg.norm(styles.svg_position(flat.vertices) - p, axis=1))) for p in read[:, :2]]
    assert aligned_distance(X, 100.0 * T[order]) < 1e-10


def test_fold_percent_and_frames_through_the_command_line(tmp_path, capsys):
    """A faceless editor FOLD file of the 6-crease waterbomb base: --percent 40 folds 40 % of the way; the history
    keeps the file's M/V and targets; --frame last, -1 and foldedForm read the final state; no --frame is an error
    listing the frames; a frame that does not exist, a percent outside 0-100 are one line and exit 2."""
    flat = waterbomb.waterbomb_base(6)
    letters, angles = styles.targets_of(flat, waterbomb.waterbomb_base_folded(50.0, 6).vertices)
    path = styles.fold_file(tmp_path / "wb.fold", flat, letters, angles, faces=False)
    code, out, err = run(capsys, "fold", path, "--percent", "40", "--quiet", "--out", tmp_path / "out")
    assert code == 0, err
    hist = tmp_path / "out" / "fold.fold"
    d = json.loads(hist.read_text())
    assert d["edges_assignment"] == letters                      # M/V kept, not "U"
    assert d["edges_foldAngle"] == pytest.approx([0.0 if a == "B" else x for a, x in zip(letters, angles)])
    last = d["file_frames"][-1]
    assert [a for a in last["edges_assignment"]] == letters
    folded = [x for a, x in zip(letters, last["edges_foldAngle"]) if a != "B"]
    aims = [0.4 * x for a, x in zip(letters, angles) if a != "B"]
    assert max(abs(np.array(folded) - aims)) < 3.0                 # 40 % of the targets, in least squares
    finals = []
    for frame in ("last", "-1", "foldedForm", "20"):
        code, out, err = run(capsys, "count", hist, "--frame", frame)
        assert code == 0, err
        finals.append(foldfile.read_structure(str(hist), frame=int(frame) if frame.lstrip("-").isdigit() else frame))
    for s in finals:
        np.testing.assert_array_equal(s.pattern.vertices, finals[0].pattern.vertices)
    assert foldfile.read_structure(str(hist), frame="foldedForm").name.endswith("t = 1 s")
    code, out, err = run(capsys, "count", hist)
    assert code == 2 and err.count("\n") == 1
    assert "has 21 frames: 0 (creasePattern), 1-20 (foldedForm; t = 0.05 s ... t = 1 s)" in err and "--frame" in err
    code, out, err = run(capsys, "count", hist, "--frame", "21")
    assert code == 2 and "has no frame 21 (frames 0 to 20" in err and err.count("\n") == 1
    code, out, err = run(capsys, "count", hist, "--frame", "-22")
    assert code == 2 and "no frame -22" in err
    code, out, err = run(capsys, "count", hist, "--frame", "flatFolded")
    assert code == 2 and "no frame of" in err and "has that class" in err
    for bad in ("120", "-1", "nan", "x"):
        with pytest.raises(SystemExit) as e:
            main(["fold", str(path), "--percent", bad])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert "--percent" in err and ("from 0 to 100" in err)


def test_fold_sign_a_valley_crease_driven_positive_folds_as_a_valley(tmp_path, capsys):
    """FOLD's sign on the command line: two panels and one valley crease, --angle-deg +30 folds it to +30 (valley),
    -30 to a mountain; the file written keeps "V" where the crease folds as a valley."""
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0]]
    d = {"vertices_coords": X, "faces_vertices": [[0, 1, 2, 3], [1, 4, 5, 2]],
         "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [1, 4], [4, 5], [5, 2]],
         "edges_assignment": ["B", "V", "B", "B", "B", "B", "B"]}
    path = tmp_path / "hinge.fold"
    path.write_text(json.dumps(d))
    for deg in (30, -30):
        code, out, err = run(capsys, "fold", path, "--drive", "1", "--angle-deg", deg, "--quiet", "--out",
                             tmp_path / str(deg))
        assert code == 0, err
        last = json.loads((tmp_path / str(deg) / "fold.fold").read_text())["file_frames"][-1]
        assert last["edges_foldAngle"][1] == pytest.approx(deg, abs=1e-9)
        assert last["edges_assignment"][1] == ("V" if deg > 0 else "M")
    # a wrong sign at a flat start is named with the command line's flag, not a Python keyword
    wb = waterbomb.waterbomb_base(8)
    structure = Structure(wb, name="waterbomb")
    foldfile.write_fold(structure, str(tmp_path / "wb.fold"))
    code, out, err = run(capsys, "fold", tmp_path / "wb.fold", "--drive", "1", "--angle-deg", "10")
    assert code == 1 and "--from-singular" in err and "allow_singular_start" not in err


def test_a_yoshimura_fold_file_folds_without_holds(tmp_path, capsys):
    """The flat wedge as a FOLD file in the x-z plane with its targets: `fold FILE` reaches them, no holds."""
    flat, targets = yoshimura_targets(0.8)
    by_hinge = {tuple(sorted(h.vertices)): np.degrees(targets[h.index]) for h in flat.hinges}
    angles = [by_hinge.get(e, 0.0) for e in flat.edges]
    letters = ["B" if e not in by_hinge else ("V" if by_hinge[e] > 0 else "M") for e in flat.edges]
    path = styles.fold_file(tmp_path / "wedge.fold", flat, letters, angles)
    code, out, err = run(capsys, "fold", path, "--quiet", "--out", tmp_path / "out")
    assert code == 0, err
    assert "every target reached" in out
    X = np.loadtxt(tmp_path / "out" / "vertices.csv", delimiter=",", skiprows=1)[:, 1:]
    assert edge_error(flat, X) < 1e-8                                 # vertices.csv keeps 10 digits


def test_missing_targets_nan_targets_and_chrono_are_one_line(tmp_path, capsys):
    flat = miura.miura_pattern(2, 2, fold_angle_deg=0.0)
    foldfile.write_fold(Structure(flat), str(tmp_path / "plain.fold"))
    code, out, err = run(capsys, "fold", tmp_path / "plain.fold")
    assert code == 2 and "has no target fold angles" in err and err.count("\n") == 1
    letters, angles = styles.targets_of(flat, miura.miura_vertices(2, 2, fold_angle_deg=30.0))
    path = styles.fold_file(tmp_path / "m.fold", flat, letters, angles)
    d = json.loads(path.read_text())
    k = letters.index("V")
    d["edges_foldAngle"][k] = float("nan")
    (tmp_path / "nan.fold").write_text(json.dumps(d))                  # json writes NaN, as JavaScript tools may
    code, out, err = run(capsys, "fold", tmp_path / "nan.fold")
    assert code == 1 and f"edges_foldAngle[{k}] must be a number of degrees" in err and err.count("\n") == 1
    code, out, err = run(capsys, "fold", path, "--drive", "1")
    assert code == 2 and "--drive needs --angle-deg" in err
    code, out, err = run(capsys, "fold", path, "--angle-deg", "10")
    assert code == 2 and "without --drive" in err
    code, out, err = run(capsys, "fold", path, "--drive", "1", "--angle-deg", "5", "--percent", "50")
    assert code == 2 and "--percent" in err


def test_origami_simulator_fold_exports_read_facet_lines_as_facets(tmp_path, capsys):
    """file_creator naming Origami Simulator: its "F" lines merge faces by default, said in one line."""
    from test_fold_styles import simulator_export

    path = tmp_path / "os.fold"
    path.write_text(json.dumps(simulator_export()))
    s = foldfile.read_structure(str(path))
    assert (s.pattern.n_panels, len(s.pattern.hinges)) == (4, 4)
    code, out, err = run(capsys, "count", path)
    assert code == 0, err
    notes = [line for line in out.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "Origami Simulator" in notes[0] and "--facets crease" in notes[0]
    assert foldfile.read_structure(str(path), facets="crease").pattern.n_panels == 5


# ------------------------------------------------------------------ inexact geometry
def rounded_miura(tmp_path, n=5, digits=2, name="rounded.svg"):
    flat = miura.miura_pattern(n, n, fold_angle_deg=0.0)
    letters, angles = styles.targets_of(flat, miura.miura_vertices(n, n, fold_angle_deg=60.0))
    return styles.svg_lines(tmp_path / name, flat, letters, angles, digits=digits)


def test_check_names_the_inexact_vertices_and_writes_a_correction(tmp_path, capsys):
    path = rounded_miura(tmp_path)
    before = path.read_text()
    code, out, err = run(capsys, "check", path)
    assert code == 1
    assert "8 inexact (1e-09 to 0.001 rad: rounded coordinates)" in out and "worst vertices: 21 (0.0001 rad)" in out
    code, out, err = run(capsys, "check", path, "--fix", "-o", tmp_path / "fixed.fold")
    assert code == 0, err
    assert "wrote" in out and "largest vertex move 0.00273 (vertex 21)" in out
    assert "16 exact" in out.split("after the correction")[1]
    assert path.read_text() == before                                   # the user's file is unchanged
    fixed = foldfile.read_structure(str(tmp_path / "fixed.fold"))
    rep = pattern_check.diagnose(fixed)
    assert max(rep.kawasaki) < 1e-12 and max(rep.closure) < 1e-12
    code, out, err = run(capsys, "fold", tmp_path / "fixed.fold", "--quiet")
    assert code == 0, err
    code, out, err = run(capsys, "check", path, "--fix", "-o", path)
    assert code == 2 and "never overwritten" in err
    code, out, err = run(capsys, "check", path, "--fix", "-o", tmp_path / "x.fold", "--max-move", "1e-4")
    assert code == 1 and "would move vertex" in err and "more than the accepted 0.0001" in err


def editor_vertex(path, letters):
    """A single degree-4 vertex (the 5th, 1-based) on a square as a text editor writes it: 2D integer and 1-digit
    coordinates, no faces, the boundary split at the creases' ends, ``letters`` on the 4 creases."""
    doc = {"file_spec": 1.1, "file_creator": "a text editor", "frame_classes": ["creasePattern"],
           "vertices_coords": [[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5], [0.5, 0], [1, 0.5], [0.5, 1], [0, 0.5]],
           "edges_vertices": [[0, 5], [5, 1], [1, 6], [6, 2], [2, 7], [7, 3], [3, 8], [8, 0],
                              [4, 5], [4, 6], [4, 7], [4, 8]],
           "edges_assignment": ["B"] * 8 + list(letters)}
    path.write_text(json.dumps(doc, indent=1))
    return path


def test_check_names_a_maekawa_miss_as_the_assignments_not_the_geometrys(tmp_path, capsys):
    """All four creases valleys: |#M - #V| = 4 at vertex 5 (Kawasaki exact), named in one line saying the
    assignment cannot fold flat there and moving vertices cannot help, exit 1 (also after --fix); 3 valleys and
    a mountain (|#M - #V| = 2) pass with exit 0 and no Maekawa line."""
    code, out, err = run(capsys, "check", editor_vertex(tmp_path / "valleys.fold", "VVVV"))
    assert code == 1, err
    assert "1 interior vertex; Kawasaki" in out and "1 exact (<= 1e-09 rad)" in out
    assert "Maekawa (|#M - #V| = 2) missed at 1 vertex: 5 (|#M - #V| = 4)" in out
    line = [x for x in out.splitlines() if "cannot fold flat" in x]
    assert line == ["valleys: the mountain-valley assignment cannot fold flat at vertex 5 (a vertex folded flat "
                    "has |#M - #V| = 2): moving vertices cannot change that; change the assignment there, or fold "
                    "part of the way (fold --percent below 100), which a rigid fold may still allow"]
    code, out, err = run(capsys, "check", tmp_path / "valleys.fold", "--fix", "-o", tmp_path / "fixed.fold")
    assert code == 1 and "wrote" in out and "largest vertex move 0" in out and "cannot fold flat at vertex 5" in out
    code, out, err = run(capsys, "check", editor_vertex(tmp_path / "ok.fold", "VMVV"))
    assert code == 0, out + err
    assert "Maekawa" not in out and "cannot fold flat" not in out


def test_fold_refuses_inexact_geometry_before_folding_and_fixes_it_in_memory(tmp_path, capsys):
    """Rounded coordinates stop the fold before any step, naming the worst vertex and the way on; --fix-geometry
    folds the corrected pattern (one printed line with the largest move), constraints to round-off."""
    path = rounded_miura(tmp_path)
    code, out, err = run(capsys, "fold", path, "--out", tmp_path / "no")
    assert code == 1 and err.count("\n") == 1
    assert "not rigidly foldable as drawn: vertex 21 misses Kawasaki's condition by 0.0001 rad" in err
    assert "check FILE" in err and "--fix-geometry" in err and "fix_geometry" not in err
    assert not (tmp_path / "no").exists()
    code, out, err = run(capsys, "fold", path, "--fix-geometry", "--quiet", "--out", tmp_path / "yes")
    assert code == 0, err
    assert "note: --fix-geometry: corrected 8 inexact vertices in memory (the file is unchanged): largest vertex " \
           "move 0.00273 (vertex 21)" in out
    assert "largest constraint residual" in out
    res = float(out.split("largest constraint residual ")[1].split()[0])
    assert res < 1e-13
    code, out, err = run(capsys, "fold", path, "--fix-geometry", "--keep-geometry")
    assert code == 2 and "--fix-geometry and --keep-geometry exclude each other" in err
    with pytest.raises(Exception, match="not rigidly foldable as drawn"):
        fold_to_targets(foldfile.read_structure(str(path)))          # the Python API refuses too


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(3, 5), digits=st.integers(2, 5), angle=st.floats(50.0, 75.0))
def test_the_correction_restores_kawasaki_and_the_closure_of_any_rounded_miura(n, digits, angle):
    """Property: any rounded Miura-ori (sector angle 50-75 deg, 2-5 decimals at scale 100: Kawasaki missed by
    less than pattern_check.NEAR) is corrected to Kawasaki and multiplier closure within 1e-12, moving no vertex
    farther than 20 x the rounding."""
    flat = miura.miura_pattern(n, n, sector_angle_deg=angle, fold_angle_deg=0.0)
    letters, angles = styles.targets_of(flat, miura.miura_vertices(n, n, sector_angle_deg=angle,
                                                                   fold_angle_deg=40.0))
    X = np.round(flat.vertices * 100, digits)
    notes = {"fold": {"edges_assignment": letters, "edges_foldAngle": angles}}
    s = Structure(flat.with_vertices(X), notes=notes)
    fixed, move, k, after = pattern_check.correct(s, max_move=1.0)
    assert max(after.kawasaki) <= 1e-12 and max(after.closure, default=0) <= 1e-12
    assert move <= 20 * 10.0 ** -digits


def test_co_fold_takes_the_files_assignment(tmp_path):
    """co.fold from a flat Miura FOLD file with one driven crease: the file's M/V chooses the branch by default."""
    flat = miura.miura_pattern(3, 3, fold_angle_deg=0.0)
    T = miura.miura_vertices(3, 3, fold_angle_deg=30.0)
    letters, angles = styles.targets_of(flat, T)
    s = foldfile.read_structure(str(styles.fold_file(tmp_path / "m.fold", flat, letters, angles)))
    prob = FoldProblem(s, [Drive(2, angle=hinge_angle(flat, T, 2))], (), 1.0)
    H = fold(prob, allow_singular_start=True)
    assert aligned_distance(H.final, T) < 1e-12
    wrong = file_assignment(s)
    wrong[0] = -wrong[0]
    with pytest.raises(SolverError, match="not rigidly foldable"):
        fold(prob, allow_singular_start=True, assignment=wrong)


def test_the_target_folds_branch_jump_guard_compares_vertex_displacements(monkeypatch):
    """The target fold's branch-jump guard (``targets.jumped``: ``newton.jumped``, the corrector longer than half the
    predictor in vertex displacement, and the corrected state farther from the step's start than the predicted one):
    a 4 x 4 Miura patch from 40 to 60 degrees whose first corrector is made to converge 0.75 of the predictor's
    vertex displacement beyond it (along the predictor's largest vertex move): rejected, the step halved, the fold
    ends at the targets. (The guard once compared the corrector with h max |v|, radians and lengths of the body
    velocities together: 0.90 of the predictor's vertex displacement here, so that corrector passed.)"""
    from chrono_origami.engines.reference.fold import newton, targets as tg

    pat = miura.miura_pattern(4, 4, fold_angle_deg=40.0)
    T = miura.miura_vertices(4, 4, fold_angle_deg=60.0)
    real, calls = tg._Split.correct, []

    def shifted_on_the_first_call(self, Rp, up, t, *args, **kw):
        calls.append(t)
        Rn, un, it, res, ok = real(self, Rp, up, t, *args, **kw)
        if len(calls) == 1:
            R0, u0 = self.C.start()
            d = newton._distance(self.C, R0, u0, Rp, up)
            Fh, Jh, Fs, Js, Ft, _ = self.evaluate(R0, u0, 0.0)
            v = self.solve(Jh, Js, np.zeros(len(Fh)), -Ft)
            assert 0.5 * t * np.abs(v).max() > 0.85 * d                 # the old measure would have let it pass
            move = self.C.vertices(Rp, up) - self.C.vertices(R0, u0)
            k = int(np.argmax(np.abs(move).max(axis=1)))
            un = un + 0.75 * d * move[k] / np.abs(move[k]).max()      # u in scaled units, as d
        return Rn, un, it, res, ok

    monkeypatch.setattr(tg._Split, "correct", shifted_on_the_first_call)
    H = fold_to_targets(Structure(pat), targets_of(pat, T), 100.0, frame_interval=1.0, dt=0.1, dt_max=0.1)
    assert calls[:2] == [0.1, 0.05]                                    # rejected at 0.1, retried with half the step
    assert H.steps[0][:2] == (0.05, 0.05)
    assert aligned_distance(H.final, T) < 1e-12 and H.target_miss[0] < 1e-9


def _note(out, start):
    return next(line for line in out.splitlines() if line.startswith(start))


def test_a_target_a_hundred_thousandth_of_a_degree_off_a_rigid_fold_is_not_reached(tmp_path, capsys):
    """The 2 x 2 Miura-ori (one degree-4 vertex, one folding motion) with the targets of its 60 deg fold: every
    target reached (miss at round-off). One valley target 1e-5 deg off: the four targets are no longer a rigid
    fold, and the least-squares fold misses by a part of that 1e-5 deg, far above the 1e-6 deg that counts as
    reached, which the note says."""
    flat = miura.miura_pattern(2, 2, fold_angle_deg=0.0)
    letters, angles = styles.targets_of(flat, miura.miura_vertices(2, 2, fold_angle_deg=60.0))
    exact = styles.fold_file(tmp_path / "exact.fold", flat, letters, angles)
    code, out, err = run(capsys, "fold", exact, "--quiet")
    assert code == 0, err
    assert float(_note(out, "note: every target reached: largest miss ").split()[-2]) < 1e-9
    off = list(angles)
    off[letters.index("V")] += 1e-5
    path = styles.fold_file(tmp_path / "off.fold", flat, letters, off)
    code, out, err = run(capsys, "fold", path, "--quiet")
    assert code == 0, err
    assert "every target reached" not in out
    line = _note(out, "note: the targets are not a rigid fold on this branch: the fold follows its mechanism ")
    miss = float(line.split("largest misses ")[1].split()[0])
    assert 2e-6 < miss <= 1e-5


def test_targets_that_are_no_rigid_fold_from_a_flat_start_give_the_least_squares_fold_and_its_miss(tmp_path, capsys):
    """A 3 x 3 Miura-ori whose first crease (a mountain) is aimed at 0 while the others keep their 60 deg fold's
    targets, folded to 50 %: no rigid fold keeps one crease of a Miura-ori flat while the others fold (one degree
    of freedom), so the fold leaves the flat start on the branch nearest the targets and follows its mechanism
    until the projected rate vanishes (the stationary misfit), whose largest miss is on that crease: it folds as a
    mountain, as its neighbours do."""
    flat = miura.miura_pattern(3, 3, fold_angle_deg=0.0)
    letters, angles = styles.targets_of(flat, miura.miura_vertices(3, 3, fold_angle_deg=60.0))
    k = letters.index("M")
    aims = list(angles)
    aims[k] = 0.0
    path = styles.fold_file(tmp_path / "m.fold", flat, letters, aims)
    code, out, err = run(capsys, "fold", path, "--percent", "50", "--quiet", "--out", tmp_path / "out")
    assert code == 0, err
    line = _note(out, "note: the targets are not a rigid fold on this branch: the fold follows its mechanism ")
    hinge = {tuple(sorted(h.vertices)): h.index + 1 for h in flat.hinges}[flat.edges[k]]
    worst = line.split("largest misses ")[1].split(", ")[0]
    miss = float(worst.split()[0])
    assert f"deg at hinge {hinge} (" in worst and worst.endswith("deg against 0 deg)")
    last = json.loads((tmp_path / "out" / "fold.fold").read_text())["file_frames"][-1]
    achieved = last["edges_foldAngle"][k]
    assert achieved < 0 and abs(achieved) == pytest.approx(miss, rel=1e-2)        # a mountain, as drawn
    assert 20.0 < miss < 0.5 * abs(angles[k])


def test_a_fold_that_holds_creases_flat_reports_their_miss_not_the_lines():
    """The vertex of sectors 60, 60, 60, 180 deg (``test_fold_mechanism.sectors_60_60_60_180``: targets 90, -30, 30,
    90 deg) at 60 %: its straight line (creases 1 and 4) reaches its aim, 54 deg, exactly (miss 0) and creases 2 and
    3 are held flat, 18 deg from their aims -18 and 18. The largest miss is 18 deg at crease 2 (ties: the first),
    not the line's 0 ("every target reached"); the note lists both 18 deg misses, largest first, the least-squares
    percent 60 x 2 x 54^2 / (2 x 54^2 + 2 x 18^2) = 54 %, and no other branch at the stop (one free motion there,
    the line's, as along the way)."""
    from test_fold_mechanism import sectors_60_60_60_180

    H = fold_to_targets(sectors_60_60_60_180(), percent=60.0, engine="reference")
    assert H.target_miss[0] == pytest.approx(18.0, abs=1e-9) and H.target_miss[1] == 1
    assert H.percent_reached == pytest.approx(54.0, abs=1e-9)
    last = H.notes[-1]
    assert not last.startswith("every target reached"), last
    assert last.endswith("at 54 % of the targets (asked 60 %); largest misses 18 deg at hinge 2 (0 deg against -18 "
                         "deg), 18 deg at hinge 3 (0 deg against 18 deg); no other branch leaves the stop (1 free "
                         "motion there, as along the way)"), last


def test_the_fallback_on_straight_lines_folds_them_to_their_aims():
    """The fallback of a flat start whose nearest branch the panels cannot follow (``targets._straight_lines``), on
    ``test_flat_branch.box_grid`` (a 3 x 3 grid, its four interior lines mountains at -90 deg, the centre square's
    diagonal a valley at 180): the targets' rates in FOLD's sign pick two parallel lines (crossing ones share a
    vertex), 6 creases at rate -1, exactly straight (moved 0); the fold restarted on them (as ``fold_to_targets``
    does) folds those 6 creases to their aim at 90 %, -81 deg, to round-off, and holds the 7 others flat."""
    from chrono_origami.engines.reference.fold import targets as tg
    from chrono_origami.engines.reference.fold.constraints import FoldConstraints
    from chrono_origami.inputs.fold import target_problem
    from chrono_origami.structure.flat_branch import VertexRows
    from test_flat_branch import box_grid

    s = box_grid()
    problem = target_problem(s, file_targets(s), 90.0, (), 1.0)[0]
    problem.name = "grid"
    C = FoldConstraints(problem)
    got = tg._straight_lines(problem, C, C.drive_speed, 9e-9, VertexRows(s.pattern))
    assert got is not None
    r, note, moved = got
    assert np.count_nonzero(r) == 6 and np.all(r[r != 0] == -1.0)
    assert note == ("grid: the flat start is singular, and the panels cannot follow its folding branch nearest the "
                    "targets (it meets the vertices' rows to 9.0e-09 of its largest rate): left instead on 2 straight "
                    "crease lines running edge to edge, which fold rigidly on their own (6 creases; their vertices put "
                    "on their lines in memory, largest move 0.0e+00)")
    assert np.array_equal(moved.pattern.vertices, s.pattern.vertices)
    H = tg.fold_to_targets(moved, file_targets(s), 90.0, _start=(r, note, True))
    assert note in H.notes
    a = np.radians(foldfile.fold_angles(s.pattern, H.final))
    hinge_of = {tuple(sorted(h.vertices)): h.index for h in s.pattern.hinges}
    angles = np.zeros(len(s.pattern.hinges))
    for e, x in zip(s.pattern.edges, a):
        if e in hinge_of:
            angles[hinge_of[e]] = x
    assert np.abs(angles[r != 0] - np.radians(-81.0)).max() < 1e-9 and np.abs(angles[r == 0]).max() < 1e-9


def test_check_fix_accepts_a_small_correction_by_default_and_refuses_above_the_limit(tmp_path, capsys):
    """The default largest vertex move of ``check --fix`` is 1e-3 x the pattern size: a 3 x 3 Miura-ori (size
    4.36) whose interior vertex was moved by 5e-4 (a Kawasaki miss under 1e-3 rad: rounded coordinates) needs a
    move of about 4e-5 x its size: accepted; ``--max-move`` just under that move refuses it, naming the vertex."""
    flat = miura.miura_pattern(3, 3, fold_angle_deg=0.0)
    letters, angles = styles.targets_of(flat, miura.miura_vertices(3, 3, fold_angle_deg=60.0))
    rep = pattern_check.diagnose(Structure(flat))
    v = rep.vertices[[i for i, k in enumerate(rep.kawasaki) if np.isfinite(k)][0]]
    X = flat.vertices.copy()
    X[v, :2] += 5e-4 * np.array([-1.0, 1.0]) / np.sqrt(2.0)
    path = styles.fold_file(tmp_path / "moved.fold", flat.with_vertices(X), letters, angles)
    code, out, err = run(capsys, "check", path, "--fix", "-o", tmp_path / "fixed.fold")
    assert code == 0, err
    line = next(x for x in out.splitlines() if "largest vertex move" in x)
    move = float(line.split("largest vertex move ")[1].split()[0])
    assert 1e-5 * flat.size < move < 1e-4 * flat.size
    code, out, err = run(capsys, "check", path, "--fix", "-o", tmp_path / "x.fold", "--max-move", 0.9 * move)
    assert code == 1 and "would move vertex" in err and "the pattern size is 4.36" in err
    assert f"more than the accepted {0.9 * move:.3g}" in err


def test_a_valley_without_a_target_angle_folds_as_a_valley(tmp_path, capsys):
    """A FOLD file with M/V letters and no ``edges_foldAngle`` (an editor's full fold, Origami Simulator's
    convention): a "V" crease aims at +180 deg, a valley in FOLD's sign; two panels folded to 50 % end at +90 deg
    and keep their "V"; the same file with "M" ends at -90 deg."""
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0]]
    for letter, sign in (("V", 1.0), ("M", -1.0)):
        d = {"file_spec": 1.1, "file_creator": "an editor", "vertices_coords": X,
             "faces_vertices": [[0, 1, 2, 3], [1, 4, 5, 2]],
             "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [1, 4], [4, 5], [5, 2]],
             "edges_assignment": ["B", letter, "B", "B", "B", "B", "B"]}
        path = tmp_path / f"{letter}.fold"
        path.write_text(json.dumps(d))
        code, out, err = run(capsys, "fold", path, "--percent", "50", "--quiet", "--out", tmp_path / letter)
        assert code == 0, err
        last = json.loads((tmp_path / letter / "fold.fold").read_text())["file_frames"][-1]
        assert last["edges_foldAngle"][1] == pytest.approx(sign * 90.0, abs=1e-9)
        assert last["edges_assignment"][1] == letter


def test_a_flat_folded_form_unfolds_on_its_files_side(capsys, tmp_path):
    """The FOLD spec's example square folded flat along its valley diagonal (``diagonal-folded.fold``, "V" at 180
    deg): ``check`` says it is folded flat, not a crease pattern (its Kawasaki counts would be of folded
    positions); ``fold --percent 60`` unfolds the valley from 180 to 108 deg (60 % of 180) without passing through
    flat, every frame a valley; the written history keeps "V" and +180 at its start (the geometry alone cannot
    tell +180 from -180) and reads back; the crease pattern of the same square (``diagonal-cp.fold``) folds to
    the same 108 deg."""
    data = os.path.join(os.path.dirname(__file__), "data", "fold_spec")
    folded, cp = os.path.join(data, "diagonal-folded.fold"), os.path.join(data, "diagonal-cp.fold")
    code, out, err = run(capsys, "check", folded)
    assert code == 0 and "the pattern is folded flat (1 crease folded over, up to +-180 deg)" in out, out + err
    ends = {}
    for name, path in (("folded", folded), ("cp", cp)):
        code, out, err = run(capsys, "fold", path, "--percent", 60, "--quiet", "--out", tmp_path / name)
        assert code == 0 and "folded to 60 % of its target angles (1 crease," in out, out + err
        with open(tmp_path / name / "fold.fold") as f:
            d = json.load(f)
        crease = d["edges_assignment"].index("V")
        path_angles = [fr["edges_foldAngle"][crease] for fr in d["file_frames"]]
        assert all(fr["edges_assignment"][crease] == "V" for fr in d["file_frames"])
        ends[name] = path_angles[-1]
        if name == "folded":
            assert d["edges_foldAngle"][crease] == 180.0
            assert np.all(np.diff(path_angles) <= 1e-9) and min(path_angles) >= 108.0 - 1e-9, path_angles
        back = foldfile.read_structure(str(tmp_path / name / "fold.fold"), frame="last")
        assert back.pattern.n_panels == 2
    assert ends["folded"] == pytest.approx(108.0, abs=1e-9) and ends["cp"] == pytest.approx(108.0, abs=1e-9)


def test_a_folded_form_whose_letters_disagree_with_its_geometry_is_named(capsys, tmp_path):
    """The FOLD spec's hand-written box (``box.fold``: faces counterclockwise about outward normals, so its box
    edges are mountains in FOLD's sign, many lettered "V"): ``check`` and ``fold`` name, in one note line, the
    19 of its 58 hinges folded against their letters (hinge 1 between panels 1 and 3: "V", -90 deg), counted here
    from the face normals; a fold history the project writes, whose letters follow its geometry, gets no note."""
    box = os.path.join(os.path.dirname(__file__), "data", "fold_spec", "box.fold")
    s = foldfile.read_structure(box)
    letters = foldfile.file_notes(s)[0]
    letter = dict(zip(s.pattern.edges, letters))
    angle = dict(zip(s.pattern.edges, foldfile.fold_angles(s.pattern, file_letters=letters)))   # +-180: its letter
    keys = [tuple(sorted(h.vertices)) for h in s.pattern.hinges]
    against = [h for h, e in zip(s.pattern.hinges, keys)
               if letter[e] in ("M", "V") and abs(angle[e]) > 1e-6 and (angle[e] > 0) != (letter[e] == "V")]
    assert len(against) == 19 and against[0].index == 0 and sorted(p + 1 for p in against[0].panels) == [1, 3]
    note = ("19 of the 58 hinges fold against their file's M or V letter (hinge 1, panels 1 and 3: V in the file, "
            "-90 deg in the geometry, FOLD sign): a fold to the file's targets turns them through flat")
    code, out, err = run(capsys, "check", box)
    assert code == 0 and f"note: {note}" in out.splitlines(), out + err
    code, out, err = run(capsys, "fold", box, "--percent", 60, "--quiet", "--out", tmp_path / "box")
    assert code == 0 and f"note: box: {note}" in out.splitlines(), out + err
    code, out, err = run(capsys, "check", tmp_path / "box" / "fold.fold", "--frame", "last")
    assert code == 0 and "against their file's" not in out, out


def test_the_step_follows_the_predictors_error_and_reaches_each_frame_in_one_step(tmp_path, monkeypatch):
    """The 7 x 8 ORIPA Miura sheet (64 panels) flat to 90 %: its aim runs ahead of the mechanism, so a step of one
    frame (T/20) wants a turn of 10-11 deg, above the fixed 10 deg that made each frame a step and a short one (the
    limit pinned at ``MAX_TURN``: more than 30 steps). Its corrector is 0.07-0.10 of the predictor there, under
    ``ERROR_RATIO`` (0.125), so the limit that follows the error lets every frame from the third on be one step of
    T/20 (the first frame: T/50 then 3T/100; the second: two equal steps). Both stop at the same stationary point
    of the misfit: the settling leaves each within about 1e-9 rad of it (``SLOW_RAD``), so their percents reached
    differ by at most 90 x 2e-9 / (0.9 pi) = 6.4e-8 (the percent is 90 (v . aim) / |aim|^2, |aim| >= 0.9 pi sqrt(m)
    for m creases at +-180 deg)."""
    from chrono_origami.engines.reference.fold import targets

    path, _ = styles.oripa_miura(tmp_path / "miura.fold", 7, 8)
    s = foldfile.read_structure(path)
    H = fold_to_targets(s, percent=90.0, progress=False, engine="reference")
    h = np.array([x[1] for x in H.steps])
    t = np.array([x[0] for x in H.steps])
    assert np.allclose(h[t > 0.1 + 1e-9], 0.05, rtol=1e-12, atol=0)
    assert len(H.steps) == 22 and H.max_residual <= targets.TOL          # within the corrector's tolerance
    monkeypatch.setattr(targets, "TURN_CEIL", targets.MAX_TURN)        # the fixed limit of before
    F = fold_to_targets(s, percent=90.0, progress=False, engine="reference")
    assert len(F.steps) > 30
    assert abs(H.percent_reached - F.percent_reached) < 6.4e-8


def test_a_fold_in_one_frame_reads_its_percent_along_the_steps(tmp_path):
    """Creases folded from 0 to +-180 deg within one stored frame read the side they came from (the drive values
    made continuous step by step, not frame by frame): ORIPA's 3 x 4 Miura-ori sheet folded to 100 % of its
    targets in one frame ends at 100 %, as in 20 frames, within what the targets' miss allows (each crease within
    REACHED_DEG: |percent - 100| <= 100 sqrt(n) REACHED_DEG / |aim|); a deployment's percents from the frames alone
    (made continuous frame to frame; of the file's targets: the same from a flat start) agree."""
    from styles import oripa_miura

    from chrono_origami import read_structure
    from chrono_origami.analysis import deploy
    from chrono_origami.results.fold import REACHED_DEG

    path, _ = oripa_miura(tmp_path / "miura.fold", columns=3, rows=4)
    st = read_structure(str(path))
    aim = np.array([x for x in file_targets(st).values() if x])
    bound = 100.0 * np.sqrt(len(aim)) * np.radians(REACHED_DEG) / np.linalg.norm(aim)
    one = fold_to_targets(st, frame_interval=1.0, progress=False)
    many = fold_to_targets(st, frame_interval=0.05, progress=False)
    assert one.targets_reached and many.targets_reached
    assert one.frame_percents[0] == 0.0 and len(one.frame_percents) == 2
    assert abs(one.percent_reached - 100.0) <= bound and abs(many.percent_reached - 100.0) <= bound
    assert one.frame_percents[-1] == one.percent_reached
    np.testing.assert_allclose(deploy.frame_percents(st, many.vertices, many.times), many.frame_percents,
                               rtol=0, atol=1e-9)
