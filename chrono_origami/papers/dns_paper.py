"""The four examples of Betsch & Leyendecker (Part II, sec. 5) run by scheme: the library behind the scenes
``scenes/gyro_top.py``, ``cylindrical_pair.py``, ``planar_pair.py``, ``six_body_linkage.py`` and
``benchmarks/integrators.py``.

Schemes: "reduced" and "constrained" (the reference engine, ``engines.reference.dns.schemes``), "chrono-hht"
and "chrono-euler" (Chrono's HHT with alpha = -0.2 and implicit Euler on the same data,
:mod:`chrono_origami.papers.dns_chrono`). Files: :mod:`chrono_origami.report.dns_paper`; the scenes'
common end: ``cli.dynamics.paper_finish``.

Conditioning (Tables II-V): the 2-norm condition number of the Newton iteration matrix at the
converged solution of the step that starts at the paper's instant: t = 0 for Tables II-IV (which
name none), t = 0.04 for Table V. For small dt the reduced matrix is (2/dt) P^T M P: its condition
is that of the reduced mass matrix, which changes along the motion. At t = 0 it is 493 (cylindrical
pair) and 532 (planar pair) against the tables' 358 and 800: the cylindrical pair's passes 358 at
t = 0.1 s and the planar pair's 800 near t = 0.03 s, so the paper presumably measured later in the
motion (it does not say when); the gyro top's does not change (8.5, the ratio of its principal
values about the apex).

The six-body linkage: the project's ring of six door-hinged panels
(``patterns.linkage``) with the paper's tetrahedra as mass properties, panel 1 (body 0) fixed,
hinge 6 (joint 6) the loop closure, gravity 9.81 along -z, theta_dot^1 = 30 rad/s: every joint rate
30 rad/s at the cube configuration (d theta^2 / d theta^1 = 1 there), through ``dynamics``.
"""
from dataclasses import dataclass, field

import numpy as np

from ..engines.reference.dns import examples as ex, structure as ds
from ..engines.reference.dns.schemes import generalised_velocities, integrate
from ..inputs.dynamics import InitialState, schedule
from ..patterns import linkage as lk
from ..tools.geometry import rotation_angle
from ..analysis.dynamics import dynamics

EXAMPLES = ("gyro_top", "cylindrical_pair", "planar_pair", "six_body_linkage")
SCHEMES = ("reduced", "constrained", "chrono-hht", "chrono-euler")
#: the paper's time steps of Tables II-V
TABLE_DT = {"gyro_top": (5e-2, 5e-3, 5e-4), "cylindrical_pair": (1e-2, 1e-3, 1e-4),
            "planar_pair": (1e-2, 1e-3, 1e-4), "six_body_linkage": (1e-2, 1e-3, 1e-4)}
#: the paper's condition numbers (constrained, reduced) per time step, Tables II-V
TABLES = {
    "gyro_top": {5e-2: (1.6e4, 8.0), 5e-3: (1.6e7, 8.0), 5e-4: (1.6e10, 8.0)},
    "cylindrical_pair": {1e-2: (3.6e11, 360.0), 1e-3: (3.6e14, 358.0), 1e-4: (3.6e17, 358.0)},
    "planar_pair": {1e-2: (4.8e10, 7.3e2), 1e-3: (4.6e13, 8.0e2), 1e-4: (4.6e16, 8.0e2)},
    "six_body_linkage": {1e-2: (1.6e5, 19.0), 1e-3: (1.5e8, 10.0), 1e-4: (1.5e11, 58.0)},
}
INSTANT = {"gyro_top": 0.0, "cylindrical_pair": 0.0, "planar_pair": 0.0, "six_body_linkage": 0.04}
#: the linkage: fixed panel, closure hinge, initial joint rate (rad/s)
LINKAGE = dict(fixed_panels=(0,), closures=(5,))
THETA1_DOT = 30.0


@dataclass
class Series:
    """A run of an example: times, total energy, angular momentum about the origin, centres of mass."""

    t: np.ndarray
    E: np.ndarray
    L: np.ndarray
    com: np.ndarray                     # (K, B, 3)
    angles: np.ndarray = None           # six-body linkage: (K, 2) theta^1, theta^2
    wall: float = 0.0
    steps: int = 0
    iterations: float = float("nan")    # Newton iterations per step (reference engine)
    history: object = None              # the TimeHistory (six-body linkage, reference engine)
    info: dict = field(default_factory=dict)


def linkage_structure():
    return lk.six_body_structure()


def linkage_options(structure):
    return dict(LINKAGE, mass_properties=lk.mass_properties(structure.pattern))


def linkage_model(structure=None):
    st = structure or linkage_structure()
    return ds.Model(st, **linkage_options(st))


def linkage_initial(model):
    """The paper's initial state: every open-loop joint rate theta_dot^1 = 30 rad/s at the cube."""
    return InitialState(velocities=ds.chain_velocities(model, {h: THETA1_DOT for h in range(5)}))


def example(name):
    """(Multibody, nu0, v0, data) of an example (data: the example's constants)."""
    if name == "six_body_linkage":
        model = linkage_model()
        v0 = model.initial_velocities(linkage_initial(model))
        return model.mb, generalised_velocities(model.mb, model.mb.q0, v0), v0, {"model": model}
    e = getattr(ex, name)()
    return e.mb, e.nu0, e.v0, e.data


def joint_angles(model, R, R0):
    """theta^1, theta^2 (rad, unwrapped over the rows) from panel rotations R (K, P, 3, 3) about the hinges."""
    pat = model.structure.pattern
    out = []
    for h in (0, 1):
        a, b = pat.hinges[h].vertices
        p, q = pat.hinges[h].panels
        X = model.X0
        axis = (X[b] - X[a]) / np.linalg.norm(X[b] - X[a])
        e = np.cross(axis, np.eye(3)[int(np.argmin(np.abs(axis)))])
        e /= np.linalg.norm(e)
        ang = []
        for Rk in R:
            Q = (Rk[p] @ R0[p].T).T @ (Rk[q] @ R0[q].T)
            f = Q @ e
            ang.append(rotation_angle(axis, e, f))
        out.append(np.unwrap(ang))
    return np.column_stack(out)


def run(name, scheme, dt, time, stride=1, **options):
    """Integrate example ``name`` by ``scheme`` for ``time`` (s) with steps ``dt`` (s): a :class:`Series`."""
    n, _ = schedule(time, dt)
    if scheme not in SCHEMES:
        raise ValueError(f"unknown scheme {scheme!r}; expected one of {SCHEMES}")
    if scheme.startswith("chrono"):
        from .. import engines

        engines.resolve("chrono")          # ChronoUnavailable (a one-line error) without PyChrono
    if name == "six_body_linkage":
        return _run_linkage(scheme, dt, n, stride, **options)
    mb, nu0, v0, data = example(name)
    if scheme in ("reduced", "constrained"):
        r = integrate(mb, dt, n, v0, scheme, stride=stride, nu0=nu0, **options)
        E = np.array([mb.kinetic(v) + mb.forces.gravity_potential(q) for q, v in zip(r.q, r.v)])
        L = np.array([mb.angular_momentum(q, v) for q, v in zip(r.q, r.v)])
        return Series(r.t, E, L, r.q[:, :, 0], wall=r.wall, steps=n, iterations=float(r.iterations.mean()),
                      info={"data": data})
    return _chrono(mb, v0, scheme, dt, n, stride, data)


def _chrono(mb, v0, scheme, dt, n, stride, data):
    from . import dns_chrono as cx

    c = cx.simulate(mb, v0, dt, n, scheme.split("-", 1)[1], stride=stride)
    return Series(c.t, c.E, c.L, c.com, wall=c.wall, steps=n, info={"data": data, **c.info})


def _run_linkage(scheme, dt, n, stride, **options):
    st = linkage_structure()
    opts = linkage_options(st)
    model = ds.Model(st, **opts)
    initial = linkage_initial(model)
    if scheme in ("reduced", "constrained"):
        h = dynamics(st, "reference", integrator=scheme, time=n * dt, dt=dt, initial=initial,
                     output_interval=stride * dt, **opts, **options)
        ang = h.info["joint"][:, :2]
        com = np.array([[np.mean(X[list(loop)], axis=0) for loop in st.pattern.panels] for X in h.vertices])
        return Series(h.t, h.kinetic + h.potential, h.angular_momentum, com, ang, h.info["wall_time"], n,
                      h.info["newton_iterations"] / n, h, {"model": model})
    from . import dns_chrono as cx

    v0 = model.initial_velocities(initial)
    c = cx.simulate(model.mb, v0, dt, n, scheme.split("-", 1)[1], stride=stride)
    ang = joint_angles(model, c.R, c.R[0])
    return Series(c.t, c.E, c.L, c.com, ang, c.wall, n, info={"model": model, **c.info})


def conditioning(name, scheme, dt):
    """Condition number of ``scheme``'s iteration matrix at the paper's instant (module doc)."""
    k = int(round(INSTANT[name] / dt))
    if name == "six_body_linkage":
        st = linkage_structure()
        h = dynamics(st, "reference", integrator=scheme, time=(k + 1) * dt, dt=dt,
                     initial=linkage_initial(ds.Model(st, **linkage_options(st))), output_interval=(k + 1) * dt,
                     condition_at=(k,), **linkage_options(st))
        return h.info["conditions"][k]
    mb, nu0, v0, _ = example(name)
    r = integrate(mb, dt, k + 1, v0, scheme, stride=k + 1, nu0=nu0, condition_at=(k,))
    return r.conditions[k]


def conditioning_rows(name, dts):
    """Rows (dt, scheme, condition) for the reference schemes at the time steps ``dts``."""
    return [(dt, s, conditioning(name, s, dt)) for dt in dts for s in ("reduced", "constrained")]


def drift(series):
    """(max |E - E0| / |E0|, max |L - L0| / |L0|) of a series."""
    E, L = series.E, series.L
    dE = float(np.abs(E - E[0]).max() / abs(E[0]))
    nL = np.linalg.norm(L[0])
    dL = float(np.abs(L - L[0]).max() / nL) if nL > 0 else float(np.abs(L).max())
    return dE, dL


