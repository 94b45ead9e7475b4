"""Data flows one way: pattern -> structure -> results -> engine -> analysis -> report -> command line.

Every module of the package is placed in one layer of :data:`LAYERS` and
imports (at any depth, lazily or not) only from its own layer or a lower one.
The result records (``results``, the fold and motion histories) sit below the
engines in the import order because the engines fill them; in the data flow
they come out of the analyses and go to the reports. A new module must be
placed here (the test of the placement fails until it is).
"""
import ast
import os

import pytest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "chrono_origami")
#: layers from the bottom up: (name, module paths relative to the package, without .py)
LAYERS = (
    ("base", {"errors", "geometry", "progress", "memory", "linalg", "sparseqr", "engines"}),
    ("pattern", {"pattern", "faces", "svg", "patterns/simple"}),
    ("structure", {"structure", "hinges", "properties", "foldfile", "patterns/__init__", "patterns/kresling",
                   "patterns/miura", "patterns/yoshimura", "patterns/linkage", "patterns/tessellations",
                   # the inputs of a fold or a motion, and the examples that build them
                   "folding/problem", "folding/examples", "dynamics/inputs", "dynamics/expression",
                   "dynamics/examples"}),
    ("results", {"results", "folding/history", "dynamics/history"}),
    ("engine", {"reference/__init__", "reference/operators", "reference/model", "reference/counting",
                "reference/statics", "reference/dns/__init__", "reference/dns/body", "reference/dns/constraints",
                "reference/dns/forces", "reference/dns/multibody", "reference/dns/pairs", "reference/dns/schemes",
                "reference/dns/structure", "reference/dns/examples",
                "chrono/__init__", "chrono/links", "chrono/system", "chrono/analysis", "chrono/matrices",
                "chrono/springs", "chrono/dynamics", "chrono/dns_examples", "chrono/kc_examples"}),
    ("analysis", {"analysis", "design", "modal", "chrono/modal", "folding/__init__", "folding/lie", "folding/start",
                  "folding/constraints", "folding/jacobian", "folding/newton", "folding/chrono_fold",
                  "dynamics/__init__",
                  "reference/dns/paper"}),
    ("report", {"report/__init__", "report/tables", "report/figures", "report/modal", "chrono/viewer",
                "dynamics/report"}),
    ("cli", {"cli/__init__", "cli/app", "cli/inputs", "cli/static", "cli/design", "cli/fold", "cli/dynamics",
             "cli/modal", "cli/convert", "__main__", "__init__"}),
)
RANK = {m: k for k, (_, modules) in enumerate(LAYERS) for m in modules}


def all_modules():
    out = set()
    for root, _, files in os.walk(PACKAGE):
        out |= {os.path.relpath(os.path.join(root, f[:-3]), PACKAGE).replace(os.sep, "/")
                for f in files if f.endswith(".py")}
    return out


def rank(target):
    """Layer index of an imported module path (a package counts as its __init__)."""
    return RANK.get(target, RANK.get(target + "/__init__"))


def package_imports(relpath):
    """(line, imported module relative to the package) of every import of chrono_origami in the file, at any depth."""
    path = os.path.join(PACKAGE, relpath + ".py")
    tree = ast.parse(open(path).read(), path)
    here = relpath.split("/")[:-1]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = here[:len(here) - (node.level - 1)] + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "chrono_origami":
                parts = node.module.split(".")[1:]
            else:
                continue
            for a in node.names:   # "from .reference import statics": the module reference/statics
                sub = parts + [a.name]
                is_module = os.path.exists(os.path.join(PACKAGE, *sub) + ".py")
                out.append((node.lineno, "/".join(sub if is_module else parts)))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, "/".join(a.name.split(".")[1:])) for a in node.names
                    if a.name.split(".")[0] == "chrono_origami"]
    return out


def test_the_import_reader_sees_relative_and_absolute_imports():
    found = {t for _, t in package_imports("patterns/kresling")}
    assert {"errors", "pattern", "structure"} <= found
    assert ("reference/statics" in {t for _, t in package_imports("design")})


def test_every_module_is_placed_in_one_layer():
    names = [m for _, modules in LAYERS for m in modules]
    assert len(names) == len(set(names)), "a module is placed in two layers"
    assert all_modules() - set(RANK) == set(), "place these modules in a layer of LAYERS"
    assert set(RANK) - all_modules() == set(), "LAYERS names modules that do not exist"


@pytest.mark.parametrize("module", sorted(all_modules() & set(RANK)))
def test_no_module_imports_from_a_layer_above_its_own(module):
    here = RANK[module]
    unknown = [target for _, target in package_imports(module) if rank(target) is None]
    assert not unknown, f"{module}.py imports modules placed in no layer: {unknown}"
    upward = [f"line {line}: {target} ({LAYERS[rank(target)][0]})" for line, target in package_imports(module)
              if rank(target) > here]
    assert not upward, f"{module}.py ({LAYERS[here][0]} layer) imports from above it: {upward}"


def test_the_layer_check_sees_an_upward_import(tmp_path, monkeypatch):
    # a module of the results layer that imports the report layer lazily, inside a function
    monkeypatch.setattr(__import__(__name__), "PACKAGE", str(tmp_path))
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "modal.py").write_text("")
    (tmp_path / "results.py").write_text("def table(r):\n    from .report.modal import modes_table\n")
    assert package_imports("results") == [(2, "report/modal")]
    assert rank("report/modal") > RANK["results"]
