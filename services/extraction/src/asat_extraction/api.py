"""HTTP edge on port 8750: upload documents, read them back, review and correct their transactions.

``POST /v1/documents`` (multipart ``files``, one or many) answers per document: ``created``,
``existing`` (same bytes uploaded before) or ``error`` (cause and message; nothing stored).

Every error reply is the shared :class:`~asat_corpus.contracts.errors.ErrorBody`: bad input is a
422 naming each refused field and an unknown route a 404 (``install_error_handlers``); the
service's own refusals (too many files, nothing readable, an unknown id, the database down) are
raised here as ``_ApiError`` or ``NotFound``. Built with a service token (as ``python -m
asat_extraction serve`` always is), every path but ``/healthz`` is a 401 without
``Authorization: Bearer <token>``.

Every route but ``/healthz`` acts for one practice, named by the ``X-AsAt-Practice`` header (the
practice id the web's signed-in user acts for; trusted because only a caller holding the service
token gets this far). Without it the reply is a 400 naming the header. The store reads and writes
that practice's rows only, so another practice's document or transaction id is a 404, exactly as
an id that does not exist.
"""

from __future__ import annotations

import csv
import io
from datetime import date
from typing import Annotated, Any
from uuid import UUID

from fastapi import Depends, FastAPI, File, Header, Path, Query, Request, UploadFile
from fastapi.responses import JSONResponse, Response

from asat_corpus.contracts.errors import ErrorBody
from asat_corpus.http_errors import install_error_handlers
from asat_corpus.service_token import ServiceTokenGuard
from asat_corpus.text.abn import abn_is_valid
from asat_extraction.api_models import (
    DocumentDetail,
    DocumentOut,
    Health,
    TransactionList,
    TransactionOut,
    TransactionPatch,
    UploadResponse,
    UploadResult,
)
from asat_extraction.inputs.sniff import MediaType
from asat_extraction.pages import NoPages, PageOutOfRange, Unrenderable, has_pages, page_count, render_page
from asat_extraction.pipeline import Failed, Pipeline
from asat_extraction.schema import extraction_out, flat_values
from asat_extraction.store.port import DocumentStore, NotFound
from asat_extraction.store.records import NewDocument, ReviewStatus, TransactionFilter

CSV_COLUMNS = (
    "transaction_id", "document_id", "filename", "review_status", "kind", "supplier_name", "supplier_abn",
    "abn_valid", "invoice_number", "issue_date", "currency", "total_amount", "gst_amount",
    "gst_registered_supplier", "line_item_count", "warning_count",
)  # fmt: skip


Status = Annotated[ReviewStatus | None, Query()]
Text = Annotated[str | None, Query(max_length=100)]
Day = Annotated[date | None, Query()]
Limit = Annotated[int, Query(ge=1, le=1000)]
Offset = Annotated[int, Query(ge=0)]
PageNumber = Annotated[int, Path(ge=1, le=10_000, description="the page (a TIFF's frame), counted from 1")]
PNG_REPLY: dict[int | str, dict[str, Any]] = {
    200: {"content": {"image/png": {}}, "description": "the page as a PNG picture"}
}
ORIGINAL_REPLY: dict[int | str, dict[str, Any]] = {
    200: {"content": {str(media): {} for media in MediaType}, "description": "the original, as uploaded"}
}


DATABASE = "database (Postgres)"
PRACTICE_HEADER = "X-AsAt-Practice"
MAX_PRACTICE_ID = 2**63 - 1  # a Postgres bigint


class _ApiError(Exception):
    """A refusal of the service's own: its status and the ``ErrorBody`` it replies with."""

    def __init__(self, status: int, body: ErrorBody) -> None:
        super().__init__(body.message)
        self.status, self.body = status, body


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorBody} for status in statuses}


def practice_of_request(
    practice: Annotated[
        str | None,
        Header(
            alias=PRACTICE_HEADER,
            description="the practice the request acts for (the id of the web's signed-in practice)",
        ),
    ] = None,
) -> int:
    """The practice id of ``X-AsAt-Practice``; a 400 naming the header when it is missing or not an id."""
    if practice is None or not practice.strip():
        message = (
            f"the request lacks the {PRACTICE_HEADER} header: every route but /healthz acts for one practice; "
            f"send {PRACTICE_HEADER}: <practice id> (the web sends its signed-in user's practice)"
        )
        raise _ApiError(400, ErrorBody(error="practice_required", message=message))
    raw = practice.strip()
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= MAX_PRACTICE_ID:
        message = f"{PRACTICE_HEADER}: {raw[:40]!r} is not a practice id (a whole number from 1)"
        raise _ApiError(400, ErrorBody(error="practice_required", message=message))
    return int(raw)


Practice = Annotated[int, Depends(practice_of_request)]


def _cell(value: object) -> object:
    """A CSV cell; text that a spreadsheet would run as a formula gets a leading apostrophe."""
    if (isinstance(value, str) and value[:1] in ("=", "+", "@", "\t", "\r")) or (
        isinstance(value, str) and value.startswith("-") and not value[1:2].isdigit()
    ):
        return "'" + value
    return value


def _filters(
    review_status: ReviewStatus | None, kind: str | None, supplier_abn: str | None, currency: str | None,
    issued_from: date | None, issued_to: date | None, limit: int, offset: int,
) -> TransactionFilter:  # fmt: skip
    return TransactionFilter(review_status, kind, supplier_abn, currency, issued_from, issued_to, limit, offset)


def build_app(
    pipeline: Pipeline,
    store: DocumentStore,
    max_files: int,
    database_check: Any = None,
    service_token: str | None = None,
) -> FastAPI:
    """``service_token``: every request but ``/healthz`` must carry it (``None``: open, for in-process tests)."""
    app = FastAPI(
        title="AsAt extraction", version="1", description="Invoices, receipts and credit notes to transactions."
    )
    max_bytes = pipeline.limits.max_bytes
    install_error_handlers(app, invalid_prefix="the request is not valid: ")

    @app.exception_handler(_ApiError)
    async def api_error(_: Request, error: _ApiError) -> JSONResponse:
        return JSONResponse(status_code=error.status, content=error.body.model_dump(mode="json"))

    @app.exception_handler(NotFound)
    async def not_found(_: Request, error: NotFound) -> JSONResponse:
        body = ErrorBody(error="not_found", message=f"{error}: check the id (GET /v1/transactions lists them)")
        return JSONResponse(status_code=404, content=body.model_dump(mode="json"))

    @app.get("/healthz", responses=_errors(503))
    def healthz() -> Health:
        database = "ok"
        if database_check is not None:
            try:
                database_check()
            except Exception as error:
                message = f"the database cannot be used: {error}"
                body = ErrorBody(error="dependency_unavailable", message=message, dependency=DATABASE)
                raise _ApiError(503, body) from None
        return Health(status="ok", extractor=pipeline.extractor.name, database=database)

    @app.post("/v1/documents", responses=_errors(400, 413, 422))
    async def upload(
        practice: Practice, files: Annotated[list[UploadFile], File(description="one or more documents")]
    ) -> UploadResponse:
        if len(files) > max_files:
            message = f"{len(files)} files in one request; send at most {max_files}"
            body = ErrorBody(
                error="request_too_large", message=message, limit="max_files", maximum=max_files, actual=len(files)
            )
            raise _ApiError(413, body)
        results: list[UploadResult] = []
        for upload_file in files:
            name = upload_file.filename or "upload"
            data = await upload_file.read(max_bytes + 1)
            result = pipeline.process(name, data)
            if isinstance(result, Failed):
                results.append(UploadResult(filename=name, status="error", cause=result.cause, message=result.message))
                continue
            out = extraction_out(result.extraction)
            stored, transaction, created = store.add(
                practice,
                NewDocument(
                    name,
                    result.media_type,
                    result.sha256,
                    data,
                    result.extraction.extractor,
                    flat_values(out),
                    out.model_dump(mode="json"),
                ),
            )
            results.append(
                UploadResult(
                    filename=name,
                    status="created" if created else "existing",
                    document=DocumentOut.of(stored),
                    transaction=TransactionOut.of(transaction),
                )
            )
        if results and all(r.status == "error" for r in results):
            messages = "; ".join(f"{r.filename}: {r.message}" for r in results)
            body = ErrorBody(error="unreadable_documents", message=f"no document could be read: {messages}")
            raise _ApiError(422, body)
        return UploadResponse(results=results)

    @app.get("/v1/documents/{document_id}", responses=_errors(400, 404, 422))
    def get_document(practice: Practice, document_id: UUID) -> DocumentDetail:
        document = store.document(practice, document_id)
        pages = None
        if has_pages(document.media_type):
            try:
                pages = page_count(document.media_type, store.content(practice, document_id))
            except Unrenderable:
                pages = None
        return DocumentDetail(
            document=DocumentOut.of(document),
            transaction=TransactionOut.of(store.transaction_of(practice, document_id)),
            page_count=pages,
        )

    @app.get(
        "/v1/documents/{document_id}/pages/{page}",
        response_class=Response,
        responses=PNG_REPLY | _errors(400, 404, 415, 422),
    )
    def get_page(practice: Practice, document_id: UUID, page: PageNumber) -> Response:
        """Page ``page`` (from 1) of a PDF, or frame of a TIFF or image, rendered as PNG for review."""
        document = store.document(practice, document_id)
        try:
            png = render_page(document.media_type, store.content(practice, document_id), page)
        except NoPages as error:
            raise _ApiError(415, ErrorBody(error="no_pages", message=str(error))) from None
        except PageOutOfRange as error:
            body = ErrorBody(
                error="not_found",
                message=f"{error}: ask for a page from 1 to {error.count} (GET /v1/documents/{document_id} "
                "gives page_count)",
                limit="page_count",
                maximum=error.count,
                actual=page,
            )
            raise _ApiError(404, body) from None
        except Unrenderable as error:
            message = f"document {document_id} cannot be rendered: {error}"
            raise _ApiError(422, ErrorBody(error="unrenderable_document", message=message)) from None
        return Response(
            content=png,
            media_type="image/png",
            headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "private, max-age=3600"},
        )

    @app.get(
        "/v1/documents/{document_id}/file", response_class=Response, responses=ORIGINAL_REPLY | _errors(400, 404, 422)
    )
    def get_file(practice: Practice, document_id: UUID) -> Response:
        document = store.document(practice, document_id)
        safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in document.filename)
        return Response(
            content=store.content(practice, document_id),
            media_type=document.media_type,
            headers={"Content-Disposition": f'attachment; filename="{safe}"', "X-Content-Type-Options": "nosniff"},
        )

    @app.patch("/v1/transactions/{transaction_id}", responses=_errors(400, 404, 422))
    def patch_transaction(practice: Practice, transaction_id: UUID, patch: TransactionPatch) -> TransactionOut:
        changes = patch.changes.model_dump(mode="json", exclude_unset=True)
        if not changes and patch.review_status is None:
            raise _ApiError(422, ErrorBody(error="invalid_request", message="send changes, a review_status, or both"))
        if "supplier_abn" in changes and "abn_valid" not in changes:
            abn = changes["supplier_abn"]
            changes["abn_valid"] = None if abn is None else abn_is_valid(abn)
        status = ReviewStatus(patch.review_status) if patch.review_status else ReviewStatus.CORRECTED
        return TransactionOut.of(store.correct(practice, transaction_id, patch.who, changes, status, patch.note))

    @app.get("/v1/transactions", responses=_errors(400, 422))
    def list_transactions(
        practice: Practice, review_status: Status = None, kind: Text = None, supplier_abn: Text = None, currency: Text = None,
        issued_from: Day = None, issued_to: Day = None, limit: Limit = 100, offset: Offset = 0,
    ) -> TransactionList:  # fmt: skip
        query = _filters(review_status, kind, supplier_abn, currency, issued_from, issued_to, limit, offset)
        return TransactionList(transactions=[TransactionOut.of(t) for t in store.transactions(practice, query)])

    @app.get("/v1/transactions.csv", response_class=Response, responses=_errors(400, 422))
    def transactions_csv(
        practice: Practice, review_status: Status = None, kind: Text = None, supplier_abn: Text = None, currency: Text = None,
        issued_from: Day = None, issued_to: Day = None, limit: Limit = 1000, offset: Offset = 0,
    ) -> Response:  # fmt: skip
        query = _filters(review_status, kind, supplier_abn, currency, issued_from, issued_to, limit, offset)
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(CSV_COLUMNS)
        for t in store.transactions(practice, query):
            v = t.values
            document = store.document(practice, t.document_id)
            writer.writerow([_cell(value) for value in [
                t.id, t.document_id, document.filename, t.review_status.value, v.get("kind"), v.get("supplier_name"),
                v.get("supplier_abn"), v.get("abn_valid"), v.get("invoice_number"), v.get("issue_date"),
                v.get("currency"), v.get("total_amount"), v.get("gst_amount"), v.get("gst_registered_supplier"),
                len(v.get("line_items") or []), len(t.extraction.get("warnings", [])),
            ]])  # fmt: skip
        return Response(buffer.getvalue(), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="transactions.csv"'})  # fmt: skip

    if service_token is not None:
        app.add_middleware(ServiceTokenGuard, token=service_token)  # outermost: refused before anything runs
    return app
