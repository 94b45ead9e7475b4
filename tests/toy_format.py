"""A toy output format in one file, as a new format is added (``report.write.register_format``): each table as a
line ``name: columns`` and its rows, space-separated (tests/test_table_formats.py)."""
from chrono_origami.report import write


def write_toy(table, path):
    with open(path, "w") as f:
        f.write(f"{table.name}: {' '.join(table.columns)}\n")
        for r in table.rows:
            f.write(" ".join(write.cell(x) for x in r) + "\n")


def register():
    write.register_format("toy", "toy", write_toy)
