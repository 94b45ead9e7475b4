"""Chrono's contact check (``engines.chrono.contact``: the panels' solids as Bullet convex hulls) against the
closed forms of ``tests/test_thickness.py`` and the reference engine's separating-axis test: the same first
contact, to the fold step, on the pair, the C fold, a thick Miura-ori sheet and a thick Yoshimura wedge."""
import json
import sys

import numpy as np
import pytest

from chrono_origami.analysis.contact import fold_contacts
from chrono_origami.analysis.fold import fold_to_targets
from chrono_origami.structure import foldfile
from chrono_origami.structure.solids import PanelSolids, Placement
from chrono_origami.structure.structure import Structure
from test_cli_messages import run
from test_thickness import T, c_fold_contact_deg, c_fold_vertices, pair_folded, row_fold, structure_of

pytestmark = pytest.mark.chrono


def chrono_solids(st):
    from chrono_origami.engines.chrono.contact import ChronoPanelSolids

    return ChronoPanelSolids(st)


@pytest.mark.parametrize("placement, free, hit", [
    (None, [0.0], [0.5, 10.0]),
    (Placement("offset"), [0.0, 1.0, 60.0, 179.0, 180.0], []),
    (Placement("offset", "above"), [0.0], [1.0, 10.0]),
    (Placement("tapered", taper_deg=120.0), [30.0, 119.0, 119.9, 120.0], [120.1, 121.0]),
])
def test_the_pair_touches_where_the_closed_forms_say(placement, free, hit):
    """The two squares on a valley crease (closed forms in ``test_thickness``): mid and offset above meet at once,
    offset below never before 180 (face to face there), tapered to 120 at 120."""
    st = structure_of(row_fold(2, "V", [180.0]), placement=placement)
    C = chrono_solids(st)
    for deg in free:
        assert C.contacts(pair_folded(st, np.radians(deg))) == [], deg
    for deg in hit:
        assert [(p, q) for p, q, _ in C.contacts(pair_folded(st, np.radians(deg)))] == [(0, 1)], deg


def test_the_c_fold_outer_panels_meet_at_the_closed_form_angle():
    st = structure_of(row_fold(3, "VV", [180.0, 180.0]), placement=Placement("tapered", taper_deg=150.0))
    C = chrono_solids(st)
    rc = c_fold_contact_deg(T)
    assert C.contacts(c_fold_vertices(st, np.radians(rc - 0.01))) == []
    assert [(p, q) for p, q, _ in C.contacts(c_fold_vertices(st, np.radians(rc + 0.01)))] == [(0, 2)]


def test_fold_with_the_chrono_contact_engine(capsys, tmp_path):
    path = tmp_path / "pair.fold"
    path.write_text(json.dumps(row_fold(2, "V", [180.0], "pair")))
    code, out, err = run(capsys, "fold", path, "--thickness", T, "--placement", "tapered", "--taper-deg", 120,
                         "--frames", 36, "--quiet", "--engine", "reference", "--contact-engine", "chrono")
    assert code == 0, err
    assert "first at frame 25 (69.44 % of the targets): panels 1 and 2" in out


def sheets():
    """(name, flat pattern, FOLD notes with the targets, taper deg, a): a 4 x 4 Miura-ori sheet (sector 60 deg,
    sides 1) to the closed form's 170 deg fold (creases 170 and 175 deg), tapered to 150; the Yoshimura wedge
    (``patterns.yoshimura``) to its symmetric fold with vertical creases at 1.2 rad, tapered to 50 deg; a: the
    shortest crease."""
    from chrono_origami.patterns import miura
    from test_fold_targets import yoshimura_targets

    flat = miura.miura_pattern(4, 4, fold_angle_deg=0.0)
    ang = foldfile.fold_angles(flat, miura.miura_vertices(4, 4, fold_angle_deg=170.0))
    yield "Miura-ori", flat, ang, 150.0
    flat, targets = yoshimura_targets(1.2)
    hinge_of = {tuple(sorted(h.vertices)): h.index for h in flat.hinges}
    ang = [float(np.degrees(targets[hinge_of[e]])) if e in hinge_of else 0.0 for e in flat.edges]
    yield "Yoshimura", flat, ang, 50.0


@pytest.mark.parametrize("name", ["Miura-ori", "Yoshimura"])
def test_thick_sheets_first_contact_agrees_with_the_reference_engine(name):
    """Folded once to the targets in 25 frames (4 % each); for t/a = 0.02, 0.05, 0.1 (a the shortest crease) the
    first frame where two panels interpenetrate is the same by Bullet's hulls and by the separating axes, and
    the frame before it is free of contact in both."""
    _, flat, ang, taper = next(s for s in sheets() if s[0] == name)
    notes = {"fold": {"edges_assignment": foldfile.assignments(flat, ang), "edges_foldAngle": ang}}
    hist = fold_to_targets(Structure(flat, notes=notes), frame_interval=1 / 25, progress=False)
    a = min(np.linalg.norm(flat.vertices[h.vertices[0]] - flat.vertices[h.vertices[1]]) for h in flat.hinges)
    firsts = []
    for ratio in (0.02, 0.05, 0.1):
        st = Structure(flat, thickness=ratio * a, placement=Placement("tapered", taper_deg=taper), notes=notes)
        ref = fold_contacts(hist, 100.0, "reference", st)
        chr_ = fold_contacts(hist, 100.0, "chrono", st)
        assert ref.first is not None and ref.first == chr_.first, (ratio, ref.summary(), chr_.summary())
        firsts.append(ref.percents[ref.first])
    print(name, "first contact percent for t/a = 0.02, 0.05, 0.1:", firsts)


def test_the_chrono_bodies_show_the_solids():
    """A tapered panel's visual mesh is its solid: one triangle fan of k - 2 triangles per convex face of k
    vertices (the square prism's 6 faces and the bevel)."""
    from chrono_origami.engines.chrono.system import build_system

    st = structure_of(row_fold(2, "V", [180.0]), placement=Placement("tapered", taper_deg=120.0))
    faces = [P for p, P in PanelSolids(st).polygons(st.pattern.vertices) if p == 0]
    built = build_system(st, visual=True)
    mesh = built.panel_shapes[0].GetMesh()
    assert mesh.GetNumTriangles() == sum(len(P) - 2 for P in faces)


def test_chrono_bodies_carry_the_placed_mass():
    """Offset below: each panel body's centre of mass is the square's centroid moved by -t/2 along +z, its mass
    rho a^2 t; tapered: the mass of the bevelled solid (``structure_mass_properties``, closed form in
    ``test_thickness``)."""
    from chrono_origami.engines.chrono.links import arr
    from chrono_origami.engines.chrono.system import build_system
    from chrono_origami.structure.properties import structure_mass_properties

    for pl in (Placement("offset"), Placement("tapered", taper_deg=120.0)):
        st = structure_of(row_fold(2, "V", [180.0]), placement=pl)
        built = build_system(st, visual=False)
        m, c, _ = structure_mass_properties(st)
        for p, body in enumerate(built.bodies):
            assert abs(body.GetMass() - m[p]) <= 1e-15 * m[p]
            np.testing.assert_allclose(arr(body.GetPos()), c[p], atol=1e-15)
        if pl.technique == "offset":
            np.testing.assert_allclose(c[:, 2], -T / 2, atol=1e-15)


def test_the_viewer_draws_the_solids_and_marks_the_first_contact(tmp_path):
    """fold --png-frames --png-renderer irrlicht with thick panels: the two panels of the first contact are red
    (hue below 15 deg or above 345, saturated), a large part of the view of the last frame; without thickness
    none is."""
    from test_viewer import BAND, XVFB, load_png, xvfb
    from matplotlib.colors import rgb_to_hsv

    if XVFB is None:
        pytest.skip("xvfb-run is not installed (apt-get install xvfb xauth)")
    path = tmp_path / "pair.fold"
    path.write_text(json.dumps(row_fold(2, "V", [180.0], "pair")))
    red = []
    for name, extra in (("thick", ["--thickness", T, "--placement", "tapered", "--taper-deg", 120]), ("bare", [])):
        r = xvfb([sys.executable, "-m", "chrono_origami", "fold", path, "--frames", 4, "--quiet", "--engine",
                  "reference", "--png-frames", tmp_path / name, "--png-renderer", "irrlicht", *extra])
        assert r.returncode == 0, r.stderr
        img = load_png(sorted((tmp_path / name).iterdir())[-1])[BAND:] / 255.0
        hsv = rgb_to_hsv(img)
        reddish = (hsv[..., 0] < 15 / 360) | (hsv[..., 0] > 345 / 360)
        red.append(float((reddish & (hsv[..., 1] > 0.5)).mean()))
    assert red[0] > 0.03 and red[1] < 1e-3, red
