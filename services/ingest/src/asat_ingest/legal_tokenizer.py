"""A tokenizer for Australian tax law text, for BM25 sparse vectors.

``legal_tokenize(text)`` lower-cases the normalised text and emits, in order of appearance:

- provision numbers whole: ``8-1``, ``328-110``, ``109d``, ``82kzm``, ``sch1-12-35`` (trailing
  subsection and paragraph labels such as ``(1)(a)`` are dropped);
- for a reference introduced by ``s``, ``ss``, ``section``, ``subsection``, ``paragraph`` (and
  plurals), the number plus a ``sec:<number>`` marker; ``Div``/``Division`` gives ``div:<n>``,
  ``Subdiv``/``Subdivision`` ``subdiv:<n>``, ``Part``/``Pt`` ``part:<n>``, ``Schedule``/``Sch``
  ``sched:<n>``; the keyword itself is not emitted;
- money as ``money:<amount in dollars>``: ``$10 million``, ``$10m``, ``10 million dollars`` and
  ``$10,000,000`` are all ``money:10000000``; ``$2.5b`` is ``money:2500000000``; ``$2.50`` is
  ``money:2.5``;
- percentages as ``pct:<n>``: ``30%``, ``30 per cent``, ``30 percent`` and ``thirty per cent``
  are ``pct:30``;
- an asterisked defined term ``*business`` as ``business`` plus ``defterm:business``
  (``*non-assessable`` as ``non``, ``assessable``, ``defterm:non-assessable``); the asterisk
  marks only where a term starts, so for ``*trading stock`` the marker is ``defterm:trading``;
- other words, stemmed lightly (plural ``-s``, ``-es``, ``-ies``; possessive ``'s``), without
  English function words, single letters or paragraph numerals (``ii``, ``iv``);
- other numbers, with thousands separators removed (``2,000`` is ``2000``).

Money and percentages are the figures :func:`asat_corpus.text.figures.read_figures` reads, so
search, the research premise check and the verifier read a figure the same way; the words are
the ones :data:`asat_corpus.text.stopwords.FUNCTION_WORDS` does not name.

The same function tokenizes documents and queries, so both sides agree.
"""

from __future__ import annotations

import re

from asat_corpus.normalise import normalise
from asat_corpus.text.figures import FigureKind, read_figures
from asat_corpus.text.numbers import number_text, parse_number
from asat_corpus.text.stopwords import FUNCTION_WORDS

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

_FIGURE_PREFIXES = {FigureKind.MONEY: "money:", FigureKind.PERCENT: "pct:"}

_TOKEN = re.compile(
    rf"""
    (?P<schprov>(?<![a-z0-9])sch\s?(?P<schno>\d+[a-z]?)-(?P<schrest>\d+[a-z]{{0,4}}-\d+[a-z]{{0,4}}){_LABELS}(?![a-z0-9]))
    | (?P<ref>(?<![a-z0-9'’])(?P<kw>{_KEYWORD_ALTERNATION})\.?\s?(?P<refnum>{_PROV}|[ivxl]{{1,6}}[a-z]{{0,2}}){_LABELS}(?![a-z0-9]))
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


def _figure_tokens(lowered: str) -> tuple[str, list[tuple[int, str]]]:
    """The money and percentage tokens of ``lowered`` with where each starts, and the text with
    those figures blanked (so the other token patterns do not read them again)."""
    found: list[tuple[int, str]] = []
    pieces: list[str] = []
    done = 0
    for figure in read_figures(lowered):
        prefix = _FIGURE_PREFIXES.get(figure.kind)
        if prefix is None:
            continue
        found.append((figure.start, prefix + number_text(figure.amount)))
        pieces.extend((lowered[done : figure.start], " " * (figure.end - figure.start)))
        done = figure.end
    pieces.append(lowered[done:])
    return "".join(pieces), found


def _word(raw: str) -> str | None:
    stemmed = stem(raw)
    if not stemmed or stemmed in FUNCTION_WORDS:
        return None
    if len(stemmed) == 1 and not stemmed.isdigit():
        return None
    if _NUMERAL.match(stemmed):
        return None
    return stemmed


def legal_tokenize(text: str) -> list[str]:
    """The tokens of ``text`` in order of appearance (see the module docstring)."""
    masked, figures = _figure_tokens(normalise(text).lower())
    placed: list[tuple[int, str]] = list(figures)
    for match in _TOKEN.finditer(masked):
        tokens: list[str] = []
        group = match.lastgroup
        if group == "schprov":
            tokens.append(f"sch{match['schno']}-{match['schrest']}")
        elif group == "ref":
            number = _LABEL_TAIL.sub("", match["refnum"])
            tokens.append(number)
            tokens.append(f"{_REF_KEYWORDS[match['kw']]}:{number}")
        elif group == "defterm":
            term = stem(match["dword"])
            for part in term.split("-"):
                plain = _word(part)
                if plain is not None:
                    tokens.append(plain)
            tokens.append(f"defterm:{term}")
        elif group == "num":
            tokens.append(number_text(parse_number(match["num"])))
        elif group == "prov":
            tokens.append(_LABEL_TAIL.sub("", match["prov"]))
        else:
            plain = _word(match["word"])
            if plain is not None:
                tokens.append(plain)
        placed.extend((match.start(), token) for token in tokens)
    return [token for _, token in sorted(placed, key=lambda item: item[0])]
