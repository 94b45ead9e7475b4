"""The ``check`` command: ``python -m chrono_origami check FILE [--fix -o NEW.fold [--max-move D]]``.

Diagnoses a flat crease pattern's geometry (:mod:`chrono_origami.structure.pattern_check`):
per interior vertex Kawasaki's condition (the alternating sum of the sector
angles, rad) and Maekawa's (|#M - #V| = 2), and the rigid foldability of a
quadrilateral mesh (the fold-angle multipliers closing around its panels),
naming the worst vertices and panels (1-based). ``--fix -o NEW.fold`` writes
the least-squares correction of the vertex positions to a new file (never
the input), with the largest vertex move; ``--max-move D`` refuses a larger
one. Exit 0 when the geometry is exact (or the correction was written), 1
when it is inexact, or when a quadrilateral mesh's multipliers miss closing by
more than a rounding (not rigidly foldable with its assignment: said in one
line, without the correction's advice), or when the M/V assignment misses
Maekawa's condition at a vertex (it cannot fold flat there; a fold part of the
way may still exist: said in one line, also after ``--fix``, which cannot
change an assignment).

``--thickness T`` (with ``--placement``, ``--side``, ``--taper-deg``: ``structure.solids``) also folds the
pattern to its target angles in ``--steps`` frames (the reference engine) and tells the largest fold percent it
reaches before two panels interpenetrate (``analysis.contact``), to the frame step.
"""
import os

from ..structure import foldfile, pattern_check
from . import app, inputs


def _options(description):
    ap = inputs.add_input(app.parser(description))
    ap.add_argument("--fix", action="store_true", help="write the least-squares correction of the vertex positions")
    ap.add_argument("-o", "--output", metavar="NEW.fold", help="--fix: the FOLD file to write (not the input)")
    ap.add_argument("--max-move", type=inputs.positive_float, default=None, metavar="D",
                    help="--fix: refuse a correction that moves a vertex farther than D (length units; default "
                         f"{pattern_check.MAX_MOVE_RTOL:g} x the pattern size)")
    ap.add_argument("--steps", type=inputs.positive_int, default=100, metavar="N",
                    help="with --thickness: the frames of the fold to the targets whose contact is checked "
                         "(default 100: a 1 %% step)")
    return inputs.add_placement_options(ap)


@app.command("check", "check a flat crease pattern's geometry (Kawasaki, Maekawa, rigid foldability) and correct "
                      "it", _options)
def check_command(args):
    if args.fix and not args.output:
        raise app.UsageError("--fix writes the corrected pattern to a new file: give -o NEW.fold")
    if args.output and not args.fix:
        raise app.UsageError("-o is the file --fix writes: give --fix")
    if args.output and os.path.abspath(args.output) == os.path.abspath(args.file):
        raise app.UsageError(f"-o {args.output}: the input file is never overwritten; name a new file")
    structure = inputs.read_input(args)
    contact = inputs.wants_contact(structure, args, from_file=False)    # asked for: a plain check only checks
    if contact:
        if args.fix:
            raise app.UsageError("--thickness checks the range of motion of the file as it is: give it without --fix "
                                 "(or check the corrected file)")
        structure = inputs.with_placement(structure, args, check=True)
    rep = pattern_check.diagnose(structure)
    print(f"{structure.name}: {structure.pattern}")
    for line in rep.summary():
        print(line)
    if not rep.flat:
        against = foldfile.against_letters(structure)
        if against:
            print(f"note: {against}")
        if contact:
            range_of_motion(structure, args.steps, args.contact_engine)
        return app.EXIT_OK
    inexact = bool(rep.inexact or rep.open_faces)
    unflat = rep.unflat(structure.name)     # the assignment, not the positions: no correction can help
    if not args.fix:
        unfoldable = rep.unfoldable(structure.name)
        if unfoldable:          # not a rounding: no correction of the positions can help
            print(unfoldable)
        elif inexact:
            print("the geometry is inexact: fold with --fix-geometry, or write a corrected file with --fix -o "
                  "NEW.fold")
        if unflat:
            print(unflat)
        if contact and not (inexact or unflat):
            range_of_motion(structure, args.steps, args.contact_engine)
        return app.EXIT_INPUT if inexact or unflat else app.EXIT_OK
    fixed, move, k, after = pattern_check.correct(structure, args.max_move, rep)
    with app.output(args.output):
        foldfile.write_fold(fixed, args.output)
    where = f" (vertex {k + 1})" if k is not None else ""
    print(f"wrote {args.output}: largest vertex move {move:.3g}{where}; after the correction:")
    for line in after.summary():
        print(line)
    if unflat:
        print(unflat)
    return app.EXIT_INPUT if unflat else app.EXIT_OK


def range_of_motion(structure, steps, engine="reference"):
    """Fold ``structure`` to its target angles in ``steps`` frames (reference engine) and print the largest fold
    percent reached before contact, by ``engine``'s contact check (an engine object or name); returns the
    :class:`~chrono_origami.analysis.contact.Contacts`."""
    from ..analysis.contact import check_engine, fold_contacts
    from ..analysis.fold import fold_to_targets
    from ..structure.targets import file_targets
    from ..structure.solids import placement_of

    if not file_targets(structure):
        raise app.UsageError(f"{structure.name}: no target fold angles (M/V creases): the range of motion is "
                             f"measured on the fold to the targets")
    check_engine(structure, engine)          # refused before the fold, not after it
    hist = fold_to_targets(structure, engine="reference", frame_interval=1.0 / steps, progress=False)
    contacts = fold_contacts(hist, 100.0, engine)
    k, pl = contacts.first, placement_of(structure).describe()
    if k is None:
        print(f"range of motion ({pl}): the fold reaches 100 % of its targets with no contact")
    elif k == 0:
        p, q, d = contacts.pairs[0][0]
        print(f"range of motion ({pl}): in contact at the start: panels {p + 1} and {q + 1} interpenetrate at "
              f"{contacts.percents[0]:.4g} % of the targets (depth {d:.4g})")
    else:
        p, q, d = contacts.pairs[k][0]
        print(f"range of motion ({pl}): the fold reaches {contacts.percents[max(k - 1, 0)]:.4g} % of its targets before "
              f"contact (frames of {100.0 / steps:.3g} %); panels {p + 1} and {q + 1} interpenetrate at "
              f"{contacts.percents[k]:.4g} % (depth {d:.4g})")
    return contacts
