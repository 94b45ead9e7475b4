"""The fold of a "plus" vertex: two straight crease lines crossing at one interior vertex, every sign choice.

With crease directions c, d, -c, -d (angle theta between the lines) the vertex's first-order rows read
(r_1 - r_3) c + (r_2 - r_4) d = 0, so each line turns as one crease (r_1 = r_3, r_2 = r_4), and its second-order
row is 2 sin(theta) r_1 r_2 = 0: a line whose two creases are assigned opposite signs cannot turn at all, and the two
lines cannot both leave the flat state (``flat_branch.crossing_lines``; the loop of rotations is checked below). So
from the flat state exactly one line folds, one whose creases' signs agree (a U crease takes its partner's), the
other stays flat; where no line can, the fold refuses, naming the vertex. The folded line's two creases turn alike, so
the fold ends at the least-squares angle of the line, the mean of its creases' aims (a U crease has none), at
percent x sum(rho aim) / sum(aim^2) of the targets. "F" (flat) creases, aimed at 0, are kept flat where a line
without one folds; else a line of one F and one M or V folds to the mean of its aims, half its M or V crease's.
"""
import json

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from chrono_origami.analysis.fold import fold_to_targets
from chrono_origami.results.fold import REACHED_DEG
from chrono_origami.structure import foldfile
from chrono_origami.structure.flat_branch import VertexRows, crossing_lines
from chrono_origami.tools.errors import SolverError

from cli_output import run

PERCENT = 60.0
#: FOLD sign of each letter's target (no edges_foldAngle: M/V at -180/+180 deg), None for no target
AIM = {"M": -180.0 * PERCENT / 100, "V": 180.0 * PERCENT / 100, "F": 0.0, "U": None}
SIGN = {"M": -1, "V": 1, "F": 0, "U": 0}


def plus_vertex(letters, theta, order=(0, 1, 2, 3)):
    """A FOLD document: creases from (0, 0) at 0, theta, 180 and 180 + theta degrees (deg) to the square [-1, 1]^2's
    edge, assigned ``letters`` in that order, written in the file in the order ``order`` (crease k of the file is
    direction order[k]); the square's corners and the creases' ends make the boundary (a crease ending at a corner,
    theta 45 or 135 degrees, ends there)."""
    t = np.radians(theta)
    ends = []
    for a in (0.0, t, np.pi, np.pi + t):
        d = np.array([np.cos(a), np.sin(a)])
        ends.append(d / np.abs(d).max())
    points = [(np.arctan2(p[1], p[0]) % (2 * np.pi), ("end", i), p) for i, p in enumerate(ends)]
    points += [(np.arctan2(y, x) % (2 * np.pi), ("corner", 0), np.array([x, y], float))
               for x, y in ((1, 1), (-1, 1), (-1, -1), (1, -1))
               if min(np.abs(np.array([x, y]) - p).max() for p in ends) > 1e-9]        # a crease to a corner: one
    points.sort(key=lambda x: x[0])
    n = len(points)
    at = {p[1]: k + 1 for k, p in enumerate(points) if p[1][0] == "end"}
    faces = []
    for i in range(4):
        a, b = at[("end", i)], at[("end", (i + 1) % 4)]
        face, k = [0, a], a
        while k != b:
            k = 1 + k % n
            face.append(k)
        faces.append(face)
    return {"file_spec": 1.1, "vertices_coords": [[0.0, 0.0]] + [[float(x) for x in p[2]] for p in points],
            "edges_vertices": [[0, at[("end", i)]] for i in order] + [[1 + k, 1 + (k + 1) % n] for k in range(n)],
            "edges_assignment": [letters[i] for i in order] + ["B"] * n, "faces_vertices": faces}


def line_sign(a, b):
    """The sign a line of creases lettered a, b folds in (+1 valley, -1 mountain), None where it cannot fold toward a
    target (opposite signs, or no M/V crease)."""
    s = {SIGN[x] for x in (a, b) if x in "MV"}
    return s.pop() if len(s) == 1 else None


def expected_lines(letters):
    """The lines (pairs of direction indices) that may fold: those free of F whose signs agree; where there are none,
    those with one F and one M or V (the F crease then turns, to half its partner's aim)."""
    lines = [(0, 2), (1, 3)]
    plain = [ln for ln in lines if line_sign(*[letters[i] for i in ln]) and "F" not in [letters[i] for i in ln]]
    return plain or [ln for ln in lines if line_sign(*[letters[i] for i in ln])]


def check_fold_or_refusal(letters, theta, order):
    s = foldfile.read_structure(plus_vertex(letters, theta, order))
    may = expected_lines(letters)
    if not may:
        with pytest.raises(SolverError) as e:
            fold_to_targets(s, percent=PERCENT, engine="reference")
        text = str(e.value)
        assert "no folding branch" in text and "leaves the flat start" in text
        assert "at vertex 1, where two straight crease lines cross" in text and "no crease with a target turns" in text
        assert "so none turns on any branch, not only on those found" in text
        return
    H = fold_to_targets(s, percent=PERCENT, engine="reference")
    got = np.array(foldfile.fold_angles(s.pattern, H.final))[:4][np.argsort(order)]      # in direction order
    aims = [AIM[x] for x in letters]
    folded = [ln for ln in may if np.abs(got[list(ln)]).max() > 1e-6]
    assert len(folded) == 1, (letters, got)
    line = folded[0]
    other = [i for i in range(4) if i not in line]
    rho = np.mean([aims[i] for i in line if aims[i] is not None])
    assert np.abs(got[list(line)] - rho).max() < 1e-9 and np.abs(got[other]).max() < 1e-9, (letters, got)
    driven = [i for i in range(4) if aims[i] is not None]
    want = np.array([rho if i in line else 0.0 for i in driven])
    aim = np.array([aims[i] for i in driven])
    assert H.percent_reached == pytest.approx(PERCENT * float(want @ aim) / float(aim @ aim), abs=1e-9)
    assert H.max_residual < 1e-13
    if np.all(np.abs(want - aim) < 1e-12):                     # every target on the folded line: reached
        assert H.target_miss[0] <= REACHED_DEG and H.notes[-1].startswith("every target reached")
    held = [x for x in H.notes if "held flat" in x]
    if any(aims[i] for i in other):                            # a crease to fold is held flat: the note says why
        assert len(held) == 1
        assert ("make a line assigned opposite signs" in held[0] if line_sign(*[letters[i] for i in other]) is None
                else "stay flat while the crossing line folds" in held[0])


SIGNS = ["".join(x) for x in np.array(np.meshgrid(*[list("MV")] * 4)).T.reshape(-1, 4)]


@pytest.mark.parametrize("letters", SIGNS)
@settings(max_examples=2, deadline=None)
@given(theta=st.floats(30.0, 150.0), order=st.permutations(range(4)))
def test_a_plus_vertex_folds_a_line_it_can_or_refuses_truly(letters, theta, order):
    """Each of the 16 M/V choices of a plus vertex at a random angle, its creases written in a random order: the fold
    folds one line whose signs agree, to its aim (mean of its creases' aims), the other flat, to machine precision,
    or, where each line has opposite signs, refuses naming the vertex (module doc)."""
    check_fold_or_refusal(letters, theta, order)


@settings(max_examples=10, deadline=None)
@given(letters=st.tuples(*[st.sampled_from("MVUF")] * 4).map("".join), theta=st.floats(30.0, 150.0),
       order=st.permutations(range(4)))
@example(letters="MVFM", theta=55.7, order=[2, 3, 0, 1])
@example(letters="MUVV", theta=127.0, order=[0, 2, 1, 3])
@example(letters="VVVM", theta=45.0, order=[0, 1, 2, 3])
def test_a_plus_vertex_with_unassigned_and_flat_creases(letters, theta, order):
    """As above with U (no target: turns with its partner) and F (aimed at 0: kept flat where a line without F folds)
    creases (module doc). The examples: a line of an M and an F crease, the F written first, the other line
    mountain-valley (the branch's fastest driven crease was the F one, at rate 0: nothing folded); a line of a U
    and a V crease, the other mountain-valley (the least squares from the targets' rates missed the branch)."""
    if all(x in "UF" for x in letters):
        return                                                 # no target to fold toward (another refusal)
    check_fold_or_refusal(letters, theta, order)


@pytest.mark.parametrize("theta", [90.0, 57.0])
def test_the_crossing_lines_close_the_loop_and_meet_the_second_order_row(theta):
    """The closed form behind the tests: one line folded by any angle closes the vertex's loop of rotations exactly;
    both lines folded by a small angle e miss it by order e^2 (the second-order row 2 sin(theta) r_1 r_2)."""
    from scipy.spatial.transform import Rotation

    s = foldfile.read_structure(plus_vertex("VVVV", theta))
    rows = VertexRows(s.pattern)
    (v, lines), = crossing_lines(rows).items()
    assert v == 0 and sorted(map(sorted, lines)) == [[0, 2], [1, 3]]
    d = rows.directions[0]
    c = np.column_stack([d, np.zeros(4)])

    def loop(r):
        R = np.eye(3)
        for k in range(4):
            R = R @ Rotation.from_rotvec(r[k] * c[k]).as_matrix()
        return np.abs(R - np.eye(3)).max()

    pos = {int(h): k for k, h in enumerate(rows.stars[0])}
    for a in (0.3, 2.0):
        r = np.zeros(4)
        r[[pos[0], pos[2]]] = a
        assert loop(r) < 1e-15
    for e in (1e-2, 1e-3):
        both = np.full(4, e)
        assert loop(both) == pytest.approx(2 * abs(np.sin(np.radians(theta))) * e * e / 2, rel=1e-2)


def test_the_plus_vertex_of_two_lines_at_90_deg_folds_its_valley_line(tmp_path, capsys):
    """The vertex verification found refused: lines crossing at 90 deg, one mountain-valley, the other valley-valley, written so that its
    crease 2 is the valley of the mountain-valley line. The fold used to refuse ('on every branch found, crease 2 turns
    against its assignment': the search driven by crease 1 took the valley line with crease 1 turning at 5e-11, then
    drove crease 1). It folds the valley line to 108 deg at 60 % and says why the other stays flat (the angles from
    the last frame of the history the command wrote, its vertices at full precision)."""
    path = tmp_path / "plus.fold"
    path.write_text(json.dumps(plus_vertex("VVMV", 90.0, (2, 0, 3, 1))))
    code, out, err = run(capsys, "fold", path, "--percent", 60, "--out", tmp_path / "out")
    assert code == 0, err
    assert ("2 of the 4 driven creases do not turn on that branch (first order) and are held flat: crease 1 (panels 2 "
            "and 3), crease 2 (panels 1 and 4); at vertex 1, where two straight crease lines cross, crease 1 and crease 2 "
            "make a line assigned opposite signs, and such a line turns as one crease (its first-order rows)") in out
    assert "at 30 % of the targets (asked 60 %)" in out
    s = foldfile.read_structure(str(path))
    final = foldfile.read_structure(str(tmp_path / "out" / "fold.fold"), frame="last").pattern.vertices
    assert np.abs(np.array(foldfile.fold_angles(s.pattern, final))[:4] - [0, 0, 108, 108]).max() < 1e-9


def test_each_frame_is_labelled_by_the_percent_it_reached():
    """A fold's frames lag the percent they aim at (percent x t / T): each is labelled by the percent it reached
    (``FoldHistory.frame_percents``, from its drive values), which the frame's own fold angles, read from its
    vertices, give again: percent x sum(rho aim) / sum(aim^2); the last is ``percent_reached``."""
    from chrono_origami.analysis.contact import fold_contacts

    s = foldfile.read_structure(plus_vertex("MMVU", 70.0))
    H = fold_to_targets(s, percent=PERCENT, engine="reference")
    aims = np.array([AIM[x] for x in "MMV"])
    hinge_of = {tuple(sorted(h.vertices)): h.index for h in s.pattern.hinges}
    order = [hinge_of[e] for e in s.pattern.edges[:3]]
    assert len(H.frame_percents) == len(H.times) > 2
    for X, p in zip(H.vertices, H.frame_percents):
        rho = np.array(foldfile.fold_angles(s.pattern, X))[:3]
        assert p == pytest.approx(PERCENT * float(rho @ aims) / float(aims @ aims), abs=1e-9)
    assert H.frame_percents[-1] == pytest.approx(H.percent_reached, abs=1e-12)
    assert fold_contacts(H, PERCENT, "reference").percents == H.frame_percents
