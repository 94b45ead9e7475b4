"""The modal analysis through either engine (``structure_modes(structure, engine)``): closed forms and agreement.

A panel hanging from a held panel under gravity in their plane is a
compound pendulum: its only stiffness is the constraint tangent stiffness Kc
(gravity acts at its centre of mass), so without Kc it has no finite mode.
On a door hinge it swings about the hinge axis, w^2 = m g d / I_axis; on a
ball it also swings in the plane, w^2 = m g d / I_normal, and turns freely
about the vertical (a zero mode). The reference engine linearises at the
pattern configuration only, which must be an equilibrium.
"""
import numpy as np
import pytest

from chrono_origami.analysis.modal import structure_modes
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.patterns import miura
from chrono_origami.structure.hinges import DOOR, SPHERICAL
from chrono_origami.structure.structure import Structure, Support
from chrono_origami.tools.errors import SolverError

ENGINES = [pytest.param("reference"), pytest.param("chrono", marks=pytest.mark.chrono)]
G, H, RHO = 9.81, 0.01, 1000.0


def hanging_panel(kind):
    """Panel 1 = [0, 1]^2 held (6 support rows), panel 2 = [0, 1] x [-1, 0] below it on hinge y = 0, gravity -y."""
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [1, -1, 0], [0, -1, 0]]
    pat = CreasePattern(X, [(0, 1, 2, 3), (0, 5, 4, 1)])
    sups = (Support(2, 0, "xyz"), Support(3, 0, "yz"), Support(1, 0, "z"))
    return Structure(pat, (kind,), H, RHO, sups, gravity=(0, -G, 0), name=f"hanging panel ({kind})")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kind", [DOOR, SPHERICAL])
def test_hanging_panel_swings_at_the_compound_pendulum_frequencies(kind, engine):
    d = 0.5                                                  # pivot (hinge axis, or ball) to centre of mass
    out_of_plane = np.sqrt(G * d / ((1 + H * H) / 12 + d * d))   # about the hinge axis x
    in_plane = np.sqrt(G * d / ((1 + 1) / 12 + d * d))           # about the normal z
    expected = [out_of_plane] if kind == DOOR else sorted([in_plane, out_of_plane])
    r = structure_modes(hanging_panel(kind), engine)
    w = 2 * np.pi * r.with_kc.frequencies_hz
    np.testing.assert_allclose(w, expected, rtol=1e-8)
    assert len(r.with_kc.zero_modes) == (1 if kind == SPHERICAL else 0)      # the ball turns about the vertical
    assert r.without_kc.modes == []                          # without Kc nothing holds the pendulum up


def triangulated_miura():
    """A free 3 x 4 Miura-ori patch, every panel split along a diagonal, door hinges, crease springs (1 on the
    creases, 50 on the diagonals)."""
    pat = miura.miura_pattern(3, 4)
    diag = {tuple(sorted((loop[0], loop[2]))) for loop in pat.panels}
    tp = CreasePattern(pat.vertices, [t for a, b, c, d in pat.panels for t in ((a, b, c), (a, c, d))])
    k = np.array([50.0 if tuple(sorted(h.vertices)) in diag else 1.0 for h in tp.hinges])
    return Structure(tp, (DOOR,) * len(tp.hinges), H, RHO, name="triangulated Miura"), k


@pytest.mark.chrono
def test_both_engines_give_the_same_modes_of_a_free_triangulated_miura_patch():
    s, k = triangulated_miura()
    ref, ch = (structure_modes(s, e, crease_stiffness=k, method="nullspace", compare=False).with_kc
               for e in ("reference", "chrono"))
    boundary = len({v for e in s.pattern.boundary_edges for v in e})
    assert len(ref.modes) == len(ch.modes) == boundary - 3     # rigid-origami mechanisms of a triangulated disk
    np.testing.assert_allclose(ref.frequencies_hz, ch.frequencies_hz, rtol=1e-7)
    assert len(ref.zero_modes) == len(ch.zero_modes) == 6


def test_the_reference_engine_refuses_a_configuration_out_of_equilibrium():
    """The paper's cantilever clamped on one panel: a loaded mechanism, whose equilibrium only Chrono finds."""
    c = miura.miura_cantilever(thickness=0.01, density=1000.0)
    s = Structure(c.pattern, c.hinge_kinds, c.thickness, c.density,
                  (Support(18, 10, "xyz"), Support(19, 10, "xz"), Support(15, 10, "z")), c.loads, (0, 0, -G))
    with pytest.raises(SolverError, match="not in equilibrium at the pattern's configuration.*engine='chrono'"):
        structure_modes(s, "reference", crease_stiffness=500.0)
