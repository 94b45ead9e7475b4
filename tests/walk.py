"""The walk from a crease pattern to a hinge-force table through the command line, as the README's "Your own
pattern" does it: ``fold --fix-geometry --percent P``, ``support --frame last`` (its proposed support and the
held directions that stop the mechanisms left, the line ``to stop ...: --support auto ...``), ``design`` with that
support, then ``static`` under a unit load down at every vertex (``all:0,0,-1``) on the reference engine, with
``--elastic`` where design exits 3 (self-stress states or mechanisms remain).

Used by ``tests/test_fold_mechanism.py`` and ``benchmarks/fold_examples.py``; ``run(*argv)`` runs one command and
returns (exit code, stdout, stderr).
"""
import os
import re

#: the support line to copy from ``support``'s output
STOP = re.compile(r"to stop (?:it|them): (--support auto(?: --support \S+)*)")


def walk(run, path, out_dir, percent=60, design_args=()):
    """Fold, support, design (``design_args`` added to its command) and static on ``path`` in ``out_dir``: a dict
    with ``stage`` (the last command run: fold, design or static), ``code`` (its exit code), ``design_code``,
    ``supports`` (the arguments used), ``elastic`` (whether static ran with --elastic), ``table`` (the hinge table's
    head: its title, column names, rule and first row) and ``text`` (the last command's stdout and stderr)."""
    fold_dir = os.path.join(out_dir, "fold")
    code, out, err = run("fold", path, "--fix-geometry", "--percent", percent, "--quiet", "--out", fold_dir)
    if code:
        return {"stage": "fold", "code": code, "text": out + err}
    folded = os.path.join(fold_dir, "fold.fold")
    code, out, err = run("support", folded, "--frame", "last")
    if code:
        return {"stage": "support", "code": code, "text": out + err}
    m = STOP.search(out)
    supports = m.group(1).split() if m else ["--support", "auto"]
    designed = os.path.join(out_dir, "designed.fold")
    design_code, out, err = run("design", folded, "--frame", "last", *supports, *design_args, "-o", designed,
                                "--report", os.path.join(out_dir, "design.txt"))
    if design_code not in (0, 3) or not os.path.exists(designed):
        return {"stage": "design", "code": design_code, "design_code": design_code, "supports": supports,
                "text": out + err}
    elastic = design_code == 3
    code, out, err = run("static", designed, *(["--elastic"] if elastic else []), "--engine", "reference",
                         "--load", "all:0,0,-1", "--out", os.path.join(out_dir, "forces"))
    lines = out.splitlines()
    head = [i for i, x in enumerate(lines) if x.startswith("hinge  panel")]
    table = lines[head[0] - 1:head[0] + 3] if head else []
    return {"stage": "static", "code": code, "design_code": design_code, "supports": supports, "elastic": elastic,
            "table": [x for x in table if x.strip()], "text": out + err}
