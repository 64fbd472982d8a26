"""``python -m asat_accounts``."""

import sys

from asat_accounts.cli import main

sys.exit(main())
