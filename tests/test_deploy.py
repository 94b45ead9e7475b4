"""Deployment: actuator torques and hinge forces along the whole fold (``fold --forces``, ``analysis.deploy``).

Through the command line, on files written here:

* one panel lifted about a horizontal hinge against its weight: tau = m g d cos(theta), the hinge's |F| = m g;
* a Miura strip under self-weight folded from 10 % to 90 % by one actuator: tau = dV/dtheta, V the potential
  energy of the kinematic frames alone (fold.fold, no statics), by central differences, to their truncation error
  (Richardson's estimate from the doubled step); the work check falls as the trapezoid rule's 1/frames^2;
* a strip driven toward its flat (singular) state: the frames whose conditioning fell are flagged near-singular,
  and no frame that is not flagged carries forces above the flagged level;
* a file that ``design`` made isostatic: the rigid and the elastic answers agree to round-off at every frame;
* bad input: one line and exit 2; an undetermined frame without --elastic: exit 3, the kinematics written.
"""
import csv
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from chrono_origami.engines import chrono_available
from chrono_origami.patterns import miura
from chrono_origami.results.deploy import NEAR_SINGULAR, WORK_RTOL
from chrono_origami.structure import foldfile

from cli_inprocess import run_cli
from cli_output import run
from readme_blocks import assert_quoted_lines_printed, code_block

RHO, T, G = 500.0, 0.01, 9.81
ROOT = Path(__file__).resolve().parents[1]
#: the README's walk (its code block of `$ python3 -m chrono_origami ...` commands)
WALK = "### Deployment: actuator torques and hinge forces along the fold"
#: the engine of the forces, named (the one rule would take Chrono where PyChrono imports)
FE = ("--forces-engine", "reference")


def lift_file(path, three=False):
    """Panels 1 (0 <= x <= 1) and 2 (1 <= x <= 2), unit squares, a valley crease at x = 1 (hinge 1); ``three``:
    a third panel (2 <= x <= 3, hinge 2). Thickness T, density RHO in the file."""
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0]]
    faces = [[0, 1, 2, 3], [1, 4, 5, 2]]
    edges = [[0, 1], [1, 2], [2, 3], [3, 0], [1, 4], [4, 5], [5, 2]]
    letters = ["B", "V", "B", "B", "B", "B", "B"]
    if three:
        X += [[3, 0, 0], [3, 1, 0]]
        faces.append([4, 6, 7, 5])
        edges[5] = [4, 6]
        edges += [[6, 7], [7, 5], [4, 5]]
        letters += ["B", "B", "V"]
    d = {"vertices_coords": X, "faces_vertices": faces, "edges_vertices": edges, "edges_assignment": letters,
         "faces_origami:thickness": [T] * len(faces), "origami:density": RHO}
    path.write_text(json.dumps(d))
    return path


#: 3-2-1 on panel 1 (vertices 1, 4, 2): the fold's own hold of panel 1 keeps them, no placement moves a frame
LIFT_SUPPORT = ["--support", "1:xyz", "--support", "4:xz", "--support", "2:z:p1"]


def table(path):
    with open(path) as f:
        rows = [r for r in csv.reader(f) if not r[0].startswith("#")]
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def strip_file(path, start=8.0, end=100.0, door=False):
    """A 2 x 4 Miura strip (its isostatic hinges, or all door hinges) folded at the closed form's ``start``, its
    targets the closed form at ``end`` (about 10 % and 100 % of the targets), thickness T and density RHO; with
    the --support options of a 3-2-1 support on panel 1."""
    st = miura.miura_strip(2, fold_angle_deg=start)
    if door:
        st = st.with_hinge_kinds(["door"] * len(st.hinge_kinds))
    foldfile.write_fold(st, str(path))
    d = json.loads(path.read_text())
    pat = st.pattern
    angles = foldfile.fold_angles(pat, miura.miura_vertices(2, 4, fold_angle_deg=end))
    letters = foldfile.assignments(pat, angles)
    d.update({"edges_assignment": letters, "edges_foldAngle": [None if a == "B" else x for a, x in zip(letters, angles)],
              "faces_origami:thickness": [T] * pat.n_panels, "origami:density": RHO})
    path.write_text(json.dumps(d))
    a, b, c = pat.panels[0][:3]
    X = pat.vertices
    ab = np.abs(X[b] - X[a])
    held_b = "".join(sorted("xyz"[i] for i in np.argsort(ab)[:2]))
    held_c = "xyz"[int(np.argmax(np.abs(np.cross(X[b] - X[a], X[c] - X[a]))))]
    return path, ["--support", f"{a + 1}:xyz:p1", "--support", f"{b + 1}:{held_b}:p1", "--support",
                  f"{c + 1}:{held_c}:p1"]


def potential(fold_path):
    """The weight's potential energy at every frame of fold.fold, from the vertices alone (parallelogram panels:
    the centroid is the vertices' mean)."""
    d = json.loads(fold_path.read_text())
    frames = [d["vertices_coords"]] + [f["vertices_coords"] for f in d["file_frames"]]
    out = []
    for X in frames:
        X = np.asarray(X, float)
        v = 0.0
        for f in d["faces_vertices"]:
            P = X[f]
            area = 0.5 * np.linalg.norm(sum(np.cross(P[i], P[(i + 1) % len(P)]) for i in range(len(P))))
            v += RHO * T * area * G * P.mean(axis=0)[2]
        out.append(v)
    return np.array(out)


def test_one_panel_lifted_about_a_horizontal_hinge_against_its_weight(tmp_path, capsys):
    """tau(theta) = m g d cos(theta) (d = 0.5, the hinge line to the centroid), positive (it lifts); the hinge's
    |F| on both sides is the weight m g; the default actuator is printed as a line to copy; the tables in every
    format read back to the same numbers."""
    path = lift_file(tmp_path / "lift.fold")
    code, out, err = run(capsys, "fold", path, "--drive", "1", "--angle-deg", "80", "--frames", "8", "--quiet",
                         *LIFT_SUPPORT, "--self-weight", "--forces", *FE, "--out", tmp_path / "o", "--engine", "reference")
    assert code == 0, err
    assert "actuators: --actuate 1 (" in out
    m = RHO * T * 1.0
    rows = table(tmp_path / "o" / "actuation.csv")
    assert len(rows) == 9 and [r["status"] for r in rows] == ["determined"] * 9
    theta = np.radians([float(r["fold_angle_deg"]) for r in rows])
    assert theta[-1] == pytest.approx(np.radians(80), abs=1e-12)
    tau = np.array([float(r["torque"]) for r in rows])
    np.testing.assert_allclose(tau, m * G * 0.5 * np.cos(theta), rtol=0, atol=1e-12 * m * G)
    assert [float(r["percent"]) for r in rows] == pytest.approx([12.5 * k for k in range(9)])
    sides = table(tmp_path / "o" / "path_hinges.csv")
    assert len(sides) == 18
    for r in sides:
        assert np.linalg.norm([float(r[c]) for c in ("N", "TP", "TO")]) == pytest.approx(m * G, rel=1e-12)
        assert abs(float(r["MP"])) == pytest.approx(m * G * 0.5 * np.cos(theta[int(r["frame"])]), abs=1e-12 * m * G)
    env = table(tmp_path / "o" / "envelope.csv")
    assert [(e["hinge"], e["panel"]) for e in env] == [("1", "1"), ("1", "2")]
    assert float(env[0]["MP"]) == pytest.approx(m * G * 0.5, rel=1e-12)         # the largest torque: flat
    sup = table(tmp_path / "o" / "path_supports.csv")
    for k in range(9):
        fz = sum(float(r["Fz"]) for r in sup if r["frame"] == str(k))
        assert fz == pytest.approx(2 * m * G, rel=1e-12)                        # both panels' weight
    for fmt in ("json", "parquet"):
        if fmt == "parquet":
            pytest.importorskip("pyarrow")
        code, out, err = run(capsys, "fold", path, "--drive", "1", "--angle-deg", "80", "--frames", "8", "--quiet",
                             *LIFT_SUPPORT, "--self-weight", "--forces", *FE, "--out", tmp_path / fmt, "--format", fmt,
                             "--engine", "reference")
        assert code == 0, err
        for name in ("actuation", "path_hinges", "path_supports", "path_frames", "envelope"):
            assert (tmp_path / fmt / f"{name}.{fmt}").is_file()
        if fmt == "json":
            data = json.loads((tmp_path / fmt / "actuation.json").read_text())["data"]
            assert [d["torque"] for d in data] == [float(r["torque"]) for r in rows]


def test_a_miura_strip_needs_the_torque_that_raises_its_potential_energy(tmp_path, capsys):
    """The isostatic Miura strip under self-weight from 10 % to 90 % by one actuator: at every interior frame
    tau = dV/dtheta, V from fold.fold's frames alone, by central differences; tau - D(h) is the truncation error
    of the difference, Richardson's (D(2h) - D(h)) / 3 estimates it (within a factor 2)."""
    path, support = strip_file(tmp_path / "strip.fold")
    code, out, err = run(capsys, "fold", path, "--percent", "90", "--quiet", *support, "--self-weight", "--forces", *FE,
                         "--out", tmp_path / "o", "--engine", "reference")
    assert code == 0, err
    rows = table(tmp_path / "o" / "actuation.csv")
    assert len({r["hinge"] for r in rows}) == 1 and len(rows) == 21
    pc = [float(r["percent"]) for r in rows]
    assert pc[0] == pytest.approx(10, abs=0.5) and pc[-1] == pytest.approx(90, abs=1.0)
    tau = np.array([float(r["torque"]) for r in rows])
    th = np.radians([float(r["fold_angle_deg"]) for r in rows])
    V = potential(tmp_path / "o" / "fold.fold")
    D1 = (V[2:] - V[:-2]) / (th[2:] - th[:-2])              # frames 1 .. n-1
    D2 = (V[4:] - V[:-4]) / (th[4:] - th[:-4])              # frames 2 .. n-2
    err1 = np.abs(tau[2:-2] - D1[1:-1])
    estimate = np.abs(D2 - D1[1:-1]) / 3
    assert np.all(err1 <= 2 * estimate + 1e-9 * np.abs(tau).max())
    assert err1.max() < 1e-2 * np.abs(tau).max()           # and it is small: the torque is dV/dtheta
    assert np.abs(tau[2:-2] - (4 * D1[1:-1] - D2) / 3).max() < 0.5 * err1.max()   # Richardson does better


def strip_forces(tmp, frames, capsys=None):
    """``fold --forces`` of the strip (``strip_file``) to 90 % with ``frames`` frames, JSON tables in ``tmp``/out:
    (stdout, the actuation table's work check)."""
    tmp.mkdir(parents=True, exist_ok=True)
    path, support = strip_file(tmp / "strip.fold")
    argv = ["fold", path, "--percent", "90", "--quiet", "--frames", frames, *support, "--self-weight", "--forces", *FE,
            "--out", tmp / "out", "--format", "json", "--engine", "reference"]
    if capsys is None:
        r = run_cli(tmp, *argv)
        code, out, err = r.returncode, r.stdout, r.stderr
    else:
        code, out, err = run(capsys, *argv)
    assert code == 0, err
    return out, json.loads((tmp / "out" / "actuation.json").read_text())["meta"]["work_check"]


@pytest.fixture(scope="module")
def strip_20_frames(tmp_path_factory):
    """The strip's fold with forces and 20 frames (``strip_forces``), shared by the work-check tests (read only)."""
    return strip_forces(tmp_path_factory.mktemp("strip20"), 20)


def test_the_work_check_falls_as_the_trapezoid_rule(tmp_path, capsys, strip_20_frames):
    """The actuators' work against the rise of the potential energy: below 1e-3 of the work with 20 frames, and
    4 times smaller (+-50 %) with 40; one line on screen, and the table's mismatch is the work less the rise."""
    rel = []
    for out, meta in (strip_20_frames, strip_forces(tmp_path, 40, capsys)):
        assert len([x for x in out.splitlines() if x.startswith("work check:")]) == 1
        assert meta["mismatch"] == pytest.approx(meta["work"] - meta["potential_change"], abs=1e-12)
        rel.append(abs(meta["mismatch"]) / abs(meta["work"]))
    assert rel[0] < 1e-3
    assert 2.0 <= rel[0] / rel[1] <= 6.0


def test_a_fold_toward_the_flat_state_is_flagged_near_singular(tmp_path, capsys):
    """The strip driven from 10 % toward flat (0.1 %): the flat state is singular, its conditioning and forces go
    as 1/angle. The frames whose smallest singular value fell below NEAR_SINGULAR of the path's best are flagged
    (path_frames, actuation, the screen, the envelope), and no unflagged frame carries a force above
    1/NEAR_SINGULAR times that of the best conditioned frame."""
    path, support = strip_file(tmp_path / "strip.fold")
    code, out, err = run(capsys, "fold", path, "--percent", "0.1", "--quiet", *support, "--self-weight", "--forces", *FE,
                         "--out", tmp_path / "o", "--engine", "reference")
    assert code == 0, err
    frames = table(tmp_path / "o" / "path_frames.csv")
    sig = np.array([float(r["sigma_min_rel"]) for r in frames])
    flagged = ["near-singular" in r["status"] for r in frames]
    assert flagged[-1] and not flagged[0]
    assert flagged == list(sig < NEAR_SINGULAR * sig.max())
    assert f"frame {len(frames) - 1} is near-singular" in out
    sides = table(tmp_path / "o" / "path_hinges.csv")
    big = np.zeros(len(frames))
    for r in sides:
        k = int(r["frame"])
        big[k] = max(big[k], np.linalg.norm([float(r[c]) for c in ("N", "TP", "TO")]))
    best = int(np.argmax(sig))
    assert big[~np.array(flagged)].max() <= big[best] / NEAR_SINGULAR
    assert big[-1] > big[best] / NEAR_SINGULAR                       # the flagged frames do carry more
    env = table(tmp_path / "o" / "envelope.csv")
    for e in env:
        if float(e["F"]) > big[best] / NEAR_SINGULAR:
            assert "near-singular" in e["status"]
    assert all("near-singular" in r["status"] for r in table(tmp_path / "o" / "actuation.csv")[-1:])


def tent_file(path):
    """Three unit squares in a row (x in [0, 3]): panel 1 on the ground, a valley crease at x = 1 (hinge 1), a
    mountain ridge at x = 2 (hinge 2); no thickness (point loads only)."""
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0], [3, 0, 0], [3, 1, 0]]
    faces = [[0, 1, 2, 3], [1, 4, 5, 2], [4, 6, 7, 5]]
    edges = [[0, 1], [1, 2], [2, 3], [3, 0], [1, 4], [4, 5], [5, 2], [4, 6], [6, 7], [7, 5]]
    letters = ["B", "V", "B", "B", "B", "M", "B", "B", "B", "B"]
    path.write_text(json.dumps({"vertices_coords": X, "faces_vertices": faces, "edges_vertices": edges,
                                "edges_assignment": letters}))
    return path


def test_a_tent_closing_under_a_sideways_load_is_flagged_where_its_forces_grow_like_one_over_cos(tmp_path, capsys):
    """A tent: panel 1 on the ground (3-2-1), panel 2 rising at alpha about hinge 1, panel 3 coming down from the
    ridge (hinge 2) to its foot on a roller (vertex 7 held in z; the fold keeps vertices 7, 8 in the plane z = 0);
    a sideways load P = 1 along x at the ridge (on panel 3). Driven from flat to alpha = 89.9 deg (the tent
    closes). The default actuator is the ridge; held, panels 2 and 3 are one body on a pin (hinge 1) and the
    roller at horizontal distance 2 cos(alpha): the roller's reaction R = P tan(alpha) / 2, each hinge's
    |F| = sqrt(P^2 + R^2), the torque -P sin(alpha) / 2 (= dV/dpsi, psi = -2 alpha, V = -P (1 + cos alpha)).
    A frame is near-singular exactly where sigma_min_rel < NEAR_SINGULAR of the path's best, or where its
    amplification (largest |F| over sum |P| = 1) exceeds 1/NEAR_SINGULAR times the path's least (1, flat):
    no frame that is not labelled carries |F| above 10 P."""
    path = tent_file(tmp_path / "tent.fold")
    code, out, err = run(capsys, "fold", path, "--drive", "1", "--angle-deg", "89.9", "--hold", "1-4",
                         "--in-plane", "7:0,0,1", "--in-plane", "8:0,0,1", "--frames", "20", "--quiet", *LIFT_SUPPORT,
                         "--support", "7:z:p3", "--load", "5,6:0.5,0,0:p3", "--forces", *FE, "--out", tmp_path / "o",
                         "--engine", "reference")
    assert code == 0, err
    assert "actuators: --actuate 2 (" in out
    act = table(tmp_path / "o" / "actuation.csv")
    alpha = -np.radians([float(r["fold_angle_deg"]) for r in act]) / 2
    assert alpha[-1] == pytest.approx(np.radians(89.9), rel=1e-9)
    R = np.tan(alpha) / 2
    tau = np.array([float(r["torque"]) for r in act])
    assert np.all(np.abs(tau + np.sin(alpha) / 2) <= 1e-12 * np.sqrt(1 + R ** 2))   # round-off of the frame's forces
    sup = table(tmp_path / "o" / "path_supports.csv")
    roller = np.array([float(r["Fz"]) for r in sup if r["vertex"] == "7"])
    np.testing.assert_allclose(np.abs(roller), R, rtol=1e-9)
    sides = table(tmp_path / "o" / "path_hinges.csv")
    F = np.zeros(len(act))
    for r in sides:
        F[int(r["frame"])] = max(F[int(r["frame"])], np.linalg.norm([float(r[c]) for c in ("N", "TP", "TO")]))
    np.testing.assert_allclose(F, np.sqrt(1 + R ** 2), rtol=1e-9)
    frames = table(tmp_path / "o" / "path_frames.csv")
    sig = np.array([float(r["sigma_min_rel"]) for r in frames])
    amp = np.array([float(r["amplification"]) for r in frames])
    np.testing.assert_allclose(amp, np.sqrt(1 + R ** 2), rtol=1e-9)           # sum |P| = 1
    flagged = np.array(["near-singular" in r["status"] for r in frames])
    assert list(flagged) == list((sig < NEAR_SINGULAR * sig.max()) | (np.sqrt(1 + R ** 2) > 1 / NEAR_SINGULAR))
    assert flagged[-1] and not flagged[:-1].any()                          # 286 P at 89.9 deg; 6.3 P at 85.4 deg
    assert F[~flagged].max() <= 1 / NEAR_SINGULAR
    line = [x for x in out.splitlines() if x.startswith(f"frame {len(frames) - 1} is near-singular:")]
    assert len(line) == 1 and "286 times the loads' sum |P| (the path's least 1, frame 0)" in line[0]


def test_the_work_check_says_when_the_frames_are_too_few(tmp_path, capsys, strip_20_frames):
    """The strip with 2 frames: the mismatch is above WORK_RTOL of the work, and the line says the torques cannot
    be trusted and names more frames (the trapezoid rule's sqrt(mismatch / WORK_RTOL) times as many), which bring
    it below; with 20 frames the line gives no such advice."""
    path, support = strip_file(tmp_path / "strip.fold")
    lines = {}
    for n, (out, meta) in ((2, strip_forces(tmp_path / "2", 2, capsys)), (20, strip_20_frames)):
        lines[n] = [x for x in out.splitlines() if x.startswith("work check:")][0]
        assert meta["too_few_frames"] == (meta["relative"] > WORK_RTOL)
        if n == 2:
            assert meta["relative"] > WORK_RTOL
            need = int(np.ceil(meta["steps"] * np.sqrt(meta["relative"] / WORK_RTOL)))
            assert lines[n].endswith(f"the frames are too few to trust the torques between them (their peaks may "
                                     f"fall between frames): fold again with more frames, about --frames {need}")
    assert "too few" not in lines[20]
    code, out, err = run(capsys, "fold", path, "--percent", "90", "--quiet", "--frames", need, *support,
                         "--self-weight", "--forces", *FE, "--engine", "reference")
    assert code == 0 and "too few" not in [x for x in out.splitlines() if x.startswith("work check:")][0]


def test_a_design_made_isostatic_file_gives_the_same_forces_with_and_without_elastic(tmp_path, capsys):
    """design makes the door-hinged strip isostatic (M = 1, S = 0 on its supports); with the actuator held it is
    determined, so the elastic hinges' answer is the rigid one, whatever the stiffness: to 1e-9 of the largest
    force at every frame. The designed file keeps the supports; the targets are put back (design writes the
    state's angles)."""
    path, support = strip_file(tmp_path / "door.fold", door=True)
    code, out, err = run(capsys, "design", path, *support, "-o", tmp_path / "designed.fold")
    assert code == 3 and "M = 1" in err                   # the mechanism remains: the actuator holds it
    d = json.loads((tmp_path / "designed.fold").read_text())
    d["edges_foldAngle"] = json.loads(path.read_text())["edges_foldAngle"]
    (tmp_path / "designed.fold").write_text(json.dumps(d))
    rows = {}
    for extra in ((), ("--elastic",)):
        out_dir = tmp_path / ("elastic" if extra else "rigid")
        code, out, err = run(capsys, "fold", tmp_path / "designed.fold", "--percent", "90", "--quiet",
                             "--self-weight", "--forces", *FE, "--actuate", "1", *extra, "--out", out_dir,
                             "--engine", "reference")
        assert code == 0, err
        rows[bool(extra)] = table(out_dir / "path_hinges.csv")
        statuses = {r["status"] for r in table(out_dir / "actuation.csv")}
        assert statuses == ({"elastic"} if extra else {"determined"})
    a, b = rows[False], rows[True]
    assert [(r["frame"], r["hinge"], r["panel"]) for r in a] == [(r["frame"], r["hinge"], r["panel"]) for r in b]
    for k in {r["frame"] for r in a}:
        A = np.array([[float(r[c]) for c in ("MT", "MP", "MO", "N", "TP", "TO")] for r in a if r["frame"] == k])
        B = np.array([[float(r[c]) for c in ("MT", "MP", "MO", "N", "TP", "TO")] for r in b if r["frame"] == k])
        F = np.linalg.norm(A[:, 3:], axis=1).max()
        assert np.abs(A[:, 3:] - B[:, 3:]).max() <= 1e-9 * F
        assert np.abs(A[:, :3] - B[:, :3]).max() <= 1e-9 * np.abs(A[:, :3]).max()


def test_an_undetermined_frame_ends_the_forces_with_exit_3_and_the_kinematics_written(tmp_path, capsys):
    """The door-hinged strip is not determined with its actuator held (S > 0): one line naming design and
    --elastic, exit 3; fold.fold is written; --elastic carries it (status elastic)."""
    path, support = strip_file(tmp_path / "door.fold", door=True)
    code, out, err = run(capsys, "fold", path, "--percent", "90", "--quiet", *support, "--self-weight", "--forces", *FE,
                         "--out", tmp_path / "o", "--engine", "reference")
    assert code == 3
    assert err.count("\n") == 1 and "design" in err and "--elastic" in err and "frame 0" in err
    assert (tmp_path / "o" / "fold.fold").is_file() and not (tmp_path / "o" / "actuation.csv").exists()
    code, out, err = run(capsys, "fold", path, "--percent", "90", "--quiet", *support, "--self-weight", "--forces", *FE,
                         "--elastic", "--out", tmp_path / "e", "--figure", tmp_path / "e" / "torques.png",
                         "--engine", "reference")
    assert code == 0, err
    assert {r["status"] for r in table(tmp_path / "e" / "actuation.csv")} == {"elastic"}
    assert (tmp_path / "e" / "torques.png").stat().st_size > 0


@pytest.mark.parametrize("extra, words", [
    (("--forces", *FE), "--forces needs loads"),
    (("--actuate", "1"), "--actuate, --support are settings of --forces"),
    (("--self-weight", "--elastic"), "--elastic, --support, --self-weight are settings of --forces"),
    (("--forces", *FE, "--self-weight", "--actuate", "9"), "--actuate '9'"),
    (("--forces", *FE, "--self-weight", "--actuate", "1"), "hinge 1 does not turn"),
    (("--forces", *FE, "--self-weight", "--through-contact", "--thickness", "0.01"), "--through-contact"),
])
def test_bad_force_options_are_one_line_and_exit_2(tmp_path, capsys, extra, words):
    """Three panels in a row, panel 2 held at its far edge (vertex 5 on panel 2), so hinge 1 cannot turn: the
    fold drives hinge 2 (and holds panels 1 and 2, vertices 1-6)."""
    path = lift_file(tmp_path / "three.fold", three=True)
    code, out, err = run(capsys, "fold", path, "--drive", "2", "--angle-deg", "30", "--hold", "1-6", "--frames", "4",
                         "--quiet", *LIFT_SUPPORT, "--support", "5:z:p2", *extra, "--engine", "reference")
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and words in err, err


def test_the_held_hinges_moment_is_the_torque_in_python(tmp_path):
    """``analysis.deploy.deployment`` from Python: the record's work check, envelope and tables; the actuators
    chosen by default are those the command line prints."""
    import chrono_origami as co

    st = co.read_structure(str(lift_file(tmp_path / "lift.fold"))).with_supports("1:xyz", "4:xz", "2:z:p1")
    st = st.with_self_weight()
    hist = co.fold(co.FoldProblem(st, [co.Drive(0, angle=-np.radians(60))], (), 1.0), "reference",
                   frame_interval=0.1)
    dep = co.deployment(hist, st, engine="reference")
    assert dep.actuators == [0]
    wc = dep.work_check()
    m = RHO * T
    assert wc.potential_change == pytest.approx(m * G * 0.5 * np.sin(np.radians(60)), rel=1e-12)
    assert abs(wc.mismatch) < 2e-3 * wc.work
    names = [t.name for t in dep.tables()]
    assert names == ["actuation", "path_hinges", "path_supports", "path_frames", "envelope"]


@pytest.mark.chrono
def test_chrono_motors_give_the_reference_engines_torques(tmp_path, capsys):
    """--forces-engine chrono: rotation motors at the actuated hinge, each frame Chrono's static analysis (its
    residuals checked): the torques agree with the reference engine's to 1e-6 of the largest torque on the Miura
    strip under self-weight, and so do the hinge forces."""
    path, support = strip_file(tmp_path / "strip.fold")
    out = {}
    for engine in ("reference", "chrono"):
        code, text, err = run(capsys, "fold", path, "--percent", "90", "--frames", "10", "--quiet", *support,
                              "--self-weight", "--forces", "--forces-engine", engine, "--out", tmp_path / engine,
                              "--engine", "reference")
        assert code == 0, err
        assert f"{engine} engine)" in text
        out[engine] = (table(tmp_path / engine / "actuation.csv"), table(tmp_path / engine / "path_hinges.csv"))
    ta = np.array([float(r["torque"]) for r in out["reference"][0]])
    tb = np.array([float(r["torque"]) for r in out["chrono"][0]])
    assert len(ta) == 11
    assert np.abs(ta - tb).max() <= 1e-6 * np.abs(ta).max()
    Fa = np.array([[float(r[c]) for c in ("N", "TP", "TO")] for r in out["reference"][1]])
    Fb = np.array([[float(r[c]) for c in ("N", "TP", "TO")] for r in out["chrono"][1]])
    assert np.abs(Fa - Fb).max() <= 1e-6 * np.abs(Fa).max()
    code, text, err = run(capsys, "fold", path, "--percent", "90", "--frames", "4", "--quiet", *support,
                          "--self-weight", "--forces", "--forces-engine", "chrono", "--elastic", "--engine", "reference")
    assert code == 2 and err.count("\n") == 1 and "reference engine" in err


def test_support_auto_holds_panel_one_and_supports_that_stop_the_fold_are_refused(tmp_path, capsys):
    """With --forces, --support auto is the fewest held directions on panel 1 (which the fold holds), printed as
    --support forms; every support reaction is on panel 1, and the weight is carried. Supports that the fold would
    move in a held direction (the lifted panel's far vertex held in z as well) are one line naming the frame and a
    support that would move, exit 2."""
    path, _ = strip_file(tmp_path / "strip.fold")
    code, out, err = run(capsys, "fold", path, "--percent", "90", "--frames", "6", "--quiet", "--support", "auto",
                         "--self-weight", "--forces", *FE, "--out", tmp_path / "o", "--engine", "reference")
    assert code == 0, err
    line = [x for x in out.splitlines() if x.startswith("--support auto (--forces): ")]
    assert len(line) == 1 and line[0].count(":p1") == 3
    sup = table(tmp_path / "o" / "path_supports.csv")
    assert {r["panel"] for r in sup} == {"1"}
    weight = RHO * T * G * sum(np.linalg.norm(np.cross(*(np.array(p)[1:3] - np.array(p)[0])))
                               for p in ([miura.miura_vertices(2, 4, fold_angle_deg=8.0)[f] for f in face]
                                         for face in miura.miura_pattern(2, 4, fold_angle_deg=8.0).panels))
    for k in range(7):
        assert sum(float(r["Fz"]) for r in sup if r["frame"] == str(k)) == pytest.approx(weight, rel=1e-9)
    path = lift_file(tmp_path / "lift.fold")
    code, out, err = run(capsys, "fold", path, "--drive", "1", "--angle-deg", "30", "--frames", "3", "--quiet",
                         *LIFT_SUPPORT, "--support", "5:z:p2", "--self-weight", "--forces", *FE, "--engine", "reference")
    assert code == 2 and err.count("\n") == 1
    assert "the supports stop the fold: at frame 1 the support at vertex" in err and "one panel" in err


def test_the_page_colours_each_frame_on_one_scale_with_the_torque_plot_beside(tmp_path, capsys):
    """--html with --forces: one state per frame; the hinges coloured by |F| on one scale for the whole path (the
    hinge side of the path's largest |F| at the top of the map at its frame, below it at the others); the torque
    plot shown beside the 3-D view; hovering data: that frame's rows of path_hinges. A headless Chromium
    (tests/browser.py; skipped with the reason without one)."""
    import browser as br
    from chrono_origami.report import hinge_colors

    why = br.unavailable()
    if why:
        pytest.skip(why)
    path, support = strip_file(tmp_path / "strip.fold")
    code, out, err = run(capsys, "fold", path, "--percent", "90", "--frames", "6", "--quiet", *support,
                         "--self-weight", "--forces", *FE, "--out", tmp_path / "o", "--html", tmp_path / "page.html",
                         "--engine", "reference")
    assert code == 0, err
    assert f"results page written to {tmp_path / 'page.html'}" in out
    env = table(tmp_path / "o" / "envelope.csv")
    top = max(env, key=lambda e: float(e["F"]))
    frame, hinge = int(top["frame"]), int(top["hinge"])
    sides = table(tmp_path / "o" / "path_hinges.csv")
    F = {(int(r["frame"]), int(r["hinge"])): np.linalg.norm([float(r[c]) for c in ("N", "TP", "TO")]) for r in sides}
    with br.chromium() as browser:
        visit = br.open_page(browser, tmp_path / "page.html")
        assert visit.errors == [] and visit.requests == []
        assert visit.api("a => a.nStates") == 7
        assert visit.page.locator("#figurebox").is_visible()
        assert visit.page.evaluate("document.getElementById('figure').naturalWidth") > 100
        cmap = hinge_colors.colormap(hinge_colors.SEQUENTIAL)
        for k in (frame, (frame + 3) % 7):
            visit.api("(a, k) => a.setState(k)", k)
            shown = np.array(visit.api("(a, h) => a.hingeColor(h)", hinge))
            expect = np.array(cmap(F[(k, hinge)] / F[(frame, hinge)])[:3])
            assert shown == pytest.approx(expect, abs=1.0 / 255), k
        assert "frame" in visit.page.locator("#statelabel").inner_text()


# ------------------------------------------------------------------ the README's walk
def walk_steps():
    steps = code_block(WALK)
    assert [c.split()[:4] for c, _ in steps] == [["python3", "-m", "chrono_origami", w]
                                                 for w in ("fold", "fold", "design", "fold", "fold")]
    return steps


def test_the_readme_deployment_walk_on_origami_simulators_miura_prints_what_it_quotes(tmp_path, capsys, monkeypatch):
    """The README's walk on Origami Simulator's miura-ori.svg, run as written: every quoted line printed (the
    panels tapered to 179 deg free of contact to 90 %, the near-singular frames near flat, the work check's advice
    to fold with more frames), the figure the README shows, the page; the largest |F| of the path and every force
    above 10 times the best frame's per unit load labelled near-singular. The same with and without PyChrono:
    at t = 0.002 px (1.3e-6 of the sheet) Chrono's contact check refuses and the automatic choice checks by the
    reference engine, saying so; the forces (--elastic) are the reference engine's."""
    import matplotlib.image as mpimg

    command, quoted = walk_steps()[0]
    shutil.copy(ROOT / "tests" / "data" / "origami_simulator" / "miura-ori.svg", tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *command.split()[3:])
    assert code == 0, err
    assert_quoted_lines_printed(command, quoted, out + err)
    if chrono_available():
        assert "Chrono's contact check resolves depths of 0.0023 (100 sqrt(eps) L) and needs panels at least " \
               "1.5e-05 L = 0.0229 thick: the contact check runs on the reference engine" in err
    assert "the frames are too few to trust the torques" in [x for x in out.splitlines()
                                                             if x.startswith("work check:")][0]
    made = mpimg.imread(tmp_path / "torques.png")
    shown = mpimg.imread(ROOT / "docs" / "figures" / "deployment-miura-ori.png")
    assert made.shape == shown.shape and np.abs(made - shown).mean() < 0.01
    assert (tmp_path / "page.html").stat().st_size > 0
    frames = table(tmp_path / "D" / "path_frames.csv")
    amp = np.array([float(r["amplification"]) for r in frames])
    flagged = np.array(["near-singular" in r["status"] for r in frames])
    assert flagged[[0, 1, 20]].all() and not flagged[4:18].any()           # near flat and near folded flat
    assert flagged[amp > amp[~flagged].min() / NEAR_SINGULAR].all()
    env = table(tmp_path / "D" / "envelope.csv")
    assert "near-singular" in max(env, key=lambda e: float(e["F"]))["status"]


def test_the_readme_deployment_walk_on_a_designed_file_agrees_with_and_without_elastic(tmp_path, capsys, monkeypatch):
    """The README's walk on Origami Simulator's simpleVertex.svg: folded to a non-flat state, made isostatic by
    design (exit 3: the mechanism the actuator holds remains), then driven with and without --elastic, as
    written: the quoted lines printed, and the two answers agree to 1e-9 of the largest force at every frame
    (forces, moments and torques), since an isostatic answer does not depend on the stiffness."""
    shutil.copy(ROOT / "tests" / "data" / "origami_simulator" / "simpleVertex.svg", tmp_path)
    monkeypatch.chdir(tmp_path)
    for command, quoted in walk_steps()[1:]:
        code, out, err = run(capsys, *command.split()[3:])
        assert code == (3 if command.split()[3] == "design" else 0), (command, err)
        assert_quoted_lines_printed(command, quoted, out + err)
    cols = ("MT", "MP", "MO", "N", "TP", "TO")
    rows = {d: table(tmp_path / d / "path_hinges.csv") for d in ("rigid", "elastic")}
    assert {r["frame"] for r in rows["rigid"]} == {str(k) for k in range(11)}
    assert [(r["frame"], r["hinge"], r["panel"]) for r in rows["rigid"]] == \
        [(r["frame"], r["hinge"], r["panel"]) for r in rows["elastic"]]
    for k in range(11):
        A, B = (np.array([[float(r[c]) for c in cols] for r in rows[d] if r["frame"] == str(k)])
                for d in ("rigid", "elastic"))
        F = np.linalg.norm(A[:, 3:], axis=1).max()
        assert F > 0 and np.abs(A[:, 3:] - B[:, 3:]).max() <= 1e-9 * F
        assert np.abs(A[:, :3] - B[:, :3]).max() <= 1e-9 * np.abs(A[:, :3]).max()
    ta, tb = (np.array([float(r["torque"]) for r in table(tmp_path / d / "actuation.csv")])
              for d in ("rigid", "elastic"))
    assert np.abs(ta - tb).max() <= 1e-9 * np.abs(ta).max()
