"""Structures without supports: free to move as a rigid body.

Counting subtracts the 6 rigid motions, so a free structure can be
"isostatic" (M = 0 internal mechanisms, S = 0). Its statics has an answer only
for loads that balance; then the answer equals that of the same structure
held by 6 supports that make it isostatic (they react with zero force).
Loads that do not balance are a usage error that names the FOLD key adding
supports (command-line exit code 2).
"""
from dataclasses import replace

import numpy as np
import pytest

from chrono_origami.analysis import static as analysis
from chrono_origami import cli, engines
from chrono_origami.cli import app
from chrono_origami.tools.errors import FreeBodyError
from chrono_origami.structure.foldfile import write_fold
from chrono_origami.patterns.kresling import kresling_module
from chrono_origami.structure.structure import Load


def balanced(structure, a=0, b=4, tension=3.0):
    """A pair of equal and opposite forces along the line from vertex a to vertex b: no resultant, no moment."""
    X = structure.pattern.vertices
    d = (X[b] - X[a]) / np.linalg.norm(X[b] - X[a])
    return replace(structure, loads=(Load(a, tuple(-tension * d), None), Load(b, tuple(tension * d), None)))


ENGINES = ["reference", pytest.param("chrono", marks=pytest.mark.chrono)]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_free_isostatic_structure_under_loads_that_do_not_balance(engine):
    free = replace(kresling_module(), supports=())
    c = analysis.count(free, engine)
    assert (c.M, c.S) == (0, 0) and not c.supported
    with pytest.raises(FreeBodyError) as info:
        analysis.static(free, engine)
    text = str(info.value)
    assert "free to move as a rigid body" in text and "vertices_origami:support" in text and "\n" not in text
    assert text.startswith(f"{free.name}: the structure has no supports, so it is free to move as a rigid body, "
                           "and its loads do not balance (relative resultant ")
    assert app.exit_code(info.value) == app.EXIT_USAGE == 2


def test_free_statics_of_balanced_loads_equal_the_supported_ones():
    held = balanced(kresling_module())
    free = replace(held, supports=())
    a = analysis.static(held, "reference")
    b = analysis.static(free, "reference")
    assert a.status == b.status == "determined"
    for r in a.support_reactions:                                   # the supports do nothing
        np.testing.assert_allclose(r.force, 0, atol=1e-12)
    scale = max(np.abs(x.values).max() for x in a.hinge_actions)
    assert scale > 1.0
    for x, y in zip(a.hinge_actions, b.hinge_actions):
        np.testing.assert_allclose(y.values, x.values, atol=1e-10 * scale)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_command_line_exits_with_the_usage_code(tmp_path, capsys, engine):
    path = tmp_path / "free.fold"
    write_fold(replace(kresling_module(), supports=()), path)
    assert cli.main(["static", str(path), "--engine", engine]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "free to move as a rigid body" in err[0] and "vertices_origami:support" in err[0]


def test_chrono_agrees_on_a_free_structure():
    pytest.importorskip("pychrono", exc_type=ImportError, reason=engines.chrono_unavailable_reason())
    free = replace(balanced(kresling_module()), supports=())
    a = analysis.static(free, "reference")
    b = analysis.static(free, "chrono")
    scale = max(np.abs(x.values).max() for x in a.hinge_actions)
    for x, y in zip(a.hinge_actions, b.hinge_actions):
        np.testing.assert_allclose(y.values, x.values, atol=1e-7 * scale)
