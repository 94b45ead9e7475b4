"""The paper's linearised operators (reference/operators.py) against the exact constraint functions.

Each body i has the rigid motion g_i = (R_i, u_i): a point x of the reference
configuration is at R_i x + u_i. A perturbation (omega_i, w_i) moves body i to
exp(eps (omega_i, w_i)) g_i, whose points have velocity omega_i x x + w_i at
eps = 0 -- the operators' velocity convention. Central differences of the exact
constraint functions of sec. 3 along these curves give the Jacobian, which
must equal the operator at consistent (hinge assembled, possibly folded or
slid) and inconsistent (independent random motions) configurations.

Constraint functions (images t_i = R_i t, m_i = R_i m, n_i = R_i n,
p_i = R_i p + u_i, q_i = R_i q + u_i of the hinge data):

* rows 1-2 of the door and sliding hinges: the printed operator (eq. 4, 6) is
  the exact derivative of c_1 = (t_2.m_1 - t_1.m_2)/2, c_2 = (t_2.n_1 - t_1.n_2)/2
  -- the difference of the paper's two groups of equations, not their mean
  (whose derivative vanishes at the aligned state, see operators.py);
* sliding c_3 = (p_2 - p_1).(m_1 + m_2)/2, c_4 = (p_2 - p_1).(n_1 + n_2)/2 (sec. 3.1);
* door c_3 = p_2 - p_1 (sec. 3.2);
* point slider (P of body 2 on the line of body 1): ((p_2 - p_1).m_1, (p_2 - p_1).n_1) (eq. 8);
* double point slider: the above and ((q_2 - q_1).m_2, (q_2 - q_1).n_2) (eq. 13;
  the paper prints c_3 = (q_1 - q_2).m_2, whose derivative is minus its own row);
* spherical hinge: p_1 - p_2 (eq. 14); support: e.x of the held vertex x.
"""
import zlib

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from chrono_origami.tools.geometry import rotation_about, skew
from chrono_origami.crease.pattern import CreasePattern
from chrono_origami.engines.reference import operators as op
from chrono_origami.engines.reference import static as statics
from chrono_origami.engines.reference.count import count
from chrono_origami.structure.structure import Load, Structure, Support
from chrono_origami.structure.hinges import DOOR, SLIDING

H = 1e-5          # central-difference step (rad, length)
RTOL = 1e-6       # largest relative error of the operator against the finite differences


# ----------------------------------------------------------------- rigid motions
def exp_se3(xi):
    """Rigid motion (R, d) = exp(xi) for xi = (omega, w): x -> R x + d, velocity omega x x + w at 0."""
    omega, w = np.asarray(xi[:3], float), np.asarray(xi[3:], float)
    th = np.linalg.norm(omega)
    K = skew(omega)
    R = Rotation.from_rotvec(omega).as_matrix()
    if th < 1e-12:
        V = np.eye(3) + 0.5 * K
    else:
        V = np.eye(3) + (1 - np.cos(th)) / th**2 * K + (th - np.sin(th)) / th**3 * K @ K
    return R, V @ w


def compose(h, g):
    """h g: first g, then h."""
    (Rh, dh), (Rg, ug) = h, g
    return Rh @ Rg, Rh @ ug + dh


def random_motion(rng):
    return Rotation.random(random_state=rng).as_matrix(), rng.normal(size=3)


def hinge_data(rng):
    """Reference hinge: point p and a second point q on the axis, unit t, m, n = t x m."""
    t = rng.normal(size=3)
    t /= np.linalg.norm(t)
    m = np.cross(t, rng.normal(size=3))
    m /= np.linalg.norm(m)
    p = rng.normal(size=3)
    return dict(t=t, m=m, n=np.cross(t, m), p=p, q=p + rng.uniform(0.5, 2.0) * t)


def configurations(rng, kind):
    """[(label, g1, g2)]: consistent (folded by phi, and slid by s for sliding) and inconsistent."""
    d = hinge_data(rng)
    out = []
    for k in range(3):
        g1 = random_motion(rng)
        phi = rng.uniform(-2.5, 2.5)
        s = rng.uniform(-1, 1) if kind == "sliding" else 0.0
        Rphi = rotation_about(d["t"], phi)
        # relative motion of body 2: rotation phi about the axis through p, then slide s along t
        rel = (Rphi, d["p"] - Rphi @ d["p"] + s * d["t"])
        out.append((f"consistent{k}", g1, compose(g1, rel)))
        out.append((f"inconsistent{k}", random_motion(rng), random_motion(rng)))
    return d, out


def images(d, g):
    R, u = g
    return dict(t=R @ d["t"], m=R @ d["m"], n=R @ d["n"], p=R @ d["p"] + u, q=R @ d["q"] + u)


def fd_jacobian(c, gs):
    """Central differences of c(g_1, ..., g_k) along exp(eps e_j) g_i: (rows x 6k)."""
    cols = []
    for i in range(len(gs)):
        for j in range(6):
            xi = np.zeros(6)
            xi[j] = H
            plus = list(gs)
            minus = list(gs)
            plus[i] = compose(exp_se3(xi), gs[i])
            minus[i] = compose(exp_se3(-xi), gs[i])
            cols.append((np.atleast_1d(c(*plus)) - np.atleast_1d(c(*minus))) / (2 * H))
    return np.column_stack(cols)


def assert_matches(C, J, label):
    err = np.abs(C - J).max() / np.abs(C).max()
    assert err < RTOL, f"{label}: relative error {err:.3g} between the operator and the finite differences"


# ------------------------------------------------------------ exact constraint functions
def c_rot(d, g1, g2):
    a, b = images(d, g1), images(d, g2)
    return np.array([0.5 * (b["t"] @ a["m"] - a["t"] @ b["m"]), 0.5 * (b["t"] @ a["n"] - a["t"] @ b["n"])])


def c_sliding(d, g1, g2):
    a, b = images(d, g1), images(d, g2)
    dp = b["p"] - a["p"]
    return np.concatenate([c_rot(d, g1, g2), [0.5 * dp @ (a["m"] + b["m"]), 0.5 * dp @ (a["n"] + b["n"])]])


def c_door(d, g1, g2):
    a, b = images(d, g1), images(d, g2)
    return np.concatenate([c_rot(d, g1, g2), b["p"] - a["p"]])


def c_point_slider(d, g1, g2):
    a, b = images(d, g1), images(d, g2)
    return np.array([(b["p"] - a["p"]) @ a["m"], (b["p"] - a["p"]) @ a["n"]])


def c_double_point_slider(d, g1, g2):
    a, b = images(d, g1), images(d, g2)
    return np.concatenate([c_point_slider(d, g1, g2), [(b["q"] - a["q"]) @ b["m"], (b["q"] - a["q"]) @ b["n"]]])


def c_spherical(d, g1, g2):
    return images(d, g1)["p"] - images(d, g2)["p"]


def c_slider_and_spherical(d, g1, g2):
    a, b = images(d, g1), images(d, g2)
    return np.concatenate([[(b["q"] - a["q"]) @ b["m"], (b["q"] - a["q"]) @ b["n"]], c_spherical(d, g1, g2)])


OPERATORS = {
    # name: (hinge kind of the consistent configurations, exact c, operator at the images a, b)
    "sliding_hinge": ("sliding", c_sliding,
                      lambda a, b: op.sliding_hinge(a["t"], a["m"], a["n"], a["p"], b["t"], b["m"], b["n"], b["p"])),
    "door_hinge": ("door", c_door,
                   lambda a, b: op.door_hinge(a["t"], a["m"], a["n"], a["p"], b["t"], b["m"], b["n"], b["p"])),
    "point_slider": ("sliding", c_point_slider, lambda a, b: op.point_slider(a["m"], a["n"], b["p"])),
    "double_point_slider": ("sliding", c_double_point_slider,
                            lambda a, b: op.double_point_slider(a["m"], a["n"], b["p"], b["m"], b["n"], a["q"])),
    "spherical_hinge": ("door", c_spherical, lambda a, b: op.spherical_hinge(a["p"], b["p"])),
    "slider_and_spherical": ("door", c_slider_and_spherical,
                             lambda a, b: op.slider_and_spherical(b["m"], b["n"], a["q"], a["p"], b["p"])),
}


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_operator_is_the_jacobian_of_the_exact_constraints(name):
    kind, c, C = OPERATORS[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    d, confs = configurations(rng, kind)
    for label, g1, g2 in confs:
        J = fd_jacobian(lambda h1, h2: c(d, h1, h2), [g1, g2])
        assert_matches(C(images(d, g1), images(d, g2)), J, f"{name}, {label}")


def test_support_is_the_jacobian_of_the_held_coordinates():
    rng = np.random.default_rng(7)
    x0 = rng.normal(size=3)
    dirs = [np.array([1.0, 0, 0]), np.array([0, 0, 1.0]), rng.normal(size=3) / 3]
    for _ in range(3):
        g = random_motion(rng)
        x = g[0] @ x0 + g[1]
        J = fd_jacobian(lambda h: np.array([e @ (h[0] @ x0 + h[1]) for e in dirs]), [g])
        assert_matches(op.support(x, dirs), J, "support")


def test_exp_se3_velocity_convention():
    """The finite-difference curves move points with omega x x + w (the operators' convention)."""
    rng = np.random.default_rng(3)
    xi, x = rng.normal(size=6), rng.normal(size=3)
    R1, d1 = exp_se3(H * xi)
    R0, d0 = exp_se3(-H * xi)
    v = ((R1 @ x + d1) - (R0 @ x + d0)) / (2 * H)
    np.testing.assert_allclose(v, np.cross(xi[:3], x) + xi[3:], rtol=1e-9)


# ---------------------------------------------------------- what rows 1-2 block
def test_rotation_rows_measure_the_relative_rotation_they_block():
    """Aligned hinge, body 2 rotated by theta about an axis through p: closed forms.

    About n: c_1 = sin(theta), c_2 = 0; about m: c_1 = 0, c_2 = -sin(theta);
    about t: both zero for every theta. The operator's rows give the slopes
    at theta = 0: row 1 = n.(omega_2 - omega_1), row 2 = -m.(omega_2 - omega_1).
    """
    rng = np.random.default_rng(11)
    d = hinge_data(rng)
    g1 = random_motion(rng)
    a = images(d, g1)
    for theta in (0.3, -1.1, 2.0):
        for axis, expect in (("n", (np.sin(theta), 0.0)), ("m", (0.0, -np.sin(theta))), ("t", (0.0, 0.0))):
            R = rotation_about(d[axis], theta)
            g2 = compose(g1, (R, d["p"] - R @ d["p"]))
            np.testing.assert_allclose(c_rot(d, g1, g2), expect, atol=1e-14)
    C = op.door_hinge(a["t"], a["m"], a["n"], a["p"], a["t"], a["m"], a["n"], a["p"])
    for axis, expect in (("n", (1.0, 0.0)), ("m", (0.0, -1.0)), ("t", (0.0, 0.0))):
        e = a[axis]
        delta = np.concatenate([np.zeros(6), e, np.cross(a["p"], e)])  # body 2 turns about the axis through p
        np.testing.assert_allclose(C[:2] @ delta, expect, atol=1e-14)
        np.testing.assert_allclose(C[2:] @ delta, 0.0, atol=1e-14)


def test_printed_mean_c1_has_no_derivative_at_the_aligned_state():
    """Why rows 1-2 are checked against the difference: the mean (t_1.m_2 + t_2.m_1)/2 is flat there."""
    rng = np.random.default_rng(5)
    d = hinge_data(rng)
    g = random_motion(rng)

    def c_mean(h1, h2):
        a, b = images(d, h1), images(d, h2)
        return np.array([0.5 * (a["t"] @ b["m"] + b["t"] @ a["m"]), 0.5 * (a["t"] @ b["n"] + b["t"] @ a["n"])])

    assert np.abs(fd_jacobian(c_mean, [g, g])).max() < 1e-9
    a = images(d, g)
    assert np.abs(op.door_hinge(a["t"], a["m"], a["n"], a["p"], a["t"], a["m"], a["n"], a["p"])[:2]).max() > 0.5


# ------------------------------------------------------------------- null spaces
def free_motions(a, kind):
    """Basis (12 x k) of the motions a hinge leaves free: 6 rigid, rotation about t, (sliding) slide along t."""
    B = [np.concatenate([e, np.zeros(3), e, np.zeros(3)]) for e in np.eye(3)]
    B += [np.concatenate([np.zeros(3), e, np.zeros(3), e]) for e in np.eye(3)]
    B.append(np.concatenate([np.zeros(6), a["t"], np.cross(a["p"], a["t"])]))
    if kind == "sliding":
        B.append(np.concatenate([np.zeros(9), a["t"]]))
    return np.column_stack(B)


@pytest.mark.parametrize("name, dim", [("door_hinge", 7), ("slider_and_spherical", 7),
                                       ("sliding_hinge", 8), ("double_point_slider", 8)])
def test_null_space_is_the_free_motions(name, dim):
    kind, _, C = OPERATORS[name]
    rng = np.random.default_rng(dim + len(name))
    d, confs = configurations(rng, kind)
    for label, g1, g2 in confs:
        if not label.startswith("consistent"):
            continue
        a, b = images(d, g1), images(d, g2)
        Cm = C(a, b)
        s = np.linalg.svd(Cm, compute_uv=False)
        rank = int(np.sum(s > 1e-10 * s[0]))
        assert 12 - rank == dim, f"{name}, {label}: null space of dimension {12 - rank}, expected {dim}"
        B = free_motions(a, kind)
        assert np.linalg.matrix_rank(B) == dim
        assert np.abs(Cm @ B).max() < 1e-12 * np.abs(Cm).max() * np.abs(B).max()


# ------------------------------------------------- "hinge" and "points" forms agree
def folded_strip():
    """Three folded panels: door hinge 1 (panels 1-2), sliding hinge 2 (panels 2-3), isostatic supports."""
    ca, sa = np.cos(0.7), np.sin(0.7)
    v = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
         [1 + ca, -0.2, sa], [1 + 1.2 * ca, 1.3, 1.2 * sa]]
    h2 = np.subtract(v[5], v[4])
    f = np.array([0.8, 0.1, -0.5])  # panel 3 spans h2 and f
    v += [list(np.add(v[4], f)), list(np.add(v[5], f + 0.1 * h2))]
    pat = CreasePattern(v, [(0, 1, 2, 3), (1, 4, 5, 2), (4, 6, 7, 5)])
    sup = (Support(0, 0, "xyz"), Support(3, 0, "xz"), Support(1, 0, "z"), Support(4, 1, "z"),
           Support(6, 2, "z"), Support(7, 2, "y"))
    loads = (Load(7, (1.0, -2.0, 3.0), 2), Load(5, (0.5, 0.0, -1.0), None))
    return Structure(pat, (DOOR, SLIDING), (0.05, 0.04, 0.03), 100.0, sup, loads, (0, 0, -9.81), "folded strip")


def test_hinge_and_point_forms_give_the_same_hinge_actions():
    s = folded_strip()
    for form in ("hinge", "points"):
        c = count(s, form)
        assert (c.M, c.S) == (0, 0), f"form {form}: M = {c.M}, S = {c.S}"
    rh = statics.solve(s, form="hinge")
    rp = statics.solve(s, form="points")
    A = np.array([r[2:] for r in rh.hinge_rows()])
    B = np.array([r[2:] for r in rp.hinge_rows()])
    assert [r[:2] for r in rh.hinge_rows()] == [r[:2] for r in rp.hinge_rows()]
    assert np.abs(A).max() > 1.0  # the loads do reach the hinges
    assert np.abs(A - B).max() <= 1e-9 * np.abs(A).max()
    Fa = np.array([r[2:] for r in rh.support_rows()])
    Fb = np.array([r[2:] for r in rp.support_rows()])
    assert np.abs(Fa - Fb).max() <= 1e-9 * np.abs(Fa).max()
    # MP = 0 on every hinge, TP = 0 on the sliding hinge (free rotation and slide)
    assert np.abs(A[:, 1]).max() <= 1e-9 * np.abs(A).max()
    assert np.abs(A[2:, 4]).max() <= 1e-9 * np.abs(A).max()
