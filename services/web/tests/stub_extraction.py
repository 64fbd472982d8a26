"""A stub extraction service: the extraction API's shapes (port 8750), in memory, for the web tests.

Each uploaded file becomes a document and a transaction with a fixed extraction (Harbourside
Plumbing, total 37.50 read from "Total (inc GST) $37.50" on page 1); a file named ``bad*`` is an
``error`` result, the same bytes twice are ``existing``. A PDF has ``PDF_PAGES`` pages, a PNG one,
a ``.txt`` none (``page_count`` null; its pages route answers 415); every page is the tiny ``PNG``.
``malformed=True`` answers every read with a body of the wrong shape. Like extraction, every
``/v1`` request needs ``X-AsAt-Practice`` (else 400); the values received are kept in
``app.state.practices``, one per request.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI, File, Request, UploadFile
from fastapi.responses import JSONResponse, Response

NOW = "2026-04-01T10:00:00Z"
TOTAL_LINE = "Total (inc GST) $37.50"
PDF_PAGES = 2
MEDIA_TYPES = {".png": "image/png", ".txt": "text/plain"}
PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
    b"\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82"
)


def field(value: Any, text: str | None, confidence: float = 0.95, reason: str | None = None) -> dict[str, Any]:
    provenance = None if text is None else {"page": 1, "text": text}
    return {"value": value, "confidence": confidence, "provenance": provenance, "reason": reason}


def extraction() -> dict[str, Any]:
    items = [{"description": "Copper pipe 15mm", "amount": "37.50", "quantity": None, "unit_amount": None,
              "gst_free": False, "provenance": {"page": 1, "text": "Copper pipe 15mm 37.50"}}]  # fmt: skip
    return {
        "kind": field("invoice", "TAX INVOICE"),
        "supplier_name": field("Harbourside Plumbing Pty Ltd", "Harbourside Plumbing Pty Ltd TAX INVOICE"),
        "supplier_abn": field("51824753556", "ABN 51 824 753 556"),
        "abn_valid": field(True, "ABN 51 824 753 556"),
        "invoice_number": field("INV-00042", "Invoice No: INV-00042 Date: 19/03/2024"),
        "issue_date": field("2024-03-19", "Invoice No: INV-00042 Date: 19/03/2024"),
        "currency": field(None, None, 0.0, "no currency printed"),
        "total_amount": field("37.50", TOTAL_LINE, 0.98),
        "gst_amount": field("3.41", "GST $3.41"),
        "gst_registered_supplier": field(True, "TAX INVOICE"),
        "line_items": field(items, "Copper pipe 15mm 37.50"),
        "warnings": [
            {
                "code": "buyer_missing",
                "message": "a tax invoice of $1,000 or more names the buyer",
                "field": "total_amount",
            }
        ],
        "extractor": "deterministic",
    }


def flat(e: dict[str, Any]) -> dict[str, Any]:
    values = {name: f["value"] for name, f in e.items() if name not in ("warnings", "extractor")}
    values["line_items"] = [{"description": "Copper pipe 15mm", "amount": "37.50"}]
    return values


def create_stub(malformed: bool = False) -> FastAPI:
    app = FastAPI()
    app.state.documents = {}
    app.state.transactions = {}
    app.state.contents = {}
    app.state.patches = []
    app.state.uploads = []
    app.state.practices = []

    @app.middleware("http")
    async def practice_required(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        if request.url.path.startswith("/v1/"):
            practice = request.headers.get("x-asat-practice")
            app.state.practices.append(practice)
            if not practice:
                message = "the request lacks the X-AsAt-Practice header"
                return JSONResponse({"error": "practice_required", "message": message}, status_code=400)
        return await call_next(request)

    def detail(document_id: str) -> dict[str, Any]:
        document = app.state.documents[document_id]
        transaction = next(t for t in app.state.transactions.values() if t["document_id"] == document_id)
        return {"document": document, "transaction": transaction}

    def pages_of(document_id: str) -> int | None:
        media_type = app.state.documents[document_id]["media_type"]
        return {"application/pdf": PDF_PAGES, "image/png": 1}.get(media_type)

    def not_found(what: str) -> JSONResponse:
        return JSONResponse({"error": "not_found", "message": f"no {what}"}, status_code=404)

    @app.post("/v1/documents")
    async def upload(files: list[UploadFile] = File()) -> JSONResponse:  # noqa: B008
        results: list[dict[str, Any]] = []
        app.state.uploads.append([(f.filename, f.content_type) for f in files])
        for upload_file in files:
            name = upload_file.filename or "upload"
            data = await upload_file.read()
            if name.startswith("bad"):
                results.append({"filename": name, "status": "error", "document": None, "transaction": None,
                                "cause": "corrupt", "message": f"{name}: the PDF cannot be parsed"})  # fmt: skip
                continue
            sha = hashlib.sha256(data).hexdigest()
            existing = next((d for d in app.state.documents.values() if d["sha256"] == sha), None)
            if existing is not None:
                results.append({"filename": name, "status": "existing"} | detail(existing["id"]))
                continue
            media_type = MEDIA_TYPES.get(name[name.rfind(".") :], "application/pdf")
            doc_id, tx_id = str(uuid.uuid4()), str(uuid.uuid4())
            app.state.documents[doc_id] = {"id": doc_id, "filename": name, "media_type": media_type, "sha256": sha,
                                           "size": len(data), "created_at": NOW}  # fmt: skip
            app.state.contents[doc_id] = data
            e = extraction()
            app.state.transactions[tx_id] = {
                "id": tx_id, "document_id": doc_id, "extractor": "deterministic", "review_status": "pending",
                "values": flat(e), "original": flat(e), "extraction": e, "corrections": [], "created_at": NOW,
                "updated_at": NOW,
            }  # fmt: skip
            results.append({"filename": name, "status": "created"} | detail(doc_id))
        if results and all(r["status"] == "error" for r in results):
            message = "no document could be read: " + "; ".join(r["message"] for r in results)
            return JSONResponse({"error": "unreadable_documents", "message": message}, status_code=422)
        return JSONResponse({"results": results})

    @app.get("/v1/documents/{document_id}")
    def get_document(document_id: str) -> JSONResponse:
        if malformed:
            return JSONResponse({"document": {"id": document_id}})
        if document_id not in app.state.documents:
            return not_found(f"document {document_id}")
        return JSONResponse(detail(document_id) | {"page_count": pages_of(document_id)})

    @app.get("/v1/documents/{document_id}/pages/{page}", response_model=None)
    def get_page(document_id: str, page: int) -> Response:
        if malformed:
            return JSONResponse({"page": page})
        if document_id not in app.state.documents:
            return not_found(f"document {document_id}")
        count = pages_of(document_id)
        if count is None:
            message = "a text/plain document has no pages to show"
            return JSONResponse({"error": "no_pages", "message": message}, status_code=415)
        if not 1 <= page <= count:
            return not_found(f"page {page}: the document has {count}")
        return Response(PNG, media_type="image/png")

    @app.get("/v1/documents/{document_id}/file", response_model=None)
    def get_file(document_id: str) -> Response:
        if document_id not in app.state.documents:
            return not_found(f"document {document_id}")
        document = app.state.documents[document_id]
        return Response(app.state.contents[document_id], media_type=document["media_type"],
                        headers={"Content-Disposition": 'attachment; filename="x"'})  # fmt: skip

    @app.patch("/v1/transactions/{transaction_id}")
    async def patch(transaction_id: str, request: Request) -> JSONResponse:
        body = await request.json()
        app.state.patches.append(body)
        if transaction_id not in app.state.transactions:
            return not_found(f"transaction {transaction_id}")
        changes = body.get("changes") or {}
        if changes.get("total_amount") == "oops":
            message = "the request is not valid: changes.total_amount: String should match pattern"
            return JSONResponse({"error": "invalid_request", "message": message}, status_code=422)
        t = app.state.transactions[transaction_id]
        before = {k: t["values"].get(k) for k in changes}
        t["corrections"].append({"who": body["who"], "at": datetime.now(UTC).isoformat(), "changes": changes,
                                 "before": before, "note": body.get("note")})  # fmt: skip
        t["values"] = t["values"] | changes
        t["review_status"] = body.get("review_status") or "corrected"
        return JSONResponse(t)

    @app.get("/v1/transactions")
    def transactions(limit: int = 100) -> JSONResponse:
        if malformed:
            return JSONResponse({"transactions": [{"id": "not-a-uuid"}]})
        listed = list(reversed(app.state.transactions.values()))[:limit]
        return JSONResponse({"transactions": listed})

    return app
