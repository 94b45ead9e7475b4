"""``python -m chrono_origami support FILE.fold``: the proposed minimal support, and what it leaves free.

Prints the fewest held vertex directions that, added to the structure's
supports, stop the six rigid-body motions (:mod:`chrono_origami.support_proposal`),
as a table and as ``--support`` text forms, then counts the supported
structure and names what is still free: its mechanisms, with the panels that
move most, and (up to ``support_proposal.STOP_LIMIT`` mechanisms) the held
directions that stop them, as a line to copy: ``--support auto --support ...``.
``-o FILE.fold`` writes the structure with the proposal. Every command that
takes supports accepts the proposal with ``--support auto``.
"""
import sys

from ..analysis import static as analysis
from ..analysis.support import propose_support, still_free
from . import app, inputs
from .static import linalg_option, rank_options


def options(description):
    """The ``support`` command's parser."""
    ap = inputs.add_input(app.parser(description))
    ap.add_argument("-o", "--output", metavar="SUPPORTED.fold", help="write the structure with the proposed support")
    inputs.add_engine_option(ap, "engine whose constraint Jacobian is counted")
    linalg_option(ap)
    inputs.add_structure_options(ap)
    return ap


@app.command("support", "propose the fewest supports that stop the rigid-body motions; name what is still free",
             options)
def support_command(args, out=None):
    out = out or sys.stdout
    structure = inputs.prepare(inputs.read_input(args), args, out)
    proposal = propose_support(structure)
    print(proposal.report(), file=out)
    if proposal.supports:
        print("accept it with --support auto (on static, count, design, dynamics and the static scenes)", file=out)
    if args.output:
        from ..structure.foldfile import write_fold

        with app.output(args.output):
            write_fold(proposal.structure, args.output)
        print(f"written to {args.output}", file=out)
    # what is still free: counted last, so that the proposal is out even when the count fails
    counts = analysis.count(proposal.structure, inputs.engine_of(args), **rank_options(args))
    print("\n".join(still_free(proposal.structure, counts, proposal.rank_before == 0 and bool(proposal.supports),
                               "--support auto" if proposal.supports else None)),
          file=out)
    return app.EXIT_OK
