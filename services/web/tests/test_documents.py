"""The Documents pages over a stub extraction service (FastAPI TestClient; no browser)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_web.documents_view import parse_change, review_view
from asat_web.extraction_client import DocumentDetail
from asat_web.settings import WebSettings

from .signed_in import RESEARCH, owner_client
from .stub_extraction import PDF_PAGES, PNG, TOTAL_LINE, create_stub
from .stub_research import create_stub as create_research_stub

EXTRACTION = "http://extraction.test"


def web_over(transport: httpx.AsyncBaseTransport) -> TestClient:
    """Signed in as the owner of a practice (id 1)."""
    extraction = httpx.AsyncClient(transport=transport, base_url=EXTRACTION)
    settings = WebSettings(research_url=RESEARCH, extraction_url=EXTRACTION)
    return owner_client(create_research_stub(), settings, extraction_client=extraction)


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
    line = re.search(rf'<li class="source-line" id="{link.group(1)}" data-page="1">(.*?)</li>', html, re.S)
    assert line is not None and TOTAL_LINE.replace("(", "(") in line.group(1) and "Total" in line.group(1)
    # each line is listed once although several fields were read from it
    assert html.count("ABN 51 824 753 556</code>") == 1
    assert "no currency printed" in html and "a tax invoice of $1,000 or more names the buyer" in html
    assert "<code>buyer_missing</code>" in html and "Download the original (application/pdf)" in html
    assert "original-image" not in html  # a PDF is shown as its pages, not as the file itself


def test_a_pdf_is_shown_as_one_picture_per_page_and_each_line_names_its_page() -> None:
    web, _ = make()
    (doc_id,) = document_ids(upload(web, ("a.pdf", b"%PDF-a")).text)
    html = web.get(f"/documents/{doc_id}").text
    figures = re.findall(r'<figure class="page" id="page-(\d+)" data-page="\1">(.*?)</figure>', html, re.S)
    assert [number for number, _ in figures] == [str(n) for n in range(1, PDF_PAGES + 1)]
    for number, figure in figures:
        assert f"Page {number} of {PDF_PAGES}" in figure
        assert re.search(
            rf'<img class="page-image" src="/documents/{doc_id}/pages/{number}" '
            rf'alt="Page {number} of {PDF_PAGES} of the uploaded document a.pdf"',
            figure,
        )
    assert 'loading="lazy"' not in figures[0][1] and 'loading="lazy"' in figures[1][1]
    total = re.search(r'<tr id="field-total_amount".*?data-line="(line-\d+)"', html, re.S)
    assert total is not None and f'<li class="source-line" id="{total.group(1)}" data-page="1">' in html


def test_a_page_is_relayed_as_png_through_the_web_origin() -> None:
    web, _ = make()
    (doc_id,) = document_ids(upload(web, ("a.pdf", b"%PDF-a")).text)
    image = web.get(f"/documents/{doc_id}/pages/{PDF_PAGES}")
    assert image.status_code == 200 and image.content == PNG and image.headers["content-type"] == "image/png"
    assert image.headers["content-disposition"].startswith("inline")
    beyond = web.get(f"/documents/{doc_id}/pages/{PDF_PAGES + 1}")
    assert beyond.status_code == 404 and "Document not found" in beyond.text
    assert web.get(f"/documents/{doc_id}/pages/0").status_code == 422
    unknown = web.get("/documents/00000000-0000-0000-0000-000000000000/pages/1")
    assert unknown.status_code == 404


def test_a_text_document_has_no_pictures_and_its_pages_route_is_refused_with_the_reason() -> None:
    web, _ = make()
    (doc_id,) = document_ids(upload(web, ("receipt.txt", b"Total $22.00")).text)
    html = web.get(f"/documents/{doc_id}").text
    assert "<img" not in html and "Download the original (text/plain)" in html
    refused = web.get(f"/documents/{doc_id}/pages/1")
    assert refused.status_code == 415 and "a text/plain document has no pages to show" in refused.text


def test_an_image_document_is_shown_beside_its_fields_through_the_web_origin() -> None:
    web, _ = make()
    (doc_id,) = document_ids(upload(web, ("scan.png", PNG)).text)
    html = web.get(f"/documents/{doc_id}").text
    assert f'<img class="page-image" src="/documents/{doc_id}/pages/1" alt="Page 1 of 1 of' in html
    assert "Open the image" in html and html.count("<img") == 1
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
    picture = web.get("/documents/00000000-0000-0000-0000-000000000000/pages/1")
    assert picture.status_code == 502 and "not a PNG picture" in picture.text


def test_without_a_page_count_an_image_is_shown_from_its_file_as_before() -> None:
    web, stub = make()
    (doc_id,) = document_ids(upload(web, ("scan.png", PNG)).text)
    detail = DocumentDetail.model_validate(web_detail(stub, doc_id) | {"page_count": None})
    view = review_view(detail)
    assert view.pages == [] and view.is_image
    counted = review_view(DocumentDetail.model_validate(web_detail(stub, doc_id) | {"page_count": 3}))
    assert [(p.id, p.src) for p in counted.pages] == [
        (f"page-{n}", f"/documents/{doc_id}/pages/{n}") for n in (1, 2, 3)
    ]


def web_detail(stub: FastAPI, doc_id: str) -> dict[str, Any]:
    transaction = next(t for t in stub.state.transactions.values() if t["document_id"] == doc_id)
    return {"document": stub.state.documents[doc_id], "transaction": transaction}


def test_extraction_down_is_a_503_page_naming_it() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    web = web_over(httpx.MockTransport(refuse))
    for reply in (
        web.get("/documents"),
        upload(web, ("a.pdf", b"%PDF")),
        web.get(f"/documents/{'0' * 8}-0000-0000-0000-{'0' * 12}"),
        web.get(f"/documents/{'0' * 8}-0000-0000-0000-{'0' * 12}/pages/1"),
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
