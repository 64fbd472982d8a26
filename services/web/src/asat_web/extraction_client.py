"""The extraction service over HTTP: the only way the web service reaches documents and transactions.

The web may not import ``asat_extraction`` (import-linter ``services-independent``), so the replies
it reads are modelled here, minimally: only what the Documents pages show, each reply checked
against its model. Failures become :class:`ExtractionUnavailable` (the service cannot be reached,
or answered 503: says how to start it), :class:`ExtractionRejected` (it refused the request
itself, 404, 413, 415 or 422: carries its message) or :class:`ExtractionReplyError` (any other error
status, or a reply that breaks the shape: the pages answer 502 naming the extraction service).

Every call acts for one practice (``practice_id``, the signed-in session's: ``asat_web.auth.practice_id``),
sent as ``X-AsAt-Practice``; extraction shows and changes that practice's documents only, and
answers 404 for another practice's ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal, TypeVar
from uuid import UUID

import httpx
from pydantic import BaseModel, ValidationError

from asat_corpus.contracts.errors import describe_validation_error
from asat_corpus.service_token import bearer_headers

START_HINT = "start it with `python -m asat_extraction serve` (or `make up`), or set ASAT_EXTRACTION_URL"
SERVICE = "the extraction service"
# The extraction service's refusals of a request itself (not found, too many files, no pages, invalid).
REFUSALS = frozenset({404, 413, 415, 422})
Reply = TypeVar("Reply", bound=BaseModel)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PRACTICE_HEADER = "X-AsAt-Practice"
ReviewStatus = Literal["pending", "confirmed", "corrected", "rejected"]
# The fields of a transaction, in the order the review view lists them.
FIELDS = (
    "kind", "supplier_name", "supplier_abn", "abn_valid", "invoice_number", "issue_date", "currency",
    "total_amount", "gst_amount", "gst_registered_supplier", "line_items",
)  # fmt: skip


class ExtractionUnavailable(Exception):
    """The extraction service is down, unreachable or cannot answer now (503)."""


class ExtractionReplyError(ExtractionUnavailable):
    """The extraction service answered unusably: an unexpected error status, or a reply of the
    wrong shape. Shown as a 502 naming the extraction service."""


class ExtractionRejected(Exception):
    """The extraction service refused the request (404, 413, 415, 422); ``status`` and its message are kept."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Provenance(BaseModel):
    page: int
    text: str


class FieldReading(BaseModel):
    """One field as extracted: its value, confidence, where it was read (or why it is null)."""

    value: Any = None
    confidence: float
    provenance: Provenance | None = None
    reason: str | None = None


class LineItemReading(BaseModel):
    description: str
    amount: str
    quantity: str | None = None
    unit_amount: str | None = None
    provenance: Provenance | None = None


class ExtractionWarning(BaseModel):
    code: str
    message: str
    field: str | None = None


class Extraction(BaseModel):
    kind: FieldReading
    supplier_name: FieldReading
    supplier_abn: FieldReading
    abn_valid: FieldReading
    invoice_number: FieldReading
    issue_date: FieldReading
    currency: FieldReading
    total_amount: FieldReading
    gst_amount: FieldReading
    gst_registered_supplier: FieldReading
    line_items: FieldReading
    warnings: list[ExtractionWarning]
    extractor: str

    def field(self, name: str) -> FieldReading:
        reading: FieldReading = getattr(self, name)
        return reading

    def line_items_read(self) -> list[LineItemReading]:
        items = self.line_items.value
        if not isinstance(items, list):
            return []
        return [LineItemReading.model_validate(item) for item in items]


class Document(BaseModel):
    id: UUID
    filename: str
    media_type: str
    sha256: str
    size: int
    created_at: datetime


class Correction(BaseModel):
    who: str
    at: datetime
    changes: dict[str, Any]
    before: dict[str, Any]
    note: str | None = None


class Transaction(BaseModel):
    id: UUID
    document_id: UUID
    extractor: str
    review_status: ReviewStatus
    values: dict[str, Any]
    original: dict[str, Any]
    extraction: Extraction
    corrections: list[Correction]
    created_at: datetime
    updated_at: datetime


class UploadResult(BaseModel):
    filename: str
    status: Literal["created", "existing", "error"]
    document: Document | None = None
    transaction: Transaction | None = None
    cause: str | None = None
    message: str | None = None


class UploadReply(BaseModel):
    results: list[UploadResult]


class DocumentDetail(BaseModel):
    document: Document
    transaction: Transaction
    page_count: int | None = None  # pages of a PDF or frames of an image; none for email and text


class TransactionList(BaseModel):
    transactions: list[Transaction]


class Upload(BaseModel):
    """One file to forward: its name, bytes and the media type the browser gave."""

    filename: str
    content: bytes
    media_type: str = "application/octet-stream"


class OriginalFile(BaseModel):
    content: bytes
    media_type: str


class ExtractionClient:
    def __init__(
        self,
        base_url: str,
        client: httpx.AsyncClient | None = None,
        timeout_s: float = 300.0,
        service_token: str | None = None,
    ) -> None:
        """``service_token`` goes with every request: extraction refuses one without it (401)."""
        self.base_url = base_url.rstrip("/")
        self._client = client or httpx.AsyncClient(base_url=self.base_url, timeout=timeout_s)
        self._auth = bearer_headers(service_token)

    async def aclose(self) -> None:
        await self._client.aclose()

    async def upload(self, practice_id: int, uploads: Sequence[Upload]) -> UploadReply:
        """``POST /v1/documents``: every file in one multipart request, one result per file."""
        files = [("files", (u.filename, u.content, u.media_type)) for u in uploads]
        return await self._call(practice_id, "POST", "/v1/documents", UploadReply, files=files)

    async def document(self, practice_id: int, document_id: UUID) -> DocumentDetail:
        return await self._call(practice_id, "GET", f"/v1/documents/{document_id}", DocumentDetail)

    async def original(self, practice_id: int, document_id: UUID) -> OriginalFile:
        """``GET /v1/documents/{id}/file``: the uploaded bytes and their media type."""
        where = f"GET /v1/documents/{document_id}/file"
        reply = await self._request(practice_id, "GET", f"/v1/documents/{document_id}/file")
        self._raise_for(reply, where)
        if reply.status_code != 200:
            raise ExtractionReplyError(f"{SERVICE} answered {reply.status_code} to {where}")
        media_type = reply.headers.get("content-type", "application/octet-stream").split(";")[0].strip()
        return OriginalFile(content=reply.content, media_type=media_type)

    async def page(self, practice_id: int, document_id: UUID, page: int) -> OriginalFile:
        """``GET /v1/documents/{id}/pages/{page}``: that page (from 1) rendered as a PNG."""
        where = f"GET /v1/documents/{document_id}/pages/{page}"
        reply = await self._request(practice_id, "GET", f"/v1/documents/{document_id}/pages/{page}")
        self._raise_for(reply, where)
        media_type = reply.headers.get("content-type", "").split(";")[0].strip()
        if reply.status_code != 200 or media_type != "image/png" or not reply.content.startswith(PNG_SIGNATURE):
            raise ExtractionReplyError(
                f"{SERVICE} answered {reply.status_code} ({media_type or 'no content type'}) to {where}, "
                "not a PNG picture: is ASAT_EXTRACTION_URL the extraction service, of this release?"
            )
        return OriginalFile(content=reply.content, media_type=media_type)

    async def transactions(self, practice_id: int, limit: int = 200) -> TransactionList:
        return await self._call(practice_id, "GET", "/v1/transactions", TransactionList, params={"limit": limit})

    async def correct(self, practice_id: int, transaction_id: UUID, body: dict[str, Any]) -> Transaction:
        """``PATCH /v1/transactions/{id}``: ``{who, changes, review_status, note}``."""
        return await self._call(practice_id, "PATCH", f"/v1/transactions/{transaction_id}", Transaction, json=body)

    async def _request(self, practice_id: int, method: str, path: str, **kwargs: Any) -> httpx.Response:
        headers = self._auth | {PRACTICE_HEADER: str(practice_id)}
        try:
            return await self._client.request(method, f"{self.base_url}{path}", headers=headers, **kwargs)
        except httpx.HTTPError as exc:
            raise ExtractionUnavailable(
                f"{SERVICE} at {self.base_url} cannot be reached ({type(exc).__name__}: {exc}); {START_HINT}"
            ) from exc

    async def _call(self, practice_id: int, method: str, path: str, model: type[Reply], **kwargs: Any) -> Reply:
        reply = await self._request(practice_id, method, path, **kwargs)
        where = f"{method} {path}"
        self._raise_for(reply, where)
        if reply.status_code != 200:
            raise ExtractionReplyError(f"{SERVICE} answered {reply.status_code} to {where}")
        try:
            return model.model_validate_json(reply.content)
        except ValidationError as exc:
            raise ExtractionReplyError(
                f"{SERVICE} sent a reply to {where} that is not a {model.__name__} "
                f"({describe_validation_error(exc)}): is ASAT_EXTRACTION_URL the extraction service, of this release?"
            ) from exc

    def _raise_for(self, reply: httpx.Response, where: str) -> None:
        if reply.status_code < 400:
            return
        message = _message(reply)
        if reply.status_code == 503:
            raise ExtractionUnavailable(f"{SERVICE} cannot answer now (503): {message}")
        if reply.status_code in REFUSALS:
            raise ExtractionRejected(reply.status_code, message)
        raise ExtractionReplyError(f"{SERVICE} answered {reply.status_code} to {where}: {message}")


def _message(reply: httpx.Response) -> str:
    try:
        body = reply.json()
    except ValueError:
        return reply.text[:300] or reply.reason_phrase
    if isinstance(body, dict):
        text = body.get("message") or body.get("detail") or body.get("error")
        if text:
            return str(text)
    return reply.text[:300]
