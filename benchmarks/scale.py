"""Benchmark (not a test): assembly, counting and statics from 100 to 10,000 panels (10^5 with --huge), both engines.

Families (each size in its own process, so its peak memory is its own):

* ``miura-door``: all-door unsupported Miura-ori patch n x n
  (``patterns.miura.miura_patch``): M = 1, S = (n - 1)(3n - 1) ... counted only;
* ``miura-iso``: the supported isostatic variant, the paper's cantilever strip
  (``patterns.miura.miura_cantilever``) with 2 x columns panels: counted and solved;
* ``kresling``: the supported two-kind Kresling tower (``patterns.kresling.kresling_tower``,
  door module 1, all other hinges sliding), 6 panels a module: counted and solved;
* flat patterns as users draw them, all door hinges, unsupported, counted only
  (closed forms in ``tests/test_flat_patterns.py``): ``box-pleat`` n x n
  (``patterns.tessellations.box_pleat``, Origami Simulator's BoxPleatTessellation
  at n = 75: M = 2(n - 1), S = 4(n - 1)^2), ``miura-flat`` (the Miura-ori patch at
  fold angle 0: the same counts), ``square-twist`` (n x n twists, (2n - 1)^2 panels:
  M = 4(n - 1)) and ``yoshimura`` (the flat Yoshimura wedge, triangles: M = V - 3,
  about P / 2; up to 3,782 panels, M = 2,011).

Columns: panels P; ``build`` the structure (pattern and validation); ``assemble``
the reference operator; ``count`` M and S (``linalg`` auto: dense SVD up to
``linalg.DENSE_LIMIT`` columns, else the sparse QR path; ``kept`` the
smallest kept singular value relative to the largest); ``static``
the hinge actions; the Chrono engine's ``ch.build`` (``build_system``),
``ch.count`` (from Chrono's Cq) and ``ch.static`` (DoStaticAnalysis with a
direct sparse solver, residuals checked); peak resident memory of the process.
Then the exponent b of time ~ P^b fitted by least squares on log-log over
the sizes from 1,000 panels up, and the dense/sparse crossover of the count:
``count`` with ``linalg="dense"`` and ``"sparse"`` (best of three) on small
folded, tower and flat structures, the number of columns from which the sparse
path is faster, against ``linalg.DENSE_LIMIT``.

``--targets``: Origami Simulator's 75 x 75 ``BoxPleatTessellation.fold`` counted
(``count`` in Python; ``chrono-origami count`` on both engines, with
``--facets crease`` and as the file means it), the flat Yoshimura wedge with
M = 2,011 and the flat 1 x 2,001 Miura-ori chain (``miura-chain``, M = 2,000),
and the 10,000-panel strip built, counted and solved on the Chrono engine.

``--count-cost``: the count of the 10,000-panel Miura-ori patch (``miura-door``, folded) and of the flat one
(``miura-flat``) against one Q-less SuiteSparseQR factorisation of the same operator (its tall orientation,
METIS, no regularisation), in the same process, twice each: wall and processor time, their ratio; beside it
the factorisation of [C; delta I] (every column regularised, what the count made before it regularised only the
root separators) and that of C in the count's own order (METIS on the graph of the bodies, then fixed); and
where the count's time goes (sigma_max, the split into blocks, the METIS order, SuiteSparseQR, the triangular
factor, the block null-space method, the Lanczos rounds, the smallest kept singular value, the rest).

``--huge``: the reference engine at 3 x 10^4 and 10^5 panels (the patch and the
box pleat counted, the strip counted and solved), one case at a time, with
wall time and peak memory.

    python3 benchmarks/scale.py                       # both engines, up to 10,000 panels, and the crossover
    python3 benchmarks/scale.py --max-panels 3000 --engines reference --families box-pleat,yoshimura
    python3 benchmarks/scale.py --huge                # 3 x 10^4 and 10^5 panels (up to 16 GB)
    python3 benchmarks/scale.py --crossover           # only the dense/sparse crossover
    python3 benchmarks/scale.py --targets             # the other scale targets (75 x 75 box pleat, 2,000 M)
    python3 benchmarks/scale.py --count-cost          # the count against one factorisation, 10^4 panels
"""
import argparse
import json
import subprocess
import sys
import time

from common import fit_exponent, peak_MB, program_threads

program_threads()   # the program's own choice of BLAS threads (--blas all: one per core)

SIZES = (100, 300, 1000, 3000, 10000)
HUGE = (30000, 100000)
FAMILIES = ("miura-door", "miura-iso", "kresling", "box-pleat", "miura-flat", "square-twist", "yoshimura")
COUNTED_ONLY = {"miura-door", "box-pleat", "miura-flat", "square-twist", "yoshimura", "miura-chain"}
#: sizes of a family that differ from SIZES (the flat wedge: about P / 2 mechanisms; 2,011 at 3,782 panels)
FAMILY_SIZES = {"yoshimura": (100, 300, 1000, 3782)}
HUGE_FAMILIES = ("miura-door", "miura-iso", "box-pleat")
ENGINES = ("reference", "chrono")
#: the crossover: (family, panels) counted both ways
CROSSOVER = {"miura-door": (4, 9, 16, 25, 36, 64, 100, 144, 225),
             "kresling": (6, 12, 24, 36, 60, 96, 150, 240),
             "box-pleat": (4, 9, 16, 25, 36, 64, 100, 144, 225)}


def make(family, panels):
    """The structure of ``family`` nearest to ``panels`` panels."""
    from chrono_origami.patterns import kresling, miura, tessellations, yoshimura

    n = max(2, round(panels ** 0.5))
    if family == "miura-door":
        return miura.miura_patch(n, n)
    if family == "miura-iso":
        return miura.miura_cantilever(columns=max(1, round(panels / 2)))
    if family == "kresling":
        return kresling.kresling_tower(max(1, round(panels / 6)), door_module=1)
    if family == "box-pleat":
        return tessellations.box_pleat(n)
    if family == "miura-flat":
        return miura.miura_patch(n, n, fold_angle_deg=0.0)
    if family == "square-twist":
        return tessellations.square_twist_tessellation(max(2, round((panels ** 0.5 + 1) / 2)))
    if family == "miura-chain":
        from chrono_origami.structure.structure import Structure

        return Structure(miura.miura_pattern(1, panels, fold_angle_deg=0.0), name=f"flat 1 x {panels} Miura-ori chain")
    if family == "yoshimura":
        k = max(2, round(panels ** 0.5))
        return yoshimura.wedge_structure(yoshimura.wedge_pattern(k), k, kind="door", supported=False, loaded=False)
    raise ValueError(f"unknown family {family!r}; expected one of {FAMILIES}")


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def one(family, panels, engine):
    """Run one case in this process; print one JSON line."""
    from chrono_origami.engines.reference import count as counting, static as statics
    from chrono_origami.engines.reference.model import assemble

    t0 = time.perf_counter()
    row = dict(family=family, engine=engine)
    st, row["build"] = _timed(lambda: make(family, panels))
    row["P"] = st.pattern.n_panels
    solve = family not in COUNTED_ONLY
    if engine == "reference":
        model, row["assemble"] = _timed(lambda: assemble(st))
        c, row["count"] = _timed(lambda: counting.count(st, model=model))
        if solve and c.isostatic:
            _, row["static"] = _timed(lambda: statics.solve(st, counts=c))
    else:
        from chrono_origami.engines.chrono import static as ca
        from chrono_origami.engines.chrono.system import build_system

        built, row["ch.build"] = _timed(lambda: build_system(st, visual=False, anchor=not st.supports))
        c, row["ch.count"] = _timed(lambda: ca.count(st, built=built))
        if solve and c.isostatic:
            _, row["ch.static"] = _timed(lambda: ca.static(st, built=built, solver="sparse_lu"))
    row.update(M=c.M, S=c.S, linalg=c.linalg, kept=float(c.gap[0]), total=time.perf_counter() - t0,
               peak_MB=peak_MB())
    print(json.dumps(row))


def crossover_one(family):
    """Dense and sparse count times (best of three) of ``family`` at the CROSSOVER sizes; one JSON line each."""
    from chrono_origami.engines.reference import count as counting
    from chrono_origami.engines.reference.model import assemble

    for panels in CROSSOVER[family]:
        st = make(family, panels)
        model = assemble(st)
        row = dict(family=family, P=st.pattern.n_panels, columns=model.Cs.shape[1], rows=model.Cs.shape[0])
        for path in ("dense", "sparse"):
            times = []
            for _ in range(3):
                c, t = _timed(lambda: counting.count(st, model=model, linalg=path))
                times.append(t)
            row[path] = min(times)
            row[f"MS_{path}"] = (c.M, c.S)
        print(json.dumps(row), flush=True)


def _run(args):
    r = subprocess.run([sys.executable, __file__] + args, capture_output=True, text=True)
    if r.returncode:
        return None, (r.stderr.strip().splitlines() or ["(no message)"])[-1]
    return [json.loads(line) for line in r.stdout.strip().splitlines() if line.startswith("{")], None


def table(families, sizes_of, engines, cols):
    rows = []
    print(" ".join(f"{c:>10}" for c in cols))
    for family in families:
        for size in sizes_of(family):
            for engine in engines:
                out, err = _run(["--one", family, str(size), engine])
                if err:
                    print(f"{family} {size} {engine}: failed: {err}", flush=True)
                    continue
                row = out[-1]
                rows.append(row)
                cells = []
                for c in cols:
                    v = row.get(c, "")
                    cells.append(f"{v:>10.3g}" if isinstance(v, float) else f"{v!s:>10}")
                print(" ".join(cells), flush=True)
    return rows


def crossover():
    from chrono_origami.tools import linalg

    print("\ndense/sparse crossover of the count (best of three, seconds):")
    print(f"{'family':>10} {'P':>6} {'columns':>8} {'dense':>8} {'sparse':>8}  faster")
    firsts = {}
    for family in CROSSOVER:
        out, err = _run(["--crossover-one", family])
        if err:
            print(f"{family}: failed: {err}")
            continue
        for r in out:
            assert r["MS_dense"] == r["MS_sparse"], r
            faster = "sparse" if r["sparse"] < r["dense"] else "dense"
            print(f"{family:>10} {r['P']:>6} {r['columns']:>8} {r['dense']:>8.4f} {r['sparse']:>8.4f}  {faster}",
                  flush=True)
        # the crossover: the fewest columns from which sparse stays faster
        first = None
        for r in out:
            if r["sparse"] < r["dense"]:
                first = r["columns"] if first is None else first
            else:
                first = None
        firsts[family] = first
    print("sparse faster from: " + ", ".join(f"{f} {c} columns" for f, c in firsts.items()))
    known = [c for c in firsts.values() if c]
    if known:
        print(f"crossover (smallest of the families): {min(known)} columns; linalg.DENSE_LIMIT = "
              f"{linalg.DENSE_LIMIT}")


#: the count-cost cases: (family, panels)
COUNT_COST = (("miura-door", 10000), ("miura-flat", 10000))
#: the parts of the count timed by --count-cost: (label, module attribute of tools.sparseqr, or "metis" / "qr" (the
#: C interface's) / "triangular")
COUNT_PARTS = (("sigma_max", "largest_singular_value"), ("split", "blocks"), ("METIS order", "metis"),
               ("SuiteSparseQR", "qr"),
               ("triangular", "triangular"), ("block null", "_block_null"), ("Lanczos", "_lanczos"),
               ("smallest kept", "_smallest_kept"))


def _clock():
    return time.perf_counter(), time.process_time()


def count_cost_one(family, panels):
    """The count of ``family`` against one Q-less factorisation of its operator, twice, in this process; one JSON
    line per run (seconds: wall and processor time)."""
    import numpy as np
    import scipy.sparse as sp

    from chrono_origami.engines.reference import count as counting
    from chrono_origami.engines.reference.model import assemble
    from chrono_origami.tools import sparseqr
    from chrono_origami.tools.suitesparse import suitesparse

    lib = suitesparse()
    st = make(family, panels)
    model = assemble(st)
    C = sp.csc_matrix(model.Cs)
    B = C if C.shape[0] >= C.shape[1] else sp.csc_matrix(C.T)
    spent = {}

    def timed(key, fn):
        def wrapper(*a, **k):
            t0, c0 = _clock()
            try:
                return fn(*a, **k)
            finally:
                t1, c1 = _clock()
                w = spent.setdefault(key, [0.0, 0.0])
                w[0] += t1 - t0
                w[1] += c1 - c0
        return wrapper

    plain_qr, plain_metis = lib.qr, lib.metis
    for _, name in COUNT_PARTS:
        if name in ("qr", "metis"):
            setattr(lib, name, timed(name, getattr(lib, name)))
        elif name == "triangular":
            init = sparseqr.Triangular.__init__
            sparseqr.Triangular.__init__ = timed(name, init)
        else:
            setattr(sparseqr, name, timed(name, getattr(sparseqr, name)))
    smax = sparseqr.largest_singular_value(C)
    delta = sparseqr.DELTA_FACTOR * counting.RANK_RTOL * smax
    for run in (1, 2):
        row = dict(family=family, P=st.pattern.n_panels, shape=list(C.shape), run=run)
        t0, c0 = _clock()
        _, R, _, stats = plain_qr(B, -1.0)
        t1, c1 = _clock()
        row.update(qr=t1 - t0, qr_cpu=c1 - c0, nnz_R=int(R.nnz), qr_flops=stats.get("flops"))
        del R
        Breg = sp.vstack([B, delta * sp.identity(B.shape[1], format="csc")], format="csc")
        t0, c0 = _clock()
        _, R, _, stats = plain_qr(Breg, -1.0)
        t1, c1 = _clock()
        row.update(qr_reg=t1 - t0, qr_reg_cpu=c1 - c0, qr_reg_flops=stats.get("flops"))
        del R, Breg
        # C alone in the count's order: METIS on the graph of the bodies (6 columns each), then that order fixed
        t0, c0 = _clock()
        order = plain_metis(B, np.arange(B.shape[1]) // 6)
        _, R, _, stats = plain_qr(sp.csc_matrix(B[:, order]), -1.0, ordering="FIXED")
        t1, c1 = _clock()
        row.update(qr_bodies=t1 - t0, qr_bodies_cpu=c1 - c0, qr_bodies_flops=stats.get("flops"))
        del R
        spent.clear()
        t0, c0 = _clock()
        c = counting.count(st, model=model, linalg="sparse")
        t1, c1 = _clock()
        row.update(count=t1 - t0, count_cpu=c1 - c0, M=c.M, S=c.S, kept=float(c.gap[0]),
                   parts={k: spent.get(name, [0.0, 0.0]) for k, name in COUNT_PARTS})
        row["parts"]["rest"] = [row["count"] - sum(w for w, _ in row["parts"].values()),
                                row["count_cpu"] - sum(p for _, p in row["parts"].values())]
        print(json.dumps(row), flush=True)
    assert np.isfinite(row["count"])


def count_cost():
    """The count against one Q-less factorisation of the same operator (``--count-cost``)."""
    print("the count against one Q-less SuiteSparseQR factorisation of its operator C (tall orientation, METIS), "
          "same process; seconds, wall (processor):")
    for family, panels in COUNT_COST:
        out, err = _run(["--count-cost-one", family, str(panels)])
        if err:
            print(f"  {family} {panels}: failed: {err}", flush=True)
            continue
        for r in out:
            print(f"  {r['family']} P = {r['P']:,} ({r['shape'][0]:,} x {r['shape'][1]:,}), run {r['run']}: "
                  f"M = {r['M']:,}, S = {r['S']:,}; count {r['count']:.2f} ({r['count_cpu']:.2f}); "
                  f"one factorisation of C {r['qr']:.2f} ({r['qr_cpu']:.2f}), R {r['nnz_R']:,} entries; "
                  f"ratio {r['count'] / r['qr']:.2f} ({r['count_cpu'] / r['qr_cpu']:.2f}); "
                  f"of [C; delta I] {r['qr_reg']:.2f} ({r['qr_reg_cpu']:.2f}), ratio "
                  f"{r['count'] / r['qr_reg']:.2f} ({r['count_cpu'] / r['qr_reg_cpu']:.2f}); of C in the count's "
                  f"order (METIS on the bodies) {r['qr_bodies']:.2f} ({r['qr_bodies_cpu']:.2f}), ratio "
                  f"{r['count'] / r['qr_bodies']:.2f} ({r['count_cpu'] / r['qr_bodies_cpu']:.2f})", flush=True)
            print("      count: " + ", ".join(f"{k} {w:.2f} ({c:.2f})" for k, (w, c) in r["parts"].items()),
                  flush=True)


def _command_count(path, engine, extra=()):
    """Wall time of ``chrono-origami count PATH --engine ENGINE`` (a fresh process, imports included) and its
    "M = .., S = .." line."""
    import os

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "chrono_origami", "count", path, "--engine", engine, *extra],
                       capture_output=True, text=True, env=env)
    t = time.perf_counter() - t0
    if r.returncode:
        return t, "failed: " + (r.stderr.strip().splitlines() or ["(no message)"])[-1]
    line = next((x for x in r.stdout.splitlines() if x.startswith("M = ")), "(no count line)")
    return t, line.split(";")[0]


def targets():
    """The scale targets that are not in the --huge run: Origami Simulator's 75 x 75 box pleat counted (in Python
    and from the command, both engines), the flat patterns with 2,000 mechanisms, the 10,000-panel strip on the
    Chrono engine."""
    import importlib.util
    import os
    import tempfile

    print("scale targets (seconds):")
    for family, panels, engine, keys in (("box-pleat", 5625, "reference", ("assemble", "count")),
                                         ("yoshimura", 3782, "reference", ("assemble", "count")),
                                         ("miura-chain", 2001, "reference", ("assemble", "count")),
                                         ("miura-iso", 10000, "chrono", ("ch.build", "ch.count", "ch.static"))):
        out, err = _run(["--one", family, str(panels), engine])
        if err:
            print(f"  {family} {panels} {engine}: failed: {err}", flush=True)
            continue
        r = out[-1]
        times = ", ".join(f"{k} {r[k]:.3g}" for k in keys if k in r)
        print(f"  {family} P = {r['P']:,} ({engine}): M = {r['M']:,}, S = {r['S']:,}; {times}; "
              f"peak {r['peak_MB']:,.0f} MB", flush=True)
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("styles", os.path.join(here, "..", "tests", "styles.py"))
    styles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(styles)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "BoxPleatTessellation.fold")
        with open(path, "w") as f:
            json.dump(styles.box_pleat_simulator(75), f)
        for extra, what in ((("--facets", "crease"), "every line a crease, 5,625 quads"),
                            ((), "as Origami Simulator means it, its F lines facets")):
            for engine in ("reference", "chrono"):
                t, line = _command_count(path, engine, extra)
                print(f"  count BoxPleatTessellation.fold {' '.join(extra)} --engine {engine} ({what}): "
                      f"{t:.2f} s, {line}", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-panels", type=int, default=10000)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--huge", action="store_true", help="3 x 10^4 and 10^5 panels, reference engine")
    ap.add_argument("--crossover", action="store_true", help="only the dense/sparse crossover")
    ap.add_argument("--targets", action="store_true", help="the scale targets outside --huge")
    ap.add_argument("--count-cost", action="store_true",
                    help="the count of 10^4 panels against one factorisation of its operator")
    ap.add_argument("--count-cost-one", nargs=2, metavar=("FAMILY", "PANELS"), help=argparse.SUPPRESS)
    ap.add_argument("--one", nargs=3, metavar=("FAMILY", "PANELS", "ENGINE"), help=argparse.SUPPRESS)
    ap.add_argument("--crossover-one", metavar="FAMILY", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        one(args.one[0], int(args.one[1]), args.one[2])
        return 0
    if args.crossover_one:
        crossover_one(args.crossover_one)
        return 0
    if args.crossover:
        crossover()
        return 0
    if args.targets:
        targets()
        return 0
    if args.count_cost_one:
        count_cost_one(args.count_cost_one[0], int(args.count_cost_one[1]))
        return 0
    if args.count_cost:
        count_cost()
        return 0
    families = [f for f in args.families.split(",") if f]
    if args.huge:
        cols = ("family", "P", "M", "S", "linalg", "build", "assemble", "count", "static", "total", "peak_MB")
        table([f for f in families if f in HUGE_FAMILIES], lambda f: HUGE, ["reference"], cols)
        return 0
    engines = [e for e in args.engines.split(",") if e]
    cols = ("family", "P", "M", "S", "linalg", "kept", "build", "assemble", "count", "static",
            "ch.build", "ch.count", "ch.static", "peak_MB")
    rows = table(families, lambda f: [s for s in FAMILY_SIZES.get(f, SIZES) if s <= args.max_panels], engines, cols)
    print("\nexponent b of time ~ P^b, sizes from 1,000 panels:")
    for family in families:
        for key in ("assemble", "count", "static", "ch.build", "ch.count", "ch.static"):
            b = fit_exponent([(r["P"], r.get(key)) for r in rows if r["family"] == family and r["P"] >= 1000])
            if b is not None:
                print(f"  {family:>12} {key:>10}: {b:.2f}")
    crossover()
    return 0


if __name__ == "__main__":
    sys.exit(main())
