"""Benchmark (not a test): assembly, counting and statics from 100 to 10,000 panels, both engines.

Families (each size in its own process, so its peak memory is its own):

* ``miura-door``: all-door unsupported Miura-ori patch n x n
  (``patterns.miura.miura_patch``): M = 1, S = (n - 1)(3n - 1) ... counted only;
* ``miura-iso``: the supported isostatic variant, the paper's cantilever strip
  (``patterns.miura.miura_cantilever``) with 2 x columns panels: counted and solved;
* ``kresling``: the supported two-kind Kresling tower (``patterns.kresling.kresling_tower``,
  door module 1, all other hinges sliding), 6 panels a module: counted and solved.

Columns: panels P; ``build`` the structure (pattern and validation); ``assemble``
the reference operator; ``count`` M and S (``linalg`` auto: dense SVD up to
``linalg.DENSE_LIMIT`` columns, else the sparse QR path; ``kept`` the
smallest kept singular value relative to the largest); ``static``
the hinge actions; the Chrono engine's ``ch.build`` (``build_system``),
``ch.count`` (from Chrono's Cq) and ``ch.static`` (DoStaticAnalysis with a
direct sparse solver, residuals checked); peak resident memory of the process.
Last, the exponent b of time ~ P^b fitted by least squares on log-log over
the sizes from 1,000 panels up.

    python3 benchmarks/scale.py                       # both engines, up to 10,000 panels
    python3 benchmarks/scale.py --max-panels 3000 --engines reference
"""
import argparse
import json
import subprocess
import sys
import time

from common import fit_exponent, peak_MB

SIZES = (100, 300, 1000, 3000, 10000)
FAMILIES = ("miura-door", "miura-iso", "kresling")
ENGINES = ("reference", "chrono")


def make(family, panels):
    """The structure of ``family`` nearest to ``panels`` panels."""
    from chrono_origami.patterns import kresling, miura

    if family == "miura-door":
        n = max(2, round(panels ** 0.5))
        return miura.miura_patch(n, n)
    if family == "miura-iso":
        return miura.miura_cantilever(columns=max(1, round(panels / 2)))
    if family == "kresling":
        return kresling.kresling_tower(max(1, round(panels / 6)), door_module=1)
    raise ValueError(f"unknown family {family!r}; expected one of {FAMILIES}")


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def one(family, panels, engine):
    """Run one case in this process; print one JSON line."""
    from chrono_origami.engines.reference import counting, statics
    from chrono_origami.engines.reference.model import assemble

    row = dict(family=family, engine=engine)
    st, row["build"] = _timed(lambda: make(family, panels))
    row["P"] = st.pattern.n_panels
    solve = family != "miura-door"
    if engine == "reference":
        model, row["assemble"] = _timed(lambda: assemble(st))
        c, row["count"] = _timed(lambda: counting.count(st, model=model))
        if solve and c.isostatic:
            _, row["static"] = _timed(lambda: statics.solve(st, counts=c))
    else:
        from chrono_origami.engines.chrono import statics as ca
        from chrono_origami.engines.chrono.system import build_system

        built, row["ch.build"] = _timed(lambda: build_system(st, visual=False, anchor=not st.supports))
        c, row["ch.count"] = _timed(lambda: ca.count(st, built=built))
        if solve and c.isostatic:
            _, row["ch.static"] = _timed(lambda: ca.static(st, built=built, solver="sparse_lu"))
    row.update(M=c.M, S=c.S, linalg=c.linalg, kept=float(c.gap[0]),
               peak_MB=peak_MB())
    print(json.dumps(row))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-panels", type=int, default=10000)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--one", nargs=3, metavar=("FAMILY", "PANELS", "ENGINE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        one(args.one[0], int(args.one[1]), args.one[2])
        return 0
    engines = [e for e in args.engines.split(",") if e]
    families = [f for f in args.families.split(",") if f]
    rows = []
    cols = ("family", "P", "M", "S", "linalg", "kept", "build", "assemble", "count", "static",
            "ch.build", "ch.count", "ch.static", "peak_MB")
    print(" ".join(f"{c:>10}" for c in cols))
    for family in families:
        for size in SIZES:
            if size > args.max_panels:
                continue
            for engine in engines:
                r = subprocess.run([sys.executable, __file__, "--one", family, str(size), engine],
                                   capture_output=True, text=True)
                if r.returncode:
                    print(f"{family} {size} {engine}: failed: {r.stderr.strip().splitlines()[-1:]}")
                    continue
                row = json.loads(r.stdout.strip().splitlines()[-1])
                rows.append(row)
                cells = []
                for c in cols:
                    v = row.get(c, "")
                    cells.append(f"{v:>10.3g}" if isinstance(v, float) else f"{v!s:>10}")
                print(" ".join(cells), flush=True)
    print("\nexponent b of time ~ P^b, sizes from 1,000 panels:")
    for family in families:
        for key in ("assemble", "count", "static", "ch.build", "ch.count", "ch.static"):
            b = fit_exponent([(r["P"], r.get(key)) for r in rows if r["family"] == family and r["P"] >= 1000])
            if b is not None:
                print(f"  {family:>10} {key:>10}: {b:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
