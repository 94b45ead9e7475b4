"""Benchmark (asserts as a test does): the large counts moved out of the test suite, at their full size.

* ``wedge``: the flat Yoshimura wedge of ``n`` sectors (``patterns.yoshimura.wedge_pattern``, default n = 61:
  3,782 panels, M = 2,011), all door hinges, unsupported: M = V - 3, S = 5 H - (6 P - V - 3) on the sparse path,
  the smallest kept singular value relative to the largest above 1e-3, the largest dropped one at most 1e-9 (the
  dense rank rule). The scale target "flat patterns with 2,000 mechanisms: counted right, no limit"
  (docs/scale.md); ``tests/test_flat_patterns.py`` keeps the flat 1 x 2,001 Miura-ori chain (M = 2,000) and the
  wedge with 590 mechanisms.
* ``patch``: the all-door folded Miura-ori patch n x n (``patterns.miura.miura_patch``, default 100 x 100: 60,000
  unknowns, 99,000 constraints): M = 1, S = 4 n^2 - 10 n + 7 (= 5 H - 6 P + 7), kept gap above 1e-4, the
  mechanism (6P x 1, on demand) in the null space to 1e-12, the self-stress basis never formed (a one-line
  SolverError), one self-stress sample in the left null space to 1e-10. ``tests/test_sparse.py`` asserts the same
  at 40 x 40.

Prints sizes, counts, gap, count time and peak memory.

    PYTHONPATH=. python3 benchmarks/large_counts.py [wedge N ...] [patch N ...]   (default: wedge 61 patch 100)
"""
import sys
import time

import numpy as np

from common import peak_MB, program_threads

HEADER = f"{'case':>12} {'panels':>7} {'M':>6} {'S':>7} {'kept':>8} {'dropped':>9} {'count s':>8} {'peak MB':>8}"


def _line(name, P, c, took):
    print(f"{name:>12} {P:>7} {c.M:>6} {c.S:>7} {c.gap[0]:>8.3g} {c.gap[1]:>9.2g} {took:>8.2f} {peak_MB():>8.0f}")


def wedge(n):
    from chrono_origami.engines.reference import count as counting
    from chrono_origami.patterns import yoshimura

    s = yoshimura.wedge_structure(yoshimura.wedge_pattern(n), n, kind="door", supported=False, loaded=False)
    pat = s.pattern
    V, P, H = pat.n_vertices, pat.n_panels, len(pat.hinges)
    t0 = time.perf_counter()
    c = counting.count(s)
    took = time.perf_counter() - t0
    assert c.linalg == "sparse", c.linalg
    assert (c.M, c.S) == (V - 3, 5 * H - (6 * P - V - 3)), (c.M, c.S)
    assert c.gap[1] <= 1e-9 and c.gap[0] > 1e-3, c.gap
    _line(f"wedge {n}", P, c, took)


def patch(n):
    import pytest

    from chrono_origami.engines.reference import count as counting
    from chrono_origami.patterns import miura
    from chrono_origami.tools.errors import SolverError

    s = miura.miura_patch(n, n)
    t0 = time.perf_counter()
    c = counting.count(s)
    took = time.perf_counter() - t0
    assert c.linalg == "sparse"
    assert (c.M, c.S) == (1, 4 * n * n - 10 * n + 7), (c.M, c.S)
    assert c.n_dof == 6 * n * n and c.n_constraints == 10 * n * (n - 1)
    assert c.gap[0] > 1e-4 and c.gap[1] < 1e-9, c.gap
    mech = c.mechanisms
    assert mech.shape == (6 * n * n, 1) and np.abs(c.model.Cs @ mech).max() < 1e-12
    with pytest.raises(SolverError, match="self_stress_sample"):
        c.self_stresses
    z = c.self_stress_sample()
    assert np.abs(c.model.Cs.T @ z).max() < 1e-10
    _line(f"patch {n}x{n}", n * n, c, took)


def main(argv):
    cases = list(zip(argv[::2], map(int, argv[1::2]))) or [("wedge", 61), ("patch", 100)]
    print(HEADER)
    for kind, n in cases:
        {"wedge": wedge, "patch": patch}[kind](n)


if __name__ == "__main__":
    program_threads()
    main(sys.argv[1:])
