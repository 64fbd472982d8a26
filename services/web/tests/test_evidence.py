"""Evidence grouped by provision version: the pure grouping (``asat_web.evidence``), the rail's
numbering by version, and the pages over the stub research service (each version once, its quotes
beneath in document order, "Show whole section" and its ``/source/{id}/text`` fragment)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from asat_web.evidence import group_by_provision, outcome_evidence, reading_by_provision
from asat_web.outcome import CitationView, ReadingView, parse_outcome
from asat_web.settings import WebSettings
from asat_web.sources_rail import number_sources
from asat_web.sse import SseParser

from .signed_in import owner_client
from .stub_research import QUOTE, START, TEXT_2015, TEXT_2026, V2015, V2026, citation, outcome

Make = Callable[..., tuple[TestClient, FastAPI]]
ASK = {"question": "What aggregated turnover made a business a small business entity?", "income_year": 2015}

# Three quotes of the 2015 text (cited out of document order) and two of the 2026 conversion.
ENTITY = "You are a small business entity"
FIRST = citation(V2015, quote="(1)", start=0)
SECOND = citation(V2015, quote=ENTITY, start=TEXT_2015.index(ENTITY))
THIRD = citation(V2015)  # QUOTE, at START
IN_2026 = {"authorised": False, "valid_from": "2017-07-01", "valid_to": None}
LATER_2026 = citation(V2026, quote="$10 million", start=TEXT_2026.index("$10 million"), **IN_2026)
EARLY_2026 = citation(V2026, quote="(1)", start=0, **IN_2026)


def view(raw: dict[str, Any]) -> CitationView:
    """One citation of the stub's JSON as the page's view."""
    body = outcome()
    body["claims"][0]["citations"] = [raw]
    return parse_outcome(body).claims[0].citations[0]


def answer(*citations: dict[str, Any], **extra: Any) -> dict[str, Any]:
    body = outcome(**extra)
    body["claims"][0]["citations"] = list(citations)
    return body


def test_each_version_is_one_group_in_first_cited_order_with_its_quotes_in_document_order() -> None:
    groups = group_by_provision([view(c) for c in (THIRD, LATER_2026, FIRST, EARLY_2026, SECOND)])
    assert [g.source_id for g in groups] == [V2015, V2026]
    assert [q.start for q in groups[0].quotes] == [0, TEXT_2015.index(ENTITY), START]
    assert [q.quote for q in groups[1].quotes] == ["(1)", "$10 million"]
    first = groups[0]
    assert (first.title, first.act, first.provision) == (
        "ITAA 1997 s 328-110 Meaning of small business entity",
        "itaa1997",
        "328-110",
    )
    assert (first.register_ids, first.valid_from, first.valid_to) == (("C2015C00285",), "2014-07-01", "2016-07-01")
    assert first.authorised is True and groups[1].authorised is False


def test_a_range_quoted_twice_is_shown_once_and_any_conversion_marks_the_version() -> None:
    groups = group_by_provision([view(THIRD), view(FIRST), view(THIRD), view(citation(V2015, authorised=False))])
    assert len(groups) == 1 and [q.start for q in groups[0].quotes] == [0, START]
    assert groups[0].authorised is False
    assert group_by_provision([]) == ()


def test_the_reading_list_merges_entries_of_one_version_and_keeps_one_without_quotes() -> None:
    first = view(FIRST)
    third = view(THIRD)
    reading = [
        ReadingView(V2015, "s 328-110", ("C2015C00285",), "2014-07-01", "2016-07-01", (third,)),
        ReadingView(V2026, "s 328-110 (2026)", ("C2026C00122",), "2017-07-01", None, ()),
        ReadingView(V2015, "s 328-110", ("C2015C00285",), "2014-07-01", "2016-07-01", (first, third)),
    ]
    groups = reading_by_provision(reading)
    assert [g.source_id for g in groups] == [V2015, V2026]
    assert [q.start for q in groups[0].quotes] == [0, START] and groups[0].authorised is True
    assert groups[0].act == "itaa1997"  # from its quotes: the reading entry does not say
    assert groups[1].quotes == () and groups[1].authorised is None and groups[1].valid_to is None


def test_an_outcome_groups_each_claim_and_the_reading_list() -> None:
    body = answer(THIRD, FIRST, EARLY_2026)
    body["claims"].append({"id": "c2", "text": "Also.", "citations": [SECOND], "groundedness": 1.0})
    evidence = outcome_evidence(parse_outcome(body))
    assert [[g.source_id for g in claim] for claim in evidence.claims] == [[V2015, V2026], [V2015]]
    assert [q.start for q in evidence.claims[0][0].quotes] == [0, START]
    assert [g.source_id for g in evidence.reading] == [V2015]


def test_the_rail_numbers_versions_and_a_claim_refers_to_the_versions_it_quotes() -> None:
    body = answer(THIRD, FIRST)
    body["claims"].append({"id": "c2", "text": "Also.", "citations": [LATER_2026, SECOND], "groundedness": 1.0})
    numbered = number_sources(parse_outcome(body), first=4)
    assert [(e.number, e.provision.source_id) for e in numbered.entries] == [(4, V2015), (5, V2026)]
    assert [q.start for q in numbered.entries[0].provision.quotes] == [0, TEXT_2015.index(ENTITY), START]
    assert numbered.claim_numbers == ((4,), (5, 4))
    assert numbered.next_number == 6


@given(st.permutations([FIRST, SECOND, THIRD, EARLY_2026, LATER_2026]))
def test_grouping_any_order_gives_one_group_per_version_and_sorted_quotes(order: list[dict[str, Any]]) -> None:
    groups = group_by_provision([view(c) for c in order])
    assert sorted(g.source_id for g in groups) == sorted({V2015, V2026})
    for group in groups:
        starts = [q.start for q in group.quotes]
        assert starts == sorted(starts) and {q.source_id for q in group.quotes} == {group.source_id}
    assert sum(len(g.quotes) for g in groups) == 5


# The pages, over the stub research service.


def _result(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    reply = client.post("/stream", json=body)
    parser = SseParser()
    events = parser.feed(reply.text) + parser.close()
    assert events[-1].event == "result", reply.text
    data: dict[str, Any] = events[-1].json()
    return data


def _sections(html: str) -> list[str]:
    return re.findall(r'<section class="provision".*?</section>', html, re.DOTALL)


def test_the_answer_shows_each_version_once_under_its_claim_with_its_quotes_in_order(make_web: Make) -> None:
    web, _ = make_web(result=answer(THIRD, LATER_2026, FIRST, EARLY_2026, SECOND))
    html = _result(web, ASK)["html"]
    sections = _sections(html)
    assert re.findall(r'<section class="provision" data-source-id="([^"]+)"', html) == [V2015, V2026]
    assert html.count('class="cite-register"') == 2 and html.count('class="provision-title"') == 2
    assert html.count("in force from 2014-07-01 to 2016-06-30") == 1
    assert html.count("third-party conversion, not an authorised version") == 1  # the 2026 version, once
    starts = [int(s) for s in re.findall(r'data-start="(\d+)"', sections[0])]
    assert starts == [0, TEXT_2015.index(ENTITY), START]
    for cited in (FIRST, SECOND, THIRD):  # each quote still links to its exact range in its audit row
        href = f"/source/{V2015}?audit=1&amp;start={cited['start']}&amp;end={cited['end']}#quote"
        assert href in sections[0]
    assert "<mark>aggregated</mark> <mark>turnover</mark>" in sections[0]
    assert "You are a <mark>small</mark> <mark>business</mark> <mark>entity</mark>" in sections[0]
    summary = re.search(r"<summary>.*?</summary>", sections[0], re.DOTALL)
    assert summary and "Show whole section" in summary.group() and "<a " not in summary.group()  # nested-interactive
    assert f'<a href="/source/{V2015}">' in sections[0]  # the title opens the version on its own page
    assert f'data-text-href="/source/{V2015}/text"' in sections[0]


def test_the_abstention_reading_list_has_the_same_layout(make_web: Make) -> None:
    body = outcome(answered=False)
    body["reading_list"][0]["quotes"] = [THIRD, FIRST]
    web, _ = make_web(result=body)
    html = _result(web, ASK)["html"]
    (section,) = _sections(html)
    assert section.count('class="cite-register"') == 1 and section.count("in force from") == 1
    assert [int(s) for s in re.findall(r'data-start="(\d+)"', section)] == [0, START]
    assert section.count("#quote") == 2 and "Show whole section" in section


def test_the_chat_rail_has_one_entry_per_version_and_claims_cite_its_number(make_web: Make) -> None:
    web, _ = make_web(result=answer(THIRD, FIRST, LATER_2026))
    data = _result(web, ASK | {"mode": "chat", "first_source": 2})
    rail = data["rail"]
    assert re.findall(r'<li id="source-(\d+)"', rail) == ["2", "3"]
    assert rail.count(f'data-source-id="{V2015}"') == 1 and rail.count("#quote") == 3
    assert re.findall(r'href="#source-(\d+)"', data["html"]) == ["2", "3"] and data["next_source"] == 4


def test_show_whole_section_fetches_the_version_text_as_a_fragment(make_web: Make) -> None:
    web, _ = make_web()
    reply = web.get(f"/source/{V2015}/text")
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/html")
    assert TEXT_2015 in reply.text and "<html" not in reply.text and 'class="provision-text whole-text"' in reply.text
    assert "default-src 'none'" in reply.headers["content-security-policy"]
    unknown = web.get("/source/itaa1997:1-1@X/text")
    assert unknown.status_code == 404 and 'role="alert"' in unknown.text and "<html" not in unknown.text
    assert web.get(f"/source/{V2015}").text.startswith("<!doctype html>")  # the viewer is not taken over
    for page in ("/research", "/chat"):
        assert '<script src="/static/evidence.js" defer></script>' in web.get(page).text
    assert "whole-section" in web.get("/static/evidence.js").text


def test_show_whole_section_says_when_research_is_down() -> None:
    dead = httpx.AsyncClient(base_url="http://127.0.0.1:9", timeout=0.5)
    web = owner_client(dead, WebSettings(research_url="http://127.0.0.1:9"))
    reply = web.get(f"/source/{V2015}/text")
    assert reply.status_code == 503 and "python -m asat_research serve" in reply.text and "<html" not in reply.text


def test_the_form_without_javascript_shows_the_grouped_evidence(make_web: Make) -> None:
    web, _ = make_web(result=answer(THIRD, FIRST))
    reply = web.post("/research", data={"question": "Turnover?", "period": "income_year", "income_year": "2015"})
    assert reply.status_code == 200 and len(_sections(reply.text)) == 1
    assert "your aggregated <mark>turnover</mark> is less than $2 million" in reply.text
    assert QUOTE not in reply.text  # marked, so not verbatim in the markup
