"""Chrono's compliant hinges in its own static solver against the linear theory of elastic hinges (the numbers the
manual's "Where no design is isostatic" quotes, docs/howto/elastic-hinges.md).

Two compliant hinge elements of Chrono 10, each solved by ``ChStaticNonLinearAnalysis`` (Newton) and compared with
the reference engine's linear elastic answer (``static --elastic --engine reference``) of the same stiffness:

* bushings (``ChLoadBodyBodyBushingGeneric``, ``static --elastic --nonlinear``): the largest difference of the hinge
  forces (and moments over the size) over the largest hinge force, at loads scaled by 1e-3, 1 and 1e3;
* stiff ``ChLinkTSDA`` springs: a door hinge as three springs (along x, y, z, rest length 0.1) at each end,
  stiffness k = k_t l / 2 each, which is the linear theory's K_t = k_t l and K_r = k_t l^3 / 4 (k_r = k_t l^2 / 4
  per metre); the largest difference of the panel vertices' displacements over the largest, with ``IsStiff(true)``
  (their stiffness in Newton's matrix; without it the matrix is singular, Chrono's LU fails and the
  answer is wrong: a difference of 1, with no error raised).

Structures: a clamped strip of three panels (M = 0, S = 4), an all-door 3 x 4 Miura-ori sheet on the proposed
support with its mechanism stopped (M = 0, S = 20) and, for the bushings, the 2 x 3 sheet with its mechanism free
(M = 1: crease springs of 1 N m/rad per m beside hinges of 1e8 N/m).

    python3 benchmarks/chrono_compliant_hinges.py
"""
from dataclasses import replace

import numpy as np

from common import program_threads

program_threads()

import chrono_origami as co  # noqa: E402
from chrono_origami.analysis.support import mechanism_stops, propose_support  # noqa: E402
from chrono_origami.crease.pattern import CreasePattern  # noqa: E402
from chrono_origami.engines.reference.count import count  # noqa: E402
from chrono_origami.patterns.miura import miura_patch  # noqa: E402
from chrono_origami.structure.structure import Load, Structure, Support  # noqa: E402
from chrono_origami.structure.tolerance import HingeStiffness  # noqa: E402


def strip():
    X = [(x, y, 0.0) for y in (0, 1) for x in (0, 1, 2, 3)]
    pat = CreasePattern(X, [(0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6)])
    sup = (Support(0, 0, "xyz"), Support(4, 0, "xz"), Support(1, 0, "z"),
           Support(3, 2, "xyz"), Support(7, 2, "xz"), Support(2, 2, "z"))
    return Structure(pat, supports=sup, loads=(Load(5, (0.3, 0.2, -1.0), 1), Load(6, (0.0, 0.5, 0.0), 1)),
                     name="clamped strip (M = 0, S = 4)")


def sheet(rows, cols, stop):
    s = propose_support(miura_patch(rows, cols)).structure
    if stop:
        s = s.with_supports(*mechanism_stops(s, count(s, linalg="dense")))
    pat = s.pattern
    mid = int(np.argmin(np.linalg.norm(pat.vertices - pat.vertices.mean(axis=0), axis=1)))
    c = count(s, linalg="dense")
    return replace(s, loads=(Load(mid, (0.1, 0.2, -1.0), pat.vertex_panels[mid][0]),),
                   name=f"Miura sheet {rows} x {cols} (M = {c.M}, S = {c.S})")


def scaled(st, factor):
    return replace(st, loads=tuple(replace(ld, force=tuple(factor * np.asarray(ld.force))) for ld in st.loads))


def force_difference(a, b):
    """Largest difference of hinge forces (moments over the size) over the largest hinge force of ``a``."""
    L = a.structure.pattern.size
    big = max(np.abs(x.force).max() for x in a.hinge_actions)
    dF = max(np.abs(x.force - y.force).max() for x, y in zip(a.hinge_actions, b.hinge_actions))
    dM = max(np.abs(x.moment - y.moment).max() for x, y in zip(a.hinge_actions, b.hinge_actions)) / L
    return max(dF, dM) / big


def tsda(st, kt=1e8, offset=0.1, stiff=True):
    """Largest displacement difference (over the largest) of TSDA hinges in Newton against the linear theory, and
    the largest displacement over the size."""
    import pychrono as chrono

    from chrono_origami.engines.chrono.static import static_analysis
    from chrono_origami.engines.chrono.system import build_system

    pat = st.pattern
    X = pat.vertices
    built = build_system(st, visual=False, hinges=False)
    lengths = set()
    for h in pat.hinges:
        p, q = h.panels
        a, b = X[h.vertices[0]], X[h.vertices[1]]
        lengths.add(round(float(np.linalg.norm(b - a)), 12))
        for P in (a, b):
            for e in np.eye(3):
                s = chrono.ChLinkTSDA()
                s.Initialize(built.bodies[p], built.bodies[q], False, chrono.ChVector3d(*(P + offset * e)),
                             chrono.ChVector3d(*P))
                s.SetRestLength(offset)
                s.SetSpringCoefficient(kt * np.linalg.norm(b - a) / 2)
                s.IsStiff(stiff)
                built.system.AddLink(s)
    assert lengths == {1.0}, "k_r = k_t l^2 / 4 per metre needs hinges of one length (1 here)"
    static_analysis(built.system, "nonlinear", "sparse_lu", 60, True, list(built.supports) or None, length=pat.size)
    d = np.concatenate([np.array([built.material_point(p, x) for x in X[list(loop)]]) - X[list(loop)]
                        for p, loop in enumerate(pat.panels)])
    ref = co.static(st, engine="reference", elastic=True, stiffness=HingeStiffness(kt, kt / 4), sensitivity=False)
    big = np.abs(ref.displacements).max()
    return np.abs(d - ref.displacements).max() / big, np.linalg.norm(ref.displacements, axis=1).max() / pat.size


def main():
    print("bushings (static --elastic --nonlinear) against the linear theory, default stiffness:")
    print(f"  {'structure':36s} {'load x':>7s} {'displacement/size':>18s} {'force difference':>17s}")
    cases = [(strip(), (1e-3, 1.0, 1e3)), (sheet(3, 4, True), (1e-3, 1.0, 1e3)),
             (sheet(2, 3, False), (1.6e-4, 1e-3, 1e-2))]
    for st, factors in cases:
        for f in factors:
            s = scaled(st, f)
            lin = co.static(s, engine="reference", elastic=True, sensitivity=False)
            non = co.static(s, engine="chrono", elastic=True, nonlinear=True, sensitivity=False)
            print(f"  {st.name:36s} {f:7.2g} {lin.info['displacement_relative']:18.3g} "
                  f"{force_difference(lin, non):17.3g}", flush=True)
    print("ChLinkTSDA door hinges (6 springs each, k_t 1e8 N/m per m, k_r = k_t / 4) against the linear theory:")
    print(f"  {'structure':36s} {'load x':>7s} {'displacement/size':>18s} {'displacement difference':>24s}")
    for st in (strip(), sheet(3, 4, True)):
        for f in (1.0, 1e3):
            err, rel = tsda(scaled(st, f))
            print(f"  {st.name:36s} {f:7.2g} {rel:18.3g} {err:24.3g}", flush=True)
    err, rel = tsda(strip(), stiff=False)
    print(f"  {'clamped strip, without IsStiff(true)':36s} {1.0:7.2g} {rel:18.3g} {err:24.3g}  (Chrono's LU "
          f"fails; no error is raised)")


if __name__ == "__main__":
    main()
