"""The manual (docs/): it builds with warnings as errors (broken links and references fail), and its command
reference, generated from the argparse parsers, is what every command's ``--help`` prints."""
import fcntl
import html
import os
import re
import subprocess
import textwrap
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
pytest.importorskip("sphinx", reason="sphinx is not installed (pip install -e '.[docs]')")
pytest.importorskip("myst_parser", reason="myst-parser is not installed (pip install -e '.[docs]')")
pytest.importorskip("furo", reason="furo is not installed (pip install -e '.[docs]')")
sys.path.insert(0, str(DOCS / "_ext"))
import co_reference  # noqa: E402
from docutils import nodes  # noqa: E402


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The manual built as the README says, into a temporary folder: -W, every page read afresh (-E). Built once
    per run: xdist's workers share it (the first to take the lock builds; the folder is the run's own)."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent                 # the run's folder, above each worker's
    out = shared / "docs-html"
    with open(shared / "docs-html.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "index.html").is_file():
            doctrees = shared / "docs-doctrees"
            r = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-E", "-q", "-b", "html",
                                "-d", str(doctrees), str(DOCS), str(out)], capture_output=True, text=True, timeout=60)
            assert r.returncode == 0, r.stdout + r.stderr
            assert r.stderr.strip() == "", r.stderr
    return out


def test_the_manual_builds_with_warnings_as_errors(built):
    index = (built / "index.html").read_text()
    for page in ["reference/commands", "reference/api"]:
        assert (built / f"{page}.html").is_file(), page
        assert f'href="{page}.html"' in index, page


def _pre_blocks(page):
    """The text of every literal block of a built page (Pygments' spans removed, entities unescaped)."""
    blocks = re.findall(r"<pre>(.*?)</pre>", page, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", b)) for b in blocks]


def test_the_command_reference_is_every_commands_help(built, monkeypatch, capsys):
    """Each command's block in the built page is what ``python -m chrono_origami COMMAND --help`` prints: every
    command through the command line's entry point in this process, and ``static`` as a user runs it."""
    from chrono_origami.cli import main

    page = (built / "reference" / "commands.html").read_text()
    blocks = _pre_blocks(page)
    commands = [name for name, _ in co_reference.command_helps() if name is not None]
    assert {"static", "fold", "design", "support", "export", "sweep"} <= set(commands)
    monkeypatch.setenv("COLUMNS", str(co_reference.HELP_COLUMNS))
    monkeypatch.setattr(sys, "argv", [str(Path(main.__code__.co_filename).parent.parent / "__main__.py")])
    expected = {}
    for args in [[]] + [[c] for c in commands]:
        with pytest.raises(SystemExit) as e:
            main([*args, "--help"])
        assert e.value.code == 0, args
        expected[args[0] if args else None] = capsys.readouterr().out
    assert len(blocks) == len(expected)
    for got, name in zip(blocks, expected):
        assert got.rstrip("\n") == expected[name].rstrip("\n"), name
        assert got.startswith(f"usage: python -m chrono_origami {name or ''}".rstrip()), name
    r = subprocess.run([sys.executable, "-m", "chrono_origami", "static", "--help"], capture_output=True, text=True,
                       env=dict(os.environ, COLUMNS=str(co_reference.HELP_COLUMNS)), timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == expected["static"]


def test_the_api_reference_documents_every_public_name(built):
    import chrono_origami as co

    page = (built / "reference" / "api.html").read_text()
    for name in co.__all__:
        assert f'id="{nodes.make_id("co-" + name)}"' in page, name
    # autodoc rendered the docstrings, not the directives' text
    assert ".. auto" not in page
    assert 'id="chrono_origami.static"' in page
    assert co.static.__doc__.split("\n")[0].split(":")[0][:30] in html.unescape(re.sub(r"<[^>]+>", "", page))


def _python_blocks(page):
    text = (DOCS / page).read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_the_architecture_recipes_run_as_written(tmp_path):
    """The recipes' code (a hinge kind, a command, an output format), run in a fresh interpreter: the new command
    is found by the command line and writes its tables in the new format with the new kind counted."""
    blocks = _python_blocks("architecture.md")
    assert len(blocks) == 3
    script = "\n".join(blocks) + textwrap.dedent("""
        import sys
        from chrono_origami.cli import main
        from chrono_origami.structure.hinges import KINDS
        from chrono_origami.report.write import FORMATS
        print("kinds:", sorted(KINDS), "formats:", sorted(FORMATS))
        sys.exit(main(sys.argv[1:]))
    """)
    svg = DOCS / "miura-strip.svg"
    for args, code in [(["hello", str(svg)], 0), (["hello", str(tmp_path / "missing.svg")], 2)]:
        r = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=60,
                           cwd=tmp_path)
        assert r.returncode == code, r.stdout + r.stderr
        assert "'prismatic'" in r.stdout and "'toy'" in r.stdout, r.stdout
        if code == 0:
            assert "12 panels, 16 hinges" in r.stdout, r.stdout
        else:
            assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr


# ------------------------------------------------------------------ the README and the manual's pages
ROOT = DOCS.parent
README = ROOT / "README.md"

#: every section of the README before it moved into the manual -> (page, the heading it has there)
MOVED = {
    "chrono-origami (what it is)": ("index.md", "# chrono-origami"),
    "Quick start": ("tutorial/cantilever.md", "# Tutorial: the paper's cantilever"),
    "Quick start: run the tests": ("install.md", "# Install and run the tests"),
    "Your own pattern": ("tutorial/your-pattern.md", "# Your own pattern"),
    "An Origami Simulator example end to end": ("tutorial/your-pattern.md",
                                                "## An Origami Simulator example end to end"),
    "Where no design is isostatic: elastic hinges": ("howto/elastic-hinges.md",
                                                     "# Where no design is isostatic: elastic hinges"),
    "Scenes and the output contract": ("tutorial/cantilever.md", "## Scenes and the output contract"),
    "Commands": ("reference/command-line.md", "# The command line at a glance"),
    "Folding your pattern": ("howto/fold-and-design.md", "## Folding your pattern"),
    "Supports and loads": ("howto/supports-and-loads.md", "# Supports and loads"),
    "Supports and loads: exit codes": ("reference/exit-codes.md", "# Exit codes and errors"),
    "In Python": ("howto/python.md", "# In Python"),
    "In your own Chrono script": ("howto/chrono-script.md", "# In your own Chrono script"),
    "Engines": ("howto/engines.md", "# Engines"),
    "Folding, design, modes": ("howto/fold-and-design.md", "## Folding, design, modes"),
    "Modes of your structure": ("howto/modes.md", "# Modes of your structure"),
    "Thick panels: placement and contact": ("howto/thickness-and-contact.md", "# Thick panels: placement and contact"),
    "Deployment: actuator torques and hinge forces along the fold": (
        "howto/deployment.md", "# Deployment: actuator torques and hinge forces along the fold"),
    "Dynamics": ("howto/dynamics.md", "# Dynamics"),
    "Fabrication tolerances": ("howto/tolerances.md", "# Fabrication tolerances"),
    "Parametric sweeps on Dask": ("howto/sweeps.md", "# Parametric sweeps on Dask"),
    "Results page in the browser": ("howto/results-page.md", "# Results page in the browser"),
    "Export: panels for the workshop, results for ParaView": (
        "howto/export.md", "# Export: panels for the workshop, results for ParaView"),
    "Scale": ("scale.md", "# Scale and benchmarks"),
    "Threads": ("scale.md", "## Threads"),
    "Conventions": ("reference/conventions.md", "# Conventions"),
    "Layout (data flows one way)": ("architecture.md", "## Layers (data flows one way)"),
}


def test_every_section_of_the_old_readme_is_a_page_of_the_manual(built):
    index = (built / "index.html").read_text()
    for old, (page, heading) in MOVED.items():
        assert heading in (DOCS / page).read_text().splitlines(), (old, page, heading)
        html_page = page[:-3] + ".html"
        assert (built / html_page).is_file(), (old, page)
        assert page == "index.md" or f'href="{html_page}"' in index, (old, page)   # one click from the index


def test_the_readme_is_short_and_links_into_the_manual():
    text = README.read_text()
    assert len(text.splitlines()) < 250
    links = re.findall(r"\]\((docs/[^)#]*)", text)
    assert len(links) >= 25
    assert [link for link in links if not (ROOT / link).exists()] == []
    assert "python3 -m pip install -e '.[test]' && python3 -m pytest -q -rs" in text
    assert ("python3 -m pip install -e '.[test]' && python3 scenes/miura_cantilever.py --out out/miura_cantilever"
            in text)
    assert "python3 -m pip install -e '.[docs]' && python3 -m sphinx -W -b html docs docs/_build/html" in text
    rows = re.findall(r"^\| `(\w+)` \|", text, re.M)         # one line per command, every command
    assert sorted(rows) == sorted(name for name, _ in co_reference.command_helps() if name is not None)


def test_ci_runs_the_readmes_test_command():
    """``.ci/run`` runs the README's test command (pip's ``-q`` aside), both with and without PyChrono."""
    text = README.read_text()
    command = re.search(r"^python3 -m pip install .*python3 -m pytest.*$", text, re.M).group(0)
    ci = (ROOT / ".ci" / "run").read_text()
    body = re.search(r"readme_tests\(\) \{\n\s*(.*)\n\}", ci).group(1)
    assert body.replace("pip install -q ", "pip install ") == command
    assert len(re.findall(r"^\s*readme_tests\b(?!\(\))", ci, re.M)) == 2     # once with, once without PyChrono


def test_the_readmes_journey_is_the_tested_walk_through():
    """The README's commands on your own file are those of the manual's walk-through, which
    tests/test_readme_walkthrough.py runs, checking every line it quotes."""
    from readme_blocks import code_block, section

    page, part = section("Your own pattern")
    assert page == DOCS / "tutorial" / "your-pattern.md"
    text = README.read_text()
    part = text[text.index("## Your own pattern in five commands"):]
    journey = re.search(r"```\n(.*?)```", part, re.S).group(1).splitlines()
    assert journey == [command for command, _ in code_block("Your own pattern")]


def _dollar_blocks():
    """(page, the heading above it) of every code block of the manual and the README with a ``$`` command."""
    found = []
    for page in [*sorted(DOCS.glob("**/*.md")), README]:
        heading, inside, has = None, False, False
        for line in page.read_text().splitlines():
            if line.startswith("```"):
                if inside and has:
                    found.append((page.relative_to(ROOT).as_posix(), heading))
                inside, has = not inside, False
            elif inside:
                has = has or line.startswith("$ ")
            elif re.match(r"#+ ", line):
                heading = line.lstrip("#").strip()
    return found


#: the blocks with a ``$`` prompt no test runs: the modal walk needs the scene's Chrono equilibrium file
NOT_RUN = set()


def test_every_dollar_block_is_run_by_a_test():
    """Each block of ``$`` commands sits under a heading that a test reads it by (``code_block``, ``section``,
    ``readme_block``), as the README's were."""
    sources = "\n".join(p.read_text() for p in sorted((ROOT / "tests").glob("test_*.py"))
                        if p.name != "test_docs.py")
    titles = {t.lstrip("#").strip() for t in re.findall(r'"(#{0,4} ?[A-Z][^"\n]{6,})"', sources)}
    blocks = _dollar_blocks()
    assert len(blocks) >= 7
    unread = {(page, heading) for page, heading in blocks if not any(heading.startswith(t) for t in titles)}
    assert unread == NOT_RUN
