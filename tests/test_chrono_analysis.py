"""The Chrono engine against the paper and the reference engine: counts, Tables 2, 3, 10, 11, 12, refusals.

Needs PyChrono (marked ``chrono``; skipped with the reason when it is missing).
"""
import os
from dataclasses import replace

import numpy as np
import pytest

from chrono_origami import engines

chrono = pytest.importorskip("pychrono", exc_type=ImportError, reason=engines.chrono_unavailable_reason())

from chrono_origami.analysis import static as analysis  # noqa: E402
from chrono_origami.engines.chrono import static as ca  # noqa: E402
from chrono_origami.engines.chrono import links as lk  # noqa: E402
from chrono_origami.engines.chrono import system as cs  # noqa: E402
from chrono_origami.tools.errors import FreeBodyError, IndeterminateError, OrigamiError  # noqa: E402
from chrono_origami.patterns import kresling as kr  # noqa: E402
from chrono_origami.patterns import miura as mi  # noqa: E402
from chrono_origami.engines.reference import count as counting, static as statics  # noqa: E402
from chrono_origami.engines.reference.model import assemble  # noqa: E402
from chrono_origami.structure.structure import Load, Support  # noqa: E402

from catalogue import DETERMINED, STRUCTURES  # noqa: E402
from paper_compare import read_paper_table, row_distance, row_match, table_tolerance  # noqa: E402

pytestmark = pytest.mark.chrono

DATA = os.path.join(os.path.dirname(__file__), "data")
HINGE_COLS = list(range(2, 8))


def table(name):
    return read_paper_table(os.path.join(DATA, name))[1]


NOT_DETERMINED = {"miura single vertex": (1, 0), "kresling singular module": (1, 1),
                  "kresling tower 2 doors": (0, 9), "yoshimura wedge doors": (0, 18)}


def hinge_array(result):
    return np.array([r[2:] for r in result.hinge_rows()])


def sides(result):
    return {(int(r[0]), int(r[1])): np.array(r[2:]) for r in result.hinge_rows()}


def assert_rows_match(ours_by_side, paper_rows, tol):
    for r in paper_rows:
        side = (int(r[0]), int(r[1]))
        ours = ours_by_side[side]
        assert row_match(ours, r[2:], tol) is not None, \
            f"row {side}: ours {np.round(ours, 5)} vs paper {r[2:]} (distance {row_distance(ours, r[2:]):.3g} > {tol:.3g})"


# ------------------------------------------------------------------ counting from Chrono's Cq
@pytest.mark.parametrize("name", list(STRUCTURES))
def test_chrono_counts_equal_reference_counts(name):
    s = STRUCTURES[name]()
    ref = counting.count(s)
    for form in ("mate", "lock", "points"):
        c = ca.count(s, hinge_form=form)
        assert (c.M, c.S) == (ref.M, ref.S), form
        assert (c.n_dof, c.n_constraints) == (ref.n_dof, ref.n_constraints)
        assert c.gap[0] > 1e-4 and c.gap[1] < 1e-12     # a clear rank decision
    if name in NOT_DETERMINED:
        assert (ref.M, ref.S) == NOT_DETERMINED[name]


@pytest.mark.parametrize("name", ["kresling module", "yoshimura wedge", "miura single vertex", "square twist"])
def test_chrono_operator_spans_the_papers_rows(name):
    """Per hinge and support, Chrono's rows (mapped to the paper's variables) span the same space as the paper's eq. (4)/(6)."""
    s = STRUCTURES[name]()
    ours = ca.chrono_model(cs.build_system(s, visual=False))
    ref = assemble(s)
    for blocks_o, blocks_r in ((ours.hinge_rows, ref.hinge_rows), (ours.support_rows, ref.support_rows)):
        for ro, rr in zip(blocks_o, blocks_r):
            A, B = ours.Cs[ro].toarray(), ref.Cs[rr].toarray()
            k = np.linalg.matrix_rank(B, tol=1e-10)
            assert np.linalg.matrix_rank(A, tol=1e-10) == k == len(B)
            assert np.linalg.matrix_rank(np.vstack([A, B]), tol=1e-9) == k


@pytest.mark.parametrize("name", ["miura single vertex", "miura strip", "four-panel ring"])
def test_chrono_mechanisms_are_the_reference_mechanisms(name):
    s = STRUCTURES[name]()
    a, b = ca.count(s).mechanisms, counting.count(s).mechanisms
    assert a.shape == b.shape and a.shape[1] >= 1
    # same subspace: the projection of one basis on the other loses nothing
    Qa, _ = np.linalg.qr(a)
    Qb, _ = np.linalg.qr(b)
    np.testing.assert_allclose(np.linalg.svd(Qa.T @ Qb, compute_uv=False), 1.0, atol=1e-9)


# ------------------------------------------------------------------ statics: Chrono = reference
@pytest.mark.parametrize("name", DETERMINED)
def test_chrono_hinge_tables_equal_reference(name):
    s = STRUCTURES[name]()
    ref = statics.solve(s)
    R, Rs = hinge_array(ref), np.array([r[2:] for r in ref.support_rows()])
    for form, method, solver in [("mate", "linear", "sparse_qr"), ("mate", "nonlinear", "sparse_lu"),
                                 ("lock", "linear", "sparse_lu"), ("points", "nonlinear", "sparse_qr")]:
        r = ca.static(s, hinge_form=form, method=method, solver=solver)
        assert (r.engine, r.status, r.M, r.S) == ("chrono", "determined", 0, 0)
        assert [x[:2] for x in r.hinge_rows()] == [x[:2] for x in ref.hinge_rows()]
        np.testing.assert_allclose(hinge_array(r), R, rtol=0, atol=1e-6 * np.abs(R).max(), err_msg=f"{form} {method}")
        np.testing.assert_allclose(np.array([x[2:] for x in r.support_rows()]), Rs, rtol=0,
                                   atol=1e-6 * np.abs(Rs).max())
        assert r.equilibrium_residual < ca.EQUILIBRIUM_RTOL
        assert r.info["constraint_violation"] < ca.CONSTRAINT_TOL


def test_engine_dispatch():
    s = kr.kresling_module()
    c = analysis.count(s, "chrono")
    assert (c.M, c.S) == (0, 0)
    r = analysis.static(s, "chrono")
    assert r.engine == "chrono" and r.info["hinge_form"] == "mate"
    np.testing.assert_allclose(hinge_array(r), hinge_array(analysis.static(s, "reference")), atol=1e-9)


# ------------------------------------------------------------------ the paper's tables through Chrono
def test_table2_and_table3_miura_cantilever():
    t2, t3 = table("table02_miura_cantilever_hinge_actions.csv"), table("table03_miura_cantilever_supports.csv")
    tol2, tol3 = table_tolerance(t2, HINGE_COLS), table_tolerance(t3, [2, 3, 4])
    r = analysis.static(mi.miura_cantilever_from_vertices(mi.TABLE1_VERTICES), "chrono")
    assert_rows_match(sides(r), t2, tol2)
    rows = r.support_rows()
    assert [(int(x[0]), int(x[1])) for x in rows] == [(int(x[0]), int(x[1])) for x in t3]
    for ours, paper in zip(rows, t3):
        np.testing.assert_allclose(ours[2:], paper[2:], rtol=0, atol=tol3)


def test_table10_and_table11_kresling_module():
    t10, t11 = table("table10_kresling_module_hinge_actions.csv"), table("table11_kresling_module_supports.csv")
    tol10, tol11 = table_tolerance(t10, HINGE_COLS), table_tolerance(t11, [2, 3, 4])
    r = analysis.static(kr.kresling_module(height=20, diameter=20, twist=np.pi / 9), "chrono")
    ours = sides(r)
    assert_rows_match(ours, t10, tol10)
    images = [np.r_[h, h, t10[0][2:]] for h in (3, 5)] + [np.r_[h, h, t10[1][2:]] for h in (4, 6)]
    assert_rows_match(ours, images, tol10)       # the hinges the paper leaves to the 120 deg symmetry
    rows = r.support_rows()
    assert [(int(x[0]), int(x[1])) for x in rows] == [(int(x[0]), int(x[1])) for x in t11]
    for o, p in zip(rows, t11):
        np.testing.assert_allclose(o[2:], p[2:], rtol=0, atol=tol11)


def test_table12_kresling_two_module_tower():
    t12 = table("table12_kresling_two_module_hinge_actions.csv")
    tol = table_tolerance(t12, HINGE_COLS)
    r = analysis.static(kr.kresling_tower(2, door_module=1, height=20, diameter=20, twist=np.pi / 9), "chrono")
    assert_rows_match(sides(r), t12, tol)


# ------------------------------------------------------------------ refusals and the labelled minimum-norm answer
@pytest.mark.parametrize("name", list(NOT_DETERMINED))
def test_undetermined_statics_is_refused_with_M_and_S(name):
    s = STRUCTURES[name]()
    M, S = NOT_DETERMINED[name]
    counts = f"M = {M} mechanism{'s' if M != 1 else ''}, S = {S} self-stress state{'s' if S != 1 else ''}"
    with pytest.raises(IndeterminateError, match=counts) as e:
        ca.static(s)
    assert (e.value.M, e.value.S) == (M, S)
    assert ("self-stress state 1: hinges" in str(e.value)) == (S > 0)
    assert ("mechanism 1: panels" in str(e.value)) == (M > 0)
    with pytest.raises(IndeterminateError):
        analysis.static(s, "chrono")


@pytest.mark.parametrize("name", ["kresling tower 2 doors", "yoshimura wedge doors"])
def test_minimum_norm_answer_differs_from_the_reference_by_self_stress_only(name):
    s = STRUCTURES[name]()
    r = ca.static(s, allow_indeterminate=True)
    ref = statics.solve(s, allow_indeterminate=True)
    assert (r.status, r.engine, r.S) == ("minimum-norm", "chrono", ref.S)
    assert r.equilibrium_residual < 1e-9
    assert len(r.self_stress_actions) == r.S
    # the difference of two particular solutions is a self-stress state (reference basis)
    d = (hinge_array(r) - hinge_array(ref)).ravel()
    Sb = np.array([np.concatenate([a.values for a in state]) for state in ref.self_stress_actions]).T
    coef = np.linalg.lstsq(Sb, d, rcond=None)[0]
    assert np.linalg.norm(Sb @ coef - d) <= 1e-8 * max(np.linalg.norm(hinge_array(ref)), 1.0)
    # and every Chrono self-stress state is one of the reference's
    for state in r.self_stress_actions:
        v = np.concatenate([a.values for a in state])
        c = np.linalg.lstsq(Sb, v, rcond=None)[0]
        assert np.linalg.norm(Sb @ c - v) <= 1e-8 * np.linalg.norm(v)


def test_unsupported_structure_with_self_equilibrated_loads():
    """The Kresling module without supports, loaded by its loads plus its support reactions: same hinge table."""
    s = kr.kresling_module()
    ref = statics.solve(s)
    loads = s.loads + tuple(Load(x.vertex, tuple(x.force), x.panel) for x in ref.support_reactions)
    free = replace(s, supports=(), loads=loads, name="free module")
    c = ca.count(free)
    assert (c.M, c.S) == (0, 0)
    r = ca.static(free)
    R = hinge_array(ref)
    np.testing.assert_allclose(hinge_array(r), R, rtol=0, atol=1e-9 * np.abs(R).max())
    assert r.info["anchor_reaction_rel"] < 1e-12
    with pytest.raises(FreeBodyError, match="free to move as a rigid body, and its loads do not balance"):
        ca.static(replace(s, supports=(), name="free module"))


# ------------------------------------------------------------------ assembly
def test_assembly_reports_flag_and_residual():
    s = kr.kresling_module()
    b = cs.build_system(s, visual=False)
    rep = ca.assemble(b)
    assert rep.converged and rep.constraint_residual < 1e-14
    b.bodies[3].SetPos(b.bodies[3].GetPos() + lk.vec([0.05, -0.03, 0.02]))
    b.bodies[3].SetRot(chrono.QuatFromAngleAxis(0.05, chrono.ChVector3d(0.6, 0.8, 0)))
    assert ca.constraint_residual(b)[0] > 1e-3
    rep = ca.assemble(b, max_iterations=1)      # one Newton step cannot undo a finite rotation
    assert rep.exit_flag == "NOT_CONVERGED" and not rep.converged and rep.constraint_residual > ca.CONSTRAINT_TOL
    rep = ca.assemble(b)
    assert rep.converged and rep.exit_flag in ("ABSTOL_RESIDUAL", "RELTOL_UPDATE", "ABSTOL_UPDATE")
    assert rep.constraint_residual <= ca.CONSTRAINT_TOL


def test_bad_analysis_options_are_named():
    s = kr.kresling_module()
    with pytest.raises(ValueError, match="unknown solver 'gmres'.*direct sparse solvers only"):
        ca.static(s, solver="gmres")
    with pytest.raises(ValueError, match="unknown method 'dynamic'"):
        ca.static(s, method="dynamic")
    with pytest.raises(ValueError, match="max_iterations must be a positive integer"):
        ca.static(s, method="nonlinear", max_iterations=0)
    with pytest.raises(ValueError, match="unknown form 'bars'"):
        ca.count(s, form="bars")
    with pytest.raises(OrigamiError, match="expects a chrono_origami Structure, got CreasePattern"):
        ca.static(s.pattern)
    # the reference engine's keyword works for both engines
    assert analysis.static(s, "chrono", form="points").info["hinge_form"] == "points"


def test_supports_on_the_named_panel():
    """Moving a support to another panel at the same vertex changes the hinges at that vertex, in both engines."""
    s = kr.kresling_module()
    sup = s.supports[0]
    other = [p for p in s.pattern.vertex_panels[sup.vertex] if p != sup.panel][0]
    moved = replace(s, supports=(Support(sup.vertex, other, sup.dofs),) + s.supports[1:])
    a, b = hinge_array(ca.static(s)), hinge_array(ca.static(moved))
    assert np.abs(a - b).max() > 1e-3 * np.abs(a).max()
    R = hinge_array(statics.solve(moved))
    np.testing.assert_allclose(b, R, rtol=0, atol=1e-9 * np.abs(R).max())
