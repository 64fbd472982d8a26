"""Checkable facts in a text: money, percentages, dates, income years, provisions and numbers.

Each fact has a ``key`` that is equal for equal values however written: ``$10 million`` and
``$10,000,000`` are both ``money:10000000``; ``1 July 2017`` and ``2017-07-01`` are both
``date:2017-07-01``; ``s 8-1`` and ``section 8–1`` are both ``provision:section:8-1``. Text is
read after the corpus normalisation. Money, percentages and numbers are the figures
:func:`asat_corpus.text.figures.read_figures` reads (``$2.5b`` is ``money:2500000000``); a
duration or member count is checked as its number (``3 years`` is ``number:3``, and ``years``
stays a word of the text). Month names are those of :mod:`asat_corpus.text.months`. Pure
functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from asat_corpus.contracts.verification import GroundednessCheck
from asat_corpus.normalise import normalise
from asat_corpus.text.figures import Figure, FigureKind, read_figures
from asat_corpus.text.months import DAY_MONTH_YEAR, MONTH_PATTERN, month_number
from asat_corpus.text.numbers import number_text

_MONTH = rf"(?P<month>{MONTH_PATTERN})\.?"
_DASH = r"[-\u2013]"

_SECTION_KINDS = {
    "section": "section",
    "sections": "section",
    "s": "section",
    "ss": "section",
    "subsection": "section",
    "subsections": "section",
    "paragraph": "section",
    "paragraphs": "section",
    "para": "section",
    "subparagraph": "section",
    "division": "division",
    "divisions": "division",
    "div": "division",
    "subdivision": "subdivision",
    "subdiv": "subdivision",
    "part": "part",
    "parts": "part",
    "schedule": "schedule",
    "sch": "schedule",
    "item": "item",
    "items": "item",
    "regulation": "regulation",
    "reg": "regulation",
    "rule": "rule",
    "clause": "clause",
    "cl": "clause",
}
_PROVISION = re.compile(
    r"\b(?P<kind>" + "|".join(sorted(_SECTION_KINDS, key=len, reverse=True)) + r")\.?\s+"
    r"(?P<id>\d+[A-Z]{0,3}(?:" + _DASH + r"(?:\d+[A-Z]{0,3}|[A-Z]{1,2}))?|(?-i:[IVXL]+[A-Z]{0,2}))"
    r"(?P<sub>(?:\(\w{1,6}\))*)(?![\w-])",
    re.IGNORECASE,
)
_BARE_PROVISION = re.compile(
    r"(?<![\w$.,-])(?P<id>\d+[A-Z]{0,3}" + _DASH + r"\d+[A-Z]{0,3})(?P<sub>(?:\(\w{1,6}\))*)(?![\w-])"
)
_INCOME_YEAR = re.compile(r"(?<![\w-])(?P<a>(?:19|20)\d{2})[-\u2013/](?P<b>\d{2}|\d{4})(?![\w-])")
_DATE_MDY = re.compile(r"\b" + _MONTH + r"\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<year>\d{4})\b", re.IGNORECASE)
_DATE_ISO = re.compile(r"\b(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})\b")
_DATE_SLASH = re.compile(r"\b(?P<day>\d{1,2})/(?P<month>\d{1,2})/(?P<year>\d{4})\b")
_DATE_DM = re.compile(r"\b(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+" + _MONTH + r"(?![\w])", re.IGNORECASE)
# Durations and member counts are checked as numbers; their unit stays a word of the text.
_UNIT_FIGURES = frozenset({FigureKind.DURATION, FigureKind.COUNT})


@dataclass(frozen=True)
class Fact:
    """One checkable value: ``key`` compares values, ``written`` is how the text put it."""

    check: GroundednessCheck
    key: str
    written: str


def _provision_id(raw: str) -> str:
    return re.sub(_DASH, "-", raw).upper()


def provision_keys(kind_word: str, number: str) -> tuple[str, ...]:
    """Keys of a provision reference; a section also implies its ITAA 1997 Division (``8-1`` -> 8)."""
    kind = _SECTION_KINDS.get(kind_word.lower().rstrip("."), "section")
    ident = _provision_id(number)
    keys = [f"provision:{kind}:{ident}"]
    if kind == "section" and "-" in ident:
        keys.append(f"provision:division:{ident.split('-', 1)[0]}")
    return tuple(keys)


def metadata_provision_keys(provision: str) -> tuple[str, ...]:
    """Keys implied by a source's provision id (``8-1``, ``109D``, ``sch1-12-35``)."""
    ident = provision.strip()
    keys: list[str] = []
    schedule = re.fullmatch(r"sch(\w+)-(.+)", ident, re.IGNORECASE)
    if schedule:
        keys.append(f"provision:schedule:{schedule.group(1).upper()}")
        ident = schedule.group(2)
    keys.extend(provision_keys("section", ident))
    return tuple(keys)


class _Reader:
    """Finds facts pattern by pattern, blanking each match so later patterns do not re-read it."""

    def __init__(self, text: str) -> None:
        self.text = normalise(text)
        self._masked = self.text

    def _blank(self, start: int, end: int) -> None:
        self._masked = self._masked[:start] + " " * (end - start) + self._masked[end:]

    def take(self, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        matches = list(pattern.finditer(self._masked))
        for match in matches:
            self._blank(*match.span())
        return iter(matches)

    def take_figures(self) -> tuple[Figure, ...]:
        """The figures left (:func:`read_figures`); of a duration or count only the number is blanked."""
        figures = read_figures(self._masked)
        for figure in figures:
            self._blank(
                figure.start, figure.start + len(figure.numeral) if figure.kind in _UNIT_FIGURES else figure.end
            )
        return figures

    @property
    def rest(self) -> str:
        return self._masked


def _date_key(year: str | None, month: str, day: str) -> str | None:
    number = int(month) if month.isdigit() else month_number(month)
    if number is None or not 1 <= number <= 12 or not 1 <= int(day) <= 31:
        return None
    prefix = f"{int(year):04d}" if year is not None else "-"
    return f"date:{prefix}-{number:02d}-{int(day):02d}"


@dataclass(frozen=True)
class FactReading:
    """The facts of a text and the text with every fact blanked out (for word-level checks)."""

    facts: tuple[Fact, ...]
    rest: str


def extract_facts(text: str) -> tuple[Fact, ...]:
    """Every money amount, percentage, date, income year, provision reference and number in ``text``."""
    return read_facts(text).facts


def read_facts(text: str) -> FactReading:
    """The facts of ``text`` and what is left of it once they are blanked out."""
    reader = _Reader(text)
    facts: list[Fact] = []
    for match in reader.take(_PROVISION):
        for key in provision_keys(match["kind"], match["id"])[:1]:
            facts.append(Fact(GroundednessCheck.PROVISION, key, match.group(0)))
    for match in reader.take(_INCOME_YEAR):
        first, second = int(match["a"]), int(match["b"])
        if second % 100 == (first + 1) % 100 and (second < 100 or second == first + 1):
            facts.append(Fact(GroundednessCheck.DATE, f"income-year:{first + 1}", match.group(0)))
        else:
            facts.append(Fact(GroundednessCheck.NUMBER, f"number:{first}", match["a"]))
            facts.append(Fact(GroundednessCheck.NUMBER, f"number:{second}", match["b"]))
    for match in reader.take(_BARE_PROVISION):
        facts.append(Fact(GroundednessCheck.PROVISION, provision_keys("section", match["id"])[0], match.group(0)))
    for pattern in (DAY_MONTH_YEAR, _DATE_MDY, _DATE_ISO, _DATE_SLASH):
        for match in reader.take(pattern):
            full = _date_key(match["year"], match["month"], match["day"])
            if full is not None:
                facts.append(Fact(GroundednessCheck.DATE, full, match.group(0)))
    for match in reader.take(_DATE_DM):
        partial = _date_key(None, match["month"], match["day"])
        if partial is not None:
            facts.append(Fact(GroundednessCheck.DATE, partial, match.group(0)))
    facts.extend(_figure_fact(figure) for figure in reader.take_figures())
    return FactReading(tuple(facts), reader.rest)


def _figure_fact(figure: Figure) -> Fact:
    value = number_text(figure.amount)
    if figure.kind is FigureKind.MONEY:
        return Fact(GroundednessCheck.MONEY, f"money:{value}", figure.written)
    if figure.kind is FigureKind.PERCENT:
        return Fact(GroundednessCheck.PERCENTAGE, f"percent:{value}", figure.written)
    return Fact(
        GroundednessCheck.NUMBER, f"number:{value}", figure.numeral if figure.kind in _UNIT_FIGURES else figure.written
    )


def implied_keys(fact: Fact) -> tuple[str, ...]:
    """Further keys that a fact in a QUOTE supports (a date supports its year and partial date,
    an income year its two calendar years, a section its Division)."""
    if fact.key.startswith("date:") and not fact.key.startswith("date:-"):
        year, month, day = fact.key.removeprefix("date:").split("-")
        return (f"number:{int(year)}", f"date:--{month}-{day}")
    if fact.key.startswith("income-year:"):
        ending = int(fact.key.removeprefix("income-year:"))
        return (f"number:{ending - 1}", f"number:{ending}")
    if fact.key.startswith("provision:section:") and "-" in fact.key:
        return (f"provision:division:{fact.key.removeprefix('provision:section:').split('-', 1)[0]}",)
    return ()
