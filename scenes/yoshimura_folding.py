"""Folding of the triangular Yoshimura portion (paper sec. 3.4.3, Fig. 2).

The flat wedge in the x-z plane (30 panels, 35 door hinges), the 15 vertical
hinges driven at 0.005 rad/s for 200 s, vertex 6 fixed, vertices 2, 4, 8, 10,
12-16 moving only along x, vertex 14 also blocked in x and y (see
chrono_origami/inputs/fold_examples.py for the reconstruction and the sign). It
prints the largest vertex distance from Table 4 after the best rigid alignment.

    python3 scenes/yoshimura_folding.py --out out/yoshimura_folding

writes out/yoshimura_folding/vertices.csv (vertex,x,y,z: the final
configuration, paper numbering), fold.fold (the history as FOLD file_frames,
one every --frame-interval s), steps.csv (residual of every step) and
snapshots.png (Fig. 2(c); --figure FILE draws them elsewhere); --png-frames
DIR writes one PNG per frame (--png-renderer irrlicht: drawn by Chrono's
Irrlicht, headless under xvfb-run), --viz plays the fold in the Irrlicht
viewer. With the Chrono engine (the default where PyChrono imports) the fold
is in a Chrono system: the flat start is singular, so the reference engine
takes the first step (to --chrono-start s, default 1 s, its own first step)
and Chrono folds from that configuration to 200 s
(analysis.fold.regular_start). The options are those of the ``fold`` command
(chrono_origami/cli/fold.py) with the drives and holds fixed.
"""
import os

from chrono_origami.analysis import fold as analysis_fold
from chrono_origami.cli import app, fold, inputs
from chrono_origami.inputs import fold_examples as examples
from chrono_origami.tools.geometry import best_rigid_alignment
from chrono_origami.patterns import yoshimura


def analyse(prob, args):
    hist = analysis_fold.fold(prob, inputs.engine_of(args), frame_interval=args.frame_interval, from_singular=True,
                              start_time=args.chrono_start, progress=False if args.quiet else None,
                              linalg=args.linalg)
    X = hist.final
    T = yoshimura.TABLE4_VERTICES
    R, d = best_rigid_alignment(X, T)
    dist = ((X @ R.T + d - T) ** 2).sum(1) ** 0.5
    k = int(dist.argmax())
    print(f"{prob.name}: {hist.times[-1]:g} s, {len(hist.steps)} steps, largest constraint residual "
          f"{hist.max_residual:.2e} (scaled)")
    print(f"vs Table 4 after the best rigid alignment: largest vertex distance {dist[k]:.3e} (vertex {k + 1})")
    if args.out and not args.figure:
        args.figure = os.path.join(args.out, "snapshots.png")
    fold.write(hist, args)
    return app.EXIT_OK


ap = fold.output_options(app.parser(__doc__))
ap.add_argument("--frame-interval", type=float, default=100.0, help="s between stored frames (Fig. 2(c): 100)")
ap.add_argument("--chrono-start", type=float, default=1.0, metavar="T0",
                help="--engine chrono: time (s) of the reference engine's configuration Chrono starts from")

if __name__ == "__main__":
    app.scene(ap, lambda args: examples.yoshimura_problem(), analyse)
