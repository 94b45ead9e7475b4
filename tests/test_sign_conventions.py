"""Our sign convention for hinge actions, pinned by cases whose signs are physically plain, with both engines.

The paper-table comparisons (``paper_compare``) allow one sign per axis and
row, because the paper's own convention changes from row to row; so they
cannot see a flipped n axis (the sign of N) or a row that gives the action on
the wrong side. Our convention (README "Conventions", ``results.py``): row
(h, P) is the action applied *to P by its neighbour* across hinge h, on P's
frame {n, t, m}: t along the edge as P's vertex loop runs it, m P's normal
(right-hand rule on the loop), n = t x m pointing out of P. So N > 0 is
tension (the neighbour pulls P across the edge) and N < 0 compression.

Each family gets a case where the answer is plain: panels hanging under
gravity are in tension, a tower under a top load is in compression. Besides
the signs of N, the test rebuilds, on the frame computed from the vertex loops
alone (``hinge_frames``, not ``results.py`` or ``geometry.edge_frame``), the force
N n + TP t + TO m and moment MT n + MP t + MO m of every row across a cut, and
checks that they hold up the part hanging below the cut: its weight (or load),
force and moment. The cut resultant is determined even when the hinge actions
are not (S > 0): a self-stress state puts no net force on an unsupported part.
"""
import numpy as np
import pytest

from chrono_origami.analysis import static as analysis
from chrono_origami.patterns import kresling, miura, simple, yoshimura
from chrono_origami.structure.structure import Structure, Support
from chrono_origami.structure.hinges import DOOR, SLIDING

from hinge_frames import wrench

#: both engines; the Chrono one is marked ``chrono`` (skipped with the reason without PyChrono, see conftest.py)
ENGINES = [pytest.param("reference"), pytest.param("chrono", marks=pytest.mark.chrono)]
#: relative tolerance of the cut balance: the reference engine's solve is exact to round-off; Chrono's is
#: accepted at an equilibrium residual of 1e-8 (chrono.analysis.EQUILIBRIUM_RTOL)
RTOL = {"reference": 1e-9, "chrono": 1e-7}
#: gravity (length / time^2), panel thickness (length), density 1: panel weight = 0.1 g area
G, THICKNESS = 10.0, 0.1


# ------------------------------------------------------------------ loads and cuts
def weight(pattern, panel, gravity):
    """(force, point) of the panel's weight: density 1, thickness THICKNESS, at its area centroid (fan of triangles)."""
    X = pattern.vertices[list(pattern.panels[panel])]
    area, moment = 0.0, np.zeros(3)
    for k in range(1, len(X) - 1):
        a = 0.5 * np.linalg.norm(np.cross(X[k] - X[0], X[k + 1] - X[0]))
        area += a
        moment += a * (X[0] + X[k] + X[k + 1]) / 3
    return THICKNESS * area * np.asarray(gravity, float), moment / area


def external(structure, part):
    """(force, moment about the origin) of the loads and weights on the panels ``part`` (0-based)."""
    pat = structure.pattern
    F, M = np.zeros(3), np.zeros(3)
    for ld in structure.loads:
        if ld.panel in part:
            F += ld.force
            M += np.cross(pat.vertices[ld.vertex], ld.force)
    if structure.gravity is not None:
        for p in part:
            w, c = weight(pat, p, structure.gravity)
            F += w
            M += np.cross(c, w)
    return F, M


def rows(result):
    """{(hinge, panel): (MT, MP, MO, N, TP, TO)}, 0-based keys, from the 1-based table rows a user reads."""
    return {(h - 1, p - 1): np.array(v) for h, p, *v in result.hinge_rows()}


def cut(structure, part):
    """Rows (hinge, panel in ``part``) of the hinges that join ``part`` to the rest."""
    return [(h.index, p) for h in structure.pattern.hinges for p in h.panels
            if p in part and (set(h.panels) - {p}).pop() not in part]


def assert_cut_balances(structure, result, part, rtol):
    """The rows across the cut, rebuilt on hinge_frames.side_frame, balance the loads on ``part``: force and moment."""
    pat = structure.pattern
    R = rows(result)
    F, M = external(structure, part)
    scale = np.linalg.norm(F) + np.linalg.norm(M) / pat.size
    assert scale > 0
    for h, p in cut(structure, part):
        f, m = wrench(pat, h, p, R[(h, p)])
        F = F + f
        M = M + m
    assert np.linalg.norm(F) <= rtol * scale, (sorted(part), F)
    assert np.linalg.norm(M) <= rtol * scale * pat.size, (sorted(part), M)


def N_of(result, pairs):
    R = rows(result)
    return np.array([R[hp][3] for hp in pairs])


# ------------------------------------------------------------------ Miura-ori
@pytest.mark.parametrize("engine", ENGINES)
def test_miura_cantilever_hanging_from_its_clamped_column_is_in_tension(engine):
    """The paper's cantilever, its clamped column line (x = 11.77) above, its panels hanging under their weight.

    The columns hang one from the next by the straight creases (hinges 3k-1, 3k on column line k): every side
    of them is in tension, and the two creases of a line hold up the k columns below them.
    """
    st = miura.miura_cantilever(thickness=THICKNESS)
    st = Structure(st.pattern, st.hinge_kinds, THICKNESS, supports=st.supports, gravity=(-G, 0, 0),
                   name="Miura-ori cantilever hanging")
    r = analysis.static(st, engine=engine)
    assert (r.status, r.M, r.S) == ("determined", 0, 0)
    for k in range(1, 6):                         # columns 1..k below column line k (0-based panels 0..2k-1)
        part = set(range(2 * k))
        across = cut(st, part)
        assert sorted({h + 1 for h, _ in across}) == [3 * k - 1, 3 * k]
        assert_cut_balances(st, r, part, RTOL[engine])
        both_sides = across + [(h, (set(st.pattern.hinges[h].panels) - {p}).pop()) for h, p in across]
        # each crease holds its row of k trapezoids (area 3): mostly as tension, N > half their weight
        assert np.all(N_of(r, both_sides) > 0.5 * THICKNESS * G * 3 * k)


# ------------------------------------------------------------------ Yoshimura
def wedge_tiers():
    """Panels (0-based) of each tier of the paper's wedge, from the base up: 10, 8, 6, 4, 2 panels."""
    sizes = [2 * (yoshimura.N_BASE - t) for t in range(yoshimura.N_BASE)]
    starts = np.cumsum([0] + sizes)
    return [list(range(starts[t], starts[t + 1])) for t in range(len(sizes))]


@pytest.mark.parametrize("engine", ENGINES)
def test_yoshimura_wedge_hanging_from_its_base_is_in_tension(engine):
    """The isostatic wedge of Fig. 7 upside down: its supported base above, the tiers hanging under their weight.

    Every tier hangs from the one nearer the base; the sliding hinges between tiers 2, 3, 4 (hinges 24-33)
    are in tension on both sides.
    """
    st = yoshimura.table4_structure(loaded=False)
    st = Structure(st.pattern, st.hinge_kinds, THICKNESS, supports=st.supports, gravity=(0, 0, G),
                   name="Yoshimura wedge hanging")
    r = analysis.static(st, engine=engine)
    assert (r.status, r.M, r.S) == ("determined", 0, 0)
    tiers = wedge_tiers()
    for t in range(1, len(tiers)):
        assert_cut_balances(st, r, set(sum(tiers[t:], [])), RTOL[engine])
    hanging = [(h, p) for h in range(23, 33) for p in st.pattern.hinges[h].panels]
    assert {st.hinge_kinds[h] for h, _ in hanging} == {SLIDING}
    assert np.all(N_of(r, hanging) > 0.3)


# ------------------------------------------------------------------ Kresling
@pytest.mark.parametrize("engine", ENGINES)
def test_kresling_module_under_its_top_load_is_in_compression(engine):
    """The module of Fig. 8 stands on its base ring and carries a downward unit load at each top vertex.

    The even panels (they hold the top ring and the loads) are pushed down onto the odd ones (which stand on
    the supports): all six hinges are in compression on both sides, and the cut between even and odd panels
    carries the three unit loads.
    """
    st = kresling.kresling_module()
    r = analysis.static(st, engine=engine)
    assert (r.status, r.M, r.S) == ("determined", 0, 0)
    even = {1, 3, 5}
    assert {ld.panel for ld in st.loads} == even and {s.panel for s in st.supports} == {0, 2, 4}
    assert len(cut(st, even)) == 6
    assert_cut_balances(st, r, even, RTOL[engine])
    N = N_of(r, [(a.hinge, a.panel) for a in r.hinge_actions])
    assert len(N) == 12 and np.all(N < -0.05)


# ------------------------------------------------------------------ panel ring
@pytest.mark.parametrize("engine", ENGINES)
def test_four_panel_ring_hanging_from_its_top_panel(engine):
    """The ring of Fig. 4 (2 x 1 section, hinges 3 long along z) with its axis horizontal: gravity along -y.

    The top panel (3, y = 1) is held; the side panels (2 at x = 2, 4 at x = 0) hang from it and the bottom
    panel (1) hangs from them. Hinge 1 slides (M = 1: the ring's sway, which the weights do not work on;
    S = 2: states of moments only, so the forces are determined). In closed form, with weights
    W_side = 3 and W_bottom = 6: each side panel is pulled by N = W_side + W_bottom / 2 = 6 at the top hinge
    and N = W_bottom / 2 = 3 at the bottom hinge (tension); the top and bottom panels feel the side panels
    along their normals m (out of the ring): TO = -6 on the top panel, TO = -3 on the bottom panel.
    """
    pat = simple.rectangular_ring(2.0, 1.0, 3.0)
    supports = (Support(3, 2, "xyz"), Support(2, 2, "yz"), Support(7, 2, "y"))
    st = Structure(pat, (SLIDING, DOOR, DOOR, DOOR), THICKNESS, supports=supports, gravity=(0, -G, 0),
                   name="four-panel ring hanging")
    r = analysis.static(st, engine=engine, allow_indeterminate=True)
    assert (r.M, r.S) == (1, 2)
    R = rows(r)
    # hinges (0-based): 0 at corner (2, 0) between panels 0, 1; 1 at (2, 1) between 1, 2; 2 at (0, 1) between 2, 3;
    # 3 at (0, 0) between 3, 0
    forces = {(h, p): R[(h, p)][3:] for h, p in R}
    want = {(1, 1): (6, 0, 0), (2, 3): (6, 0, 0), (0, 1): (3, 0, 0), (3, 3): (3, 0, 0),
            (1, 2): (0, 0, -6), (2, 2): (0, 0, -6), (0, 0): (0, 0, -3), (3, 0): (0, 0, -3)}
    tol = RTOL[engine] * 6
    for hp, (N, TP, TO) in want.items():
        assert forces[hp] == pytest.approx([N, TP, TO], abs=tol), hp
    for part in ({0}, {0, 1}, {0, 3}, {0, 1, 3}):
        assert_cut_balances(st, r, part, RTOL[engine])


# ------------------------------------------------------------------ square twist
@pytest.mark.parametrize("engine", ENGINES)
def test_folded_square_twist_hangs_from_its_central_square(engine):
    """The folded square twist of Fig. 1 (twist 30 deg, fold 20 deg), all door hinges, its square held, gravity -y.

    The folded twist is symmetric under a half turn about z, which maps its mechanism onto itself, so a
    horizontal weight does no work on it (M = 1: the minimum-norm answer exists). With S = 13 the hinge
    actions are not determined, but the eight outer panels hang from the square's four sides: the rows
    across those sides must hold up their weight, force and moment, whatever self-stress is added.
    """
    pat = simple.square_twist_folded(20.0, 30.0)
    supports = (Support(0, 0, "xyz"), Support(1, 0, "yz"), Support(3, 0, "z"))
    st = Structure(pat, thickness=THICKNESS, supports=supports, gravity=(0, -G, 0), name="square twist hanging")
    r = analysis.static(st, engine=engine, allow_indeterminate=True)
    assert (r.M, r.S) == (1, 13)
    outer = set(range(1, 9))
    assert sorted(h for h, _ in cut(st, outer)) == [0, 1, 2, 3]
    assert_cut_balances(st, r, outer, RTOL[engine])
    for p in outer:                              # and each outer panel is in equilibrium by itself
        assert_cut_balances(st, r, {p}, RTOL[engine])
