"""Two practices through the API, over the Postgres store (as the app role) and the memory store:
every route, read or write, tried with the other practice's ids is a 404 and changes nothing;
lists and CSV show only the practice's own; the same bytes are a new document in another
practice; every route but /healthz without ``X-AsAt-Practice`` (or with a bad one) is a 400
naming the header."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from asat_extraction.api import PRACTICE_HEADER, build_app
from asat_extraction.pipeline import Pipeline
from asat_extraction.store.memory import MemoryStore
from asat_extraction.store.port import DocumentStore
from asat_extraction.store.postgres import PostgresStore
from asat_extraction.testing.postgres import scratch_database

A, B = 31, 32
RECEIPT = b"Acme Pty Ltd\nABN 51 824 753 556\nTax invoice INV-31\nTotal $22.00\nGST $2.00\n"


@dataclass
class Practices:
    app: Any
    a: TestClient
    b: TestClient
    a_document: str
    a_transaction: str
    b_document: str


@pytest.fixture(scope="module", params=["postgres", "memory"])
def practices(request: pytest.FixtureRequest, pipeline: Pipeline, invoice_pdf: bytes) -> Iterator[Practices]:
    def serve(store: DocumentStore) -> Practices:
        app = build_app(pipeline, store, max_files=3)
        a = TestClient(app, headers={PRACTICE_HEADER: str(A)})
        b = TestClient(app, headers={PRACTICE_HEADER: str(B)})
        (made,) = a.post("/v1/documents", files=[("files", ("inv.pdf", invoice_pdf))]).json()["results"]
        (own,) = b.post("/v1/documents", files=[("files", ("r.txt", RECEIPT))]).json()["results"]
        return Practices(app, a, b, made["document"]["id"], made["transaction"]["id"], own["document"]["id"])

    if request.param == "memory":
        yield serve(MemoryStore())
        return
    with scratch_database() as database:
        yield serve(PostgresStore(database.app_url))


# Each route of the API, as practice B asks it with practice A's ids. Every /v1 route of the app
# must be here (test_every_route_is_tried), so a new route is tried too.
FOREIGN_REQUESTS: dict[tuple[str, str], dict[str, Any]] = {
    ("GET", "/v1/documents/{document_id}"): {},
    ("GET", "/v1/documents/{document_id}/file"): {},
    ("GET", "/v1/documents/{document_id}/pages/{page}"): {},
    ("PATCH", "/v1/transactions/{transaction_id}"): {
        "json": {"who": "mallory", "changes": {"total_amount": "0.01"}, "review_status": "rejected"}
    },
}
LISTS = {("GET", "/v1/transactions"), ("GET", "/v1/transactions.csv"), ("POST", "/v1/documents")}


def routes(app: Any) -> set[tuple[str, str]]:
    return {
        (method, route.path)
        for route in app.routes
        if isinstance(route, APIRoute) and route.path != "/healthz"
        for method in route.methods
    }


def concrete(path: str, document_id: str, transaction_id: str) -> str:
    return path.format(document_id=document_id, transaction_id=transaction_id, page=1)


def test_every_route_is_tried(practices: Practices) -> None:
    assert routes(practices.app) == set(FOREIGN_REQUESTS) | LISTS


@pytest.mark.parametrize(("method", "path"), list(FOREIGN_REQUESTS))
def test_another_practices_ids_are_404_on_every_route(practices: Practices, method: str, path: str) -> None:
    url = concrete(path, practices.a_document, practices.a_transaction)
    own = practices.a.request(method, url, **FOREIGN_REQUESTS[(method, path)]) if method == "GET" else None
    assert own is None or own.status_code == 200, own.text if own is not None else ""
    reply = practices.b.request(method, url, **FOREIGN_REQUESTS[(method, path)])
    assert reply.status_code == 404, reply.text
    assert reply.json()["error"] == "not_found"


def test_a_refused_patch_changes_nothing(practices: Practices) -> None:
    patch = FOREIGN_REQUESTS[("PATCH", "/v1/transactions/{transaction_id}")]
    assert practices.b.patch(f"/v1/transactions/{practices.a_transaction}", **patch).status_code == 404
    detail = practices.a.get(f"/v1/documents/{practices.a_document}").json()
    assert detail["transaction"]["review_status"] == "pending" and detail["transaction"]["corrections"] == []
    assert detail["transaction"]["values"]["total_amount"] != "0.01"


def test_lists_and_csv_show_only_the_practices_own(practices: Practices) -> None:
    for client, own, other in ((practices.a, practices.a_document, practices.b_document),
                               (practices.b, practices.b_document, practices.a_document)):  # fmt: skip
        listed = {t["document_id"] for t in client.get("/v1/transactions").json()["transactions"]}
        assert own in listed and other not in listed
        rows = list(csv.DictReader(io.StringIO(client.get("/v1/transactions.csv").text)))
        assert own in {r["document_id"] for r in rows} and other not in {r["document_id"] for r in rows}


def test_the_same_bytes_in_another_practice_are_its_own_document(practices: Practices) -> None:
    (again,) = practices.b.post("/v1/documents", files=[("files", ("mine.txt", RECEIPT))]).json()["results"]
    assert again["status"] == "existing" and again["document"]["id"] == practices.b_document
    (theirs,) = practices.a.post("/v1/documents", files=[("files", ("theirs.txt", RECEIPT))]).json()["results"]
    assert theirs["status"] == "created" and theirs["document"]["id"] != practices.b_document
    assert practices.b.get(f"/v1/documents/{theirs['document']['id']}").status_code == 404


@pytest.mark.parametrize("header", [None, "", "abc", "0", "-3", "1.5", "99999999999999999999"])
def test_every_route_without_a_practice_is_400_naming_the_header(practices: Practices, header: str | None) -> None:
    bare = TestClient(practices.app)
    before = [len(c.get("/v1/transactions").json()["transactions"]) for c in (practices.a, practices.b)]
    headers = {} if header is None else {PRACTICE_HEADER: header}
    for method, path in sorted(routes(practices.app)):
        url = concrete(path, practices.a_document, practices.a_transaction)
        extra: dict[str, Any] = FOREIGN_REQUESTS.get((method, path), {})
        if method == "POST":
            extra = {"files": [("files", ("r.txt", RECEIPT))]}
        reply = bare.request(method, url, headers=headers, **extra)
        assert reply.status_code == 400, (method, path, reply.text)
        body = reply.json()
        assert body["error"] == "practice_required" and PRACTICE_HEADER in body["message"], body
    assert bare.get("/healthz").status_code == 200  # liveness needs no practice
    after = [len(c.get("/v1/transactions").json()["transactions"]) for c in (practices.a, practices.b)]
    assert after == before  # the refused upload stored nothing


def test_the_header_is_documented_on_every_route(practices: Practices) -> None:
    paths = practices.a.get("/openapi.json").json()["paths"]
    for method, path in routes(practices.app):
        operation = paths[path][method.lower()]
        names = [p["name"] for p in operation.get("parameters", []) if p["in"] == "header"]
        assert PRACTICE_HEADER in names, (method, path)
        assert "400" in operation["responses"], (method, path)
