"""The modal analysis of a user's own structure: ``co.modal`` in Python and the ``modal`` command, both engines.

Closed forms: one square panel (side 1, thickness H, density RHO) on a door hinge along the x axis, its neighbour
held, with a crease spring k on the hinge. Without gravity it is a torsion oscillator about the hinge line,
w^2 = k / I_axis; hanging under gravity (its centre of mass a distance d = 1/2 below the hinge) it is a compound
pendulum with a spring, w^2 = (k + m g d) / I_axis with Kc; without Kc the gravity term is missing (gravity acts
at the centre of mass: only the constraint tangent stiffness carries it), w^2 = k / I_axis.
I_axis = m ((1 + H^2) / 12 + d^2) about the hinge line (parallel axes).
"""
import numpy as np
import pytest

import chrono_origami as co
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.structure.hinges import DOOR
from chrono_origami.structure.structure import Structure, Support
from chrono_origami.tools.errors import StructureError

ENGINES = [pytest.param("reference"), pytest.param("chrono", marks=pytest.mark.chrono)]
G, H, RHO, K = 9.81, 0.01, 1000.0, 2.0
MASS, D = RHO * H, 0.5
I_AXIS = MASS * ((1 + H * H) / 12 + D * D)


def door_panel(gravity=True, thickness=H, density=RHO):
    """Panel 1 = [0, 1]^2 held 3-2-1, panel 2 = [0, 1] x [-1, 0] on the door hinge y = 0; gravity -y (hanging)."""
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [1, -1, 0], [0, -1, 0]]
    pat = CreasePattern(X, [(0, 1, 2, 3), (0, 5, 4, 1)])
    sups = (Support(2, 0, "xyz"), Support(3, 0, "yz"), Support(1, 0, "z"))
    return Structure(pat, (DOOR,), thickness, density, sups, gravity=(0, -G, 0) if gravity else None,
                     name="door panel")


def hz(omega_squared):
    return np.sqrt(omega_squared) / (2 * np.pi)


@pytest.mark.parametrize("engine", ENGINES)
def test_co_modal_gives_the_closed_forms_with_and_without_kc(engine):
    r = co.modal(door_panel(), engine, crease_stiffness=K, kc="compare")
    np.testing.assert_allclose(r.frequencies_hz, [hz((K + MASS * G * D) / I_AXIS)], rtol=1e-9)
    np.testing.assert_allclose(r.without_kc.frequencies_hz, [hz(K / I_AXIS)], rtol=1e-9)
    (row,) = r.table().rows
    assert row[0] == 1 and row[3] is True
    np.testing.assert_allclose(row[2], (K + MASS * G * D) / I_AXIS, rtol=1e-9)     # eigenvalue: omega^2
    assert r.engine == engine and r.zero_modes == []
    # no spring and no Kc: nothing stiffens the panel, a zero mode named by the panel that moves (panel 2)
    free = co.modal(door_panel(), engine, kc="off")
    assert free.modes == [] and free.zero_mode_panels() == [[1]]


def test_co_tolerance_is_the_verb_of_the_three_tolerance_analyses():
    from chrono_origami.analysis import tolerance as tl
    from chrono_origami.patterns import miura

    s = miura.miura_patch(2, 2).with_supports("min-x:xyz")
    spec = co.ToleranceSpec(1e-4)
    a, b = co.tolerance(s, spec), tl.locked_in_statistics(s, spec)
    np.testing.assert_array_equal(a.sd, b.sd)
    mc = co.tolerance(s, spec, samples=3, engine="reference")
    assert mc.method == "monte carlo"
    with pytest.raises(StructureError, match="tolerance spec"):
        co.tolerance(s)
