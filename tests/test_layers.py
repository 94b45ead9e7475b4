"""Data flows one way: tools -> crease pattern -> structure and inputs -> results -> engines -> analyses -> report
-> command line.

A module's layer is its top folder's (:data:`FOLDERS`; the package's own ``__init__`` and ``__main__``, the
public API and ``python -m``, are the command-line layer), so a new module needs no edit here. Every module
imports (at any depth, lazily or not) only from its own layer or a lower one. The result records sit below
the engines in the import order because the engines fill them; in the data flow they come out of the
analyses and go to the reports. The two engines do not import each other: what both need is in
``engines/compatibility.py`` or a lower layer. Above the engines, nothing imports an engine's package or its
modules: the analyses, reports and commands reach an engine through the engines' public modules
(:data:`ENGINE_INTERFACE`: ``engines.get`` and the engine object of ``engines/protocol.py``).
"""
import ast
import inspect
import os

import pytest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "chrono_origami")
#: layers from the bottom up
LAYERS = ("tools", "crease pattern", "structure and inputs", "results", "engines", "analyses", "report",
          "command line")
#: top folder of the package -> its layer (index in LAYERS)
FOLDERS = {"tools": 0, "crease": 1, "structure": 2, "patterns": 2, "inputs": 2, "results": 3, "engines": 4,
           "analysis": 5, "papers": 5, "report": 6, "cli": 7}
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
    assert "engines/reference/count" in {t for _, t in package_imports("engines/reference/static")}
    assert "engines/compatibility" in {t for _, t in package_imports("engines/chrono/static")}


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
    (tmp_path / "report" / "modal.py").write_text("")
    (tmp_path / "results" / "modal.py").write_text("def table(r):\n    from ..report.modal import modes_table\n")
    assert package_imports("results/modal") == [(2, "report/modal")]
    assert layer("report/modal") > layer("results/modal")
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


#: the engines' public modules, which the layers above may import (the rest of ``engines/`` is the engines' own)
ENGINE_INTERFACE = {"engines", "engines/protocol", "engines/compatibility"}
#: the layers that reach an engine only through its interface; ``papers/`` (the source papers' own multibody
#: examples, compared on both engines' schemes and bodies: ``chrono_origami/papers/__init__.py``) is not one of them
ABOVE_THE_ENGINES = ("analysis", "report", "cli")


def engine_internals(module):
    """(line, target) of every import of ``module`` below ``engines/`` other than the public interface."""
    return [(line, t) for line, t in package_imports(module)
            if t.startswith("engines/") and t not in ENGINE_INTERFACE]


@pytest.mark.parametrize("module", sorted(m for m in all_modules() if m.split("/")[0] in ABOVE_THE_ENGINES))
def test_no_analysis_report_or_command_imports_an_engines_internals(module):
    found = [f"line {line}: {target}" for line, target in engine_internals(module)]
    assert not found, (f"{module}.py imports an engine's internals {found}: reach the engine through "
                       "engines.get(...) and the protocol (engines/protocol.py)")


def test_the_internals_check_sees_a_lazy_import_of_an_engine(tmp_path, monkeypatch):
    monkeypatch.setattr(__import__(__name__), "PACKAGE", str(tmp_path))
    (tmp_path / "engines" / "chrono").mkdir(parents=True)
    (tmp_path / "analysis").mkdir()
    for f in ("engines/__init__.py", "engines/protocol.py", "engines/chrono/__init__.py",
              "engines/chrono/links.py"):
        (tmp_path / f).write_text("")
    (tmp_path / "analysis" / "x.py").write_text(
        "from .. import engines\nfrom ..engines.protocol import Engine\n"
        "def f():\n    from ..engines.chrono import links\n    from ..engines import chrono\n")
    assert engine_internals("analysis/x") == [(4, "engines/chrono/links"), (5, "engines/chrono")]


def _engines():
    from chrono_origami import engines

    out = [engines.get("reference", notice=False)]
    if engines.chrono_available():
        out.append(engines.get("chrono", notice=False))
    return out


@pytest.mark.chrono
def test_each_engine_object_satisfies_the_protocol_and_declares_its_capabilities():
    from chrono_origami import engines
    from chrono_origami.engines import protocol

    names = []
    for eng in _engines():
        assert isinstance(eng, protocol.Engine), f"the {eng.name} engine lacks a member of protocol.Engine"
        assert eng.name in engines.ENGINES and eng is engines.get(eng.name, notice=False) and eng is engines.get(eng)
        assert isinstance(eng.capabilities, frozenset) and eng.capabilities <= set(protocol.CAPABILITIES)
        for cap, proto in protocol.CAPABILITY_PROTOCOLS.items():   # a capability's members exactly when declared
            assert isinstance(eng, proto) == (cap in eng.capabilities), (eng.name, cap)
        names.append(eng.name)
    assert names == ["reference", "chrono"]


def _members(proto):
    return [n for n, v in vars(proto).items() if inspect.isfunction(v) and not n.startswith("_")]


@pytest.mark.chrono
def test_both_engines_take_the_protocols_arguments():
    """The same signature as the protocol's for every function of it an engine has (self left out)."""
    from chrono_origami.engines import protocol

    checked = 0
    for eng in _engines():
        for proto in (protocol.Engine, *protocol.CAPABILITY_PROTOCOLS.values()):
            for name in _members(proto):
                if hasattr(eng, name):
                    want = inspect.signature(getattr(proto, name))
                    want = want.replace(parameters=list(want.parameters.values())[1:])
                    assert inspect.signature(getattr(eng, name)) == want, f"{eng.name}.{name}"
                    checked += 1
    assert checked >= 2 * len(_members(protocol.Engine))


def test_the_engines_capabilities_are_what_the_analyses_ask_for():
    from chrono_origami import engines
    from chrono_origami.engines import protocol
    from chrono_origami.tools.errors import UsageError

    ref = engines.get("reference", notice=False)
    assert {protocol.FOLDS_SINGULAR_STARTS, protocol.FOLD_TO_TARGETS, protocol.LINEAR_THEORY} <= ref.capabilities
    assert engines.linear() is ref
    assert engines.get(None, notice=False, needs=protocol.FOLD_TO_TARGETS) is ref
    import pickle

    assert pickle.loads(pickle.dumps(ref)) is ref        # a sample sent to another process takes the same engine
    if engines.chrono_available():
        chrono = engines.get("chrono")
        assert protocol.FOLDS_SINGULAR_STARTS not in chrono.capabilities
        assert protocol.NONLINEAR_ELASTIC in chrono.capabilities
        with pytest.raises(UsageError, match="the chrono engine has no fold_to_targets"):
            engines.get("chrono", needs=protocol.FOLD_TO_TARGETS)
        with pytest.raises(UsageError, match="the chrono engine has no fold_to_targets"):
            engines.get(chrono, needs=protocol.FOLD_TO_TARGETS)
        assert pickle.loads(pickle.dumps(chrono)) is chrono
