"""linalg: one rank rule, dense and sparse null spaces that agree, the gap, independent rows (no PyChrono)."""
import numpy as np
import pytest
import scipy.sparse as sp

from chrono_origami.tools import linalg, sparseqr
from chrono_origami.patterns import miura
from chrono_origami.engines.reference import count as counting
from chrono_origami.engines.reference.model import assemble
from chrono_origami.structure.hinges import DOOR

from catalogue import chain_matrices  # noqa: E402  (tests/)


def graded(sigma, m, n, seed=0):
    """Sparse m x n operator with singular values ``sigma`` (then zeros): Q1 diag(sigma) Q2^T, Q random orthogonal."""
    rng = np.random.default_rng(seed)
    Q1, _ = np.linalg.qr(rng.standard_normal((m, m)))
    Q2, _ = np.linalg.qr(rng.standard_normal((n, n)))
    k = len(sigma)
    return sp.csr_matrix(Q1[:, :k] @ np.diag(sigma) @ Q2[:, :k].T), Q2[:, k:]


@pytest.mark.parametrize("method", ["dense", "sparse"])
@pytest.mark.parametrize("shape", [(40, 30), (20, 30)])
def test_rank_rule_and_gap(method, shape):
    """Singular values 1 ... 1e-7 are kept, 1e-9 is dropped (rtol 1e-8): rank, null space and gap say so."""
    m, n = shape
    sigma = np.r_[np.linspace(1.0, 0.5, 14), 1e-7, 1e-9]
    A, _ = graded(sigma, m, n)
    ns = linalg.null_space(A, method=method)
    assert ns.method == method
    assert ns.rank == 15 and ns.dim == n - 15 and linalg.rank(A, method=method) == 15
    assert ns.sigma_max == pytest.approx(1.0, rel=1e-9)
    kept, dropped = ns.gap
    # the sparse path works on A^T A, whose round-off (1e-16) blurs the squared 1e-9 by a few per cent
    rel = dict(dense=(1e-6, 1e-6), sparse=(1e-3, 5e-2))[method]
    assert kept == pytest.approx(1e-7, rel=rel[0])
    assert dropped == pytest.approx(1e-9, rel=rel[1])
    N = ns.basis
    np.testing.assert_allclose(N.T @ N, np.eye(ns.dim), atol=1e-10)
    assert np.linalg.norm(A @ N) <= 2e-9
    # the tolerance moves the decision: at 1e-6 the 1e-7 singular value is dropped too
    assert linalg.rank(A, rtol=1e-6, method=method) == 14
    if method == "dense":   # at 1e-10 the 1e-9 one is kept (the sparse method cannot resolve it: module doc)
        assert linalg.rank(A, rtol=1e-10, method=method) == 16


def test_dense_and_sparse_null_spaces_span_the_same_space():
    A, exact = graded(np.linspace(2.0, 1.0, 50), 80, 60, seed=3)
    d, s = linalg.null_space(A, method="dense"), linalg.null_space(A, method="sparse")
    assert d.dim == s.dim == exact.shape[1] == 10
    # same subspace: the projector onto one maps the other onto itself
    np.testing.assert_allclose(d.basis @ (d.basis.T @ s.basis), s.basis, atol=1e-9)
    np.testing.assert_allclose(exact @ (exact.T @ d.basis), d.basis, atol=1e-9)


def test_left_null_space(monkeypatch):
    A, _ = graded(np.ones(7), 12, 9, seed=1)
    ns = linalg.null_space(A, method="dense", left=True)
    assert ns.left.shape == (12, 5)
    assert np.abs(A.T @ ns.left).max() < 1e-12
    if sparseqr.available():     # the sparse QR path has it too, the same subspace
        L = linalg.null_space(A, method="sparse", left=True).left
        assert L.shape == (12, 5)
        np.testing.assert_allclose(ns.left @ (ns.left.T @ L), L, atol=1e-9)
    monkeypatch.setattr(sparseqr, "available", lambda: False)   # the Gram fallback has none
    assert linalg.null_space(A, method="sparse", left=True).left is None


@pytest.mark.parametrize("backend", ["sparse QR", "Gram fallback"])
def test_both_sparse_backends_decide_the_same(backend, monkeypatch):
    if backend == "Gram fallback":
        monkeypatch.setattr(sparseqr, "available", lambda: False)
    elif not sparseqr.available():
        pytest.skip("pyspqr is not installed")
    sigma = np.r_[np.linspace(1.0, 0.5, 14), 1e-6, 1e-12]
    A, _ = graded(sigma, 40, 30)
    ns = linalg.null_space(A, method="sparse")
    assert (ns.rank, ns.dim) == (15, 15) and linalg.rank(A, method="sparse") == 15
    assert ns.gap[0] == pytest.approx(1e-6, rel=1e-3)


def test_auto_switches_at_the_dense_limit(monkeypatch):
    A, _ = graded(np.ones(5), 10, 8)
    assert linalg.null_space(A).method == "dense"
    monkeypatch.setattr(linalg, "DENSE_LIMIT", 7)
    assert linalg.null_space(A).method == "sparse"
    with pytest.raises(ValueError, match="unknown method 'qr'"):
        linalg.rank(A, method="qr")


def test_the_dense_sparse_switch_is_at_DENSE_LIMIT_columns():
    """"auto" is dense up to and including linalg.DENSE_LIMIT columns and sparse from one more, whatever the rows
    (the limit itself is read from the constant, so that moving it needs no edit here)."""
    n = linalg.DENSE_LIMIT
    for m in (1, n // 2, n, 4 * n):
        assert linalg.choose_method((m, n)) == "dense"
        assert linalg.choose_method((m, n + 1)) == "sparse"
        assert linalg.choose_method((m, n - 1)) == "dense"


def test_count_fold_design_and_modal_analysis_switch_at_the_limit(monkeypatch):
    """Each analysis that decides dense or sparse by size does it at its constant (linalg's for counts and folds,
    the design search's and the modal analysis's own): an operator of exactly the limit is dense, one column more
    is sparse (the limit moved onto small operators here); both sides give the same counts."""
    from chrono_origami.analysis import design, modal
    from chrono_origami.engines.reference.fold.constraints import FoldConstraints
    from chrono_origami.inputs.fold import Drive, FoldProblem
    from chrono_origami.patterns import simple
    from chrono_origami.structure.structure import Structure
    from chrono_origami.tools.jacobian import Jacobian

    limit0 = linalg.DENSE_LIMIT
    s = miura.miura_patch(3, 3)
    n = 6 * s.pattern.n_panels
    counts = {}
    for limit, method in ((n, "dense"), (n - 1, "sparse")):
        monkeypatch.setattr(linalg, "DENSE_LIMIT", limit)
        c = counting.count(s)
        assert c.linalg == method
        counts[method] = (c.M, c.S)
    assert counts["dense"] == counts["sparse"]
    # folding: the constraint Jacobian's columns
    C = FoldConstraints(FoldProblem(Structure(simple.square_twist_folded(5.0)), [Drive(0, rate=0.1)], (), 1.0))
    J = C.evaluate(*C.start(), 0.0)[1]
    for limit, method in ((J.shape[1], "dense"), (J.shape[1] - 1, "sparse")):
        monkeypatch.setattr(linalg, "DENSE_LIMIT", limit)
        assert Jacobian(J).method == method
    # the design search: its dense_limit is its own constant (its exchange search takes dense eigenvalues: the
    # count's switch was moved, measured, to 200 columns and the design's left at 1,500), and the null space of its
    # operator follows it
    assert __import__("inspect").signature(design.design).parameters["dense_limit"].default == design.DENSE_LIMIT
    assert (limit0, design.DENSE_LIMIT) == (200, 1500)
    ring = Structure(simple.rectangular_ring(), name="four-panel ring")
    n = 6 * ring.pattern.n_panels
    used = []

    def null_space(A, rtol, method, **kw):
        used.append(method)
        return linalg.null_space(A, rtol, method, **kw)

    monkeypatch.setattr(design, "null_space", null_space)
    assert design.design(ring, dense_limit=n).S_after == design.design(ring, dense_limit=n - 1).S_after == 2
    assert used == ["dense", "sparse"]
    # modal analysis: null-space reduction up to its own limit (coordinates: the dense pencil gives every mode, so
    # it kept 1,500), sparse shift-invert above
    assert modal.DENSE_LIMIT == 1500
    N = 12
    mats = chain_matrices(N)
    for limit, method in ((6 * N, "nullspace"), (6 * N - 1, "sparse")):
        monkeypatch.setattr(modal, "DENSE_LIMIT", limit)
        assert modal.solve_modes(mats, n_modes=N).method == method


def test_zero_and_empty_operators():
    for method in ("dense", "sparse"):
        Z = linalg.null_space(sp.csr_matrix((4, 5)), method=method)
        assert (Z.rank, Z.dim, Z.sigma_max) == (0, 5, 0.0)
        assert linalg.rank(sp.csr_matrix((0, 5)), method=method) == 0
        assert linalg.null_space(sp.csr_matrix((0, 3)), method=method).dim == 3


@pytest.mark.parametrize("method", ["dense", "sparse"])
def test_rank_of_a_door_hinged_miura_patch_is_the_count(method):
    """The compatibility operator of a 3 x 3 Miura-ori patch: rank = 6P - M (M = 1 mechanism + 6 rigid motions)."""
    s = miura.miura_patch(3, 3)
    Cs = assemble(s.with_hinge_kinds((DOOR,) * len(s.hinge_kinds))).Cs
    c = counting.count(s)
    assert linalg.rank(Cs, method=method) == c.rank == Cs.shape[1] - 7
    assert linalg.null_space(Cs, method=method).dim == 7


def test_independent_rows_drop_repeated_and_combined_rows():
    rng = np.random.default_rng(2)
    B = rng.standard_normal((4, 9))
    A = np.vstack([B, B[1], B[0] + 2 * B[3], np.zeros(9)])
    rows = linalg.independent_rows(sp.csr_matrix(A))
    assert len(rows) == 4 and np.linalg.matrix_rank(A[rows]) == 4
    assert 6 not in rows    # the zero row
    assert len(linalg.independent_rows(np.zeros((0, 9)))) == 0


def test_min_norm_lstsq_solves_and_refuses_to_return_an_unconverged_answer(monkeypatch):
    """LSMR's minimum-norm answer matches the pseudo-inverse's; stopped at its iteration limit it is a one-line
    SolverError naming the problem, not a silently wrong multiplier vector."""
    import scipy.sparse as sps
    import scipy.sparse.linalg as spla_

    from chrono_origami.tools import linalg as la
    from chrono_origami.tools.errors import SolverError

    rng = np.random.default_rng(0)
    A = rng.standard_normal((30, 12)) @ np.diag(np.logspace(0, -3, 12)) @ rng.standard_normal((12, 20))  # rank 12
    b = rng.standard_normal(30)
    x = la.min_norm_lstsq(sps.csr_matrix(A), b, "a test problem")
    assert np.allclose(x, np.linalg.pinv(A) @ b, rtol=0, atol=1e-8 * np.abs(np.linalg.pinv(A) @ b).max())
    real = spla_.lsmr
    monkeypatch.setattr(la.spla, "lsmr", lambda *a, **kw: real(*a, **{**kw, "maxiter": 2}))
    with pytest.raises(SolverError, match="^a test problem: LSMR did not converge"):
        la.min_norm_lstsq(sps.csr_matrix(A), b, "a test problem")
