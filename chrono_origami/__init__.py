"""chrono-origami: isostatic thick-origami structures, with the paper's operators or in Project Chrono.

The names a user needs, from the crease pattern to the report::

    import chrono_origami as co

    structure = co.miura.miura_cantilever()        # a pattern builder: a Structure
    counts = co.count(structure)                   # M, S (Chrono where installed, else the reference engine)
    result = co.static(structure)                  # hinge actions, support reactions
    print(co.tables.format_result(result))

* pattern builders (modules): ``miura``, ``yoshimura``, ``kresling``, ``simple``, ``tessellations``
  (the flat box pleat and square-twist tessellation);
* the structure: ``CreasePattern``, ``Structure``, ``Support``, ``Load``,
  ``DOOR``, ``SLIDING``; ``read_structure`` (FOLD or SVG) and ``write_fold``;
* supports and loads: methods of ``Structure`` that return a new structure,
  in the command line's 1-based text forms or as records:
  ``structure.with_supports("min-z:xyz", "4:xz:p2")``,
  ``.with_loads("max-z:0,0,-1")``, ``.with_self_weight(thickness=0.01,
  density=1000)``, ``.select("corner(-x-y)")`` (the selector language of
  ``chrono_origami/structure/boundary.py``); ``propose_support`` (the fewest held
  directions that stop the rigid-body motions: ``propose_support(s).structure``);
* analyses, each by either engine (``engine="reference"`` or ``"chrono"``;
  None: Chrono where PyChrono imports, ``chrono_origami.engines``): ``count``,
  ``static``, ``fold`` with ``FoldProblem`` and ``Drive``, ``fold_to_targets``
  (to a file's target angles at a percent), ``deployment`` (actuator torques
  and hinge forces at every frame of a fold under the structure's supports and
  loads, ``analysis.deploy``), ``modal`` (the lowest modes at
  the static equilibrium, with and without Kc: ``co.modal(structure,
  modes=10, crease_stiffness=k, kc="compare")`` returns a ``ModalAnalysis``;
  the eigen solvers are in ``chrono_origami.analysis.modal``), ``dynamics``
  (time integration: ``co.dynamics(structure, time=T, dt=DT)`` returns a
  ``TimeHistory``), ``tolerance`` (locked-in forces of fabrication errors:
  ``co.tolerance(structure, ToleranceSpec(1e-4))`` the closed-form
  statistics, ``samples=N`` Monte Carlo, ``errors=`` measured errors) and the
  module ``tolerances`` (``tolerances.locked_in_statistics``,
  ``tolerances.summary``, ``tolerances.monte_carlo``) with ``ToleranceSpec``
  and ``HingeStiffness``; ``design`` (which hinges to make sliding:
  ``co.design(structure)`` returns a ``DesignResult``,
  ``chrono_origami.analysis.design``);
* many cases: ``sweep`` (a parametric sweep from a TOML spec, on Dask: one
  table row per case, written to a folder as they arrive, resumable);
* reports: ``tables`` (text, Markdown, LaTeX tables and CSV) and ``report.html(result, path)``
  (a self-contained interactive results page, ``chrono_origami.report.page``); ``export`` (DXF panels for
  cutting, STL/3MF/GLB solids: ``chrono_origami.report.export``).

Names that need PyChrono are imported on first use, so ``import chrono_origami``
works without it: ``build_system`` (a structure in your own ``ChSystem``;
without PyChrono it raises
:class:`~chrono_origami.tools.errors.ChronoUnavailable`, an ``ImportError``)
and ``structure_modes`` (``chrono_origami.analysis.modal.structure_modes``).
They are not in ``__all__``, so ``from chrono_origami import *`` works
without PyChrono. Every other name is imported on first use too.
"""
import importlib

#: public name -> (module relative to this package, attribute or None for the module itself)
_EXPORTS = {
    "miura": ("patterns.miura", None),
    "yoshimura": ("patterns.yoshimura", None),
    "kresling": ("patterns.kresling", None),
    "simple": ("patterns.simple", None),
    "tessellations": ("patterns.tessellations", None),
    "CreasePattern": ("crease.pattern", "CreasePattern"),
    "Structure": ("structure.structure", "Structure"),
    "Support": ("structure.structure", "Support"),
    "Load": ("structure.structure", "Load"),
    "DOOR": ("structure.hinges", "DOOR"),
    "SLIDING": ("structure.hinges", "SLIDING"),
    "read_structure": ("structure.foldfile", "read_structure"),
    "write_fold": ("structure.foldfile", "write_fold"),
    "count": ("analysis.static", "count"),
    "static": ("analysis.static", "static"),
    "fold": ("analysis.fold", "fold"),
    "fold_to_targets": ("analysis.fold", "fold_to_targets"),
    "deployment": ("analysis.deploy", "deployment"),
    "FoldProblem": ("inputs.fold", "FoldProblem"),
    "Drive": ("inputs.fold", "Drive"),
    "design": ("analysis.design", "design"),
    "propose_support": ("analysis.support", "propose_support"),
    "modal": ("analysis.modal", "modal"),
    "dynamics": ("analysis.dynamics", "dynamics"),
    "tolerance": ("analysis.tolerance", "tolerance"),
    "tables": ("report.tables", None),
    "report": ("report", None),
    "tolerances": ("analysis.tolerance", None),
    "ToleranceSpec": ("structure.tolerance", "ToleranceSpec"),
    "HingeStiffness": ("structure.tolerance", "HingeStiffness"),
    "sweep": ("cli.sweep", "sweep"),
    "export": ("report.export", "export"),
}
#: the names that need PyChrono (imported on first use; not in __all__)
_CHRONO_EXPORTS = {
    "build_system": ("engines.chrono.system", "build_system"),
    "structure_modes": ("analysis.modal", "structure_modes"),
}

__all__ = list(_EXPORTS)


def __getattr__(name):
    where = _EXPORTS.get(name) or _CHRONO_EXPORTS.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f"{__name__}.{where[0]}")
    value = module if where[1] is None else getattr(module, where[1])
    globals()[name] = value         # looked up once
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS) | set(_CHRONO_EXPORTS))
