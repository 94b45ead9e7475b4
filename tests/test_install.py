"""The two install paths (pip with pyproject.toml's extras, conda with environment.yml) bring the same packages:
in particular the sparse path's SuiteSparseQR (pyspqr), without which counts beyond the dense limit stop."""
import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
#: conda-forge's name where it differs from PyPI's
CONDA_NAME = {"dask[distributed]": "dask"}


def _name(requirement):
    """The distribution name of a PEP 508 requirement or an environment.yml entry, lower case."""
    return re.split(r"[<>=!~;\s]", requirement.strip(), maxsplit=1)[0].lower()


def environment_packages(text):
    """(conda packages, pip packages) named in environment.yml (its two plain lists; no YAML library needed)."""
    conda, pip, in_pip = [], [], False
    for line in text.splitlines():
        m = re.match(r"^(\s*)-\s+(.+?)\s*$", line.split("#")[0])
        if not m:
            continue
        indent, entry = len(m.group(1)), m.group(2)
        if entry == "pip:":
            in_pip = True
            continue
        if in_pip and indent <= 2:
            in_pip = False
        if entry.startswith("-e"):
            continue
        (pip if in_pip else conda).append(_name(entry.split("::")[-1]))
    return conda, pip


def test_environment_yml_has_the_sparse_backend_and_every_dependency():
    conda, pip = environment_packages((ROOT / "environment.yml").read_text())
    assert "pychrono" in conda
    assert "pyspqr" in pip or "suitesparse" in conda, "environment.yml has no sparse backend (pyspqr or suitesparse)"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [r for r in project["dependencies"] if "python_version < '3.11'" not in r]
    wanted += project["optional-dependencies"]["sparse"] + project["optional-dependencies"]["sweep"]
    wanted += project["optional-dependencies"]["export"]
    missing = [r for r in wanted
               if CONDA_NAME.get(_name(r), _name(r)) not in conda + pip and _name(r) not in conda + pip]
    assert missing == []


def test_the_reader_sees_a_missing_backend():
    """The check above can fail: an environment.yml without pyspqr and suitesparse has no sparse backend."""
    text = (ROOT / "environment.yml").read_text()
    without = "\n".join(line for line in text.splitlines() if "pyspqr" not in line)
    conda, pip = environment_packages(without)
    assert "pyspqr" not in pip and "suitesparse" not in conda
    assert "svgelements" in pip and "numpy" in conda and "pychrono" in conda
