"""The answer across years: which income years to ask a question again for (pure).

"How has this changed?" asks an answered (or abstained) question again for every income year in
which a provision it cited changed. Given the cited provisions and their version timelines (the
items of :func:`asat_research.timeline_view.timeline_json`: versions with ``valid_from`` /
``valid_to``, gaps held ``not_held`` or ``one_of_two``), :func:`plan_years` says:

* the **years** to ask: the original question's year, and for each version of a cited provision
  the income year containing its ``valid_from`` (the year its text starts to apply, after the text
  before it or after a stretch not held). Sorted, each once, with why it is asked.
* the **bound**: at most :data:`MAX_YEARS` years (the original year always among them); when there
  are more, the newest change years are kept and the older ones listed in ``left_out``. A year
  after ``horizon`` (the last income year the corpus holds) is left out too: nothing is indexed
  for it.
* the **gaps**: each stretch of a cited provision whose text is not held (``not_held``) or is one
  of two held texts with the day of change uncertain (``one_of_two``), with the income years it
  touches; only stretches that overlap the years asked (from the first year's 1 July to the last
  year's 30 June). A gap is never asked: research would abstain there, and the page shows it as
  such.

:func:`question_for_year` rewords the question for a year: its own period words (``FY2015``,
``as at 1 July 2016``, ...) become ``income year N``, so the ordinary pipeline, asked with
``income_year`` N, does not refuse it as a period conflict. No I/O here; the runs are
``asat_research.across_years_run``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Literal

from asat_corpus.income_year import income_year_end, income_year_of, income_year_start
from asat_corpus.period_words import period_words, reword_period
from asat_research.temporal import named_periods

MAX_YEARS = 12  # a table a person can read, and at most 12 pipeline runs per request
Held = Literal["not_held", "one_of_two"]  # as timeline_view marks a gap (HELD_NOT, HELD_ONE_OF_TWO)
NOT_HELD: Held = "not_held"
ONE_OF_TWO: Held = "one_of_two"


@dataclass(frozen=True)
class Stretch:
    """One item of a provision's timeline: a version (``version_id``) or a gap (``held``)."""

    start: date
    end: date | None  # exclusive; None: still so
    version_id: str | None = None
    held: Held | None = None
    reason: str = ""

    @property
    def is_gap(self) -> bool:
        return self.version_id is None


@dataclass(frozen=True)
class ProvisionHistory:
    """A provision the answer cited: the versions cited, and its timeline."""

    act: str
    provision: str
    label: str  # "ITAA 1997 s 328-110"
    cited: tuple[str, ...]  # the version ids cited
    timeline: tuple[Stretch, ...]


@dataclass(frozen=True)
class PlannedYear:
    income_year: int
    original: bool  # the year of the answer asked about
    why: tuple[str, ...]


@dataclass(frozen=True)
class GapSpan:
    """A stretch of a cited provision whose text is not held (or is one of two held texts)."""

    act: str
    provision: str
    label: str
    start: date
    end: date  # exclusive
    held: Held
    reason: str
    income_years: tuple[int, ...]  # every income year it holds a day of


@dataclass(frozen=True)
class YearPlan:
    original_year: int
    years: tuple[PlannedYear, ...]  # ascending, each once
    gaps: tuple[GapSpan, ...]  # by start
    left_out: tuple[int, ...]  # change years not asked (the bound, or after the horizon), ascending
    reason: str | None = None  # why only the original year is asked, when that is so


def stretches(items: Iterable[Mapping[str, Any]]) -> tuple[Stretch, ...]:
    """The versions and gaps of a ``timeline_json`` list (retrospective arrows left out), by start."""
    found: list[Stretch] = []
    for item in items:
        kind = item.get("type")
        if kind not in ("version", "gap"):
            continue
        start = date.fromisoformat(str(item["valid_from"]))
        end = date.fromisoformat(str(item["valid_to"])) if item.get("valid_to") else None
        if kind == "version":
            found.append(Stretch(start, end, version_id=str(item["id"])))
            continue
        if end is None:  # a gap always ends where a held text (or today's compilation) begins
            raise ValueError(f"a gap from {start.isoformat()} has no end")
        held: Held = ONE_OF_TWO if item.get("held") == ONE_OF_TWO else NOT_HELD
        found.append(Stretch(start, end, held=held, reason=str(item.get("reason") or "")))
    return tuple(sorted(found, key=lambda s: (s.start, s.version_id or "")))


def years_touched(start: date, end: date) -> tuple[int, ...]:
    """Every income year holding a day of ``[start, end)``."""
    if end <= start:
        return ()
    return tuple(range(income_year_of(start), income_year_of(end - timedelta(days=1)) + 1))


def plan_years(
    histories: Sequence[ProvisionHistory],
    original_year: int,
    max_years: int = MAX_YEARS,
    horizon: int | None = None,
) -> YearPlan:
    """The income years to ask and the gaps to show (see the module's docstring)."""
    if max_years < 1:
        raise ValueError("max_years must be at least 1: the original year is always asked")
    if not histories:
        reason = (
            f"the answer for income year {original_year} cited no provision, so there is no version history to "
            "follow: only that year is asked"
        )
        return YearPlan(original_year, (PlannedYear(original_year, True, ("the year asked about",)),), (), (), reason)
    why: dict[int, list[str]] = {}
    for history in histories:
        for stretch in history.timeline:
            if stretch.is_gap:
                continue
            before = _before(history.timeline, stretch)
            if before is None:
                after = "its first text held"
            else:
                after = "after a stretch whose text is not held" if before else "replacing the text before"
            year = income_year_of(stretch.start)
            why.setdefault(year, []).append(
                f"{history.label}: {_register(stretch)} in force from {stretch.start.isoformat()}, {after}"
            )
    changes = sorted(y for y in why if y != original_year)
    beyond = [y for y in changes if horizon is not None and y > horizon]
    within = [y for y in changes if horizon is None or y <= horizon]
    kept = within[max(0, len(within) - (max_years - 1)) :]  # the newest
    left_out = tuple(sorted([y for y in within if y not in kept] + beyond))
    years = tuple(
        PlannedYear(
            year,
            year == original_year,
            (("the year asked about",) if year == original_year else ()) + tuple(why.get(year, ())),
        )
        for year in sorted({*kept, original_year})
    )
    first, last = income_year_start(years[0].income_year), income_year_end(years[-1].income_year)
    gaps = []
    for history in histories:
        for stretch in history.timeline:
            if not stretch.is_gap or stretch.end is None or stretch.held is None:
                continue
            if stretch.start < last and stretch.end > first:
                gaps.append(
                    GapSpan(
                        history.act,
                        history.provision,
                        history.label,
                        stretch.start,
                        stretch.end,
                        stretch.held,
                        stretch.reason,
                        years_touched(stretch.start, stretch.end),
                    )
                )
    gaps.sort(key=lambda g: (g.start, g.label))
    return YearPlan(original_year, years, tuple(gaps), left_out)


def question_for_year(question: str, income_year: int) -> str:
    """``question`` with its own period words replaced by ``income year N``: asked with
    ``income_year`` N, it names no other period. A question naming none is unchanged."""
    return reword_period(question, named_periods(question), period_words(income_year=income_year))


def _before(timeline: Sequence[Stretch], version: Stretch) -> bool | None:
    """What holds the day before ``version`` starts: a gap (True), another version (False), or
    nothing in the timeline (None: the provision's first text)."""
    day = version.start - timedelta(days=1)
    for stretch in timeline:
        if stretch is not version and stretch.start <= day and (stretch.end is None or day < stretch.end):
            return stretch.is_gap
    return None


def _register(stretch: Stretch) -> str:
    """The register id part of a version id (``itaa1997:328-110@C2026C00122`` -> ``C2026C00122``)."""
    version = stretch.version_id or ""
    return version.rpartition("@")[2] or version
