"""The public API (``import chrono_origami as co``) and the README's Python examples, run as written."""
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import chrono_origami as co
from chrono_origami.analysis import statics as analysis, design, dynamics, fold as folding, modal, support_proposal
from chrono_origami.inputs import fold as fold_inputs
from chrono_origami.structure import foldfile, hinges, structure
from chrono_origami.patterns import kresling, miura, simple, tessellations, yoshimura
from chrono_origami.report import tables

ROOT = Path(__file__).resolve().parents[1]
README_BLOCKS = re.findall(r"^```python\n(.*?)^```", (ROOT / "README.md").read_text(), re.S | re.M)


def test_the_public_names_are_the_package_objects():
    expected = {"miura": miura, "yoshimura": yoshimura, "kresling": kresling, "simple": simple,
                "tessellations": tessellations,
                "Structure": structure.Structure, "Support": structure.Support, "Load": structure.Load,
                "DOOR": hinges.DOOR, "SLIDING": hinges.SLIDING, "read_structure": foldfile.read_structure,
                "write_fold": foldfile.write_fold, "count": analysis.count, "static": analysis.static,
                "fold": folding.fold, "FoldProblem": fold_inputs.FoldProblem, "Drive": fold_inputs.Drive,
                "fold_to_targets": folding.fold_to_targets,
                "design": design.design, "modal": modal, "dynamics": dynamics, "tables": tables,
                "propose_support": support_proposal.propose_support}
    from chrono_origami.crease.pattern import CreasePattern

    expected["CreasePattern"] = CreasePattern
    from chrono_origami.analysis import tolerances
    from chrono_origami.structure import imperfections

    expected.update(tolerances=tolerances, ToleranceSpec=imperfections.ToleranceSpec,
                    HingeStiffness=imperfections.HingeStiffness)
    from chrono_origami.cli import sweep

    expected.update(sweep=sweep.sweep)
    assert set(co.__all__) == set(expected)
    for name, obj in expected.items():
        assert getattr(co, name) is obj, name
    assert callable(co.design) and callable(co.dynamics.dynamics) and callable(co.modal.solve_modes)
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


def test_the_module_paths_and_names_the_readme_and_docs_give_exist():
    """Every ``chrono_origami/...py`` path and ``chrono_origami.a.b`` name in README.md and docs/ is a file of the
    package or a name it imports, so that a reader who follows one finds it."""
    import importlib

    from chrono_origami.tools.errors import ChronoUnavailable

    def resolves(dotted):
        parts = dotted.split(".")
        for k in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:k]))
            except ChronoUnavailable:      # the Chrono engine's modules without PyChrono: read, not imported
                path = ROOT / ("/".join(parts[:k]) + ".py")
                if not path.exists():
                    continue
                rest = parts[k:]
                return not rest or re.search(rf"^(class|def)\s+{rest[0]}\b|^{rest[0]}\s*=", path.read_text(),
                                             re.M) is not None
            except ImportError:
                continue
            try:
                for name in parts[k:]:
                    obj = getattr(obj, name)
            except AttributeError:
                return False
            return True
        return False

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
