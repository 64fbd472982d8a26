"""A compilation date read from a file's own header, for manifest entries that lack one.

Some 2015-era conversions have ``compilation_date: null`` in ``SOURCES.json`` but state the
date in their header: ``Compilation start date: 25 June 2014`` or ``This compilation was
prepared on 2 July 2008``. Only these explicit forms are accepted.
"""

from __future__ import annotations

import re
from datetime import date, datetime

_PATTERNS = (
    re.compile(r"Compilation (?:start )?date:\s*(\d{1,2} [A-Z][a-z]+ \d{4})"),
    re.compile(r"This compilation was prepared on\s*(\d{1,2} [A-Z][a-z]+ \d{4})"),
)
HEADER_LINES = 60


def parse_header_date(text: str) -> tuple[date, str] | None:
    """The compilation date stated in the first lines of ``text`` and the phrase it came from."""
    head = "\n".join(text.splitlines()[:HEADER_LINES])
    for pattern in _PATTERNS:
        match = pattern.search(head)
        if match:
            try:
                return datetime.strptime(match.group(1), "%d %B %Y").date(), match.group(0)
            except ValueError:
                continue
    return None
