"""FOLD "J" edges: the registered hinge kind "joined" (all six relative motions locked), end to end.

Two coplanar squares joined by a "J" edge behave as the one rectangle they
make: the same counts and, across the door hinge to a third panel, the same
hinge actions and support reactions, with both engines.
"""
import numpy as np
import pytest

from chrono_origami.analysis import static as analysis
from chrono_origami.structure import hinges
from chrono_origami.structure.foldfile import fold_dict, read_fold
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.engines.reference.count import count, counting_rules
from chrono_origami.structure.structure import Load, Structure, Support
from chrono_origami.structure.hinges import DOOR

ENGINES = [pytest.param("reference"), pytest.param("chrono", marks=pytest.mark.chrono)]
LOADS_AT = {4: (0.3, -0.2, -1.0), 6: (0.0, 0.5, -2.0), 7: (-0.4, 0.1, 0.7)}


def three_panels():
    """Squares 1 and 2 (z = 0) joined along x = 1; panel 3 on a door hinge along x = 2, folded up by 40 deg."""
    c, s = np.cos(np.radians(40)), np.sin(np.radians(40))
    X = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [2 + c, 0, s], [2 + c, 1, s]]
    pat = CreasePattern(X, [(0, 1, 4, 3), (1, 2, 5, 4), (2, 6, 7, 5)])
    sups = (Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z"), Support(6, 2, "z"))
    loads = (Load(4, LOADS_AT[4], 0), Load(6, LOADS_AT[6], 2), Load(7, LOADS_AT[7], 2))
    h = {tuple(sorted(x.vertices)): x.index for x in pat.hinges}
    kinds = [None, None]
    kinds[h[(1, 4)]], kinds[h[(2, 5)]] = hinges.JOINED, DOOR
    return Structure(pat, tuple(kinds), supports=sups, loads=loads, name="J-joined squares and a flap")


def merged():
    """The same, squares 1 and 2 as one rectangle (panel 1), the flap panel 2."""
    c, s = np.cos(np.radians(40)), np.sin(np.radians(40))
    X = [[0, 0, 0], [2, 0, 0], [0, 1, 0], [2, 1, 0], [2 + c, 0, s], [2 + c, 1, s], [1, 1, 0], [1, 0, 0]]
    pat = CreasePattern(X, [(0, 7, 1, 3, 6, 2), (1, 4, 5, 3)])
    sups = (Support(0, 0, "xyz"), Support(2, 0, "xz"), Support(7, 0, "z"), Support(4, 1, "z"))
    loads = (Load(6, LOADS_AT[4], 0), Load(4, LOADS_AT[6], 1), Load(5, LOADS_AT[7], 1))
    return Structure(pat, (DOOR,), supports=sups, loads=loads, name="rectangle and a flap")


def test_j_edges_read_as_joined_hinges():
    d = fold_dict(three_panels())
    k = d["edges_vertices"].index([1, 4]) if [1, 4] in d["edges_vertices"] else d["edges_vertices"].index([4, 1])
    d["edges_assignment"][k] = "J"
    d["edges_origami:hinge"][k] = None               # "J" alone makes the kind
    s = read_fold(d)
    assert sorted(s.hinge_kinds) == sorted((hinges.JOINED, DOOR))
    assert hinges.get(hinges.JOINED).n_rows == 6 and hinges.get(hinges.JOINED).free == ()
    back = fold_dict(s)
    assert back["edges_origami:hinge"][k] == "joined"


def test_joined_counts_like_one_rigid_panel():
    a, b = count(three_panels()), count(merged())
    assert (a.M, a.S) == (b.M, b.S) == (0, 0)
    assert counting_rules(three_panels()).maxwell == 18 - 6 - 5 - 7 == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_joined_statics_equals_the_merged_panel(engine):
    a = analysis.static(three_panels(), engine)
    b = analysis.static(merged(), engine)
    door = [x for x in a.hinge_actions if x.kind == DOOR]
    ref = b.hinge_actions
    assert len(door) == len(ref) == 2
    va = np.array([x.values for x in sorted(door, key=lambda x: x.panel)])
    vb = np.array([x.values for x in sorted(ref, key=lambda x: x.panel)])
    assert np.abs(va - vb).max() < 1e-9 * np.abs(vb).max()
    ra = {r.vertex: r.force for r in a.support_reactions}
    pa = three_panels().pattern.vertices
    for r in b.support_reactions:                     # same vertex positions, same reactions
        v = int(np.argmin(np.linalg.norm(pa - merged().pattern.vertices[r.vertex], axis=1)))
        assert np.abs(ra[v] - r.force).max() < 1e-9 * max(np.abs(r.force).max(), 1.0)
    joined = [x for x in a.hinge_actions if x.kind == hinges.JOINED]
    assert len(joined) == 2 and max(np.abs(x.values).max() for x in joined) > 0.1   # a joint carries all six


def test_design_keeps_joined_hinges_and_writes_a_file_static_reads(tmp_path, capsys):
    """A 3 x 3 Miura-ori patch held 3-2-1, one of its hinges a "J" edge: design counts the structure as it is (the
    same M and S as ``count``), never makes the joined hinge slide, and writes it back as "joined", so that the
    file it writes is read by ``static`` (it once wrote the joined edge as a door or sliding hinge, which the reader
    refuses against the 'J' letter) with the counts design printed after."""
    import json
    import re
    from dataclasses import replace

    from chrono_origami.analysis.design import DesignError, design
    from chrono_origami.patterns.miura import miura_patch
    from cli_output import run

    s = miura_patch(3, 3)
    X = s.pattern.vertices
    a = int(np.argmax(np.linalg.norm(X - X[0], axis=1)))                 # 3-2-1 on three far, not collinear vertices
    b = int(np.argmax(np.linalg.norm(np.cross(X - X[0], X[a] - X[0]), axis=1)))
    panel = {v: p for p, loop in enumerate(s.pattern.panels) for v in loop}
    s = replace(s, supports=(Support(0, panel[0], "xyz"), Support(a, panel[a], "yz"), Support(b, panel[b], "z")))
    j = 5
    s = s.with_hinge_kinds(tuple(hinges.JOINED if h == j else DOOR for h in range(len(s.pattern.hinges))))
    c = count(s)
    result = design(s)
    assert (result.M_before, result.S_before) == (c.M, c.S) and c.S > 0
    assert all(j not in d.sliding for d in result.designs)
    assert result.structure(s).hinge_kinds[j] == hinges.JOINED
    after = count(result.structure(s))
    assert (after.M, after.S) == (result.best.M, result.best.S)
    with pytest.raises(DesignError, match=rf"hinge {j + 1} is 'joined' \(not a door hinge\)"):
        design(s, sliding=(j,))

    d = fold_dict(s)
    k = next(i for i, e in enumerate(d["edges_vertices"]) if sorted(e) == sorted(s.pattern.hinges[j].vertices))
    d["edges_assignment"][k] = "J"
    (tmp_path / "in.fold").write_text(json.dumps(d))
    code, out, err = run(capsys, "design", tmp_path / "in.fold", "-o", tmp_path / "designed.fold")
    assert code in (0, 3), err
    assert f"before (all door hinges): M = {c.M}, S = {c.S}" in out
    m = re.search(r"after: M = (\d+), S = (\d+)", out)
    back = read_fold(str(tmp_path / "designed.fold"))
    assert back.hinge_kinds[j] == hinges.JOINED
    assert (count(back).M, count(back).S) == (int(m.group(1)), int(m.group(2)))
    code, out, err = run(capsys, "static", tmp_path / "designed.fold", "--load", "all:0,0,-1", "--engine", "reference",
                         "--out", tmp_path / "st", *(() if m.group(2) == "0" and m.group(1) == "0" else ("--elastic",)))
    assert code == 0, err
