"""The fold's cheaper linear algebra: the Cholesky of the normal equations against the QR, the QR kept where
the Cholesky is not accurate, and folds on the Cholesky path against their closed forms.

Every comparison is against the QR path (``jacobian.CHOLESKY`` off), a dense LAPACK solve, or the closed-form rigid
fold of a Miura-ori patch (``patterns.miura``).
"""
import numpy as np
import pytest
import scipy.sparse as sp

from chrono_origami.engines.reference.fold.newton import fold
from chrono_origami.inputs.fold import Drive, FoldProblem
from chrono_origami.patterns import miura
from chrono_origami.tools import jacobian, sparseqr
from chrono_origami.tools.geometry import best_rigid_alignment
from chrono_origami.tools.jacobian import Jacobian
from chrono_origami.tools.suitesparse import suitesparse

pytestmark = pytest.mark.skipif(not sparseqr.available() or suitesparse() is None,
                                reason="the Cholesky path needs pyspqr's SuiteSparse (CHOLMOD)")

EPS = np.finfo(float).eps


def _random_tall(m, n, seed, density=0.05):
    """A random sparse m x n matrix of full column rank (a diagonal block keeps every column)."""
    rng = np.random.default_rng(seed)
    A = sp.random(m, n, density=density, random_state=rng, data_rvs=rng.standard_normal)
    return sp.vstack([A, sp.diags(1.0 + rng.random(n))]).tocsr()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_cholesky_solve_is_the_qr_solve_to_the_problems_own_sensitivity(seed, monkeypatch):
    """A random full-rank sparse least-squares problem with a residual: the Cholesky's answer (refined against J)
    and the QR's differ by no more than the problem's sensitivity to a relative change eps of J (Wedin: eps (kappa
    + kappa^2 |r| / (sigma_max |x|)) |x|, times n for the sums), kappa from the dense SVD."""
    J = _random_tall(400, 150, seed)
    rng = np.random.default_rng(10 + seed)
    b = J @ rng.standard_normal(150) + 0.1 * rng.standard_normal(J.shape[0])
    chol = Jacobian(J, "sparse")
    x = chol.solve(b)
    assert chol._chol                                   # the Cholesky served, no QR was made
    assert chol._qr is None
    monkeypatch.setattr(jacobian, "CHOLESKY", False)
    qr = Jacobian(J, "sparse")
    xq = qr.solve(b)
    assert qr._qr is not None
    s = np.linalg.svd(J.toarray(), compute_uv=False)
    kappa = s[0] / s[-1]
    r = np.linalg.norm(b - J @ xq)
    tol = 150 * EPS * (kappa + kappa ** 2 * r / (s[0] * np.linalg.norm(xq))) * np.linalg.norm(xq)
    assert np.linalg.norm(x - xq) <= tol
    xd = np.linalg.lstsq(J.toarray(), b, rcond=None)[0]
    assert np.linalg.norm(x - xd) <= tol


def test_a_rank_deficient_jacobian_is_solved_by_the_qr_minimum_norm():
    """J with a column that is the sum of two others: J^T J + delta^2 I has delta^2 (1e-16 bound^2) as its smallest
    eigenvalue, below the check's ``CHOLESKY_RCOND`` bound^2: the QR solves, and the answer is LAPACK's
    minimum-norm least-squares solution (the sparse path's own tolerance, ``test_fold_sparse``'s 1e-10)."""
    J = _random_tall(300, 80, 3).tolil()
    J[:, 5] = J[:, 6] + J[:, 7]
    J = J.tocsr()
    b = np.random.default_rng(4).standard_normal(J.shape[0])
    jac = Jacobian(J, "sparse")
    x = jac.solve(b)
    assert not jac._chol and jac._qr is not None
    xd = np.linalg.lstsq(J.toarray(), b, rcond=1e-12)[0]
    np.testing.assert_allclose(x, xd, rtol=0, atol=1e-10 * np.linalg.norm(xd))


def test_the_cholesky_sigma_ratio_is_lapacks():
    """The sigma ratio by Lanczos with the Cholesky's solves equals LAPACK's to the Lanczos tolerances (1e-8 on
    sigma_max, 1e-10 on sigma_min^2), also when started from another matrix's singular vectors."""
    J = _random_tall(300, 100, 5)
    s = np.linalg.svd(J.toarray(), compute_uv=False)
    jac = Jacobian(J, "sparse")
    ratio = jac.sigma_ratio()
    assert jac._chol
    assert abs(ratio - s[-1] / s[0]) <= 1e-7 * s[-1] / s[0]
    other = Jacobian(_random_tall(300, 100, 6), "sparse")
    other.sigma_ratio()
    again = Jacobian(J, "sparse").sigma_ratio(other.ratio_vectors)
    assert abs(again - s[-1] / s[0]) <= 1e-7 * s[-1] / s[0]


def test_the_normal_analysis_is_made_once_a_pattern():
    """Two Jacobians with one pattern and other values share CHOLMOD's analysis; another pattern has its own."""
    J = _random_tall(200, 60, 7)
    a = jacobian._analysis(J)
    K = J.copy()
    K.data = K.data * 1.5 + 0.1
    assert jacobian._analysis(K) is a
    assert jacobian._analysis(_random_tall(200, 60, 8)) is not a


def _patch(n, start_deg, turn_deg):
    st = miura.miura_patch(n, n, fold_angle_deg=start_deg)
    return FoldProblem(st, [Drive(n - 1, angle=np.radians(turn_deg))], (), 1.0), st


@pytest.mark.parametrize("n, method", [(4, "sparse"), (10, "sparse")])
def test_a_miura_patch_folds_to_the_closed_form_on_the_cholesky_path(n, method):
    """A Miura-ori patch (n x n, all doors) driven from 40 to 50 degrees on the sparse path, whose solves and sigma
    ratios now go through the Cholesky of the normal equations: every frame is the closed-form rigid fold at its
    angle to 1e-12 (largest vertex distance after the best rigid alignment, the pattern's scale 1), and the solves
    did take the Cholesky."""
    prob, st = _patch(n, 40.0, 10.0)
    made = []
    real = jacobian.normal_cholesky

    def counted(*a, **k):
        F = real(*a, **k)
        made.append(F is not None)
        return F

    jacobian_normal = pytest.MonkeyPatch()
    jacobian_normal.setattr(jacobian, "normal_cholesky", counted)
    try:
        H = fold(prob, linalg=method)
    finally:
        jacobian_normal.undo()
    assert made and all(made)
    for t, X in zip(H.times, H.vertices):
        T = miura.miura_vertices(n, n, fold_angle_deg=40.0 + 10.0 * t)
        R, d = best_rigid_alignment(X, T)
        assert float(np.linalg.norm(X @ R.T + d - T, axis=1).max()) <= 1e-12


def test_a_cholesky_beyond_the_memory_is_a_one_line_error(monkeypatch):
    """The Cholesky's size comes from CHOLMOD's analysis (24 bytes an entry of L): with 1 kB available the solve
    stops with one line naming the factor and the operator's size, before any numeric factorisation."""
    from chrono_origami.tools import memory
    from chrono_origami.tools.errors import InsufficientMemoryError

    J = _random_tall(200, 60, 9)
    monkeypatch.setattr(memory, "available", lambda: 1000)
    with pytest.raises(InsufficientMemoryError) as err:
        Jacobian(J, "sparse").solve(np.ones(J.shape[0]))
    text = str(err.value)
    assert "\n" not in text
    assert text.startswith("the Cholesky factor of the normal equations of the 260 x 60 operator")
