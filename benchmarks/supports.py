"""Benchmark: supports and loads on large flat Miura-ori sheets (1,000 to 100,000 panels).

Prints wall times; it is not a test. Per size, on a flat n x n sheet of door
hinges (``miura_patch(n, n, 60, 0)``):

* ``propose``: the support proposal (``support_proposal.propose_support``:
  6-vectors of candidate rows only, no whole-structure operator);
* ``select``: the selectors ``min-y`` (a row), ``corner(-x-y)`` and
  ``box(...)`` of the lower-left quarter;
* ``with``: ``Structure.with_supports("min-y:z")`` and
  ``.with_loads("max-y:0,0,-1")`` (parse, select, validate);
* ``count``: M and S of the proposed structure on the sparse path, up to
  ``--count-limit`` panels (the flat sheet has M = 2 (n - 1) mechanisms, all
  in the out-of-plane block of its operator: ``tools/sparseqr.py``).

Target: the proposal and the selections under 1 s at 100,000 panels, growing
linearly (exponent b of time ~ P^b near 1).

    python3 benchmarks/supports.py
    python3 benchmarks/supports.py --sizes 32,100 --count-limit 10000
"""
import argparse
import time

from common import fit_exponent, peak_MB, program_threads

from chrono_origami.analysis import static as analysis
from chrono_origami.patterns import miura
from chrono_origami.analysis.support import propose_support

program_threads()   # the program's own choice of BLAS threads (--blas all: one per core)

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--sizes", default="32,100,316", help="n of the n x n sheets (default 32,100,316: 1,024 to 99,856 "
                                                      "panels)")
ap.add_argument("--count-limit", type=int, default=10_000, help="count the proposed sheet up to this many panels")
args = ap.parse_args()


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


print(f"{'P':>7}  {'propose':>8}  {'select':>8}  {'with':>8}  {'count':>8}  {'M':>4}  {'S':>6}  {'peak MB':>8}")
points = []
for n in (int(x) for x in args.sizes.split(",")):
    s = miura.miura_patch(n, n, 60.0, 0.0)
    P = s.pattern.n_panels
    prop, t_prop = timed(lambda: propose_support(s))
    X = s.pattern.vertices
    lo, hi = X.min(0), X.max(0)
    mid = 0.5 * (lo + hi)
    box = f"box({lo[0]},{lo[1]},{lo[2]},{mid[0]},{mid[1]},{hi[2]})"
    _, t_sel = timed(lambda: [s.select(t) for t in ("min-y", "corner(-x-y)", box)])
    _, t_with = timed(lambda: s.with_supports("min-y:z").with_loads("max-y:0,0,-1"))
    c, t_count = (None, None)
    if P <= args.count_limit:
        c, t_count = timed(lambda: analysis.count(prop.structure, "reference"))
    points.append((P, t_prop + t_sel + t_with))
    cnt = f"{t_count:8.3g}" if t_count is not None else f"{'-':>8}"
    M = f"{c.M:>4}" if c else f"{'-':>4}"
    S = f"{c.S:>6}" if c else f"{'-':>6}"
    print(f"{P:>7}  {t_prop:8.3g}  {t_sel:8.3g}  {t_with:8.3g}  {cnt}  {M}  {S}  {peak_MB():8.0f}")
b = fit_exponent(points)
print(f"time of propose + select + with ~ P^{b:.2f}" if b is not None else "")
