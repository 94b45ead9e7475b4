"""Benchmark (not a test): what the panels' contact check adds to a fold (``analysis.contact``).

A square n x n all-door Miura-ori patch (``patterns.miura.miura_patch``, sector angle 60 deg, panel sides 1,
about ``--panels`` panels) folds flat to the closed form's fold angles at ``--fold-deg`` on every crease
(``analysis.fold.fold_to_targets``, the ``fold FILE`` command's fold) in ``--frames`` stored frames; then
the contact of every frame is checked with panels of thickness ``--thickness`` placed ``--placement``
(``tapered``: bevelled to each crease's target) by each ``--contact-engine``: ``reference`` (building the
solids once, then per frame the bounding boxes, the candidate pairs and their separating-axis depths) and
``chrono`` (Bullet's convex shapes in a Chrono system, one collision detection per frame). Printed: the fold's
time, each check's, the candidate pairs in the last frame, each first contact, and per engine the ratio
(fold + check) / fold: the cost the check adds. ``--fold-deg 162`` folds to 90 % of flat (180 deg), where the
stacked panels' bounding boxes overlap far more than at 30 deg.

    python3 benchmarks/contact_cost.py                       # 1,024 panels, 20 frames, to 162 deg
    python3 benchmarks/contact_cost.py --fold-deg 30 --contact-engine reference
    python3 benchmarks/contact_cost.py --panels 100 --frames 100
"""
import argparse
import time

from common import program_threads

program_threads()


def main(argv=None):
    import numpy as np

    from chrono_origami import engines
    from chrono_origami.analysis.contact import fold_contacts
    from chrono_origami.analysis.fold import fold_to_targets
    from chrono_origami.patterns import miura
    from chrono_origami.structure import foldfile
    from chrono_origami.structure.solids import Placement, PanelSolids, candidate_pairs
    from chrono_origami.structure.structure import Structure

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--panels", type=int, default=1024)
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--fold-deg", type=float, default=162.0, help="the closed form's fold angle (deg; flat: 180)")
    ap.add_argument("--thickness", type=float, default=0.05)
    ap.add_argument("--placement", default="tapered")
    ap.add_argument("--contact-engine", choices=("reference", "chrono", "both"), default="both",
                    help="both: the reference engine, and Chrono where PyChrono imports")
    args = ap.parse_args(argv)
    n = max(2, round(args.panels ** 0.5))
    flat = miura.miura_pattern(n, n, fold_angle_deg=0.0)
    ang = foldfile.fold_angles(flat, miura.miura_vertices(n, n, fold_angle_deg=args.fold_deg))
    st = Structure(flat, thickness=args.thickness, placement=Placement(args.placement),
                   notes={"fold": {"edges_assignment": foldfile.assignments(flat, ang), "edges_foldAngle": ang}})
    t0 = time.perf_counter()
    hist = fold_to_targets(st, frame_interval=1.0 / args.frames, progress=False, engine="reference")
    fold_s = time.perf_counter() - t0
    S = PanelSolids(st)
    V = S.at(hist.final)[0]
    pairs = len(candidate_pairs(V.min(axis=1), V.max(axis=1), np.arange(S.P)))
    print(f"{flat.n_panels} panels folded to {args.fold_deg:g} deg ({100 * args.fold_deg / 180:.0f} % of flat), "
          f"{len(hist.times)} frames ({args.placement}, t = {args.thickness:g}): fold {fold_s:.2f} s; "
          f"{pairs} candidate pairs in the last frame")
    names = [args.contact_engine] if args.contact_engine != "both" else \
        ["reference"] + (["chrono"] if engines.chrono_available() else [])
    for name in names:
        t1 = time.perf_counter()
        contacts = fold_contacts(hist, 100.0, name)
        check_s = time.perf_counter() - t1
        print(f"  --contact-engine {name}: check {check_s:.2f} s ({1e3 * check_s / len(hist.times):.1f} ms a frame); "
              f"(fold + check) / fold = {(fold_s + check_s) / fold_s:.2f}")
        print(f"    {contacts.summary()[0]}")

if __name__ == "__main__":
    main()
