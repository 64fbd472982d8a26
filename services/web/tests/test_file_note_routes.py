"""``/audit/{id}/file-note.pdf`` and ``.md`` over the stub research service (no browser).

Rows 3 (an answer) and 4 (an abstention) of the stub record what was shown; rows 1 and 2 predate it.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_web.file_note_markdown import recover_blockquotes
from asat_web.pdf_text import recover_verbatim
from asat_web.settings import WebSettings

from . import stub_research
from .pdf_pages import extracted_text
from .signed_in import owner_client
from .stub_research import ATTRIBUTION, QUOTE

Make = Callable[..., tuple[TestClient, FastAPI]]
QUESTION = "What aggregated turnover made a business a small business entity?"


def test_the_pdf_is_made_from_the_audit_row_and_downloads(make_web: Make) -> None:
    web, _ = make_web()
    reply = web.get("/audit/3/file-note.pdf")
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"] == "application/pdf"
    assert reply.headers["content-disposition"] == 'attachment; filename="asat-file-note-3.pdf"'
    text = extracted_text(reply.content)
    assert recover_verbatim(text) == [QUESTION, QUOTE]
    flat = " ".join(text.split())
    for part in ("Audit row 3", "a" * 64, "0" * 64, "Decision Answer", "Turnover under $2 million.", ATTRIBUTION):
        assert part in flat, part


def test_the_markdown_of_an_abstention_has_its_reasons_and_reading_list(make_web: Make) -> None:
    web, _ = make_web()
    reply = web.get("/audit/4/file-note.md")
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"] == "text/markdown; charset=utf-8"
    assert reply.headers["content-disposition"] == 'attachment; filename="asat-file-note-4.md"'
    markdown = reply.text
    assert recover_blockquotes(markdown) == [QUESTION, QUOTE]
    assert "## Why there is no answer\n\n- the best passage scored 0.120 on the cosine scale" in markdown
    assert "## Reading list" in markdown and f"- Hash: {'a' * 64}" in markdown


@pytest.mark.parametrize("kind", ["pdf", "md"])
def test_a_row_that_predates_file_notes_is_a_clear_refusal_not_a_partial_note(make_web: Make, kind: str) -> None:
    web, _ = make_web()
    reply = web.get(f"/audit/1/file-note.{kind}")
    assert reply.status_code == 422
    assert reply.headers["content-type"].startswith("text/html")
    assert "audit row 1 predates file notes" in reply.text and "Ask the question again" in reply.text
    assert "content-disposition" not in reply.headers


def test_an_unknown_row_is_404_and_research_down_is_503(make_web: Make) -> None:
    web, _ = make_web()
    assert web.get("/audit/7/file-note.pdf").status_code == 404
    down = httpx.AsyncClient(transport=httpx.MockTransport(_refuse), base_url="http://research.test")
    offline = owner_client(down, WebSettings(research_url="http://research.test"))
    reply = offline.get("/audit/3/file-note.md")
    assert reply.status_code == 503 and "cannot be reached" in reply.text


def test_a_row_that_disagrees_with_what_it_shows_is_a_502(make_web: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    row = stub_research.shown_row(3, answered=True)
    row["record"]["decision"] = "abstain_low_relevance"
    row["record"]["citations"] = []
    monkeypatch.setitem(stub_research.SHOWN_ROWS, 3, row)
    web, _ = make_web()
    reply = web.get("/audit/3/file-note.pdf")
    assert reply.status_code == 502 and "disagrees with itself" in reply.text


def test_a_character_the_pdf_cannot_keep_points_to_the_markdown(
    make_web: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = stub_research.shown_row(3, answered=True)
    row["record"]["question"] = "Turnover \U0001f4b0 threshold?"
    monkeypatch.setitem(stub_research.SHOWN_ROWS, 3, row)
    web, _ = make_web()
    reply = web.get("/audit/3/file-note.pdf")
    assert reply.status_code == 422 and "U+1F4B0" in reply.text and "/audit/3/file-note.md" in reply.text
    assert recover_blockquotes(web.get("/audit/3/file-note.md").text)[0] == "Turnover \U0001f4b0 threshold?"


def test_the_answer_footer_and_the_audit_page_link_the_file_note(make_web: Make) -> None:
    web, _ = make_web()
    reply = web.post("/research", data={"question": QUESTION, "period": "income_year", "income_year": "2015"})
    assert 'href="/audit/1/file-note.pdf">PDF</a> · <a href="/audit/1/file-note.md">Markdown</a>' in reply.text
    row = web.get("/audit/3").text
    assert 'href="/audit/3/file-note.pdf">PDF</a> · <a href="/audit/3/file-note.md">Markdown</a>' in row
    old = web.get("/audit/1").text
    assert "file-note.pdf" not in old and "predates file notes" in old


def _refuse(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)
