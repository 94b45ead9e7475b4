"""Thick panels: where the volume sits (``structure.solids``), its mass, the panels' contact (``analysis.contact``)
and the range of motion, against closed forms derived in each test's docstring.

Frames: panel 1 of a pair is [0, a] x [0, a] in z = 0 (normal +z), panel 2 is [-a, 0] x [0, a], the crease on
x = 0. A valley fold by rho (FOLD sign, positive) turns panel 2 about the crease so that its far edge goes to
x = -a cos(rho), z = a sin(rho): the +z faces close toward each other (``crease.pattern.hinge_rotations``).
"""
import json

import numpy as np
import pytest

from chrono_origami.analysis.static import count, static
from chrono_origami.crease.pattern import CreasePattern, hinge_rotations
from chrono_origami.structure import foldfile
from chrono_origami.structure.properties import panels_mass_properties, structure_mass_properties
from chrono_origami.structure.solids import DEPTH_RTOL, PanelSolids, Placement, inradius, penetration, polytope
from chrono_origami.structure.structure import Load, Structure, Support
from chrono_origami.tools.errors import FoldFileError
from test_cli_messages import one_line, run

A, T = 1.0, 0.1


def row_fold(n, letters, angles, title="row"):
    """A FOLD dict of ``n`` squares of side A in a row along -x .. (panel 1 = [0, A]^2, panel k + 1 to the left of
    panel k), creases x = -(k - 1) A with ``letters`` and target ``angles`` (deg)."""
    X = [[-float(i) * A, y, 0.0] for i in range(n + 1) for y in (0.0, A)]       # vertex 2i: (-iA, 0), 2i+1: (-iA, A)
    X = [[A, 0.0, 0.0], [A, A, 0.0]] + X
    # vertices: 0 (A,0), 1 (A,A), then 2 + 2i = (-iA, 0), 3 + 2i = (-iA, A)
    faces = [[0, 1, 3, 2]] + [[2 + 2 * i, 3 + 2 * i, 5 + 2 * i, 4 + 2 * i][::-1] for i in range(n - 1)]
    faces = [f if np.cross(np.subtract(X[f[1]], X[f[0]]), np.subtract(X[f[2]], X[f[1]]))[2] > 0 else f[::-1]
             for f in faces]
    edges, assign, fold = [], [], []
    for f in faces:
        for k in range(4):
            e = sorted((f[k], f[(k + 1) % 4]))
            if e not in edges:
                edges.append(e)
                assign.append("B")
                fold.append(0.0)
    for i in range(n - 1):
        e = edges.index(sorted((2 + 2 * i, 3 + 2 * i)))
        assign[e], fold[e] = letters[i], angles[i]
    return {"file_spec": 1.2, "file_title": title, "vertices_coords": X, "faces_vertices": faces,
            "edges_vertices": edges, "edges_assignment": assign, "edges_foldAngle": fold}


def structure_of(d, thickness=T, placement=None):
    st = foldfile.read_structure(d)
    return Structure(st.pattern, st.hinge_kinds, thickness, st.density, name=st.name, notes=st.notes,
                     placement=placement)


def pair_folded(st, rho):
    """Vertices of the pair with panel 2 turned by the valley fold angle ``rho`` (rad) about the crease x = 0."""
    X = st.pattern.vertices.copy()
    for v in range(len(X)):
        if X[v, 0] < -1e-12:
            X[v] = [X[v, 0] * np.cos(rho), X[v, 1], -X[v, 0] * np.sin(rho)]
    return X


def fold_deg(st, X):
    return float(np.degrees(-hinge_rotations(st.pattern, X))[0])


# ------------------------------------------------------------------ the penetration depth
def cube(o=(0, 0, 0), R=np.eye(3)):
    C = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float) - 0.5
    return (C @ R.T + o, R.T.copy(), R.T.copy())


def test_penetration_depth_of_two_cubes_is_the_least_overlap():
    """Two unit cubes, axis-aligned, B moved by (1 - d1, 1 - d2, 1 - d3): the Minkowski difference is the cube of
    side 2 about that offset, whose boundary is nearest the origin across the face of least d: depth min(d).
    A gap g along x: depth -g. Rotated by 45 deg about z and moved so that its vertical edge enters A's face
    x = 1/2 by d: the edge-face depth is d (the difference's face is A's face)."""
    for d in ([0.3, 0.2, 0.5], [0.01, 0.9, 0.4]):
        VA, NA, EA = cube()
        VB, NB, EB = cube(np.subtract(1.0, d))
        got = penetration(VA[None], NA[None], EA[None], VB[None], NB[None], EB[None])[0]
        assert abs(got - min(d)) <= 1e-14
    VB, NB, EB = cube((1.0 + 0.25, 0.0, 0.0))
    assert abs(penetration(VA[None], NA[None], EA[None], VB[None], NB[None], EB[None])[0] + 0.25) <= 1e-14
    c, s = np.cos(np.pi / 4), np.sin(np.pi / 4)
    R = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    d = 0.05
    VB, NB, EB = cube((0.5 + np.sqrt(0.5) - d, 0.0, 0.0), R)
    assert abs(penetration(VA[None], NA[None], EA[None], VB[None], NB[None], EB[None])[0] - d) <= 1e-14


def test_polytope_of_a_box_and_the_inradius_of_polygons():
    """The half-spaces of [0, 2] x [0, 1] x [0, 3] give its 8 corners, 6 faces, 3 edge directions; the inradius of
    a 2 x 1 rectangle is 1/2, of the 3-4-5 triangle (area 6, perimeter 12) 2 A / perimeter = 1."""
    Aa = np.r_[np.eye(3), -np.eye(3)]
    V, N, E = polytope(Aa, np.r_[2.0, 1.0, 3.0, 0, 0, 0], 3.0)
    assert len(V) == 8 and len(N) == 6 and len(E) == 3
    assert set(map(tuple, np.round(V))) == {(x, y, z) for x in (0, 2) for y in (0, 1) for z in (0, 3)}
    assert abs(inradius([[0, 0, 0], [2, 0, 0], [2, 1, 0], [0, 1, 0]]) - 0.5) <= 1e-14
    assert abs(inradius([[0, 0, 0], [4, 0, 0], [0, 3, 0]]) - 1.0) <= 1e-14


# ------------------------------------------------------------------ mass where the volume sits
def test_offset_moves_the_centre_of_mass_half_a_thickness_and_tapered_removes_the_bevel_wedge():
    """Square of side a, thickness t, density rho: the mid prism has m = rho a^2 t at the centroid. Offset below
    (-t <= z <= 0) is that prism moved by -t/2 along the normal: the same mass and inertia about the centre of
    mass, the centre at z = -t/2 (above: +t/2). Tapered to rho_c on the valley crease x = 0: the bevel keeps
    z <= x tan(beta), beta = (180 - rho_c) / 2, and removes the prism of cross-section the triangle (0, 0),
    (0, t/2), (t / (2 tan beta), t/2) and length a: volume a t^2 / (8 tan beta), centroid (t / (6 tan beta),
    a/2, t/3); the rest has m = rho (a^2 t - that) and its centre at minus the wedge's moment over the rest."""
    rho = 3.0
    d = row_fold(2, "V", [180.0])
    m0, c0, J0 = panels_mass_properties(structure_of(d).pattern, T, rho)
    for side, sign in (("below", -1), ("above", 1)):
        st = Structure(structure_of(d).pattern, thickness=T, density=rho, placement=Placement("offset", side))
        m, c, J = structure_mass_properties(st)
        np.testing.assert_allclose(m, rho * A * A * T, rtol=1e-14)
        np.testing.assert_allclose(c, c0 + [0, 0, sign * T / 2], atol=1e-15)
        np.testing.assert_allclose(J, J0, atol=1e-16)
    st = structure_of(d, placement=Placement("tapered", taper_deg=120.0))
    st = Structure(st.pattern, thickness=T, density=rho, notes=st.notes, placement=st.placement)
    m, c, J = structure_mass_properties(st)
    tb = np.tan(np.radians((180 - 120) / 2))
    Vw = A * T * T / (8 * tb)
    assert abs(m[0] - rho * (A * A * T - Vw)) <= 1e-14
    cw = np.array([T / (6 * tb), A / 2, T / 3])                    # panel 1's wedge at its crease x = 0
    expect = (A * A * T * np.array([A / 2, A / 2, 0]) - Vw * cw) / (A * A * T - Vw)
    np.testing.assert_allclose(c[0], expect, atol=1e-14)


def strip_structure(placement):
    """Two unit squares on a door hinge, panel 1 held (6 rows), panel 2 held in z at its far corners
    (``tests/test_kinds_closed_form.two_squares``) with loads on panel 2."""
    X = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0]]
    pat = CreasePattern(X, [(0, 1, 4, 3), (1, 2, 5, 4)])
    sups = (Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z"), Support(5, 1, "z"))
    loads = (Load(5, (0.4, -0.3, -1.0), 1), Load(2, (0.1, 0.2, -0.7), 1))
    return Structure(pat, thickness=T, density=2.0, supports=sups, loads=loads, placement=placement)


def test_placement_changes_neither_counts_nor_hinge_forces():
    """The hinge axes stay on the pattern: the constraint Jacobian, so M, S and the hinge actions under vertex
    loads are the same for every placement; only the mass properties differ."""
    base = static(strip_structure(None), "reference")
    c0 = count(strip_structure(None), "reference")
    for pl in (Placement("offset"), Placement("offset", "above"), Placement("tapered", taper_deg=90.0)):
        st = strip_structure(pl)
        c = count(st, "reference")
        assert (c.M, c.S, c.rank) == (c0.M, c0.S, c0.rank)
        r = static(st, "reference")
        for a, b in zip(r.hinge_actions, base.hinge_actions):
            np.testing.assert_allclose(a.values, b.values, atol=1e-12)
        assert not np.allclose(structure_mass_properties(st)[1], structure_mass_properties(strip_structure(None))[1])


# ------------------------------------------------------------------ two squares on one valley crease
def depth_at(placement, deg, taper_targets=(180.0,)):
    st = structure_of(row_fold(2, "V", list(taper_targets)), placement=placement)
    X = pair_folded(st, np.radians(deg))
    assert abs(fold_deg(st, X) - deg) <= 1e-9
    S = PanelSolids(st)
    V, N, E = S.at(X)
    return float(penetration(V[:1], N[:1], E[:1], V[1:], N[1:], E[1:])[0]), S.contacts(X)


def test_offset_below_folds_freely_to_180_and_touches_there_face_to_face():
    """Offset below: each panel is the quadrant {y >= 0, z <= 0} of its own frame near the crease (y from the
    crease into the panel); a valley fold by rho turns panel 2's quadrant, whose directions span the angles
    [180 - rho, 270 - rho] in panel 1's (y, z) plane, against panel 1's [270, 360]: they overlap only for
    rho < 0 and meet along the direction 0 deg, the two +z faces, at rho = 180. So for 0 < rho <= 180 the two
    solids only touch (depth 0: they share the crease line), and at 180 face to face: panel 1 in -t <= z <= 0,
    panel 2 turned over onto it in 0 <= z <= t, over the same square."""
    pl = Placement("offset")
    for deg in (1.0, 60.0, 120.0, 179.0, 180.0):
        d, contacts = depth_at(pl, deg)
        assert abs(d) <= DEPTH_RTOL * A and not contacts
    st = structure_of(row_fold(2, "V", [180.0]), placement=pl)
    V = PanelSolids(st).at(pair_folded(st, np.pi))[0]
    np.testing.assert_allclose([V[0, :, 2].min(), V[0, :, 2].max(), V[1, :, 2].min(), V[1, :, 2].max()],
                               [-T, 0, 0, T], atol=1e-15)
    np.testing.assert_allclose(np.sort(np.unique(np.round(V[1, :, :2], 12), axis=0), axis=0),
                               np.sort(np.unique(np.round(V[0, :, :2], 12), axis=0), axis=0), atol=1e-12)


def test_offset_above_and_mid_touch_at_once():
    """Offset above: panel 1 is {y >= 0, 0 <= z <= t} and panel 2 after a valley fold rho enters it at once: its
    crease corner (0, t) turns to (t sin rho, t cos rho), inside panel 1. Mid: both solids are prisms along the
    crease x over the same [0, a], so every separating axis (face normals, edge cross products) is x (overlap a)
    or lies in the (y, z) section, where the rectangles' normals are panel 1's y, z and panel 2's turned ones:
    along y panel 1 spans [0, a] and panel 2 [-a cos rho - (t/2) sin rho, (t/2) sin rho] (its crease corner
    (0, t/2) turned), overlap (t/2) sin rho; along z panel 1 spans [-t/2, t/2] and panel 2 from -(t/2) cos rho
    up, overlap (t/2)(1 + cos rho); panel 2's normals give the same by the mirror symmetry about the bisector.
    So the depth is (t/2) min(sin rho, 1 + cos rho) = (t/2) sin rho for rho <= 90 deg (tan(rho/2) <= 1).
    Flat (rho = 0): the end faces only touch."""
    for deg in (0.5, 10.0, 45.0):
        rho = np.radians(deg)
        d, contacts = depth_at(Placement("offset", "above"), deg)
        assert contacts and d > 0
        d, contacts = depth_at(None, deg)
        assert contacts and abs(d - T / 2 * np.sin(rho)) <= 1e-14
    for pl in (None, Placement("offset", "above")):
        d, contacts = depth_at(pl, 0.0)
        assert abs(d) <= 1e-15 and not contacts


def test_tapered_to_120_folds_freely_to_120_and_touches_there():
    """Tapered to rho_c = 120 deg: each crease edge keeps z <= y tan(beta), beta = (180 - rho_c)/2 = 30 deg, so
    near the crease panel 1 spans the directions [-90, beta] and panel 2, after a valley fold rho, [180 - beta -
    rho, 270 - rho]: they overlap when 180 - beta - rho < beta, i.e. rho > 180 - 2 beta = rho_c. Free up to 120
    (touching along the crease line only, depth 0), the two bevels face to face there, interpenetrating past it."""
    pl = Placement("tapered", taper_deg=120.0)
    for deg in (30.0, 119.0, 119.999, 120.0):
        d, contacts = depth_at(pl, deg)
        assert abs(d) <= DEPTH_RTOL * A and not contacts
    d, contacts = depth_at(pl, 120.01)
    assert contacts and d > 0


# ------------------------------------------------------------------ three squares folded together (a C fold)
def c_fold_vertices(st, rho):
    """Panel 1 = [0, A]^2 held, panel 2 = [-A, 0] x [0, A], panel 3 = [-2A, -A] x [0, A], both creases valley by
    ``rho``: panel 2 turned about x = 0, panel 3 by 2 rho about the moved crease."""
    X = st.pattern.vertices.copy()
    c1 = np.array([-A * np.cos(rho), 0, A * np.sin(rho)])
    for v in range(len(X)):
        x = X[v, 0]
        if -A - 1e-12 <= x < -1e-12:
            X[v] = [x * np.cos(rho), X[v, 1], -x * np.sin(rho)]
        elif x < -A - 1e-12:
            s = -(x + A)
            X[v] = c1 + [-s * np.cos(2 * rho), X[v, 1], s * np.sin(2 * rho)]
    return X


def c_fold_contact_deg(t, a=A):
    """The fold angle at which the outer panels of a C fold first meet, inner material t/2 at their free edges.

    The middle panel is [0, a] in the (x, z) section; the outer panels turn up by rho about x = 0 and x = a. The
    left one's free edge is at (-a cos rho, a sin rho), its inner face (toward the triangle the three make) a
    distance t/2 inside: the inner corner is at x = -a cos rho + (t/2) sin rho, and the right panel's is its
    mirror about x = a/2. The corners, the points of the two panels nearest that plane, meet on it when
    (t/2) sin rho - a cos rho = a/2, i.e. sqrt(a^2 + t^2/4) sin(rho - phi) = a/2 with phi = atan(2a/t):
    rho = atan(2a/t) + asin(a / sqrt(4a^2 + t^2)), which is 90 + 30 = 120 deg at t = 0 (the equilateral
    triangle) and earlier for t > 0."""
    return np.degrees(np.arctan2(2 * a, t) + np.arcsin(a / np.sqrt(4 * a * a + t * t)))


def test_c_fold_tapered_outer_panels_meet_at_the_closed_form_angle():
    """Tapered to 150 deg (beta = 15 deg: the bevel reaches the inner face t/2 at t / (2 tan 15) = 0.19 a from the
    crease, so the free edges keep the full inner half t/2): panels 1 and 3, sharing no crease, meet first, at
    ``c_fold_contact_deg`` (117.10 deg for t = 0.1 a), before the creases' bevels (150)."""
    st = structure_of(row_fold(3, "VV", [180.0, 180.0]), placement=Placement("tapered", taper_deg=150.0))
    S = PanelSolids(st)
    rc = c_fold_contact_deg(T)
    assert 117.0 < rc < 117.2
    assert S.contacts(c_fold_vertices(st, np.radians(rc - 1e-3))) == []
    assert S.contacts(c_fold_vertices(st, np.radians(rc))) == []
    got = S.contacts(c_fold_vertices(st, np.radians(rc + 1e-3)))
    assert [(p, q) for p, q, _ in got] == [(0, 2)]


def test_c_fold_tapered_to_180_meets_at_120_whatever_the_thickness():
    """Tapered to 180 deg: beta = 0, every bevel keeps z <= 0, the side the valley creases open away from: the
    panels lie outside the triangle the pattern makes and the inner corners of the free edges are the pattern's
    edges themselves. They meet where the zero-thickness panels do: at 120 deg, earlier by 0 (the closed form of
    ``c_fold_contact_deg`` with no inner material, t -> 0)."""
    for t in (0.02, 0.1):
        st = structure_of(row_fold(3, "VV", [180.0, 180.0]), thickness=t, placement=Placement("tapered"))
        S = PanelSolids(st)
        assert S.contacts(c_fold_vertices(st, np.radians(120 - 1e-3))) == []
        got = S.contacts(c_fold_vertices(st, np.radians(120 + 1e-3)))
        assert [(p, q) for p, q, _ in got] == [(0, 2)]


# ------------------------------------------------------------------ through the command line
@pytest.fixture
def pair_file(tmp_path):
    path = tmp_path / "pair.fold"
    path.write_text(json.dumps(row_fold(2, "V", [180.0], "pair")))
    return path


@pytest.mark.parametrize("placement, first", [(["mid"], 1), (["offset", "--side", "above"], 1),
                                              (["offset"], None), (["tapered", "--taper-deg", "120"], 25)])
def test_fold_reports_the_first_contact_frame(capsys, pair_file, placement, first):
    """36 frames of 5 deg to the 180 deg target: mid and offset above meet in frame 1 (5 deg); offset below never
    (the faces touch at frame 36); tapered to 120 touches at frame 24 (120 deg) and interpenetrates at 25."""
    code, out, err = run(capsys, "fold", pair_file, "--thickness", T, "--placement", *placement, "--frames", 36,
                         "--quiet", "--engine", "reference")
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("contact ("))
    if first is None:
        assert "no two panels interpenetrate in frames 0-36" in line
    else:
        assert f"first at frame {first} ({first * 500 / 180:.4g} % of the targets): panels 1 and 2" in line
        assert f"the fold stops at frame {first}" in out
    assert ("note: with mid placement two panels on a crease meet as soon as it folds" in out) == (placement == ["mid"])


def test_contacts_are_listed_deepest_first_and_the_summary_names_the_deepest():
    """Three squares in a row, mid placement, crease 1 (x = 0) folded by 20 deg and crease 2 (x = -A) by 60 deg
    (valleys, panel 3 turned about crease 2 in panel 2's frame, then both about crease 1): each crease's pair
    interpenetrates by (t/2) sin(rho) (``test_offset_above_and_mid_touch_at_once``), 0.0433 for panels 2-3 and
    0.0171 for panels 1-2; panels 1 and 3 stay apart. The deeper pair comes first and the summary names it."""
    st = structure_of(row_fold(3, "VV", [180.0, 180.0]), placement=Placement("mid"))
    r1, r2 = np.radians(20.0), np.radians(60.0)

    def turn(P, rho, x0):
        c, s = np.cos(rho), np.sin(rho)
        return (P - [x0, 0, 0]) @ np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]).T + [x0, 0, 0]

    X0 = st.pattern.vertices
    X = X0.copy()
    beyond2, beyond1 = X0[:, 0] < -A - 1e-12, X0[:, 0] < -1e-12
    X[beyond2] = turn(X[beyond2], r2, -A)
    X[beyond1] = turn(X[beyond1], r1, 0.0)
    np.testing.assert_allclose(np.degrees(-hinge_rotations(st.pattern, X)), [20.0, 60.0], atol=1e-12)
    pairs = PanelSolids(st).contacts(X)
    assert [(p, q) for p, q, _ in pairs] == [(1, 2), (0, 1)]
    np.testing.assert_allclose([d for _, _, d in pairs], T / 2 * np.sin([r2, r1]), atol=1e-14)
    from chrono_origami.analysis.contact import Contacts

    line = Contacts(st, [0.0, 1.0], None, [[], pairs]).summary()[0]
    assert "first at frame 1 (t = 1 s): panels 2 and 3 interpenetrate by 0.0433 (and 1 more pairs)" in line, line


def test_contact_percents_divide_the_time_by_the_folds_duration():
    """A fold of 2 s (not the default 1 s) of the pair tapered to 120 deg to its 180 deg target, 36 frames of
    5 deg: frame k is at 100 k / 36 % of the targets (t_k / T, not t_k), the first contact at frame 25, 69.44 %,
    its last free frame 24 at 66.67 % (120 deg)."""
    from chrono_origami.analysis.contact import fold_contacts
    from chrono_origami.analysis.fold import fold_to_targets

    st = structure_of(row_fold(2, "V", [180.0], "pair"), placement=Placement("tapered", taper_deg=120.0))
    hist = fold_to_targets(st, duration=2.0, frame_interval=2.0 / 36, progress=False, engine="reference")
    np.testing.assert_allclose(hist.times[-1], 2.0, rtol=1e-12)
    c = fold_contacts(hist, 100.0, engine="reference")
    np.testing.assert_allclose(c.percents, 100.0 * np.asarray(hist.times) / 2.0, rtol=1e-12)
    assert c.first == 25
    assert "first at frame 25 (69.44 % of the targets): panels 1 and 2" in c.summary()[0]
    assert "the last frame free of contact is 24 (66.67 % of the targets)" in c.summary()[0]


def test_through_contact_lists_every_contact_and_check_tells_the_range(capsys, pair_file, tmp_path):
    """--through-contact folds on: frames 25-36 listed (all past 120 deg). check --thickness: 1 % frames, the
    fold reaches 120/180 = 66.67 %, so 66 % before contact and the contact at 67 %."""
    code, out, err = run(capsys, "fold", pair_file, "--thickness", T, "--placement", "tapered", "--taper-deg", 120,
                         "--frames", 36, "--quiet", "--engine", "reference", "--through-contact", "--out",
                         tmp_path / "o")
    assert code == 0, err
    listed = [x for x in out.splitlines() if x.startswith("  frame ")]
    assert [int(x.split()[1]) for x in listed] == list(range(25, 37))
    assert "frames 0-36" in out
    code, out, err = run(capsys, "check", pair_file, "--thickness", T, "--placement", "tapered", "--taper-deg", 120)
    assert code == 0, err
    assert ("range of motion (tapered to 120 deg): the fold reaches 66 % of its targets before contact (frames of "
            "1 %); panels 1 and 2 interpenetrate at 67 %") in out


def test_check_tells_the_c_fold_range(capsys, tmp_path):
    """The C fold tapered to 150: 1 % frames of the 180 deg targets (1.8 deg); the contact angle 117.10 deg is
    65.05 %: the fold reaches 65 % and the outer panels 1 and 3 meet at 66 %."""
    path = tmp_path / "c.fold"
    path.write_text(json.dumps(row_fold(3, "VV", [180.0, 180.0], "C fold")))
    code, out, err = run(capsys, "check", path, "--thickness", T, "--placement", "tapered", "--taper-deg", 150)
    assert code == 0, err
    assert c_fold_contact_deg(T) / 1.8 < 66
    assert "the fold reaches 65 % of its targets before contact (frames of 1 %); panels 1 and 3 " in out


def test_the_placement_is_stored_in_the_fold_file(tmp_path):
    """origami:placement is written and read back; a misspelt or bad value names the key."""
    st = structure_of(row_fold(2, "V", [180.0]), placement=Placement("offset", "above"))
    path = tmp_path / "p.fold"
    foldfile.write_fold(st, path)
    assert foldfile.read_structure(path).placement == Placement("offset", "above")
    d = json.loads(path.read_text())
    d["origami:placement"] = {"technique": "sideways"}
    with pytest.raises(FoldFileError, match="origami:placement is not a placement: unknown thickness placement"):
        foldfile.read_structure(d)


@pytest.mark.parametrize("argv, parts", [
    (["--thickness", "-0.1"], ["--thickness", "expected a number >= 0"]),
    (["--thickness", "nan"], ["--thickness", "expected a number >= 0"]),
    (["--thickness", "0.1", "--placement", "sideways"], ["--placement", "sideways"]),
    (["--thickness", "0.6"], ["--thickness", "panel 1: thickness 0.6 is larger than its inradius 0.5"]),
    (["--thickness", "0.1", "--placement", "tapered", "--taper-deg", "200"], ["--taper-deg", "(0, 180]"]),
])
def test_bad_thickness_input_is_one_line_exit_2(capsys, pair_file, argv, parts):
    code, out, err = run(capsys, "fold", pair_file, *argv, "--quiet")
    one_line(code, err, 2, *parts)


def test_a_bevel_that_leaves_no_panel_is_one_line_exit_2(capsys, tmp_path):
    """Panel 2 of a V-M zigzag tapered to its targets (180, -180): its valley bevel keeps z <= 0, its mountain
    bevel z >= 0: no volume."""
    path = tmp_path / "z.fold"
    path.write_text(json.dumps(row_fold(3, "VM", [180.0, -180.0], "zigzag")))
    code, out, err = run(capsys, "fold", path, "--thickness", T, "--placement", "tapered", "--quiet")
    one_line(code, err, 2, "--placement", "panel 2: its bevels", "leave no panel")


def test_the_figure_draws_the_solids_and_marks_the_first_contact(capsys, pair_file, tmp_path):
    """--figure of a fold with thick panels: each panel drawn as its solid (tapered: the square prism's 6 faces
    and the bevel, 7 polygons a panel), the first contact frame's collection tagged, the pair named in the
    title."""
    import matplotlib

    matplotlib.use("Agg")
    from chrono_origami.analysis.contact import fold_contacts
    from chrono_origami.analysis.fold import fold_to_targets
    from chrono_origami.report import figures

    st = structure_of(row_fold(2, "V", [180.0], "pair"), placement=Placement("tapered", taper_deg=120.0))
    hist = fold_to_targets(st, frame_interval=1 / 12, progress=False)
    assert [len(P) for _, P in figures.panel_polygons(st, hist.vertices[0])].count(4) >= 10
    assert len(figures.panel_polygons(st, hist.vertices[0])) == 14
    hist.contacts = fold_contacts(hist, 100.0)
    fig = figures.draw_snapshots(hist)
    ax = fig.axes[0]
    assert [c.get_gid() for c in ax.collections].count("first contact") == 1
    assert "first contact (red): panels 1 and 2, 75 % of the targets" in ax.get_title()
    code, out, err = run(capsys, "fold", pair_file, "--thickness", T, "--placement", "tapered", "--taper-deg", 120,
                         "--frames", 12, "--quiet", "--engine", "reference", "--figure", tmp_path / "f.png")
    assert code == 0 and (tmp_path / "f.png").stat().st_size > 0, err


def test_static_with_a_placement_prints_the_same_hinge_actions(capsys, tmp_path):
    """static on the supported pair of ``tests/test_cli.py`` with --thickness and each --placement: the hinge
    table (the axes on the pattern) is the same line for line; --side without offset is one line, exit 2."""
    from test_cli import hand_fold

    path = tmp_path / "pair.fold"
    path.write_text(json.dumps(hand_fold()))
    tables = []
    for extra in ([], ["--placement", "offset"], ["--placement", "offset", "--side", "above"],
                  ["--placement", "tapered", "--taper-deg", "90"]):
        code, out, err = run(capsys, "static", path, "--engine", "reference", "--thickness", 0.05, *extra)
        assert code == 0, err
        tables.append([x for x in out.splitlines() if x.strip()[:1].isdigit()])
    assert tables[0] and all(t == tables[0] for t in tables)
    code, out, err = run(capsys, "static", path, "--thickness", 0.05, "--placement", "mid", "--side", "above")
    one_line(code, err, 2, "--side places an offset panel")


def test_check_tells_the_range_of_a_folded_file_and_refuses_fix(capsys, tmp_path):
    """A pair already folded to 60 deg, target 180: the fold goes from 60 to 180 deg, so 1 % frames are 1.2 deg
    and tapered to 120 touches at 50 % (free there), interpenetrating at 51 %. --thickness with --fix is one
    line, exit 2."""
    d = row_fold(2, "V", [180.0], "pair60")
    st = structure_of(d)
    X = pair_folded(st, np.radians(60.0))
    d["vertices_coords"] = X.tolist()
    path = tmp_path / "p60.fold"
    path.write_text(json.dumps(d))
    code, out, err = run(capsys, "check", path, "--thickness", T, "--placement", "tapered", "--taper-deg", 120)
    assert code == 0, err
    assert "the fold reaches 50 % of its targets before contact (frames of 1 %); panels 1 and 2 interpenetrate at " \
           "51 %" in out
    code, out, err = run(capsys, "check", path, "--thickness", T, "--fix", "-o", tmp_path / "x.fold")
    one_line(code, err, 2, "--thickness checks the range of motion of the file as it is")


def test_a_plain_check_of_a_file_with_a_placement_only_checks_its_geometry(capsys, tmp_path):
    """A file a thick fold wrote carries origami:placement: a plain check (no --thickness or --placement) checks
    its geometry, and --fix -o works on it; the range of motion is asked for with --thickness or --placement."""
    st = structure_of(row_fold(2, "V", [180.0], "placed"), placement=Placement("offset", "above"))
    path = tmp_path / "placed.fold"
    foldfile.write_fold(st, path)
    code, out, err = run(capsys, "check", path)
    assert code == 0, err
    assert "range of motion" not in out
    code, out, err = run(capsys, "check", path, "--fix", "-o", tmp_path / "fixed.fold")
    assert code == 0, err
    assert (tmp_path / "fixed.fold").exists()
    code, out, err = run(capsys, "check", path, "--placement", "offset")
    assert code == 0, err
    assert "range of motion (offset" in out


def test_side_and_taper_without_their_technique_are_refused(capsys, pair_file):
    """--side belongs to offset panels and --taper-deg to tapered ones: given without --placement on a file with no
    placement (mid), each is one line, exit 2, never silently dropped."""
    code, out, err = run(capsys, "fold", pair_file, "--thickness", T, "--side", "above", "--quiet")
    one_line(code, err, 2, "--side places an offset panel", "not mid")
    code, out, err = run(capsys, "fold", pair_file, "--thickness", T, "--taper-deg", "120", "--quiet")
    one_line(code, err, 2, "--taper-deg bevels tapered panels", "not mid")
    code, out, err = run(capsys, "fold", pair_file, "--thickness", T, "--placement", "offset", "--taper-deg", "120",
                         "--quiet")
    one_line(code, err, 2, "--taper-deg bevels tapered panels", "not offset")


def test_check_of_a_file_already_in_contact_says_so(capsys, tmp_path):
    """The pair folded to 60 deg with mid placement: its panels meet at the crease as soon as it folds, so the
    range of motion is 'in contact at the start', not 'reaches 0 %'."""
    d = row_fold(2, "V", [180.0], "pair60")
    d["vertices_coords"] = pair_folded(structure_of(d), np.radians(60.0)).tolist()
    path = tmp_path / "p60.fold"
    path.write_text(json.dumps(d))
    code, out, err = run(capsys, "check", path, "--thickness", T, "--placement", "mid")
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("range of motion"))
    assert "in contact at the start: panels 1 and 2 interpenetrate at 0 % of the targets (depth " in line


def test_a_fold_cut_at_its_first_contact_writes_that_frame_as_such(capsys, pair_file, tmp_path):
    """Tapered to 120 deg in 36 frames of 5 deg: the history ends at frame 25, the first contact, and the files
    written say so (not 'the folded state'); the frame read back is at 125 deg."""
    out = tmp_path / "f"
    code, text, err = run(capsys, "fold", pair_file, "--thickness", T, "--placement", "tapered", "--taper-deg", 120,
                          "--frames", 36, "--quiet", "--engine", "reference", "--out", out)
    assert code == 0, err
    assert "the fold stops at frame 25, the first contact" in text
    assert "fold.fold (frames 0-25: 0 the start, 25 the first contact at t = " in text
    st = foldfile.read_structure(out / "fold.fold", frame="last")
    assert fold_deg(st, st.pattern.vertices) == pytest.approx(125.0, abs=1e-6)


def test_the_html_page_of_a_thick_fold_marks_the_first_contact(capsys, tmp_path):
    """fold --html of the tapered pair (closed form: they touch at 120 deg, 66.67 % of the 180 deg target; the fold
    stops at the first frame past it): the page's data name the pair, the percent and the depth, and that
    frame's note says so."""
    import json

    path = tmp_path / "pair.fold"
    path.write_text(json.dumps(row_fold(2, "V", [180.0], "pair")))
    html = tmp_path / "pair.html"
    code, out, err = run(capsys, "fold", path, "--thickness", 0.1, "--placement", "tapered", "--taper-deg", 120,
                         "--frames", 36, "--quiet", "--engine", "reference", "--html", html)
    assert code == 0, err
    text = html.read_text()
    assert "first contact: panels 1 and 2 at 69.44 % of the targets" in text
    assert '"contact":{"frame":25,"panels":[1,2]' in text.replace(" ", "")


@pytest.mark.parametrize("placement", [None, Placement("offset"), Placement("tapered", taper_deg=150.0)])
def test_a_frames_mass_properties_are_the_structures_moved_with_each_panel(placement):
    """A Miura-ori patch (2 x 3 panels, sector 60 deg) at fold angles 40 and 55 deg (the closed form: a rigid
    fold, each panel turned about its own axis): the mass properties of the 55-deg state moved from the 40-deg
    ones panel by panel (``moved_mass_properties``, as a deployment's frames take them) are those computed from the
    55-deg solids, to round-off of the closed-form vertices (1e-13 of the size); a frame given them does not
    rebuild them."""
    from chrono_origami.analysis.deploy import frame_structure
    from chrono_origami.patterns import miura
    from chrono_origami.structure.properties import moved_mass_properties, panel_motions

    def thick(s):
        return Structure(s.pattern, s.hinge_kinds, T, 2.0, name=s.name, placement=placement)

    st = thick(miura.miura_patch(2, 3, fold_angle_deg=40.0))
    X = miura.miura_patch(2, 3, fold_angle_deg=55.0).pattern.vertices
    R, t = panel_motions(st.pattern, X)
    assert np.abs(R @ np.swapaxes(R, 1, 2) - np.eye(3)).max() < 1e-14 and np.all(np.linalg.det(R) > 0)
    L = np.ptp(X, axis=0).max()
    for p, loop in enumerate(st.pattern.panels):
        np.testing.assert_allclose(st.pattern.vertices[list(loop)] @ R[p].T + t[p], X[list(loop)], atol=1e-13 * L)
    turned = np.degrees(np.arccos(np.clip((np.trace(R, axis1=1, axis2=2) - 1) / 2, -1, 1)))
    assert turned.max() > 1.0                    # the panels truly turn between the two states
    m, c, J = moved_mass_properties(st, X)
    m1, c1, J1 = structure_mass_properties(thick(miura.miura_patch(2, 3, fold_angle_deg=55.0)))
    np.testing.assert_allclose(m, m1, rtol=1e-13)
    np.testing.assert_allclose(c, c1, atol=1e-13 * L)
    np.testing.assert_allclose(J, J1, atol=1e-13 * np.abs(J1).max())
    frame = frame_structure(st, X)
    import chrono_origami.structure.properties as props

    def refuse(_):
        raise AssertionError("a frame rebuilt its mass properties")

    saved, props._mass_properties = props._mass_properties, refuse
    try:
        np.testing.assert_allclose(structure_mass_properties(frame)[1], c1, atol=1e-13 * L)
        held = frame.with_supports(Support(0, 0, "xyz")).with_loads(Load(1, (0.0, 0.0, -1.0)))
        held = held.with_hinge_kinds(held.hinge_kinds)          # the same solids: not rebuilt either
        np.testing.assert_allclose(structure_mass_properties(held)[2], J1, atol=1e-13 * np.abs(J1).max())
    finally:
        props._mass_properties = saved
