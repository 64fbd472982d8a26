"""Entry point for ``python -m asat_corpus``."""

import sys

from asat_corpus.cli import main

sys.exit(main())
