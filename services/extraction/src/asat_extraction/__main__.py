"""``python -m asat_extraction``: the CLI (``extract``, ``serve``)."""

from __future__ import annotations

import sys

from asat_extraction.cli import main

if __name__ == "__main__":
    sys.exit(main())
