"""The basic rule of a Subdivision: its first operative section (pure).

A Subdivision of the ITAA 1997 (and of the other Acts that have them) opens with its guide
material ("What this Subdivision is about", "Map of this Subdivision") and then states its basic
rule ("118-110 Basic case", "115-5 What is a discount capital gain?", "290-230 Offset for spouse
contribution"); the sections after it extend, limit or apply that rule. A statement about a
regime ("the company can use the main residence exemption") is answered by its basic rule, even
where the question's words match the exceptions better (partial exemption, absences, spouses
with different residences). :class:`BasicRules` finds, for a section, the basic rule of its
Subdivision in force in an income year.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from asat_corpus.provision import ProvisionTimeline
from asat_research.relevance.division_summaries import GUIDE_HEADINGS, unit_of

NOT_A_RULE = (
    *GUIDE_HEADINGS,
    "map of",
    "what the following",
    "object",
    "main object",
    "the object",
    "overview",
    "diagram",
    "interpretation",
    "definition",
)
"""Headings (cased down, by their start) of guide material and definitions, which state no rule:
"Object of this Subdivision", "Overview", "Diagram giving an overview ...", "Interpretation",
"Definitions"."""

_PART = re.compile(r"(\d+)([A-Za-z]*)")


def section_order(number: str) -> tuple[tuple[int, str], ...]:
    """Where ``number`` stands among its neighbours: "115-5" before "115-10", "109D" after "109C"."""
    key = []
    for part in number.split("-"):
        match = _PART.match(part)
        key.append((int(match.group(1)), match.group(2).casefold()) if match else (10**9, part.casefold()))
    return tuple(key)


def states_a_rule(heading: str) -> bool:
    """A section heading that is not guide material."""
    return not heading.casefold().strip().startswith(NOT_A_RULE)


@dataclass(frozen=True)
class Section:
    act: str
    number: str
    heading: str  # the heading of its latest version in the year


Unit = tuple[str, str | None, str]  # (act, Division, Subdivision): "Subdivision B" recurs across Divisions


class BasicRules:
    """For each Act and income year, each section's Subdivision (within its Division) and each
    Subdivision's sections in order, from the provision timelines (built once, at start)."""

    def __init__(self, timelines: Iterable[ProvisionTimeline]) -> None:
        self._unit: dict[tuple[str, str, int], Unit] = {}
        by_number: dict[tuple[Unit, int], dict[str, Section]] = {}
        for timeline in timelines:
            for version in timeline.versions:
                subdivision = unit_of(version.hierarchy, subdivision=True)
                if subdivision is None:
                    continue
                unit = (timeline.act, unit_of(version.hierarchy, subdivision=False), subdivision)
                section = Section(timeline.act, timeline.number, version.heading)
                for year in version.income_years:
                    self._unit[(timeline.act, timeline.number, year)] = unit
                    # a later version in the year replaces an earlier one's heading
                    by_number.setdefault((unit, year), {})[timeline.number] = section
        self._sections: dict[tuple[Unit, int], list[Section]] = {
            key: sorted(sections.values(), key=lambda s: section_order(s.number)) for key, sections in by_number.items()
        }

    def basic_rule(self, act: str, number: str, income_year: int) -> Section | None:
        """The first section of the Subdivision ``number`` is in during ``income_year`` (within its
        Division), in force that year, whose heading is not guide material; None for a section in
        no Subdivision that year."""
        unit = self._unit.get((act, number, income_year))
        if unit is None:
            return None
        return next((s for s in self._sections.get((unit, income_year), ()) if states_a_rule(s.heading)), None)
