"""The practice travels to extraction: every request the Documents pages make carries
``X-AsAt-Practice`` with the signed-in session's practice (the client sends what it is given)."""

from __future__ import annotations

import asyncio
from uuid import UUID

import httpx
import pytest

from asat_web.extraction_client import PRACTICE_HEADER, ExtractionClient, Upload
from asat_web.settings import WebSettings

from .signed_in import RESEARCH, add_practice, new_store, signed_in, web_app
from .stub_extraction import create_stub
from .stub_research import create_stub as create_research_stub

EXTRACTION = "http://extraction.test"


def test_every_documents_request_carries_the_signed_in_practice() -> None:
    stub = create_stub()
    store = new_store()
    add_practice(store, "First Practice", "first@practice.test")
    second = add_practice(store, "Second Practice", "second@practice.test")
    assert second.practice_id != 1  # not the id a default would give
    extraction = httpx.AsyncClient(transport=httpx.ASGITransport(app=stub), base_url=EXTRACTION)
    settings = WebSettings(research_url=RESEARCH, extraction_url=EXTRACTION)
    web = signed_in(web_app(create_research_stub(), store, settings=settings, extraction_client=extraction), second)
    uploaded = web.post("/documents", files=[("files", ("a.pdf", b"%PDF-a", "application/pdf"))])
    assert uploaded.status_code == 200, uploaded.text
    (document_id,) = stub.state.documents
    for path in (f"/documents/{document_id}", f"/documents/{document_id}/file", f"/documents/{document_id}/pages/1"):
        assert web.get(path).status_code == 200, path
    saved = web.post(
        f"/documents/{document_id}/corrections",
        data={"who": "Ada", "field": "total_amount", "value": "38.00"},
        follow_redirects=False,
    )
    assert saved.status_code == 303, saved.text
    assert stub.state.patches  # the PATCH reached extraction
    assert len(stub.state.practices) >= 7
    assert set(stub.state.practices) == {str(second.practice_id)}


def test_the_client_sends_the_practice_it_is_given_with_the_service_token() -> None:
    asyncio.run(_every_call_of_the_client())


async def _every_call_of_the_client() -> None:
    seen: list[tuple[str, str | None, str | None]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append((request.url.path, request.headers.get(PRACTICE_HEADER), request.headers.get("authorization")))
        return httpx.Response(404, json={"error": "not_found", "message": "no document"})

    token = "s" * 43
    client = ExtractionClient(
        EXTRACTION, client=httpx.AsyncClient(transport=httpx.MockTransport(answer)), service_token=token
    )
    zero = UUID(int=0)
    calls = [
        client.upload(7, [Upload(filename="a.txt", content=b"x")]),
        client.document(7, zero),
        client.original(7, zero),
        client.page(7, zero, 1),
        client.transactions(7),
        client.correct(7, zero, {"who": "Ada"}),
    ]
    for call in calls:
        with pytest.raises(Exception, match="no document"):
            await call
    await client.aclose()
    assert len(seen) == len(calls)
    assert {(practice, auth) for _, practice, auth in seen} == {("7", f"Bearer {token}")}
