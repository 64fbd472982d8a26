"""Locating a ruling's paragraphs in its canonical text (one paragraph per line).

Numbered rulings (TR, TD, GSTR, PCG, LCR, MT, SGR, PS LA, IT, TA)
    A paragraph starts at a line ``12. ...`` or ``12A. ...``; its range starts after the number
    and the following space, so ``text[start:end]`` is the paragraph's own content. It ends where
    the next accepted paragraph starts, less any heading lines just above that paragraph (short
    lines starting with a capital and without closing punctuation) and less the Commissioner's
    sign-off block or a references block (``References``, ``Legislative References:`` ...).
    Numbers must run forward (a number may repeat with a letter suffix: ``12``,
    ``12A``, ``12B``; a gap of at most ``MAX_GAP`` is allowed for paragraphs deleted by
    consolidation), which rejects numbered lists inside a paragraph and tables of contents.
ATO Interpretative Decisions
    They have sections instead of numbers. Each of ``Issue``, ``Decision``, ``Facts`` and
    ``Reasons for Decision`` becomes one ``RulingParagraph`` whose ``number`` is the section name
    lower-cased (``"issue"``, ``"decision"``, ``"facts"``, ``"reasons for decision"``); its range
    is the section's content, from the line after the heading to the next section heading or the
    metadata block (``Amendment History``, ``Date of decision:``, ``Legislative References:``...).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from asat_corpus.parsers.ato_dates import is_sign_off
from asat_corpus.parsers.ato_lines import PARAGRAPH_START
from asat_corpus.ruling import RulingParagraph

MAX_GAP = 5
MAX_FIRST = 5
HEADING_MAX = 90
HEADING_LINES = 3
AID_SECTIONS = ("Issue", "Decision", "Facts", "Reasons for Decision")
_AID_STOPS = re.compile(
    r"^(Amendment History|Date of decision:|Legislative References:|Year of income:|"
    r"Related ATO Interpretative Decisions|Keywords|Case References:|Other References:|"
    r"Siebel/TDMS Reference Number:|Business Line:|Date of publication:)",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"^(\d+)([A-Z]*)$")


def _lines_with_offsets(text: str) -> Iterator[tuple[int, str]]:
    offset = 0
    for line in text.split("\n"):
        yield offset, line
        offset += len(line) + 1


def _accepts(previous: tuple[int, str] | None, number: str) -> bool:
    match = _NUMBER.match(number)
    if match is None:
        return False
    value, suffix = int(match.group(1)), match.group(2)
    if previous is None:
        return 1 <= value <= MAX_FIRST
    last_value, last_suffix = previous
    if value == last_value:
        return suffix > last_suffix
    return last_value < value <= last_value + MAX_GAP


def _is_heading(line: str) -> bool:
    return (
        0 < len(line) <= HEADING_MAX
        and line[0].isupper()
        and not line.endswith((".", ";", ",", ":", "?", "!"))
        and PARAGRAPH_START.match(line) is None
    )


_END_OF_PARAGRAPHS = re.compile(
    r"^(References|ATO references:?|Related Rulings/Determinations:|Legislative References:|"
    r"Subject References:|Previous draft:|Related Practice Statements:|Date of Issue:|"
    r"Amendment history)$",
    re.IGNORECASE,
)


def _is_boundary(line: str) -> bool:
    return is_sign_off(line) or _END_OF_PARAGRAPHS.match(line) is not None


def numbered_paragraphs(text: str) -> tuple[RulingParagraph, ...]:
    """The numbered paragraphs of ``text``; see the module docstring for the rules."""
    lines = list(_lines_with_offsets(text))
    starts: list[tuple[int, str, int]] = []  # (line index, number, content offset)
    previous: tuple[int, str] | None = None
    for index, (offset, line) in enumerate(lines):
        match = PARAGRAPH_START.match(line)
        if match is None or not _accepts(previous, match.group(1)):
            continue
        number = match.group(1)
        parts = _NUMBER.match(number)
        assert parts is not None
        previous = (int(parts.group(1)), parts.group(2))
        starts.append((index, number, offset + match.end()))
    paragraphs: list[RulingParagraph] = []
    for position, (index, number, start) in enumerate(starts):
        stop = starts[position + 1][0] if position + 1 < len(starts) else len(lines)
        last = index
        for candidate in range(index + 1, stop):
            if _is_boundary(lines[candidate][1]):
                break
            last = candidate
        if position + 1 < len(starts) and last == stop - 1:
            headings = 0
            while last > index and headings < HEADING_LINES and _is_heading(lines[last][1]):
                last -= 1
                headings += 1
        end = lines[last][0] + len(lines[last][1])
        paragraphs.append(RulingParagraph(number, start, max(start, end)))
    return tuple(paragraphs)


def section_paragraphs(text: str) -> tuple[RulingParagraph, ...]:
    """The ``Issue``/``Decision``/``Facts``/``Reasons for Decision`` sections of an ATO ID."""
    lines = list(_lines_with_offsets(text))
    wanted = {name.lower(): name for name in AID_SECTIONS}
    sections: list[RulingParagraph] = []
    current: tuple[str, int] | None = None
    last_end = 0
    for offset, line in lines:
        key = line.strip().lower()
        is_heading = key in wanted
        if current is not None and (is_heading or _AID_STOPS.match(line)):
            sections.append(RulingParagraph(current[0], current[1], max(current[1], last_end)))
            current = None
        if is_heading and all(s.number != key for s in sections):
            current = (key, offset + len(line) + 1)
            last_end = current[1]
            continue
        if current is not None and line:
            last_end = offset + len(line)
    if current is not None:
        sections.append(RulingParagraph(current[0], current[1], max(current[1], last_end)))
    return tuple(p for p in sections if p.end > p.start)
