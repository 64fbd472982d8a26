"""The Documents pages over a stub extraction service (FastAPI TestClient; no browser)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_web.app import create_app
from asat_web.documents_view import parse_change
from asat_web.settings import WebSettings

from .stub_extraction import PNG, TOTAL_LINE, create_stub
from .stub_research import create_stub as create_research_stub

EXTRACTION = "http://extraction.test"
RESEARCH = "http://research.test"


def web_over(transport: httpx.AsyncBaseTransport) -> TestClient:
    research = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_research_stub()), base_url=RESEARCH)
    extraction = httpx.AsyncClient(transport=transport, base_url=EXTRACTION)
    settings = WebSettings(research_url=RESEARCH, extraction_url=EXTRACTION)
    return TestClient(create_app(settings, client=research, extraction_client=extraction))


def make(**stub_args: Any) -> tuple[TestClient, FastAPI]:
    stub = create_stub(**stub_args)
    return web_over(httpx.ASGITransport(app=stub)), stub


def upload(web: TestClient, *files: tuple[str, bytes]) -> httpx.Response:
    return web.post("/documents", files=[("files", (name, data, "application/pdf")) for name, data in files])


def document_ids(html: str) -> list[str]:
    return list(dict.fromkeys(re.findall(r'href="/documents/([0-9a-f-]{36})"', html)))


def test_documents_page_has_the_drop_zone_a_multiple_file_input_and_the_nav_link() -> None:
    web, _ = make()
    page = web.get("/documents")
    assert page.status_code == 200
    html = page.text
    assert 'id="drop-zone"' in html and re.search(r'<input type="file" id="files" name="files" multiple', html)
    assert 'enctype="multipart/form-data"' in html and '<label for="files">' in html
    assert '<a href="/documents" aria-current="page">Documents</a>' in html
    assert '<script src="/static/documents.js" defer></script>' in html and "No documents yet." in html
    assert web.get("/static/documents.js").status_code == 200
    assert '<a href="/documents">Documents</a>' in web.get("/research").text


def test_upload_forwards_every_file_and_shows_each_result_then_lists_them() -> None:
    web, stub = make()
    reply = upload(web, ("a.pdf", b"%PDF-a"), ("b.pdf", b"%PDF-b"), ("bad.pdf", b"x"))
    assert reply.status_code == 200, reply.text
    assert [name for name, _ in stub.state.uploads[0]] == ["a.pdf", "b.pdf", "bad.pdf"]
    html = reply.text
    assert html.count('data-status="created"') == 2 and html.count('data-status="error"') == 1
    assert "(corrupt): bad.pdf: the PDF cannot be parsed" in html
    rows = web.get("/documents").text
    assert len(document_ids(rows)) == 2
    assert rows.count("Harbourside Plumbing Pty Ltd") == 2 and "37.50" in rows and "2024-03-19" in rows
    assert 'status-pending">pending' in rows and '<td data-label="Warnings">1</td>' in rows
    again = upload(web, ("copy.pdf", b"%PDF-a"))
    assert 'data-status="existing"' in again.text and "already uploaded" in again.text


def test_an_upload_with_no_file_or_nothing_readable_is_a_422_naming_the_cause() -> None:
    web, stub = make()
    empty = web.post("/documents", files=[("files", ("", b"", "application/octet-stream"))])
    assert empty.status_code == 422 and "Choose at least one file" in empty.text and stub.state.uploads == []
    bad = upload(web, ("bad1.pdf", b"1"), ("bad2.pdf", b"2"))
    assert bad.status_code == 422 and "Nothing was uploaded: no document could be read" in bad.text


def test_review_shows_fields_with_confidence_and_links_to_the_line_each_was_read_from() -> None:
    web, _ = make()
    (doc_id,) = document_ids(upload(web, ("a.pdf", b"%PDF-a")).text)
    page = web.get(f"/documents/{doc_id}")
    assert page.status_code == 200
    html = page.text
    total = re.search(r'<tr id="field-total_amount".*?</tr>', html, re.S)
    assert total is not None and "37.50" in total.group(0) and "0.98" in total.group(0)
    link = re.search(r'<a class="source-link" href="#(line-\d+)" data-line="\1"', total.group(0))
    assert link is not None
    line = re.search(rf'<li class="source-line" id="{link.group(1)}">(.*?)</li>', html, re.S)
    assert line is not None and TOTAL_LINE.replace("(", "(") in line.group(1) and "Total" in line.group(1)
    # each line is listed once although several fields were read from it
    assert html.count("ABN 51 824 753 556</code>") == 1
    assert "no currency printed" in html and "a tax invoice of $1,000 or more names the buyer" in html
    assert "<code>buyer_missing</code>" in html and "Download the original (application/pdf)" in html
    assert "<img" not in html  # a PDF is not an image: its lines and a download link


def test_an_image_document_is_shown_beside_its_fields_through_the_web_origin() -> None:
    web, _ = make()
    (doc_id,) = document_ids(upload(web, ("scan.png", PNG)).text)
    html = web.get(f"/documents/{doc_id}").text
    assert f'<img class="original-image" src="/documents/{doc_id}/file"' in html
    image = web.get(f"/documents/{doc_id}/file")
    assert image.status_code == 200 and image.content == PNG and image.headers["content-type"] == "image/png"
    assert image.headers["content-disposition"].startswith("inline")


def test_a_correction_is_sent_as_a_patch_and_shown_with_who_when_and_the_original() -> None:
    web, stub = make()
    (doc_id,) = document_ids(upload(web, ("a.pdf", b"%PDF-a")).text)
    form = {"field": "total_amount", "value": "$1,137.50", "who": "Ada Reviewer", "note": "smudged"}
    reply = web.post(f"/documents/{doc_id}/corrections", data=form, follow_redirects=False)
    assert (
        reply.status_code == 303 and reply.headers["location"] == f"/documents/{doc_id}?saved=total_amount#corrections"
    )
    assert stub.state.patches == [{"who": "Ada Reviewer", "note": "smudged", "changes": {"total_amount": "1137.50"}}]
    html = web.get(reply.headers["location"]).text
    assert "Correction to Total saved." in html and 'id="review-status">corrected' in html
    assert re.search(r'<span class="who">Ada Reviewer</span>, <time datetime="20\d\d-', html)
    assert "Total 37.50 → 1137.50" in html and "(smudged)" in html and "(extracted: 37.50)" in html
    confirmed = web.post(f"/documents/{doc_id}/corrections", data={"who": "Ada", "review_status": "confirmed"})
    assert confirmed.status_code == 200 and "Marked confirmed." in confirmed.text
    assert stub.state.patches[-1] == {"who": "Ada", "note": None, "review_status": "confirmed"}


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"field": "total_amount", "value": "1.00", "who": " "}, "Type your name as the reviewer"),
        ({"field": "abn_valid", "value": "maybe", "who": "Ada"}, "type yes or no"),
        ({"field": "line_items", "value": "x", "who": "Ada"}, "cannot be corrected here"),
        ({"field": "total_amount", "value": "oops", "who": "Ada"}, "Not saved: the request is not valid"),
    ],
)
def test_a_refused_correction_keeps_the_form_and_says_why(form: dict[str, str], words: str) -> None:
    web, _ = make()
    (doc_id,) = document_ids(upload(web, ("a.pdf", b"%PDF-a")).text)
    reply = web.post(f"/documents/{doc_id}/corrections", data=form)
    assert reply.status_code == 422 and words in reply.text
    assert f'value="{form["value"]}"' in reply.text


def test_parse_change_reads_the_form_text_as_the_api_wants() -> None:
    assert parse_change("kind", "Credit note") == "credit_note"
    assert parse_change("supplier_abn", "51 824 753 556") == "51824753556"
    assert parse_change("gst_registered_supplier", "No") is False
    assert parse_change("currency", "aud") == "AUD"
    assert parse_change("invoice_number", "  ") is None


def test_an_unknown_document_is_a_404_page() -> None:
    web, _ = make()
    page = web.get("/documents/00000000-0000-0000-0000-000000000000")
    assert page.status_code == 404 and "Document not found" in page.text


def test_a_malformed_reply_is_a_502_page_naming_the_extraction_service() -> None:
    web, _ = make(malformed=True)
    for path in ("/documents", "/documents/00000000-0000-0000-0000-000000000000"):
        page = web.get(path)
        assert page.status_code == 502, path
        assert "Extraction service reply unusable" in page.text and "the extraction service sent a reply" in page.text


def test_extraction_down_is_a_503_page_naming_it() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    web = web_over(httpx.MockTransport(refuse))
    for reply in (
        web.get("/documents"),
        upload(web, ("a.pdf", b"%PDF")),
        web.get(f"/documents/{'0' * 8}-0000-0000-0000-{'0' * 12}"),
    ):
        assert reply.status_code == 503
        assert (
            "Extraction service unavailable" in reply.text and f"the extraction service at {EXTRACTION}" in reply.text
        )
        assert "ASAT_EXTRACTION_URL" in reply.text


def test_an_unexpected_error_status_is_a_502() -> None:
    web = web_over(httpx.MockTransport(lambda request: httpx.Response(500, json={"message": "boom"})))
    page = web.get("/documents")
    assert page.status_code == 502 and "the extraction service answered 500" in page.text and "boom" in page.text
