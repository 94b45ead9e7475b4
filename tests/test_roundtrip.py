"""Every FOLD file the project writes, its own reader reads back as the same structure.

The writers: ``write_fold`` (the library), ``convert`` (SVG to FOLD), ``fold --out`` (the history: frame 0 and
one frame per stored step), ``support -o``, ``design -o``, ``check --fix -o``, ``dynamics --out`` (motion.fold).
Each file is written through the command line, as a user does, then read back frame by frame with
``read_structure``: the same vertices (bit for bit), panels, edges, hinge kinds, supports, loads and thickness as
the structure written, every frame's fold angles and letters as written, and written again from what was read,
the same file (the writer is a fixed point of read-then-write). A crease flat within round-off carries the
file's M or V letter and the angle 0, never a tiny angle of the other sign, and the reader takes such an angle
as 0 from any writer.
"""
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from chrono_origami import cli
from chrono_origami.structure.foldfile import FLAT_DEG, fold_dict, frame_count, read_fold, read_structure, write_fold
from chrono_origami.tools.errors import FoldFileError
from test_cli import hand_fold
from test_foldfile import assert_same_structure, pair
from test_svg import SIMPLE_VERTEX

ROOT = Path(__file__).resolve().parents[1]
STRIP_SVG = ROOT / "docs" / "miura-strip.svg"


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, out[-2000:] + err
    return out


def frames_of(path):
    """The file's frames as its JSON gives them: frame 0 (the top level) and file_frames, inheritance applied."""
    data = json.loads(Path(path).read_text())
    top = {k: v for k, v in data.items() if k != "file_frames"}
    return [top] + [{**top, **f} if f.get("frame_inherit") else f for f in data.get("file_frames", [])]


def reads_back(path, written=None):
    """Every frame of ``path`` read by the project's reader: coordinates, letters and angles as in the JSON, one
    topology; the top level the same structure as ``written`` (when given), and written again the same file (the
    files of ``fold_dict``; convert writes the SVG's crease pattern as read)."""
    frames = frames_of(path)
    assert frame_count(path) == len(frames)
    first = None
    for k, keys in enumerate(frames):
        s = read_structure(path, frame=k)
        X = np.array(keys["vertices_coords"], float)
        np.testing.assert_array_equal(s.pattern.vertices, np.pad(X, ((0, 0), (0, 3 - X.shape[1]))))
        notes = s.notes["fold"]
        assert notes["edges_assignment"] == keys["edges_assignment"]
        assert notes["edges_foldAngle"] == keys["edges_foldAngle"]
        for letter, angle in zip(keys["edges_assignment"], keys["edges_foldAngle"]):
            assert not (letter == "M" and angle > 0) and not (letter == "V" and angle < 0), (k, letter, angle)
            assert angle == 0.0 or abs(angle) > FLAT_DEG, (k, angle)
        if first is None:
            first = s
        else:
            assert (s.pattern.panels, s.pattern.edges, s.hinge_kinds) == \
                (first.pattern.panels, first.pattern.edges, first.hinge_kinds)
    if written is not None:
        assert_same_structure(written, first)
    top = frames[0]
    if top["file_creator"] != "chrono-origami":
        return first            # convert's file: the SVG's crease pattern as read, 2-D
    again = fold_dict(first)
    for key, value in again.items():
        if key not in ("file_classes", "file_creator", "file_title", "frame_classes"):
            assert value == top[key], key
    return first


# ------------------------------------------------------------------ the writer and the reader at round-off
@pytest.mark.parametrize("tiny", [1e-15, -1e-15, 3e-13, -3e-13])
def test_a_crease_flat_within_round_off_is_written_as_0_beside_its_letter(tmp_path, tiny):
    """A mountain crease (target -90 deg) in a frame where it is flat up to round-off, of either sign: written as
    0 with the file's 'M', read back, and the next command takes the frame."""
    data = hand_fold()
    data["edges_assignment"][1] = "M"
    data["edges_foldAngle"] = [0, -90, 0, 0, 0, 0, 0]
    s = read_fold(data)
    X = s.pattern.vertices.copy()
    X[[4, 5], 2] = tiny                        # panel 2 tipped by ~tiny rad: the crease's angle is round-off
    path = tmp_path / "history.fold"
    write_fold(s, path, frames=[X, s.pattern.vertices], times=[0.5, 1.0])
    d = json.loads(path.read_text())
    for frame in d["file_frames"]:
        assert frame["edges_assignment"][1] == "M" and frame["edges_foldAngle"][1] == 0.0
    assert d["edges_foldAngle"][1] == -90.0    # the flat crease pattern keeps its target
    reads_back(path, s)


@pytest.mark.parametrize("angle, letter", [(1e-9, "M"), (-1e-9, "V"), (FLAT_DEG, "M"), (-FLAT_DEG, "V")])
def test_the_reader_takes_an_angle_within_round_off_of_0_as_flat(angle, letter):
    data = hand_fold()
    data["edges_assignment"][1] = letter
    data["edges_foldAngle"] = [0, angle, 0, 0, 0, 0, 0]
    assert read_fold(data).notes["fold"]["edges_foldAngle"][1] == 0.0


def test_a_real_angle_against_the_letter_is_still_refused():
    data = hand_fold()
    data["edges_assignment"][1] = "M"
    data["edges_foldAngle"] = [0, 1e-3, 0, 0, 0, 0, 0]
    with pytest.raises(FoldFileError, match=r"edges_foldAngle\[1\] is 0.001, but edges_assignment\[1\] is 'M'"):
        read_fold(data)


# ------------------------------------------------------------------ every writer, through the command line
def test_the_fold_history_of_origami_simulators_simple_vertex_reads_back(tmp_path, capsys):
    """Origami Simulator's simpleVertex.svg folded to 60 %: every frame of fold.fold reads back, frame 0 is the
    SVG's structure, and support takes the last frame (whatever crease the fold leaves flat)."""
    svg = tmp_path / "simpleVertex.svg"
    svg.write_text(SIMPLE_VERTEX)
    run(capsys, "fold", svg, "--percent", "60", "--out", tmp_path / "f")
    history = tmp_path / "f" / "fold.fold"
    start, cp = reads_back(history), read_structure(svg)
    assert (start.pattern.panels, start.pattern.edges) == (cp.pattern.panels, cp.pattern.edges)
    size = np.ptp(cp.pattern.vertices, axis=0).max()    # the fold's start: the crease pattern, to round-off
    np.testing.assert_allclose(start.pattern.vertices, cp.pattern.vertices, rtol=0, atol=8 * np.finfo(float).eps * size)
    out = run(capsys, "support", history, "--frame", "last")
    assert "proposed support:" in out


def test_convert_check_fix_support_design_and_dynamics_files_read_back(tmp_path, capsys):
    svg_fold = tmp_path / "strip.fold"
    run(capsys, "convert", STRIP_SVG, "-o", svg_fold)
    reads_back(svg_fold)
    assert_same_structure(read_structure(STRIP_SVG), read_structure(svg_fold))

    fixed = tmp_path / "fixed.fold"
    out = run(capsys, "check", STRIP_SVG, "--fix", "-o", fixed)
    assert f"wrote {fixed}" in out
    s = reads_back(fixed)
    assert read_structure(STRIP_SVG).pattern.edges == s.pattern.edges

    pair_file = tmp_path / "pair.fold"
    data = hand_fold(with_panel2_support=False)
    pair_file.write_text(json.dumps(data))
    supported = tmp_path / "supported.fold"
    run(capsys, "support", pair_file, "-o", supported)
    reads_back(supported)

    given = pair()
    given_file = tmp_path / "given.fold"
    write_fold(given, given_file)
    reads_back(given_file, given)
    designed = tmp_path / "designed.fold"
    run(capsys, "design", given_file, "-o", designed)
    d = reads_back(designed)
    assert_same_structure(replace(given, hinge_kinds=d.hinge_kinds), d)

    run(capsys, "dynamics", pair_file, "--time", "0.005", "--dt", "1e-3", "--engine", "reference",
        "--out", tmp_path / "dyn")
    motion = tmp_path / "dyn" / "motion.fold"
    assert frame_count(motion) > 1
    reads_back(motion)
