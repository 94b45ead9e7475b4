"""Data flows one way: the crease-pattern and structure layer imports nothing from the engines or analyses."""
import ast
import os

import pytest

PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "chrono_origami")
#: the engine-neutral layer below the engines (module paths relative to the package, without .py)
MODEL_LAYER = {"errors", "geometry", "pattern", "hinges", "structure", "properties",
               "patterns/__init__", "patterns/kresling", "patterns/miura", "patterns/simple", "patterns/yoshimura"}


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


@pytest.mark.parametrize("module", sorted(m for m in MODEL_LAYER if os.path.exists(os.path.join(PACKAGE, m + ".py"))))
def test_model_layer_imports_only_the_model_layer(module):
    upward = [f"line {line}: {target}" for line, target in package_imports(module)
              if target not in MODEL_LAYER and target + "/__init__" not in MODEL_LAYER]
    assert not upward, f"{module}.py imports from above its layer: {upward}"


def test_the_import_reader_sees_relative_and_absolute_imports():
    found = {t for _, t in package_imports("patterns/kresling")}
    assert {"errors", "pattern", "structure"} <= found
    assert ("reference/statics" in {t for _, t in package_imports("design")})
