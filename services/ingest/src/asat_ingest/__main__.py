"""Entry point for ``python -m asat_ingest``."""

import sys

from asat_ingest.cli import main

sys.exit(main())
