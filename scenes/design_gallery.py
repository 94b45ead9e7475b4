"""Isostatic design gallery: the design search on the paper's structures, all hinges door at the start.

Single-vertex Miura-ori and a sequential Miura-ori strip (Fig. 5), the
Yoshimura wedge at Table 4 with the supports of sec. 4.2.2 (Fig. 7), Kresling
towers of 2 and 3 modules with their three-fold symmetry (Fig. 9) and the
four-panel ring (Fig. 4, not reducible below S = 2). Where there are too
many assignments to enumerate (the wedge), the greedy designs are followed by
up to 10 passes of the exchange search. Prints each search's
report; with ``--out DIR`` writes ``DIR/designs.json``: a list of
{"structure", "M_before", "S_before", "M_after", "S_after", "sliding" (1-based
hinges of the best-ranked design), "designs_found"}.

    python3 scenes/design_gallery.py --out out/design_gallery
"""
import json
import os
from dataclasses import replace

from chrono_origami.cli import app
from chrono_origami.cli.design import symmetry
from chrono_origami.analysis.design import design
from chrono_origami.patterns import kresling, miura, simple, yoshimura
from chrono_origami.structure.structure import Structure
from chrono_origami.structure.hinges import DOOR


def all_door(structure, name):
    return replace(structure, hinge_kinds=(DOOR,) * len(structure.hinge_kinds), name=name)


def cases(args=None):
    """(structure, design keyword arguments) of each gallery entry."""
    yield all_door(miura.miura_single_vertex(), "single-vertex Miura-ori"), {}
    yield all_door(miura.miura_strip(4), "Miura-ori strip (4 steps)"), {}
    yield yoshimura.table4_structure(kind="door", name="Yoshimura wedge (Table 4)"), {}
    for n in (2, 3):
        st = kresling.kresling_tower(n, door_module=None, name=f"Kresling tower ({n} modules)")
        yield st, {"symmetry": symmetry(st.pattern, rotation=3)}
    yield Structure(simple.rectangular_ring(), name="four-panel ring"), {}


def analyse(gallery, args):
    entries = []
    for structure, options in gallery:
        result = design(structure, improve=10, **options)
        print(result.report(max_rows=5), end="\n\n")
        entries.append(result.as_dict())
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        path = os.path.join(args.out, "designs.json")
        with open(path, "w") as f:
            json.dump(entries, f, indent=2)
            f.write("\n")
        print(f"written {path}")
    return app.EXIT_OK


ap = app.parser(__doc__)
ap.add_argument("--out", metavar="DIR", help="write designs.json here")

if __name__ == "__main__":
    app.scene(ap, cases, analyse)
