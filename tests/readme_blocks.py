"""The manual's command walk-throughs as tests read them: a code block of ``$ command`` lines, each followed by
the lines it is quoted to print (a line ending in " ..." stands for its beginning; "..." for lines left out).

The walk-throughs moved from the README into the manual's pages (``docs/``); a block is found by the heading of
its section, whatever its level and page: the first line ``#... <heading text>`` of the manual's pages (then the
README's; a whole heading before one it begins), so a test names the section as a reader sees it."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MANUAL = ROOT / "docs"


def pages():
    """The manual's Markdown pages, then the README."""
    return [*sorted(MANUAL.glob("**/*.md")), README]


def section(heading):
    """(page, text from the line of ``heading`` on): ``heading`` as ``### Title`` or ``Title``; a heading that is
    exactly the title first, else the first that begins with it."""
    title = heading.lstrip("#").strip()
    exact = re.compile(r"^#+ " + re.escape(title) + r"[ \t]*$", re.M)
    for line in (exact, re.compile(r"^#+ " + re.escape(title), re.M)):
        for page in pages():
            text = page.read_text()
            m = line.search(text)
            if m:
                return page, text[m.start():]
    raise AssertionError(f"no section {title!r} in the manual's pages nor the README")


def code_block(heading):
    """[(command, [quoted lines])] of the first code block after the section ``heading`` (see :func:`section`)."""
    part = section(heading)[1]
    block = re.search(r"```\n(.*?)```", part, re.S).group(1)
    steps = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


def assert_quoted_lines_printed(command, quoted, output):
    """Every quoted line of ``command`` is among the lines of ``output`` (stdout and stderr), as the module doc says."""
    printed = [x.rstrip() for x in output.splitlines()]
    for q in quoted:
        if q == "...":
            continue
        if q.endswith(" ..."):
            assert any(p.startswith(q[:-4]) for p in printed), (command, q, "\n".join(printed))
        else:
            assert q.rstrip() in printed, (command, q, "\n".join(printed))
