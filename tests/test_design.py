"""Isostatic design search: which door hinges become sliding hinges."""
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.linalg as sla
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_bipartite_matching

from chrono_origami.analysis import static as analysis
from chrono_origami import cli
from chrono_origami.cli.design import symmetry as cli_symmetry
from chrono_origami.tools.errors import DesignError
from chrono_origami.analysis.design import design, hinge_permutation, orbits
from chrono_origami.structure.foldfile import read_fold, write_fold
from chrono_origami.tools.geometry import rotation_about
from chrono_origami.patterns import kresling, miura, simple, yoshimura
from chrono_origami.engines import compatibility as operator
from chrono_origami.engines.reference.count import count
from chrono_origami.engines.reference.model import assemble
from chrono_origami.structure.structure import Load, Structure
from chrono_origami.structure.hinges import DOOR

ROOT = Path(__file__).resolve().parents[1]
#: both engines; the Chrono one is marked ``chrono`` (skipped with the reason without PyChrono, see conftest.py)
ENGINES = [pytest.param("reference"), pytest.param("chrono", marks=pytest.mark.chrono)]


def all_door(structure):
    return structure.with_hinge_kinds((DOOR,) * len(structure.hinge_kinds))


def ring():
    return Structure(simple.rectangular_ring(), name="four-panel ring")


def kresling_symmetry(structure):
    return [hinge_permutation(structure.pattern, rotation_about([0, 0, 1], 2 * np.pi / 3))]


def _tie(a, b):
    """-1, 0, +1: b clearly above a, a tie within design's TIE_RTOL (1e-9 relative), or undecided (the band
    between 1e-9 and 2e-9, where the tie depends on the first value of the run)."""
    a = float("inf") if a is None else a
    b = float("inf") if b is None else b
    if a == b:
        return 0
    d = abs(b - a) / abs(a) if a not in (0.0, float("inf")) else float("inf")
    if d <= 1e-9:
        return 0
    return -1 if d > 2e-9 else 1


def assert_ranked(r):
    """design's documented ranking, pair by pair: verified (re-counted and ranked) designs first; then S, the
    condition number and the largest force, values within 1e-9 relative tying; ties fall to the hinge numbers."""
    for a, b in zip(r.designs, r.designs[1:]):
        ka, kb = (not a.verified, a.S), (not b.verified, b.S)
        assert ka <= kb
        if ka < kb:
            continue
        for key in ("condition", "max_force"):
            x, y = getattr(a, key), getattr(b, key)
            tie = _tie(x, y)
            if tie == -1:
                assert y is None or (x is not None and x < y)
            if tie != 0:
                break
        else:
            assert a.sliding < b.sliding


def engine_model(structure, engine):
    """Scaled operator (reference.model.Model) of ``structure``: the paper's operators, or Chrono's Cq."""
    if engine == "reference":
        return assemble(structure)
    from chrono_origami.engines.chrono.static import chrono_model
    from chrono_origami.engines.chrono.system import build_system

    return chrono_model(build_system(structure, visual=False))


def default_load_metrics(structure, engine):
    """(sigma_min, condition, max force, max moment) of a design under design's documented default load.

    Built here from design's docstring, not from its code: a unit force at each panel centroid, direction
    from numpy.random.default_rng(0); the part that works on the mechanisms and rigid motions (the null
    space of the scaled operator Cs) removed; the multipliers by least squares; the hinge actions from them.
    """
    model = engine_model(structure, engine)
    pat = structure.pattern
    u = np.random.default_rng(0).standard_normal((pat.n_panels, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    f = np.concatenate([np.concatenate([np.cross(pat.panel_centroid(p) - model.x0, u[p]), model.L * u[p]])
                        for p in range(pat.n_panels)])
    C = model.Cs.toarray()
    N = sla.null_space(C)
    f -= N @ (N.T @ f)
    mu = np.linalg.lstsq(C.T, -f, rcond=None)[0]
    vals = np.array([a.values for a in operator.multiplier_actions(structure, model, mu)])
    s = np.linalg.svd(C, compute_uv=False)
    s = s[s > 1e-10 * s[0]]
    return s[-1], s[0] / s[-1], np.abs(vals[:, 3:]).max(), np.abs(vals[:, :3]).max()


def largest_actions(structure, engine):
    """(max |N, TP, TO|, max |MT, MP, MO|) of the static answer under the structure's own loads."""
    r = analysis.static(structure, engine=engine, allow_indeterminate=True)
    vals = np.array([a.values for a in r.hinge_actions])
    return np.abs(vals[:, 3:]).max(), np.abs(vals[:, :3]).max()


def mirror_loaded_vertex():
    """Single-vertex Miura-ori (all door) under mirror-symmetric, self-equilibrated loads along x.

    Vertices 1 and 7 (panels 1, 3) are pulled apart and vertices 2 and 8 (panels 2, 4) pushed together,
    each pair along x: the two pairs' distances are both the width of the fold (2 a sin psi), so the loads do no
    work on the folding mechanism (nor on a rigid motion), and the mirror x -> -x maps them onto themselves.
    """
    st = all_door(miura.miura_single_vertex())
    loads = (Load(0, (-1.0, 0, 0), 0), Load(6, (1.0, 0, 0), 2), Load(1, (1.0, 0, 0), 1), Load(7, (-1.0, 0, 0), 3))
    return Structure(st.pattern, st.hinge_kinds, loads=loads, name="single-vertex Miura-ori (mirror loads)")


# ------------------------------------------------------------------ acceptance
def test_single_vertex_miura_has_four_minimal_assignments():
    r = design(all_door(miura.miura_single_vertex()))
    assert (r.M_before, r.S_before, r.M_after, r.S_after) == (1, 3, 1, 0)
    assert r.exhaustive
    assert sorted(d.sliding for d in r.designs) == list(itertools.combinations(range(4), 3))
    for d in r.designs:
        assert d.verified and (d.M, d.S) == (1, 0)
    assert_ranked(r)
    # the mirror images [1, 2, 3] and [2, 3, 4] tie in condition number (to round-off: their raw values may
    # differ at 1e-15, in either direction, from one machine to the next); the largest force decides
    a, b = r.designs[:2]
    assert (a.sliding, b.sliding) == ((0, 1, 2), (1, 2, 3))
    assert a.condition == pytest.approx(b.condition, rel=1e-13) and a.max_force < b.max_force
    assert r.designs[1].condition < r.designs[2].condition < r.designs[3].condition


@pytest.mark.parametrize("engine", ENGINES)
def test_single_vertex_design_metrics_are_those_of_the_documented_default_load(engine):
    """The largest actions (and, on the paper's operator, sigma_min and the condition number), recomputed from
    design's docstring, agree to 1e-9 relative. Chrono's Cq scales its rotation rows its own way, so only the
    actions compare there."""
    st = all_door(miura.miura_single_vertex())
    r = design(st)
    assert r.reference_load.startswith("unit force at each panel centroid")
    for d in r.designs:
        got = np.array([d.sigma_min, d.condition, d.max_force, d.max_moment])
        want = np.array(default_load_metrics(r.structure(st, d), engine))
        keep = slice(0, 4) if engine == "reference" else slice(2, 4)
        assert got[keep] == pytest.approx(want[keep], rel=1e-9), d.sliding


@pytest.mark.parametrize("steps", [0, 1, 2, 3, 4])
def test_sequential_miura_strip_needs_a_single_door_hinge(steps):
    st = all_door(miura.miura_strip(steps))
    H = len(st.hinge_kinds)
    assert H == 4 + 3 * steps
    r = design(st)
    assert (r.M_before, r.S_before) == (1, 3 + 3 * steps)
    assert (r.M_after, r.S_after) == (1, 0)
    # every minimal assignment has one door hinge, and any hinge may be that one
    assert len(r.designs) == H
    assert all(len(d.sliding) == H - 1 and (d.M, d.S) == (1, 0) for d in r.designs)
    # the builder's isostatic strip (door hinge 1) is one of them, confirmed by an independent count
    paper = miura.miura_strip(steps)
    assert tuple(h for h, k in enumerate(paper.hinge_kinds) if k != DOOR) in [d.sliding for d in r.designs]
    c = count(r.structure(st))
    assert (c.M, c.S) == (1, 0)


def three_per_interior_vertex(pattern, sliding):
    """True when the sliding hinges can be given out three to each interior vertex (bipartite matching)."""
    interior = pattern.interior_vertices
    slots = [(v, k) for v in interior for k in range(3)]
    rows, cols = [], []
    for i, (v, _) in enumerate(slots):
        for j, h in enumerate(sliding):
            if v in pattern.hinges[h].vertices:
                rows.append(i)
                cols.append(j)
    graph = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(slots), len(sliding)))
    return len(sliding) == len(slots) and np.all(maximum_bipartite_matching(graph, perm_type="column") >= 0)


def test_yoshimura_wedge_from_18_to_0_with_three_sliding_hinges_per_interior_vertex():
    st = yoshimura.table4_structure(kind="door")
    pat = st.pattern
    assert len(pat.interior_vertices) == 6
    r = design(st)
    assert (r.M_before, r.S_before, r.M_after, r.S_after) == (0, 18, 0, 0)
    assert len(r.designs) > 1
    for d in r.designs:
        assert d.verified and (d.M, d.S) == (0, 0) and len(d.sliding) == 18
        assert three_per_interior_vertex(pat, d.sliding)
        # the reference load is the structure's unit tip load: the largest actions are those of the static
        # answer (reference.static solves Cs^T mu = -f by LU, design by SVD), to 1e-9 relative
        assert r.reference_load == "the structure's loads"
        assert (d.max_force, d.max_moment) == pytest.approx(largest_actions(r.structure(st, d), "reference"),
                                                            rel=1e-9)
    # preferring the paper's hinges (three leaving each interior vertex upwards) gives exactly them
    paper = yoshimura.isostatic_sliding_hinges(pat)
    r2 = design(st, prefer=paper, samples=0)
    assert list(r2.greedy.sliding) == paper and (r2.greedy.M, r2.greedy.S) == (0, 0)


def test_exchange_search_on_the_yoshimura_wedge_ends_on_the_paper_design():
    st = yoshimura.table4_structure(kind="door")
    plain = design(st)
    r = design(st, improve=10)
    paper = yoshimura.isostatic_sliding_hinges(st.pattern)
    assert list(r.best.sliding) == paper
    assert r.best.condition < 0.5 * plain.best.condition
    assert_ranked(r)


@pytest.mark.parametrize("modules, n_designs", [(2, 10), (3, 25)])
def test_kresling_tower_symmetric_design_has_door_hinges_on_one_module(modules, n_designs):
    st = kresling.kresling_tower(modules, door_module=None)
    layout = st.notes["kresling"]
    H = len(st.hinge_kinds)
    assert H == 6 * modules + 3 * (modules - 1)
    r = design(st, symmetry=kresling_symmetry(st))
    assert [len(o) for o in r.orbits] == [3] * (H // 3)
    assert (r.M_before, r.S_before, r.M_after, r.S_after) == (0, 9 * (modules - 1), 0, 0)
    assert r.exhaustive and len(r.designs) == n_designs
    for d in r.designs:
        assert all(set(o) <= set(d.sliding) or not set(o) & set(d.sliding) for o in r.orbits)
        assert (d.M, d.S) == (0, 0) and len(d.sliding) == H - 6
    # the best-ranked design is the paper's: the six hinges of one module are door hinges, all others slide
    door = set(range(H)) - set(r.best.sliding)
    assert door in [set(m) for m in layout.module_hinges]
    # and every one-module design is found
    for m in layout.module_hinges:
        assert tuple(sorted(set(range(H)) - set(m))) in [d.sliding for d in r.designs]


def test_four_panel_ring_is_not_reducible_below_two_self_stress_states():
    r = design(ring())
    assert (r.M_before, r.S_before, r.M_after, r.S_after) == (1, 3, 1, 2)
    assert not r.reachable
    assert sorted(d.sliding for d in r.designs) == [(0,), (1,), (2,), (3,)]
    assert all((d.M, d.S) == (1, 2) for d in r.designs)
    assert len(r.irremovable) == 2 and all(hs == (0, 1, 2, 3) for hs in r.irremovable)
    text = r.report()
    assert "S = 0 cannot be reached without adding mechanisms: 2 self-stress states have" in text


@pytest.mark.parametrize("engine", ENGINES)
def test_yoshimura_wedge_best_design_carries_the_tip_load_as_chrono_does(engine):
    st = yoshimura.table4_structure(kind="door")
    r = design(st)
    for d in (r.best, r.greedy):
        # Chrono's linear static analysis (SparseQR) of the designed wedge: its equilibrium residual is
        # checked to 1e-8, the condition number is 1e4, so the largest actions agree to 1e-6 relative
        assert (d.max_force, d.max_moment) == pytest.approx(largest_actions(r.structure(st, d), engine), rel=1e-6)


# ------------------------------------------------------------------ ranking
def test_ties_fall_to_the_hinge_numbers():
    """Mirror-image designs of a mirror-symmetric structure and load tie in condition number and largest force."""
    st = mirror_loaded_vertex()
    assert cli_symmetry(st.pattern, mirrors=["x"]) == [[3, 1, 2, 0]]    # maps [1, 2, 3] onto [4, 2, 3]
    greedy = []
    for prefer in ((), (3, 2, 1)):              # the greedy design, first among the candidates, is either image
        r = design(st, prefer=prefer)
        greedy.append(r.greedy.sliding)
        assert_ranked(r)
        a, b = r.designs[:2]
        assert (a.sliding, b.sliding) == ((0, 1, 2), (1, 2, 3))
        assert a.condition == pytest.approx(b.condition, rel=1e-13)
        assert a.max_force == pytest.approx(b.max_force, rel=1e-13)
    assert greedy == [(0, 1, 2), (1, 2, 3)]


@pytest.mark.parametrize("engine", ENGINES)
def test_ranking_metrics_under_the_structure_loads_match_the_static_answer(engine):
    st = mirror_loaded_vertex()
    r = design(st)
    assert r.reference_load == "the structure's loads" and len(r.designs) == 4
    for d in r.designs:
        # M = 1: the loads do no work on the mechanism, so the (minimum-norm, S = 0: unique) answer exists
        assert (d.max_force, d.max_moment) == pytest.approx(largest_actions(r.structure(st, d), engine), rel=1e-9)


def test_only_max_ranked_designs_are_ranked_and_they_come_first():
    st = kresling.kresling_tower(2, door_module=None)
    r = design(st, max_ranked=12)
    n = len(r.designs)
    assert r.exhaustive and n > 12
    assert f"{n} designs found: the first 12 (greedy first) are re-counted and ranked, the others listed after " \
           "them" in r.notes
    assert [d.verified for d in r.designs] == [True] * 12 + [False] * (n - 12)
    assert r.greedy.verified and r.greedy in r.designs[:12]
    assert all(d.condition is None and d.max_force is None for d in r.designs[12:])
    assert all(d.condition is not None and d.max_force is not None for d in r.designs[:12])
    assert_ranked(r)
    # the unranked designs are still minimal assignments: an independent count of some of them
    for d in r.designs[12::(n - 12) // 5]:
        c = count(r.structure(st, d))
        assert (c.M, c.S) == (d.M, d.S) == (0, 0)


# ------------------------------------------------------------------ options
def test_required_door_and_sliding_hinges():
    st = all_door(miura.miura_single_vertex())
    assert [d.sliding for d in design(st, door=[0]).designs] == [(1, 2, 3)]
    assert sorted(d.sliding for d in design(st, sliding=[0]).designs) == [(0, 1, 2), (0, 1, 3), (0, 2, 3)]


def test_preference_orders_the_greedy_design():
    st = all_door(miura.miura_single_vertex())
    assert design(st).greedy.sliding == (0, 1, 2)
    assert design(st, prefer=[3, 2, 1]).greedy.sliding == (1, 2, 3)
    assert design(st, prefer=[3, 0]).greedy.sliding == (0, 1, 3)


def test_mirror_symmetry_keeps_orbits_together():
    st = all_door(miura.miura_single_vertex())
    perms = cli_symmetry(st.pattern, mirrors=["x"])
    assert perms == [[3, 1, 2, 0]]           # the mirror swaps the zigzag hinges 1 and 4
    r = design(st, symmetry=perms)
    assert r.orbits == ((0, 3), (1,), (2,))
    assert sorted(d.sliding for d in r.designs) == [(0, 1, 3), (0, 2, 3)]


def test_mirror_symmetric_single_vertex_with_preferred_hinges_reaches_S_0():
    """The greedy design keeps an orbit as door hinges only when all its axial rows are independent of those kept.

    Orbits (1, 4), (2,), (3,) under the mirror; the axial rows have rank 1. Preferring hinges 3 then 2 to
    slide, the greedy search meets the orbit (1, 4) first: its two rows add rank 1 only, so it slides; hinge 2
    stays door, and S = 0 with M = 1 kept. Keeping the orbit as door for the rank it adds would slide only
    hinges 2 and 3 and leave S = 1.
    """
    st = all_door(miura.miura_single_vertex())
    mirror = cli_symmetry(st.pattern, mirrors=["x"])
    for prefer, greedy in (((2, 1), (0, 2, 3)), ((1, 2), (0, 1, 3))):
        r = design(st, symmetry=mirror, prefer=prefer)
        assert r.orbits == ((0, 3), (1,), (2,))
        assert r.greedy.sliding == greedy and (r.greedy.M, r.greedy.S) == (1, 0) and r.greedy.verified
        assert (r.M_after, r.S_after) == (1, 0) and sorted(d.sliding for d in r.designs) == [(0, 1, 3), (0, 2, 3)]


def test_an_orbit_slides_only_if_every_member_may_slide():
    """A required door (sliding) hinge makes its whole orbit door (sliding)."""
    st = all_door(miura.miura_single_vertex())
    for h in (0, 3):
        r = design(st, symmetry=[[3, 1, 2, 0]], door=[h])
        assert (r.required_door, r.required_sliding) == ((0, 3), ())
        assert [d.sliding for d in r.designs] == [(1, 2)] and r.S_after == 1
        r = design(st, symmetry=[[3, 1, 2, 0]], sliding=[h])
        assert (r.required_door, r.required_sliding) == ((), (0, 3))
        assert sorted(d.sliding for d in r.designs) == [(0, 1, 3), (0, 2, 3)] and r.S_after == 0


def test_when_no_union_of_orbits_is_minimal_the_greedy_design_keeps_M():
    """Orbits (1, 4) and (2, 3) of the single vertex (a permutation of equal-length hinges): 3 hinges must slide,
    no union of orbits has 3; the greedy design then keeps M = 1 and accepts S = 1 rather than add a mechanism."""
    st = all_door(miura.miura_single_vertex())
    r = design(st, symmetry=[[3, 2, 1, 0]])
    assert r.orbits == ((0, 3), (1, 2))
    assert "no union of symmetry orbits is a minimal assignment; the greedy design keeps M and accepts " \
           "self-stress" in r.notes
    assert r.greedy.sliding == (0, 3) and (r.greedy.M, r.greedy.S) == (1, 1) == (r.M_after, r.S_after)


def test_a_symmetry_that_changes_a_hinge_length_by_half_a_percent_is_refused():
    """The length check is tight (1e-6 relative): hinge 4 of the single vertex made 0.5 % longer along its crease
    (panels stay planar) is no longer the mirror image of hinge 1."""
    st = all_door(miura.miura_single_vertex())
    X = st.pattern.vertices.copy()
    centre = set.intersection(*(set(h.vertices) for h in st.pattern.hinges)).pop()
    outer = sum(st.pattern.hinges[3].vertices) - centre
    X[outer] = X[centre] + 1.005 * (X[outer] - X[centre])
    stretched = Structure(st.pattern.with_vertices(X), st.hinge_kinds)
    with pytest.raises(DesignError, match=r"symmetry 1 maps hinge 1 \(length 1\) onto hinge 4 \(length 1.005\): "
                                          r"not a symmetry of the pattern"):
        design(stretched, symmetry=[[3, 1, 2, 0]])
    design(st, symmetry=[[3, 1, 2, 0]])        # the exact mirror passes


def test_required_sliding_hinges_that_add_mechanisms_are_refused():
    with pytest.raises(DesignError, match=r"required sliding hinges \[1, 2\] add 1 mechanism"):
        design(ring(), sliding=[0, 1])


def test_bad_input_names_the_hinge():
    st = all_door(miura.miura_single_vertex())
    with pytest.raises(DesignError, match=r"door hinges: hinge 9 does not exist \(the pattern has hinges 1..4\)"):
        design(st, door=[8])
    with pytest.raises(DesignError, match="hinge 2 is required both to stay door and to slide"):
        design(st, door=[1], sliding=[1])
    with pytest.raises(DesignError, match="preference: hinge 3 is listed twice"):
        design(st, prefer=[2, 2])
    with pytest.raises(DesignError, match="symmetry 1 has 3 entries"):
        design(st, symmetry=[[0, 1, 2]])
    yo = yoshimura.table4_structure(kind="door")
    perm = list(range(35))
    perm[0], perm[20] = 20, 0                 # a short vertical hinge onto an inclined one
    with pytest.raises(DesignError, match="symmetry 1 maps hinge 1 .* onto hinge 21 .*not a symmetry"):
        design(yo, symmetry=[perm])
    with pytest.raises(DesignError, match=r"does not map hinge 15 \(vertices 22-26\) onto a hinge: the image of "
                                          r"vertex 26 is 1.07 from the nearest vertex \(26\)"):
        hinge_permutation(yo.pattern, rotation_about([0, 0, 1], 0.3))


def test_orbits_of_generated_group():
    assert orbits(6, [[1, 2, 0, 3, 4, 5], [0, 1, 2, 4, 3, 5]]) == ((0, 1, 2), (3, 4), (5,))


def test_sparse_null_space_path_agrees_with_the_dense_one():
    for st in (miura.miura_patch(4, 5), yoshimura.table4_structure(kind="door"), ring()):
        dense = design(st, samples=0, max_subsets=0)
        sparse = design(st, samples=0, max_subsets=0, dense_limit=0)
        assert (sparse.M_before, sparse.S_before, sparse.M_after, sparse.S_after) == \
               (dense.M_before, dense.S_before, dense.M_after, dense.S_after)
        assert sparse.greedy.sliding == dense.greedy.sliding


def test_sparse_path_lists_irremovable_states_only_up_to_explain_states(monkeypatch):
    """The sparse search forms the basis of the all-sliding structure's self-stress states, to list each one's
    hinges, only when there are at most design.EXPLAIN_STATES of them (as explain analyses states one by one): a
    flat 32 x 32 Miura sheet has 1,800, whose basis took 29 of design's 43 s and its 0.94 GB peak. The designs are
    the same either way."""
    from chrono_origami.analysis import design as design_module
    from chrono_origami.tools import sparseqr

    if not sparseqr.available():
        pytest.skip("no sparse QR (pyspqr): the Gram fallback forms no left null space")
    sides = []
    rank = sparseqr.rank
    monkeypatch.setattr(sparseqr, "rank", lambda *a, **kw: sides.append(kw.get("side")) or rank(*a, **kw))
    dense = design(ring())
    listed = design(ring(), dense_limit=0)                       # the sparse path, 2 states <= EXPLAIN_STATES
    assert "left" in sides
    assert listed.irremovable == dense.irremovable == [(0, 1, 2, 3)] * 2
    sides.clear()
    monkeypatch.setattr(design_module, "EXPLAIN_STATES", 1)
    unlisted = design(ring(), dense_limit=0)
    assert "left" not in sides and sides                          # the right null space only
    assert unlisted.irremovable == []
    assert [(d.sliding, d.M, d.S) for d in unlisted.designs] == [(d.sliding, d.M, d.S) for d in listed.designs]
    assert (unlisted.M_after, unlisted.S_after) == (listed.M_after, listed.S_after) == (1, 2)
    assert "listed on the dense path, or on the sparse path for at most 1 states" in unlisted.report()


def test_miura_patch_counts_match_the_direct_count():
    st = miura.miura_patch(4, 5)
    r = design(st, samples=0, max_subsets=0, dense_limit=0)
    c = count(st)
    assert (r.M_before, r.S_before) == (c.M, c.S) == (1, 42)
    designed = count(r.structure(st, r.greedy))
    assert (designed.M, designed.S) == (r.greedy.M, r.greedy.S) == (1, r.S_after)
    assert len(st.hinge_kinds) - len(r.greedy.sliding) == 1


def test_as_dict_is_one_based():
    d = design(all_door(miura.miura_single_vertex())).as_dict()
    assert d["M_before"] == 1 and d["S_before"] == 3 and d["M_after"] == 1 and d["S_after"] == 0
    assert len(d["sliding"]) == 3 and set(d["sliding"]) <= {1, 2, 3, 4} and d["designs_found"] == 4
    json.dumps(d)


# ------------------------------------------------------------------ command line and gallery
def test_cli_design_writes_the_hinge_kinds(tmp_path, capsys):
    src, dst = tmp_path / "vertex.fold", tmp_path / "designed.fold"
    write_fold(all_door(miura.miura_single_vertex()), src)
    # the free vertex keeps its mechanism (M = 1): design writes it, then exits 3 as static does (design && static stops)
    assert cli.main(["design", str(src), "-o", str(dst), "--door", "4"]) == 3
    out, err = capsys.readouterr()
    assert err == ("error: single-vertex Miura-ori: not isostatic after design: M = 1 mechanism remains: design keeps "
                   "M (a sliding hinge frees a motion, never stops one) (the structure has no supports: M counts its "
                   f"internal mechanisms); the way on: static {dst} --elastic (the hinge forces of elastic hinges)\n")
    assert "before (all door hinges): M = 1, S = 3" in out
    assert "after: M = 1, S = 0 with 3 sliding hinges" in out
    assert "designs found (every minimal assignment): 1" in out
    st = read_fold(dst)
    assert st.name == "single-vertex Miura-ori (designed: 3 sliding hinges)"
    assert st.hinge_kinds == ("sliding", "sliding", "sliding", "door")
    assert (count(st).M, count(st).S) == (1, 0)


def test_cli_design_bad_hinge_is_one_line(tmp_path, capsys):
    src = tmp_path / "vertex.fold"
    write_fold(all_door(miura.miura_single_vertex()), src)
    assert cli.main(["design", str(src), "--slide", "7"]) == 2
    err = capsys.readouterr().err
    assert err == "error: --slide 7: hinge 7 does not exist (the structure has hinges 1..4)\n"
    assert cli.main(["design", str(src), "--prefer", "two"]) == 2
    assert "--prefer two: 'two' is not a hinge number" in capsys.readouterr().err


def test_gallery_writes_designs_json(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run([sys.executable, str(ROOT / "scenes" / "design_gallery.py"), "--out", str(tmp_path)],
                   check=True, capture_output=True, text=True, env=env)
    entries = {e["structure"]: e for e in json.loads((tmp_path / "designs.json").read_text())}
    keys = {"structure", "M_before", "S_before", "M_after", "S_after", "sliding", "designs_found"}
    assert all(set(e) == keys for e in entries.values())
    got = {name: (e["M_before"], e["S_before"], e["M_after"], e["S_after"], len(e["sliding"]))
           for name, e in entries.items()}
    assert got == {
        "single-vertex Miura-ori": (1, 3, 1, 0, 3),
        "Miura-ori strip (4 steps)": (1, 15, 1, 0, 15),
        "Yoshimura wedge (Table 4)": (0, 18, 0, 0, 18),
        "Kresling tower (2 modules)": (0, 9, 0, 0, 9),
        "Kresling tower (3 modules)": (0, 18, 0, 0, 18),
        "four-panel ring": (1, 3, 1, 2, 1),
    }
    assert entries["single-vertex Miura-ori"]["designs_found"] == 4
    assert entries["Kresling tower (2 modules)"]["designs_found"] == 10
    assert all(1 <= h <= 35 for h in entries["Yoshimura wedge (Table 4)"]["sliding"])


# ------------------------------------------------------------------ ranking on the sparse path
def _metrics(r):
    return [(d.sliding, d.M, d.S, d.condition, d.sigma_min, d.max_force, d.max_moment) for d in r.designs if d.verified]


@pytest.mark.parametrize("build", [lambda: kresling.kresling_tower(modules=4), lambda: miura.miura_patch(6, 6)],
                         ids=["kresling-tower-4", "miura-6x6"])
def test_sparse_ranking_agrees_with_dense(build):
    """Re-counts and ranking metrics from the sparse path equal the dense SVD's: same designs, same order."""
    st = build()
    dense = _metrics(design(st, linalg="dense", max_ranked=6, samples=4, max_subsets=0))
    sparse = _metrics(design(st, linalg="sparse", max_ranked=6, samples=4, max_subsets=0))
    assert len(dense) == len(sparse) >= 2
    for a, b in zip(dense, sparse):
        assert a[:3] == b[:3]
        for x, y in zip(a[3:], b[3:]):
            if x is None:
                assert y is None
            else:
                assert y == pytest.approx(x, rel=1e-8)


def test_designs_above_the_dense_limit_are_ranked():
    """6P > DENSE_LIMIT: designs are re-counted and ranked on the sparse path (once skipped), and the best's
    condition number and largest force equal a forced dense re-count of the same design."""
    from chrono_origami.analysis.design import _evaluate
    from chrono_origami.tools.linalg import DENSE_LIMIT, RANK_RTOL

    st = kresling.kresling_tower(modules=45)
    assert 6 * st.pattern.n_panels > DENSE_LIMIT
    r = design(st, max_subsets=0, samples=2, max_ranked=3)
    assert not any("not re-counted" in n for n in r.notes)
    ranked = [d for d in r.designs if d.verified]
    assert len(ranked) == 3 and all((d.M, d.S) == (0, 0) for d in ranked)
    assert [d.condition for d in ranked] == sorted(d.condition for d in ranked)
    best = ranked[0]
    check = _evaluate(st, set(best.sliding), RANK_RTOL, "dense")
    assert best.condition == pytest.approx(check.condition, rel=1e-8)
    assert best.max_force == pytest.approx(check.max_force, rel=1e-9)
    assert best.max_moment == pytest.approx(check.max_moment, rel=1e-9)


def test_ranking_ties_are_relative_not_rounded():
    """Values within 1e-9 relative tie even across a rounding boundary of their 9th digit (where a key rounded to
    9 digits would split them, and round-off would pick the order); beyond it the smaller value ranks first."""
    from chrono_origami.analysis.design import TIE_RTOL, _ranked
    from chrono_origami.results.design import Design

    assert TIE_RTOL == 1e-9
    below, above = 1.0000000049999, 1.0000000050001        # round to 1.00000000 and 1.00000001 at 9 digits
    a = Design((3,), 0, 0, condition=above, max_force=2.0, verified=True)
    b = Design((5,), 0, 0, condition=below, max_force=2.0, verified=True)
    c = Design((1,), 0, 0, condition=1.00000002, max_force=1.0, verified=True)    # clearly above: later
    d = Design((0,), 0, 0, condition=below, max_force=2.00000001, verified=True)  # a tie, but a larger force
    e = Design((2,), 0, 1, condition=0.5, max_force=None, verified=True)        # S = 1: after every S = 0 design
    f = Design((4,), 0, 0)                                                       # not re-counted: last
    assert [x.sliding for x in _ranked([f, e, d, c, b, a])] == [(3,), (5,), (0,), (1,), (2,), (4,)]


def editor_single_vertex(path, turn=0.0):
    """The flat single-vertex Miura-ori (sector angle 60 deg; zigzag hinges 1 = 5-2 and 4 = 5-8 mirror images in
    the plane x = sqrt(3)/2) as a text editor writes it: 2D coordinates, no faces, an M/V assignment; vertex 8
    turned by ``turn`` rad in the plane about the centre vertex 5 (every length and panel kept)."""
    s = np.sqrt(3) / 2
    X = np.array([[0, 0], [0, 1], [0, 2], [s, -0.5], [s, 0.5], [s, 1.5], [2 * s, 0], [2 * s, 1], [2 * s, 2]])
    c, r = X[4], X[7] - X[4]
    X[7] = c + [r[0] * np.cos(turn) - r[1] * np.sin(turn), r[0] * np.sin(turn) + r[1] * np.cos(turn)]
    path.write_text(json.dumps({
        "file_spec": 1.1, "file_creator": "a text editor", "vertices_coords": X.tolist(),
        "edges_vertices": [[0, 1], [1, 2], [2, 5], [5, 8], [8, 7], [7, 6], [6, 3], [3, 0],
                           [4, 1], [3, 4], [4, 5], [7, 4]],
        "edges_assignment": ["B"] * 8 + ["M", "M", "V", "M"]}))
    return path


def test_design_refuses_a_mirror_that_holds_to_only_one_percent(tmp_path, capsys):
    """`design --mirror x` on a single vertex whose vertex 8 is turned by 0.03 rad (its mirror image, vertex 2's,
    misses it by 0.0284, about 1 % of the pattern size 3.04; every hinge keeps its length, so only the position
    check sees it): one line naming the option, the vertex and the miss, exit 2 (an option value the structure
    refuses), no file; the exact pattern passes and
    keeps the mirror's orbit (1, 4) together."""
    skew = editor_single_vertex(tmp_path / "skew.fold", turn=0.03)
    assert cli.main(["design", str(skew), "--mirror", "x", "-o", str(tmp_path / "skew-d.fold")]) == 2
    out, err = capsys.readouterr()
    assert err == ("error: --mirror x: the symmetry does not map hinge 1 (vertices 5-2) onto a hinge: the image of vertex 2 is "
                   "0.0284 from the nearest vertex (8), more than 1e-06 x the pattern size (3.04e-06)\n")
    assert not (tmp_path / "skew-d.fold").exists()
    exact = editor_single_vertex(tmp_path / "exact.fold")
    code = cli.main(["design", str(exact), "--mirror", "x", "-o", str(tmp_path / "exact-d.fold")])
    out, err = capsys.readouterr()
    assert code == 3 and "symmetry" not in err                     # flat: M and S remain, said in one line
    assert "sliding hinges" in out and "[1, 4] (greedy)" in out and (tmp_path / "exact-d.fold").exists()
