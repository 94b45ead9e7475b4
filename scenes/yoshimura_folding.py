"""Folding of the triangular Yoshimura portion (paper sec. 3.4.3, Fig. 2).

The flat wedge in the x-z plane (30 panels, 35 door hinges), the 15 vertical
hinges driven at 0.005 rad/s for 200 s, vertex 6 fixed, vertices 2, 4, 8, 10,
12-16 moving only along x, vertex 14 also blocked in x and y (see
chrono_origami/folding/examples.py for the reconstruction and the sign). It
prints the largest vertex distance from Table 4 after the best rigid alignment.

    python3 scenes/yoshimura_folding.py --out out/yoshimura_folding

writes out/yoshimura_folding/vertices.csv (vertex,x,y,z: the final
configuration, paper numbering), fold.fold (the history as FOLD file_frames,
one every --frame-interval s), steps.csv (residual of every step) and
snapshots.png (Fig. 2(c)); --png-frames DIR writes one PNG per frame
(--png-renderer irrlicht: drawn by Chrono's Irrlicht, headless under
xvfb-run), --viz plays the fold in the Irrlicht viewer. --engine chrono folds
in a Chrono system: the flat start is singular, so the reference engine takes
the first step (to --chrono-start s, default 1 s, its own first step) and
Chrono folds from that configuration to 200 s (chrono_fold.regular_start).
"""
import argparse
import os
import sys

from chrono_origami import engines
from chrono_origami.folding import examples
from chrono_origami.geometry import best_rigid_alignment
from chrono_origami.patterns import yoshimura

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", metavar="DIR", help="write vertices.csv, fold.fold, steps.csv, snapshots.png here")
    ap.add_argument("--engine", choices=engines.ENGINES, default="reference", help="folding engine (default reference)")
    ap.add_argument("--frame-interval", type=float, default=100.0, help="s between stored frames (Fig. 2(c): 100)")
    ap.add_argument("--png-frames", metavar="DIR", help="one PNG per stored frame (headless)")
    ap.add_argument("--png-renderer", choices=("matplotlib", "irrlicht"), default="matplotlib",
                    help="renderer of --png-frames (default matplotlib)")
    ap.add_argument("--viz", action="store_true", help="play the fold in Chrono's Irrlicht viewer")
    ap.add_argument("--chrono-start", type=float, default=1.0, metavar="T0",
                    help="--engine chrono: time (s) of the reference engine's configuration Chrono starts from")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    args = ap.parse_args()
    prob = examples.yoshimura_problem()
    if engines.resolve(args.engine) == "chrono":
        from chrono_origami.folding.chrono_fold import fold as chrono_fold, regular_start

        hist = chrono_fold(prob, frame_interval=args.frame_interval, progress=not args.quiet,
                           start=regular_start(prob, args.chrono_start))
    else:
        from chrono_origami.folding import fold

        hist = fold(prob, frame_interval=args.frame_interval, allow_singular_start=True, progress=not args.quiet)
    X = hist.final
    T = yoshimura.TABLE4_VERTICES
    R, d = best_rigid_alignment(X, T)
    dist = ((X @ R.T + d - T) ** 2).sum(1) ** 0.5
    k = int(dist.argmax())
    print(f"{prob.name}: {hist.times[-1]:g} s, {len(hist.steps)} steps, largest constraint residual "
          f"{hist.max_residual:.2e} (scaled)")
    print(f"vs Table 4 after the best rigid alignment: largest vertex distance {dist[k]:.3e} (vertex {k + 1})")
    if args.out:
        hist.write_vertices_csv(os.path.join(args.out, "vertices.csv"))
        hist.write_fold(os.path.join(args.out, "fold.fold"))
        hist.write_steps_csv(os.path.join(args.out, "steps.csv"))
        from chrono_origami.folding.plots import draw_snapshots

        draw_snapshots(hist, os.path.join(args.out, "snapshots.png"))
        print(f"wrote {args.out}/vertices.csv, fold.fold, steps.csv, snapshots.png")
    from chrono_origami.folding.cli import views

    views(hist, args)
    sys.exit(0)
