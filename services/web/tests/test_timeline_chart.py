"""The two-axis timeline: its geometry (pure) and the SVG the source viewer renders from it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from asat_web.source_view import timeline_items
from asat_web.timeline_chart import (
    CERTAIN,
    IN_FORCE,
    NOT_HELD,
    ON_THE_BOOKS,
    UNCERTAIN,
    Bar,
    TimelineChart,
    subtract,
    timeline_chart,
)

from .stub_research import CANDIDATES, RETRO_ACT, RETRO_ASSENT, SOURCES, V2015, V2026

Make = Callable[..., tuple[TestClient, FastAPI]]


def chart(source: dict[str, Any] = SOURCES[V2015]) -> TimelineChart:
    drawn = timeline_chart(timeline_items(source))
    assert drawn is not None
    return drawn


def kinds(bars: tuple[Bar, ...]) -> list[tuple[str, str, str | None]]:
    return [(b.kind, b.start, b.end) for b in bars]


def test_the_in_force_row_has_solid_versions_a_hatched_stretch_and_a_gap_not_held() -> None:
    row = chart().in_force
    assert row.title == IN_FORCE
    assert kinds(row.bars) == [
        (NOT_HELD, "2012-07-01", "2014-07-01"),
        (CERTAIN, "2014-07-01", "2016-07-01"),
        (UNCERTAIN, "2016-07-01", "2017-07-01"),
        (CERTAIN, "2017-07-01", None),
    ]
    earlier, hatched, later = row.bars[1:]
    assert hatched.candidates == tuple(CANDIDATES)
    assert "one of 2016-07-01, 2017-07-01" in hatched.label and RETRO_ACT in hatched.label
    assert earlier.version_id == V2015 and earlier.current and not later.current
    assert earlier.x + earlier.width == hatched.x and hatched.x + hatched.width == later.x
    assert [c.text for c in row.captions if c.x == hatched.x] == ["one of 2016-07-01, 2017-07-01"]
    assert {m.x for m in row.marks if m.kind == "candidate"} == {hatched.x, later.x}


def test_the_on_the_books_row_has_the_known_intervals_and_what_is_not_held_between() -> None:
    row = chart().on_the_books
    assert row.title == ON_THE_BOOKS and row.top > chart().in_force.top
    assert kinds(row.bars) == [
        (NOT_HELD, "2012-07-01", "2015-06-22"),
        (CERTAIN, "2015-06-22", RETRO_ASSENT),
        (UNCERTAIN, RETRO_ASSENT, "2017-07-01"),
        (NOT_HELD, "2017-07-01", "2026-04-01"),
        (CERTAIN, "2026-04-01", None),
    ]
    assert row.bars[1].label == (
        "This version (C2015C00285): on the books from 2015-06-22 to 2017-05-18; compilations of 2015-06-22"
    )
    compiled = [m for m in row.marks if m.kind == "compilation"]
    assert [m.x for m in compiled] == [row.bars[1].x, row.bars[4].x]
    assert compiled[0].label == "compilation of 2015-06-22 (C2015C00285)"


def test_every_bar_says_its_dates_in_words() -> None:
    drawn = chart()
    for row in drawn.rows:
        for bar in row.bars:
            assert f"from {bar.start}" in bar.label, bar


def test_a_retrospective_act_is_an_arrow_from_its_assent_back_to_its_commencement() -> None:
    drawn = chart()
    (arrow,) = drawn.arrows
    hatched = drawn.in_force.bars[2]
    assert (arrow.act, arrow.assent, arrow.commencement) == (RETRO_ACT, RETRO_ASSENT, "2016-07-01")
    assert arrow.x_commencement == hatched.x < arrow.x_assent < hatched.x + hatched.width
    assert arrow.y < drawn.in_force.top
    tip, *base = (tuple(map(float, p.split(","))) for p in arrow.head.split())
    assert tip == (arrow.x_commencement, arrow.y) and all(x > tip[0] for x, _ in base)  # points back in time
    assert arrow.caption.text == f"{RETRO_ACT}: assent {RETRO_ASSENT}, reaches back to 2016-07-01"


def test_an_uncertain_end_no_gap_covers_is_hatched_after_the_certain_bar() -> None:
    bound = {"day": "2020-07-01", "widest": "2021-07-01", "candidates": ["2020-07-01", "2021-07-01"], "acts": ["A"]}
    source = {
        "id": "v",
        "timeline": [
            {
                "type": "version",
                "id": "v",
                "valid_from": "2010-07-01",
                "valid_to": "2020-07-01",
                "register_ids": ["C1"],
                "valid_from_bound": {"day": "2010-07-01"},
                "valid_to_bound": bound,
            }
        ],
    }
    row = chart(source).in_force
    assert kinds(row.bars) == [(CERTAIN, "2010-07-01", "2020-07-01"), (UNCERTAIN, "2020-07-01", "2021-07-01")]
    assert row.bars[1].candidates == ("2020-07-01", "2021-07-01")
    assert chart(source).on_the_books.bars == ()


def test_no_chart_without_a_version() -> None:
    assert timeline_chart(timeline_items({"id": "x"})) is None


@given(
    st.tuples(st.integers(0, 40), st.integers(0, 40)),
    st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=5),
)
def test_subtract_keeps_exactly_the_days_no_cut_covers(span: tuple[int, int], cuts: list[tuple[int, int]]) -> None:
    pieces = subtract(span, cuts)
    kept = {d for a, b in pieces for d in range(a, b)}
    assert kept == {d for d in range(*span) if not any(a <= d < b for a, b in cuts)}
    assert all(a < b for a, b in pieces)


def test_the_source_page_draws_the_chart_in_svg_within_the_content_security_policy(make_web: Make) -> None:
    web, _ = make_web()
    reply = web.get(f"/source/{V2015}")
    html = reply.text
    assert "style-src 'self'" in reply.headers["content-security-policy"]
    section = html[html.index('<section class="timeline-chart"') : html.index("</section>", html.index("tl-legend"))]
    assert "style=" not in section and "<script" not in section  # no inline style or script: the CSP allows none
    assert re.findall(r'(?:href|src)="(?![/#])[^"]*"', section) == []  # nothing from another host
    assert ">In force (law as it now stands)</text>" in section and ">On the books (as it then stood)</text>" in section
    hatched = re.search(r'<rect class="tl-bar tl-uncertain"[^>]*data-candidates="2016-07-01 2017-07-01"[^>]*>', section)
    assert hatched is not None and 'fill="url(#tl-hatch)"' in hatched.group(0)
    assert '<pattern id="tl-hatch"' in section
    assert f'data-act="{RETRO_ACT}" data-assent="{RETRO_ASSENT}" data-commencement="2016-07-01"' in section
    assert "<title>Uncertain from 2016-07-01 to 2017-06-30: the text is one of the two held texts;" in section
    assert f'<a role="listitem" href="/source/{V2026}"' in section  # the other version's bar links to it
    assert "tl-current" in section
    listed = html[html.index('<nav class="timeline"') : html.index("</nav>", html.index('<nav class="timeline"'))]
    assert "Text uncertain from 2016-07-01 to 2017-06-30" in listed
    assert f"Retrospective: {RETRO_ACT}, assented to on {RETRO_ASSENT}, reached back to 2016-07-01" in listed
    assert "on the books from 2015-06-22 to 2017-05-18" in listed
