"""The public API (``import chrono_origami as co``) and the README's Python examples, run as written."""
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import chrono_origami as co
from chrono_origami.analysis import static as analysis, deploy, design, dynamics, fold as folding, modal, support as support_proposal
from chrono_origami.inputs import fold as fold_inputs
from chrono_origami.structure import foldfile, hinges, structure
from chrono_origami.patterns import kresling, miura, simple, tessellations, yoshimura
from chrono_origami.report import tables

ROOT = Path(__file__).resolve().parents[1]
#: the Python examples of the manual's how-to guides "In Python" and "In your own Chrono script", in that order
README_BLOCKS = [b for page in ("python.md", "chrono-script.md")
                 for b in re.findall(r"^```python\n(.*?)^```", (ROOT / "docs" / "howto" / page).read_text(), re.S | re.M)]


def test_the_public_names_are_the_package_objects():
    expected = {"miura": miura, "yoshimura": yoshimura, "kresling": kresling, "simple": simple,
                "tessellations": tessellations,
                "Structure": structure.Structure, "Support": structure.Support, "Load": structure.Load,
                "DOOR": hinges.DOOR, "SLIDING": hinges.SLIDING, "read_structure": foldfile.read_structure,
                "write_fold": foldfile.write_fold, "count": analysis.count, "static": analysis.static,
                "fold": folding.fold, "FoldProblem": fold_inputs.FoldProblem, "Drive": fold_inputs.Drive,
                "fold_to_targets": folding.fold_to_targets, "deployment": deploy.deployment,
                "design": design.design, "modal": modal.modal, "dynamics": dynamics.dynamics, "tables": tables,
                "propose_support": support_proposal.propose_support}
    from chrono_origami.crease.pattern import CreasePattern

    expected["CreasePattern"] = CreasePattern
    from chrono_origami.analysis import tolerance as tolerances
    from chrono_origami.structure import tolerance as imperfections

    expected.update(tolerances=tolerances, tolerance=tolerances.tolerance, ToleranceSpec=imperfections.ToleranceSpec,
                    HingeStiffness=imperfections.HingeStiffness)
    from chrono_origami.cli import sweep

    expected.update(sweep=sweep.sweep)
    import chrono_origami.report

    expected.update(report=chrono_origami.report)
    from chrono_origami.report import export

    expected.update(export=export.export)
    assert set(co.__all__) == set(expected)
    for name, obj in expected.items():
        assert getattr(co, name) is obj, name
    assert callable(co.design) and callable(co.dynamics) and callable(co.modal) and callable(co.tolerance)
    # one verb per analysis, as on the command line; the modules stay importable from chrono_origami.analysis
    import importlib

    for verb in ("modal", "dynamics", "tolerance"):
        module = importlib.import_module(f"chrono_origami.analysis.{verb}")
        assert getattr(co, verb) is getattr(module, verb) and getattr(co, verb).__module__ == module.__name__
    assert callable(modal.solve_modes) and callable(modal.structure_modes)
    assert callable(co.report.html)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        co.no_such_name
    assert {"build_system", "structure_modes"} <= set(dir(co))


def _run(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_import_works_without_pychrono_and_chrono_names_are_lazy():
    # PyChrono made unimportable: the package, `import *` and the analyses work; the Chrono names raise on use
    r = _run("import sys\nsys.modules['pychrono'] = None\n"
             "import chrono_origami as co\nfrom chrono_origami import *\n"
             "c = count(miura.miura_cantilever())\nprint(c.M, c.S)\n"
             "try:\n    co.build_system\nexcept ImportError as e:\n    print(type(e).__name__)\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["0 0", "ChronoUnavailable"]
    # with PyChrono installed, importing the package (and all of __all__) does not import it
    r = _run("import sys\nimport chrono_origami as co\nfrom chrono_origami import *\n"
             "print('pychrono' in sys.modules)\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


def _block_param(k, code):
    marks = [pytest.mark.chrono] if "import pychrono" in code else []
    return pytest.param(code, id=f"block{k + 1}{'-chrono' if marks else ''}", marks=marks)


def test_the_readme_has_a_python_block_with_and_without_chrono():
    assert len(README_BLOCKS) == 2
    assert "import pychrono" not in README_BLOCKS[0] and "import pychrono" in README_BLOCKS[1]


@pytest.mark.parametrize("code", [_block_param(k, c) for k, c in enumerate(README_BLOCKS)])
def test_readme_python_block_runs(code, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    ns = {}
    exec(compile(code, "README.md", "exec"), ns)
    result = ns["result"]
    assert capsys.readouterr().out == tables.format_result(result) + "\n"
    assert result.status == "determined" and result.engine == ("chrono" if "pychrono" in code else "reference")
    ref = analysis.static(ns["structure"], "reference")
    scale = max(np.abs(a.values).max() for a in ref.hinge_actions)
    for a, b in zip(result.hinge_actions, ref.hinge_actions):
        np.testing.assert_allclose(a.values, b.values, atol=1e-7 * scale)


def _source_module(parts):
    """(path of the package's source file for the longest module prefix of ``parts``, the names after it)."""
    for k in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:k])
        for path in (base.with_suffix(".py"), base / "__init__.py"):
            if path.is_file():
                return path, parts[k:]
    return None, parts


def _defines(path, names):
    """True when the module at ``path`` defines ``names[0]`` (a def, class, assignment or import) and, for a
    dotted rest, that name's class body or imported module defines the rest. Read from the source (the ast), never
    imported: a name in the Chrono engine resolves where PyChrono is missing or crashes at import."""
    import ast

    if not names:
        return True
    tree = ast.parse(path.read_text())
    body, rest = tree.body, list(names)
    while rest:
        name = rest.pop(0)
        found = None
        for node in body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                found = node
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                    found = node
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    if (alias.asname or alias.name.split(".")[0]) == name:
                        if isinstance(node, ast.ImportFrom) and node.level:      # a relative import: follow it
                            pkg = path.parent
                            for _ in range(node.level - 1):
                                pkg = pkg.parent
                            mod = [*pkg.relative_to(ROOT).parts, *(node.module or "").split(".")]
                            mod = [m for m in mod if m]
                            sub, after = _source_module(mod + [alias.name])
                            return sub is not None and _defines(sub, after + rest)
                        found = node
        if found is None:
            return False
        if not rest:
            return True
        if not isinstance(found, ast.ClassDef):
            return True         # an attribute of a value: as far as the source can tell
        body = found.body
    return True


def test_the_module_paths_and_names_the_readme_and_docs_give_exist():
    """Every ``chrono_origami/...py`` path and ``chrono_origami.a.b`` name in README.md and docs/ is a file of the
    package or a name it defines, so that a reader who follows one finds it. Resolved from the source, not by
    importing: the Chrono engine's names exist whether or not PyChrono imports here."""

    def resolves(dotted):
        path, names = _source_module(dotted.split("."))
        return path is not None and _defines(path, names)

    assert resolves("chrono_origami.engines.chrono.links.DoorHinge")
    assert resolves("chrono_origami.analysis.fold.fold_to_targets")
    assert not resolves("chrono_origami.engines.chrono.links.NoSuchHinge")
    assert not resolves("chrono_origami.no_such_module")
    stale = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]:
        text = page.read_text()
        stale += [f"{page.name}: {p}" for p in re.findall(r"chrono_origami/[\w/]*\.py", text) if not (ROOT / p).exists()]
        stale += [f"{page.name}: {d}" for d in re.findall(r"\bchrono_origami(?:\.\w+)+", text) if not resolves(d)]
    assert stale == []


def test_no_text_points_at_an_issue_number():
    """A reader cannot look up "issue 18": docs, docstrings, comments and benchmarks say what is meant instead."""
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("**/*.md"), *(ROOT / "chrono_origami").glob("**/*.py"),
             *(ROOT / "tests").glob("**/*.py"), *(ROOT / "scenes").glob("**/*.py"),
             *(ROOT / "benchmarks").glob("**/*.py")]
    pointer = re.compile(r"\bissues?\s*#?\d+|\bissue\s+\d+'s", re.I)
    found = []
    for p in pages:
        if p.name == "test_public_api.py":
            continue
        for n, line in enumerate(p.read_text().splitlines(), 1):
            if pointer.search(line):
                found.append(f"{p.relative_to(ROOT)}:{n}")
    assert found == []
