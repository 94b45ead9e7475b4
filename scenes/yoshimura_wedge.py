"""Yoshimura wedge of the paper (sec. 4.2.2, Fig. 7, Table 4): a cantilevered arch loaded at the tip.

Table 4's folded configuration; every base vertex (1-11, z = 0) held in y and z,
vertex 6 also in x; a unit downward load at the tip (vertex 26). By default
three hinges per interior vertex are sliding (18 in all): M = 0, S = 0 and
the hinge actions follow from equilibrium alone. ``--all-door`` gives the
all-door wedge: M = 0, S = 18 (its self-stress states are printed).

    python3 scenes/yoshimura_wedge.py --engine reference --out out/yoshimura_wedge
"""
from chrono_origami.cli import static
from chrono_origami.patterns import yoshimura

ap = static.parser(__doc__)   # its --all-door: the all-door wedge, S = 18

if __name__ == "__main__":
    static.scene(ap, lambda a: yoshimura.table4_structure("door" if a.all_door else "isostatic"))
