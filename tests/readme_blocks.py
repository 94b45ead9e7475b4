"""The README's command walk-throughs as tests read them: a code block of ``$ command`` lines, each followed by
the lines it is quoted to print (a line ending in " ..." stands for its beginning; "..." for lines left out)."""
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def code_block(heading):
    """[(command, [quoted lines])] of the first code block after the README's line ``heading``."""
    text = README.read_text()
    part = text[text.index(heading):]
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
