"""``python -m asat_audit``."""

import sys

from asat_audit.cli import main

sys.exit(main())
