"""Folding on the sparse path: the same folds as the dense path, singularities at the same step, large Miura patches.

The sparse path (``linalg="sparse"``) factors the constraint Jacobian by
SuiteSparseQR and never forms it densely (``folding.jacobian``); every
comparison here is against the dense path (LAPACK on the formed matrix) or a
closed form (``patterns.miura``'s rigid fold).
"""
import io
import sys

import numpy as np
import pytest
import scipy.sparse as sp

from chrono_origami.tools import linalg, sparseqr
from chrono_origami.inputs.fold import Drive, FoldProblem
from chrono_origami.tools.errors import SingularConfigurationError
from chrono_origami.inputs import fold_examples as examples
from chrono_origami.engines.reference.fold.newton import fold
from chrono_origami.engines.reference.fold.constraints import FoldConstraints
from chrono_origami.tools.jacobian import Jacobian
from chrono_origami.engines.reference.fold.lie import exp_update
from chrono_origami.inputs.fold import assignment_from_vertices, hinge_angle
from chrono_origami.engines.reference.fold.start import branch_tangent
from chrono_origami.tools.geometry import best_rigid_alignment
from chrono_origami.patterns import miura, simple

pytestmark = pytest.mark.skipif(not sparseqr.available(), reason="the sparse path needs pyspqr")


def aligned_distance(X, T):
    R, d = best_rigid_alignment(X, T)
    return float(np.linalg.norm(X @ R.T + d - T, axis=1).max())


def miura_fold(rows, cols, start_deg=40.0, end_deg=50.0):
    """A rows x cols Miura-ori patch folded from start_deg to end_deg (closed-form fold angle, ``patterns.miura``).

    The first straight crease (hinge rows - 1, between panels 1 and rows + 1)
    is driven by end_deg - start_deg: the angle between the normals across a
    straight crease is the relative rotation there; panel 1 is held.
    """
    st = miura.miura_patch(rows, cols, fold_angle_deg=start_deg)
    return FoldProblem(st, [Drive(rows - 1, angle=np.radians(end_deg - start_deg))], (), 1.0)


# ------------------------------------------------------------------ the linear algebra
def test_sparse_least_squares_sigma_ratio_and_free_motion_match_lapack():
    """At a regular state and at the singular flat Yoshimura start (one free direction, redundant rows)."""
    C = FoldConstraints(examples.yoshimura_problem())
    rng = np.random.default_rng(0)
    for state in (exp_update(*C.start(), 0.05 * rng.standard_normal((C.n_bodies, 6))), C.start()):
        F, J, Ft = C.evaluate(*state, 0.1)
        dense, sparse = Jacobian(J, "dense"), Jacobian(J, "sparse")
        assert (dense.method, sparse.method) == ("dense", "sparse")
        for b in (-F, -Ft, rng.standard_normal(C.n_rows)):    # the last one inconsistent
            xd, xs = dense.solve(b), sparse.solve(b)
            assert np.abs(xd - xs).max() < 1e-11 * max(1.0, np.abs(xd).max())
        rd, rs = dense.sigma_ratio(), sparse.sigma_ratio()
        s = np.linalg.svd(J.toarray(), compute_uv=False)
        assert rd == pytest.approx(s[-1] / s[0], rel=1e-12)
        if rd > 1e-8:
            assert rs == pytest.approx(rd, rel=1e-9)
        else:                                   # singular: zero to round-off on both
            assert rd < 1e-14 and rs < 1e-14
        vd, vs = dense.free_motion(1e-7), sparse.free_motion(1e-7)
        assert abs(vd @ vs) == pytest.approx(1.0, abs=1e-9)
        assert np.linalg.norm(J @ vs) == pytest.approx(s[-1], rel=1e-6, abs=1e-15)


def test_auto_chooses_by_size():
    small = Jacobian(FoldConstraints(miura_fold(3, 3)).evaluate(*FoldConstraints(miura_fold(3, 3)).start(), 0.0)[1])
    assert small.method == "dense"
    C = FoldConstraints(miura_fold(16, 16))           # 256 panels: 1536 columns > DENSE_LIMIT
    assert C.n_cols > linalg.DENSE_LIMIT and Jacobian(C.evaluate(*C.start(), 0.0)[1]).method == "sparse"


# ------------------------------------------------------------------ the same folds on both paths
@pytest.mark.parametrize("name", ["yoshimura", "miura cantilever", "square twist"])
def test_folds_from_singular_starts_agree_on_both_paths(name):
    """The paper's Yoshimura fold (minimum-norm tangent out of flat), the Miura cantilever and the square twist
    (the assignment's branch out of flat): every stored frame within 1e-12 (1e-9 asked), the same steps."""
    if name == "yoshimura":
        prob, kw = examples.yoshimura_problem(), dict(frame_interval=100.0)
    elif name == "miura cantilever":
        prob, a = examples.miura_problem()
        kw = dict(assignment=a)
    else:
        prob, a = examples.square_twist_problem(10.0)
        kw = dict(assignment=a)
    H = {m: fold(prob, allow_singular_start=True, linalg=m, **kw) for m in ("dense", "sparse")}
    assert H["dense"].times == H["sparse"].times
    assert [s[:3] for s in H["dense"].steps] == [s[:3] for s in H["sparse"].steps]
    assert np.abs(np.array(H["dense"].vertices) - np.array(H["sparse"].vertices)).max() < 1e-12
    assert H["sparse"].max_residual < 1e-12 and H["sparse"].singular_start
    np.testing.assert_allclose(H["sparse"].sigma_ratios[1:], H["dense"].sigma_ratios[1:], rtol=1e-7)
    if name == "miura cantilever":
        assert aligned_distance(H["sparse"].final, miura.cantilever_vertices(fold_angle_deg=27.4)) < 1e-12
    if name == "square twist":
        assert aligned_distance(H["sparse"].final, simple.square_twist_folded(10.0).vertices) < 1e-12


def test_miura_patch_folds_alike_on_both_paths_and_to_the_closed_form():
    """A 6 x 8 patch from 40 to 50 degrees: both paths within 1e-12 of each other and of the rigid fold."""
    prob = miura_fold(6, 8)
    H = {m: fold(prob, linalg=m, frame_interval=0.25) for m in ("dense", "sparse")}
    assert np.abs(np.array(H["dense"].vertices) - np.array(H["sparse"].vertices)).max() < 1e-12
    for k, t in enumerate(H["sparse"].times):
        exact = miura.miura_vertices(6, 8, fold_angle_deg=40.0 + 10.0 * t)
        assert aligned_distance(H["sparse"].vertices[k], exact) < 1e-12
    np.testing.assert_allclose(H["sparse"].sigma_ratios, H["dense"].sigma_ratios, rtol=1e-9)


# ------------------------------------------------------------------ singularities on both paths
@pytest.mark.parametrize("method", ["dense", "sparse"])
def test_singular_configurations_are_found_at_the_same_step(method):
    """The Kresling module stops at its turning point t = 0.41590 s on both paths, with the same history; the flat
    Yoshimura start is refused with one free direction.

    The pinned step history is that of the branch-jump guard comparing vertex displacements with vertex
    displacements (``newton.jumped``): it rejects the step 0.4125 -> 0.415625 s (corrector 0.55 of the predictor)
    that the mixed measure took, so 25 steps, not 20, stopping at 0.4159023779 s (sigma ratio 8.68e-7) instead of
    0.4159023795 s (5.10e-7). Both stops are on the same branch (the twist rises monotonically to 30.124 deg) and
    within 3e-9 s of the turning point t* = 0.41590238033 s (sigma ratio^2 linear in t* - t through the two)."""
    with pytest.raises(SingularConfigurationError, match="singular configuration at t = 0.415902 s") as e:
        fold(examples.kresling_problem(slide_rate=1.0, duration=2.0), frame_interval=0.1, linalg=method)
    err = e.value
    assert err.time == pytest.approx(0.41590237788473, abs=1e-12)
    assert err.sigma_ratio == pytest.approx(8.6761e-7, rel=1e-4)
    assert len(err.history.steps) == 25 and err.history.times == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
    assert examples.top_twist_deg(err.vertices) == pytest.approx(30.12, abs=0.01)
    with pytest.raises(SingularConfigurationError, match="has 1 free direction"):
        fold(examples.yoshimura_problem(), linalg=method)


# ------------------------------------------------------------------ large patches
def test_a_thousand_panel_miura_patch_folds_to_the_closed_form():
    """25 x 40 = 1000 panels (6000 unknowns, 10,000 constraint rows), 40 -> 50 degrees in four steps: the sparse
    path by default; every vertex within 1e-11 of the rigid fold (pattern size ~ 35)."""
    rows, cols = 25, 40
    prob = miura_fold(rows, cols)
    H = fold(prob, frame_interval=0.5, dt=0.25, dt_max=0.25)
    assert len(H.steps) == 4 and H.max_residual < 1e-12
    for k, t in enumerate(H.times):
        assert aligned_distance(H.vertices[k], miura.miura_vertices(rows, cols, fold_angle_deg=40.0 + 10.0 * t)) < 1e-11
    assert 1e-3 < min(H.sigma_ratios) < 1e-2
    assert H.vertex_spread < 1e-11


# ------------------------------------------------------------------ leaving a flat start
def flat_miura_fold(n, end_deg=30.0):
    """(problem, assignment): a flat n x n Miura-ori patch folded to end_deg (closed-form fold angle), its first
    straight crease (hinge n - 1) driven by the closed form's angle there, panel 1 held, the closed form's
    mountain-valley assignment."""
    st = miura.miura_patch(n, n, fold_angle_deg=0.0)
    T = miura.miura_vertices(n, n, fold_angle_deg=end_deg)
    return (FoldProblem(st, [Drive(n - 1, angle=hinge_angle(st.pattern, T, n - 1))], (), 1.0),
            assignment_from_vertices(st.pattern, T))


def start_and_signs(prob, assignment):
    C = FoldConstraints(prob)
    signs = np.zeros(len(C.hinges))
    for h, sgn in dict(assignment).items():
        signs[h] = np.sign(sgn)
    return C, C.start(), signs


def test_range_residual_is_the_left_null_projection():
    """At the flat 8 x 8 Miura start (S = 196 self-stress states): w - J x on the sparse factor equals U0 U0^T w
    (U0 by the dense SVD) to 1e-12 |w|, for one vector and a block, and on the dense path."""
    C, (R, u), _ = start_and_signs(*flat_miura_fold(8))
    _, J, _ = C.evaluate(R, u, 0.0)
    U0 = linalg.null_space(J, 1e-9, "dense", left=True).left
    assert U0.shape[1] == 196
    W = np.random.default_rng(0).standard_normal((C.n_rows, 5))
    exact = U0 @ (U0.T @ W)
    for method in ("sparse", "dense"):
        r = Jacobian(J, method).range_residual(W)
        assert np.abs(r - exact).max() < 1e-12 * np.abs(W).max()
        r1 = Jacobian(J, method).range_residual(W[:, 0])
        assert np.abs(r1 - exact[:, 0]).max() < 1e-12 * np.abs(W).max()
        assert np.linalg.norm(r1) == pytest.approx(np.linalg.norm(U0.T @ W[:, 0]), rel=1e-12)


@pytest.mark.parametrize("name", ["yoshimura", "square twist", "miura 4x4", "miura 8x8"])
def test_branch_tangent_is_the_same_on_both_paths(name):
    """The branch out of flat: the sparse path (no left null basis) gives the dense path's tangent (left null basis
    by the SVD) to 1e-8 after normalisation; the Yoshimura wedge without an assignment (minimum-norm start)."""
    if name == "yoshimura":
        prob, a = examples.yoshimura_problem(), {}
    elif name == "square twist":
        prob, a = examples.square_twist_problem(10.0)
    else:
        prob, a = flat_miura_fold(int(name[-1]))
    C, (R, u), signs = start_and_signs(prob, a)
    vd, vs = (branch_tangent(C, R, u, signs, method=m) for m in ("dense", "sparse"))
    assert np.abs(vd / np.linalg.norm(vd) - vs / np.linalg.norm(vs)).max() < 1e-8


@pytest.mark.parametrize("n", [4, 8])
def test_the_null_spaces_kept_from_the_hinge_rows_are_the_jacobians_for_any_drive(n):
    """``start._drives_null_space`` (a flat start's restarts): J's null spaces from those of its rows other than the
    drive's, made once (N_B null(D N_B); the left one zero on the drive row), span the spaces ``linalg.null_space``
    finds from J itself, for the first drive and, from the kept ones, for another: the sine of their largest
    principal angle at most (|J N| + |J N'|) / sigma, sigma the smallest singular value J keeps (Wedin; both bases
    null to round-off), and the same dimensions (flat n x n Miura: 2n - 3 mechanisms, 4 (n - 1)^2 self-stresses)."""
    from chrono_origami.engines.reference.fold.start import NULL_RTOL, _drives_null_space

    prob, _ = flat_miura_fold(n)
    cache = {}
    for k, h in enumerate((n - 1, 1)):          # the first straight crease, then hinge 2
        p = FoldProblem(prob.structure, [Drive(h, rate=1.0)], (), 1.0)
        C = FoldConstraints(p)
        R, u = C.start()
        J = C.evaluate(R, u, 0.0)[1]
        kept = cache.get("base")
        got = _drives_null_space(C, J, cache, None)
        assert got is not None and (k == 0 or cache["base"] is kept)        # the second drive reuses the first's
        ref = linalg.null_space(J, NULL_RTOL, "sparse", left=True)
        assert got.dim == ref.dim == 2 * n - 3 and got.left.shape[1] == ref.left.shape[1] == 4 * (n - 1) ** 2
        sigma = ref.gap[0] * ref.sigma_max
        for A, X, Y in ((J, got.basis, ref.basis), (J.T, got.left, ref.left)):
            residual = np.linalg.norm(A @ X, 2) + np.linalg.norm(A @ Y, 2)
            sine = np.linalg.norm(X - Y @ (Y.T @ X), 2)
            assert sine <= residual / sigma + X.shape[1] * np.finfo(float).eps, (sine, residual / sigma)   # orthonormal to eps k


@pytest.mark.parametrize("n, method", [(14, "sparse"), (16, "auto")])
def test_flat_miura_beyond_the_nullity_limit_folds_to_the_closed_form(n, method):
    """Flat 14 x 14 and 16 x 16 patches (S = 676 and 900 self-stress states, more than the 400 null directions
    the sparse path once resolved;
    16 x 16 is beyond DENSE_LIMIT, so "auto" is sparse) folded from flat to 30 degrees in four steps on the
    assignment's branch: every vertex within 1e-10 of the rigid fold (pattern size ~ n)."""
    prob, a = flat_miura_fold(n)
    C, (R, u), _ = start_and_signs(prob, a)
    _, J, _ = C.evaluate(R, u, 0.0)
    assert linalg.choose_method(J.shape, method) == "sparse"
    mechanisms = linalg.null_space(J, 1e-9, "sparse").dim
    assert mechanisms == 2 * n - 3
    assert J.shape[0] - (J.shape[1] - mechanisms) == 4 * (n - 1) ** 2 > 400
    H = fold(prob, allow_singular_start=True, assignment=a, linalg=method, frame_interval=1.0, dt=0.25, dt_max=0.25)
    assert H.singular_start and len(H.steps) == 4 and H.max_residual < 1e-12
    assert aligned_distance(H.final, miura.miura_vertices(n, n, fold_angle_deg=30.0)) < 1e-10


# ------------------------------------------------------------------ progress and command line
class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_fold_progress_bar_only_on_a_terminal(monkeypatch):
    prob = miura_fold(2, 2)
    tty = Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    fold(prob)
    assert "folding [" in tty.getvalue() and "100%" in tty.getvalue()
    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    fold(prob)
    assert quiet.getvalue() == ""


def test_fold_command_takes_linalg(tmp_path, capsys):
    from chrono_origami.structure import foldfile
    from chrono_origami.cli import main

    # the single-vertex Miura (2 x 2 panels): the option reaches the engine whatever the size, and Chrono's fold takes
    # 200 steps whatever the size (3 x 4 cost 1.6x its processor time); large patches fold on both paths above
    st = miura.miura_patch(2, 2, fold_angle_deg=40.0)
    path = tmp_path / "patch.fold"
    foldfile.write_fold(st, str(path))
    out = {}
    for m in ("dense", "sparse"):
        # --angle-deg is FOLD-signed: hinge 2, a mountain, folds on from 40 to 50 degrees by -10 (valley positive)
        assert main(["fold", str(path), "--drive", "2", "--angle-deg", "-10", "--linalg", m, "--quiet",
                     "--out", str(tmp_path / m)]) == 0
        out[m] = np.loadtxt(tmp_path / m / "vertices.csv", delimiter=",", skiprows=1)
    np.testing.assert_allclose(out["dense"], out["sparse"], atol=1e-12)
    assert aligned_distance(out["sparse"][:, 1:], miura.miura_vertices(2, 2, fold_angle_deg=50.0)) < 1e-8
    with pytest.raises(SystemExit):
        main(["fold", str(path), "--drive", "2", "--angle-deg", "10", "--linalg", "qr"])
    assert "invalid choice: 'qr'" in capsys.readouterr().err


def test_range_residual_converges_when_kept_singular_values_are_small():
    """The sparse range residual iterates until its corrections stop (one Tikhonov step leaves an error of
    (delta / sigma)^2 along a kept direction sigma: 6e-5 |W| at sigma = 1e-5 sigma_max); it equals the exact
    part of W outside range(J), as the dense SVD gives it."""
    from chrono_origami.tools.jacobian import Jacobian

    rng = np.random.default_rng(3)
    m, n = 40, 30
    U = np.linalg.qr(rng.standard_normal((m, m)))[0]
    V = np.linalg.qr(rng.standard_normal((n, n)))[0]
    s = np.concatenate([np.logspace(0, -1, 20), np.full(5, 1e-5), np.zeros(5)])
    J = (U[:, :n] * s) @ V.T
    W = rng.standard_normal((m, 3))
    exact = W - U[:, :25] @ (U[:, :25].T @ W)
    for method in ("dense", "sparse"):
        r = Jacobian(sp.csr_matrix(J), method).range_residual(W)
        assert np.abs(r - exact).max() < 1e-9 * np.abs(W).max(), method
