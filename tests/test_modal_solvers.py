"""The modal solvers and reports without PyChrono: closed forms on hand-built matrices (chrono_origami.analysis.modal).

Coordinates as the solvers expect them (chrono_origami.analysis.modal module doc): per
body, the translation of its centre of mass then its rotation vector; K = -dF/dq
with the constraint forces included (a Kc-like term where a reaction turns
with the body), Cq x = 0 the constraints.

* a chain of N masses between two walls, springs k: omega_j = 2 sqrt(k/m) sin(j pi / (2 (N + 1)));
* a compound pendulum (a rigid body on a revolute pivot at l above its centre of
  mass), linearised by hand: the pivot force m g turns with the body and gives
  K = m g l on the rotation about the axis, so omega^2 = m g l / (J + m l^2);
  the inverted one (pivot below) has K = -m g l: a divergence with lambda =
  +sqrt(m g l / (J + m l^2)); with a rotational damper c, lambda = (-c + i
  sqrt(4 I k - c^2)) / (2 I);
* a Kc-like non-symmetric stiffness [[k, a], [-a, k]]: mu = (-k +- i a) / J, an
  unstable (flutter) pair lambda = sqrt(mu) with Re lambda > 0;
* redundant constraints: the reference engine's operator of structures with
  self-stress (redundant rows = S of the counting).
"""
import csv

import numpy as np
import pytest
import scipy.sparse as sp

from chrono_origami.analysis import modal
from chrono_origami.results.modal import SystemMatrices
from chrono_origami.tools.geometry import skew
from chrono_origami.patterns import miura
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.engines.reference import count as counting
from chrono_origami.engines.reference.model import assemble
from chrono_origami.report import modal as report
from chrono_origami.structure.structure import Structure, Support
from chrono_origami.structure.hinges import DOOR

METHODS = ["nullspace", "augmented", "sparse"]
G = 9.81


def matrices(M, K, Cq, R=None, length=1.0):
    """SystemMatrices from dense arrays (bodies unrotated at the origin)."""
    n = M.shape[0]
    nb = n // 6
    R = np.zeros((n, n)) if R is None else R
    return SystemMatrices(sp.csr_matrix(M), sp.csr_matrix(R), sp.csr_matrix(K), sp.csr_matrix(Cq),
                                [f"body {i + 1}" for i in range(nb)], np.tile(np.eye(3), (nb, 1, 1)),
                                np.zeros((nb, 3)), length, True)


def held(n, free):
    """Rows e_i for every coordinate i of n not in ``free`` (they hold those coordinates at zero)."""
    return np.eye(n)[[i for i in range(n) if i not in set(free)]]


def body_mass(m, J):
    return np.diag([m, m, m, *J])


def solve(mats, method, **kw):
    return modal.solve_modes(mats, method, **({"n_modes": kw.pop("n_modes")} if method == "sparse" else {}), **kw)


# ------------------------------------------------------------------ mass-spring chain
def chain(N, m=2.0, k=50.0):
    """N bodies moving along x only, springs k between neighbours and to two walls."""
    n = 6 * N
    M = np.kron(np.eye(N), body_mass(m, (0.3, 0.4, 0.5)))
    x = [6 * i for i in range(N)]
    K = np.zeros((n, n))
    K[np.ix_(x, x)] = k * (2 * np.eye(N) - np.eye(N, k=1) - np.eye(N, k=-1))
    return matrices(M, K, held(n, x)), x


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("N", [5, 12])   # 12 bodies: the sparse method runs ARPACK (operator above SMALL_OPERATOR)
def test_mass_spring_chain_frequencies_and_shapes(method, N):
    m, k = 2.0, 50.0
    mats, x = chain(N, m, k)
    r = solve(mats, method, n_modes=N)
    j = np.arange(1, N + 1)
    omega = 2 * np.sqrt(k / m) * np.sin(j * np.pi / (2 * (N + 1)))
    assert [md.kind for md in r.modes] == ["oscillatory"] * N and r.zero_modes == [] and r.spurious == []
    np.testing.assert_allclose([md.eigenvalue.imag for md in r.modes], omega, rtol=1e-10)
    assert max(abs(md.eigenvalue.real) for md in r.modes) < 1e-9 * omega[0]
    np.testing.assert_allclose(r.frequencies_hz, omega / (2 * np.pi), rtol=1e-10)
    assert max(md.residual for md in r.modes) < 1e-9 and max(md.constraint for md in r.modes) < 1e-9
    for jj, md in zip(j, r.modes):   # shapes: sin(i j pi / (N + 1)) along x, nothing else; largest entry 1
        shape = np.sin(np.arange(1, N + 1) * jj * np.pi / (N + 1))
        u = md.shape[x]
        np.testing.assert_allclose(np.abs(u) / np.abs(u).max(), np.abs(shape) / np.abs(shape).max(), atol=1e-8)
        assert np.abs(np.delete(md.shape, x)).max() < 1e-10 and np.abs(md.shape).max() == pytest.approx(1.0)
    if method == "augmented":   # the saddle-point pencil has 2m infinite eigenvalues
        assert r.n_infinite == 2 * mats.m and r.n_redundant == 0
    if method == "nullspace":
        assert r.info["rank"] == mats.m and r.info["dof"] == N


def test_sparse_method_returns_the_lowest_modes_asked():
    mats, _ = chain(12)
    full = solve(mats, "nullspace")
    low = solve(mats, "sparse", n_modes=3)
    np.testing.assert_allclose(low.frequencies_hz, full.frequencies_hz[:3], rtol=1e-10)
    assert len(modal.solve_modes(mats, "nullspace", n_modes=3).modes) == 3
    with pytest.raises(ValueError, match="n_modes must be a positive integer, got 0"):
        modal.solve_sparse(mats, 0)
    with pytest.raises(ValueError, match="unknown method 'qr'"):
        modal.solve_modes(mats, "qr")


def test_free_body_has_six_zero_modes():
    mats = matrices(body_mass(3.0, (1.0, 2.0, 3.0)), np.zeros((6, 6)), np.zeros((0, 6)))
    for method in ("nullspace", "augmented"):
        r = modal.solve_modes(mats, method)
        assert r.modes == [] and len(r.zero_modes) == 6


# ------------------------------------------------------------------ compound pendulum, linearised by hand
def pendulum(m=3.0, J=(0.2, 0.5, 0.7), l=1.5, inverted=False, c=0.0, kc=True):
    """One body on a revolute pivot (axis y) at r_p = (0, 0, +-l) from its centre of mass, under gravity.

    Cq: pivot velocity u + theta x r_p = 0 (3 rows) and theta_x = theta_z = 0.
    K: the pivot force f = (0, 0, m g) turns with the body: K_theta = -[r_p][f] (Kc), m g l (1 - e_z e_z^T) hanging.
    """
    r = np.array([0.0, 0.0, -l if inverted else l])
    f = np.array([0.0, 0.0, m * G])
    K = np.zeros((6, 6))
    if kc:
        K[3:, 3:] = -skew(r) @ skew(f)
    pivot = np.hstack([np.eye(3), -skew(r)])
    Cq = np.vstack([pivot, np.eye(6)[[3, 5]]])
    R = np.zeros((6, 6))
    R[4, 4] = c
    return matrices(body_mass(m, J), K, Cq, R), m * l * l + J[1]


@pytest.mark.parametrize("method", METHODS)
def test_compound_pendulum(method):
    mats, I = pendulum()
    (mode,) = solve(mats, method, n_modes=1).modes
    omega = np.sqrt(3.0 * G * 1.5 / I)
    assert mode.kind == "oscillatory" and mode.stable
    assert mode.eigenvalue.imag == pytest.approx(omega, rel=1e-12) and abs(mode.eigenvalue.real) < 1e-9 * omega
    # the mode turns the body about y and moves its centre of mass along x: u = r_p x theta
    u, th = mode.shape[:3], mode.shape[3:]
    np.testing.assert_allclose(u, np.cross([0, 0, 1.5], th), atol=1e-12)
    assert abs(th[1]) > 0 and abs(th[0]) < 1e-12 and abs(th[2]) < 1e-12


@pytest.mark.parametrize("method", METHODS)
def test_inverted_pendulum_diverges(method):
    mats, I = pendulum(inverted=True)
    r = solve(mats, method, n_modes=1)
    (mode,) = r.modes
    assert mode.kind == "unstable" and not mode.stable and r.unstable == [mode]
    assert mode.eigenvalue.real == pytest.approx(np.sqrt(3.0 * G * 1.5 / I), rel=1e-12)
    assert abs(mode.eigenvalue.imag) < 1e-9 and mode.freq_hz == 0.0


def test_pendulum_without_the_kc_term_has_a_zero_mode():
    mats, _ = pendulum(kc=False)
    r = modal.solve_modes(mats, "nullspace")
    assert r.modes == [] and len(r.zero_modes) == 1


@pytest.mark.parametrize("method", METHODS)
def test_damped_pendulum(method):
    c = 0.8
    mats, I = pendulum(c=c)
    k = 3.0 * G * 1.5
    (mode,) = solve(mats, method, n_modes=1).modes
    expected = (-c + 1j * np.sqrt(4 * I * k - c * c)) / (2 * I)
    assert abs(mode.eigenvalue - expected) < 1e-10 * abs(expected)
    assert mode.stable and mode.natural_rad_s == pytest.approx(np.sqrt(k / I), rel=1e-10)


# ------------------------------------------------------------------ Kc-like stiffness: divergence and flutter
def two_rotations(K2, j=0.4):
    """One body whose rotations about x and y are free (the rest held), rotational inertia j, K2 on them."""
    K = np.zeros((6, 6))
    K[3:5, 3:5] = K2
    return matrices(body_mass(1.0, (j, j, j)), K, held(6, (3, 4)))


@pytest.mark.parametrize("method", METHODS)
def test_indefinite_symmetric_stiffness_gives_one_divergence(method):
    k, kn, j = 2.0, 0.5, 0.4
    r = solve(two_rotations(np.diag([k, -kn]), j), method, n_modes=2)
    kinds = sorted(md.kind for md in r.modes)
    assert kinds == ["oscillatory", "unstable"]
    (osc,) = [md for md in r.modes if md.kind == "oscillatory"]
    (div,) = r.unstable
    assert osc.eigenvalue == pytest.approx(1j * np.sqrt(k / j), rel=1e-12, abs=1e-12)
    assert div.eigenvalue == pytest.approx(np.sqrt(kn / j), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_circulatory_stiffness_gives_an_unstable_flutter_pair(method):
    """K = [[k, a], [-a, k]] (not symmetric, as Kc may be): mu = (-k +- i a) / j, lambda = sqrt(mu), Re > 0."""
    k, a, j = 2.0, 0.6, 0.4
    r = solve(two_rotations(np.array([[k, a], [-a, k]]), j), method, n_modes=2)
    expected = np.sqrt(np.array([-k + 1j * a, -k - 1j * a]) / j)
    assert expected.real.min() > 0
    assert [md.kind for md in r.modes] == ["unstable", "unstable"]
    got = sorted((md.eigenvalue for md in r.modes), key=lambda z: z.imag)
    np.testing.assert_allclose(got, sorted(expected, key=lambda z: z.imag), rtol=1e-10)
    np.testing.assert_allclose(r.frequencies_hz, np.abs(expected.imag) / (2 * np.pi), rtol=1e-10)
    assert max(md.residual for md in r.modes) < 1e-9


# ------------------------------------------------------------------ redundant constraints
def door_pair(extra=()):
    """Two unit squares hinged along x = 1, the first held 3-2-1; ``extra`` supports on the second."""
    X = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [2, 0, 0], [2, 1, 0]]
    pat = CreasePattern(X, [(0, 1, 2, 3), (1, 4, 5, 2)])
    sups = (Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z")) + tuple(extra)
    return Structure(pat, (DOOR,), supports=sups)


def reference_matrices(structure, seed=0):
    """The reference engine's scaled operator as Cq, unit masses, a random positive diagonal K (distinct modes)."""
    Cs = assemble(structure).Cs
    n = Cs.shape[1]
    K = np.diag(np.random.default_rng(seed).uniform(1.0, 3.0, n))
    return matrices(np.eye(n), K, Cs.toarray())


@pytest.mark.parametrize("method", ["dense", "sparse"])
def test_redundant_rows_are_the_self_stress_states(method):
    for st in (door_pair(), door_pair((Support(4, 1, "z"), Support(5, 1, "z"))), triangulated_miura(2, 3)):
        mats = reference_matrices(st)
        assert modal.redundant_rows(mats.Cq, mats.scaling(), method=method) == counting.count(st).S
    assert counting.count(door_pair((Support(4, 1, "z"), Support(5, 1, "z")))).S == 1


def triangulated_miura(rows, cols):
    """Miura-ori patch with every panel split along a diagonal, door hinges, free: massively redundant hinges."""
    pat = miura.miura_pattern(rows, cols)
    tp = CreasePattern(pat.vertices, [t for a, b, c, d in pat.panels for t in ((a, b, c), (a, c, d))])
    return Structure(tp, (DOOR,) * len(tp.hinges), name="triangulated Miura")


def test_redundant_constraints_in_every_method():
    """Door hinges of a triangulated sheet: the null-space and sparse methods do not mind them, the augmented one
    removes them (n_redundant = S); kept, they make its pencil singular and every pair they spoil is flagged spurious."""
    st = triangulated_miura(2, 3)
    S = counting.count(st).S
    mats = reference_matrices(st)
    ref = modal.solve_modes(mats, "nullspace")
    assert mats.m - ref.info["rank"] == S > 0 and len(ref.modes) == ref.info["dof"]
    clean = modal.solve_modes(mats, "augmented")
    assert clean.n_redundant == S and clean.spurious == []
    np.testing.assert_allclose(clean.frequencies_hz, ref.frequencies_hz, rtol=1e-9)
    sparse = modal.solve_modes(mats, "sparse", n_modes=8)
    np.testing.assert_allclose(sparse.frequencies_hz, ref.frequencies_hz[:8], rtol=1e-9)
    raw = modal.solve_modes(mats, "augmented", remove_redundant=False)
    assert len(raw.spurious) > 0
    for md in raw.modes:   # anything not flagged is a true mode
        assert np.min(np.abs(ref.frequencies_hz - md.freq_hz)) < 1e-6 * md.freq_hz


def test_nullspace_basis_and_independent_rows_use_the_scaled_operator():
    """Columns of rotations are multiplied by L before the rank decision: a rotation row and a translation row
    differ by L in Cq and are equal in Cq D."""
    L = 1e3
    Cq = np.zeros((2, 6))
    Cq[0, 0], Cq[1, 3] = 1.0, L        # u_x = 0 and L theta_x = 0: both length units after scaling
    mats = matrices(np.eye(6), np.eye(6), Cq, length=L)
    Z, r, gap = modal.nullspace_basis(mats.Cq, mats.scaling())
    assert r == 2 and Z.shape == (6, 4) and gap[0] == pytest.approx(1.0)
    assert np.abs(mats.Cq @ Z).max() < 1e-12
    assert list(modal.independent_rows(mats.Cq, mats.scaling())) == [0, 1]


# ------------------------------------------------------------------ reports (report.modal)
def test_tables_and_csv(tmp_path):
    mats, _ = chain(5)
    r = modal.solve_modes(mats, "nullspace")
    lines = report.modes_table(r, 2, "title").splitlines()
    assert lines[0] == "title" and lines[3].split()[0] == "1" and lines[4].split()[0] == "2"
    assert "   3  " not in report.modes_table(r, 2) and "   1  " not in report.modes_table(r, 0)
    with pytest.raises(ValueError, match="integer >= 0 or None, got -1"):
        report.modes_table(r, -1)
    c = modal.KcComparison(r, modal.solve_modes(chain(5, k=20.0)[0], "nullspace"))
    assert len(report.comparison_table(c, 3).splitlines()) == 2 + 3 + 1
    path = report.write_modes_csv(r, str(tmp_path / "out" / "modes.csv"))
    with open(path) as f:
        rows = list(csv.reader(f))
    assert tuple(rows[0]) == report.CSV_HEADER and len(rows) == 6
    assert [int(x[0]) for x in rows[1:]] == [1, 2, 3, 4, 5] and all(x[4] == "true" for x in rows[1:])
    np.testing.assert_allclose([float(x[3]) for x in rows[1:]], r.frequencies_hz, rtol=1e-10)
