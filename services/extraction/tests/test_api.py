"""The HTTP API against the real Postgres (as the app role, for one practice): upload, dedupe,
read back, correct, list, CSV, errors."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from asat_extraction.api import PRACTICE_HEADER, build_app
from asat_extraction.pipeline import Pipeline
from asat_extraction.store.postgres import PostgresStore
from asat_extraction.testing.postgres import scratch_database

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def client(pipeline: Pipeline) -> Iterator[TestClient]:
    with scratch_database() as database:
        store = PostgresStore(database.app_url)
        app = build_app(pipeline, store, max_files=3, database_check=store.check)
        yield TestClient(app, headers={PRACTICE_HEADER: "1"})


def upload(client: TestClient, *files: tuple[str, bytes]) -> dict[str, object]:
    response = client.post("/v1/documents", files=[("files", (name, data)) for name, data in files])
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


def test_healthz(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok", "extractor": "deterministic", "database": "ok"}


def test_upload_read_back_and_dedupe(client: TestClient, invoice_pdf: bytes) -> None:
    (first,) = upload(client, ("inv.pdf", invoice_pdf))["results"]  # type: ignore[misc]
    assert first["status"] == "created"
    assert first["transaction"]["values"]["supplier_abn"] == "51824753556"
    (again,) = upload(client, ("copy.pdf", invoice_pdf))["results"]  # type: ignore[misc]
    assert again["status"] == "existing" and again["document"]["id"] == first["document"]["id"]
    detail = client.get(f"/v1/documents/{first['document']['id']}").json()
    assert detail["transaction"]["id"] == first["transaction"]["id"]
    file = client.get(f"/v1/documents/{first['document']['id']}/file")
    assert file.content == invoice_pdf and file.headers["content-type"] == "application/pdf"


def test_mixed_batch_keeps_good_documents_and_reports_bad(client: TestClient) -> None:
    results = upload(client, ("r.txt", b"Acme Pty Ltd\nABN 51 824 753 556\nTotal $22.00\nGST $2.00\n"), ("e.pdf", b""))
    good, bad = results["results"]  # type: ignore[misc]
    assert good["status"] == "created"
    assert bad["status"] == "error" and bad["cause"] == "empty" and bad["document"] is None


def test_all_bad_is_422_and_nothing_stored(client: TestClient) -> None:
    before = len(client.get("/v1/transactions").json()["transactions"])
    response = client.post("/v1/documents", files=[("files", ("x.zip", b"PK\x03\x04\x00\x01\x02"))])
    assert response.status_code == 422 and "x.zip" in response.json()["message"]
    assert response.json()["error"] == "unreadable_documents"
    assert len(client.get("/v1/transactions").json()["transactions"]) == before


def test_too_many_files_is_413(client: TestClient) -> None:
    files = [("files", (f"{i}.txt", f"Total ${i}.00\n".encode())) for i in range(4)]
    response = client.post("/v1/documents", files=files)
    assert response.status_code == 413
    body = response.json()
    assert (body["error"], body["limit"], body["maximum"], body["actual"]) == ("request_too_large", "max_files", 3, 4)


def test_correction_recorded_with_original_kept(client: TestClient) -> None:
    (result,) = upload(client, ("fix.txt", b"Fixit Pty Ltd\nABN 51 824 753 556\nTotal $55.00\nGST $5.00\n"))["results"]  # type: ignore[misc]
    tid = result["transaction"]["id"]
    response = client.patch(
        f"/v1/transactions/{tid}",
        json={
            "who": "sam@example.com",
            "changes": {"total_amount": "56.00", "supplier_abn": "51824753557"},
            "note": "x",
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["values"]["total_amount"] == "56.00" and body["original"]["total_amount"] == "55.00"
    assert body["values"]["abn_valid"] is False  # derived from the corrected ABN, and recorded as a change
    assert body["review_status"] == "corrected"
    assert body["corrections"][0]["who"] == "sam@example.com"
    assert body["corrections"][0]["before"]["total_amount"] == "55.00"


def test_bad_patch_is_422(client: TestClient) -> None:
    (result,) = upload(client, ("p.txt", b"Patch Pty Ltd\nTotal $9.00\n"))["results"]  # type: ignore[misc]
    tid = result["transaction"]["id"]
    short = client.patch(f"/v1/transactions/{tid}", json={"who": "sam", "changes": {"total_amount": "9"}})
    assert short.status_code == 422
    body = short.json()  # the shared ErrorBody: every refused field named
    assert body["error"] == "invalid_request" and body["message"].startswith("the request is not valid: ")
    assert any(line.startswith("changes.total_amount: ") for line in body["details"])
    unknown = client.patch(f"/v1/transactions/{tid}", json={"who": "sam", "changes": {"colour": "red"}})
    assert unknown.status_code == 422 and "changes.colour: " in unknown.json()["message"]
    nothing = client.patch(f"/v1/transactions/{tid}", json={"who": "sam"})
    assert nothing.status_code == 422 and nothing.json()["error"] == "invalid_request"
    missing = client.patch(
        "/v1/transactions/00000000-0000-0000-0000-000000000000", json={"who": "s", "review_status": "confirmed"}
    )
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"


def test_unknown_route_is_a_404_error_body(client: TestClient) -> None:
    response = client.get("/v1/nowhere")
    assert response.status_code == 404 and response.json()["error"] == "not_found"


def test_list_filters_and_csv(client: TestClient) -> None:
    upload(client, ("usd.txt", b"Cloudsoft Inc.\nINVOICE\nInvoice No: CS-9\nTotal USD $100.00\n"))
    usd = client.get("/v1/transactions", params={"currency": "USD"}).json()["transactions"]
    assert [t["values"]["invoice_number"] for t in usd] == ["CS-9"]
    response = client.get("/v1/transactions.csv", params={"currency": "USD"})
    assert response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [(r["invoice_number"], r["total_amount"], r["currency"]) for r in rows] == [("CS-9", "100.00", "USD")]
    assert client.get("/v1/transactions", params={"review_status": "nonsense"}).status_code == 422
