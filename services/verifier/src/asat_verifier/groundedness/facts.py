"""Checkable facts in a text: money, percentages, dates, income years, provisions and numbers.

Each fact has a ``key`` that is equal for equal values however written: ``$10 million`` and
``$10,000,000`` are both ``money:10000000``; ``1 July 2017`` and ``2017-07-01`` are both
``date:2017-07-01``; ``s 8-1`` and ``section 8–1`` are both ``provision:section:8-1``. Text is
read after the corpus normalisation. Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from asat_corpus.contracts.verification import GroundednessCheck
from asat_corpus.normalise import normalise

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MONTH = r"(?P<m>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DASH = r"[-\u2013]"
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"

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
_DATE_DMY = re.compile(r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+" + _MONTH + r",?\s+(?P<y>\d{4})\b", re.IGNORECASE)
_DATE_MDY = re.compile(r"\b" + _MONTH + r"\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y>\d{4})\b", re.IGNORECASE)
_DATE_ISO = re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b")
_DATE_SLASH = re.compile(r"\b(?P<d>\d{1,2})/(?P<m>\d{1,2})/(?P<y>\d{4})\b")
_DATE_DM = re.compile(r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+" + _MONTH + r"(?![\w])", re.IGNORECASE)
_MONEY = re.compile(
    r"(?:\bA\$|\bAUD\s?|\$)\s?(?P<n>" + _NUMBER + r")(?:\s?(?P<scale>million|billion|thousand|bn|m|k)\b)?"
    r"|\b(?P<n2>" + _NUMBER + r")\s?(?P<scale2>million|billion|thousand)?\s?(?:dollars|AUD)\b",
    re.IGNORECASE,
)
_PERCENT = re.compile(r"(?<![\w.])(?P<n>" + _NUMBER + r")\s?(?:%|per\s?cent\b|percent\b)", re.IGNORECASE)
_PLAIN_NUMBER = re.compile(r"(?<![\w.])(?P<n>" + _NUMBER + r")(?![\w])")
_NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
    if value >= 2  # "one" is too often a pronoun ("one of the following") to check
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_NUMBER_WORD = re.compile(r"\b(?P<w>" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)
_SCALES = {
    "thousand": 1000,
    "k": 1000,
    "million": 1_000_000,
    "m": 1_000_000,
    "billion": 1_000_000_000,
    "bn": 1_000_000_000,
}


@dataclass(frozen=True)
class Fact:
    """One checkable value: ``key`` compares values, ``written`` is how the text put it."""

    check: GroundednessCheck
    key: str
    written: str


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def _number_key(value: Decimal) -> str:
    normal = value.normalize()
    return format(normal, "f") if normal == normal.to_integral() else str(normal)


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

    def take(self, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        matches = list(pattern.finditer(self._masked))
        for match in matches:
            start, end = match.span()
            self._masked = self._masked[:start] + " " * (end - start) + self._masked[end:]
        return iter(matches)

    @property
    def rest(self) -> str:
        return self._masked


def _date_key(year: str | None, month: str, day: str) -> str | None:
    month_number = int(month) if month.isdigit() else _MONTHS.get(month.lower().rstrip("."))
    if month_number is None or not 1 <= month_number <= 12 or not 1 <= int(day) <= 31:
        return None
    prefix = f"{int(year):04d}" if year is not None else "-"
    return f"date:{prefix}-{month_number:02d}-{int(day):02d}"


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
    for pattern in (_DATE_DMY, _DATE_MDY, _DATE_ISO, _DATE_SLASH):
        for match in reader.take(pattern):
            full = _date_key(match["y"], match["m"], match["d"])
            if full is not None:
                facts.append(Fact(GroundednessCheck.DATE, full, match.group(0)))
    for match in reader.take(_DATE_DM):
        partial = _date_key(None, match["m"], match["d"])
        if partial is not None:
            facts.append(Fact(GroundednessCheck.DATE, partial, match.group(0)))
    for match in reader.take(_MONEY):
        amount = _decimal(match["n"] or match["n2"])
        scale = (match["scale"] or match["scale2"] or "").lower()
        if amount is not None:
            facts.append(
                Fact(GroundednessCheck.MONEY, f"money:{_number_key(amount * _SCALES.get(scale, 1))}", match.group(0))
            )
    for match in reader.take(_PERCENT):
        amount = _decimal(match["n"])
        if amount is not None:
            facts.append(Fact(GroundednessCheck.PERCENTAGE, f"percent:{_number_key(amount)}", match.group(0)))
    for match in reader.take(_PLAIN_NUMBER):
        amount = _decimal(match["n"])
        if amount is not None:
            facts.append(Fact(GroundednessCheck.NUMBER, f"number:{_number_key(amount)}", match.group(0)))
    for match in reader.take(_NUMBER_WORD):
        word_value = _NUMBER_WORDS[match["w"].lower()]
        facts.append(Fact(GroundednessCheck.NUMBER, f"number:{word_value}", match.group(0)))
    return FactReading(tuple(facts), reader.rest)


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
