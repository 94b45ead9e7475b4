"""Reference statics: a hand-checked cantilever, and the labelled answer of an indeterminate structure."""
import numpy as np
import pytest

from chrono_origami.analysis import static as analysis
from chrono_origami.tools.errors import IndeterminateError
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.engines.reference.count import count
from chrono_origami.engines.reference.static import solve
from chrono_origami.structure.structure import Load, Structure, Support
from chrono_origami.structure.hinges import DOOR, SLIDING

# two unit squares in the plane z = 0 hinged along x = 1 (hinge from (1,0) to (1,1))
X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0]]
PANELS = [(0, 1, 2, 3), (1, 4, 5, 2)]


def cantilever(kind=DOOR, extra=()):
    """Panel 1 held isostatically (vertex 1 xyz, 4 xz, 2 z); panel 2 held at vertex 5 (2, 0, 0) in z."""
    pat = CreasePattern(X, PANELS)
    sup = (Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z"), Support(4, 1, "z")) + tuple(extra)
    # panel 2 carries a downward unit load at its corner (2, 1, 0)
    return Structure(pat, (kind,), supports=sup, loads=(Load(5, (0, 0, -1.0), 1),))


def test_door_hinge_actions_by_hand():
    # Panel 2: load (0,0,-1) at (2,1,0), support at (2,0,0). Moments about the hinge axis (x = 1) give the
    # support reaction +1 and no vertical hinge force. About the midpoint c = (1, 0.5, 0) the load and the
    # support give r x F = (-0.5, 1, 0) + (-0.5, -1, 0) = (-1, 0, 0): the hinge applies (1, 0, 0) to panel 2,
    # a pure twisting moment.
    s = cantilever()
    assert count(s).isostatic
    r = solve(s)
    a = r.action(0, 1)
    np.testing.assert_allclose(a.force, [0, 0, 0], atol=1e-12)
    np.testing.assert_allclose(a.moment, [1, 0, 0], atol=1e-12)
    # panel 2's frame: loop (2,5,6,3) runs the hinge 3 -> 2, t = (0,-1,0); m = (0,0,1); n = t x m = (-1,0,0)
    np.testing.assert_allclose(a.frame, [[-1, 0, 0], [0, -1, 0], [0, 0, 1]], atol=1e-15)
    assert a.values == pytest.approx((-1, 0, 0, 0, 0, 0), abs=1e-12)   # MT = -1, all else zero
    # action and reaction; panel 1's frame has t = (0,1,0), n = (1,0,0): the same MT = -1 seen from panel 1
    b = r.action(0, 0)
    np.testing.assert_allclose(b.moment, -a.moment, atol=1e-12)
    assert b.values == pytest.approx((-1, 0, 0, 0, 0, 0), abs=1e-12)
    # the supports carry the unit load
    assert sum(x.force[2] for x in r.support_reactions) == pytest.approx(1.0, abs=1e-12)
    assert r.support_reactions[3].force == pytest.approx([0, 0, 1.0], abs=1e-12)


def test_hyperstatic_structure_is_refused_with_M_and_S():
    s = cantilever(extra=(Support(5, 1, "z"),))     # a second vertical support on panel 2: S = 1
    c = count(s)
    assert (c.M, c.S) == (0, 1)
    with pytest.raises(IndeterminateError, match=r"M = 0 mechanisms, S = 1 self-stress") as e:
        solve(s)
    assert (e.value.M, e.value.S) == (0, 1)
    assert "self-stress state 1: hinges [1], supports at vertices [1, 4, 5, 6]" in str(e.value)   # a twist about x, through the hinge


def test_minimum_norm_answer_is_labelled_and_any_self_stress_may_be_added():
    s = cantilever(extra=(Support(5, 1, "z"),))
    r = solve(s, allow_indeterminate=True)
    assert r.status == "minimum-norm" and (r.M, r.S) == (0, 1)
    assert len(r.self_stress_actions) == 1
    # adding the self-stress state keeps every panel in equilibrium: the support reactions still carry the load
    F = sum(x.force for x in r.support_reactions)
    np.testing.assert_allclose(F, [0, 0, 1], atol=1e-12)
    assert r.equilibrium_residual < 1e-12
    st = r.self_stress_actions[0]
    # a self-stress state is a pair of opposite wrenches on the hinge's two panels
    np.testing.assert_allclose(st[0].force, -st[1].force, atol=1e-12)


def test_mechanism_with_unbalanced_load_is_refused():
    pat = CreasePattern(X, PANELS)
    # sliding hinge and a clamped panel 1: panel 2 may slide along the hinge; a load along the axis cannot be carried
    s = Structure(pat, (SLIDING,), supports=cantilever().supports, loads=(Load(5, (0, 1.0, 0), 1),))
    c = count(s)
    assert (c.M, c.S) == (1, 0)
    with pytest.raises(IndeterminateError, match="M = 1 mechanism,"):
        solve(s)
    with pytest.raises(IndeterminateError, match="cannot be equilibrated"):
        solve(s, allow_indeterminate=True)


ENGINES = [pytest.param("reference"), pytest.param("chrono", marks=pytest.mark.chrono)]


def sliding_cantilever(fy):
    """The cantilever with a sliding hinge (M = 1: panel 2 slides along the hinge, y), load (0, fy, -1) at (2, 1, 0)."""
    pat = CreasePattern(X, PANELS)
    return Structure(pat, (SLIDING,), supports=cantilever().supports, loads=(Load(5, (0, fy, -1.0), 1),))


def mechanism_fraction(fy):
    """|f . u| / |f| for the scaled generalised force f of the load and the unit mechanism u (panel 2 along y).

    reference.model: panel 2's generalised force is (moment about x0, L force); x0 the vertex centroid, L the
    bounding-box diagonal. The mechanism moves panel 2 along y: u = (0, 0, 0, 0, 1, 0) on panel 2.
    """
    x0, L = np.mean(X, axis=0), np.sqrt(5.0)
    F = np.array([0, fy, -1.0])
    f = np.concatenate([np.cross(np.array([2.0, 1, 0]) - x0, F), L * F])
    return abs(L * fy) / np.linalg.norm(f)


@pytest.mark.parametrize("engine", ENGINES)
def test_load_slightly_out_of_the_range_of_the_equilibrium_operator_is_refused(engine):
    """A load whose component along the mechanism is 1e-6 of its size cannot be carried: refused, with that residual.

    The refusal tolerance (reference.static.EQUILIBRIUM_RTOL, 1e-9) must lie below 1e-6 and above round-off:
    the same structure under a load in the range of the operator is answered.
    """
    fy = 1e-6
    for _ in range(3):                           # nearly linear in fy: a fixed point in three steps
        fy *= 1e-6 / mechanism_fraction(fy)
    assert mechanism_fraction(fy) == pytest.approx(1e-6, rel=1e-9)
    with pytest.raises(IndeterminateError, match=r"cannot be equilibrated \(relative residual 1e-06\)") as e:
        analysis.static(sliding_cantilever(fy), engine=engine, allow_indeterminate=True)
    assert (e.value.M, e.value.S) == (1, 0)
    with pytest.raises(IndeterminateError, match="cannot be equilibrated"):
        analysis.static(sliding_cantilever(1e3 * fy), engine=engine, allow_indeterminate=True)
    # in the range: no component along the mechanism; answered as the door-hinge cantilever is (TP = 0 here)
    r = analysis.static(sliding_cantilever(0.0), engine=engine, allow_indeterminate=True)
    assert (r.status, r.M, r.S) == ("minimum-norm", 1, 0)
    assert r.equilibrium_residual < 1e-12
    assert r.action(0, 1).values == pytest.approx((-1, 0, 0, 0, 0, 0), abs=1e-12)
    assert r.support_reactions[3].force == pytest.approx([0, 0, 1.0], abs=1e-12)
