"""The source viewer's timeline on both time axes, as geometry for an inline SVG (pure).

Two rows over one date axis. "In force (law as it now stands)": each version's certain validity
as a solid bar. "On the books (as it then stood)": when each text was the text on the books, with
a mark at each compilation that shows it. A stretch whose text depends on which candidate
commencement of an amending Act applied is hatched and carries those dates; a stretch whose text
is not held is drawn apart; each retrospective amendment is an arrow from the Act's assent back
to the commencement it reached. Every bar says its dates in words (its title and accessible name).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from asat_web.labels import interval
from asat_web.source_view import BoundView, TimelineItem

WIDTH = 1000.0
MARGIN = 12.0
BAR_HEIGHT = 24.0
LANE = 15.0  # one arrow, or one line of captions
TITLE = 24.0  # a row's title line
CHAR_WIDTH = 6.3  # an estimate of one caption character, to keep captions apart
CAPTION_LANES = 3
HEAD = 8.0  # the arrowhead's length
TICKS_AT_MOST = 10
TICK_STEPS = (1, 2, 5, 10, 20, 50, 100)

CERTAIN = "certain"
UNCERTAIN = "uncertain"
NOT_HELD = "not-held"
NOT_HELD_CAPTION = "text not held"
IN_FORCE = "In force (law as it now stands)"
ON_THE_BOOKS = "On the books (as it then stood)"


@dataclass(frozen=True)
class Bar:
    """A stretch of one row: ``[start, end)`` (``end`` None: still so), drawn at ``x`` wide ``width``."""

    x: float
    width: float
    kind: str  # CERTAIN | UNCERTAIN | NOT_HELD
    label: str  # its dates in words: the title and accessible name
    start: str
    end: str | None
    version_id: str | None = None
    current: bool = False
    candidates: tuple[str, ...] = ()


@dataclass(frozen=True)
class Caption:
    x: float
    y: float
    anchor: str  # "start" | "end"
    text: str


@dataclass(frozen=True)
class Mark:
    """A day marked on a row: a candidate commencement or a compilation."""

    x: float
    kind: str  # "candidate" | "compilation"
    label: str


@dataclass(frozen=True)
class Row:
    key: str  # "in-force" | "on-the-books"
    title: str
    title_y: float
    top: float
    bars: tuple[Bar, ...]
    marks: tuple[Mark, ...]
    captions: tuple[Caption, ...]


@dataclass(frozen=True)
class Arrow:
    """A retrospective amendment: from ``x_assent`` back to ``x_commencement``, at height ``y``."""

    x_assent: float
    x_commencement: float
    y: float
    act: str
    assent: str
    commencement: str
    label: str
    caption: Caption

    @property
    def head(self) -> str:
        """The arrowhead's points, its tip on the commencement."""
        base = self.x_commencement + (HEAD if self.x_commencement < self.x_assent else -HEAD)
        return f"{self.x_commencement},{self.y} {base},{self.y - HEAD / 2} {base},{self.y + HEAD / 2}"


@dataclass(frozen=True)
class Tick:
    x: float
    label: str


@dataclass(frozen=True)
class TimelineChart:
    width: float
    height: float
    bar_height: float
    in_force: Row
    on_the_books: Row
    arrows: tuple[Arrow, ...]
    ticks: tuple[Tick, ...]
    axis_y: float

    @property
    def rows(self) -> tuple[Row, Row]:
        return (self.in_force, self.on_the_books)


@dataclass(frozen=True)
class _Span:
    start: int  # date ordinals, [start, end)
    end: int
    kind: str
    label: str
    open_end: bool = False
    version_id: str | None = None
    current: bool = False
    candidates: tuple[str, ...] = ()
    caption: str = ""


@dataclass(frozen=True)
class _Scale:
    start: int
    end: int

    def x(self, day: int) -> float:
        return round(MARGIN + (day - self.start) / (self.end - self.start) * (WIDTH - 2 * MARGIN), 1)


def timeline_chart(items: Sequence[TimelineItem]) -> TimelineChart | None:
    """The chart of ``items`` (see :func:`asat_web.source_view.timeline_items`); None with no version."""
    versions = [i for i in items if i.kind == "version" and _day(i.valid_from) is not None]
    if not versions:
        return None
    scale = _scale(items)
    in_force = _in_force(items, scale.end)
    books = _on_the_books(versions, scale.end, envelope_start=min(s.start for s in in_force))
    retro = [i for i in items if i.kind == "retrospective" and _day(i.assent) and _day(i.commencement)]

    arrows_top = TITLE  # under row one's title: the arrows, one lane each, then row one's bars
    arrows = tuple(_arrow(item, scale, arrows_top + LANE * n + LANE / 2) for n, item in enumerate(retro))
    top = arrows_top + LANE * len(arrows) + (4 if arrows else 0)
    in_force_row, below = _row("in-force", IN_FORCE, arrows_top - 8, top, in_force, scale)
    books_top = below + TITLE + 6
    books_row, y = _row("on-the-books", ON_THE_BOOKS, books_top - 8, books_top, books, scale, versions)
    return TimelineChart(
        width=WIDTH,
        height=y + 2 * LANE,
        bar_height=BAR_HEIGHT,
        in_force=in_force_row,
        on_the_books=books_row,
        arrows=arrows,
        ticks=_ticks(scale),
        axis_y=y + 4,
    )


def subtract(span: tuple[int, int], cuts: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of ``[start, end)`` not covered by any of ``cuts`` (half-open, as ordinals)."""
    pieces = [span] if span[0] < span[1] else []
    for cut_start, cut_end in cuts:
        kept: list[tuple[int, int]] = []
        for start, end in pieces:
            if cut_end <= start or end <= cut_start:
                kept.append((start, end))
                continue
            if start < cut_start:
                kept.append((start, cut_start))
            if cut_end < end:
                kept.append((cut_end, end))
        pieces = kept
    return pieces


def _in_force(items: Sequence[TimelineItem], end: int) -> list[_Span]:
    """Row one: versions (certain), gaps (uncertain or not held) and the uncertain ends of versions
    that no gap already covers."""
    spans: list[_Span] = []
    for item in items:
        start = _day(item.valid_from)
        if start is None or item.kind == "retrospective":
            continue
        stop = _day(item.valid_to)
        if item.kind == "version":
            words = f"{_version_name(item)}: {interval(item.valid_from, item.valid_to)}"
            spans.append(_Span(start, stop or end, CERTAIN, words, stop is None, item.id, item.current))
        elif item.held == "one_of_two":
            words = (
                f"Uncertain {_dates(start, stop)}: the text is one of the two held texts; "
                f"{_acts(item.acts)} commenced on one of {', '.join(item.candidates)}"
            )
            spans.append(_uncertain(start, stop or end, words, item.candidates))
        else:
            reason = f": {item.reason}" if item.reason else ""
            spans.append(_Span(start, stop or end, NOT_HELD, f"Text not held {_dates(start, stop)}{reason}"))
    drawn = [(s.start, s.end) for s in spans]
    for item in items:
        if item.kind == "version" and item.valid_bounds is not None:
            for bound, stretch in zip(item.valid_bounds, _stretches(item.valid_bounds), strict=True):
                spans += _bound_spans(bound, stretch, drawn, "this version may be in force")
    return sorted(spans, key=lambda s: (s.start, s.end))


def _on_the_books(versions: Sequence[TimelineItem], end: int, envelope_start: int) -> list[_Span]:
    """Row two: when each text was on the books, the uncertain ends, and the stretches between
    whose text on the books is not held."""
    spans: list[_Span] = []
    for item in versions:
        start = _day(item.known_from)
        if start is None:
            continue
        stop = _day(item.known_to)
        held = f"; compilations of {', '.join(item.compilation_dates)}" if item.compilation_dates else ""
        still = ", still on the books" if stop is None else f" to {_last(stop)}"
        words = f"{_version_name(item)}: on the books from {item.known_from}{still}{held}"
        spans.append(_Span(start, stop or end, CERTAIN, words, stop is None, item.id, item.current))
    certain = [(s.start, s.end) for s in spans]
    for item in versions:
        if item.known_bounds is not None:
            for bound, stretch in zip(item.known_bounds, _stretches(item.known_bounds), strict=True):
                spans += _bound_spans(bound, stretch, certain, "the text on the books changed then")
    if spans:
        covered = [(s.start, s.end) for s in spans]
        envelope = (min(envelope_start, *(s.start for s in spans)), max(s.end for s in spans))
        for start, stop in subtract(envelope, covered):
            spans.append(_Span(start, stop, NOT_HELD, f"Text on the books not held {_dates(start, stop)}"))
    return sorted(spans, key=lambda s: (s.start, s.end))


def _stretches(bounds: tuple[BoundView, BoundView]) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """The uncertain stretch at each end: before the certain start, after the certain end."""
    first, last = bounds
    before = after = None
    if first.uncertain and (widest := _day(first.widest)) is not None and (day := _day(first.day)) is not None:
        before = (widest, day)
    if last.uncertain and (day := _day(last.day)) is not None and (widest := _day(last.widest)) is not None:
        after = (day, widest)
    return before, after


def _bound_spans(
    bound: BoundView, stretch: tuple[int, int] | None, drawn: Sequence[tuple[int, int]], meaning: str
) -> list[_Span]:
    if stretch is None:
        return []
    spans = []
    for start, stop in subtract(stretch, drawn):
        words = (
            f"Uncertain {_dates(start, stop)}: {_acts(bound.acts)} commenced on one of "
            f"{', '.join(bound.candidates)}; {meaning}"
        )
        spans.append(_uncertain(start, stop, words, bound.candidates))
    return spans


def _uncertain(start: int, stop: int, words: str, candidates: tuple[str, ...]) -> _Span:
    caption = f"one of {', '.join(candidates)}" if candidates else "uncertain"
    return _Span(start, stop, UNCERTAIN, words, candidates=candidates, caption=caption)


def _row(
    key: str,
    title: str,
    title_y: float,
    top: float,
    spans: Sequence[_Span],
    scale: _Scale,
    compiled: Sequence[TimelineItem] = (),
) -> tuple[Row, float]:
    """The row drawn from ``top`` and the height below it (bars, then the captions' lanes); marks
    at the candidate commencements and at the compilations of the ``compiled`` versions."""
    bars = tuple(_bar(span, scale) for span in spans)
    marks = _candidate_marks(spans, scale) + _compilation_marks(compiled, scale)
    under = _captions([s for s in spans if s.kind == UNCERTAIN], scale, top + BAR_HEIGHT + LANE - 3)
    inside = _inside_captions([s for s in spans if s.kind == NOT_HELD], scale, top + BAR_HEIGHT / 2 + 4)
    lanes = len({c.y for c in under})
    row = Row(key, title, title_y, top, bars, tuple(marks), under + inside)
    return row, top + BAR_HEIGHT + LANE * lanes + 6


def _bar(span: _Span, scale: _Scale) -> Bar:
    x = scale.x(span.start)
    width = max(round(scale.x(span.end) - x, 1), 2.0)
    end = None if span.open_end else date.fromordinal(span.end).isoformat()
    start = date.fromordinal(span.start).isoformat()
    return Bar(x, width, span.kind, span.label, start, end, span.version_id, span.current, span.candidates)


def _captions(spans: Sequence[_Span], scale: _Scale, first_lane: float) -> tuple[Caption, ...]:
    """Each span's caption under it, in the first lane where it overlaps no other (or left out:
    its bar's title still says it)."""
    lanes: list[list[tuple[float, float]]] = [[] for _ in range(CAPTION_LANES)]
    captions = []
    for span in spans:
        width = len(span.caption) * CHAR_WIDTH
        x = scale.x(span.start)
        anchor, left = "start", x
        if x + width > WIDTH - MARGIN:
            anchor, x = "end", max(scale.x(span.end), MARGIN + width)
            left = x - width
        right = left + width
        free = (n for n, taken in enumerate(lanes) if all(right + 8 <= a or b + 8 <= left for a, b in taken))
        lane = next(free, None)
        if lane is None:
            continue
        lanes[lane].append((left, right))
        captions.append(Caption(round(x, 1), first_lane + LANE * lane, anchor, span.caption))
    return tuple(captions)


def _inside_captions(spans: Sequence[_Span], scale: _Scale, baseline: float) -> tuple[Caption, ...]:
    """The words "text not held" inside each bar wide enough to hold them."""
    captions = []
    for span in spans:
        x = scale.x(span.start)
        if scale.x(span.end) - x >= len(NOT_HELD_CAPTION) * CHAR_WIDTH + 12:
            captions.append(Caption(round(x + 6, 1), baseline, "start", NOT_HELD_CAPTION))
    return tuple(captions)


def _candidate_marks(spans: Sequence[_Span], scale: _Scale) -> list[Mark]:
    """A mark at each candidate commencement inside an uncertain stretch."""
    marks: dict[int, Mark] = {}
    for span in spans:
        for day in span.candidates:
            ordinal = _day(day)
            if ordinal is not None and span.start <= ordinal <= span.end:
                marks.setdefault(ordinal, Mark(scale.x(ordinal), "candidate", f"candidate commencement {day}"))
    return list(marks.values())


def _compilation_marks(versions: Sequence[TimelineItem], scale: _Scale) -> list[Mark]:
    """A mark at each compilation that shows one of the texts."""
    marks: dict[int, Mark] = {}
    for version in versions:
        registers = ", ".join(version.register_ids)
        for day in version.compilation_dates:
            ordinal = _day(day)
            if ordinal is not None:
                marks.setdefault(ordinal, Mark(scale.x(ordinal), "compilation", f"compilation of {day} ({registers})"))
    return list(marks.values())


def _arrow(item: TimelineItem, scale: _Scale, y: float) -> Arrow:
    assent, commencement = str(item.assent), str(item.commencement)
    x_assent, x_back = scale.x(_day(assent) or 0), scale.x(_day(commencement) or 0)
    act = item.acts[0] if item.acts else "an amending Act"
    text = f"{act}: assent {assent}, reaches back to {commencement}"
    label = f"Retrospective: {act}, assented to on {assent}, commenced on {commencement}, before its assent"
    width = len(text) * CHAR_WIDTH
    if x_assent + 6 + width <= WIDTH - MARGIN:
        caption = Caption(round(x_assent + 6, 1), y + 4, "start", text)
    elif x_back - 6 - width >= MARGIN:
        caption = Caption(round(x_back - 6, 1), y + 4, "end", text)
    else:
        caption = Caption(MARGIN, y + 4, "start", text)
    return Arrow(x_assent, x_back, y, act, assent, commencement, label, caption)


def _scale(items: Sequence[TimelineItem]) -> _Scale:
    days: list[int] = []
    open_end = False
    for item in items:
        named = [item.valid_from, item.valid_to, item.known_from, item.known_to, item.assent, item.commencement]
        named += list(item.candidates) + list(item.compilation_dates)
        for bounds in (item.valid_bounds, item.known_bounds):
            for bound in bounds or ():
                named += [bound.day, bound.widest]
        days += [d for d in map(_day, named) if d is not None]
        if item.kind == "version":
            open_end = open_end or item.valid_to is None or (item.known_from is not None and item.known_to is None)
    start, end = min(days), max(days)
    span = max(end - start, 365)
    return _Scale(start - max(span // 50, 30), end + (max(span // 12, 365) if open_end else max(span // 50, 30)))


def _ticks(scale: _Scale) -> tuple[Tick, ...]:
    first, last = date.fromordinal(scale.start).year + 1, date.fromordinal(scale.end).year
    step = next((s for s in TICK_STEPS if (last - first) // s < TICKS_AT_MOST), TICK_STEPS[-1])
    years = [y for y in range(first, last + 1) if y % step == 0]
    return tuple(Tick(scale.x(date(y, 1, 1).toordinal()), str(y)) for y in years)


def _day(value: str | None) -> int | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value).toordinal()
    except ValueError:
        return None


def _last(end: int) -> str:
    return (date.fromordinal(end) - timedelta(days=1)).isoformat()


def _dates(start: int, end: int | None) -> str:
    first = date.fromordinal(start).isoformat()
    return f"from {first}, still" if end is None else f"from {first} to {_last(end)}"


def _acts(acts: Sequence[str]) -> str:
    return ", ".join(acts) if acts else "an amending Act"


def _version_name(item: TimelineItem) -> str:
    registers = ", ".join(item.register_ids)
    name = "This version" if item.current else "Version"
    return f"{name} ({registers})" if registers else name
