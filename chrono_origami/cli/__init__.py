"""Command line: ``python -m chrono_origami COMMAND FILE.fold [options]``, also the ``chrono-origami`` script.

Commands
--------
Every command that reads a structure takes a FOLD file or an SVG crease
pattern, with ``--frame`` (a FOLD frame index or class), ``--facets``
(what "F" edges are) and ``--merge-tol`` (SVG line ends) (:mod:`.inputs`).

``static FILE.fold``
    counts, hinge internal actions and support reactions, with the options of
    every static scene (``--engine``, ``--out DIR``, ``--min-norm``,
    ``--figure``, ``--labels``, ``--viz``, ``--screenshot``; see :mod:`.static`).
``count FILE.fold``
    numeric M and S beside the paper's counting rules (``--out DIR`` writes
    counts.json).
``support FILE.fold``
    the fewest supports that stop the six rigid-body motions, and what is
    still free (see :mod:`.support`); ``--support auto`` accepts them on
    every command that takes supports.
``design FILE.fold -o DESIGNED.fold``
    which door hinges to make sliding for S = 0 with M unchanged, ranked by
    distance from singularity (see :mod:`.design`); exit code 3 when M > 0
    or S > 0 remain, with the reason.

``static``, ``count``, ``support``, ``design``, ``dynamics`` and the static
scenes take supports and loads in 1-based text forms (``--support``,
``--load``, ``--self-weight``, ...: :mod:`.inputs`).
``fold FILE.fold [--percent P]`` or ``fold FILE.fold --drive ...``
    kinematic folding: to the file's target angles, or by driven hinges (see :mod:`.fold`).

``dynamics FILE.fold --time T --dt DT [--motor H:FUNC] [--spring H:K,C,REST] --out DIR``
    time integration: energies, momenta, hinge actions and support reactions
    over time as CSV, the motion as FOLD frames (see :mod:`.dynamics`).
``modal FILE.fold [--crease-stiffness K] [--modes N] [--no-kc | --compare-kc] --out DIR``
    the lowest modes at the static equilibrium, with and without Kc (see :mod:`.modal`).
``tolerance FILE.fold --tol T [--samples N] --out DIR``
    locked-in hinge actions of fabrication tolerances: closed-form statistics,
    Monte Carlo, or measured errors (see :mod:`.tolerance`).
``sweep SPEC.toml --out DIR [--scheduler local|serial|tcp://HOST:PORT]``
    a parametric sweep of pattern parameters, designs, load cases and
    tolerances, one table row per case, on Dask (see :mod:`.sweep`).
``export FILE --thickness T --placement P --dxf F.dxf --stl F.stl --3mf F.3mf --glb F.glb --fold F.fold``
    the panels for the workshop: DXF for cutting, solids for printing with the hinge axes, the solids'
    reference surfaces (see :mod:`.export`); ``static``, ``fold``, ``design``, ``dynamics`` and ``tolerance``
    take ``--vtk DIR`` (VTK XML for ParaView) beside ``--html``.
``convert FILE.svg -o FILE.fold``
    the FOLD file of an SVG crease pattern (Origami Simulator's colours).
``check FILE [--fix -o NEW.fold]``
    a flat pattern's geometry: Kawasaki, Maekawa, rigid foldability, and a
    least-squares correction (see :mod:`.check`).
``play FILE.fold --viz | --png-frames DIR``
    a fold history played in Chrono's Irrlicht viewer, or one PNG per frame
    (headless under xvfb-run).

The FOLD keys that hold hinge kinds, supports, loads and thickness are in
:mod:`chrono_origami.structure.foldfile`.

Layout
------
* :mod:`.app`: the exit codes, the one error wrapper (:func:`.app.run`: an
  exception becomes one line ``error: ...`` and its exit code), the command
  registry and :func:`main`;
* :mod:`.inputs`: the input file (:func:`.inputs.add_input`,
  :func:`.inputs.read_input`) and the argparse types the commands and scenes share;
* :mod:`.static`, :mod:`.design`, :mod:`.fold`, :mod:`.dynamics`: the
  commands, and the common command line of the static, folding and dynamics scenes;
* :mod:`.modal`: the ``modal`` command and the common command line of the modal scenes.

Adding a command: in a module of this package, one function ``name(args) ->
exit code`` decorated with ``@app.command("name", "one-line help", options)``,
where ``options(description)`` returns an :class:`argparse.ArgumentParser`
made by :func:`.app.parser`, with :func:`.inputs.add_input` when the command
reads a structure. The command line finds it: every module of this package is
imported when the parser is built (:func:`.app.discover`), and ``--help`` lists
the commands by name. Raise an
:class:`~chrono_origami.tools.errors.OrigamiError` (or :class:`.app.UsageError`)
for a bad input: :func:`.app.run` prints it and picks the exit code.

Exit codes (:data:`.app.EXIT_CODES`)
------------------------------------
0 done; 1 bad input or a failed analysis (a malformed FOLD file, a hinge,
vertex or panel number the structure does not have, a solver that did not
converge); 2 bad usage (bad arguments, a missing input file, an output that
cannot be written, an engine that is not installed, a ``--support`` or
``--load`` value the structure refuses); 3 ``static`` (and every static scene)
on a structure whose statics is not determined, M > 0 or S > 0: the counts and
self-stress states are printed and written, but no hinges.csv or supports.csv
(``--min-norm`` prints and writes the labelled minimum-norm answer and exits
0), and ``design`` when M > 0 or S > 0 remain. Errors are one line on stderr, ``error: ...``, without a traceback.
"""
from .app import EXIT_CODES, EXIT_INDETERMINATE, EXIT_INPUT, EXIT_OK, EXIT_USAGE, main, run

__all__ = ["EXIT_CODES", "EXIT_INDETERMINATE", "EXIT_INPUT", "EXIT_OK", "EXIT_USAGE", "main", "run"]
