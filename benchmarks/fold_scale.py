"""Benchmark (not a test): folding Miura-ori patches of 100 to 10,000 panels, dense and sparse linear algebra.

Each case is a square n x n all-door Miura-ori patch (``patterns.miura.miura_patch``,
sector angle 60 deg) folded from 40 to 50 deg (the closed-form fold angle) by
driving its first straight crease, panel 1 held, in ``--steps`` fixed steps
(``folding.fold`` with dt = dt_max = duration / steps), each size and path in
its own process, so its peak memory is its own.

Columns: panels P; unknowns 6P; constraint rows; path (``linalg`` "dense": LAPACK
on the formed Jacobian; "sparse": SuiteSparseQR, ``folding.jacobian``); Newton
iterations per step; ``setup`` (structure, constraints, start check); time
per step (predictor, Newton, sigma ratio of the accepted state); the largest
vertex distance to the closed-form fold at 50 deg after the best rigid
alignment; the smallest sigma ratio; peak resident memory of the process
(``base``: after the imports and the structure, before the fold). Dense runs
only up to ``--dense-max`` panels. Last, the exponent b of time per step ~
P^b fitted on log-log over the sparse sizes from 1,000 panels up, on the wall and on the processor time a step
(``cpu_step``: the process's, which the other programs on the machine do not change).

With ``--from-flat`` each patch starts FLAT and folds to 30 deg on the
branch of the closed form's mountain-valley assignment (``fold(...,
allow_singular_start=True, assignment=...)``; the driven crease's angle is
the closed form's there): ``setup`` then includes choosing the branch out of
the flat start (``folding.start.branch_tangent``), and the error is against
the closed-form fold at 30 deg.

With ``--targets`` each patch starts flat and folds to the closed form's
fold angles at 30 deg on every crease (``folding.fold_to_targets``, the
``fold FILE`` command's fold to a file's target angles): ``setup`` includes
leaving the flat start on the branch nearest the targets.

    python3 benchmarks/fold_scale.py                    # up to 10,000 panels
    python3 benchmarks/fold_scale.py --max-panels 100000 --dense-max 0 --timeout 1800   # 1,000 to 100,000
    python3 benchmarks/fold_scale.py --max-panels 3000 --dense-max 300
    python3 benchmarks/fold_scale.py --from-flat --max-panels 3000 --dense-max 0
    python3 benchmarks/fold_scale.py --targets --max-panels 1000 --dense-max 100
"""
import argparse
import json
import subprocess
import sys
import time

from common import fit_exponent, peak_MB, program_threads

program_threads()   # the program's own choice of BLAS threads (--blas all: one per core)

SIZES = (100, 300, 1000, 3000, 10000, 30000, 100000)


def one(panels, method, steps, from_flat=False, targets=False):
    """Fold one patch in this process (from 40 deg, or from flat); print one JSON line."""
    import numpy as np

    from chrono_origami.inputs.fold import Drive, FoldProblem
    from chrono_origami.engines.reference.fold.newton import fold
    from chrono_origami.tools.geometry import best_rigid_alignment
    from chrono_origami.inputs.fold import assignment_from_vertices, hinge_angle
    from chrono_origami.patterns import miura

    n = max(2, round(panels ** 0.5))
    t0 = time.perf_counter()
    if targets:
        from chrono_origami.analysis.fold import fold_to_targets
        from chrono_origami.structure.foldfile import fold_angles

        st = miura.miura_patch(n, n, fold_angle_deg=0.0)
        T = miura.miura_vertices(n, n, fold_angle_deg=30.0)
        by = dict(zip(st.pattern.edges, np.radians(fold_angles(st.pattern, T))))
        aims = {h.index: by[tuple(sorted(h.vertices))] for h in st.pattern.hinges}
        prob = FoldProblem(st, [Drive(n - 1, angle=hinge_angle(st.pattern, T, n - 1))], (), 1.0)
    elif from_flat:
        st = miura.miura_patch(n, n, fold_angle_deg=0.0)
        T = miura.miura_vertices(n, n, fold_angle_deg=30.0)
        prob = FoldProblem(st, [Drive(n - 1, angle=hinge_angle(st.pattern, T, n - 1))], (), 1.0)
        extra = dict(allow_singular_start=True, assignment=assignment_from_vertices(st.pattern, T))
    else:
        st = miura.miura_patch(n, n, fold_angle_deg=40.0)
        prob = FoldProblem(st, [Drive(n - 1, angle=np.radians(10.0))], (), 1.0)
        T = miura.miura_vertices(n, n, fold_angle_deg=50.0)
        extra = {}
    base = peak_MB()
    log = []
    marks, cpu = [], []
    t1 = time.perf_counter()

    def mark(line):
        marks.append(time.perf_counter())
        cpu.append(time.process_time())
        log.append(line)

    if targets:
        H = fold_to_targets(st, aims, 100.0, frame_interval=1.0, dt=1.0 / steps, dt_max=1.0 / steps, linalg=method,
                            log=mark, progress=False)
    else:
        H = fold(prob, frame_interval=1.0, dt=1.0 / steps, dt_max=1.0 / steps, linalg=method, log=mark,
                 progress=False, **extra)
    t2 = time.perf_counter()
    R, d = best_rigid_alignment(H.final, T)
    err = float(np.linalg.norm(H.final @ R.T + d - T, axis=1).max())
    from chrono_origami.engines.reference.fold.constraints import FoldConstraints

    C = FoldConstraints(prob)
    # setup: from the call to the first accepted step minus that step's share
    per_step = (marks[-1] - marks[0]) / (len(marks) - 1) if len(marks) > 1 else (t2 - t1)
    cpu_step = (cpu[-1] - cpu[0]) / (len(cpu) - 1) if len(cpu) > 1 else float("nan")
    setup = (t1 - t0) + (marks[0] - t1) - per_step
    print(json.dumps(dict(P=st.pattern.n_panels, unknowns=C.n_cols, rows=C.n_rows, path=method,
                          newton=float(np.mean([s[2] for s in H.steps])), setup=setup, per_step=per_step,
                          cpu_step=cpu_step,
                          total=t2 - t0, error=err, ratio=float(min(H.sigma_ratios)), residual=H.max_residual,
                          base_MB=base, peak_MB=peak_MB())))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-panels", type=int, default=10000, help="largest size (of 100 ... 100,000; default 10,000)")
    ap.add_argument("--timeout", type=float, default=None, help="seconds a size may take (default: no limit)")
    ap.add_argument("--dense-max", type=int, default=300, help="largest size folded on the dense path too")
    ap.add_argument("--steps", type=int, default=4, help="fixed steps of the fold (default 4)")
    ap.add_argument("--from-flat", action="store_true", help="start flat, fold to 30 deg on the assigned branch")
    ap.add_argument("--targets", action="store_true", help="start flat, fold every crease to its 30 deg target")
    ap.add_argument("--one", nargs=3, metavar=("PANELS", "PATH", "STEPS"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        one(int(args.one[0]), args.one[1], int(args.one[2]), args.from_flat, args.targets)
        return 0
    cols = ("P", "unknowns", "rows", "path", "newton", "setup", "per_step", "cpu_step", "error", "ratio",
            "residual", "base_MB", "peak_MB")
    print(" ".join(f"{c:>10}" for c in cols))
    rows = []
    for size in SIZES:
        if size > args.max_panels:
            continue
        for method in ("dense", "sparse"):
            if method == "dense" and size > args.dense_max:
                continue
            try:
                r = subprocess.run([sys.executable, __file__, "--one", str(size), method, str(args.steps)]
                                   + (["--from-flat"] if args.from_flat else [])
                                   + (["--targets"] if args.targets else []),
                                   capture_output=True, text=True, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                print(f"{size} {method}: not done in {args.timeout:g} s", flush=True)
                continue
            if r.returncode:
                print(f"{size} {method}: failed: {r.stderr.strip().splitlines()[-1:]}")
                continue
            row = json.loads(r.stdout.strip().splitlines()[-1])
            rows.append(row)
            print(" ".join(f"{row[c]:>10.3g}" if isinstance(row[c], float) else f"{row[c]!s:>10}" for c in cols),
                  flush=True)
    print("\nexponent b of time per step ~ P^b (wall; processor):")
    for method, lo in (("sparse", 1000), ("dense", 0)):
        pts = [r for r in rows if r["path"] == method and r["P"] >= lo]
        b = fit_exponent([(r["P"], r["per_step"]) for r in pts])
        c = fit_exponent([(r["P"], r["cpu_step"]) for r in pts])
        if b is not None:
            print(f"  {method:>6} (from {lo} panels to {max(r['P'] for r in pts)}): {b:.2f}; {c:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
