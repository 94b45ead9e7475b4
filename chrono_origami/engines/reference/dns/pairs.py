"""Lower kinematic pairs between two bodies (Part II, sec. 4.5), a welded pair, and vertex supports.

Each pair joins body 1 (``b1``; None = the world, fixed at the origin with
directors e_1, e_2, e_3) and body 2 (``b2``), with geometry in body
components (eq. 79): joint points rho^alpha = rho_i^alpha d_i^alpha, unit
axis n^1 = n_i^1 d_i^1 (eq. 96), m^1_1, m^1_2 completing {m_1, m_2, n}
(eq. 97). It provides

* ``add_rows``: its external constraints Phi_ext (eqs. 80, 100, 119, 129, 139);
* ``edge``: the discrete null space blocks of eq. (69) for a tree edge: with
  the twist t = (v, omega), t^2 = A t^1 + B tau (tau the joint velocities),
  evaluated at the midpoint configurations (eqs. 90, 113, 125, 133, 149);
  at q_n = q_{n+1} they are the continuous ones (eqs. 84, 107, 122, 132, 143);
* ``reparam``: body 2 at t_{n+1} from body 1 at t_{n+1}, its rotation
  increment R^1 and the joint increments mu (eqs. 95, 118, 126, 136, 154),
  as increments: dq^2 = q^2_{n+1} - q^2_n and W^2 = R^2 - I from dq^1, W^1
  = R^1 - I, so that no large coordinate is subtracted from another (the
  velocity update 2 dq / dt - v_n then keeps its precision far from the
  origin);
* ``advance``: the accumulated relative coordinates (slides u, angles theta).

Rotation rows. The paper fixes the relative rotation with (n^1)^T d_alpha^2 -
eta_alpha (alpha = 1, 2). These rows are independent only when n^1 is not in
the plane of d_1^2, d_2^2; a panel's axis lies in its plane (d_3 its normal),
so here the rows are (n^1)^T a_alpha^2 - eta_alpha with two body-2 vectors
a_alpha^2 (``a2``, body components) normal to the axis; ``a2`` defaults to
d_1^2, d_2^2 (the paper's choice). The discrete null space matrices are
unchanged: they only need the relative rotation to be about n^1.

Joint velocity order and units ("a" angle, "t" translation) follow the paper:
S (omega^2: a, a, a), R (theta_dot), C (u_dot, theta_dot), P (u_dot),
E (u_dot_1, u_dot_2, theta_dot); W (welded: none); a vertex support: (omega:
a, a, a) then the free translations.
"""
import numpy as np

from .body import WORLD, axis_rotation1, cross, expm1, local, point, skew, vec
from .constraints import VecExpr

E3 = np.eye(3)


def _pt(b, X):
    X = np.asarray(X, float)
    if b is None:
        return VecExpr(const=X)
    return VecExpr([(b, 0, 1.0)] + [(b, i + 1, X[i]) for i in range(3) if X[i] != 0.0])


def _vc(b, a):
    a = np.asarray(a, float)
    if b is None:
        return VecExpr(const=a)
    return VecExpr([(b, i + 1, a[i]) for i in range(3) if a[i] != 0.0])


def _rotate_rows(R, D):
    """Rows R d_i of D (3, 3) for matrices R (N, 3, 3) -> (N, 3, 3)."""
    return np.einsum("nkj,ij->nik", R, D)


def _compose(W1, E):
    """R^1 E - I from W1 = R^1 - I and E = exp(...) - I: W1 + W1 E + E."""
    return W1 + W1 @ E + E


def _follow(dq1, rho1, dD2, rho2):
    """Increment of phi^2 keeping p^2 - p^1 fixed: dphi^1 + drho^1 - drho^2."""
    return dq1[:, 0] + vec(dq1, rho1) - np.asarray(rho2, float) @ dD2


def _blocks(N, r):
    A = np.zeros((N, 6, 6))
    A[:, :3, :3] = E3
    A[:, 3:, 3:] = E3
    return A, np.zeros((N, 6, r))


def _perp_pair(axis):
    """Two unit vectors completing a right-handed frame (m_1, m_2, axis)."""
    n = np.asarray(axis, float) / np.linalg.norm(axis)
    e = E3[int(np.argmin(np.abs(n)))]
    m1 = cross(e, n)
    m1 /= np.linalg.norm(m1)
    return np.array([m1, cross(n, m1)])


class Pair:
    """Common part (module doc). ``label``: what the pair is in the model (e.g. ("hinge", 3))."""

    kind = "?"
    units = ()

    def __init__(self, b1, b2, label=None):
        if b2 is None:
            raise ValueError("body 2 of a pair must be a body (the world may only be body 1)")
        self.b1, self.b2 = b1, b2
        self.label = label
        self.rows = []

    @property
    def r(self):
        return len(self.units)

    @staticmethod
    def q_of(q, b):
        return WORLD if b is None else q[b]

    def initial_state(self, q0):
        return np.zeros(self.r)

    def advance(self, state, mu):
        return state + mu

    def _translation_rows(self, C, vectors, owner):
        d = _pt(self.b2, self.rho2) - _pt(self.b1, self.rho1)
        out = []
        for m in vectors:
            if isinstance(m, VecExpr):
                out.append(C.add_row(quad=[(m, d, 1.0)], kind="t", owner=owner))
            else:
                out.append(C.add_row(lin=[(m, d)], kind="t", owner=owner))
        return out

    def _axis_rows(self, C, q0, owner):
        n = _vc(self.b1, self.n1)
        ng = vec(self.q_of(q0, self.b1), self.n1)
        out = []
        for k, a in enumerate(self.a2):
            eta = float(ng @ vec(self.q_of(q0, self.b2), a))
            out.append(C.add_row(quad=[(n, _vc(self.b2, a), 1.0)], const=-eta, kind="r", owner=owner))
        return out


class Spherical(Pair):
    """S pair (eq. 80): p^2 = p^1. Joint velocities omega^2 (absolute), increments theta^2 (eq. 93)."""

    kind = "S"
    units = ("a", "a", "a")

    def __init__(self, b1, b2, rho1, rho2, label=None):
        super().__init__(b1, b2, label)
        self.rho1, self.rho2 = np.asarray(rho1, float), np.asarray(rho2, float)

    @classmethod
    def between(cls, q0, b1, b2, x1, x2, axis=None, m=None, a=None, label=None):
        """The pair from global joint points x1 (on b1) and x2 (on b2) at q0 (the other arguments, which the
        axial pairs take, are ignored)."""
        return cls(b1, b2, local(Pair.q_of(q0, b1), x1), local(Pair.q_of(q0, b2), x2), label)

    def add_rows(self, C, q0, owner=None):
        self.rows = self._translation_rows(C, E3, owner)
        return self.rows

    def edge(self, q1, q2):
        A, B = _blocks(len(q2), 3)
        A[:, :3, 3:] = -skew(vec(q1, self.rho1))
        A[:, 3:, 3:] = 0.0
        B[:, :3, :] = skew(vec(q2, self.rho2))
        B[:, 3:, :] = E3
        return A, B

    def reparam(self, q1n, dq1, W1, q2n, mu, state=None):
        W2 = expm1(mu[:, :3])
        dq2 = np.empty((len(mu), 4, 3))
        dq2[:, 1:] = _rotate_rows(W2, q2n[1:])
        dq2[:, 0] = _follow(dq1, self.rho1, dq2[:, 1:], self.rho2)
        return dq2, W2


class VertexSupport(Pair):
    """A point rho^2 of body 2 held by the world in the global directions ``held`` (rows); the others free.

    Rows e_k . (p^2 - x0) for each held e_k; x0 the point at t = 0. Joint velocities: omega^2, then
    the velocity of the point along the free directions. All held: the S pair with the world.
    """

    kind = "support"

    def __init__(self, b2, rho2, x0, held, label=None):
        super().__init__(None, b2, label)
        self.rho1, self.rho2 = np.asarray(x0, float), np.asarray(rho2, float)
        self.held = np.asarray(held, float).reshape(-1, 3)
        Q, _ = np.linalg.qr(np.vstack([self.held, E3]).T)
        self.free = Q.T[len(self.held):3] if len(self.held) < 3 else np.zeros((0, 3))
        self.units = ("a", "a", "a") + ("t",) * len(self.free)

    def add_rows(self, C, q0, owner=None):
        self.rows = self._translation_rows(C, self.held, owner)
        return self.rows

    def edge(self, q1, q2):
        A, B = _blocks(len(q2), self.r)
        A[:] = 0.0
        B[:, :3, :3] = skew(vec(q2, self.rho2))
        B[:, 3:, :3] = E3
        B[:, :3, 3:] = self.free.T
        return A, B

    def reparam(self, q1n, dq1, W1, q2n, mu, state=None):
        W2 = expm1(mu[:, :3])
        dq2 = np.empty((len(mu), 4, 3))
        dq2[:, 1:] = _rotate_rows(W2, q2n[1:])
        dq2[:, 0] = mu[:, 3:] @ self.free - self.rho2 @ dq2[:, 1:]
        return dq2, W2


class _Axial(Pair):
    """Pairs with an axis n^1 and vectors m^1_alpha (C, R, P, E, W)."""

    def __init__(self, b1, b2, rho1, rho2, n1, m1=None, a2=None, label=None):
        super().__init__(b1, b2, label)
        self.rho1, self.rho2 = np.asarray(rho1, float), np.asarray(rho2, float)
        self.n1 = np.asarray(n1, float)
        self.m1 = _perp_pair(self.n1) if m1 is None else np.asarray(m1, float).reshape(2, 3)
        self.a2 = E3[:2].copy() if a2 is None else np.asarray(a2, float).reshape(2, 3)

    @classmethod
    def between(cls, q0, b1, b2, x1, x2, axis, m=None, a=None, label=None):
        """The pair from global geometry at q0 (B, 4, 3): joint points x1 (on b1), x2 (on b2), unit ``axis``;
        ``m`` two global vectors normal to the axis fixed in b1 (default: any), ``a`` two fixed in b2
        (default: ``m``)."""
        axis = np.asarray(axis, float) / np.linalg.norm(axis)
        m = _perp_pair(axis) if m is None else np.asarray(m, float)
        a = m if a is None else np.asarray(a, float)
        Q1, Q2 = Pair.q_of(q0, b1), Pair.q_of(q0, b2)
        return cls(b1, b2, local(Q1, x1), local(Q2, x2), local(Q1, axis, False),
                   np.array([local(Q1, v, False) for v in m]), np.array([local(Q2, v, False) for v in a]), label)

    def reversed(self, q0):
        """The same pair with the bodies' roles exchanged (body 2 first), from the configuration q0."""
        if self.b1 is None:
            raise ValueError("a pair with the world as body 1 cannot be reversed")
        Q1, Q2 = self.q_of(q0, self.b1), self.q_of(q0, self.b2)
        axis = vec(Q1, self.n1)
        m_new = vec(Q2, self.a2)          # fixed in old body 2 = new body 1
        a_new = vec(Q1, self.m1)          # fixed in old body 1 = new body 2
        m_new = m_new - np.outer(m_new @ axis, axis)
        a_new = a_new - np.outer(a_new @ axis, axis)
        return type(self).between(q0, self.b2, self.b1, point(Q2, self.rho2), point(Q1, self.rho1), axis,
                                  m_new, a_new, self.label)

    def _mid(self, q1, q2):
        return vec(q1, self.n1), vec(q1, self.m1[0]), vec(q1, self.m1[1]), vec(q2, self.rho2)

    def _rotation_lock_rows(self, C, q0, owner):
        """Rows locking the whole relative rotation: the axis rows (n^1)^T a_alpha^2 and (m^1_1)^T a_2^2, each at
        its value in q0 (independent while a_alpha^2 stay near normal to n^1: the pairs are built with
        a_alpha^2 = m^1_alpha in q0)."""
        rows = self._axis_rows(C, q0, owner)
        m = _vc(self.b1, self.m1[0])
        a = _vc(self.b2, self.a2[1])
        eta = float(vec(self.q_of(q0, self.b1), self.m1[0]) @ vec(self.q_of(q0, self.b2), self.a2[1]))
        rows.append(C.add_row(quad=[(m, a, 1.0)], const=-eta, kind="r", owner=owner))
        return rows

    def _slides(self, q0):
        Q1, Q2 = self.q_of(q0, self.b1), self.q_of(q0, self.b2)
        return point(Q2, self.rho2) - point(Q1, self.rho1), Q1


class Revolute(_Axial):
    """R pair (eq. 119): p^2 = p^1 and (n^1)^T a_alpha^2 = eta_alpha; theta about n^1 (eq. 126)."""

    kind = "R"
    units = ("a",)

    def add_rows(self, C, q0, owner=None):
        self.rows = self._translation_rows(C, E3, owner) + self._axis_rows(C, q0, owner)
        return self.rows

    def edge(self, q1, q2):
        n, _, _, r2 = self._mid(q1, q2)
        A, B = _blocks(len(q2), 1)
        A[:, :3, 3:] = skew(r2 - vec(q1, self.rho1))
        B[:, :3, 0] = cross(r2, n)
        B[:, 3:, 0] = n
        return A, B

    def reparam(self, q1n, dq1, W1, q2n, mu, state=None):
        W2 = _compose(W1, axis_rotation1(vec(q1n, self.n1), mu[:, 0]))
        dq2 = np.empty((len(mu), 4, 3))
        dq2[:, 1:] = _rotate_rows(W2, q2n[1:])
        dq2[:, 0] = _follow(dq1, self.rho1, dq2[:, 1:], self.rho2)
        return dq2, W2


class Cylindrical(_Axial):
    """C pair (eq. 100): (m^1_alpha)^T (p^2 - p^1) = 0 and (n^1)^T a_alpha^2 = eta_alpha; slide u and angle theta.

    State (u, theta): u = (n^1)^T (p^2 - p^1) from t = 0 on, theta the accumulated relative angle.
    """

    kind = "C"
    units = ("t", "a")

    def initial_state(self, q0):
        d, Q1 = self._slides(q0)
        return np.array([float(vec(Q1, self.n1) @ d), 0.0])

    def add_rows(self, C, q0, owner=None):
        ms = [_vc(self.b1, m) for m in self.m1]
        self.rows = self._translation_rows(C, ms, owner) + self._axis_rows(C, q0, owner)
        return self.rows

    def edge(self, q1, q2):
        n, m1, m2, r2 = self._mid(q1, q2)
        A, B = _blocks(len(q2), 2)
        A[:, :3, 3:] = skew(q1[:, 0] - q2[:, 0])
        B[:, :3, 0] = cross(m1, m2)
        B[:, :3, 1] = cross(r2, n)
        B[:, 3:, 1] = n
        return A, B

    def reparam(self, q1n, dq1, W1, q2n, mu, state=None):
        n = vec(q1n, self.n1)
        W2 = _compose(W1, axis_rotation1(n, mu[:, 1]))
        dq2 = np.empty((len(mu), 4, 3))
        dq2[:, 1:] = _rotate_rows(W2, q2n[1:])
        dq2[:, 0] = (_follow(dq1, self.rho1, dq2[:, 1:], self.rho2) + mu[:, :1] * n
                     + (state[0] + mu[:, :1]) * vec(dq1, self.n1))
        return dq2, W2


class Welded(_Axial):
    """W pair: body 2 welded to body 1, p^2 = p^1 and the relative rotation locked (6 rows); no joint
    velocity (t^2 = A t^1: v^2 = v^1 + omega^1 x (phi^2 - phi^1), omega^2 = omega^1)."""

    kind = "W"
    units = ()

    def add_rows(self, C, q0, owner=None):
        self.rows = self._translation_rows(C, E3, owner) + self._rotation_lock_rows(C, q0, owner)
        return self.rows

    def edge(self, q1, q2):
        A, B = _blocks(len(q2), self.r)
        A[:, :3, 3:] = skew(q1[:, 0] - q2[:, 0])
        return A, B

    def reparam(self, q1n, dq1, W1, q2n, mu, state=None):
        W2 = np.broadcast_to(W1, (len(mu), 3, 3))
        dq2 = np.empty((len(mu), 4, 3))
        dq2[:, 1:] = _rotate_rows(W2, q2n[1:])
        dq2[:, 0] = _follow(dq1, self.rho1, dq2[:, 1:], self.rho2)
        return dq2, W2


class Prismatic(Welded):
    """P pair (eq. 129): (m^1_alpha)^T (p^2 - p^1) = 0 and the relative rotation locked; slide u along n^1:
    the welded pair plus the slide.

    The rotation rows are those of :meth:`_Axial._rotation_lock_rows`, not the paper's
    d_1^1.d_2^2, d_2^1.d_3^2, d_3^1.d_1^2, which are dependent at some relative orientations of the
    directors (a quarter turn about d_1); the null space and the reparametrisation are the paper's.
    """

    kind = "P"
    units = ("t",)

    def initial_state(self, q0):
        d, Q1 = self._slides(q0)
        return np.array([float(vec(Q1, self.n1) @ d)])

    def add_rows(self, C, q0, owner=None):
        ms = [_vc(self.b1, m) for m in self.m1]
        self.rows = self._translation_rows(C, ms, owner) + self._rotation_lock_rows(C, q0, owner)
        return self.rows

    def edge(self, q1, q2):
        A, B = super().edge(q1, q2)
        _, m1, m2, _ = self._mid(q1, q2)
        B[:, :3, 0] = cross(m1, m2)
        return A, B

    def reparam(self, q1n, dq1, W1, q2n, mu, state=None):
        dq2, W2 = super().reparam(q1n, dq1, W1, q2n, mu, state)
        dq2[:, 0] += mu[:, :1] * vec(q1n, self.n1) + (state[0] + mu[:, :1]) * vec(dq1, self.n1)
        return dq2, W2


class Planar(_Axial):
    """E pair (eq. 139): (n^1)^T (p^2 - p^1) = 0 and (n^1)^T a_alpha^2 = eta_alpha; slides u_1, u_2 along
    m^1_1, m^1_2, angle theta."""

    kind = "E"
    units = ("t", "t", "a")

    def initial_state(self, q0):
        d, Q1 = self._slides(q0)
        return np.array([float(vec(Q1, self.m1[0]) @ d), float(vec(Q1, self.m1[1]) @ d), 0.0])

    def add_rows(self, C, q0, owner=None):
        self.rows = self._translation_rows(C, [_vc(self.b1, self.n1)], owner) + self._axis_rows(C, q0, owner)
        return self.rows

    def edge(self, q1, q2):
        n, m1, m2, r2 = self._mid(q1, q2)
        A, B = _blocks(len(q2), 3)
        A[:, :3, 3:] = skew(q1[:, 0] - q2[:, 0])
        B[:, :3, 0] = cross(m2, n)
        B[:, :3, 1] = cross(n, m1)
        B[:, :3, 2] = cross(r2, n)
        B[:, 3:, 2] = n
        return A, B

    def reparam(self, q1n, dq1, W1, q2n, mu, state=None):
        W2 = _compose(W1, axis_rotation1(vec(q1n, self.n1), mu[:, 2]))
        dq2 = np.empty((len(mu), 4, 3))
        dq2[:, 1:] = _rotate_rows(W2, q2n[1:])
        dq2[:, 0] = _follow(dq1, self.rho1, dq2[:, 1:], self.rho2)
        for a in range(2):
            dq2[:, 0] += mu[:, a:a + 1] * vec(q1n, self.m1[a]) + (state[a] + mu[:, a:a + 1]) * vec(dq1, self.m1[a])
        return dq2, W2
