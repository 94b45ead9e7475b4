"""The sparse counting and statics path (SuiteSparseQR) against the dense SVD path.

Counts, gaps, bases and tables must agree on every structure small enough
for the dense path; near-singular configurations must give the same counts;
the 100 x 100 all-door Miura-ori patch must count M = 1, S = 39,007.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp

pytest.importorskip("pyspqr", reason="the sparse path needs pyspqr (pip install pyspqr)")
hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed (pip install -e '.[test]')")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from chrono_origami.tools import linalg, sparseqr  # noqa: E402
from chrono_origami.tools.errors import IndeterminateError, SolverError  # noqa: E402
from chrono_origami.patterns import kresling as kr  # noqa: E402
from chrono_origami.patterns import miura as mi  # noqa: E402
from chrono_origami.patterns import simple as si  # noqa: E402
from chrono_origami.engines.reference import count as counting, static as statics  # noqa: E402
from chrono_origami.engines.reference.model import assemble  # noqa: E402
from chrono_origami.structure.structure import Load, Structure  # noqa: E402

from catalogue import DETERMINED  # noqa: E402
from catalogue import STRUCTURES as CATALOGUE  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

STRUCTURES = {**CATALOGUE,
              "miura patch 5 x 7": lambda: mi.miura_patch(5, 7),
              "hexagonal ring": lambda: Structure(si.regular_ring(6))}


def subspace_distance(A, B):
    """|P_A - P_B| (Frobenius) of two orthonormal bases."""
    return np.linalg.norm(A @ A.T - B @ B.T)


def assert_same_counts(s):
    d = counting.count(s, linalg="dense")
    q = counting.count(s, linalg="sparse")
    assert (q.linalg, d.linalg) == ("sparse", "dense")
    assert (q.M, q.S, q.rank) == (d.M, d.S, d.rank), s.name
    kept_d, dropped_d = d.gap
    kept_q, dropped_q = q.gap
    if np.isfinite(kept_d):
        assert kept_q == pytest.approx(kept_d, rel=1e-6)
    assert dropped_q <= 1e-9 and dropped_d <= 1e-9   # clear rank decisions on both paths
    assert q.sigma_max == pytest.approx(d.sigma_max, rel=1e-6)
    return d, q


@pytest.mark.parametrize("name", list(STRUCTURES))
def test_sparse_and_dense_counts_and_bases_agree(name):
    d, q = assert_same_counts(STRUCTURES[name]())
    assert subspace_distance(d.mechanisms, q.mechanisms) < 1e-8
    assert subspace_distance(d.self_stresses, q.self_stresses) < 1e-8
    C = q.model.Cs
    assert np.abs(C @ q.mechanisms).max(initial=0) < 1e-12
    assert np.abs(C.T @ q.self_stresses).max(initial=0) < 1e-12


@pytest.mark.parametrize("name", DETERMINED)
def test_sparse_and_dense_tables_agree(name):
    s = STRUCTURES[name]()
    assert counting.count(s, linalg="sparse").isostatic
    rd = statics.solve(s, linalg="dense")
    rq = statics.solve(s, linalg="sparse")
    a = np.array([r[2:] for r in rd.hinge_rows()])
    b = np.array([r[2:] for r in rq.hinge_rows()])
    assert np.abs(a - b).max() <= 1e-9 * np.abs(a).max()
    sa, sb = np.array(rd.support_rows()), np.array(rq.support_rows())
    assert np.abs(sa - sb).max(initial=0) <= 1e-9 * max(np.abs(sa).max(initial=0), 1.0)
    assert rq.info["linalg"] == "sparse" and rq.equilibrium_residual < 1e-12


@pytest.mark.parametrize("name", ["yoshimura wedge doors", "kresling tower 2 doors"])
def test_minimum_norm_answers_agree(name):
    s = STRUCTURES[name]()
    rd = statics.solve(s, allow_indeterminate=True, linalg="dense")
    rq = statics.solve(s, allow_indeterminate=True, linalg="sparse")
    assert rq.status == rd.status == "minimum-norm"
    a = np.array([r[2:] for r in rd.hinge_rows()])
    b = np.array([r[2:] for r in rq.hinge_rows()])
    assert np.abs(a - b).max() <= 1e-8 * np.abs(a).max()   # the minimum-norm answer is unique


@pytest.mark.parametrize("seed", range(6))
def test_random_miura_patches_agree(seed):
    rng = np.random.default_rng(seed)
    rows, cols = rng.integers(2, 9, size=2)
    sector, fold = rng.uniform(40, 80), rng.uniform(10, 80)
    kind = ("door", "sliding")[seed % 2]
    s = mi.miura_patch(int(rows), int(cols), sector, fold, hinge_kind=kind)
    d, q = assert_same_counts(s)
    assert q.M == (1 if kind == "door" else 2)


@pytest.mark.parametrize("seed", range(4))
def test_random_kresling_towers_agree(seed):
    rng = np.random.default_rng(100 + seed)
    modules = int(rng.integers(1, 6))
    twist = rng.uniform(0.2, 0.9)
    s = kr.kresling_tower(modules, door_module=int(rng.integers(1, modules + 1)), twist=twist,
                          height=rng.uniform(8, 30), diameter=rng.uniform(10, 30))
    assert_same_counts(s)


@pytest.mark.parametrize("twist", kr.SINGULAR_TWISTS)
def test_kresling_at_its_singular_twist_counts_the_same(twist):
    d, q = assert_same_counts(kr.kresling_module(twist=twist))
    assert (q.M, q.S) == (1, 1)


def test_flat_square_twist_counts_the_same():
    d, q = assert_same_counts(Structure(si.square_twist()))
    assert (q.M, q.S) == (d.M, d.S) and q.M > 1   # flat: singular, more than the generic M = 1


def test_loads_out_of_the_range_are_refused_on_the_sparse_path():
    s = mi.miura_single_vertex()                     # M = 1, S = 0, unsupported
    q = counting.count(s, linalg="sparse")
    model, pat = q.model, s.pattern
    d = q.mechanisms[:, 0].reshape(-1, 6)            # (omega, w / L) per panel

    def velocity(p, x):
        return np.cross(d[p, :3], x - model.x0) + model.L * d[p, 3:]

    # two opposite forces along the line joining two vertices of different panels: self-equilibrated,
    # and doing work on the mechanism when the mechanism changes their distance
    best = max(((abs((velocity(p, pat.vertices[a]) - velocity(r, pat.vertices[b]))
                     @ (pat.vertices[b] - pat.vertices[a])), a, p, b, r)
                for p in range(pat.n_panels) for r in range(pat.n_panels) if p != r
                for a in pat.panels[p] for b in pat.panels[r] if a != b), key=lambda t: t[0])
    rate, a, p, b, r = best
    assert rate > 1e-3
    e = (pat.vertices[b] - pat.vertices[a]) / np.linalg.norm(pat.vertices[b] - pat.vertices[a])
    loads = (Load(a, tuple(-e), p), Load(b, tuple(e), r))   # pulls the two vertices apart
    pinched = Structure(pat, s.hinge_kinds, loads=loads, name="single vertex, pulled apart")
    for linalg in ("dense", "sparse"):
        with pytest.raises(IndeterminateError, match="cannot be equilibrated"):
            statics.solve(pinched, allow_indeterminate=True, linalg=linalg)


def test_forcing_dense_beyond_memory_is_a_one_line_error(monkeypatch):
    monkeypatch.setattr(linalg, "available_memory", lambda: 2 ** 30)
    s = mi.miura_patch(30, 30)                       # 8,700 x 5,400: about 2.4 GB for the dense SVD
    with pytest.raises(SolverError) as e:
        counting.count(s, linalg="dense")
    msg = str(e.value)
    assert "\n" not in msg and "needs about" in msg and "GB" in msg and "sparse method" in msg
    assert linalg.dense_memory(assemble(s).Cs.shape) > 0.8 * 2 ** 30


def test_auto_chooses_by_size():
    small = mi.miura_patch(3, 3)
    assert counting.count(small).linalg == "dense"
    big = mi.miura_patch(16, 16)
    assert 6 * big.pattern.n_panels > linalg.DENSE_LIMIT
    assert counting.count(big).linalg == "sparse"
    with pytest.raises(ValueError, match="unknown method"):
        counting.count(small, linalg="fast")


def test_pyspqr_chatter_is_silenced(capfd):
    counting.count(mi.miura_patch(4, 4), linalg="sparse")
    out, err = capfd.readouterr()
    assert out == "" and "CHOLMOD" not in err


def test_regularised_rank_resolves_a_planted_spectrum():
    # A = U diag(s) V^T with known singular values across the threshold (rtol = 1e-8)
    rng = np.random.default_rng(7)
    m, n = 60, 40
    U = np.linalg.qr(rng.standard_normal((m, m)))[0][:, :n]
    V = np.linalg.qr(rng.standard_normal((n, n)))[0]
    s = np.logspace(0, -6, n)
    s[-3:] = [1e-7, 1e-10, 1e-14]                    # two dropped, 1e-7 kept
    A = (U * s) @ V.T
    r = sparseqr.rank(A, 1e-8)
    assert r.rank == n - 2 and r.nullity == 2
    kept, dropped = r.gap
    assert kept == pytest.approx(1e-7, rel=1e-3)
    assert dropped < 1e-9
    N = r.null_vectors
    assert subspace_distance(N, V[:, -2:]) < 1e-3


def test_a_40_by_40_all_door_miura_patch():
    """P = n^2 panels, H = 2 n (n - 1) door hinges: M = 1, S = 5 H - 6 P + 7 = 4 n^2 - 10 n + 7 on the sparse path,
    the mechanism on demand, the self-stress basis never formed (5 H x S = 15,600 x 6,007 numbers, above
    ``linalg.LEFT_BASIS_ENTRIES``). The 100 x 100 patch (60,000 unknowns, S = 39,007) is asserted the same way in
    ``benchmarks/large_counts.py``."""
    n = 40
    s = mi.miura_patch(n, n)
    c = counting.count(s)
    assert c.linalg == "sparse"
    assert (c.M, c.S) == (1, 4 * n * n - 10 * n + 7) == (1, 6007)
    assert c.n_dof == 6 * n * n and c.n_constraints == 10 * n * (n - 1)
    kept, dropped = c.gap
    assert kept > 1e-4 and dropped < 1e-9
    mech = c.mechanisms                              # on demand: 6P x 1
    assert mech.shape == (6 * n * n, 1)
    assert np.abs(c.model.Cs @ mech).max() < 1e-12
    assert c.n_constraints * c.S > linalg.LEFT_BASIS_ENTRIES
    with pytest.raises(SolverError, match="self_stress_sample"):
        c.self_stresses                              # 15,600 x 6,007: never formed
    z = c.self_stress_sample()
    assert np.abs(c.model.Cs.T @ z).max() < 1e-10


def test_cli_linalg_option_gives_the_same_files(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    outs = {}
    for path in ("dense", "sparse"):
        out = tmp_path / path
        r = subprocess.run([sys.executable, os.path.join(ROOT, "scenes", "kresling_tower.py"), "--modules", "3",
                            "--engine", "reference", "--linalg", path, "--out", str(out)],
                           capture_output=True, text=True, env=env, timeout=120)
        assert r.returncode == 0, r.stderr
        outs[path] = (json.loads((out / "counts.json").read_text()), (out / "hinges.csv").read_text().splitlines())
    (cd, hd), (cq, hq) = outs["dense"], outs["sparse"]
    assert (cd["M"], cd["S"], cd["linalg"], cq["linalg"]) == (cq["M"], cq["S"], "dense", "sparse")
    a = np.array([[float(x) for x in line.split(",")] for line in hd[1:]])
    b = np.array([[float(x) for x in line.split(",")] for line in hq[1:]])
    assert np.abs(a - b).max() <= 1e-9 * np.abs(a).max()


def test_a_large_degenerate_null_space_is_counted_whole():
    """A flat Miura chain's mechanisms share one eigenvalue of (R^T R)^-1, of which a Krylov space resolves few
    vectors a round (a round that found some and a kept one once ended the search, counting 247 of the 455 null
    directions of the 1 x 450 chain; later the sparse path refused null spaces beyond 400): the block method
    takes them together, so every one is counted, the same as the dense SVD's."""
    def nullity(A):
        s = np.linalg.svd(A.toarray(), compute_uv=False)
        return A.shape[1] - int(np.sum(s > linalg.RANK_RTOL * s[0]))

    A = assemble(Structure(mi.miura_pattern(1, 390, fold_angle_deg=0.0))).Cs
    assert sparseqr.rank(A, linalg.RANK_RTOL, side="right").nullity == 390 + 5     # M = k - 1, and 6 rigid motions
    A = assemble(Structure(mi.miura_pattern(1, 450, fold_angle_deg=0.0))).Cs
    assert nullity(A) == 455
    r = sparseqr.rank(A, linalg.RANK_RTOL, side="right")
    assert r.nullity == 455
    N = r.null_vectors
    assert N.shape == (A.shape[1], 455) and np.abs(N.T @ N - np.eye(455)).max() < 1e-10
    assert np.abs(A @ N).max() < 1e-10 * r.sigma_max
    # the count factors the side with fewer columns (here A^T, whose null space, the self-stress, is empty)
    c = counting.count(Structure(mi.miura_pattern(1, 450, fold_angle_deg=0.0)), linalg="sparse")
    assert (c.M, c.S) == (455 - 6, 0)


def test_a_factor_beyond_the_memory_is_a_one_line_error(monkeypatch):
    """A sparse factor that would not fit in the available memory is refused before it is computed, in one line
    naming the operator and the memory needed (SuiteSparseQR's symbolic analysis); exit 1, never a traceback."""
    from chrono_origami.cli import app
    from chrono_origami.tools import memory
    from chrono_origami.tools.errors import InsufficientMemoryError

    A = assemble(Structure(mi.miura_pattern(1, 450, fold_angle_deg=0.0))).Cs
    monkeypatch.setattr(memory, "available", lambda: 2 ** 20)           # 1 MB
    with pytest.raises(InsufficientMemoryError) as err:
        linalg.null_space(A, method="sparse")
    msg = app.message(err.value)
    assert app.exit_code(err.value) == app.EXIT_INPUT and "\n" not in str(err.value)
    assert f"of the {A.shape[0]:,} x {A.shape[1]:,} operator" in msg
    assert "needs about" in msg and "1 MB is available" in msg


def test_the_q_less_factor_is_suitesparse_qr_without_q():
    """SuiteSparseQR's C interface (the library pyspqr ships) gives the R of pyspqr's QR without Q's Householder
    vectors: the same column ordering, R^T R = B^T B (column-permuted), and the same R up to the signs of its rows.

    The bounds are what Householder QR promises, not what one processor printed (SuiteSparse and the BLAS under it
    round differently on Intel and AMD). Each factor is backward stable: R^T R = (B + dB)^T (B + dB) with
    ||dB|| <= c n eps ||B|| (Higham, Accuracy and Stability, Thm 19.4), so |R^T R - B^T B| <= c n eps ||B||^2. The
    two R factors are two such backward-stable factors of B, and an R factor is as sensitive to dB as B is
    ill-conditioned (first-order perturbation of the QR factorisation, Sun 1991: ||dR|| <~ kappa(B) ||dB||): they
    agree to c n eps kappa(B) ||B||, with kappa = 1e7 from the regularisation delta = 1e-7 sigma_max. c = 10."""
    A = assemble(mi.miura_patch(6, 7)).Cs
    delta = 1e-7 * sparseqr.largest_singular_value(A)
    lib = sparseqr.suitesparse()
    assert lib is not None
    q_less = sparseqr.factor(A, delta, keep_q=False)
    full = sparseqr.factor(A, delta, keep_q=True)
    assert q_less.Q is None and full.Q is not None
    assert np.array_equal(q_less.perm, full.perm)
    n = A.shape[1]
    I = np.eye(n)
    R1 = q_less.R.matvec(I)
    R2 = full.R.matvec(I)
    B = np.vstack([A.toarray(), delta * I])[:, q_less.perm]
    s = np.linalg.svd(B, compute_uv=False)
    norm, kappa = s[0], s[0] / s[-1]
    eps = np.finfo(float).eps
    assert kappa == pytest.approx(1e7, rel=1e-3)                    # the regularisation sets the conditioning
    for R in (R1, R2):
        assert np.abs(R.T @ R - B.T @ B).max() <= 10 * n * eps * norm ** 2
    signs = np.sign(np.diag(R1)) * np.sign(np.diag(R2))
    assert np.abs(R1 - signs[:, None] * R2).max() <= 2 * 10 * n * eps * kappa * norm


@pytest.mark.parametrize("k", [1, 5, sparseqr.BLOCK_RHS + 3])
def test_triangular_solves_need_no_lu(k):
    """Solves with R and R^T by SuperLU's triangular solve (one or a few right-hand sides) and by R's dense row
    blocks (many), against the dense triangular solve: backward stable (residuals at round-off)."""
    import scipy.linalg as sla

    A = assemble(mi.miura_patch(5, 5)).Cs
    qr = sparseqr.factor(A, 1e-7 * sparseqr.largest_singular_value(A), keep_q=False)
    R = qr.R.matvec(np.eye(qr.q))
    assert np.allclose(np.tril(R, -1), 0)
    b = np.random.default_rng(k).standard_normal((qr.q, k) if k > 1 else qr.q)
    for x, M in ((qr.solve_R(b), R), (qr.solve_RT(b), R.T)):
        exact = sla.solve_triangular(M, b, lower=M is not R)
        assert np.abs(M @ x - b).max() <= 1e-13 * np.abs(M).max() * np.abs(x).max()
        assert np.abs(x - exact).max() <= 1e-8 * np.abs(exact).max()


@given(q=st.integers(1, 60), density=st.floats(0.0, 0.6), seed=st.integers(0, 2 ** 31 - 1), k=st.integers(1, 4))
@settings(max_examples=60)
def test_triangular_solves_on_random_sparse_factors(q, density, seed, k):
    """Triangular's solves (R by its reversed transpose, R^T by its columns) and product on random sparse upper
    triangular R (pivots of either sign, spread over 4 decades) against the dense triangular solve: residuals at
    round-off, |R x - b| <= 4 q eps |R| |x| entrywise (Higham's bound for substitution), and R left unchanged."""
    import scipy.linalg as sla
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    U = sp.random(q, q, density=density, random_state=rng, format="csc")
    d = rng.choice([-1.0, 1.0], q) * 10.0 ** rng.uniform(-2, 2, q)
    R = sp.csc_matrix(sp.triu(U, 1) + sp.diags(d))
    before = R.toarray()
    T = sparseqr.Triangular(R)
    assert np.array_equal(R.toarray(), before)
    M = np.abs(before)
    eps = np.finfo(float).eps
    for b in (rng.standard_normal(q), rng.standard_normal((q, k))):
        for x, A in ((T.solve(b), before), (T.solve_T(b), before.T)):
            exact = sla.solve_triangular(A, b, lower=A is not before)
            assert x.shape == exact.shape
            Mx = (M if A is before else M.T) @ np.abs(x)
            assert np.all(np.abs(A @ x - b) <= 4 * q * eps * Mx + 1e-300)
        assert np.allclose(T.matvec(b), before @ b, rtol=0, atol=4 * q * eps * (M @ np.abs(b)).max())


@pytest.mark.parametrize("log_kappa", [0, 4, 7, 12])
def test_orthonormal_bases_of_the_block_method(log_kappa):
    """Cholesky QR twice gives an orthonormal basis of span(X) to round-off (|Q^T Q - I| <= 10 p eps, X = Q Q^T X
    to 10 p eps kappa) while X's condition kappa allows; beyond (kappa 1e12: the second Gram matrix is far from I)
    Householder QR takes over, with the same guarantees. The largest Ritz value of a block wider than 64 columns
    (its Gram matrix) agrees with the SVD's to p eps relative."""
    rng = np.random.default_rng(log_kappa)
    q, p = 3000, 120
    U = np.linalg.qr(rng.standard_normal((q, p)))[0]
    W = np.linalg.qr(rng.standard_normal((p, p)))[0]
    X = (U * np.logspace(0, -log_kappa, p)) @ W
    Q = sparseqr._orthonormal(X)
    eps = np.finfo(float).eps
    assert Q.shape == (q, p)
    assert np.abs(Q.T @ Q - np.eye(p)).max() <= 10 * p * eps
    assert np.abs(X - Q @ (Q.T @ X)).max() <= 10 * p * eps * np.abs(X).max()
    Y = rng.standard_normal((q, p)) * np.linspace(1, 3, p)
    assert sparseqr._largest_ritz(Y) == pytest.approx(np.linalg.svd(Y, compute_uv=False)[0], rel=p * eps)


def test_lanczos_projection_after_only_matches_both_sides():
    """The deflated (R^T R)^-1 applied with the projection after only (``before=False``, the Lanczos rounds of the
    rank) equals P (R^T R)^-1 P on vectors of range(P), to the round-off of a component eps along V amplified by
    at most |(R^T R)^-1| = 1 / sigma_min(R)^2."""
    A = assemble(mi.miura_patch(5, 5)).Cs
    r = sparseqr.rank(A, 1e-8, split=False)
    qr, V = r.qr, r.ritz
    assert V.shape[1] == 7
    both, after = qr.inverse_gram(V), qr.inverse_gram(V, before=False)
    x = np.random.default_rng(3).standard_normal(qr.q)
    x -= V @ (V.T @ x)
    norm = 1.0 / np.linalg.svd(qr.R.matvec(np.eye(qr.q)), compute_uv=False)[-1] ** 2
    y1, y2 = both @ x, after @ x
    assert np.abs(V.T @ y2).max() <= 100 * qr.q * np.finfo(float).eps * np.abs(y2).max()
    assert np.linalg.norm(y1 - y2) <= 100 * qr.q * np.finfo(float).eps * norm * np.linalg.norm(x)


def test_a_long_strip_nears_singularity_as_a_cantilever_beam():
    """Why the 10^5-panel strip is not determined by the rank rule (README, Scale): its smallest singular value
    relative to the largest falls as columns^-1.5, the square root of a cantilever's L^3 tip compliance (the hinges'
    rows as unit springs), so it reaches 1e-8 near 28,000 columns (4.1e-9 at 50,000, by the sparse count and by
    an LU of the square Cs). The sparse count's smallest kept value is the dense SVD's."""
    ratio = {}
    for cols in (50, 500):
        s = mi.miura_cantilever(columns=cols)
        c = counting.count(s, linalg="sparse")
        assert (c.M, c.S) == (0, 0)
        ratio[cols] = c.gap[0]
    d = counting.count(mi.miura_cantilever(columns=50), linalg="dense")
    assert ratio[50] == pytest.approx(d.gap[0], rel=1e-6) == pytest.approx(1.347e-4, rel=1e-3)
    assert np.log10(ratio[50] / ratio[500]) == pytest.approx(1.5, abs=0.03)


def test_a_nearly_singular_structure_is_told_apart_from_a_mechanism():
    """With the rule at 1e-5 sigma_max the 1,000-panel strip has two near-mechanisms (4.1e-6 and 6.1e-6 sigma_max,
    far above round-off): the refusal says so. An exact mechanism (the all-door patch) gets no such note."""
    s = mi.miura_cantilever(columns=500)
    with pytest.raises(IndeterminateError) as e:
        statics.solve(s, rtol=1e-5)
    assert (e.value.M, e.value.S) == (2, 2)
    assert "nearly singular: the largest singular value counted as zero is 6.1e-06 sigma_max" in str(e.value)
    with pytest.raises(IndeterminateError) as e:
        statics.solve(mi.miura_patch(6, 6))
    assert "nearly singular" not in str(e.value)


def test_the_rank_rule_from_the_command_line(tmp_path, capsys):
    """``--rank-rtol`` sets the rank rule of count, static and design: the 1,000-panel strip (smallest singular value
    1.3e-7 sigma_max) is determined by the default rule (1e-8); with ``--rank-rtol 1e-5`` it has two near-mechanisms,
    and static's refusal (exit 3) names them nearly singular in the command line's words. Out of (0, 1): exit 2."""
    from chrono_origami import cli
    from chrono_origami.structure.foldfile import write_fold

    path = tmp_path / "strip.fold"
    write_fold(mi.miura_cantilever(columns=500), path)

    def run(*argv):
        try:
            code = cli.main([str(a) for a in argv])
        except SystemExit as e:
            code = e.code
        return (code, *capsys.readouterr())

    def counted(out):
        return next(line for line in out.splitlines() if line.startswith("M = "))

    code, out, err = run("count", path)
    assert code == 0 and counted(out).startswith("M = 0 mechanisms, S = 0 self-stress states")
    assert counted(out).endswith(": isostatic")
    code, out, err = run("count", path, "--rank-rtol", "1e-5")
    assert code == 0 and counted(out).startswith("M = 2 mechanisms, S = 2 self-stress states")
    code, out, err = run("static", path, "--rank-rtol", "1e-5", "--engine", "reference")
    assert code == 3
    assert "nearly singular: the largest singular value counted as zero is 6.1e-06 sigma_max" in out + err
    assert "(--rank-rtol sets the rule)" in out + err and "rtol=" not in out + err
    assert "self-stress state 1 (arbitrary scale): the 20 largest |entries| of 2,996 rows (--out DIR writes them all)" \
        in out
    assert len(out.splitlines()) < 100      # the states' 2 x 2,996 rows are not on screen
    code, out, err = run("static", path, "--engine", "reference", "--out", tmp_path / "forces")
    assert code == 0
    title = next(line for line in out.splitlines() if "hinge internal actions" in line)
    assert title.endswith(f"hinge internal actions, the 20 of largest |F| of 2,996 rows (all in "
                          f"{tmp_path / 'forces' / 'hinges.csv'})")
    assert len(out.splitlines()) < 100
    import csv
    with open(tmp_path / "forces" / "hinges.csv") as f:
        rows = [r for r in csv.reader(f) if r and r[0].strip().isdigit()]
    assert len(rows) == 2996
    F = sorted((np.linalg.norm([float(v) for v in r[5:8]]) for r in rows), reverse=True)
    shown = out.split(title, 1)[1].splitlines()[3:23]       # the table's rows after its title and header lines
    assert [float(x) for x in shown[0].split()[5:8]] and \
        np.linalg.norm([float(x) for x in shown[0].split()[5:8]]) == pytest.approx(F[0], rel=1e-4)
    for bad in ("0", "1", "nan", "-1e-9"):
        code, out, err = run("count", path, "--rank-rtol", bad)
        assert code == 2 and err.count("\n") == 1 and "--rank-rtol" in err, err


def test_counting_rules_of_a_large_pattern_no_builder_counted_are_not_computed():
    """The bar framework at random positions is ranked up to counting.GENERIC_LIMIT columns; above, M_BF, S_BF
    and S_PH are None and say why (a 10^5-panel file's count once ended in a 30 GB null-space search there), while
    the index and Maxwell's rule are still given."""
    from chrono_origami.engines.reference.count import GENERIC_LIMIT, counting_rules

    s = mi.miura_cantilever(columns=5000)            # 15,003 vertices
    assert 3 * s.pattern.n_vertices > GENERIC_LIMIT
    s.pattern.generic_mechanisms = None             # as a file's pattern: no builder's count
    r = counting_rules(s)
    assert (r.M_BF, r.S_BF, r.S_PH) == (None, None, None)
    assert r.M_source == "not computed (15,003 vertices: more than 10,000)"
    assert r.index_BF == (r.E_b - 3) - r.sum_V_minus_3 and r.maxwell == 0
    small = mi.miura_cantilever(columns=50)
    small.pattern.generic_mechanisms = None
    assert counting_rules(small).M_source == "generic graph" and counting_rules(small).M_BF is not None


def test_an_exact_flat_miura_on_the_sparse_path_has_no_near_singular_note(tmp_path, capsys):
    """The exact flat 6 x 6 Miura-ori (M = 10, S = 100 at flat, door hinges) on the sparse path: its dropped
    singular values are round-off (the sparse path's bound, about 1.5e-12 sigma_max, is under the note's 1e-10),
    so ``static --linalg sparse`` refuses it (exit 3) as exactly singular, without the near-singular note."""
    from chrono_origami import cli
    from chrono_origami.structure.foldfile import write_fold
    from chrono_origami.structure.structure import Structure

    path = tmp_path / "flat.fold"
    write_fold(Structure(mi.miura_pattern(6, 6, fold_angle_deg=0.0), name="flat Miura-ori"), path)
    code = cli.main(["static", str(path), "--linalg", "sparse", "--engine", "reference", "--support", "auto"])
    out, err = capsys.readouterr()
    assert code == 3
    assert "M = 10 mechanisms, S = 100 self-stress states" in out
    assert "nearly singular" not in out + err
    c = counting.count(Structure(mi.miura_pattern(6, 6, fold_angle_deg=0.0)), linalg="sparse")
    assert c.gap[1] < 1e-2 * c.rtol


needs_c_interface = pytest.mark.skipif(sparseqr.suitesparse() is None,
                                       reason="SuiteSparseQR's C interface (pyspqr's library) did not load: the "
                                              "count factors [C; delta I] through pyspqr")


def _diagonal_with(values_at, q=400):
    """A 2q x q diagonal operator (q x q diagonal over q zero rows, values in [0.5, 1]) with some diagonal values
    replaced, given by their position in METIS's order of its pattern (which the values do not change): its singular
    values are the |diagonal| and its null or near-null directions unit vectors."""
    d = np.random.default_rng(0).uniform(0.5, 1.0, q)
    A = sp.vstack([sp.diags(d), sp.csc_matrix((q, q))], format="csc")
    order = sparseqr.suitesparse().metis(A)
    for at, value in values_at.items():
        d[order[at]] = value
    return sp.vstack([sp.diags(d), sp.csc_matrix((q, q))], format="csc"), d


@needs_c_interface
def test_the_count_regularises_only_the_root_separators():
    """The count's factor is of [B; delta I_S], S the last SEPARATOR sqrt(q) columns of METIS's order (the root
    separators): R^T R = B^T B + delta^2 I_S (permuted) to c n eps ||B||^2, as a backward-stable QR promises
    (Higham, Thm 19.4; c = 10), and the rank, the gap and the null space are those of the factor of [B; delta I]
    (every column regularised): the null vectors are found and checked on B itself, the proof that none is left
    holds for any S (sigma_i(B)^2 <= lambda_i(R^T R) <= sigma_i(B)^2 + delta^2)."""
    A = assemble(mi.miura_patch(12, 12)).Cs
    smax = sparseqr.largest_singular_value(A)
    delta = sparseqr.DELTA_FACTOR * 1e-8 * smax
    qr, order = sparseqr.rank_factor(A, delta)
    q = qr.q
    k = int(np.ceil(sparseqr.SEPARATOR * np.sqrt(q)))
    assert qr.partial and int(qr.regularised.sum()) == k < q
    assert set(np.asarray(qr.perm)[qr.regularised]) == set(order[q - k:])
    B = A.toarray()[:, qr.perm]
    R = qr.R.matvec(np.eye(q))
    eps = np.finfo(float).eps
    assert np.abs(R.T @ R - B.T @ B - delta ** 2 * np.diag(qr.regularised)).max() <= 10 * q * eps * smax ** 2
    partial = sparseqr.rank(A, 1e-8)
    assert partial.qr.partial
    sparseqr_full = sparseqr.SEPARATOR
    try:
        sparseqr.SEPARATOR = 1e9                       # every column regularised
        full = sparseqr.rank(A, 1e-8)
    finally:
        sparseqr.SEPARATOR = sparseqr_full
    assert not full.qr.partial
    assert (partial.rank, partial.nullity) == (full.rank, full.nullity) == (q - 7, 7)
    # the smallest kept singular value by Rayleigh-Ritz on B in both: to Lanczos's 1e-10, squared
    assert partial.gap[0] == pytest.approx(full.gap[0], rel=1e-9)
    assert partial.gap[1] <= 1e-9 and full.gap[1] <= 1e-9       # clear decisions (the tolerance is 1e-8)
    assert subspace_distance(partial.null_vectors, full.null_vectors) < 1e-8


@needs_c_interface
def test_a_column_dependent_outside_the_separators_regularises_every_column():
    """A null direction whose column comes before S in the order leaves a pivot of round-off (here e_j, B e_j =
    1e-30 e_j): the partly regularised R would be singular, so every column is regularised, in the same order."""
    A, d = _diagonal_with({0: 1e-30})
    smax = float(np.abs(d).max())
    qr, order = sparseqr.rank_factor(A, sparseqr.DELTA_FACTOR * 1e-8 * smax)
    assert not qr.partial and order is not None
    assert np.abs(qr.R.d).min() == pytest.approx(sparseqr.DELTA_FACTOR * 1e-8 * smax, rel=1e-12)
    r = sparseqr.rank(A, 1e-8, split=False)
    assert (r.rank, r.nullity) == (len(d) - 1, 1)


@needs_c_interface
def test_a_singular_value_between_the_tolerance_and_delta_is_decided_on_every_column():
    """sigma = 3 tol (kept) on a column outside S, and a null direction in S: the partly regularised factor is
    accepted (no pivot below FLOOR delta), but R^T R there is sigma^2 = 9 tol^2, below tol^2 + delta^2 = 101 tol^2,
    so its Lanczos value sqrt(1 / lambda - delta^2) cannot tell it from a null one; B puts it above the tolerance,
    so the decision is made again on [B; delta I], where it is sigma itself: kept. The dense SVD agrees."""
    q = 400
    k = int(np.ceil(sparseqr.SEPARATOR * np.sqrt(q)))
    A, d = _diagonal_with({0: 3e-8, q - 1: 1e-30}, q)
    smax = float(np.abs(d).max())
    first, _ = sparseqr.rank_factor(A, sparseqr.DELTA_FACTOR * 1e-8 * smax)
    assert first.partial and k < q
    r = sparseqr.rank(A, 1e-8, split=False)
    assert not r.qr.partial                            # decided on the factor of [B; delta I]
    s = np.linalg.svd(A.toarray(), compute_uv=False)
    assert r.rank == int(np.sum(s > 1e-8 * s[0])) == q - 1
    assert r.gap[0] == pytest.approx(3e-8 / smax, rel=1e-9)
    assert r.gap[1] <= 1e-9


@pytest.mark.parametrize("n", [0, 1, 2, 7, 1000, 1001])
@pytest.mark.parametrize("chunk", [1, 3, 1 << 18])
def test_the_reversal_in_place_by_chunks_is_exact(n, chunk):
    a = np.arange(n, dtype=float)
    sparseqr._reverse(a, chunk)
    assert np.array_equal(a, np.arange(n, dtype=float)[::-1])


@needs_c_interface
@pytest.mark.parametrize("t, weight", [(1.0, 0.5), (100.0, 1e-4)])
def test_a_null_direction_held_too_little_by_the_delta_rows_is_decided_on_every_column(t, weight):
    """Column b = t x column a, b in S (last in the order), a first: the null direction (t e_a - e_b) / sqrt(1 + t^2)
    has R^T R = delta^2 / (1 + t^2) along it. At t = 100, below WEIGHT delta^2: (R^T R)^-1 along it (1e4 / delta^2)
    would amplify round-off beyond the kept directions' scale, so the search asks for every column regularised
    (:class:`_Undecided`); at t = 1 it is held (delta^2 / 2) and the partly regularised factor decides (in the
    order given: 0, 1, ..., q - 1). rank gives nullity 1 either way."""
    q = 400
    d = np.random.default_rng(0).uniform(0.5, 1.0, q)
    a, b = 0, q - 1
    A = sp.lil_matrix((2 * q, q))
    A.setdiag(d)
    A[b, b] = 0.0
    A[a, b] = t * d[a]
    A = sp.csc_matrix(A)
    A.eliminate_zeros()
    smax = sparseqr.largest_singular_value(A)
    tol = 1e-8 * smax
    qr, _ = sparseqr.rank_factor(A, sparseqr.DELTA_FACTOR * tol, order=np.arange(q))
    assert qr.partial
    V = None
    if weight < sparseqr.WEIGHT:
        with pytest.raises(sparseqr._Undecided):
            sparseqr._null_search(qr, A, tol, smax, sparseqr.BLOCK, lambda what: None, "test operator")
    else:
        V, dropped, kept = sparseqr._null_search(qr, A, tol, smax, sparseqr.BLOCK, lambda what: None, "test operator")
        RV = qr.R.matvec(V)
        assert V.shape[1] == 1 and (RV.T @ RV)[0, 0] / qr.delta ** 2 == pytest.approx(weight, rel=1e-6)
    r = sparseqr.rank(A, 1e-8, split=False)                 # in METIS's own order
    assert (r.rank, r.nullity) == (q - 1, 1)
