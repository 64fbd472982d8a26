"""The answer across years, for the page: research's ``plan`` and ``year`` events read into a table
of income years x cited provisions, and the relay of research's stream to the browser.

:func:`table_view` (pure) builds the table from the plan and the years received so far: one row per
income year asked (each cell the verified quotes of that year's outcome from that provision, each
linked to the source viewer with its audit row and range), a row for each stretch whose text is not
held (never asked: research would abstain there), and between two years whose cited versions of a
provision differ, a word diff of what was quoted (``asat_web.diff.diff_texts``). Only what the
outcomes carry is shown: verified quotes only.

:func:`browser_events` relays ``POST /v1/research/across-years`` (same origin, as ``/stream``
does): each event sends the whole table rendered again, so the page (``static/across_years.js``)
only replaces it; without JavaScript, :func:`collect` reads the stream to the end and the page is
rendered once, whole.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from itertools import pairwise
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from pydantic import ValidationError

from asat_corpus.contracts.across_years import AcrossYearsPlan, AcrossYearsRequest, AcrossYearsYear, GapSpanOut
from asat_corpus.contracts.errors import describe_validation_error
from asat_corpus.contracts.research import OutcomeCitation, ResearchOutcome, StreamError
from asat_corpus.income_year import income_year_end, income_year_start
from asat_corpus.period_words import period_words
from asat_web.diff import DiffSegment, diff_texts
from asat_web.history import Recorder
from asat_web.labels import day_words, decision_heading
from asat_web.research_client import ResearchClient, ResearchRejected, ResearchReplyError, ResearchUnavailable
from asat_web.sse import SseEvent, format_event

if TYPE_CHECKING:  # outcome.py imports this module for the link; rendering imports outcome.py
    from asat_web.rendering import Renderer

PAGE = "/across-years"
TABLE = "_across_years_table.html"
CITED = "cited"
FIRST_QUOTES = 2  # shown of a cell whose quotes every year shares
SHOWN_AT_MOST = 4  # quotes shown in a cell before "N more quotes" (folded, one click away)
READING = "reading list"


def cited_source_ids(outcome: ResearchOutcome) -> tuple[str, ...]:
    """What an outcome cites: an answer's claims' sources; an abstention's reading list."""
    if outcome.claims:
        return tuple(dict.fromkeys(c.source_id for claim in outcome.claims for c in claim.citations))
    return tuple(dict.fromkeys(item.source_id for item in outcome.reading_list))


def across_years_href(outcome: ResearchOutcome, question: str) -> str | None:
    """The address of "How has this changed?" for an answer, or an abstention with a reading list:
    the question, the outcome's period and the sources it cited. None where there is nothing to
    follow (nothing cited, a period conflict, or the law as it then stood on a known-time day)."""
    sources = cited_source_ids(outcome)
    if not question.strip() or not sources or outcome.period_conflict is not None or outcome.scope.as_known_on:
        return None
    scope = outcome.scope
    period = {"as_of": scope.as_of.isoformat()} if scope.as_of else {"income_year": str(scope.income_year)}
    query = [("question", question.strip()), *period.items(), *(("source", s) for s in sources)]
    return f"{PAGE}?{urlencode(query)}"


def request_body(request: AcrossYearsRequest) -> dict[str, Any]:
    """The request as JSON (absent fields left out), without the practice's provider: what the
    page shows and its script posts back."""
    return request.model_dump(mode="json", exclude_none=True, exclude={"provider"})


def research_body(request: AcrossYearsRequest) -> dict[str, Any]:
    """The request as research's JSON body: with the practice's provider, its key revealed."""
    provider = {} if request.provider is None else {"provider": request.provider.wire()}
    return request_body(request) | provider


def page_query(request: AcrossYearsRequest, **extra: str) -> str:
    """The page's own query string for ``request`` (for the no-JavaScript link)."""
    body = request_body(request)
    query: list[tuple[str, str]] = [("question", body["question"])]
    query += [(k, str(body[k])) for k in ("income_year", "as_of") if k in body]
    query += [("source", s) for s in body.get("source_ids", ())]
    return urlencode([*query, *extra.items()])


def across_years_context(request: AcrossYearsRequest) -> dict[str, Any]:
    """What ``across_years.html`` shows of the request, and what its script posts."""
    period = None
    if request.as_of is not None:
        period = period_words(as_of=request.as_of)
    elif request.income_year is not None:
        period = period_words(income_year=request.income_year)
    return {
        "question": request.question,
        "period": period,
        "body_json": json.dumps(request_body(request)),
        "full_query": page_query(request, full="1"),
    }


# -- the table ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class QuoteCell:
    """A verified quote of one year's outcome (``start``/``end`` in its source, for the link)."""

    source_id: str
    title: str
    register_ids: tuple[str, ...]
    valid_from: str | None
    valid_to: str | None
    quote: str
    start: int
    end: int
    audit_id: int
    role: str  # CITED (an answer's claim) or READING (an abstention's reading list)
    then_stood: str | None = None


@dataclass(frozen=True)
class Cell:
    quotes: tuple[QuoteCell, ...]  # every verified quote of the provision that year
    note: str | None = None  # why there is no quote: not held, not cited, still being asked
    shown: tuple[QuoteCell, ...] = ()  # the first quotes whose text another year's do not share (else the first few)
    folded: tuple[QuoteCell, ...] = ()  # the rest, one click away
    folded_same: bool = False  # every folded quote's text is quoted in every year that quotes the provision

    @property
    def versions(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(q.source_id for q in self.quotes))


@dataclass(frozen=True)
class YearRow:
    income_year: int
    original: bool
    question: str
    why: tuple[str, ...]
    cells: tuple[Cell, ...]
    asked: bool = False  # the outcome has arrived
    decision: str = ""
    heading: str = ""
    answered: bool = False
    reasons: tuple[str, ...] = ()
    audit_id: int | None = None
    other_quotes: int = 0  # verified quotes of other provisions, not in the table
    kind: str = "year"


@dataclass(frozen=True)
class GapRow:
    label: str
    column: int
    start: date
    last_day: date  # inclusive
    dates: str  # "1 July 2016 to 31 December 2023"
    held: str  # not_held | one_of_two
    reason: str
    income_years: str  # "2017 to 2024"
    kind: str = "gap"


@dataclass(frozen=True)
class DiffCell:
    old: tuple[str, ...]  # version ids
    new: tuple[str, ...]
    segments: tuple[DiffSegment, ...]  # of the quotes whose text differs; none: the same text quoted
    href: str  # the source viewer comparing the two versions whole


@dataclass(frozen=True)
class DiffRow:
    from_year: int
    to_year: int
    cells: tuple[DiffCell | None, ...]
    kind: str = "diff"


Row = YearRow | GapRow | DiffRow


@dataclass(frozen=True)
class TableView:
    question: str
    original_year: int
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    left_out: tuple[int, ...]
    max_years: int
    reason: str | None
    asked: int
    total: int


def table_view(plan: AcrossYearsPlan, years: Sequence[AcrossYearsYear]) -> TableView:
    """The table for ``plan`` with the years received so far (the others shown as being asked)."""
    keys = [(p.act, p.provision) for p in plan.provisions]
    received = {y.income_year: y for y in years}
    year_rows = [
        _year_row(planned.income_year, planned.original, planned.question, planned.why, keys, plan.gaps, received)
        for planned in plan.years
    ]
    year_rows = _folded(year_rows, len(keys))
    placed: list[tuple[date, int, Row]] = [(income_year_start(r.income_year), 2, r) for r in year_rows]
    for gap in plan.gaps:
        column = keys.index((gap.act, gap.provision)) if (gap.act, gap.provision) in keys else 0
        touched = gap.income_years
        span = f"{touched[0]} to {touched[-1]}" if len(touched) > 1 else str(touched[0]) if touched else ""
        last = gap.valid_to - timedelta(days=1)
        dates = f"{day_words(gap.valid_from)} to {day_words(last)}"
        row = GapRow(gap.label, column, gap.valid_from, last, dates, gap.held, gap.reason, span)
        placed.append((gap.valid_from, 0, row))
    for before, after in pairwise(year_rows):
        diff = _diff_row(before, after)
        if diff is not None:
            placed.append((income_year_start(after.income_year), 1, diff))
    placed.sort(key=lambda item: (item[0], item[1]))
    return TableView(
        question=plan.question,
        original_year=plan.original_year,
        columns=tuple(p.label for p in plan.provisions),
        rows=tuple(row for _, _, row in placed),
        left_out=plan.left_out,
        max_years=plan.max_years,
        reason=plan.reason,
        asked=sum(1 for r in year_rows if r.asked),
        total=len(year_rows),
    )


def _year_row(
    year: int,
    original: bool,
    question: str,
    why: tuple[str, ...],
    keys: Sequence[tuple[str, str]],
    gaps: Sequence[GapSpanOut],
    received: Mapping[int, AcrossYearsYear],
) -> YearRow:
    got = received.get(year)
    if got is None:
        return YearRow(year, original, question, why, tuple(Cell((), "being asked") for _ in keys))
    outcome = got.outcome
    role = CITED if outcome.answered else READING
    citations: list[OutcomeCitation] = (
        [c for claim in outcome.claims for c in claim.citations]
        if outcome.answered
        else [q for item in outcome.reading_list for q in item.quotes]
    )
    unique = list({(c.source_id, c.start, c.end): c for c in citations}.values())
    cells = []
    for act, provision in keys:
        mine = sorted(
            (c for c in unique if (c.act, c.provision) == (act, provision)), key=lambda c: (c.source_id, c.start)
        )
        quotes = tuple(_quote(c, outcome.audit_id, role) for c in mine)
        cells.append(Cell(quotes, None if quotes else _no_quote(year, act, provision, gaps)))
    shown = sum(len(c.quotes) for c in cells)
    return YearRow(
        year,
        original,
        got.question,
        why,
        tuple(cells),
        asked=True,
        decision=outcome.decision.value,
        heading=decision_heading(outcome.decision.value),
        answered=outcome.answered,
        reasons=outcome.reasons,
        audit_id=outcome.audit_id,
        other_quotes=len(unique) - shown,
    )


def _folded(rows: Sequence[YearRow], columns: int) -> list[YearRow]:
    """Each cell's quotes split: the first few whose text differs from another year's are shown, the
    rest folded (when none differs, the first few are shown: every year quotes the same)."""
    commons = []
    for column in range(columns):
        quoted = [{q.quote for q in r.cells[column].quotes} for r in rows if r.cells[column].quotes]
        commons.append(set.intersection(*quoted) if len(quoted) > 1 else set())
    folded = []
    for row in rows:
        cells = []
        for cell, common in zip(row.cells, commons, strict=True):
            differing = tuple(q for q in cell.quotes if q.quote not in common)
            shown = differing[:SHOWN_AT_MOST] or cell.quotes[:FIRST_QUOTES]
            rest = tuple(q for q in cell.quotes if q not in shown)
            cells.append(replace(cell, shown=shown, folded=rest, folded_same=all(q.quote in common for q in rest)))
        folded.append(replace(row, cells=tuple(cells)))
    return folded


def _quote(c: OutcomeCitation, audit_id: int, role: str) -> QuoteCell:
    return QuoteCell(
        c.source_id,
        c.title,
        c.register_ids,
        c.valid_from,
        c.valid_to,
        c.quote,
        c.start,
        c.end,
        audit_id,
        role,
        c.then_stood,
    )


def _no_quote(year: int, act: str, provision: str, gaps: Sequence[GapSpanOut]) -> str:
    first, end = income_year_start(year), income_year_end(year)
    for gap in gaps:
        if (gap.act, gap.provision) != (act, provision) or gap.held != "not_held":
            continue
        if gap.valid_from <= first and gap.valid_to >= end:
            return "text not held this year"
        if gap.valid_from < end and gap.valid_to > first:
            return "text not held for part of this year"
    return "not quoted this year"


def _diff_row(before: YearRow, after: YearRow) -> DiffRow | None:
    cells: list[DiffCell | None] = []
    for old, new in zip(before.cells, after.cells, strict=True):
        if not old.quotes or not new.quotes or old.versions == new.versions:
            cells.append(None)
            continue
        # Quotes of the same text in both years are left out: the diff is of what differs.
        both = {q.quote for q in old.quotes} & {q.quote for q in new.quotes}
        was = "\n".join(q.quote for q in old.quotes if q.quote not in both)
        now = "\n".join(q.quote for q in new.quotes if q.quote not in both)
        segments = diff_texts(was, now)
        href = f"/source/{quote(new.versions[0], safe=':@')}?{urlencode({'against': old.versions[0]})}"
        cells.append(DiffCell(old.versions, new.versions, segments, href))
    if not any(cells):
        return None
    return DiffRow(before.income_year, after.income_year, tuple(cells))


# -- the stream --------------------------------------------------------------------------------


@dataclass
class Collected:
    """What the stream has brought so far: the plan, the years, and the error that ended it."""

    plan: AcrossYearsPlan | None = None
    years: list[AcrossYearsYear] = field(default_factory=list)
    error: str | None = None
    status: int = 200  # what research's failure amounts to: 422 refused, 502 unusable, 503 down
    finished: bool = False

    def take(self, event: SseEvent) -> str | None:
        """Reads one research event; returns the browser's event name for it (None: ignored)."""
        try:
            data = event.json()
            if event.event == "plan":
                self.plan = AcrossYearsPlan.model_validate(data)
                return "plan"
            if event.event == "year":
                if self.plan is None:
                    raise ValueError("a year arrived before the plan")
                self.years.append(AcrossYearsYear.model_validate(data))
                return "year"
            if event.event == "done":
                self.finished = True
                return "done"
            if event.event == "error":
                error = StreamError.model_validate(data)
                self.fail(error.message, error.status)
                return "error"
        except ValidationError as exc:
            problem = describe_validation_error(exc)
            self.fail(f"the research service's {event.event} event could not be shown: {problem}", 502)
            return "error"
        except ValueError as exc:
            self.fail(f"the research service sent a broken event: {exc}", 502)
            return "error"
        return None

    def fail(self, message: str, status: int) -> None:
        self.error, self.status, self.finished = message, status, True

    def table(self) -> TableView | None:
        return table_view(self.plan, self.years) if self.plan is not None else None


async def read_events(
    client: ResearchClient, request: AcrossYearsRequest, record: Recorder | None = None
) -> AsyncIterator[tuple[str, Collected]]:
    """Research's across-years stream, read event by event: (the browser's event name, all so far).
    Always ends with ``done`` or ``error``. With ``record``, each year's outcome is kept in the
    practice's history (with the question as sent that year) before the year is shown."""
    collected = Collected()
    try:
        async with client.across_years(research_body(request)) as events:
            async for event in events:
                name = collected.take(event)
                if name == "year" and record is not None:
                    year = collected.years[-1]
                    problem = await record(year.outcome, year.question)
                    if problem is not None:
                        collected.years.pop()
                        collected.fail(problem, 503)
                        name = "error"
                if name is not None:
                    yield name, collected
                if collected.finished:
                    return
    except ResearchRejected as exc:
        collected.fail(str(exc), exc.status)
        yield "error", collected
        return
    except ResearchUnavailable as exc:
        collected.fail(str(exc), 502 if isinstance(exc, ResearchReplyError) else 503)
        yield "error", collected
        return
    collected.fail("the research stream ended before every year was asked: ask again, or check research", 502)
    yield "error", collected


async def collect(client: ResearchClient, request: AcrossYearsRequest, record: Recorder | None = None) -> Collected:
    """The whole stream read (the page without JavaScript)."""
    last = Collected()
    async for _, so_far in read_events(client, request, record):
        last = so_far
    return last


def render_table(renderer: Renderer, collected: Collected) -> str:
    return renderer.render(TABLE, table=collected.table(), error=collected.error, finished=collected.finished)


async def browser_events(
    client: ResearchClient, renderer: Renderer, request: AcrossYearsRequest, record: Recorder | None = None
) -> AsyncIterator[str]:
    """The stream for the page: each event carries the whole table rendered again, and how many
    years are asked so far; the last is ``done`` or ``error``."""
    async for name, collected in read_events(client, request, record):
        table = collected.table()
        progress = {"asked": table.asked, "total": table.total} if table is not None else {}
        yield format_event(name, {"html": render_table(renderer, collected), **progress})
