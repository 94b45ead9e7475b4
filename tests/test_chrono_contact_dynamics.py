"""Contact between thick panels in dynamics (``dynamics --contact``, ``engines.chrono.contact.PanelContact``): panels
driven shut by torque motors end stacked, at rest, with contact forces per panel pair that balance the motors, and
the energy balance counts the contacts' work.

Static balance: a panel joined to a fixed panel by one revolute crease and pushed by a motor torque tau about the
crease axis t (through a) is at rest only if the moment of the contact forces on it about that axis cancels tau:
(M - a x F) . t = -tau (M: their moment about the origin, F their resultant, both on the panel from its neighbour;
the hinge's reaction has no moment about its own axis), up to the inertia of the motion left at rest: NSC's
velocity corrections that hold the hulls' gap (Chrono's penetration recovery), SMC's penalty oscillation, decaying;
ADMM converges to 1e-10 within 15 iterations here. That remnant is below 1e-3 of the moment on these runs;
the tolerance, 1e-2, leaves it room on other machines.
"""
import csv

import numpy as np
import pytest
from dataclasses import replace

from chrono_origami.analysis.dynamics import dynamics
from chrono_origami.inputs.dynamics import ContactMaterial, Motor
from chrono_origami.structure import foldfile
from chrono_origami.structure.solids import PanelSolids, Placement
from chrono_origami.structure.structure import Structure, Support
from test_cli_messages import one_line, run
from test_thickness import row_fold, structure_of

TAU = 10.0
#: the contact moment at rest against the motor (module doc)
FORCE_RTOL = 1e-2


def pair(placement=Placement("offset")):
    """Two unit squares (thickness 0.1, density 1000: 100 kg each) on a valley crease, panel 1 held at three
    vertices; offset below: they close face to face at 180 deg."""
    st = structure_of(row_fold(2, "V", [180.0]), placement=placement)
    return replace(st, density=1000.0, supports=(Support(0, 0), Support(1, 0), Support(2, 0)))


def axis_moment(st, h, row):
    """(M - a x F) . t of a contact row about hinge h's axis (as run by its first panel)."""
    a, b = (st.pattern.vertices[v] for v in st.pattern.hinges[h].vertices)
    t = (b - a) / np.linalg.norm(b - a)
    *_, F, _, _, M = row
    return float((M - np.cross(a, F)) @ t)


def run_pair(dt, method="nsc", time=6.0):
    st = pair()
    return st, dynamics(st, "chrono", time=time, dt=dt, motors=[Motor(0, "torque", -TAU)], output_interval=0.5,
                        progress=False, contact=ContactMaterial(method))


def test_the_offset_pair_closes_face_to_face_and_rests_on_the_contact():
    """The motor (tau = 10 N m toward the valley) folds panel 2 over by pi: its work is tau pi; the panels rest
    stacked (fold angle 180 deg to within the hulls' inset), the contact moment about the crease cancels tau."""
    st, H = run_pair(0.01)
    assert H.kinetic[-1] < 1e-8 * H.energy_scale
    assert H.work[-1] == pytest.approx(TAU * np.pi, rel=2e-3)            # pi + 2 inset / lever, at most
    rows = H.contact_forces[-1]
    assert [(i, j) for i, j, *_ in rows] == [(0, 1)]
    # the moment on panel 2 (j) from panel 1 about the crease cancels the motor's -tau ... on panel 2 about +t
    assert axis_moment(st, 0, rows[0]) == pytest.approx(TAU, rel=FORCE_RTOL)
    X = H.vertices[-1]
    depth = max((d for _, _, d in PanelSolids(st).contacts(X)), default=0.0)
    assert depth <= 2 * 1e-3 * PanelSolids(st).L * 1.01                  # the two hulls' inset, no more


def test_the_energy_balance_counts_the_contact_and_closes_to_first_order():
    """The impact takes the kinetic energy tau pi (restitution 0): the contact column holds it. What is left is
    implicit Euler's own dissipation, first order in dt: halving dt halves it (to 20 %), and the extrapolation
    2 e(dt/2) - e(dt) is below 5 % of e(dt)."""
    _, H1 = run_pair(0.01)
    _, H2 = run_pair(0.005)
    assert H1.contact[-1] > 0.9 * H1.work[-1]
    e1, e2 = H1.balance_error[-1], H2.balance_error[-1]
    assert e1 < 0 and e2 < 0                                            # Euler loses energy, never gains
    assert 0.4 < e2 / e1 < 0.6
    assert abs(2 * e2 - e1) < 0.05 * abs(e1)
    assert abs(e1) < 0.05 * H1.energy_scale


def test_smc_contact_rests_on_the_penalty_with_implicit_euler():
    """SMC (Hertz penalty, implicit Euler): the same rest, the penalty's normal forces cancel the motor; the energy
    balance loses, never gains (implicit Euler's dissipation)."""
    st, H = run_pair(0.0025, "smc", time=7.0)          # it bounces off once (4.6 s), rests from 5.8 s
    rows = H.contact_forces[-1]
    assert H.kinetic[-1] < 1e-6 * H.energy_scale
    assert [(i, j) for i, j, *_ in rows] == [(0, 1)]
    assert axis_moment(st, 0, rows[0]) == pytest.approx(TAU, rel=FORCE_RTOL)
    assert H.balance_error[-1] < 0 and abs(H.balance_error[-1]) < 0.02 * H.energy_scale


def test_smc_with_trapezoidal_hht_closes_the_balance():
    """HHT with alpha = 0 is the trapezoidal rule, whose work quadrature (``motion._Quadrature``) is exact for the
    motor's constant torque up to the rule's own error: before the impact the balance error is second order
    (halving dt quarters it, to 20 %). Through the impact the penalty's work is counted with the same rule, but
    Chrono's penetration is measured once per step (explicit within it): the error there is at least first order
    (it halves with dt, or better)."""
    st = pair()
    before, through = [], []
    for dt in (0.0025, 0.00125):
        H = dynamics(st, "chrono", time=4.8, dt=dt, integrator="hht", alpha=0.0, motors=[Motor(0, "torque", -TAU)],
                     output_interval=0.1, progress=False, contact=ContactMaterial("smc"))
        k = int(np.argmax(H.contact > 0.01 * H.energy_scale))
        assert k > 0                                                  # through the first impact
        before.append(abs(H.balance_error[k - 1]))
        through.append(np.abs(H.balance_error).max())
    assert 0.2 < before[1] / before[0] < 0.3
    assert through[1] / through[0] < 0.6


def test_a_thick_miura_strip_closes_onto_its_bevels_and_stacks():
    """Acceptance: a Miura-ori strip of three parallelograms (sector 60 deg; creases M and V), tapered to 170 deg,
    thickness 0.05, the middle panel held; torque motors of 20 N m fold both creases shut. The bevels stop them at
    170 deg (plus the inset's degree or so: the hulls are 2 x 1e-3 L apart there); at rest, stacked, each outer
    panel's contact moment about its crease cancels its motor, and no two solids overlap by more than the hulls'
    inset. The balance: the impacts took what the motors put in; what is left is implicit Euler's loss, first
    order: it halves with dt (to 20 %)."""
    from chrono_origami.structure.targets import file_targets
    from chrono_origami.patterns import miura

    flat = miura.miura_pattern(1, 3, fold_angle_deg=0.0)
    ang = foldfile.fold_angles(flat, miura.miura_vertices(1, 3, fold_angle_deg=175.0))
    notes = {"fold": {"edges_assignment": foldfile.assignments(flat, ang), "edges_foldAngle": ang}}
    st = Structure(flat, thickness=0.05, density=1000.0, placement=Placement("tapered", taper_deg=170.0),
                   notes=notes, supports=tuple(Support(v, 1) for v in flat.panels[1][:3]))
    targets = file_targets(st)
    tau = 20.0
    motors = [Motor(h, "torque", -tau * np.sign(targets[h])) for h in range(2)]
    runs = [dynamics(st, "chrono", time=3.0, dt=dt, motors=motors, output_interval=0.25, progress=False,
                     contact=ContactMaterial()) for dt in (0.01, 0.005)]
    H = runs[0]
    assert H.kinetic[-1] < 1e-8 * H.energy_scale
    rows = H.contact_forces[-1]
    assert [(i, j) for i, j, *_ in rows] == [(0, 1), (1, 2)]
    # each row is the force on the higher-numbered panel; on the outer panel it is that or its opposite: the
    # magnitude of the moment about the crease is tau either way
    for h, row in enumerate(rows):
        assert abs(axis_moment(st, h, row)) == pytest.approx(tau, rel=FORCE_RTOL)
    fa = foldfile.fold_angles(flat, H.vertices[-1])
    for h in flat.hinges:
        phi = abs(fa[flat.edges.index(tuple(sorted(h.vertices)))])
        assert 170.0 < phi < 173.0
    S = PanelSolids(st)
    assert max((d for _, _, d in S.contacts(H.vertices[-1])), default=0.0) <= 2 * 1e-3 * S.L * 1.01
    assert H.contact[-1] > 0.9 * H.work[-1]
    e1, e2 = (r.balance_error[-1] for r in runs)
    assert e1 < 0 and e2 < 0 and 0.4 < e2 / e1 < 0.6


def test_the_dynamics_page_shows_the_contact_energy():
    from chrono_origami.report.page import page_data

    _, H = run_pair(0.01, time=5.0)
    energies = page_data(H)[1]["tables"][0]
    assert energies["header"][-1] == "contact"


def test_dynamics_contact_writes_contacts_csv_and_the_contact_energy(capsys, tmp_path):
    path = tmp_path / "pair.fold"
    import json

    path.write_text(json.dumps(row_fold(2, "V", [180.0], "pair")))
    out = tmp_path / "out"
    code, text, err = run(capsys, "dynamics", path, "--thickness", 0.1, "--placement", "offset", "--density", 1000,
                          "--support", "1,2,3:xyz:p1", "--motor", "1:torque:10", "--time", 6, "--dt", 0.01,
                          "--output-interval", 0.5, "--contact", "--quiet", "--out", out)
    assert code == 0, err
    assert "euler-linearized" in text and "contact: energy taken" in text
    with open(out / "energy.csv") as f:
        assert next(csv.reader(f)) == ["t", "kinetic", "potential", "spring", "work", "dissipated", "contact",
                                       "balance_error"]
    with open(out / "contacts.csv") as f:
        rows = list(csv.DictReader(f))
    last = [r for r in rows if float(r["t"]) == 6.0]
    assert [(r["panel_i"], r["panel_j"]) for r in last] == [("1", "2")]
    assert float(last[0]["N"]) == pytest.approx(10.0, rel=0.05)        # tau / lever arm ~ 1 (the free edge)


@pytest.mark.parametrize("argv, parts", [
    ((), ["--contact needs thick panels", "--thickness"]),
    (("--thickness", 0.1, "--engine", "reference"), ["--contact needs the chrono engine"]),
    (("--thickness", 0.1, "--integrator", "hht"), ["--contact nsc needs --integrator euler-linearized"]),
])
def test_bad_contact_input_is_one_line_exit_2(capsys, tmp_path, argv, parts):
    import json

    path = tmp_path / "pair.fold"
    path.write_text(json.dumps(row_fold(2, "V", [180.0], "pair")))
    code, out, err = run(capsys, "dynamics", path, "--motor", "1:torque:10", "--time", 1, "--dt", 0.01,
                         "--contact", *argv)
    one_line(code, err, 2, *parts)



def folded_deg(st, X):
    """Panel 2's valley fold angle (deg) about the crease x = 0, unwrapped past 180: from its far edge's position
    (x = -a cos(rho), z = a sin(rho) for the squares of ``row_fold``; the far edge's vertices have x < 0 flat)."""
    far = [v for v in range(len(X)) if st.pattern.vertices[v, 0] < -0.5]
    x, z = np.mean(X[far], axis=0)[[0, 2]]
    return float(np.degrees(np.arctan2(z, -x)) % 360.0)


def surface_distance(st, X, p, point):
    """Signed distance (outside positive) from ``point`` to panel p's solid's surface at vertices X, where the
    nearest face decides: max over the faces of a x - b (exact inside; a lower bound outside)."""
    from chrono_origami.structure.solids import halfspaces

    A, b = halfspaces(st, X)[p]
    return float((A @ point - b).max())


def test_thin_offset_panels_driven_shut_do_not_pass_through_each_other():
    """Two unit squares at t/L = 1e-3 (t = 0.0022, offset below, 2.2 kg each), panel 2 driven shut by a torque:
    they close face to face at 180 deg and rest there, in contact (Chrono's shapes of such panels once had no
    volume, were dropped, and panel 2 turned on through panel 1 to -146 deg, exit 0). No frame is deeper than the
    two shapes' insets (t/4 each)."""
    st = pair(Placement("offset"))
    t = 1e-3 * float(st.pattern.size)
    st = replace(st, thickness=np.full(2, t))
    H = dynamics(st, "chrono", time=6.0, dt=0.01, motors=[Motor(0, "torque", -0.2)], output_interval=0.5,
                 progress=False, contact=ContactMaterial())
    angles = [folded_deg(st, X) for X in H.vertices]
    assert max(angles) < 180.5 and angles[-1] > 179.5, angles
    assert [(i, j) for i, j, *_ in H.contact_forces[-1]] == [(0, 1)]
    S = PanelSolids(st)
    assert max(d for X in H.vertices for _, _, d in S.contacts(X)) <= 2 * t / 4 * 1.01


def strip_2x4(t=0.05):
    """Two 2 x 2 squares on a valley crease (a 2 x 4 strip folded in half, L = 2 sqrt(5)), tapered to 90 deg,
    panel 1 held."""
    d = row_fold(2, "V", [180.0], "strip")
    d["vertices_coords"] = [[2.0 * x for x in v] for v in d["vertices_coords"]]
    st = structure_of(d, thickness=t, placement=Placement("tapered", taper_deg=90.0))
    return replace(st, density=1000.0, supports=(Support(0, 0), Support(1, 0), Support(2, 0)))


def test_a_tapered_crease_stops_at_its_taper_angle_and_the_contact_point_is_on_the_contact():
    """The 2 x 4 strip tapered to 90 deg (t = 0.05), panel 2 driven by 40 N m: the bevels stop it within 1 deg
    of 90 (they once stopped it at 105.28: the shapes' inset of 1e-3 L over the bevel's width), at rest. The row's
    contact point lies on the contact: within the pair's depth (the reference engine's) of both solids' surfaces
    (it once lay 0.008-0.017 inside a panel). (The contact moment about the crease does not settle here: NSC's
    single point on the bevels' edge gives 41.8 N m at 6 s, 33.9 at 12, without friction; the old shapes 37.4.)"""
    st = strip_2x4()
    tau = 40.0
    H = dynamics(st, "chrono", time=6.0, dt=0.01, motors=[Motor(0, "torque", -tau)], output_interval=0.5,
                 progress=False, contact=ContactMaterial())
    X = H.vertices[-1]
    assert abs(folded_deg(st, X) - 90.0) < 1.0
    assert H.kinetic[-1] < 1e-8 * H.energy_scale
    (row,) = H.contact_forces[-1]
    ((_, _, depth),) = PanelSolids(st).contacts(X)
    point = row[5]
    for p in (0, 1):
        assert abs(surface_distance(st, X, p, point)) <= depth + 1e-9 * float(st.pattern.size), p


def test_the_contact_point_of_panels_resting_face_to_face_is_on_their_faces():
    """The offset pair (t = 0.1) at rest face to face: contacts' point lies on both panels' touching faces, within
    the pair's depth (the reference engine's; at most the two shapes' insets, 2e-3 L) plus round-off; Chrono's own
    points lay an envelope (1e-2 L) off along the normal, and the point once lay 0.008-0.017 inside a panel."""
    st, H = run_pair(0.01)
    X = H.vertices[-1]
    ((_, _, depth),) = PanelSolids(st).contacts(X)
    (row,) = H.contact_forces[-1]
    for p in (0, 1):
        assert abs(surface_distance(st, X, p, row[5])) <= depth + 1e-9 * float(st.pattern.size), p


def test_nsc_at_rest_against_smc_the_friction_the_hinge_holds_too():
    """The offset pair at rest face to face, NSC against SMC (dt = 0.0025: at 0.01 SMC's penalty throws the panel
    back). What the statics determines agrees: the contact moment about the crease is the motor's in both. What
    it does not: a rigid contact with friction beside a rigid hinge is statically indeterminate along the crease's
    normal in the panel's plane (x here), where both can hold panel 2. SMC's elastic contact takes none there
    (measured 2e-15 N); NSC's solution is anywhere in the Coulomb cone, on it at 6 s (T = mu N = 3.03 N along x;
    -0.74 N at 5.5 s), and the hinge's force along x is its opposite (panel 2's balance along x): NSC's hinge forces along
    such directions are not the structure's (README, Dynamics contact)."""
    st, nsc = run_pair(0.01)
    smc = dynamics(st, "chrono", time=6.0, dt=0.0025, motors=[Motor(0, "torque", -TAU)], output_interval=0.5,
                   progress=False, contact=ContactMaterial("smc"))
    for H in (nsc, smc):
        assert H.kinetic[-1] < 1e-8 * H.energy_scale
        (row,) = H.contact_forces[-1]
        assert axis_moment(st, 0, row) == pytest.approx(TAU, rel=FORCE_RTOL)
    (rs,) = smc.contact_forces[-1]
    (rn,) = nsc.contact_forces[-1]
    assert rs[3] < 1e-3 * rs[2]                                      # SMC: no friction at rest
    assert rn[3] <= 0.3 * rn[2] * (1 + 1e-6)                         # NSC: inside the cone
    hinge = next(a for a in nsc.hinge_actions[-1] if a.panel == 1)  # on panel 2 from panel 1
    assert abs(hinge.force[0] + rn[4][0]) <= FORCE_RTOL * rn[2]      # the hinge holds the friction's opposite


@pytest.mark.parametrize("taper", [60.0, 90.0, 150.0])
@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_the_dynamics_shapes_of_a_tapered_crease_meet_at_its_taper_angle(taper, scale):
    """The shapes dynamics gives a tapered pair (faces moved in by min(1e-3 L, t/4), bevels turned about their
    outer edges: ``contact.inset_tilting_bevels``) meet at the taper angle itself: apart 1e-3 deg before it,
    interpenetrating 1e-3 deg after (the bevels' outer edges, which the turn keeps, come face to face there);
    merely moved in, they met 2 x inset / bevel width later (105.28 deg for 90 on the 2 x 4 strip)."""
    from chrono_origami.engines.chrono.contact import (DYNAMICS_INSET_RTOL, DYNAMICS_INSET_TFRAC,
                                                       inset_tilting_bevels)
    from chrono_origami.structure.solids import halfspaces, penetration, polytope
    from test_thickness import pair_folded

    st = strip_2x4() if scale == 2.0 else pair(Placement("tapered", taper_deg=taper))
    st = replace(st, placement=Placement("tapered", taper_deg=taper))
    L = float(st.pattern.size)
    inset = min(DYNAMICS_INSET_RTOL * L, DYNAMICS_INSET_TFRAC * float(st.thickness[0]))

    def depth(deg):
        X = pair_folded(st, np.radians(deg))
        (VA, NA, EA), (VB, NB, EB) = (polytope(*inset_tilting_bevels(A, b, inset, L), L) for A, b in
                                      halfspaces(st, X))
        return penetration(VA[None], NA[None], EA[None], VB[None], NB[None], EB[None])[0]

    assert depth(taper - 1e-3) < 0 < depth(taper + 1e-3)

