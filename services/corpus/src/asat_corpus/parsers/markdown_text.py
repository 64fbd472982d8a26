"""Canonical section text from third-party Markdown conversions (gitlaw, animus).

Shared by both Markdown parsers: emphasis markup removal that keeps the asterisk marking a
defined term (``*business``), whitespace collapsing, and the subsection ranges of a canonical
text (one logical block per line).
"""

from __future__ import annotations

import re

from asat_corpus.provision import Subsection

_BOLD = re.compile(r"\*\*+")
_ESCAPED_ASTERISK = re.compile(r"\\\*")
_SPACED_DEFINED_TERM = re.compile(r"(?<![\w*])\*[ \t]+(?=[A-Za-z0-9])")
_UNDERSCORES = re.compile(r"_+")
_WHITESPACE = re.compile(r"\s+")
_SPACE_BEFORE_PUNCT = re.compile(r"(?<=\S)\s+([.,;])(?=\s|$)")
_DOUBLE_HYPHEN = re.compile(r"(?<!-)--(?!-)")
_SUBSECTION_LABEL = re.compile(r"\((\d+[A-Z]*)\)(?=\s|$)")


def collapse_whitespace(text: str) -> str:
    """Every whitespace run to one space, ends stripped."""
    return _WHITESPACE.sub(" ", text).strip()


def strip_emphasis(text: str, *, spaced_defined_terms: bool = False) -> str:
    """Remove Markdown emphasis (``**``, ``_``) but keep the defined-term asterisk.

    ``*business`` stays ``*business``; with ``spaced_defined_terms`` (the animus PDF
    conversion writes ``* business``, ``* 100% subsidiary``) the space after a lone asterisk
    is removed too. A space
    the markup left before ``.``, ``,`` or ``;`` is removed.
    """
    out = _ESCAPED_ASTERISK.sub("*", text)
    out = _BOLD.sub("", out)
    out = _UNDERSCORES.sub("", out)
    if spaced_defined_terms:
        out = _SPACED_DEFINED_TERM.sub("*", out)
    out = collapse_whitespace(out)
    return _SPACE_BEFORE_PUNCT.sub(r"\1", out)


def double_hyphen_to_dash(text: str) -> str:
    """``--`` (the gitlaw converter's em dash) becomes ``—``; longer runs are left alone."""
    return _DOUBLE_HYPHEN.sub("\u2014", text)


def subsection_ranges(text: str) -> tuple[Subsection, ...]:
    """Ranges of the labelled subsections ``(1)``, ``(2A)``... of a canonical text.

    A subsection starts at a line that begins with its label and runs to the end of the line
    before the next labelled line (or the end of the text). Text before the first label is one
    range labelled ``""`` when it is not empty. Ranges are ordered and do not overlap.
    """
    starts: list[tuple[str, int]] = []
    offset = 0
    for line in text.split("\n"):
        match = _SUBSECTION_LABEL.match(line)
        if match:
            starts.append((f"({match.group(1)})", offset))
        offset += len(line) + 1
    ranges: list[Subsection] = []
    first_start = starts[0][1] if starts else len(text)
    if text[:first_start].strip():
        ranges.append(Subsection("", 0, _trim_end(text, 0, first_start)))
    for index, (label, start) in enumerate(starts):
        end = starts[index + 1][1] if index + 1 < len(starts) else len(text)
        ranges.append(Subsection(label, start, _trim_end(text, start, end)))
    return tuple(ranges)


def _trim_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] == "\n":
        end -= 1
    return end
