"""The export command and --vtk: DXF panels for cutting, STL/3MF/GLB solids and VTK XML results, read back with
the libraries a user opens them with (ezdxf, trimesh, meshio), against closed forms and the project's own tables.

Closed forms on the pair of unit squares on one valley crease (``test_thickness.row_fold``), thickness t = 0.1:
every panel's volume is a^2 t (mid, offset); tapered to 120 deg (beta = 30 deg from the faces) the bevel on the
valley side removes a prism of section (t/2) x t / (2 tan beta) / 2: a t^2 / (8 tan beta), and leaves the face on
the other side whole (the bed face, area a^2); a crease with no sign ("U") is bevelled on both sides, and the
bed face loses a strip t / (2 tan beta) wide: a (a - t / (2 tan beta)).
"""
import csv
import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest

from chrono_origami.structure.solids import PanelSolids, Placement
from test_cli_messages import one_line, run
from test_thickness import A, T, pair_folded, row_fold, structure_of

ezdxf = pytest.importorskip("ezdxf", reason="ezdxf is not installed (pip install 'chrono-origami[export]')")
trimesh = pytest.importorskip("trimesh", reason="trimesh is not installed (pip install 'chrono-origami[export]')")
meshio = pytest.importorskip("meshio", reason="meshio is not installed (pip install 'chrono-origami[export]')")

BETA = np.radians(30.0)                     # tapered to 120 deg: beta = (180 - 120) / 2
WEDGE = A * T * T / (8 * np.tan(BETA))      # the bevel's prism on one crease edge
STRIP = T / (2 * np.tan(BETA))              # the bed face's loss on a crease bevelled on both sides
PLACEMENTS = {"mid": (["--placement", "mid"], 2 * A * A * T),
              "offset": (["--placement", "offset"], 2 * A * A * T),
              "offset above": (["--placement", "offset", "--side", "above"], 2 * A * A * T),
              "tapered": (["--placement", "tapered", "--taper-deg", "120"], 2 * (A * A * T - WEDGE))}


def pair_file(tmp_path, letter="V", vertices=None, name="pair.fold"):
    d = row_fold(2, letter, [180.0 if letter == "V" else 0.0], "pair")
    if letter == "U":
        d["edges_foldAngle"] = [None if a == "U" else f for a, f in zip(d["edges_assignment"], d["edges_foldAngle"])]
    if vertices is not None:
        d["vertices_coords"] = np.asarray(vertices, float).tolist()
    path = tmp_path / name
    path.write_text(json.dumps(d))
    return path


def polylines(doc, layer):
    return [e for e in doc.modelspace() if e.dxftype() == "LWPOLYLINE" and e.dxf.layer == layer]


def polygon_area(points):
    x, y = np.asarray(points, float)[:, 0], np.asarray(points, float)[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


# ------------------------------------------------------------------ DXF
@pytest.mark.parametrize("letter, placement, areas, bevels", [
    ("V", ["--placement", "mid"], [A * A, A * A], 0),
    ("V", ["--placement", "offset"], [A * A, A * A], 0),
    ("V", ["--placement", "tapered", "--taper-deg", "120"], [A * A, A * A], 2),
    ("U", ["--placement", "tapered", "--taper-deg", "120"], [A * (A - STRIP)] * 2, 2)])
def test_dxf_outlines_are_the_bed_faces_in_closed_form(capsys, tmp_path, letter, placement, areas, bevels):
    """Closed outlines on PANELS whose areas are the bed faces' (module doc) to 1e-9; one crease line per hinge, on
    CREASES_V for the valley, CREASES for the unsigned crease; the bevel lines where the bevel meets the other
    face (x = -+t / (2 tan beta) from the crease) with their angle 30 deg; 1-based labels P1, P2, H1 door."""
    out = tmp_path / "p.dxf"
    code, _, err = run(capsys, "export", pair_file(tmp_path, letter), "--thickness", T, *placement, "--dxf", out)
    assert code == 0, err
    doc = ezdxf.readfile(out)
    panels = polylines(doc, "PANELS")
    assert len(panels) == 2 and all(p.closed for p in panels)
    got = sorted(polygon_area([v[:2] for v in p.get_points("xy")]) for p in panels)
    np.testing.assert_allclose(got, sorted(areas), rtol=1e-9)
    creases = [e for e in doc.modelspace() if e.dxftype() == "LINE" and e.dxf.layer.startswith("CREASES")]
    assert [e.dxf.layer for e in creases] == ["CREASES_V" if letter == "V" else "CREASES"]
    lines = [e for e in doc.modelspace() if e.dxftype() == "LINE" and e.dxf.layer == "BEVELS"]
    assert len(lines) == bevels
    want = [-STRIP, STRIP] if letter == "V" else [0.0, 0.0]      # U: the crease line at mid-height, outside the bed
    if bevels:
        np.testing.assert_allclose(sorted(e.dxf.start[0] for e in lines), want, atol=1e-12)
        np.testing.assert_allclose(sorted(e.dxf.end[0] for e in lines), want, atol=1e-12)
    texts = {e.dxf.text for e in doc.modelspace() if e.dxftype() == "TEXT"}
    assert {"P1", "P2", "H1 door"} <= texts
    assert ("bevel 30 deg" in texts) == bool(bevels)


def test_dxf_of_an_origami_simulator_pattern_has_one_crease_line_per_hinge(capsys, tmp_path):
    """Origami Simulator's Miura-ori (tests/data), mid placement: every outline closed, its area the panel's to
    1e-9, as many crease lines as hinges, M and V on their layers as the structure's targets say. (Tapered, its
    panels, bevelled on one side at their valleys and on the other at their mountains, have no whole face.)"""
    from chrono_origami.structure.foldfile import read_structure
    from chrono_origami.structure.targets import file_targets

    src = os.path.join(os.path.dirname(__file__), "data", "origami_simulator", "miura-ori.svg")
    out = tmp_path / "m.dxf"
    code, _, err = run(capsys, "export", src, "--thickness", 3e-3, "--placement", "mid", "--dxf", out)
    assert code == 0, err
    st = read_structure(src)
    doc = ezdxf.readfile(out)
    panels = polylines(doc, "PANELS")
    assert len(panels) == st.pattern.n_panels and all(p.closed for p in panels)
    want = sorted(polygon_area(st.pattern.vertices[list(loop)]) for loop in st.pattern.panels)
    got = sorted(polygon_area([v[:2] for v in p.get_points("xy")]) for p in panels)
    np.testing.assert_allclose(got, want, rtol=1e-9)
    layers = [e.dxf.layer for e in doc.modelspace() if e.dxftype() == "LINE" and e.dxf.layer.startswith("CREASES")]
    assert len(layers) == len(st.pattern.hinges)
    targets = file_targets(st)
    assert layers.count("CREASES_V") == sum(1 for v in targets.values() if v > 0)
    assert layers.count("CREASES_M") == sum(1 for v in targets.values() if v < 0)


def test_the_readme_walk_through_writes_files_a_viewer_opens(tmp_path):
    """The README's Export lines as a new user runs them, on Origami Simulator's waterbomb base: the quoted lines
    printed, the DXF read by ezdxf (8 closed outlines, 8 crease lines), the STL by trimesh (8 closed bodies). The
    first command as a user types it (a subprocess), the next ones, reading what it wrote, through ``cli.main`` in
    this process (``cli_inprocess.run_cli``: a traceback fails the test)."""
    from cli_inprocess import run_cli
    from readme_blocks import assert_quoted_lines_printed, code_block

    shutil.copy(os.path.join(os.path.dirname(__file__), "data", "origami_simulator", "waterbombBase.svg"), tmp_path)
    for k, (command, quoted) in enumerate(code_block("### Export: panels")):
        argv = command.split()
        assert argv[:3] == ["python3", "-m", "chrono_origami"]
        p = run_cli(tmp_path, *argv[3:], typed=k == 0, timeout=120)
        assert p.returncode == 0, p.stderr
        assert_quoted_lines_printed(command, quoted, p.stdout + p.stderr)
    doc = ezdxf.readfile(tmp_path / "panels.dxf")
    assert len(polylines(doc, "PANELS")) == 8 and all(p.closed for p in polylines(doc, "PANELS"))
    assert sum(1 for e in doc.modelspace() if e.dxftype() == "LINE" and e.dxf.layer.startswith("CREASES")) == 8
    bodies = trimesh.load(tmp_path / "solids.stl").split(only_watertight=True)
    assert len(bodies) == 8 and all(b.volume > 0 for b in bodies)


# ------------------------------------------------------------------ solids
@pytest.mark.parametrize("name", list(PLACEMENTS))
def test_solids_read_back_closed_oriented_and_of_the_closed_form_volume(capsys, tmp_path, name):
    """3MF and GLB: one object per panel, named by panel number, watertight, consistently wound with outward
    normals (positive volume); the total volume the closed form to 1e-9 in 3MF (decimal text of the float64)
    and 1e-6 in STL and GLB (float32). The hinge axes table beside: hinge 1, door, the crease x = 0, length a."""
    placement, volume = PLACEMENTS[name]
    files = {fmt: tmp_path / f"s.{fmt}" for fmt in ("stl", "3mf", "glb")}
    code, out, err = run(capsys, "export", pair_file(tmp_path), "--thickness", T, *placement,
                         *[x for fmt, f in files.items() for x in (f"--{fmt}", f)])
    assert code == 0, err
    for fmt, rtol in (("3mf", 1e-9), ("glb", 1e-6)):
        scene = trimesh.load(files[fmt])
        assert sorted(scene.geometry) == ["panel 1", "panel 2"]
        for g in scene.geometry.values():
            assert g.is_watertight and g.is_winding_consistent and g.volume > 0
        assert abs(sum(g.volume for g in scene.geometry.values()) - volume) <= rtol * volume, fmt
    stl = trimesh.load(files["stl"])
    assert abs(stl.volume - volume) <= 1e-6 * volume
    with open(tmp_path / "s_hinge_axes.csv") as f:
        rows = list(csv.DictReader(f))
    assert [(r["hinge"], r["kind"]) for r in rows] == [("1", "door")]
    ends = sorted([[float(rows[0][f"{c}{k}"]) for c in "xyz"] for k in (1, 2)])
    np.testing.assert_allclose(ends, [[0, 0, 0], [0, A, 0]], atol=1e-15)
    assert float(rows[0]["length"]) == A


def _intersection_volume(a, b):
    """Volume of the intersection of two closed meshes by manifold3d's exact boolean (independent of the
    project's separating-axis contact check)."""
    manifold3d = pytest.importorskip("manifold3d", reason="manifold3d is not installed (the intersection test)")

    def m(g):
        return manifold3d.Manifold(manifold3d.Mesh(vert_properties=np.asarray(g.vertices, np.float32),
                                                   tri_verts=np.asarray(g.faces, np.uint32)))
    return (m(a) ^ m(b)).volume()


@pytest.mark.parametrize("placement, deg, contact", [
    ("mid", 10.0, True), ("offset above", 10.0, True), ("offset", 60.0, False), ("offset", 179.0, False),
    ("tapered", 119.0, False), ("tapered", 125.0, True)])
def test_two_solids_at_a_folded_frame_intersect_exactly_when_the_contact_check_says(capsys, tmp_path, placement,
                                                                                      deg, contact):
    """The pair folded by ``deg`` (a FOLD file at that state): mid and offset above interpenetrate at once (depth
    (t/2) sin rho), offset below not before 180, tapered to 120 not before 120 (``test_thickness``'s closed
    forms). The exported 3MF solids' intersection (manifold3d's boolean, float32 vertices) has a volume above
    1e-6 t a^2 exactly there, and the contact check (``PanelSolids.contacts``) agrees."""
    args, _ = PLACEMENTS[placement]
    st = structure_of(row_fold(2, "V", [180.0]))
    X = pair_folded(st, np.radians(deg))
    path = tmp_path / "s.3mf"
    code, _, err = run(capsys, "export", pair_file(tmp_path, vertices=X), "--thickness", T, *args, "--3mf", path)
    assert code == 0, err
    scene = trimesh.load(path)
    vol = _intersection_volume(scene.geometry["panel 1"], scene.geometry["panel 2"])
    pl = {"mid": Placement("mid"), "offset above": Placement("offset", "above"), "offset": Placement("offset"),
          "tapered": Placement("tapered", taper_deg=120.0)}[placement]
    checked = PanelSolids(structure_of(row_fold(2, "V", [180.0]), placement=pl)).contacts(X)
    assert bool(checked) == contact
    assert (vol > 1e-6 * T * A * A) == contact, vol


@pytest.mark.parametrize("deg, shared", [(0.0, True), (60.0, False)])
def test_the_reference_surfaces_fold_gives_the_same_solids(capsys, tmp_path, deg, shared):
    """Offset below, thickness t: ``--fold`` writes the panels' mid-surfaces (mid placement): flat, the pattern
    moved by -t/2 along z with its 6 vertices, hinge and crease kept; folded by 60 deg each panel its own 4
    vertices at the crease (they no longer meet). Exported from that file, the 3MF solids have the offset ones'
    vertices to 1e-15."""
    from chrono_origami.structure.foldfile import read_structure

    st = structure_of(row_fold(2, "V", [180.0]))
    X = pair_folded(st, np.radians(deg))
    src = pair_file(tmp_path, vertices=X)
    code, _, err = run(capsys, "export", src, "--thickness", T, "--placement", "offset", "--fold",
                       tmp_path / "ref.fold", "--3mf", tmp_path / "a.3mf")
    assert code == 0, err
    ref = read_structure(str(tmp_path / "ref.fold"))
    assert ref.placement.technique == "mid" and np.allclose(ref.thickness, T)
    assert ref.pattern.n_vertices == (6 if shared else 8) and len(ref.pattern.hinges) == (1 if shared else 0)
    if shared:
        np.testing.assert_allclose(ref.pattern.vertices, X - [0, 0, T / 2], atol=1e-15)
    code, _, err = run(capsys, "export", tmp_path / "ref.fold", "--3mf", tmp_path / "b.3mf")
    assert code == 0, err
    a, b = trimesh.load(tmp_path / "a.3mf"), trimesh.load(tmp_path / "b.3mf")
    for name in ("panel 1", "panel 2"):
        va, vb = a.geometry[name].vertices, b.geometry[name].vertices
        assert len(va) == len(vb)
        gap = np.linalg.norm(va[:, None] - vb[None], axis=2)
        assert gap.min(axis=1).max() <= 1e-15 and gap.min(axis=0).max() <= 1e-15


# ------------------------------------------------------------------ VTK
def test_static_vtu_holds_hinges_csv_to_the_last_digit(capsys, tmp_path):
    """The Miura cantilever (paper table 2) through ``static --out --vtk``: the .vtu's hinge cells carry each
    side's six actions exactly as hinges.csv prints them (the float read back from its text), the panels their
    numbers and thickness, the supports their reactions as supports.csv."""
    import chrono_origami as co

    src = tmp_path / "cantilever.fold"
    co.write_fold(co.miura.miura_cantilever(), str(src))
    code, out, err = run(capsys, "static", src, "--engine", "reference", "--out", tmp_path / "o", "--vtk",
                         tmp_path / "v")
    assert code == 0, err
    mesh = meshio.read(tmp_path / "v" / "static.vtu")
    blocks = [c.type for c in mesh.cells]
    h = blocks.index("line")
    with open(tmp_path / "o" / "hinges.csv") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")][1:]
    hinge = mesh.cell_data["hinge"][h].astype(int)
    for r in rows:
        k = int(np.flatnonzero(hinge == int(r[0]))[0])
        side = 1 if int(mesh.cell_data["side1_panel"][h][k]) == int(r[1]) else 2
        assert int(mesh.cell_data[f"side{side}_panel"][h][k]) == int(r[1])
        for c, text in zip(("MT", "MP", "MO", "N", "TP", "TO"), r[2:]):
            assert mesh.cell_data[f"side{side}_{c}"][h][k] == float(text), (r, c)
    assert len(rows) == 2 * len(hinge)
    s = blocks.index("vertex")
    with open(tmp_path / "o" / "supports.csv") as f:
        sup = [r for r in csv.reader(f) if r and not r[0].startswith("#")][1:]
    got = sorted((int(v[0]) + 1, *map(float, f)) for v, f in zip(mesh.cells[s].data, mesh.cell_data["reaction"][s]))
    assert got == sorted((int(r[1]), *map(float, r[2:])) for r in sup)
    panels = [i for i, b in enumerate(blocks) if b not in ("line", "vertex")]
    numbers = np.concatenate([mesh.cell_data["panel"][i] for i in panels])
    assert sorted(numbers.astype(int)) == list(range(1, len(numbers) + 1))
    assert "VTK written to" in out


def test_fold_vtk_writes_every_frame_and_a_pvd_of_their_times(capsys, tmp_path):
    """The pair folded to its 180 deg target in 6 frames: 7 .vtu files, the .pvd lists them with the fold's times
    (steps.csv), and each frame's hinge carries its fold angle 30 k deg (FOLD sign)."""
    code, _, err = run(capsys, "fold", pair_file(tmp_path), "--frames", 6, "--quiet", "--engine", "reference",
                       "--out", tmp_path / "o", "--vtk", tmp_path / "v")
    assert code == 0, err
    root = ElementTree.parse(tmp_path / "v" / "fold.pvd").getroot()
    sets = root.find("Collection").findall("DataSet")
    assert len(sets) == 7
    times = [float(d.get("timestep")) for d in sets]
    np.testing.assert_allclose(times, np.linspace(0, 1, 7), atol=1e-15)
    for k, d in enumerate(sets):
        mesh = meshio.read(tmp_path / "v" / d.get("file"))
        h = [c.type for c in mesh.cells].index("line")
        assert abs(mesh.cell_data["fold_angle"][h][0] - 30.0 * k) <= 1e-9


def test_dynamics_vtk_holds_every_frames_hinge_actions_and_times(capsys, tmp_path):
    """The Miura cantilever falling for 4 steps (the reference engine): one .vtu per output frame whose hinge
    cells hold hinges_t.csv's rows of that time to the last digit, the .pvd the times of energy.csv."""
    import chrono_origami as co

    src = tmp_path / "cantilever.fold"
    co.write_fold(co.miura.miura_cantilever(), str(src))
    code, out, err = run(capsys, "dynamics", src, "--engine", "reference", "--thickness", 0.01, "--density", 1000,
                         "--time", 0.004, "--dt", 1e-3, "--out", tmp_path / "o", "--vtk", tmp_path / "v")
    assert code == 0, err
    with open(tmp_path / "o" / "energy.csv") as f:
        times = [float(r["t"]) for r in csv.DictReader(f)]
    sets = ElementTree.parse(tmp_path / "v" / "dynamics.pvd").getroot().find("Collection").findall("DataSet")
    assert [float(d.get("timestep")) for d in sets] == times and len(times) == 5
    with open(tmp_path / "o" / "hinges_t.csv") as f:
        rows = list(csv.DictReader(f))
    for d in sets:
        mesh = meshio.read(tmp_path / "v" / d.get("file"))
        h = [c.type for c in mesh.cells].index("line")
        hinge = mesh.cell_data["hinge"][h].astype(int)
        mine = [r for r in rows if float(r["t"]) == float(d.get("timestep"))]
        assert len(mine) == 2 * len(hinge)
        for r in mine:
            k = int(np.flatnonzero(hinge == int(r["hinge"]))[0])
            side = 1 if int(mesh.cell_data["side1_panel"][h][k]) == int(r["panel"]) else 2
            assert int(mesh.cell_data[f"side{side}_panel"][h][k]) == int(r["panel"])
            for c in ("MT", "MP", "MO", "N", "TP", "TO"):
                assert mesh.cell_data[f"side{side}_{c}"][h][k] == float(r[c])


def test_tolerance_and_design_vtk(capsys, tmp_path):
    """``tolerance --vtk``: the hand strip of tests/test_cli_tolerance.py (S > 0), each side's sd, p95 and p99 of
    each action as locked_in.csv prints them; ``design --vtk``: the designed structure's hinge kinds, 1 door and
    2 sliding, as its FOLD file has them."""
    import chrono_origami as co
    from chrono_origami.structure.foldfile import read_structure
    from test_cli_tolerance import strip_fold

    src = tmp_path / "strip.fold"
    src.write_text(json.dumps(strip_fold()))
    code, _, err = run(capsys, "tolerance", src, "--tol", 1e-4, "--out", tmp_path / "o", "--vtk", tmp_path / "v")
    assert code == 0, err
    mesh = meshio.read(tmp_path / "v" / "locked_in.vtu")
    h = [c.type for c in mesh.cells].index("line")
    with open(tmp_path / "o" / "locked_in.csv") as f:
        rows = list(csv.DictReader(r for r in f if not r.startswith("#")))
    assert len(rows) == 4
    hinge = mesh.cell_data["hinge"][h].astype(int)
    for r in rows:
        k = int(np.flatnonzero(hinge == int(r["hinge"]))[0])
        side = 1 if int(mesh.cell_data["side1_panel"][h][k]) == int(r["panel"]) else 2
        assert int(mesh.cell_data[f"side{side}_panel"][h][k]) == int(r["panel"])
        for name in ("sd", "p95", "p99"):
            for c in ("MT", "MP", "MO", "N", "TP", "TO"):
                got, text = mesh.cell_data[f"side{side}_{name}_{c}"][h][k], r[f"{name}_{c}"]
                assert (np.isnan(got) and text in ("", "nan", "NaN")) or got == float(text), (r, name, c)
    assert any(float(r["sd_TP"]) > 0 for r in rows)
    src = tmp_path / "cantilever.fold"
    co.write_fold(co.miura.miura_cantilever(), str(src))
    designed = tmp_path / "d.fold"
    code, out, err = run(capsys, "design", src, "-o", designed, "--vtk", tmp_path / "dv")
    assert code == 0, err
    mesh = meshio.read(tmp_path / "dv" / "static.vtu")
    h = [c.type for c in mesh.cells].index("line")
    kinds = [getattr(k, "name", str(k)) for k in read_structure(str(designed)).hinge_kinds]
    assert list(mesh.cell_data["kind"][h].astype(int)) == [{"door": 1, "sliding": 2}[k] for k in kinds]
    assert 2 in mesh.cell_data["kind"][h]


def test_paraview_opens_the_pvd(capsys, tmp_path):
    """ParaView's own reader on the .pvd, when pvpython is installed (Debian's paraview package)."""
    pv = shutil.which("pvpython")
    if pv is None:
        pytest.skip("ParaView's pvpython is not installed (Debian: apt-get install paraview)")
    code, _, err = run(capsys, "fold", pair_file(tmp_path), "--frames", 2, "--quiet", "--engine", "reference",
                       "--vtk", tmp_path / "v")
    assert code == 0, err
    script = ("from paraview.simple import *\n"
              f"r = PVDReader(FileName={str(tmp_path / 'v' / 'fold.pvd')!r})\n"
              "r.UpdatePipeline(time=1.0)\n"
              "d = servermanager.Fetch(r)\n"
              "print(d.GetCellData().GetArray('fold_angle').GetRange())\n")
    res = subprocess.run([pv, "-c", script], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert "180" in res.stdout


# ------------------------------------------------------------------ bad input
def test_bad_export_input_is_one_line_exit_2(capsys, tmp_path):
    """An unknown format, solids without a placement, no output, an unwritable path (checked before reading the
    input: a missing input is not what it names), no thickness, a thickness above a panel's inradius (a 1 x 1
    square's is 0.5), bevels that leave no panel (Origami Simulator's square base tapered to its 180 deg targets,
    whose panels have creases of both signs), a DXF of a folded state, the input as an output: one line each,
    exit 2."""
    src = pair_file(tmp_path)
    one_line(*run(capsys, "export", src, "--stl", tmp_path / "a.obj")[::2], 2, "--stl", ".obj")
    one_line(*run(capsys, "export", src, "--thickness", T, "--stl", tmp_path / "a.stl")[::2], 2, "--placement")
    one_line(*run(capsys, "export", src)[::2], 2, "nothing to export")
    (tmp_path / "afile").write_text("")
    one_line(*run(capsys, "export", tmp_path / "missing.fold", "--dxf", tmp_path / "afile" / "x.dxf")[::2], 2,
             "--dxf", "afile")
    one_line(*run(capsys, "export", src, "--placement", "tapered", "--dxf", tmp_path / "t.dxf")[::2], 2,
             "no thickness")
    one_line(*run(capsys, "export", src, "--thickness", 0.6, "--placement", "mid", "--stl", tmp_path / "a.stl")[::2],
             2, "--thickness", "panel 1", "inradius")
    svg = os.path.join(os.path.dirname(__file__), "data", "origami_simulator", "squareBase.svg")
    one_line(*run(capsys, "export", svg, "--thickness", 3e-3, "--placement", "tapered", "--3mf",
                  tmp_path / "w.3mf")[::2], 2, "--placement", "panel 2", "leave no panel")
    folded = pair_file(tmp_path, vertices=pair_folded(structure_of(row_fold(2, "V", [180.0])), 1.0), name="f.fold")
    one_line(*run(capsys, "export", folded, "--dxf", tmp_path / "f.dxf")[::2], 2, "not flat", "--frame 0")
    one_line(*run(capsys, "export", src, "--fold", src)[::2], 2, "never overwritten")
    assert not any(tmp_path.glob("*.stl")) and not (tmp_path / "t.dxf").exists()


def test_a_missing_package_is_one_line_with_its_pip_command(capsys, tmp_path, monkeypatch):
    """Without ezdxf (or meshio): one line naming it and its pip command, exit 2, before the analysis."""
    import sys

    monkeypatch.setitem(sys.modules, "ezdxf", None)        # import ezdxf raises ImportError
    one_line(*run(capsys, "export", pair_file(tmp_path), "--dxf", tmp_path / "x.dxf")[::2], 2, "ezdxf",
             "pip install ezdxf")
    monkeypatch.setitem(sys.modules, "meshio", None)
    code, out, err = run(capsys, "fold", pair_file(tmp_path), "--frames", 2, "--engine", "reference", "--vtk",
                         tmp_path / "v")
    one_line(code, err, 2, "--vtk", "meshio", "pip install meshio")
    assert out == "" and not (tmp_path / "v").exists()


# ------------------------------------------------------------------ any convex panel
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hs  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(hs.lists(hs.floats(0.0, 1.0), min_size=3, max_size=8, unique=True), hs.floats(0.05, 0.95),
       hs.sampled_from([("mid", "below"), ("offset", "below"), ("offset", "above")]),
       hs.lists(hs.floats(-3.0, 3.0), min_size=6, max_size=6))
def test_any_convex_panel_is_one_closed_outward_solid_of_area_times_thickness(fractions, f, placement, pose):
    """A convex polygon (its corners on a circle of radius 1 at random angles, at least 0.1 rad apart), anywhere in
    space (a random rotation and translation), of thickness f x its inradius: its mesh is watertight, wound
    outward, of volume area x t, between the placement's heights along the panel's normal. The volume (trimesh: the
    signed tetrahedra of the faces about the origin, here the vertices' mean) is exact to 1e-12 and a rounding of
    each tetrahedron, eps size^3 each: a sliver's small inradius makes that the larger."""
    from chrono_origami.crease.pattern import CreasePattern
    from chrono_origami.report.export import solid_meshes
    from chrono_origami.structure.solids import inradius
    from chrono_origami.structure.structure import Structure
    from chrono_origami.tools.geometry import newell_normal
    from scipy.spatial.transform import Rotation

    angles = np.sort(2 * np.pi * np.asarray(fractions))
    if np.min(np.diff(np.append(angles, angles[0] + 2 * np.pi))) < 0.1:
        return
    R = Rotation.from_rotvec(pose[:3]).as_matrix()
    X = np.stack([np.cos(angles), np.sin(angles), np.zeros_like(angles)], axis=1) @ R.T + pose[3:]
    t = f * inradius(X)
    pl = Placement(*placement)
    st = Structure(CreasePattern(X, [list(range(len(X)))]), thickness=t, placement=pl)
    [(p, V, F)] = solid_meshes(st)
    mesh = trimesh.Trimesh(V - V.mean(axis=0), F, process=False)
    area = 0.5 * np.linalg.norm(newell_normal(X))
    assert mesh.is_watertight and mesh.is_winding_consistent
    size = np.ptp(V, axis=0).max()
    assert abs(mesh.volume - area * t) <= 1e-12 * area * t + 16 * np.finfo(float).eps * len(F) * size ** 3
    m = newell_normal(X) / (2 * area)
    z = (V - X[0]) @ m
    lo, hi = pl.z_range(t)
    assert abs(z.min() - lo) <= 1e-12 and abs(z.max() - hi) <= 1e-12
