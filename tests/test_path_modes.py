"""The lowest frequencies along a fold (``fold --modes``): ``co.modal`` at every stored frame, the frame's loads and
Kc, the actuators held by preloaded motors (``engines.reference.modal``: their torques carry the loads there, their
servo stiffness is ``--actuator-stiffness``).

Through the command line, on files written here:

* one panel held by a motor at 30 deg above the horizontal against its weight: omega^2 = (k - m g d sin(phi)) /
  I_axis (the motor's preload carries m g d cos(phi); gravity's stiffness about the hinge is d^2 V / dphi^2 =
  -m g d sin(phi)), and the motor's torque is m g d cos(phi);
* a Miura strip under self-weight with one actuator held: the first frequency against the percent is smooth (its
  second difference falls as h^2 when the frames double), and at three frames it is ``modal`` run on that frame of
  fold.fold (the supports and loads written there) with the same motor;
* the same strip with two motor stiffnesses k1, k2: omega^2 I = k + V'' along the mechanism (one degree of freedom),
  so I = (k2 - k1) / (omega2^2 - omega1^2) and V'' = omega1^2 I - k1: the gravity stiffness the modes carry (loads,
  supports, Kc) is the second derivative of the weight's potential energy against the actuator's angle, from the
  kinematic frames of fold.fold alone, to the truncation error of the difference;
* bad input: one line, exit 2.
"""
import csv
import json

import numpy as np
import pytest

from cli_output import run
from test_deploy import G, RHO, T, potential, strip_file

K_MOTOR = 100.0      # N m/rad: stiff against the strip's gravity stiffness (its frequencies are 0.4-0.5 Hz)


def rows(path):
    with open(path) as f:
        r = [x for x in csv.reader(f) if not x[0].startswith("#")]
    return [dict(zip(r[0], x)) for x in r[1:]]


def test_one_panel_held_by_a_motor_against_its_weight_is_a_pendulum_with_a_spring(tmp_path, capsys):
    """Panel 2 (unit square, thickness T, density RHO) at phi = 30 deg above the horizontal about hinge 1 (the y
    axis through x = 1), panel 1 supported: omega^2 = (k - m g d sin(phi)) / I_axis, d = 1/2, I_axis = m (1/3 +
    T^2/12) (the prism about its edge line at mid-thickness); the motor's torque m g d cos(phi). The reference
    engine's Kc is by central differences (relative error about 1e-10): 1e-8."""
    phi, k = np.radians(30.0), 50.0
    c, s = np.cos(phi), np.sin(phi)
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [1 + c, 0, s], [1 + c, 1, s]]
    d = {"vertices_coords": X, "faces_vertices": [[0, 1, 2, 3], [1, 4, 5, 2]],
         "edges_vertices": [[0, 1], [1, 2], [2, 3], [3, 0], [1, 4], [4, 5], [5, 2]],
         "edges_assignment": ["B", "V", "B", "B", "B", "B", "B"], "faces_origami:thickness": [T, T],
         "origami:density": RHO}
    path = tmp_path / "lift.fold"
    path.write_text(json.dumps(d))
    code, out, err = run(capsys, "modal", path, "--support", "1:xyz", "--support", "4:xz", "--support", "2:z:p1",
                         "--self-weight", "--actuate", "1", "--actuator-stiffness", k, "--modes", "1",
                         "--out", tmp_path / "o")
    assert code == 0, err
    m = RHO * T
    I_axis = m * (1 / 3 + T ** 2 / 12)
    f = float(rows(tmp_path / "o" / "modes.csv")[0]["frequency_hz"])
    assert (2 * np.pi * f) ** 2 == pytest.approx((k - m * G * 0.5 * s) / I_axis, rel=1e-8)
    torque = float(out.split("(torques ")[1].split()[0])
    assert torque == pytest.approx(m * G * 0.5 * c, rel=5e-6)        # printed to 6 digits


def fold_modes(capsys, tmp_path, frames, name):
    path, support = strip_file(tmp_path / "strip.fold")
    out_dir = tmp_path / name
    code, out, err = run(capsys, "fold", path, "--percent", "90", "--quiet", "--engine", "reference", *support,
                         "--self-weight", "--modes", "2", "--actuator-stiffness", K_MOTOR, "--frames", frames,
                         "--out", out_dir, "--figure", tmp_path / f"{name}.png")
    assert code == 0, err
    r = [x for x in rows(out_dir / "path_modes.csv") if x["mode"] == "1"]
    return out, out_dir, np.array([float(x["percent"]) for x in r]), np.array([float(x["frequency_hz"]) for x in r])


def test_a_miura_strip_s_first_frequency_is_smooth_along_the_fold_and_is_modal_s_at_each_frame(tmp_path, capsys):
    """The isostatic strip under self-weight from 10 % to 90 %, its one actuator held by a motor of K_MOTOR.

    Smooth: with frames uniform in time, a smooth f(percent) has second differences that fall as h^2, so doubling
    the frames divides their largest by about 4; a kink (a slope jump) gives second differences of the jump
    itself whatever h (ratio 1), a jump of f of the jump (ratio 1): the ratio must be above 3.

    Equal to ``modal``: at frames 0, 10 and 20, ``modal`` on fold.fold's frame (its supports and self-weight
    written there) with ``--actuate`` the same hinge and the same stiffness. The two routes build the same
    linearisation from the same vertices (JSON keeps the floats exactly; the frames' placement is a rigid motion
    of at most round-off, the supports being on panel 1, which the fold holds) and solve it by the same dense
    null-space QZ: 1e-9 relative."""
    out, out_dir, pc, f = fold_modes(capsys, tmp_path, 20, "o20")
    _, _, pc10, f10 = fold_modes(capsys, tmp_path, 10, "o10")
    assert len(f) == 21 and len(f10) == 11 and np.all(f > 0)
    assert pc[0] == pytest.approx(10, abs=0.5) and pc[-1] == pytest.approx(90, abs=1.0)
    d2, d2_10 = np.abs(np.diff(f, 2)).max(), np.abs(np.diff(f10, 2)).max()
    assert d2_10 / d2 > 3.0, (d2_10, d2)
    assert d2 < 0.02 * f.max()
    low = int(np.argmin(f))
    assert f"lowest frequency over the path: {f[low]:.6g} Hz at frame {low} ({pc[low]:.4g} %)" in out
    hinge = out.split("actuators: --actuate ")[1].split()[0]
    for k in (0, 10, 20):
        code, mout, err = run(capsys, "modal", out_dir / "fold.fold", "--frame", k, "--engine", "reference",
                              "--actuate", hinge, "--actuator-stiffness", K_MOTOR, "--modes", "2",
                              "--out", tmp_path / f"m{k}")
        assert code == 0, err
        fm = float(rows(tmp_path / f"m{k}" / "modes.csv")[0]["frequency_hz"])
        assert fm == pytest.approx(f[k], rel=1e-9)
    assert (tmp_path / "o20.png").stat().st_size > 0


def second_derivative(V, th, s):
    """d2V/dth2 at the frames s .. n-1-s from frames k-s, k, k+s (three-point, unequal steps)."""
    out = []
    for k in range(s, len(V) - s):
        a, b, c = th[k - s], th[k], th[k + s]
        out.append(2 * (V[k - s] / ((a - b) * (a - c)) + V[k] / ((b - a) * (b - c)) + V[k + s] / ((c - a) * (c - b))))
    return np.array(out)


def test_the_strip_s_gravity_stiffness_is_the_second_derivative_of_its_potential(tmp_path, capsys):
    """The strip under self-weight, its one actuator held by motors of 100 and 200 N m/rad: V'' from the two
    frequency curves (module doc) against the three-point second difference D(h) of the weight's potential
    (``test_deploy.potential``, vertices alone) over the actuator's fold angle, at the frames inside both stencils.
    D(h) - V'' is the difference's truncation error, O(h^2): below 1e-2 of V'' here (20 frames), and Richardson's
    (4 D(h) - D(2h)) / 3 does better than D(h). Without Kc the gravity stiffness of the hinges' forces is missing
    and V'' is off by the order of itself."""
    from chrono_origami.crease.pattern import fold_angles
    from chrono_origami.structure import foldfile

    path, support = strip_file(tmp_path / "strip.fold")
    w = {}
    for k in (100.0, 200.0):
        code, out, err = run(capsys, "fold", path, "--percent", "90", "--quiet", "--engine", "reference", *support,
                             "--self-weight", "--modes", "1", "--actuator-stiffness", k, "--out", tmp_path / f"o{k:g}")
        assert code == 0, err
        w[k] = (2 * np.pi * np.array([float(r["frequency_hz"]) for r in rows(tmp_path / f"o{k:g}" / "path_modes.csv")])) ** 2
    hinge = int(out.split("actuators: --actuate ")[1].split()[0]) - 1
    inertia = 100.0 / (w[200.0] - w[100.0])
    Vpp = w[100.0] * inertia - 100.0
    fold = tmp_path / "o100" / "fold.fold"
    d = json.loads(fold.read_text())
    frames = [d["vertices_coords"]] + [f["vertices_coords"] for f in d["file_frames"]]
    st = foldfile.read_structure(str(fold))
    th = np.array([fold_angles(st.pattern, np.asarray(X, float), [hinge])[0] for X in frames])     # rad
    V = potential(fold)
    D1, D2 = second_derivative(V, th, 1)[1:-1], second_derivative(V, th, 2)
    err1 = np.abs(Vpp[2:-2] - D1)
    assert np.all(inertia > 0) and err1.max() < 1e-2 * np.abs(Vpp).max(), (err1, Vpp)
    assert np.abs(Vpp[2:-2] - (4 * D1 - D2) / 3).max() < 0.5 * err1.max()


@pytest.mark.parametrize("extra, words", [
    (["--modes", "0"], "--modes"),
    (["--actuator-stiffness", "5"], "--actuator-stiffness"),
    (["--modes", "2", "--actuator-stiffness", "-1"], "--actuator-stiffness"),
])
def test_bad_mode_options_are_one_line_and_exit_2(tmp_path, capsys, extra, words):
    path, support = strip_file(tmp_path / "strip.fold")
    code, out, err = run(capsys, "fold", path, "--quiet", "--engine", "reference", *support, "--self-weight", *extra)
    assert code == 2 and len(err.strip().splitlines()) == 1 and words in err, err


def test_modes_without_mass_name_what_to_give(tmp_path, capsys):
    """No thickness in the file nor on the command line (the density has its default): one line naming
    --thickness."""
    path, support = strip_file(tmp_path / "strip.fold")
    d = json.loads(path.read_text())
    del d["faces_origami:thickness"], d["origami:density"]
    path.write_text(json.dumps(d))
    code, out, err = run(capsys, "fold", path, "--quiet", "--engine", "reference", *support, "--modes", "2")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "no panel has a thickness" in err and "give --thickness T" in err, err


def test_a_hyperstatic_frame_ends_the_modes_with_exit_3_and_the_kinematics_written(tmp_path, capsys):
    """The door-hinged strip has self-stress states (S > 0) that carry its weight: the multipliers, and so Kc, are
    not determined by the loads. One line naming the frame and design, exit 3; fold.fold is written first."""
    path, support = strip_file(tmp_path / "door.fold", door=True)
    code, out, err = run(capsys, "fold", path, "--percent", "90", "--quiet", "--engine", "reference", *support,
                         "--self-weight", "--modes", "2", "--actuator-stiffness", K_MOTOR, "--out", tmp_path / "o")
    assert code == 3 and len(err.strip().splitlines()) == 1, err
    assert "at frame 0" in err and "redundant constraints" in err and "design" in err, err
    assert (tmp_path / "o" / "fold.fold").exists() and not (tmp_path / "o" / "path_modes.csv").exists()


@pytest.mark.parametrize("fmt", ["csv", "json", "parquet"])
def test_path_modes_is_written_in_every_format(tmp_path, capsys, fmt):
    """path_modes in each --format: frame, percent, mode, frequency_hz, one row a frame and mode (4 frames + the
    start, 2 modes asked; the strip has one mode with its actuator held, so one row a frame), the same numbers."""
    path, support = strip_file(tmp_path / "strip.fold")
    code, out, err = run(capsys, "fold", path, "--percent", "90", "--quiet", "--engine", "reference", *support,
                         "--self-weight", "--modes", "2", "--actuator-stiffness", K_MOTOR, "--frames", "4",
                         "--out", tmp_path / "o", "--format", fmt)
    assert code == 0, err
    f = tmp_path / "o" / f"path_modes.{fmt}"
    if fmt == "csv":
        got = [{k: float(v) for k, v in r.items()} for r in rows(f)]
    elif fmt == "json":
        got = json.loads(f.read_text())["data"]
    else:
        import pyarrow.parquet as pq

        got = pq.read_table(f).to_pylist()
    assert [list(r) for r in got] == [["frame", "percent", "mode", "frequency_hz"]] * 5
    assert [r["frame"] for r in got] == [0, 1, 2, 3, 4] and all(r["mode"] == 1 for r in got)
    table_line = [x for x in out.splitlines() if x.strip().startswith("2 ")][0].split()
    assert float(table_line[2]) == pytest.approx(got[2]["frequency_hz"], rel=5e-6)      # printed to 6 digits
