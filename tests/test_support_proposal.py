"""The support proposal (chrono_origami/support_proposal.py): the fewest held directions that stop the six rigid-body
motions, and nothing else.

On each structure, with its own supports removed: the free structure has nullity n = 6P - rank (its internal
mechanisms M_free = n - 6 and the six rigid motions). The proposal holds exactly 6 directions, and the supported
structure's counts are M = n - 6 = M_free (every internal mechanism still free, no rigid motion) and S = S_free (no
self-stress added). Minimal: removing any one held direction raises M by exactly one (a rigid motion freed).
Numbers asserted (M, S of the free structure, from the paper and the counting tests):
square twist, flat (9 panels): M = 4, S = 16; Miura cantilever (12 panels, its 15 sliding hinges): M = 1, S = 0;
Kresling module (isostatic design): M = 0, S = 0; flat Miura sheet 6 x 6 (36 panels): M = 10, S = 100.
"""
from dataclasses import replace

import numpy as np
import pytest

import chrono_origami as co
from chrono_origami.analysis import static as analysis
from chrono_origami.results.design import DesignResult
from chrono_origami.patterns import kresling, miura, simple
from chrono_origami.structure.structure import Structure, Support
from chrono_origami.tools.errors import StructureError
from chrono_origami.analysis.support import propose_support, rigid_rows
import styles
from cli_output import run as cli_run

CASES = {
    "square twist": (lambda: Structure(simple.square_twist()), 9, 4, 16),
    "miura cantilever": (lambda: replace(miura.miura_cantilever(), supports=(), loads=()), 12, 1, 0),
    "kresling module": (lambda: replace(kresling.kresling_module(), supports=(), loads=()), 6, 0, 0),
    "flat miura sheet": (lambda: miura.miura_patch(6, 6, 60.0, 0.0), 36, 10, 100),
}


def without(structure, support, direction):
    """``structure`` with ``direction`` of ``support`` no longer held."""
    out = []
    for s in structure.supports:
        if s == support:
            if len(s.dofs) > 1:
                out.append(Support(s.vertex, s.panel, s.dofs.replace(direction, "")))
        else:
            out.append(s)
    return replace(structure, supports=tuple(out))


@pytest.mark.parametrize("name", CASES)
def test_the_proposal_leaves_exactly_the_internal_mechanisms_and_is_minimal(name):
    build, P, M_free, S_free = CASES[name]
    free = build()
    assert free.pattern.n_panels == P and free.supports == ()
    c_free = analysis.count(free, "reference")
    nullity = c_free.n_dof - c_free.rank
    assert (c_free.M, c_free.S, nullity) == (M_free, S_free, M_free + 6)
    prop = propose_support(free)
    assert prop.rank_before == 0 and prop.n_held == 6
    assert [len(s.dofs) for s in prop.supports] == [3, 2, 1]          # the 3-2-1 support
    c = analysis.count(prop.structure, "reference")
    assert (c.M, c.S) == (nullity - 6, S_free) == (M_free, S_free)
    for s in prop.supports:
        assert s.panel == prop.structure.pattern.vertex_panels[s.vertex][0]
        for d in s.dofs:
            fewer = analysis.count(without(prop.structure, s, d), "reference")
            assert (fewer.M, fewer.S) == (c.M + 1, c.S), (s, d)
    # the report names what is still free
    text = prop.report(c)
    assert f"with it: M = {M_free} mechanism" in text
    if M_free:
        assert "it does not stop the" in text and "move most" in text
    else:
        assert "it stops every motion" in text


def test_partial_supports_are_completed_with_the_fewest_directions():
    """The Kresling module's own supports kept but one: the proposal adds the missing directions only."""
    st = kresling.kresling_module()
    held = sum(len(s.dofs) for s in st.supports)
    assert held == 6 and propose_support(st).supports == ()
    first = st.supports[0]
    partial = without(st, first, first.dofs[0])
    prop = propose_support(partial)
    assert prop.rank_before == 5 and prop.n_held == 1
    c = analysis.count(prop.structure, "reference")
    assert (c.M, c.S) == (0, 0)
    assert prop.structure.origins("supports")[-1] == "proposed"


def test_rows_on_the_rigid_motions_are_those_of_the_operator():
    """A support row on the 6 rigid motions equals the assembled support row applied to the rigid-motion basis."""
    from chrono_origami.results.count import rigid_motions
    from chrono_origami.engines.reference.model import assemble

    st = Structure(simple.square_twist_folded(40.0)).with_supports("7:xyz", "12:xz")
    model = assemble(st)
    pat = st.pattern
    L, c = pat.size, pat.vertices.mean(0)
    B = rigid_motions(pat.n_panels) * np.sqrt(pat.n_panels)          # (omega, w / L) of every panel
    for s, rows in zip(st.supports, model.support_rows):
        A = model.Cs[rows].toarray() @ B
        R = rigid_rows(pat, s.vertex, s.dofs, c, L)
        for a, r in zip(A, R):                                          # row by row: the same up to scale
            assert np.linalg.norm(a) > 0
            np.testing.assert_allclose(a / np.linalg.norm(a), r / np.linalg.norm(r), atol=1e-12)


def test_a_large_flat_sheet_without_forming_an_operator(monkeypatch):
    """900 panels (5,400 columns: the sparse path): the proposal forms no operator; the count of the supported
    sheet is sparse and keeps the free sheet's 58 internal mechanisms (2 (n - 1) at flat)."""
    free = miura.miura_patch(30, 30, 60.0, 0.0)
    import chrono_origami.engines.reference.count as counting
    import chrono_origami.engines.reference.model as model

    def no_operator(*a, **k):
        raise AssertionError("the proposal assembled or counted a whole-structure operator")

    for module, name in ((model, "assemble"), (counting, "assemble"), (counting, "count"), (analysis, "count")):
        monkeypatch.setattr(module, name, no_operator)
    prop = propose_support(free)
    monkeypatch.undo()
    assert prop.n_held == 6
    c = analysis.count(prop.structure, "reference")
    c_free = analysis.count(free, "reference")
    assert c.linalg == c_free.linalg == "sparse"
    assert c.M == c_free.M == 58 and c.S == c_free.S
    assert "mechanisms (a generic combination)" in prop.report(c)


def test_public_names():
    assert co.propose_support is propose_support
    s = co.miura.miura_single_vertex()
    r = co.design(co.propose_support(s).structure)         # co.design is callable, like co.count
    assert isinstance(r, DesignResult) and (r.M_after, r.S_after) == (1, 0)


@pytest.mark.parametrize("name", ["square twist", "miura cantilever", "flat miura sheet"])
def test_the_mechanism_stops_leave_no_mechanism_and_the_same_self_stress(name):
    """After the proposal, one held direction per mechanism, where it moves most (mechanism_stops): with them
    M = 0 and S is the free structure's (each row raises the rank by one); the report gives them as --support
    forms. Removing any one of them frees one mechanism again."""
    from chrono_origami.analysis.support import mechanism_stops, stop_line
    from chrono_origami.structure.boundary import support_text

    build, P, M_free, S_free = CASES[name]
    prop = propose_support(build())
    c = analysis.count(prop.structure, "reference")
    stops = mechanism_stops(prop.structure, c)
    assert sum(len(s.dofs) for s in stops) == M_free
    held = prop.structure.with_supports(*stops)
    after = analysis.count(held, "reference")
    assert (after.M, after.S) == (0, S_free)
    for s in stops:
        for d in s.dofs:
            fewer = analysis.count(without(held, s, d), "reference")
            assert (fewer.M, fewer.S) == (1, S_free)
    line = stop_line(prop.structure, c)
    assert line.startswith(" ".join(f"--support {support_text(s)}" for s in stops))
    assert f"with {'it' if M_free == 1 else 'them'} M = 0 and S = {S_free}, unchanged" in line
    assert f"to stop {'it' if M_free == 1 else 'them'}: --support " in prop.report(c)


def test_no_mechanism_stops_without_supports_or_beyond_the_limit():
    """A free structure gets no stops (its rigid motions first: --support auto); nor do more mechanisms than
    STOP_LIMIT (the report then names the panels that move most)."""
    from chrono_origami.analysis.support import STOP_LIMIT, mechanism_stops

    free = CASES["square twist"][0]()
    assert mechanism_stops(free, analysis.count(free, "reference")) == ()
    sheet = propose_support(miura.miura_patch(8, 8, 60.0, 0.0)).structure
    c = analysis.count(sheet, "reference")
    assert c.M > STOP_LIMIT and mechanism_stops(sheet, c) == ()
    assert "to stop them: hold more vertices of the panels that move most" in propose_support(
        miura.miura_patch(8, 8, 60.0, 0.0)).report(c)


def test_a_structure_in_two_pieces_gets_the_fewest_supports_of_each(tmp_path, capsys):
    """Two separate folded squares (two pieces, each two panels and one door hinge: 12 - 5 = 7 motions, six rigid
    and one about the crease): the proposal holds each piece with a 3-2-1 support on its own panels (12 directions),
    so the supported structure keeps exactly the two crease rotations (M = 2, S = 0); removing any one direction frees
    one rigid motion. Through the command line, ``support`` says so and ``static --elastic --support auto`` carries a
    load on every vertex (exit 0)."""
    from chrono_origami.structure import foldfile

    path = styles.two_squares_fold(tmp_path / "two.fold")
    free = foldfile.read_structure(str(path))
    assert free.pattern.n_panels == 4 and len(free.pattern.hinges) == 2
    prop = propose_support(free)
    assert prop.n_pieces == 2 and prop.rank_before == 0 and prop.n_held == 12
    pieces = [{0, 1}, {2, 3}]
    for piece in pieces:
        assert sorted(len(s.dofs) for s in prop.supports if s.panel in piece) == [1, 2, 3]
    c = analysis.count(prop.structure, "reference")
    assert (c.M, c.S) == (2, 0)
    for s in prop.supports:
        for d in s.dofs:
            fewer = analysis.count(without(prop.structure, s, d), "reference")
            assert (fewer.M, fewer.S) == (3, 0), (s, d)
    assert "the six rigid-body motions of each of its 2 pieces (panels joined by hinges)" in prop.summary()

    def run(*argv):
        return cli_run(capsys, *argv)

    code, out, err = run("support", path)
    assert code == 0 and "12 held directions, the fewest that stop the six rigid-body motions of each of its 2 " \
                         "pieces" in out, out + err
    code, out, err = run("static", path, "--support", "auto", "--elastic", "--engine", "reference", "--load",
                         "all:0,0,-1", "--out", tmp_path / "forces")
    assert code == 0, err
    assert (tmp_path / "forces" / "hinges.csv").exists()


@pytest.mark.parametrize("engine", ["reference", pytest.param("chrono", marks=pytest.mark.chrono)])
def test_flat_pieces_that_meet_at_vertices_are_each_held_there_apart(engine, tmp_path, capsys):
    """Three flat triangles in a chain, each touching the next at one vertex (three pieces, no hinge; as Origami
    Simulator's rose leaves them). A flat panel is held out of its plane only by z at three points, so the middle
    triangle needs z at both vertices it shares, which its neighbours need too: pieces that meet at a vertex are held
    there apart (a support holds a vertex of one panel). ``support -o`` writes 18 directions, z three times on each
    triangle, the shared vertices 2 and 5 held in z on two panels each; the file reads back; the supported structure
    has M = S = 0 and removing any one direction frees one rigid motion; ``static`` carries a load on every vertex,
    each piece on its own supports, on both engines (closed form: a support under each load carries its share).
    Two supports of one piece at one vertex in one direction stay an error."""
    import json

    from chrono_origami.structure import foldfile

    V = [[0, 0], [1, 0.5], [0, 1], [2, 0], [2, 1], [3, 1.5], [3, 0.5]]
    F = [[0, 1, 2], [1, 3, 4], [4, 6, 5]]
    E = sorted({tuple(sorted((f[i - 1], f[i]))) for f in F for i in range(3)})
    path = tmp_path / "chain.fold"
    path.write_text(json.dumps({"file_spec": 1.1, "vertices_coords": V, "faces_vertices": F,
                                "edges_vertices": [list(e) for e in E], "edges_assignment": ["B"] * len(E)}))

    def run(*argv):
        return cli_run(capsys, *argv)

    code, out, err = run("support", path, "-o", tmp_path / "held.fold")
    assert code == 0 and "18 held directions" in out, out + err
    held = foldfile.read_structure(str(tmp_path / "held.fold"))
    assert len(held.pattern.pieces) == 3
    for piece in range(3):
        z = [s.vertex for s in held.supports if held.pattern.piece_of[s.panel] == piece and "z" in s.dofs]
        assert len(z) == 3, (piece, held.supports)
    for v in (1, 4):                                        # vertices 2 and 5 (1-based), each on two pieces
        assert sorted(s.panel for s in held.supports if s.vertex == v and "z" in s.dofs) == [v // 4, v // 4 + 1]
    c = analysis.count(held, "reference")
    assert (c.M, c.S) == (0, 0)
    for s in held.supports:
        for d in s.dofs:
            fewer = analysis.count(without(held, s, d), "reference")
            assert (fewer.M, fewer.S) == (1, 0), (s, d)
    with pytest.raises(StructureError, match="vertex 2 is supported twice in direction z"):
        held.with_supports(Support(1, 0, "z"))              # vertex 2 of panel 1: held in z on that piece already

    code, out, err = run("static", tmp_path / "held.fold", "--load", "all:0,0,-1", "--engine", engine,
                         "--out", tmp_path / "forces")
    assert code == 0, err
    rows = np.genfromtxt(tmp_path / "forces" / "supports.csv", delimiter=",", names=True)
    assert len(rows) == 9                                   # z at each vertex of each triangle
    for r in rows:                                          # each load sits on a support: it carries the load's share
        share = 1.0 / len(held.pattern.vertex_panels[int(r["vertex"]) - 1])
        assert np.allclose([r["Fx"], r["Fy"], r["Fz"]], [0, 0, share], rtol=0, atol=64 * np.finfo(float).eps), r
