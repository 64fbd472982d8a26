"""Abbreviations an agent writes and the Acts spell out, for the search query (pure).

Agents write "SMSF"; the SIS Act says "self managed superannuation fund" and defines it under
that name (s 17A), so a search on the abbreviation alone finds the rulings that use it and misses
the law. :func:`spelled_out` appends each abbreviation's long form, in brackets, after it: the
question's own words are kept (rulings use the short form) and the law's words are added. Only
abbreviations that the legislation itself does not use for the concept are listed: "CGT",
"GST", "PAYG" and "RSA" are the Acts' own words and are left as they are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

ABBREVIATIONS: Mapping[str, str] = {
    "smsf": "self managed superannuation fund",
    "sbe": "small business entity",
    "tfn": "tax file number",
    "ess": "employee share scheme",
}

_ABBREVIATION = re.compile(r"\b(" + "|".join(ABBREVIATIONS) + r")(s)?\b", re.IGNORECASE)


def spelled_out(question: str) -> str:
    """``question`` with each listed abbreviation followed by its long form: "An SMSF could have
    up to 10 members" reads "An SMSF (self managed superannuation fund) could have ...". A
    question with none is returned unchanged."""

    def expand(match: re.Match[str]) -> str:
        long_form = ABBREVIATIONS[match.group(1).casefold()]
        return f"{match.group(0)} ({long_form}{'s' if match.group(2) else ''})"

    return _ABBREVIATION.sub(expand, question)
