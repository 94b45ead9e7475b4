"""``python -m chrono_origami COMMAND ...``: see :mod:`chrono_origami.cli`."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
