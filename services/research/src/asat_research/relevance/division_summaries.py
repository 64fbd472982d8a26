"""Division summaries and the operative sections they introduce (pure).

Most Divisions of the ITAA 1997, the GST Act and Schedule 1 to the TAA 1953 open with a section
headed "What this Division is about" (or "What this Subdivision is about"): a few plain sentences
on what the Division does. Its operative sections are the other sections of the same Division
(or Subdivision), less its guide material. The summary's opening sentences are a question the
operative sections answer: the relevance model learns which sections a topic lives in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SUMMARY_HEADINGS = ("what this division is about", "what this subdivision is about")
GUIDE_HEADINGS = ("what this", "guide to", "guide ", "simplified outline", "object of this", "objects of this")
SUMMARY_WORDS = 60  # the summary's opening sentences, at most this many words

_UNIT = re.compile(r"^(?P<unit>(?:Subdivision|Division)\s+[\w-]+)", re.IGNORECASE)


@dataclass(frozen=True)
class Section:
    act: str
    number: str
    heading: str
    hierarchy: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class SummaryPair:
    act: str
    number: str  # the summary section
    question: str  # its opening sentences
    targets: tuple[str, ...]  # the operative sections' numbers, in order


def unit_of(hierarchy: Sequence[str], subdivision: bool) -> str | None:
    """``"Division 8"`` or ``"Subdivision 8-A"``: the innermost such heading of ``hierarchy``."""
    wanted = "subdivision" if subdivision else "division"
    for part in reversed(hierarchy):
        match = _UNIT.match(part.strip())
        if match is not None and match.group("unit").split()[0].casefold() == wanted:
            return " ".join(match.group("unit").split())
    return None


def opening(text: str, words: int = SUMMARY_WORDS) -> str:
    """Whole sentences from the start of ``text`` up to ``words`` words (at least the first)."""
    sentences = re.split(r"(?<=[.?!:])\s+", " ".join(text.split()))
    kept: list[str] = []
    count = 0
    for sentence in sentences:
        n = len(sentence.split())
        if kept and count + n > words:
            break
        kept.append(sentence)
        count += n
    return " ".join(kept)


def _is_guide(heading: str) -> bool:
    return heading.casefold().startswith(GUIDE_HEADINGS)


def summary_pairs(sections: Iterable[Section]) -> list[SummaryPair]:
    """Each summary with the operative sections of its Division or Subdivision (none: skipped)."""
    listed = list(sections)
    by_unit: dict[tuple[str, str], list[Section]] = {}
    for section in listed:
        for subdivision in (False, True):
            unit = unit_of(section.hierarchy, subdivision)
            if unit is not None:
                by_unit.setdefault((section.act, unit), []).append(section)
    pairs: list[SummaryPair] = []
    for section in listed:
        heading = section.heading.casefold()
        if not heading.startswith(SUMMARY_HEADINGS):
            continue
        unit = unit_of(section.hierarchy, subdivision=heading.startswith(SUMMARY_HEADINGS[1]))
        question = opening(section.text)
        if unit is None or len(question.split()) < 6:
            continue
        targets = tuple(
            dict.fromkeys(s.number for s in by_unit.get((section.act, unit), ()) if not _is_guide(s.heading))
        )
        if targets:
            pairs.append(SummaryPair(section.act, section.number, question, targets))
    return pairs
