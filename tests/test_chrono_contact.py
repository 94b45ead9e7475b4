"""Chrono's contact check (``engines.chrono.contact``: the panels' solids as Bullet convex shapes) against the
closed forms of ``tests/test_thickness.py`` and the reference engine's separating-axis test: the same first
contact, to the fold step, on the pair, the C fold, a thick Miura-ori sheet (free to its targets) and a thick
Yoshimura strip (closing on itself)."""
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


def folded(flat, ang, percent, frames):
    """(notes with the targets ``ang`` (deg, per edge), the fold history to ``percent`` % in ``frames`` equal
    steps, a: the shortest crease)."""
    notes = {"fold": {"edges_assignment": foldfile.assignments(flat, ang), "edges_foldAngle": ang}}
    hist = fold_to_targets(Structure(flat, notes=notes), percent=percent, frame_interval=1 / frames, progress=False)
    a = min(np.linalg.norm(flat.vertices[h.vertices[0]] - flat.vertices[h.vertices[1]]) for h in flat.hinges)
    return notes, hist, a


def tapered(flat, notes, t):
    return Structure(flat, thickness=t, placement=Placement("tapered"), notes=notes)


def test_a_thick_miura_sheet_tapered_to_its_targets_folds_to_them_free():
    """A 4 x 4 Miura-ori sheet (sector 60 deg, sides 1) to the closed form's 170 deg fold (creases 170 and 175
    deg), tapered to each crease's target: no two panels interpenetrate anywhere up to 100 %, for t/a = 0.02, 0.05
    and 0.1, by either engine. Why: the bevels of a crease meet only at its target (``test_thickness``), and the
    panels that stack as the sheet closes, columns k and k + 2, are 2 a sin(psi) apart along their normal (psi
    -> (180 deg - theta) sin(alpha) / 2 near flat, ``patterns.miura``), while a panel bevelled on both straight
    creases to theta keeps at most w tan((180 deg - theta) / 2) ~ w (180 deg - theta) / 2 of material across its
    width w = a sin(alpha): twice the gap is never reached. Folding past the targets is not a fold of this
    structure, so the Miura-ori sheet tapered to its targets has no first contact; the Yoshimura strip below
    does."""
    from chrono_origami.patterns import miura

    flat = miura.miura_pattern(4, 4, fold_angle_deg=0.0)
    ang = foldfile.fold_angles(flat, miura.miura_vertices(4, 4, fold_angle_deg=170.0))
    notes, hist, a = folded(flat, ang, 100.0, 25)
    for ratio in (0.02, 0.05, 0.1):
        for engine in ("reference", "chrono"):
            c = fold_contacts(hist, 100.0, engine, tapered(flat, notes, ratio * a))
            # frames are labelled by the percent they reached (a projection of the fold angles on the targets'
            # change): 100 to the fold's accuracy, not to the bit
            assert c.first is None and c.percents[-1] == pytest.approx(100.0, rel=1e-12, abs=0), \
                (ratio, engine, c.summary())
    print("Miura-ori sheet, tapered to its targets: no contact up to 100 % for t/a = 0.02, 0.05, 0.1")


def polygon_gaps(flat, Xs, pairs):
    """Per frame and panel pair (p, q): the largest separation of the two flat panels (zero thickness) over the
    separating axes (their normals, in-plane edge normals, edge-edge cross products): a lower bound of their
    distance, positive apart, negative when they cross. ``Xs``: the frames' vertices (F, V, 3); returns (F, pairs).
    The panels' axes are made for every frame at once, one stack per number of corners, and the pairs of every frame
    go to ``penetration`` as one batch per shape (pairs of panels with as many corners each)."""
    from chrono_origami.structure.solids import penetration
    from chrono_origami.tools.geometry import newell_normal

    Xs = np.asarray(Xs, float)
    F = len(Xs)
    used = sorted({p for pair in pairs for p in pair})
    poly = {}                                        # panel -> (vertices, axes, edges), each (F, ., 3)
    for k in sorted({len(flat.panels[p]) for p in used}):
        group = [p for p in used if len(flat.panels[p]) == k]
        P = Xs[:, [list(flat.panels[p]) for p in group]]                     # (F, panels, k, 3)
        m = newell_normal(P)
        # each normal's length as np.linalg.norm of one vector takes it (its dot product): the gaps bitwise those of
        # one panel at a time
        m /= np.sqrt([v @ v for v in m.reshape(-1, 3)]).reshape(m.shape[:-1] + (1,))
        e = np.roll(P, -1, axis=-2) - P
        e /= np.linalg.norm(e, axis=-1)[..., None]
        axes = np.concatenate([m[..., None, :], np.cross(m[..., None, :], e)], axis=-2)
        for j, p in enumerate(group):
            poly[p] = (P[:, j], axes[:, j], e[:, j])
    out = np.empty((F, len(pairs)))
    by_shape = {}
    for i, (p, q) in enumerate(pairs):
        by_shape.setdefault((len(flat.panels[p]), len(flat.panels[q])), []).append(i)
    for ks in by_shape.values():
        A = [np.stack([poly[pairs[i][0]][c] for i in ks], axis=1).reshape(F * len(ks), -1, 3) for c in range(3)]
        B = [np.stack([poly[pairs[i][1]][c] for i in ks], axis=1).reshape(F * len(ks), -1, 3) for c in range(3)]
        out[:, ks] = -penetration(*A, *B).reshape(F, len(ks))
    return out


def test_a_thick_yoshimura_strip_closes_on_itself_earlier_the_thicker_it_is():
    """A Yoshimura strip (``patterns.yoshimura.strip_pattern(12)``: 24 triangles of the wedge's, long side 1.8,
    base angle 22.5 deg, a = 0.974 the shortest crease) folded symmetrically to vertical creases at 2.0 rad (the
    wedge's degree-6 closed form) curls about x and closes on itself before 76 % of its targets: the apex of one
    zigzag end enters the other end, panels that share no crease nor vertex, obliquely (the two triangles of an
    end, which share only their apex, close on each other later, near 77 %). Tapered to each crease's target (a
    crease's bevels meet only at its target), the first contact for t/a = 0.02, 0.05, 0.1 is such a pair of the
    two ends, the same frame (steps of 0.25 % of the targets) by both engines, and earlier the thicker the
    panels.

    A bound brackets it. Every point of a tapered solid lies within t/2 of its panel (inside the mid prism), and
    the panel lies inside its solid (the bevels pass through the crease lines on the mid-surface). So two solids
    cannot meet while their flat panels are farther apart than t, and must meet once the flat panels cross: the
    first contact of thickness t between panels that share no vertex is no earlier than the first frame at
    which two such panels are within t along every separating axis (a lower bound of their distance;
    :func:`polygon_gaps`) and no later than the frame at which two such panels cross (the zero-thickness first
    contact)."""
    from chrono_origami.patterns.yoshimura import strip_pattern
    from test_fold_targets import yoshimura_folded_angles

    flat = strip_pattern(12)
    v, i = (float(np.degrees(x)) for x in yoshimura_folded_angles(2.0))
    hinges = {tuple(sorted(h.vertices)) for h in flat.hinges}
    ang = [(v if abs(flat.vertices[e[0], 0] - flat.vertices[e[1], 0]) < 1e-12 else i) if e in hinges else 0.0
           for e in flat.edges]
    notes, hist, a = folded(flat, ang, 76.0, 304)
    far = [(p, q) for p in range(flat.n_panels) for q in range(p + 1, flat.n_panels)
           if not set(flat.panels[p]) & set(flat.panels[q])]
    gaps = polygon_gaps(flat, hist.vertices, far)                               # (frames, pairs)
    crossed = int(np.argmax(gaps.min(axis=1) < 0))
    assert crossed > 0
    percents = []
    for ratio in (0.02, 0.05, 0.1):
        st = tapered(flat, notes, ratio * a)
        ref = fold_contacts(hist, 76.0, "reference", st)
        chr_ = fold_contacts(hist, 76.0, "chrono", st)
        k = ref.first
        assert k is not None and chr_.first == k, (ratio, ref.summary(), chr_.summary())
        p, q, _ = ref.pairs[k][0]
        assert not set(flat.panels[p]) & set(flat.panels[q]), (ratio, p, q)       # not even a vertex shared
        assert {p, q} & {0, 1} and {p, q} & {flat.n_panels - 2, flat.n_panels - 1}, (ratio, p, q)   # the two ends
        near = int(np.argmax(gaps.min(axis=1) <= ratio * a))
        assert near <= k <= crossed, (ratio, near, k, crossed)
        percents.append(ref.percents[k])
    print("Yoshimura strip, tapered: first contact percent for t/a = 0.02, 0.05, 0.1:", percents,
          f"(flat panels cross at {hist.times[crossed] / float(hist.problem.duration) * 76.0:.4g} %)")
    assert percents[0] > percents[1] > percents[2], percents


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
    runs = (("thick", ["--thickness", T, "--placement", "tapered", "--taper-deg", 120]), ("bare", []))
    # both commands in one interpreter under one xvfb-run: the command line's main, as python -m chrono_origami runs it
    script = "from chrono_origami.cli import main\n"
    for name, extra in runs:
        argv = [str(a) for a in ("fold", path, "--frames", 4, "--quiet", "--engine", "reference", "--png-frames",
                                 tmp_path / name, "--png-renderer", "irrlicht", *extra)]
        script += f"print({name!r}, main({argv!r}))\n"
    r = xvfb([sys.executable, "-c", script])
    assert r.returncode == 0, r.stderr
    assert [line for line in r.stdout.splitlines() if line.split()[0] in ("thick", "bare")] == ["thick 0", "bare 0"], \
        r.stdout + r.stderr
    red = []
    for name, _ in runs:
        img = load_png(sorted((tmp_path / name).iterdir())[-1])[BAND:] / 255.0
        hsv = rgb_to_hsv(img)
        reddish = (hsv[..., 0] < 15 / 360) | (hsv[..., 0] > 345 / 360)
        red.append(float((reddish & (hsv[..., 1] > 0.5)).mean()))
    assert red[0] > 0.03 and red[1] < 1e-3, red


#: thin panels: t / L (L = sqrt(5), the pattern size of two unit squares: its bounding box's diagonal), and
#: t = 0.001 itself (t / L = 4.5e-4)
THIN = (0.001 / np.sqrt(5.0), 0.001, 0.002, 0.005)


@pytest.mark.parametrize("ratio", THIN)
@pytest.mark.parametrize("engine", ["reference", "chrono"])
def test_thin_pairs_meet_where_the_closed_forms_say(capsys, tmp_path, ratio, engine):
    """Thin panels (t/L = 4.5e-4 to 5e-3: 1-3 mm on metres), through ``check --thickness`` (frames of 1 % of the
    180 deg targets, 1.8 deg): tapered to 90 deg the pair folds free to 90 deg (50 %, the bevels face to face)
    and interpenetrates at 51 %; mid, and offset below on a mountain crease, meet at once (1 %). Chrono's shapes
    once lost the thin panels' contact (99 %, 20 %, 18 % at t = 0.001)."""
    t = ratio * np.sqrt(5.0)
    for letter, placement, reach in (("V", ["tapered", "--taper-deg", 90], 50), ("V", ["mid"], 0),
                                     ("M", ["offset"], 0)):
        path = tmp_path / f"{letter}.fold"
        path.write_text(json.dumps(row_fold(2, letter, [180.0 if letter == "V" else -180.0], "pair")))
        code, out, err = run(capsys, "check", path, "--thickness", t, "--placement", *placement,
                             "--contact-engine", engine)
        assert code == 0, err
        assert (f"the fold reaches {reach} % of its targets before contact (frames of 1 %); panels 1 and 2 "
                f"interpenetrate at {reach + 1} %") in out, (placement, out)


def test_check_refuses_chrono_for_too_thin_panels_before_it_folds(capsys, tmp_path, monkeypatch):
    """``check --thickness T --contact-engine chrono`` with panels below Chrono's resolution (1e-6 of the pair's
    size): one line, exit 1, and no fold spent on it (the range of motion's fold is never called)."""
    import chrono_origami.analysis.fold as fold_module

    def no_fold(*a, **k):
        raise AssertionError("folded before the refusal")

    monkeypatch.setattr(fold_module, "fold_to_targets", no_fold)
    path = tmp_path / "pair.fold"
    path.write_text(json.dumps(row_fold(2, "V", [180.0], "pair")))
    code, out, err = run(capsys, "check", path, "--thickness", 1e-6 * np.sqrt(5.0), "--contact-engine", "chrono")
    assert code == 1 and len(err.splitlines()) == 1 and "use --contact-engine reference" in err, err
    assert "range of motion" not in out, out


@pytest.mark.parametrize("engine", ["reference", "chrono"])
def test_fold_of_a_thin_tapered_pair_stops_at_its_taper_angle(capsys, tmp_path, engine):
    """``fold`` (frames of 5 % of the 180 deg target) of two unit squares at t = 0.001 tapered to 90 deg: the
    bevels meet at 90 deg, 50 %: the first contact is frame 11, 55 % (Chrono said 100 %)."""
    path = tmp_path / "pair.fold"
    path.write_text(json.dumps(row_fold(2, "V", [180.0], "pair")))
    code, out, err = run(capsys, "fold", path, "--thickness", 0.001, "--placement", "tapered", "--taper-deg", 90,
                         "--frames", 20, "--quiet", "--engine", "reference", "--contact-engine", engine)
    assert code == 0, err
    assert "first at frame 11 (55 % of the targets): panels 1 and 2" in out, out


def test_the_chrono_check_measures_the_thin_pairs_depth():
    """The depth Chrono reports is the solids' (the two insets added back): two squares of thickness 0.002,
    mid placement, turned by 10 deg: the closed form t/2 sin(10 deg) (the corners of the crease's end faces
    crossing), to EPA's accuracy: it stops at 1e-4 of Chrono's length unit (``contact.SIZE`` units to the
    pattern size; measured 1.8e-4 units here), allowed 1e-3; a flat pair is no contact."""
    from chrono_origami.engines.chrono.contact import SIZE

    st = structure_of(row_fold(2, "V", [180.0]), thickness=0.002, placement=Placement("mid"))
    C = chrono_solids(st)
    assert C.contacts(pair_folded(st, 0.0)) == []
    ref = PanelSolids(st).contacts(pair_folded(st, np.radians(10.0)))
    got = C.contacts(pair_folded(st, np.radians(10.0)))
    assert [(p, q) for p, q, _ in got] == [(0, 1)]
    assert ref[0][2] == pytest.approx(0.001 * np.sin(np.radians(10.0)), rel=1e-12)
    assert got[0][2] == pytest.approx(ref[0][2], abs=1e-3 * C.L / SIZE)


def test_thin_panels_are_refused_by_chrono_and_checked_by_the_reference_engine():
    """Extreme thinness, t/L = 1e-6 to 1e-3 (L the pattern size): on a 4 x 4 Miura-ori sheet, whose panels share
    crease pairs and corner pairs (panels meeting at a vertex only), Chrono's check refuses in one line naming
    the thickness against the largest panel or the pattern and the limit (Bullet's EPA misplaced such corner pairs'
    depths by 1e-4 of the panel size; below 1.5e-5 L the depth tolerance 100 sqrt(eps) L is a tenth of the
    thickness); the automatic choice checks by the reference engine instead, with that line as a note. The closed
    forms, mid placement: the flat sheet has no contact, and folded by 1 deg every crease pair meets (the mid
    surfaces turn about the crease: depth t/2 sin(rho) at the crease's ends). Two squares (no corner pair) are
    refused by the pattern-size rule alone, and from 1e-4 L on Chrono finds the mid crease at 10 deg, as the
    closed form."""
    from chrono_origami.engines.chrono.contact import depth_tolerance
    from chrono_origami.patterns import miura
    from chrono_origami.tools.errors import OrigamiError, ThinPanelError

    flat = miura.miura_pattern(4, 4, fold_angle_deg=0.0)
    notes, hist, a = folded(flat, foldfile.fold_angles(flat, miura.miura_vertices(4, 4, fold_angle_deg=170.0)),
                            1.0, 2)
    L = PanelSolids(Structure(flat, thickness=0.01)).L
    creases = {tuple(sorted(h.panels)) for h in flat.hinges}
    for r in (1e-6, 1e-5, 1e-4, 1e-3):
        st = Structure(flat, thickness=r * L, notes=notes)
        with pytest.raises(OrigamiError) as e:
            chrono_solids(st)
        assert isinstance(e.value, ThinPanelError) and "\n" not in str(e.value)
        assert str(e.value) == (e.value.reason
                                + ": use --contact-engine reference (separating axes: depths above 1e-9 L)")
        assert ("of the pattern's size" if r < 1.5e-5 else "of the largest panel's size") in str(e.value), r
        with pytest.raises(OrigamiError):
            fold_contacts(hist, 1.0, "chrono", st)
        c = fold_contacts(hist, 1.0, None, st)
        assert c.pairs[0] == [] and c.first == 1, r
        assert creases <= {(p, q) for p, q, _ in c.pairs[1]}, r
        assert c.pairs == fold_contacts(hist, 1.0, "reference", st).pairs
    pair = row_fold(2, "V", [180.0])
    L = PanelSolids(structure_of(pair)).L           # the pair's diagonal, sqrt(5)
    for r, refused in ((1e-6, True), (1e-5, True), (1e-4, False), (1e-3, False)):
        st = structure_of(pair, thickness=r * L)
        if refused:
            with pytest.raises(OrigamiError, match="of the pattern's size 2.236: "):
                chrono_solids(st)
            continue
        C, R = chrono_solids(st), PanelSolids(st)
        assert C.contacts(pair_folded(st, 0.0)) == [] == R.contacts(pair_folded(st, 0.0))
        (p, q, d), = C.contacts(pair_folded(st, np.radians(10.0)))
        (_, _, dr), = R.contacts(pair_folded(st, np.radians(10.0)))
        assert (p, q) == (0, 1) and abs(d - dr) <= depth_tolerance(L), (r, d, dr)
        assert abs(dr - r * L / 2 * np.sin(np.radians(10.0))) <= 1e-9 * L, (r, dr)


def test_origami_simulators_miura_thin_is_checked_by_the_reference_engine(capsys, tmp_path):
    """Origami Simulator's miura-ori.svg (panels 128.7 px across, L = 1540 px), t = 0.002 (t/L = 1.3e-6): Chrono's
    check, which reported crease pairs of the flat sheet 0.0128 deep, refuses by name; the automatic choice
    finds the reference engine's contact: the flat frame free, the crease pairs meeting at the first folded
    frame (mid placement: at once), 287 pairs as in the fold to 20 % (frames of 1 %)."""
    import shutil
    from pathlib import Path

    src = Path(__file__).parent / "data" / "origami_simulator" / "miura-ori.svg"
    shutil.copy(src, tmp_path)
    args = ("fold", tmp_path / "miura-ori.svg", "--fix-geometry", "--percent", 2, "--frames", 2, "--thickness",
            0.002, "--quiet")
    code, out, err = run(capsys, *args, "--contact-engine", "chrono", "--out", tmp_path / "c")
    assert code == 1 and err.splitlines()[-1] == (
        "error: miura-ori: panel 1's thickness 0.002 is 1.3e-06 of the pattern's size 1540: Chrono's contact check "
        "resolves depths of 0.0023 (100 sqrt(eps) L) and needs panels at least 1.5e-05 L = 0.0229 thick: use "
        "--contact-engine reference (separating axes: depths above 1e-9 L)"), err
    assert out == "" and not (tmp_path / "c").exists(), out          # refused before the fold: nothing folded
    code, out, err = run(capsys, *args, "--out", tmp_path / "a")
    assert code == 0, err
    assert "the contact check runs on the reference engine" in err
    line = [x for x in out.splitlines() if x.startswith("contact (mid)")][0]
    # frame 1 of 20 toward 20 %: labelled by the percent it reached, 0.6055 % on the flat start's slow branch
    assert line.startswith("contact (mid): first at frame 1 (0.6055 % of the targets): panels ") and \
        "(and 286 more pairs); the last frame free of contact is 0 (0 % of the targets)" in line, line
