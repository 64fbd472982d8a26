"""A tokenizer for Australian tax law text, for BM25 sparse vectors.

``legal_tokenize(text)`` lower-cases the normalised text and emits, in order of appearance:

- provision numbers whole: ``8-1``, ``328-110``, ``109d``, ``82kzm``, ``sch1-12-35`` (trailing
  subsection and paragraph labels such as ``(1)(a)`` are dropped);
- for a reference introduced by ``s``, ``ss``, ``section``, ``subsection``, ``paragraph`` (and
  plurals), the number plus a ``sec:<number>`` marker; ``Div``/``Division`` gives ``div:<n>``,
  ``Subdiv``/``Subdivision`` ``subdiv:<n>``, ``Part``/``Pt`` ``part:<n>``, ``Schedule``/``Sch``
  ``sched:<n>``; the keyword itself is not emitted;
- money as ``money:<amount in dollars>``: ``$10 million`` and ``$10,000,000`` are both
  ``money:10000000``; ``$2.50`` is ``money:2.5``;
- percentages as ``pct:<n>``: ``30%``, ``30 per cent`` and ``30 percent`` are ``pct:30``;
- an asterisked defined term ``*business`` as ``business`` plus ``defterm:business``
  (``*non-assessable`` as ``non``, ``assessable``, ``defterm:non-assessable``); the asterisk
  marks only where a term starts, so for ``*trading stock`` the marker is ``defterm:trading``;
- other words, stemmed lightly (plural ``-s``, ``-es``, ``-ies``; possessive ``'s``), without
  English stopwords, single letters or paragraph numerals (``ii``, ``iv``);
- other numbers, with thousands separators removed (``2,000`` is ``2000``).

The same function tokenizes documents and queries, so both sides agree.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from asat_corpus.normalise import normalise
from asat_ingest.stopwords import STOPWORDS

_PROV = r"\d+[a-z]{0,4}(?:-\d+[a-z]{0,4})*(?:-[a-z]{1,3}(?![a-z0-9]))?"
_LABELS = r"(?:\([a-z0-9]{1,5}\))*"

_REF_KEYWORDS = {
    "s": "sec",
    "ss": "sec",
    "section": "sec",
    "sections": "sec",
    "subsection": "sec",
    "subsections": "sec",
    "paragraph": "sec",
    "paragraphs": "sec",
    "para": "sec",
    "paras": "sec",
    "subparagraph": "sec",
    "subparagraphs": "sec",
    "div": "div",
    "divs": "div",
    "division": "div",
    "divisions": "div",
    "subdiv": "subdiv",
    "subdivs": "subdiv",
    "subdivision": "subdiv",
    "subdivisions": "subdiv",
    "part": "part",
    "parts": "part",
    "pt": "part",
    "schedule": "sched",
    "schedules": "sched",
    "sch": "sched",
}
_KEYWORD_ALTERNATION = "|".join(sorted(_REF_KEYWORDS, key=len, reverse=True))

_SCALES = {
    "thousand": Decimal(1_000),
    "k": Decimal(1_000),
    "million": Decimal(1_000_000),
    "m": Decimal(1_000_000),
    "billion": Decimal(1_000_000_000),
    "bn": Decimal(1_000_000_000),
    "b": Decimal(1_000_000_000),
}

_TOKEN = re.compile(
    rf"""
    (?P<schprov>(?<![a-z0-9])sch\s?(?P<schno>\d+[a-z]?)-(?P<schrest>\d+[a-z]{{0,4}}-\d+[a-z]{{0,4}}){_LABELS}(?![a-z0-9]))
    | (?P<ref>(?<![a-z0-9'’])(?P<kw>{_KEYWORD_ALTERNATION})\.?\s?(?P<refnum>{_PROV}|[ivxl]{{1,6}}[a-z]{{0,2}}){_LABELS}(?![a-z0-9]))
    | (?P<money>\$\s?(?P<amount>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)
         (?:\s?(?P<scale>thousand|million|billion|bn|k|m|b)(?![a-z0-9]))?)
    | (?P<pct>(?<![a-z0-9.])(?P<pnum>\d+(?:\.\d+)?)\s?(?:%|per\s?cent(?![a-z])))
    | (?P<defterm>\*\s?(?P<dword>[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*(?:['’][a-z]+)?))
    | (?P<num>(?<![a-z0-9.])\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?(?![a-z0-9])|(?<![a-z0-9.])\d+\.\d+(?![a-z0-9]))
    | (?P<prov>(?<![a-z0-9]){_PROV}{_LABELS}(?![a-z0-9]))
    | (?P<word>[a-z0-9]+(?:['’][a-z]+)?)
    """,
    re.VERBOSE,
)
_LABEL_TAIL = re.compile(_LABELS + r"$")
_NUMERAL = re.compile(r"^[ivx]{1,4}$")


def stem(word: str) -> str:
    """A light English stemmer: possessives and plurals only, so legal terms stay recognisable."""
    for apostrophe in ("'", "’"):
        if apostrophe in word:
            head, _, tail = word.partition(apostrophe)
            word = head if tail == "s" else head + tail
    if len(word) > 4 and word.endswith("ies") and word[-4] not in "aeiou":
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ys", "as", "os")):
        return word[:-1]
    return word


def _canonical_number(raw: str) -> str:
    """``2,000`` -> ``2000``; ``2.50`` -> ``2.5``; ``3.0`` -> ``3``."""
    try:
        value = Decimal(raw.replace(",", ""))
    except InvalidOperation:
        return raw
    return format(value.normalize(), "f")


def _money(amount: str, scale: str | None) -> str:
    value = Decimal(amount.replace(",", ""))
    if scale is not None:
        value *= _SCALES[scale]
    return "money:" + format(value.normalize(), "f")


def _word(raw: str) -> str | None:
    stemmed = stem(raw)
    if not stemmed or stemmed in STOPWORDS:
        return None
    if len(stemmed) == 1 and not stemmed.isdigit():
        return None
    if _NUMERAL.match(stemmed):
        return None
    return stemmed


def legal_tokenize(text: str) -> list[str]:
    """The tokens of ``text`` in order of appearance (see the module docstring)."""
    tokens: list[str] = []
    lowered = normalise(text).lower()
    for match in _TOKEN.finditer(lowered):
        group = match.lastgroup
        if group == "schprov":
            tokens.append(f"sch{match['schno']}-{match['schrest']}")
        elif group == "ref":
            number = _LABEL_TAIL.sub("", match["refnum"])
            tokens.append(number)
            tokens.append(f"{_REF_KEYWORDS[match['kw']]}:{number}")
        elif group == "money":
            tokens.append(_money(match["amount"], match["scale"]))
        elif group == "pct":
            tokens.append("pct:" + _canonical_number(match["pnum"]))
        elif group == "defterm":
            term = stem(match["dword"])
            for part in term.split("-"):
                plain = _word(part)
                if plain is not None:
                    tokens.append(plain)
            tokens.append(f"defterm:{term}")
        elif group == "num":
            tokens.append(_canonical_number(match["num"]))
        elif group == "prov":
            tokens.append(_LABEL_TAIL.sub("", match["prov"]))
        else:
            plain = _word(match["word"])
            if plain is not None:
                tokens.append(plain)
    return tokens
