"""Was each cited version in force on the case's date? (pure over a :class:`VersionDates` lookup)

A citation is checked twice: by the dates its own payload states, and by the dates the corpus
holds for its version id (which must exist, belong to the cited provision, and agree with the
payload), so a payload that misstates its dates cannot hide an out-of-period citation.

In force: for an ``as_of`` case, ``[valid_from, valid_to)`` contains the day; for an
``income_year`` N case, the interval overlaps the year (``valid_from < 1 July N`` and
``valid_to`` open or after 1 July N-1).

A text quoted *as it then stood* (the law as it now stands not held for the date; issue 24) is
not a violation when the citation carries its caveat and the corpus confirms the text was on the
books then, in a stretch whose law as it now stands is not held; without the caveat it is one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Protocol

from asat_corpus.income_year import income_year_end, income_year_start
from asat_corpus.validity import in_force_during, in_force_on
from asat_research.evaluation.records import CitedSource
from asat_research.gold import CaseDate


@dataclass(frozen=True)
class HeldDates:
    """What the corpus holds for a version id (or ruling id)."""

    valid_from: date
    valid_to: date | None
    act: str | None = None  # None for a ruling
    provision: str | None = None
    then_stood: tuple[tuple[date, date], ...] = ()  # [from, to) served as it then stood


class VersionDates(Protocol):
    def held(self, source_id: str) -> HeldDates | None: ...


def in_force(valid_from: date | None, valid_to: date | None, when: CaseDate) -> bool:
    """Whether ``[valid_from, valid_to)`` is in force on the case's date (an open start: always was)."""
    if when.as_of is not None:
        return in_force_on(valid_from, valid_to, when.as_of)
    assert when.income_year is not None
    return in_force_during(valid_from, valid_to, income_year_start(when.income_year), income_year_end(when.income_year))


def _day(value: str | None) -> date | None:
    return None if value is None else date.fromisoformat(value[:10])


def citation_problem(citation: CitedSource, when: CaseDate, corpus: VersionDates) -> str | None:
    """Why ``citation`` is a temporal violation for ``when``, or ``None`` when it is not one."""
    sid = citation.source_id
    try:
        stated_from, stated_to = _day(citation.valid_from), _day(citation.valid_to)
    except ValueError:
        return f"{sid}: the citation's dates ({citation.valid_from}..{citation.valid_to}) are not ISO dates"
    held = corpus.held(sid)
    then = held is not None and any(in_force(start, end, when) for start, end in held.then_stood)
    if not then and not in_force(stated_from, stated_to, when):
        return f"{sid}: in force {citation.valid_from}..{citation.valid_to or 'open'} (as cited), not {when}"
    if held is None:
        return f"{sid}: no such version or ruling in the corpus, so it cannot be shown in force {when}"
    if held.act is not None and (held.act, held.provision) != (citation.act, citation.provision):
        return (
            f"{sid}: the corpus holds it as {held.act} {held.provision}, cited as {citation.act} {citation.provision}"
        )
    if (stated_from, stated_to) != (held.valid_from, held.valid_to):
        return (
            f"{sid}: cited as in force {citation.valid_from}..{citation.valid_to or 'open'} but the corpus "
            f"dates it {held.valid_from}..{held.valid_to or 'open'}"
        )
    if in_force(held.valid_from, held.valid_to, when):
        return None
    if then and citation.then_stood:
        return None  # the text as it then stood, with its caveat
    if then:
        return f"{sid}: quoted as it then stood {when} without the caveat that must go with it"
    return f"{sid}: in force {held.valid_from}..{held.valid_to or 'open'} (corpus), not {when}"


def temporal_violations(citations: tuple[CitedSource, ...], when: CaseDate, corpus: VersionDates) -> tuple[str, ...]:
    """One message per cited version that was not in force on the case's date (nor quoted, with its
    caveat, as the text then stood)."""
    problems = (citation_problem(c, when, corpus) for c in citations)
    return tuple(p for p in problems if p is not None)
