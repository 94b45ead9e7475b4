"""The discrete null space method's building blocks (chrono_origami.engines.reference.dns): rotations, quadratic
constraints, the pairs' discrete null space matrices and reparametrisations (Betsch & Leyendecker, Part II)."""
import numpy as np
import pytest
from scipy.linalg import expm as dense_expm
from scipy.spatial.transform import Rotation

from chrono_origami.engines.reference.dns import pairs as P
from chrono_origami.engines.reference.dns.body import Body, expm, expm1, local, pint, skew
from chrono_origami.engines.reference.dns.forces import HingeTerm
from chrono_origami.engines.reference.dns.multibody import Multibody


def test_rotations_match_the_matrix_exponential():
    for th in ([0.3, -1.2, 2.0], [1e-5, 2e-5, -3e-6], [0.0, 0.0, 0.0], [2.9, 0.1, -0.4]):
        th = np.array(th)
        assert np.abs(expm(th) - dense_expm(skew(th))).max() < 2e-15
        assert np.abs(expm1(th) + np.eye(3) - dense_expm(skew(th))).max() < 2e-15
    # exp - I keeps its relative precision for tiny angles
    th = np.array([1e-12, -2e-12, 3e-12])
    assert np.allclose(expm1(th), skew(th), rtol=1e-12, atol=1e-22)


def _random_body(rng, name, fixed=False):
    D = Rotation.random(random_state=rng).as_matrix()
    return Body.from_principal(rng.uniform(1, 2), rng.uniform(1, 2, 3), rng.normal(size=3), D, name, fixed)


def _pair_system(kind, rng):
    b1, b2 = _random_body(rng, "a", fixed=kind.endswith("world")), _random_body(rng, "b")
    q0 = np.array([b1.q0, b2.q0])
    x = rng.normal(size=3)
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    if kind == "S":
        pr = P.Spherical(0, 1, local(q0[0], x), local(q0[1], x))
    elif kind == "S-world":
        pr = P.Spherical(None, 1, x, local(q0[1], x))
    elif kind == "support-world":
        pr = P.VertexSupport(1, local(q0[1], x), x, [[0, 0, 1.0]])
    elif kind == "R-world":
        pr = P.Revolute.between(q0, None, 1, x, x, axis)
    else:
        x2 = x + rng.normal(size=3) * (0.0 if kind in ("R", "W") else 0.3)
        if kind in ("C", "P"):
            x2 = x + 0.7 * axis
        if kind == "E":
            x2 = x + np.cross(axis, rng.normal(size=3))
        cls = {"R": P.Revolute, "C": P.Cylindrical, "P": P.Prismatic, "E": P.Planar, "W": P.Welded}[kind]
        pr = cls.between(q0, 0, 1, x, x2, axis)
    return Multibody([b1, b2], [pr])


def _null_space(mb, qm):
    edges = mb.edges(qm[None])
    cols = [pint(qm[None], mb.forward(edges, np.eye(mb.d_open)[None, j]))[0].ravel() for j in range(mb.d_open)]
    return np.array(cols).T * np.repeat(mb.moving, 12)[:, None]


@pytest.mark.parametrize("kind", ["S", "R", "C", "P", "E", "W", "S-world", "R-world", "support-world"])
def test_pair_null_space_and_reparametrisation(kind):
    """Design conditions (14), (74): G(q_{n+1/2}) P(q_n, q_{n+1}) = 0 for q_{n+1} = F_{q_n}(u), which meets
    every constraint (eq. 75); P has full rank n - m; P(q) spans the null space of G(q) (eq. 62)."""
    rng = np.random.default_rng(abs(hash(kind)) % 2 ** 32)
    mb = _pair_system(kind, rng)
    state = mb.initial_state()
    u0 = rng.normal(size=mb.d_open) * 0.7
    qn = mb.q0 + mb.reparam(u0[None], mb.q0, state)[0]
    state = mb.advance(state, u0)
    u = rng.normal(size=mb.d_open) * 0.7
    q1 = qn + mb.reparam(u[None], qn, state)[0]
    assert np.abs(mb.C.phi(qn)).max() < 1e-14
    assert np.abs(mb.C.phi(q1)).max() < 1e-14
    qm = 0.5 * (qn + q1)
    Pm = _null_space(mb, qm)
    assert np.abs(mb.C.jacobian(qm).toarray() @ Pm).max() < 1e-14
    free = np.repeat(mb.moving, 12)
    G1 = mb.C.jacobian(q1).toarray()[:, free]
    P1 = _null_space(mb, q1)[free]
    assert np.abs(G1 @ P1).max() < 1e-14
    assert np.linalg.matrix_rank(P1) == mb.d_open == free.sum() - np.linalg.matrix_rank(G1)
    # the pair's relative coordinates: a C pair's slide u stays n . (p2 - p1)
    if kind == "C":
        pr = mb.pairs[0]
        from chrono_origami.engines.reference.dns.body import point, vec
        d = point(q1[1], pr.rho2) - point(q1[0], pr.rho1)
        sl = mb.slices[mb.order.index((1, 0))]
        assert abs(vec(q1[0], pr.n1) @ d - (state[0][0] + u[sl][0])) < 1e-13


def test_constraint_jacobian_hessian_and_curvature_by_finite_differences():
    rng = np.random.default_rng(3)
    mb = _pair_system("C", rng)
    C = mb.C
    q = mb.q0 + 0.1 * rng.normal(size=mb.q0.shape)
    G = C.jacobian(q).toarray()
    h = 1e-6
    for j in rng.choice(24, 6, replace=False):
        dq = np.zeros(24)
        dq[j] = h
        fd = (C.phi(q.ravel() + dq) - C.phi(q.ravel() - dq)) / (2 * h)
        assert np.abs(fd - G[:, j]).max() < 1e-8
    lam = rng.normal(size=C.m)
    H = C.hessian(lam).toarray()
    Gp = C.jacobian(q.ravel() + 1e-3 * np.eye(24)[5]).toarray()
    assert np.allclose((Gp - G).T @ lam / 1e-3, H[:, 5], atol=1e-9)      # exact: G is affine in q
    v = rng.normal(size=24)
    assert np.allclose(C.curvature(v), [v @ (C.hessian(np.eye(C.m)[k]).toarray() @ v) for k in range(C.m)])


def test_hinge_term_fold_angle_gradient():
    rng = np.random.default_rng(5)
    b1, b2 = _random_body(rng, "p"), _random_body(rng, "q")
    q = np.array([b1.q0, b2.q0])
    h = HingeTerm(0, 1, rng.normal(size=3), rng.normal(size=3), rng.normal(size=3))
    phi, gp, gq = h.angle(q)
    g = np.concatenate([gp.ravel(), gq.ravel()])
    eps = 1e-6
    for j in range(24):
        dq = np.zeros(24)
        dq[j] = eps
        fd = (h.angle((q.ravel() + dq).reshape(2, 4, 3))[0] - h.angle((q.ravel() - dq).reshape(2, 4, 3))[0]) / (2 * eps)
        assert abs(fd - g[j]) < 1e-8
