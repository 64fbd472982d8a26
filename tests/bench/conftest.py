"""The bench tests import the bench helpers from scripts/ (pytest runs with --import-mode=importlib,
which does not put it on sys.path)."""

from __future__ import annotations

import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))
