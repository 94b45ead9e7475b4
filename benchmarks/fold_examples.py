"""Benchmark (not a test): the fold to target angles (``fold FILE --percent P``) on Origami Simulator's example
crease patterns, and on a 1,000-panel flat Miura-ori sheet from 0 to 90 %.

Each file folds at 60 % and 90 % of its targets (``--fix-geometry``: Origami Simulator's coordinates are rounded)
in its own process, through the command line's function (``analysis.fold.fold_to_targets``, reference engine), with
the program's choice of BLAS threads (one). A row: file, percent, wall time (s, reading included), peak memory
(MB), processor time (s) and the outcome (a file not done in ``--timeout`` seconds says so): ``folds`` with the percent reached (the least-squares percent of the targets) and the
largest miss (deg), or the first words of the one-line refusal.

The sheet is ORIPA's export of a rectangular Miura-ori whose sides cut the parallelograms into triangles
(``tests/styles.oripa_miura``: 31 zigzag lines, 32 rows, 1,024 panels, M/V without angles: -180/+180 deg), folded
from flat to 90 % of its targets.

    python3 benchmarks/fold_examples.py                       # the files of tests/data/origami_simulator
    python3 benchmarks/fold_examples.py DIR                   # every crease-pattern file under DIR (.svg, .fold, .cp,
                                                              # .opx; e.g. Origami Simulator's assets)
    python3 benchmarks/fold_examples.py --walk --no-sheet      # and each file that folds: support, design, static
    python3 benchmarks/fold_examples.py --sheet-only
    python3 benchmarks/fold_examples.py --profile             # the sheet's processor time by part
"""
import argparse
import glob
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

from common import peak_MB, program_threads

program_threads()

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "tests", "data", "origami_simulator")


def styles():
    spec = importlib.util.spec_from_file_location("styles", os.path.join(HERE, "..", "tests", "styles.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def one(path, percent):
    """Fold one file in this process; print one JSON line."""
    from chrono_origami.analysis.fold import fold_to_targets
    from chrono_origami.structure import foldfile
    from chrono_origami.tools.errors import OrigamiError

    t0, c0 = time.perf_counter(), time.process_time()
    try:
        s = foldfile.read_structure(path)
        H = fold_to_targets(s, percent=percent, fix_geometry=True, progress=False, engine="reference")
        miss = H.target_miss[0]
        outcome = f"folds: {H.percent_reached:.3g} % reached, largest miss {miss:.3g} deg, {len(H.steps)} steps"
    except OrigamiError as e:
        outcome = "stops: " + str(e).split(": ", 1)[-1][:400]
    print(json.dumps({"time": time.perf_counter() - t0, "cpu": time.process_time() - c0, "peak": peak_MB(),
                      "outcome": outcome}))


def walk_one(path, percent):
    """The walk fold -> support -> design -> static (``tests/walk.py``) on one file in this process; one JSON line."""
    import contextlib
    import io

    from chrono_origami.cli import main as cli

    def run(*argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli([str(a) for a in argv])
            except SystemExit as e:
                code = e.code
        return code or 0, out.getvalue(), err.getvalue()

    spec = importlib.util.spec_from_file_location("walk", os.path.join(HERE, "..", "tests", "walk.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    t0, c0 = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        r = mod.walk(run, path, tmp, percent)
    if r["stage"] == "static" and r["code"] == 0:
        outcome = (f"hinge forces ({'static --elastic: design exits 3' if r['elastic'] else 'isostatic design'}; "
                   f"{' '.join(r['supports'])}): " + " | ".join(r["table"][-1:]))
    else:
        last = [x for x in r["text"].splitlines() if x.startswith("error")] or r["text"].splitlines()[-1:]
        outcome = f"{r['stage']} exits {r['code']}: " + " ".join(last)[:300]
    print(json.dumps({"time": time.perf_counter() - t0, "cpu": time.process_time() - c0, "peak": peak_MB(),
                      "outcome": outcome}))


def sheet(columns=31, rows=32, percent=90.0):
    """Fold the ORIPA Miura sheet in this process; print one JSON line."""
    from chrono_origami.analysis.fold import fold_to_targets
    from chrono_origami.structure import foldfile

    with tempfile.TemporaryDirectory() as tmp:
        path, _ = styles().oripa_miura(os.path.join(tmp, "miura.fold"), columns, rows)
        s = foldfile.read_structure(path)
    base = peak_MB()
    t0, c0 = time.perf_counter(), time.process_time()
    H = fold_to_targets(s, percent=percent, progress=False, engine="reference")
    print(json.dumps({"panels": s.pattern.n_panels, "time": time.perf_counter() - t0, "peak": peak_MB(),
                      "cpu": time.process_time() - c0,
                      "base": base, "steps": len(H.steps), "reached": H.percent_reached, "miss": H.target_miss[0],
                      "residual": H.max_residual}))


def sheet_profile(columns=31, rows=32, percent=90.0):
    """Where the sheet's fold spends its processor time (cProfile on the process clock, its overhead included):
    the sparse QR factorisations (their number; SuiteSparseQR's ordering, analysis and numeric factorisation are one
    call), CHOLMOD's analyses of the normal equations (ordering and symbolic, once a pattern) and numeric Cholesky
    factorisations (their numbers, and the conditioning check's inverse iteration), the solves with them
    (Householder Q^T and triangular R, CHOLMOD's solves, Lanczos' included), the Jacobian assembly, and the rest
    (Python: the flat start's branch, the checks, the state updates). One JSON line."""
    import cProfile
    import pstats

    from chrono_origami.analysis.fold import fold_to_targets
    from chrono_origami.structure import foldfile
    from chrono_origami.tools import sparseqr

    with tempfile.TemporaryDirectory() as tmp:
        path, _ = styles().oripa_miura(os.path.join(tmp, "miura.fold"), columns, rows)
        s = foldfile.read_structure(path)
    from chrono_origami.tools import suitesparse

    made, factor = [0, 0, 0], sparseqr.factor
    analyse, numeric = suitesparse.NormalAnalysis.__init__, suitesparse.NormalAnalysis.factorize

    def counted(*a, **k):
        made[0] += 1
        return factor(*a, **k)

    def counted_analysis(*a, **k):
        made[1] += 1
        return analyse(*a, **k)

    def counted_numeric(*a, **k):
        made[2] += 1
        return numeric(*a, **k)

    sparseqr.factor = counted
    suitesparse.NormalAnalysis.__init__ = counted_analysis
    suitesparse.NormalAnalysis.factorize = counted_numeric
    prof = cProfile.Profile(time.process_time)
    prof.enable()
    H = fold_to_targets(s, percent=percent, progress=False, engine="reference")
    prof.disable()
    stats = pstats.Stats(prof).stats

    def spent(match, own=False):
        return sum(v[2] if own else v[3] for k, v in stats.items() if match(*k))

    total = spent(lambda f, _, name: name == "fold_to_targets" and f.endswith(os.path.join("analysis", "fold.py")))
    parts = {"factorisations": spent(lambda f, _, name: name == "factor" and f.endswith("sparseqr.py")),
             "analyses": spent(lambda f, _, name: name == "counted_analysis"),
             "cholesky": spent(lambda f, _, name: name == "counted_numeric"),
             "check": spent(lambda f, _, name: name == "normal_cholesky") - spent(lambda f, _, name: name in (
                 "counted_numeric", "counted_analysis")),
             "solves": spent(lambda f, _, name: "q_multiply" in name or "gstrs" in name, own=True)
             + spent(lambda f, _, name: name == "solve" and f.endswith("suitesparse.py")),
             "assembly": spent(lambda f, _, name: f.endswith("constraints.py") and name in
                               ("evaluate", "hinge_rate_operator"))
             + spent(lambda f, _, name: f.endswith("_construct.py") and name == "vstack")}
    parts["solves"] -= spent(lambda f, _, name: name == "normal_cholesky") - parts["check"] - parts["cholesky"] \
        - parts["analyses"]     # the check's own solves are counted in "check"
    print(json.dumps({"panels": s.pattern.n_panels, "cpu": total, "factors": made[0], "analysed": made[1],
                      "choleskys": made[2], "steps": len(H.steps),
                      "iterations": sum(x[2] for x in H.steps), **parts, "rest": total - sum(parts.values()),
                      "load": os.getloadavg()[0]}))


def child(*args, timeout=None):
    try:
        out = subprocess.run([sys.executable, __file__, "--one", *map(str, args)], capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"time": timeout, "cpu": float("nan"), "peak": float("nan"), "outcome": f"not done in {timeout:g} s"}
    lines = [x for x in out.stdout.splitlines() if x.startswith("{")]
    if not lines:
        return {"time": float("nan"), "cpu": float("nan"), "peak": float("nan"),
                "outcome": "crashed: " + out.stderr.strip()[-200:]}
    return json.loads(lines[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default=DATA)
    ap.add_argument("--only", help="comma-separated file names (e.g. waterbomb.svg,hypar.svg): only these")
    ap.add_argument("--percents", default="60,90")
    ap.add_argument("--sheet-only", action="store_true")
    ap.add_argument("--no-sheet", action="store_true", help="the files only")
    ap.add_argument("--profile", action="store_true",
                    help="the sheet's processor time by part (factorisations, solves, assembly, the rest), only")
    ap.add_argument("--walk", action="store_true",
                    help="also walk each file that folds at the first percent through support, design and static")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds a file may take (default 300)")
    ap.add_argument("--columns", type=int, default=31,
                    help="zigzag lines of the ORIPA Miura sheet (default 31: with 32 rows, 1,024 panels)")
    ap.add_argument("--rows", type=int, default=32, help="rows of the sheet (default 32; 64 x 63: 4,096 panels, "
                    "100 x 99: 10,000)")
    ap.add_argument("--one", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        if args.one[0] == "sheet":
            return sheet(*map(int, args.one[1:3]))
        if args.one[0] == "profile":
            return sheet_profile(*map(int, args.one[1:3]))
        if args.one[0] == "walk":
            return walk_one(args.one[1], float(args.one[2]))
        return one(args.one[0], float(args.one[1]))
    if args.profile:
        r = child("profile", args.columns, args.rows)
        if "panels" not in r:
            print(f"ORIPA Miura sheet: {r['outcome']}")
            return
        print(f"ORIPA Miura sheet, {r['panels']} panels, flat to 90 %, processor seconds (cProfile's included): "
              f"{r['cpu']:.1f} in all: {r['factors']} sparse QR factorisations {r['factorisations']:.1f}, "
              f"{r['analysed']} normal-equation analyses {r['analyses']:.2f}, {r['choleskys']} Cholesky "
              f"factorisations {r['cholesky']:.1f} (their conditioning checks {r['check']:.1f}), solves "
              f"{r['solves']:.1f}, Jacobian assembly {r['assembly']:.1f}, the rest {r['rest']:.1f}; {r['steps']} steps, "
              f"{r['iterations']} corrector iterations (load {r['load']:.1f})")
        return
    if not args.sheet_only:
        files = sorted(f for f in glob.glob(os.path.join(args.dir, "**", "*"), recursive=True)
                       if os.path.splitext(f)[1].lower() in (".svg", ".fold", ".cp", ".opx"))
        if args.only:
            files = [f for f in files if os.path.basename(f) in args.only.split(",")]
        print(f"{'file':34s} {'%':>4s} {'time s':>7s} {'cpu s':>7s} {'MB':>5s}  outcome")
        for f in files:
            for p in args.percents.split(","):
                r = child(f, p, timeout=args.timeout)
                print(f"{os.path.relpath(f, args.dir):34s} {p:>4s} {r['time']:7.2f} {r['cpu']:7.2f} {r['peak']:5.0f}  "
                      f"{r['outcome']}", flush=True)
                if args.walk and p == args.percents.split(",")[0] and r["outcome"].startswith("folds"):
                    r = child("walk", f, p, timeout=args.timeout)
                    print(f"{'  walk':34s} {p:>4s} {r['time']:7.2f} {r['cpu']:7.2f} {r['peak']:5.0f}  {r['outcome']}",
                          flush=True)
    if args.no_sheet:
        return
    r = child("sheet", args.columns, args.rows)
    if "panels" in r:
        print(f"ORIPA Miura sheet, {r['panels']} panels, flat to 90 %: {r['time']:.1f} s ({r['cpu']:.1f} s of "
              f"processor time), {r['steps']} steps, peak "
              f"{r['peak']:.0f} MB (base {r['base']:.0f} MB), {r['reached']:.3g} % reached, largest miss "
              f"{r['miss']:.3g} deg, constraint residual {r['residual']:.1e}")
    else:
        print(f"ORIPA Miura sheet: {r['outcome']}")


if __name__ == "__main__":
    main()
