"""Anchor chain of the Kc paper (sec. 4.2), as in Chrono's demo_MBS_link_mate.cpp: static and eigen analysis.

43 bodies of 10 kg, inertia diag(10, 10, 10) kg m^2; ends hinged (rotation
about y free) at A(0, 0, 0) and B(10, 0, 0); started as a 'V' through the
lowest point C(5, 0, -6); consecutive bodies joined with x, y, z and rx
locked. With Kc the static analysis finds the catenary and the four lowest
frequencies are 0.240, 0.309, 0.504, 0.551 Hz (paper Table 3); without Kc at
the same equilibrium every mode is a zero mode.

    python3 scenes/kc_anchor_chain.py --out out/kc_anchor_chain
"""
from chrono_origami.cli import modal as modal


def build(args):
    from chrono_origami.engines.chrono import kc_examples

    e = kc_examples.anchor_chain(use_tangent_stiffness=not args.no_kc)

    def where():
        p = e.bodies["anchorC"].GetPos()
        return f"anchor C at ({p.x:.6g}, {p.y:.6g}, {p.z:.6g}) m (started at (5, 0, -6))"

    return e.system, where


ap = modal.parser(__doc__)

if __name__ == "__main__":
    modal.system_scene(ap, build)
