"""Abbreviations an agent writes and the Acts spell out, for the search query (pure).

Agents write "SMSF"; the SIS Act says "self managed superannuation fund" and defines it under
that name (s 17A), so a search on the abbreviation alone finds the rulings that use it and misses
the law. :func:`spelled_out` appends each abbreviation's long form, in brackets, after it: the
question's own words are kept (rulings use the short form) and the law's words are added. Listed
are abbreviations whose concept the Acts' operative words spell out ("self managed
superannuation fund", "small business entity"; the Acts write "TFN" and "ESS" too, in compounds
such as "TFN declaration" and "ESS interest", and the long form costs those nothing). "CGT",
"GST", "PAYG" and "RSA" are the Acts' own words throughout and are left as they are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

ABBREVIATIONS: Mapping[str, tuple[str, str]] = {
    "smsf": ("self managed superannuation fund", "self managed superannuation funds"),
    "sbe": ("small business entity", "small business entities"),
    "tfn": ("tax file number", "tax file numbers"),
    "ess": ("employee share scheme", "employee share schemes"),
}
"""Each abbreviation (cased down) with its long form, singular and plural."""

_ABBREVIATION = re.compile(r"\b(" + "|".join(map(re.escape, ABBREVIATIONS)) + r")(s)?\b", re.IGNORECASE)


def spelled_out(question: str) -> str:
    """``question`` with each listed abbreviation followed by its long form: "An SMSF could have
    up to 10 members" reads "An SMSF (self managed superannuation fund) could have ...". A
    question with none is returned unchanged."""

    def expand(match: re.Match[str]) -> str:
        singular, plural = ABBREVIATIONS[match.group(1).casefold()]
        return f"{match.group(0)} ({plural if match.group(2) else singular})"

    return _ABBREVIATION.sub(expand, question)
