"""Reading the Commencement cell of an Endnote 3 row into dates.

The cell is free text made of parts, each naming some provisions and when they commenced:
``Sch 2 (item 1), Sch 3 (items 1–21): 1 July 2016 (s 2(1) items 9, 14) Remainder: Royal
Assent``. :func:`parse_commencement` collects every date the text states (outside the
parenthesised section references), resolving ``Royal Assent`` to the assent date and ``the day
after Royal Assent`` to the day after it.

Confidence. ``confident`` is False when the text is empty, states no date, or has any part that
is not a readable date: any word left once dates, Royal Assent phrases, parenthesised references
and provision designators (``Sch``, ``items``, ``s``, ``Remainder``, ``and`` ...) are removed.
Parts that say ``never commenced`` or ``repealed before commencing`` are ignored: they changed
no provision, so they add no date and no doubt (an Act whose only parts are of this kind has no
date and is not confident). A note that ``The commencement date for amendments made by ... was
retrospectively changed from D1 to D2`` adds D2 as a candidate and no doubt.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from asat_corpus.amendment import Commencement
from asat_corpus.text.months import DAY_MONTH_YEAR, MONTH_PATTERN, calendar_date, day_month_year

_NUMERIC_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_DAY_AFTER_ASSENT = re.compile(
    r"(?:the\s+)?day\s+after\s+(?:the\s+day\s+)?(?:this\s+Act\s+receives\s+)?(?:the\s+)?Royal\s+Assent",
    re.IGNORECASE,
)
_ASSENT = re.compile(
    r"(?:the\s+day\s+(?:this\s+Act\s+receives\s+)?)?(?:the\s+)?Royal\s+Assent",
    re.IGNORECASE,
)
_WORD = re.compile(r"(?<![0-9A-Za-z])[A-Za-z]+(?![0-9A-Za-z])")
_ROMAN = re.compile(r"^[IVXL]+[A-Z]?$")
_INNERMOST_GROUP = re.compile(r"\([^()]*\)")
# Words that only designate which provisions a part is about, never when they commence.
_DESIGNATORS = frozenset(
    {
        "s",
        "ss",
        "sch",
        "schs",
        "schedule",
        "schedules",
        "item",
        "items",
        "pt",
        "pts",
        "part",
        "parts",
        "div",
        "division",
        "subdiv",
        "subdivision",
        "ch",
        "chapter",
        "cl",
        "r",
        "remainder",
        "and",
        "to",
        "of",
        "the",
        "act",
        "other",
        "provisions",
        "rest",
        "all",
        "first",
        "second",
        "third",
    }
)


def parse_date(text: str) -> date | None:
    """The single date ``text`` states (``19 May 2017``, ``1 Sept 1997``, ``1/7/2016``), else None."""
    match = DAY_MONTH_YEAR.search(text)
    if match:
        return day_month_year(match)
    numeric = _NUMERIC_DATE.search(text)
    if numeric:
        return calendar_date(int(numeric.group(3)), int(numeric.group(2)), int(numeric.group(1)))
    return None


def _without_parentheses(text: str) -> tuple[str, bool]:
    """``text`` with parenthesised groups blanked (innermost first), and whether they balanced.

    A stray bracket is blanked on its own so that one typo does not swallow the parts after it.
    """
    previous = None
    while previous != text:
        previous = text
        text = _INNERMOST_GROUP.sub(lambda m: " " * len(m.group(0)), text)
    balanced = "(" not in text and ")" not in text
    return text.replace("(", " ").replace(")", " "), balanced


# Parts that changed nothing: their words are not unreadable dates.
_NO_EFFECT = re.compile(r"\b(?:repealed\s+before\s+commencing|never\s+commenced)\b", re.IGNORECASE)
# A note that a part's commencement was changed after the fact: only the new date is a candidate.
_CHANGED_NOTE = re.compile(
    rf"The\s+commencement\s+date\s+for\s+amendments\s+made\s+by\s+[^:]{{0,300}}?\s+was\s+retrospectively\s+"
    rf"changed\s+from\s+\d{{1,2}}\s+(?:{MONTH_PATTERN})\.?,?\s+\d{{4}}\s+"
    rf"to\s+(\d{{1,2}}\s+(?:{MONTH_PATTERN})\.?,?\s+\d{{4}})",
    re.IGNORECASE,
)


def parse_commencement(text: str, assent: date | None, read_changed_notes: bool = True) -> Commencement:
    """Every commencement date ``text`` states, and whether all of it could be read.

    ``text`` is the whole cell, wrapped lines already joined with spaces. ``Royal Assent``
    forms resolve against ``assent``; with no assent date they make the result not confident.
    ``read_changed_notes=False`` reads a "was retrospectively changed" note as unreadable words, as
    before issue 24 (for ``audit-dates``' "before").
    """
    joined = " ".join(text.split())
    readable = _NO_EFFECT.sub(" ", joined)
    if read_changed_notes:
        readable = _CHANGED_NOTE.sub(r" \1 ", readable)
    outside, balanced = _without_parentheses(readable)
    found: list[tuple[int, date]] = []
    confident = balanced and bool(joined)

    def take_dates(match: re.Match[str], value: date | None) -> str:
        nonlocal confident
        if value is None:
            confident = False
        else:
            found.append((match.start(), value))
        return " " * (match.end() - match.start())

    rest = _DAY_AFTER_ASSENT.sub(
        lambda m: take_dates(m, assent + timedelta(days=1) if assent else None),
        outside,
    )
    rest = _ASSENT.sub(lambda m: take_dates(m, assent), rest)
    rest = DAY_MONTH_YEAR.sub(lambda m: take_dates(m, day_month_year(m)), rest)
    rest = _NUMERIC_DATE.sub(
        lambda m: take_dates(m, calendar_date(int(m.group(3)), int(m.group(2)), int(m.group(1)))),
        rest,
    )
    leftovers = [word for word in _WORD.findall(rest) if word.lower() not in _DESIGNATORS and not _ROMAN.match(word)]
    if leftovers or not found:
        confident = False
    dates = tuple(dict.fromkeys(value for _, value in sorted(found)))
    return Commencement(text=joined, dates=dates, confident=confident)
