"""``GET /v1/documents/{id}/pages/{page}`` and ``page_count`` over the memory store (no database)."""

from __future__ import annotations

import io
from uuid import UUID

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
from fastapi.testclient import TestClient
from PIL import Image

from asat_corpus.contracts.errors import ErrorBody
from asat_extraction.api import PRACTICE_HEADER, build_app
from asat_extraction.pipeline import Pipeline
from asat_extraction.store.memory import MemoryStore
from asat_extraction.store.records import NewDocument

UNKNOWN = "00000000-0000-0000-0000-000000000000"
PRACTICE = 1


@pytest.fixture
def app(pipeline: Pipeline) -> tuple[TestClient, MemoryStore]:
    store = MemoryStore()
    return TestClient(build_app(pipeline, store, max_files=3), headers={PRACTICE_HEADER: str(PRACTICE)}), store


def stored(store: MemoryStore, name: str, media_type: str, content: bytes) -> UUID:
    """A document put straight into the store (as an upload would, without reading it)."""
    new = NewDocument(name, media_type, name, content, "deterministic", {}, {"warnings": []})
    document, _, _ = store.add(PRACTICE, new)
    return document.id


def tiff(frames: int) -> bytes:
    images = [Image.new("RGB", (120, 160), "white") for _ in range(frames)]
    out = io.BytesIO()
    images[0].save(out, format="TIFF", save_all=True, append_images=images[1:])
    return out.getvalue()


def two_page_pdf() -> bytes:
    document = pdfium.PdfDocument.new()
    document.new_page(595, 842)
    document.new_page(595, 842)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def png_size(content: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(content))
    assert image.format == "PNG"
    return image.size


def test_an_uploaded_pdf_has_its_page_count_and_its_page_as_png(
    app: tuple[TestClient, MemoryStore], invoice_pdf: bytes
) -> None:
    client, _ = app
    (result,) = client.post("/v1/documents", files=[("files", ("inv.pdf", invoice_pdf))]).json()["results"]
    doc_id = result["document"]["id"]
    assert client.get(f"/v1/documents/{doc_id}").json()["page_count"] == 1
    page = client.get(f"/v1/documents/{doc_id}/pages/1")
    assert page.status_code == 200 and page.headers["content-type"] == "image/png"
    assert page.headers["x-content-type-options"] == "nosniff"
    width, height = png_size(page.content)
    assert 900 < width < 1300 and height > width


def test_tiff_frames_and_pdf_pages_are_counted_and_each_served(app: tuple[TestClient, MemoryStore]) -> None:
    client, store = app
    scan = stored(store, "scan.tif", "image/tiff", tiff(3))
    pdf = stored(store, "two.pdf", "application/pdf", two_page_pdf())
    assert client.get(f"/v1/documents/{scan}").json()["page_count"] == 3
    assert client.get(f"/v1/documents/{pdf}").json()["page_count"] == 2
    assert png_size(client.get(f"/v1/documents/{scan}/pages/3").content) == (120, 160)
    assert client.get(f"/v1/documents/{pdf}/pages/2").status_code == 200


def test_a_page_out_of_range_or_an_unknown_document_is_a_404_error_body(app: tuple[TestClient, MemoryStore]) -> None:
    client, store = app
    scan = stored(store, "scan.tif", "image/tiff", tiff(2))
    beyond = client.get(f"/v1/documents/{scan}/pages/3")
    assert beyond.status_code == 404
    body = ErrorBody.model_validate(beyond.json())
    assert body.error == "not_found" and body.maximum == 2 and body.actual == 3
    assert "page 3 is out of range: the document has 2 pages" in body.message and "1 to 2" in body.message
    missing = client.get(f"/v1/documents/{UNKNOWN}/pages/1")
    assert missing.status_code == 404 and ErrorBody.model_validate(missing.json()).error == "not_found"


def test_page_zero_or_a_word_is_a_422(app: tuple[TestClient, MemoryStore]) -> None:
    client, store = app
    scan = stored(store, "scan.tif", "image/tiff", tiff(1))
    for page in ("0", "one"):
        reply = client.get(f"/v1/documents/{scan}/pages/{page}")
        assert reply.status_code == 422
        assert ErrorBody.model_validate(reply.json()).details[0].startswith("path.page: ")


@pytest.mark.parametrize(("name", "media_type"), [("r.txt", "text/plain"), ("m.eml", "message/rfc822")])
def test_text_and_email_have_no_pages_a_415_saying_so(
    app: tuple[TestClient, MemoryStore], name: str, media_type: str
) -> None:
    client, store = app
    doc = stored(store, name, media_type, b"Acme Pty Ltd\nTotal $22.00\n")
    assert client.get(f"/v1/documents/{doc}").json()["page_count"] is None
    reply = client.get(f"/v1/documents/{doc}/pages/1")
    assert reply.status_code == 415
    body = ErrorBody.model_validate(reply.json())
    assert body.error == "no_pages" and f"a {media_type} document has no pages to show" in body.message


def test_damaged_bytes_are_a_422_and_no_page_count(app: tuple[TestClient, MemoryStore]) -> None:
    client, store = app
    doc = stored(store, "bad.png", "image/png", b"\x89PNG\r\n\x1a\n broken")
    assert client.get(f"/v1/documents/{doc}").json()["page_count"] is None
    reply = client.get(f"/v1/documents/{doc}/pages/1")
    assert reply.status_code == 422 and ErrorBody.model_validate(reply.json()).error == "unrenderable_document"


def test_the_route_is_documented_as_png_with_its_errors(app: tuple[TestClient, MemoryStore]) -> None:
    client, _ = app
    operation = client.get("/openapi.json").json()["paths"]["/v1/documents/{document_id}/pages/{page}"]["get"]
    assert set(operation["responses"]) >= {"200", "404", "415", "422"}
    assert "image/png" in operation["responses"]["200"]["content"]
    assert operation["responses"]["415"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")


@pytest.mark.parametrize(
    ("name", "media_type", "content"),
    [("i.pdf", "application/pdf", b"%PDF-1.7"), ("r.txt", "text/plain", b"Total $22.00\n"),
     ("m.eml", "message/rfc822", b"Subject: bill\n\nTotal $22.00\n"), ("s.tif", "image/tiff", b"II*\x00")],
)  # fmt: skip
def test_the_original_is_served_as_its_media_type_which_the_openapi_documents(
    app: tuple[TestClient, MemoryStore], name: str, media_type: str, content: bytes
) -> None:
    """Schemathesis found GET /file documented as JSON while it answers with the original's type."""
    client, store = app
    reply = client.get(f"/v1/documents/{stored(store, name, media_type, content)}/file")
    assert reply.status_code == 200 and reply.content == content
    assert reply.headers["content-type"].split(";")[0] == media_type
    operation = client.get("/openapi.json").json()["paths"]["/v1/documents/{document_id}/file"]["get"]
    assert media_type in operation["responses"]["200"]["content"]
    assert "application/json" not in operation["responses"]["200"]["content"]
