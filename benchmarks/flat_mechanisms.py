"""Benchmark (asserts as a test does): the flat Yoshimura wedge with 2,011 mechanisms counted, the closed forms.

The scale target "flat patterns with 2,000 mechanisms: counted right, no limit" (docs/scale.md) at its full size,
moved out of ``tests/test_flat_patterns.py`` (about 10 s of CPU there; the suite keeps the flat 1 x 2,001 Miura-ori
chain, M = 2,000, and the wedge with 590 mechanisms). The wedge of ``n`` sectors
(``patterns.yoshimura.wedge_pattern``), all door hinges, unsupported: M = V - 3, S = 5 H - (6 P - V - 3), counted
on the sparse path; the smallest kept singular value relative to the largest above 1e-3 and the largest dropped
one at most 1e-9 (the dense rank rule). Prints sizes, counts, gap, time and peak memory.

    PYTHONPATH=. python3 benchmarks/flat_mechanisms.py [n ...]      (default: 61, M = 2,011)
"""
import sys
import time

from common import peak_MB, program_threads


def main(sizes):
    from chrono_origami.engines.reference import count as counting
    from chrono_origami.patterns import yoshimura

    print(f"{'n':>4} {'panels':>7} {'M':>6} {'S':>6} {'kept':>8} {'dropped':>9} {'count s':>8} {'peak MB':>8}")
    for n in sizes:
        s = yoshimura.wedge_structure(yoshimura.wedge_pattern(n), n, kind="door", supported=False, loaded=False)
        pat = s.pattern
        V, P, H = pat.n_vertices, pat.n_panels, len(pat.hinges)
        t0 = time.perf_counter()
        c = counting.count(s)
        took = time.perf_counter() - t0
        assert c.linalg == "sparse", c.linalg
        assert (c.M, c.S) == (V - 3, 5 * H - (6 * P - V - 3)), (c.M, c.S)
        assert c.gap[1] <= 1e-9 and c.gap[0] > 1e-3, c.gap
        print(f"{n:>4} {P:>7} {c.M:>6} {c.S:>6} {c.gap[0]:>8.3g} {c.gap[1]:>9.2g} {took:>8.2f} {peak_MB():>8.0f}")


if __name__ == "__main__":
    program_threads()
    main([int(a) for a in sys.argv[1:]] or [61])
