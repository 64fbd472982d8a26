"""``python -m asat_research.audit``."""

import sys

from asat_research.audit.cli import main

sys.exit(main())
