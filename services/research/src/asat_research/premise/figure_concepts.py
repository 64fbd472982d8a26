"""The concept a figure is stated for, read from the words around it (pure).

"$10 million" in "the turnover threshold was $10 million" is a figure for turnover; "$2 million"
in "your aggregated turnover for the previous year was less than $2 million" is one too, so the
two can be compared; "$13,800" in "the spouse earns $13,800" is a figure for income and is never
compared with a turnover figure. A figure's **concept words** are the content words within
``WINDOW`` content words either side of it, in its sentence:

- words are cased down, the possessive ``'s`` and a plural ``s`` taken off (``contributions`` is
  ``contribution``, ``applies`` is ``apply``);
- function words (:data:`asat_corpus.text.stopwords.QUESTION_STOPWORDS` and the
  ``MEANINGFUL_FUNCTION_WORDS``), comparison and time words (``than``, ``least``, ``before``), the
  words of figures (``million``, ``per cent``, ``months``) and words every provision carries
  (``year``, ``section``, ``amount``, ``income year``) are not concept words;
- a word of the curated :data:`CONCEPTS` vocabulary stands for its concept (``earns`` for
  ``income``, ``held`` and ``acquired`` for ``holding period``);
- a member count is always about ``members`` and an age about ``age``; a concept measured only
  in some kinds of figure (:data:`CONCEPT_KINDS`: a holding period in months, days, weeks or a
  date) is not a concept of a figure of another kind ("a *100% subsidiary of a widely held
  company" is no holding period).

Each figure also carries its :class:`Bound`, read from the words just before it ("fewer than 5
members", "up to 4 members"), so whole counts bounded in different words can be compared.

A paragraph says what its lead-in introduces, so a figure's concept words also take in the
lead-ins before it in its sentence ("(1) The amount of the producer offset is: (a) ... 40%; or
(b) otherwise 30% ...": the 30% is a producer offset figure too). A lead-in is the line before a
colon that a bracketed paragraph follows.

Two figures share a concept when their concept words share a vocabulary concept, or at least
two other words (:func:`shared_concept`). A sentence ends at a full stop, ``?`` or ``!`` before a
capital or a bracket, or at a line break; a figure's **line** (:attr:`FigureInContext.line`), the
law's words a quote shows, ends at a semicolon or colon too, and at ``; and`` / ``; or`` before a
paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from asat_corpus.text.stopwords import MEANINGFUL_FUNCTION_WORDS, QUESTION_STOPWORDS
from asat_research.generation.quantities import Quantity, quantities

WINDOW = 6  # content words either side of a figure

CONCEPTS: Mapping[str, str] = {
    "turnover": "turnover",
    "threshold": "threshold",
    "offset": "offset",
    "rebate": "offset",
    "discount": "discount",
    "held": "holding period",
    "hold": "holding period",
    "holding": "holding period",
    "acquired": "holding period",
    "acquire": "holding period",
    "owned": "holding period",
    "member": "members",
    "membership": "members",
    "rate": "rate",
    "income": "income",
    "earn": "income",
    "earned": "income",
    "earning": "income",
    "age": "age",
    "aged": "age",
    "gst": "GST",
    "cap": "cap",
    "limit": "cap",
    "contribution": "contributions",
    "dividend": "dividends",
    "franking": "franking",
    "levy": "levy",
    "surcharge": "surcharge",
    "balance": "balance",
    "loss": "losses",
    "car": "car",
    "vehicle": "car",
    "instalment": "instalments",
    "penalty": "penalty",
    "fine": "penalty",
    "depreciation": "depreciation",
    "interest": "interest",
}
"""Words (stemmed) that name what a figure is for, and the concept each stands for."""

CONCEPT_KINDS: Mapping[str, frozenset[str]] = {
    "holding period": frozenset({"months", "days", "weeks", "date"}),
}
"""Concepts measured only in some kinds of figure: a percentage or a sum of money is never a
holding period ("a *100% subsidiary of a widely held company")."""

_OTHER_WORDS = """than least fewer greater before after once until since still now already always exactly around
    up right correct true yes cent percent dollar million thousand billion month day week year time
    amount total sum section subsection paragraph division subdivision item act law current previous
    following relevant particular apply get make take include mean need go use also even full fully
    new one two three four five six seven eight nine ten twelve it's they're there's that's"""
_NOT_CONCEPT = QUESTION_STOPWORDS | MEANINGFUL_FUNCTION_WORDS | frozenset(_OTHER_WORDS.split())
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_YEAR_NAME = re.compile(r"\b(?:income|financial)\s+years?\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z(])|\n")
_LEAD_IN = re.compile(r":(?=\s*\()")
_LINE_END = re.compile(r"(?<=[.;:?!])\s+(?=[A-Z(])|(?<=;\sand)\s+(?=\()|(?<=;\sor)\s+(?=\()|\n")
_KIND_CONCEPT = {"members": "members", "age": "age"}
_BELOW = re.compile(r"\b(?:(?:less|fewer)\s+than|under|below)\s*$", re.IGNORECASE)
_AT_MOST = re.compile(r"\b(?:up\s+to|at\s+most|(?:no|not)\s+more\s+than|(?:a\s+)?maximum\s+of)\s*$", re.IGNORECASE)


def _bound(before: str) -> Bound:
    if _BELOW.search(before):
        return Bound.BELOW
    if _AT_MOST.search(before):
        return Bound.AT_MOST
    return Bound.NONE


def stem(word: str) -> str:
    """``word`` cased down, without a possessive ``'s`` or a plural ``s``."""
    word = word.casefold().replace("\u2019", "'")
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("sses"):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def concept_words(text: str) -> list[str]:
    """The concept words of ``text`` in order, each a :data:`CONCEPTS` concept where it names one."""
    words = []
    for raw in _WORD.findall(_YEAR_NAME.sub(" ", text).casefold()):
        word = stem(raw)
        if len(word) > 1 and raw not in _NOT_CONCEPT and word not in _NOT_CONCEPT:
            words.append(CONCEPTS.get(word, word))
    return words


class Bound(StrEnum):
    """How the words just before a figure bound it: "fewer than 5", "up to 4", or neither."""

    BELOW = "below"  # less than, fewer than, under, below
    AT_MOST = "at most"  # up to, at most, no more than, not more than, a maximum of
    NONE = ""


@dataclass(frozen=True)
class FigureInContext:
    quantity: Quantity
    words: frozenset[str]  # its concept words
    line: str  # the line of the text it is in (a substring of the text), as a quote would show it
    sentence_start: int  # where its sentence starts in the text: figures of one sentence share it
    bound: Bound = Bound.NONE


def _range(boundary: re.Pattern[str], text: str, start: int, end: int) -> tuple[int, int]:
    """The stretch of ``text`` between the boundaries either side of ``[start, end)``."""
    left, right = 0, len(text)
    for match in boundary.finditer(text):
        if match.end() <= start:
            left = match.end()
        elif match.start() >= end:
            right = match.start()
            break
    return left, right


def _lead_in_words(text: str, left: int, start: int) -> set[str]:
    """The concept words of every lead-in ("The amount of the producer offset is:") before
    ``start`` in the sentence from ``left``: a paragraph says what its lead-in introduces."""
    words: set[str] = set()
    for colon in _LEAD_IN.finditer(text, left, start):
        line_left, _ = _range(_LINE_END, text, colon.start(), colon.start())
        words |= set(concept_words(text[max(line_left, left) : colon.start()])[-WINDOW:])
    return words


def figures_in_context(text: str) -> tuple[FigureInContext, ...]:
    """Every quantity of ``text`` with its concept words and its line (see the module docstring)."""
    found = []
    for quantity in quantities(text):
        left, right = _range(_SENTENCE_END, text, quantity.start, quantity.end)
        before = concept_words(text[left : quantity.start])[-WINDOW:]
        after = concept_words(text[quantity.end : right])[:WINDOW]
        words = set(before) | set(after) | _lead_in_words(text, left, quantity.start)
        if quantity.kind in _KIND_CONCEPT:
            words.add(_KIND_CONCEPT[quantity.kind])
        words = {w for w in words if quantity.kind in CONCEPT_KINDS.get(w, (quantity.kind,))}
        line_left, line_right = _range(_LINE_END, text, quantity.start, quantity.end)
        line = text[line_left:line_right].strip()
        bound = _bound(text[left : quantity.start])
        found.append(FigureInContext(quantity, frozenset(words), line, left, bound))
    return tuple(found)


_VOCABULARY = frozenset(CONCEPTS.values())


def shared_concept(a: FigureInContext, b: FigureInContext) -> str | None:
    """What the two figures are both stated for: their shared vocabulary concepts, else at least
    two shared words (joined, sorted); None when they share neither."""
    shared = a.words & b.words
    named = sorted(shared & _VOCABULARY)
    if named:
        return " and ".join(named)
    if len(shared) >= 2:
        return " ".join(sorted(shared))
    return None


def concept_strength(a: FigureInContext, b: FigureInContext) -> int:
    """How much the two figures' concept words overlap: a vocabulary concept counts three, another word one."""
    shared = a.words & b.words
    return 2 * len(shared & _VOCABULARY) + len(shared)
