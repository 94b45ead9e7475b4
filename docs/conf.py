"""Sphinx configuration of chrono-origami's manual (build: python3 -m sphinx -W -b html docs docs/_build/html)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "_ext"))
sys.path.insert(0, os.path.dirname(HERE))           # this tree's chrono_origami, before any installed one

project = "chrono-origami"
author = "chrono-origami developers"
copyright = "chrono-origami developers (BSD-3-Clause)"

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.mathjax", "co_reference"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "**/README.md"]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 4                  # [text](page.md#a-heading) links are checked (-W fails a broken one)
suppress_warnings = []

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"undoc-members": False}

html_theme = "furo"
html_title = "chrono-origami"
html_static_path = []
