"""The answer across years in the web: the table built from research's plan and years (pure), the
"How has this changed?" link on answers and abstentions with a reading list, the page (the shell
the script fills, and the whole table without JavaScript) and the relay, over a stub research."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

from fastapi import FastAPI
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.testclient import TestClient

from asat_corpus.contracts.across_years import AcrossYearsPlan, AcrossYearsYear
from asat_corpus.contracts.research import ResearchOutcome
from asat_web.across_years_view import DiffRow, GapRow, YearRow, across_years_href, table_view
from asat_web.diff import DiffOp
from asat_web.sse import SseParser

from .conftest import web_client
from .stub_research import QUOTE, START, TEXT_2015, TEXT_2026, V2015, V2026, citation, outcome

QUESTION = "What aggregated turnover made a business a small business entity?"
QUOTE_2026 = "your aggregated turnover is less than $10 million"
START_2026 = TEXT_2026.index(QUOTE_2026)
PROVISION = {"act": "itaa1997", "provision": "328-110", "label": "ITAA 1997 s 328-110"}


def plan(**extra: Any) -> dict[str, Any]:
    return {
        "question": QUESTION,
        "original_year": 2026,
        "years": [
            {"income_year": 2015, "question": QUESTION, "original": False, "why": ["C2015C00285 in force"]},
            {"income_year": 2026, "question": QUESTION, "original": True, "why": ["the year asked about"]},
        ],
        "provisions": [PROVISION | {"source_ids": [V2026]}],
        "gaps": [
            PROVISION
            | {
                "valid_from": "2016-07-01",
                "valid_to": "2024-01-01",
                "held": "not_held",
                "reason": "amended more than once between held compilations",
                "income_years": list(range(2017, 2025)),
            }
        ],
        "left_out": [],
        "max_years": 12,
        "reason": None,
    } | extra


def year_2015() -> dict[str, Any]:
    scope = {"income_year": 2015, "as_of": None, "source": "parameter", "matched": "income_year=2015"}
    return {"income_year": 2015, "question": QUESTION, "outcome": outcome(audit_id=7, scope=scope)}


def year_2026(answered: bool = True) -> dict[str, Any]:
    cited = citation(V2026, QUOTE_2026, START_2026, valid_from="2017-07-01", valid_to=None)
    scope = {"income_year": 2026, "as_of": None, "source": "parameter", "matched": "income_year=2026"}
    claims = [{"id": "c1", "text": "Under $10 million.", "citations": [cited], "groundedness": 1.0}]
    reading = [{"source_id": V2026, "title": cited["title"], "register_ids": ["C2026C00122"]} | {
        "valid_from": "2017-07-01", "valid_to": None, "quotes": [cited]}]  # fmt: skip
    body = outcome(answered, audit_id=8, scope=scope, claims=claims if answered else [], reading_list=reading)
    return {"income_year": 2026, "question": QUESTION, "outcome": body}


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n"


EVENTS = [
    ("plan", plan()),
    ("year", year_2015()),
    ("year", year_2026()),
    ("done", {"audit_ids": {"2015": 7, "2026": 8}}),
]


def across_stub(events: list[tuple[str, dict[str, Any]]] | None = None, refuse: int | None = None) -> FastAPI:
    app = FastAPI()
    app.state.requests = []

    @app.post("/v1/research/across-years", response_model=None)
    def across(body: dict[str, Any]) -> StreamingResponse | JSONResponse:
        # Who asks (asked_by) is the session's, added by the web: the rest is what the page sent.
        app.state.requests.append({k: v for k, v in body.items() if k != "asked_by"})
        if refuse is not None:
            return JSONResponse({"error": "invalid_request", "message": "no source 'x' is held"}, status_code=refuse)

        def stream() -> Iterator[str]:
            for name, data in events if events is not None else EVENTS:
                yield _event(name, data)

        return StreamingResponse(stream(), media_type="text/event-stream")

    return app


def _browser_events(client: TestClient, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    reply = client.post("/across-years/stream", json=body)
    assert reply.status_code == 200, reply.text
    parser = SseParser()
    return [(e.event, e.json()) for e in parser.feed(reply.text) + parser.close()]


# -- the table (pure) --------------------------------------------------------------------------


def test_the_table_has_a_row_per_year_the_gap_between_and_the_diff_before_the_later_year() -> None:
    table = table_view(AcrossYearsPlan.model_validate(plan()), [AcrossYearsYear.model_validate(year_2015()),
                                                                 AcrossYearsYear.model_validate(year_2026())])  # fmt: skip
    assert table.columns == ("ITAA 1997 s 328-110",) and (table.asked, table.total) == (2, 2)
    kinds = [(row.kind, getattr(row, "income_year", None)) for row in table.rows]
    assert kinds == [("year", 2015), ("gap", None), ("diff", None), ("year", 2026)]
    first, gap, diff, last = table.rows
    assert isinstance(first, YearRow) and isinstance(last, YearRow)
    assert [q.quote for q in first.cells[0].quotes] == [QUOTE] and first.cells[0].quotes[0].audit_id == 7
    assert [q.quote for q in last.cells[0].quotes] == [QUOTE_2026] and last.original and last.heading == "Answer"
    assert isinstance(gap, GapRow)
    assert (gap.dates, gap.income_years, gap.held) == ("1 July 2016 to 31 December 2023", "2017 to 2024", "not_held")
    assert isinstance(diff, DiffRow) and (diff.from_year, diff.to_year) == (2015, 2026)
    (cell,) = diff.cells
    assert cell is not None and (cell.old, cell.new) == ((V2015,), (V2026,))
    changed = {(s.op, s.text.strip()) for s in cell.segments if s.op is not DiffOp.EQUAL}
    assert changed == {(DiffOp.DELETE, "$2"), (DiffOp.INSERT, "$10")}
    assert cell.href == f"/source/{V2026}?against=itaa1997%3A328-110%40C2015C00285"


def test_years_not_yet_asked_are_pending_and_an_abstention_shows_its_reading_list_quotes() -> None:
    parsed = AcrossYearsPlan.model_validate(plan())
    pending = table_view(parsed, [AcrossYearsYear.model_validate(year_2015())])
    assert (pending.asked, pending.total) == (1, 2)
    waiting = [r for r in pending.rows if isinstance(r, YearRow) and not r.asked]
    assert [r.income_year for r in waiting] == [2026] and waiting[0].cells[0].note == "being asked"
    assert not any(isinstance(r, DiffRow) for r in pending.rows)
    abstained = table_view(parsed, [AcrossYearsYear.model_validate(year_2026(answered=False))])
    row = next(r for r in abstained.rows if isinstance(r, YearRow) and r.asked)
    assert not row.answered and [q.role for q in row.cells[0].quotes] == ["reading list"]


def test_a_year_without_a_quote_says_whether_its_text_is_not_held() -> None:
    in_gap = plan(
        years=[
            {"income_year": 2020, "question": QUESTION, "original": False, "why": []},
            {"income_year": 2024, "question": QUESTION, "original": True, "why": []},
        ],
        original_year=2024,
    )
    nothing = outcome(False, audit_id=3, reading_list=[], scope={"income_year": 2020, "as_of": None,
                      "source": "parameter", "matched": "income_year=2020"})  # fmt: skip
    nothing_2024 = outcome(False, audit_id=4, reading_list=[], scope={"income_year": 2024, "as_of": None,
                           "source": "parameter", "matched": "income_year=2024"})  # fmt: skip
    years = [
        AcrossYearsYear(income_year=2020, question=QUESTION, outcome=ResearchOutcome.model_validate(nothing)),
        AcrossYearsYear(income_year=2024, question=QUESTION, outcome=ResearchOutcome.model_validate(nothing_2024)),
    ]
    rows = [r for r in table_view(AcrossYearsPlan.model_validate(in_gap), years).rows if isinstance(r, YearRow)]
    assert [r.cells[0].note for r in rows] == ["text not held this year", "text not held for part of this year"]


# -- the link ----------------------------------------------------------------------------------


def test_the_link_carries_the_question_the_period_and_the_sources_cited() -> None:
    answered = ResearchOutcome.model_validate(outcome())
    href = across_years_href(answered, f"  {QUESTION} ")
    assert href is not None and href.startswith("/across-years?")
    query = parse_qs(urlsplit(href).query)
    assert query == {"question": [QUESTION], "income_year": ["2015"], "source": [V2015]}
    day = ResearchOutcome.model_validate(
        outcome(scope={"income_year": 2015, "as_of": "2015-01-01", "source": "parameter", "matched": "as_of"})
    )
    assert parse_qs(urlsplit(across_years_href(day, QUESTION) or "").query)["as_of"] == ["2015-01-01"]
    # An abstention follows its reading list; with none (or a conflict, or known time) there is no link.
    assert across_years_href(ResearchOutcome.model_validate(outcome(False)), QUESTION) is not None
    assert across_years_href(ResearchOutcome.model_validate(outcome(False, reading_list=[])), QUESTION) is None
    known = outcome(scope={"income_year": 2016, "as_of": None, "as_known_on": "2015-10-01", "source": "parameter",
                           "matched": "as_known_on=2015-10-01"})  # fmt: skip
    assert across_years_href(ResearchOutcome.model_validate(known), QUESTION) is None
    assert across_years_href(answered, "  ") is None


def test_every_answer_and_abstention_with_a_reading_list_offers_the_link(make_web: Any) -> None:
    for answered in (True, False):
        web, _ = make_web(result=outcome(answered))
        for mode in ("research", "chat"):
            reply = web.post("/stream", json={"question": QUESTION, "income_year": 2015, "mode": mode})
            html = reply.text.replace("\\u0026", "&")
            assert ">How has this changed?</a>" in html, (answered, mode)
            assert "/across-years?question=What+aggregated+turnover" in html
    web, _ = make_web(result=outcome(False, reading_list=[]))
    assert "How has this changed?" not in web.post("/stream", json={"question": QUESTION, "income_year": 2015}).text


# -- the page and the relay --------------------------------------------------------------------


def test_the_page_is_a_shell_the_script_fills_and_refreshes_to_the_whole_table_without_it() -> None:
    stub = across_stub()
    web = web_client(stub)
    page = web.get("/across-years", params={"question": QUESTION, "income_year": 2026, "source": [V2026]})
    assert page.status_code == 200
    html = page.text
    assert '<script src="/static/across_years.js" defer></script>' in html
    body = json.loads(re.search(r'data-body="([^"]+)"', html).group(1).replace("&#34;", '"'))  # type: ignore[union-attr]
    assert body == {"question": QUESTION, "income_year": 2026, "source_ids": [V2026]}
    assert re.search(r'<noscript><meta http-equiv="refresh" content="0; url=/across-years\?[^"]*full=1">', html)
    assert stub.state.requests == []  # nothing is asked until the script (or the refresh) asks


def test_without_javascript_every_year_is_asked_and_the_whole_table_rendered() -> None:
    stub = across_stub()
    web = web_client(stub)
    page = web.get("/across-years", params={"question": QUESTION, "income_year": 2026, "source": [V2026], "full": 1})
    assert page.status_code == 200, page.text
    assert stub.state.requests == [{"question": QUESTION, "income_year": 2026, "source_ids": [V2026]}]
    html = page.text
    assert 'data-finished="done"' in html and "/static/across_years.js" not in html
    assert QUOTE in html and QUOTE_2026 in html and "Text not held" in html
    assert "1 July 2016 to 31 December 2023" in html and "income years 2017 to 2024" in html
    assert "<del>$2</del>" in html and "<ins>$10</ins>" in html
    assert f'href="/source/{V2015}?audit=7&amp;start={START}&amp;end={START + len(QUOTE)}#quote"' in html
    assert f'href="/source/{V2026}?audit=8&amp;start={START_2026}&amp;end={START_2026 + len(QUOTE_2026)}#quote"' in html
    assert html.index('data-year="2015"') < html.index('data-held="not_held"') < html.index('data-year="2026"')
    assert "Asked for 2 income years" in html


def test_the_relay_sends_the_table_again_with_each_event_and_ends_with_done() -> None:
    stub = across_stub()
    events = _browser_events(web_client(stub), {"question": QUESTION, "income_year": 2026})
    assert [name for name, _ in events] == ["plan", "year", "year", "done"]
    assert [(d["asked"], d["total"]) for _, d in events] == [(0, 2), (1, 2), (2, 2), (2, 2)]
    assert "being asked" in events[0][1]["html"] and QUOTE_2026 in events[-1][1]["html"]
    assert stub.state.requests == [{"question": QUESTION, "income_year": 2026}]


def test_research_failing_is_an_error_event_and_a_page_naming_it() -> None:
    error = ("error", {"status": 503, "error": "dependency_unavailable", "message": "verifier unavailable: down"})
    events = _browser_events(web_client(across_stub([("plan", plan()), error])), {"question": QUESTION})
    assert [name for name, _ in events] == ["plan", "error"]
    assert "verifier unavailable: down" in events[-1][1]["html"] and "before the error" in events[-1][1]["html"]
    refused = _browser_events(web_client(across_stub(refuse=422)), {"question": QUESTION})
    assert [name for name, _ in refused] == ["error"] and "no source" in refused[0][1]["html"]
    broken = _browser_events(web_client(across_stub([("plan", {"years": "all"})])), {"question": QUESTION})
    assert [name for name, _ in broken] == ["error"] and "could not be shown" in broken[0][1]["html"]
    cut = _browser_events(web_client(across_stub([("plan", plan())])), {"question": QUESTION})
    assert [name for name, _ in cut] == ["plan", "error"] and "ended before every year" in cut[-1][1]["html"]
    page = web_client(across_stub(refuse=422)).get("/across-years", params={"question": QUESTION, "full": 1})
    assert page.status_code == 422 and "no source" in page.text
    down = web_client(across_stub(refuse=503)).get("/across-years", params={"question": QUESTION, "full": 1})
    assert down.status_code == 503 and 'role="alert"' in down.text and "cannot answer now" in down.text


def test_a_page_without_a_question_is_refused() -> None:
    reply = web_client(across_stub()).get("/across-years", params={"question": "  "})
    assert reply.status_code == 422 and "question" in reply.text


def test_quotes_every_year_shares_are_folded_and_left_out_of_the_diff() -> None:
    shared = "(1) You are a small business entity if"  # both texts open with it
    early, late = year_2015(), year_2026()
    early["outcome"]["claims"][0]["citations"].append(citation(V2015, shared, 0))
    late["outcome"]["claims"][0]["citations"].append(citation(V2026, shared, 0, valid_from="2017-07-01", valid_to=None))
    years = [AcrossYearsYear.model_validate(early), AcrossYearsYear.model_validate(late)]
    table = table_view(AcrossYearsPlan.model_validate(plan()), years)
    for row in (r for r in table.rows if isinstance(r, YearRow)):
        (cell,) = row.cells
        assert [q.quote for q in cell.folded] == [shared] and cell.folded_same
        assert shared not in [q.quote for q in cell.shown] and len(cell.quotes) == 2
    (diff,) = (r for r in table.rows if isinstance(r, DiffRow))
    assert diff.cells[0] is not None and shared not in "".join(s.text for s in diff.cells[0].segments)


def test_a_cell_shows_at_most_four_differing_quotes_and_folds_the_rest() -> None:
    early = year_2015()
    early["outcome"]["claims"][0]["citations"] = [citation(V2015, TEXT_2015[k:], k) for k in range(0, 30, 5)]
    years = [AcrossYearsYear.model_validate(early), AcrossYearsYear.model_validate(year_2026())]
    row = next(r for r in table_view(AcrossYearsPlan.model_validate(plan()), years).rows if isinstance(r, YearRow))
    (cell,) = row.cells
    assert [q.start for q in cell.shown] == [0, 5, 10, 15] and [q.start for q in cell.folded] == [20, 25]
    assert not cell.folded_same
