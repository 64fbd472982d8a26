"""The research history: its pure parts, and its pages over the stub research service."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_corpus.contracts.audit_log import AuditEntryOut, outcome_as_given
from asat_corpus.contracts.research import ResearchOutcome
from asat_web.history import answer_as_given, ask_again_body, asked_on, history_rows, request_period
from asat_web.rendering import Renderer
from asat_web.turn import TurnRequest, render_outcome

from .stub_research import (
    FY2024_QUESTION,
    QUOTE,
    SHOWN_ROWS,
    TEXT_2026,
    V2026,
    audit_entry,
    citation,
    outcome,
    question_row,
)

Make = Callable[..., tuple[TestClient, FastAPI]]
QUESTION = "What aggregated turnover made a business a small business entity?"
QUOTE_2026 = "your aggregated turnover is less than $10 million"


def entry(row: dict[str, Any]) -> AuditEntryOut:
    return AuditEntryOut.model_validate(row)


def unmarked(html: str) -> str:
    return html.replace("<mark>", "").replace("</mark>", "")


# The pure parts (asat_web.history).


def test_asking_again_sends_the_period_as_it_was_asked() -> None:
    shown = entry(SHOWN_ROWS[3])
    given = outcome_as_given(shown)
    assert ask_again_body(shown, given) == {"question": QUESTION, "income_year": 2015}
    from_question = entry(question_row())
    assert ask_again_body(from_question, outcome_as_given(from_question)) == {"question": FY2024_QUESTION}
    for source, matched, extra, sent in (
        ("parameter", "as_of=2015-03-01", {"as_of": "2015-03-01"}, {"as_of": "2015-03-01"}),
        ("parameter", "as_known_on=2015-10-31", {"as_known_on": "2015-10-31"}, {"as_known_on": "2015-10-31"}),
        ("default (current income year)", "today 2015-04-01", {}, {"income_year": 2015}),
        ("question", "on 1 March 2015", {"as_of": "2015-03-01"}, {}),
    ):
        scope = given.scope.model_copy(update={"source": source, "matched": matched} | _days(extra))
        assert ask_again_body(shown, given.model_copy(update={"scope": scope})) == {"question": QUESTION} | sent


def _days(extra: dict[str, str]) -> dict[str, Any]:
    return {k: datetime.fromisoformat(v).date() for k, v in extra.items()}


def test_a_row_without_what_was_shown_is_asked_again_for_its_own_period() -> None:
    assert ask_again_body(entry(audit_entry(1)), None) == {"question": QUESTION, "income_year": 2015}
    assert ask_again_body(entry(audit_entry(2)), None) == {"question": QUESTION, "as_known_on": "2015-10-01"}
    assert request_period({"question": "q"}) == "the period the question names"
    assert request_period({"question": "q", "as_known_on": "2015-10-01"}) == "as known on 2015-10-01"


def test_the_answer_as_given_or_why_it_cannot_be_shown() -> None:
    shown = answer_as_given(entry(SHOWN_ROWS[3]))
    assert shown.problem is None and shown.outcome is not None and shown.outcome.audit_id == 3
    old = answer_as_given(entry(audit_entry(1)))
    assert old.outcome is None and old.problem is not None and "written before" in old.problem
    broken = SHOWN_ROWS[3] | {"record": SHOWN_ROWS[3]["record"] | {"shown": {"decision": "answer"}}}
    bad = answer_as_given(entry(broken))
    assert bad.outcome is None and bad.problem is not None and "not a research outcome" in bad.problem


def test_rows_are_listed_newest_first_in_words() -> None:
    rows = history_rows([entry(audit_entry(1)), entry(question_row()), entry(audit_entry(2))])
    assert [r.audit_id for r in rows] == [5, 2, 1]
    assert [r.period for r in rows] == ["income year 2024", "as known on 2015-10-01", "income year 2015"]
    assert rows[0].asked == "1 April 2026 at 10:00 UTC" and rows[0].question == FY2024_QUESTION


def test_when_asked_is_said_in_utc() -> None:
    sydney = timezone(timedelta(hours=10))
    assert asked_on(datetime(2026, 4, 2, 8, 5, tzinfo=sydney)) == "1 April 2026 at 22:05 UTC"
    assert asked_on(datetime(2026, 4, 1, 10, 0, tzinfo=UTC)) == asked_on(datetime(2026, 4, 1, 10, 0))


# The pages, over the stub research service.


def test_history_lists_the_recent_questions_newest_first_with_links(make_web: Make) -> None:
    web, _ = make_web()
    page = web.get("/history")
    assert page.status_code == 200
    html = page.text
    assert '<a href="/history" aria-current="page">History</a>' in html
    assert re.search(r'<label for="history-q">[^<]+</label>\s*<input type="search" id="history-q" name="q"', html)
    assert '<form class="history-search" method="get" action="/history"' in html  # works without JavaScript
    links = re.findall(r'<a href="/history/(\d+)">', html)
    assert links == ["5", "4", "3", "2", "1"]
    row_5 = html[html.index('data-audit-id="5"') : html.index('data-audit-id="4"')]
    for text in (FY2024_QUESTION, "income year 2024", "<td>Answer</td>", "1 April 2026 at 10:00 UTC", ">0123456789ab<"):
        assert text in row_5, text
    row_4 = html[html.index('data-audit-id="4"') : html.index('data-audit-id="3"')]
    assert "No answer: the corpus does not appear to address this question" in row_4
    assert "as known on 2015-10-01" in html[html.index('data-audit-id="2"') :]


def test_history_search_filters_by_question_text_through_research(make_web: Make) -> None:
    web, _ = make_web()
    html = web.get("/history", params={"q": "  fy2024 "}).text
    assert re.findall(r'<a href="/history/(\d+)">', html) == ["5"]
    assert 'name="q" value="fy2024"' in html and "containing “fy2024”" in html
    assert '<a href="/history">Show all recent questions</a>' in html
    none = web.get("/history", params={"q": "payroll tax"}).text
    assert "No recent question contains “payroll tax”." in none and "<table" not in none
    assert len(re.findall(r'<a href="/history/\d+">', web.get("/history", params={"q": " "}).text)) == 5
    long = web.get("/history", params={"q": "x" * 201})
    assert long.status_code == 422 and "at most 200 characters" in long.text


def test_a_question_reopens_with_its_answer_exactly_as_given(make_web: Make) -> None:
    web, stub = make_web()
    page = web.get("/history/3")
    assert page.status_code == 200
    html = page.text
    given = outcome_as_given(entry(SHOWN_ROWS[3]))
    live = render_outcome(Renderer(), given, TurnRequest(QUESTION, None, None))["html"]
    assert live in html  # the same templates as a live answer, the same answer
    assert "As given on 1 April 2026 at 10:00 UTC, against corpus <code" in html and ">0123456789ab</code>" in html
    assert QUOTE in unmarked(html) and "?audit=3&amp;start=" in html
    assert '<form class="ask-again" method="post" action="/history/3/again">' in html
    assert "Asks the same question for income year 2015" in html
    assert "What changed" not in html and stub.state.requests == []  # nothing is asked by opening it


def test_a_row_that_predates_what_was_shown_gives_the_reason_and_ask_again_never_a_part(make_web: Make) -> None:
    web, _ = make_web()
    html = web.get("/history/1").text
    assert "audit row 1 was written before the audit log recorded what was shown" in html
    assert QUESTION in html and 'action="/history/1/again"' in html
    assert 'class="claims"' not in html and QUOTE not in unmarked(html) and "outcome" not in html


def test_an_unknown_row_is_404(make_web: Make) -> None:
    web, _ = make_web()
    assert web.get("/history/7").status_code == 404
    assert web.post("/history/7/again").status_code == 404


def test_ask_again_with_the_same_index_says_nothing_changed(make_web: Make) -> None:
    web, stub = make_web()
    page = web.post("/history/3/again")
    assert page.status_code == 200
    html = page.text
    assert stub.state.requests == [{"question": QUESTION, "income_year": 2015}]
    assert "<strong>Nothing changed</strong>" in html
    assert html.index("What changed") < html.index("As given on") < html.index("Asked again now")
    assert 'class="history-compare history-compare-two"' in html and '<a href="/history/1">question 1</a>' in html
    assert html.count('<article class="outcome outcome-answer"') == 2


def test_ask_again_sends_no_period_when_it_came_from_the_question(make_web: Make) -> None:
    web, stub = make_web()
    assert web.post("/history/5/again").status_code == 200
    assert stub.state.requests == [{"question": FY2024_QUESTION}]
    web.post("/history/2/again")
    assert stub.state.requests[-1] == {"question": QUESTION, "as_known_on": "2015-10-01"}


def test_ask_again_of_an_unrecorded_answer_shows_the_answer_now_without_a_comparison(make_web: Make) -> None:
    web, stub = make_web()
    html = web.post("/history/1/again").text
    assert stub.state.requests == [{"question": QUESTION, "income_year": 2015}]
    assert "was not recorded, so it cannot be compared" in html and "Nothing changed" not in html
    assert "audit row 1 was written before" in html and html.count('<article class="outcome') == 1


def test_ask_again_shows_what_changed_when_the_index_moved_on(make_web: Make) -> None:
    cited = citation(V2026, QUOTE_2026, TEXT_2026.index(QUOTE_2026))
    now = outcome(
        audit_id=8,
        claims=[{"id": "c1", "text": "Turnover under $10 million.", "citations": [cited], "groundedness": 1.0}],
        reading_list=[
            {
                "source_id": V2026,
                "title": "ITAA 1997 s 328-110 Meaning of small business entity",
                "register_ids": ["C2026C00122"],
                "valid_from": "2017-07-01",
                "valid_to": None,
                "quotes": [cited],
            }
        ],
        corpus_generation="fedcba9876543210fedcba9876543210",
    )
    ResearchOutcome.model_validate(now)
    web, _ = make_web(result=now)
    html = web.post("/history/3/again").text
    changes = html[html.index('<section class="answer-changes"') : html.index("</section>")]
    assert "Nothing changed" not in changes
    assert "Decision unchanged: Answer." in changes
    assert ">0123456789ab</code> then, <code" in changes and ">fedcba987654</code> now" in changes
    assert "<h3>Claims added</h3>" in changes and "Turnover under $10 million." in changes
    assert "<h3>Claims removed</h3>" in changes and "Turnover under $2 million." in changes
    assert "<h3>Quotes changed</h3>" in changes and "<del>$2</del><ins>$10</ins>" in changes
    assert "C2015C00285 then, C2026C00122 now" in changes and "?audit=8&amp;start=" in changes
    assert "<h3>Added to the reading list</h3>" in changes and "<h3>Gone from the reading list</h3>" in changes
    assert '<a href="/history/8">question 8</a>' in html


def test_ask_again_that_fails_keeps_the_answer_as_given_and_says_why(make_web: Make) -> None:
    web, _ = make_web(result=outcome() | {"audit_id": None})
    page = web.post("/history/3/again")
    assert page.status_code == 502
    assert "Research service reply unusable" in page.text and "What changed" not in page.text
    assert page.text.count('<article class="outcome outcome-answer"') == 1  # the answer as given, still shown
