"""Turning an ATO page's text dump into clean lines, one paragraph a line.

The Legal database pages were converted from HTML: every inline element (a link, an italic Act
name, a footnote marker) landed on a line of its own, so a sentence can be spread over several
lines; old IT rulings and the PDF cover-sheet renditions are also hard-wrapped at a fixed width.
A line break is taken to be such an artefact, and the two lines joined, only when that is
clear:

* the next line starts with a lower-case letter or with closing punctuation (``, . ; : ) ]``);
* the next line is a footnote marker (``[12]``), or the line ends with one (``...1997.[2]``)
  and the next line is a sentence (it ends with closing punctuation), not a heading;
* the line ends with a word that cannot end a sentence or heading (``the``, ``of``, ``under``,
  ``section`` ...) or with an opening bracket or a comma;
* the line is a bare bullet (``•``) or a bare paragraph number (``12.``);
* in hard-wrapped text only: the line is long (a full wrapped line) and has no closing
  punctuation.

A line that starts a numbered paragraph (``12A. ...``) or a bullet is never joined to the line
before it (unless that is a bare bullet or number); nor is a ``Commissioner of Taxation``
sign-off line or the date under it. Blank lines are hard boundaries.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from asat_corpus.parsers.ato_dates import date_line, is_sign_off

_SPACES = re.compile(r"[ \t\f\v\u00a0\u2000-\u200b\u202f\u205f\u3000]+")
_OPENING_PUNCTUATION = (",", ".", ";", ":", ")", "]", "}", "%", "?", "!", "’", "”")
_FOOTNOTE = re.compile(r"^\[\d{1,3}\]$")
_ENDS_WITH_FOOTNOTE = re.compile(r"\S\[\d{1,3}\]$")
_BULLET = re.compile(r"^[•·▪◦\-–*]$")
_BARE_NUMBER = re.compile(r"^\(?\d{1,3}[A-Z]{0,2}[.)]$|^\([a-z]{1,4}\)$")
PARAGRAPH_START = re.compile(r"^(\d{1,3}[A-Z]{0,2})\.(?:\s+|$)")
_DANGLING_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "and",
        "or",
        "nor",
        "to",
        "in",
        "into",
        "under",
        "by",
        "for",
        "with",
        "that",
        "which",
        "whose",
        "from",
        "at",
        "on",
        "as",
        "see",
        "section",
        "sections",
        "subsection",
        "subsections",
        "paragraph",
        "paragraphs",
        "subparagraph",
        "division",
        "subdivision",
        "part",
        "schedule",
        "item",
        "items",
        "article",
        "clause",
        "regulation",
        "than",
        "per",
        "via",
        "between",
        "within",
        "without",
        "upon",
        "including",
        "about",
        "against",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "its",
        "their",
        "his",
        "her",
        "this",
        "these",
        "those",
        "such",
        "any",
        "each",
        "every",
        "our",
        "your",
        "if",
        "whether",
        "because",
        "where",
        "when",
        "while",
        "not",
        "also",
        "both",
        "either",
        "neither",
        "all",
    ]
)
HARD_WRAP_MIN = 55
HARD_WRAP_MAX = 110
HARD_WRAP_LINES = 8
HARD_WRAP_SHARE = 0.2
_TERMINAL = (".", ":", ";", "?", "!")


def clean_line(raw: str) -> str:
    """One source line with HTML entities decoded and whitespace runs collapsed."""
    return _SPACES.sub(" ", html.unescape(raw)).strip()


def source_lines(text: str) -> list[str]:
    """``text`` split into cleaned lines; blank lines are kept as ``""`` (they are boundaries)."""
    return [clean_line(raw) for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]


def _last_word(line: str) -> str:
    words = line.rsplit(" ", 1)
    return words[-1].lower() if words else ""


def _dangles(line: str) -> bool:
    return line.endswith(("(", "[", ",", "-", "–", "/", "&")) or _last_word(line) in _DANGLING_WORDS


def _starts_continuation(line: str) -> bool:
    first = line[0]
    return first.islower() or line.startswith(_OPENING_PUNCTUATION) or _FOOTNOTE.match(line) is not None


def should_join(previous: str, line: str, hard_wrapped: bool) -> bool:
    """Whether the break between ``previous`` and ``line`` is a conversion artefact."""
    if not previous or not line or is_sign_off(line):
        return False
    if _BULLET.match(previous) or _BARE_NUMBER.match(previous):
        return True
    if PARAGRAPH_START.match(line) or _BULLET.match(line):
        return False
    if is_sign_off(previous) and date_line(line) is not None:
        return False
    if _dangles(previous):
        return True
    if _starts_continuation(line):
        return True
    if date_line(previous) is not None:
        return False
    if _ENDS_WITH_FOOTNOTE.search(previous) and line.endswith(_TERMINAL):
        return True
    return hard_wrapped and len(previous) >= HARD_WRAP_MIN and not previous.endswith(_TERMINAL)


def _glue(previous: str, line: str) -> str:
    if line.startswith((",", ".", ";", ":", ")", "]", "}", "%", "?", "!")) or _FOOTNOTE.match(line):
        return previous + line
    if previous.endswith(("(", "[")):
        return previous + line
    return f"{previous} {line}"


def looks_hard_wrapped(lines: Iterable[str]) -> bool:
    """Whether many lines are cut at a fixed width mid-sentence (old IT rulings, PDF text)."""
    texts = [line for line in lines if line]
    wrapped = sum(1 for line in texts if HARD_WRAP_MIN <= len(line) <= HARD_WRAP_MAX and not line.endswith(_TERMINAL))
    return wrapped >= HARD_WRAP_LINES and wrapped >= HARD_WRAP_SHARE * len(texts)


def join_fragments(lines: Iterable[str], hard_wrapped: bool = False) -> list[str]:
    """Rejoin lines split by the conversion; drop blank lines. See the module docstring."""
    out: list[str] = []
    boundary = True
    for line in lines:
        if not line:
            boundary = True
            continue
        if out and not boundary and should_join(out[-1], line, hard_wrapped):
            out[-1] = _glue(out[-1], line)
        else:
            out.append(line)
        boundary = False
    return out
