"""Data flows one way: tools -> crease pattern -> structure and inputs -> results -> engines -> analyses -> report
-> command line.

A module's layer is its top folder's (:data:`FOLDERS`; the package's own ``__init__`` and ``__main__``, the
public API and ``python -m``, are the command-line layer), so a new module needs no edit here. Every module
imports (at any depth, lazily or not) only from its own layer or a lower one. The result records sit below
the engines in the import order because the engines fill them; in the data flow they come out of the
analyses and go to the reports. The two engines do not import each other: what both need is in
``engines/operator.py`` or a lower layer.
"""
import ast
import os

import pytest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "chrono_origami")
#: layers from the bottom up
LAYERS = ("tools", "crease pattern", "structure and inputs", "results", "engines", "analyses", "report",
          "command line")
#: top folder of the package -> its layer (index in LAYERS)
FOLDERS = {"tools": 0, "crease": 1, "structure": 2, "patterns": 2, "inputs": 2, "results": 3, "engines": 4,
           "analysis": 5, "report": 6, "cli": 7}
#: modules at the top of the package -> their layer
TOP_MODULES = {"__init__": 7, "__main__": 7}


def all_modules():
    out = set()
    for root, _, files in os.walk(PACKAGE):
        out |= {os.path.relpath(os.path.join(root, f[:-3]), PACKAGE).replace(os.sep, "/")
                for f in files if f.endswith(".py")}
    return out


def layer(module):
    """Layer index of a module path relative to the package ("engines/chrono/links"; a package is its
    __init__), or None when its place is unknown."""
    parts = module.split("/")
    if len(parts) == 1:
        if os.path.isdir(os.path.join(PACKAGE, module)):
            return FOLDERS.get(module)
        return TOP_MODULES.get(module)
    return FOLDERS.get(parts[0])


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
            for a in node.names:   # "from ..engines import operator": the module engines/operator
                sub = parts + [a.name]
                is_module = os.path.exists(os.path.join(PACKAGE, *sub) + ".py") or \
                    os.path.isdir(os.path.join(PACKAGE, *sub))
                out.append((node.lineno, "/".join(sub if is_module else parts)))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, "/".join(a.name.split(".")[1:])) for a in node.names
                    if a.name.split(".")[0] == "chrono_origami"]
    return out


def test_the_import_reader_sees_relative_and_absolute_imports():
    found = {t for _, t in package_imports("patterns/kresling")}
    assert {"tools/errors", "crease/pattern", "structure/structure"} <= found
    assert "engines/reference/counting" in {t for _, t in package_imports("analysis/design")}
    assert "engines/operator" in {t for _, t in package_imports("engines/chrono/statics")}


def test_every_module_has_a_layer():
    assert set(FOLDERS) == {d for d in os.listdir(PACKAGE) if os.path.isdir(os.path.join(PACKAGE, d))
                            and d != "__pycache__"}, "give each top folder a layer in FOLDERS"
    unplaced = sorted(m for m in all_modules() if layer(m) is None)
    assert not unplaced, f"modules outside the layer folders: {unplaced}"


@pytest.mark.parametrize("module", sorted(all_modules()))
def test_no_module_imports_from_a_layer_above_its_own(module):
    here = layer(module)
    imports = package_imports(module)
    unknown = [target for _, target in imports if layer(target) is None]
    assert not unknown, f"{module}.py imports modules placed in no layer: {unknown}"
    upward = [f"line {line}: {target} ({LAYERS[layer(target)]})" for line, target in imports
              if layer(target) > here]
    assert not upward, f"{module}.py ({LAYERS[here]} layer) imports from above it: {upward}"


@pytest.mark.parametrize("engine, other", [("engines/chrono", "engines/reference"),
                                           ("engines/reference", "engines/chrono")])
def test_the_engines_do_not_import_each_other(engine, other):
    crossing = [f"{m}.py line {line}: {target}" for m in sorted(all_modules()) if m.startswith(engine + "/")
                for line, target in package_imports(m) if target == other or target.startswith(other + "/")]
    assert not crossing


def test_the_layer_check_sees_an_upward_import(tmp_path, monkeypatch):
    # a module of the results layer that imports the report layer lazily, inside a function
    monkeypatch.setattr(__import__(__name__), "PACKAGE", str(tmp_path))
    for folder in ("report", "results"):
        (tmp_path / folder).mkdir()
    (tmp_path / "report" / "modes.py").write_text("")
    (tmp_path / "results" / "modes.py").write_text("def table(r):\n    from ..report.modes import modes_table\n")
    assert package_imports("results/modes") == [(2, "report/modes")]
    assert layer("report/modes") > layer("results/modes")
    # a new folder has no layer until FOLDERS gives it one
    (tmp_path / "extra").mkdir()
    (tmp_path / "extra" / "x.py").write_text("")
    assert layer("extra/x") is None


def import_graph():
    """{module: the package modules it imports (at any depth, lazily or not)}; a package is its __init__."""
    mods = all_modules()
    graph = {}
    for m in mods:
        targets = set()
        for _, t in package_imports(m):
            t = t if t in mods else t + "/__init__"
            if t in mods and t != m:
                targets.add(t)
        graph[m] = targets
    return graph


def import_cycles(graph):
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_the_cycle_finder_finds_a_cycle():
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_through_others():
    """No import circle, lazy imports included: a circle is two modules that cannot be understood (or moved) one
    without the other. Break one by moving what both need into a lower module."""
    assert import_cycles(import_graph()) == []
