"""The manual (docs/): it builds with warnings as errors (broken links and references fail), and its command
reference, generated from the argparse parsers, is what every command's ``--help`` prints."""
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
    """The manual built as the README says, into a temporary folder: -W, every page read afresh (-E)."""
    out = tmp_path_factory.mktemp("html")
    doctrees = tmp_path_factory.mktemp("doctrees")
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
