"""The transactions a push reads, and where it reads them from (the ``TransactionSource`` port).

In the product, transactions and their documents live in the extraction service; a library may
not import it (``.importlinter``), so they are read over its HTTP API (``HttpTransactionSource``)
or, in tests, from memory (``InMemoryTransactionSource``). Both pass one contract suite
(``services/connections/tests/transaction_source_contract.py``).

A transaction is extraction's flat values (``asat_extraction.schema.flat_values``, corrections
applied) read into ``SourceTransaction``: amounts as ``Decimal``, dates as ``date``. Extraction
does not read a due date yet; a ``due_date`` value is used when one appears.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol
from uuid import UUID

import httpx

from asat_connections.errors import SourceNotFoundError, SourceUnavailableError

REVIEWED = frozenset({"confirmed", "corrected"})
PRACTICE_HEADER = "X-AsAt-Practice"
PAGE_LIMIT = 1000  # extraction's largest page of GET /v1/transactions


@dataclass(frozen=True)
class SourceLine:
    description: str
    amount: Decimal
    quantity: Decimal | None = None
    unit_amount: Decimal | None = None


@dataclass(frozen=True)
class SourceTransaction:
    """One transaction as reviewed: extraction's values, typed."""

    id: UUID
    document_id: UUID
    review_status: str  # pending | confirmed | corrected | rejected
    kind: str | None = None  # invoice | receipt | credit_note
    supplier_name: str | None = None
    supplier_abn: str | None = None
    invoice_number: str | None = None
    issue_date: date | None = None
    due_date: date | None = None
    currency: str | None = None
    total_amount: Decimal | None = None
    gst_amount: Decimal | None = None
    gst_registered_supplier: bool | None = None
    line_items: tuple[SourceLine, ...] = ()

    @property
    def reviewed(self) -> bool:
        return self.review_status in REVIEWED


@dataclass(frozen=True)
class SourceDocument:
    """A transaction's original file (PDF or image), as uploaded."""

    id: UUID
    filename: str
    media_type: str
    content: bytes = field(repr=False)


class TransactionSource(Protocol):
    """Transactions and documents of one practice. Implementations are safe to share between threads."""

    def transactions(self, practice_id: int, ids: Sequence[UUID]) -> dict[UUID, SourceTransaction]:
        """The practice's transactions among ``ids``; an id it does not have (or another practice's)
        is absent from the answer. ``SourceUnavailableError`` when the source cannot be read."""
        ...

    def document(self, practice_id: int, document_id: UUID) -> SourceDocument:
        """The document's bytes, file name and media type; ``SourceNotFoundError`` when the practice
        has no such document."""
        ...


def _decimal(value: object, name: str) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        raise ValueError(f"{name} {value!r} is not an amount") from None
    if not amount.is_finite():
        raise ValueError(f"{name} {value!r} is not an amount")
    return amount


def _date(value: object, name: str) -> date | None:
    if value is None or value == "":
        return None
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f"{name} {value!r} is not a date (YYYY-MM-DD)") from None


def _text(value: object) -> str | None:
    if value is None:
        return None
    text = " ".join(str(value).split())
    return text or None


def _bool(value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def transaction_from_values(
    transaction_id: UUID, document_id: UUID, review_status: str, values: Mapping[str, Any]
) -> SourceTransaction:
    """Extraction's flat values (with corrections) as a ``SourceTransaction``; ``ValueError`` naming
    the field when a value is not of its kind."""
    items_raw = values.get("line_items") or []
    if not isinstance(items_raw, list):
        raise ValueError("line_items is not a list")
    items: list[SourceLine] = []
    for position, raw in enumerate(items_raw, start=1):
        if not isinstance(raw, Mapping):
            raise ValueError(f"line item {position} is not an object")
        amount = _decimal(raw.get("amount"), f"line item {position} amount")
        if amount is None:
            raise ValueError(f"line item {position} has no amount")
        items.append(
            SourceLine(
                description=_text(raw.get("description")) or f"Item {position}",
                amount=amount,
                quantity=_decimal(raw.get("quantity"), f"line item {position} quantity"),
                unit_amount=_decimal(raw.get("unit_amount"), f"line item {position} unit_amount"),
            )
        )
    return SourceTransaction(
        id=transaction_id,
        document_id=document_id,
        review_status=review_status,
        kind=_text(values.get("kind")),
        supplier_name=_text(values.get("supplier_name")),
        supplier_abn=_text(values.get("supplier_abn")),
        invoice_number=_text(values.get("invoice_number")),
        issue_date=_date(values.get("issue_date"), "issue_date"),
        due_date=_date(values.get("due_date"), "due_date"),
        currency=_text(values.get("currency")),
        total_amount=_decimal(values.get("total_amount"), "total_amount"),
        gst_amount=_decimal(values.get("gst_amount"), "gst_amount"),
        gst_registered_supplier=_bool(values.get("gst_registered_supplier")),
        line_items=tuple(items),
    )


class InMemoryTransactionSource:
    """``TransactionSource`` in dictionaries (tests, and the web's tests of the push pages)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._transactions: dict[tuple[int, UUID], SourceTransaction] = {}
        self._documents: dict[tuple[int, UUID], SourceDocument] = {}

    def add(self, practice_id: int, transaction: SourceTransaction, document: SourceDocument) -> None:
        if transaction.document_id != document.id:
            raise ValueError("the transaction's document_id is not the document's id")
        with self._lock:
            self._transactions[(practice_id, transaction.id)] = transaction
            self._documents[(practice_id, document.id)] = document

    def transactions(self, practice_id: int, ids: Sequence[UUID]) -> dict[UUID, SourceTransaction]:
        with self._lock:
            return {i: t for i in ids if (t := self._transactions.get((practice_id, i))) is not None}

    def document(self, practice_id: int, document_id: UUID) -> SourceDocument:
        with self._lock:
            found = self._documents.get((practice_id, document_id))
        if found is None:
            raise SourceNotFoundError(f"document {document_id} is not one of practice {practice_id}'s")
        return found


class HttpTransactionSource:
    """``TransactionSource`` over the extraction service's HTTP API (port 8750).

    Every request carries ``Authorization: Bearer <service token>`` and ``X-AsAt-Practice``.
    Extraction has no ``GET /v1/transactions/{id}`` yet, so ``transactions`` pages through ``GET
    /v1/transactions`` (1000 a page) until every id asked for is found or the list ends; a document
    is ``GET /v1/documents/{id}`` (file name, media type) and ``GET /v1/documents/{id}/file``.
    """

    def __init__(
        self, base_url: str, service_token: str | None, client: httpx.Client | None = None, timeout_s: float = 30.0
    ) -> None:
        self._base = base_url.rstrip("/")
        self._token = service_token
        self._client = client if client is not None else httpx.Client(timeout=timeout_s)

    def close(self) -> None:
        self._client.close()

    def _headers(self, practice_id: int) -> dict[str, str]:
        headers = {PRACTICE_HEADER: str(practice_id), "Accept": "application/json"}
        if self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        return headers

    def _get(self, practice_id: int, path: str, params: Mapping[str, str | int] | None = None) -> httpx.Response:
        url = f"{self._base}{path}"
        try:
            response = self._client.get(url, params=params, headers=self._headers(practice_id))
        except httpx.HTTPError as exc:
            raise SourceUnavailableError(
                f"the extraction service at {self._base} could not be reached ({type(exc).__name__}): start it "
                "with `python -m asat_extraction serve` (or `make up`)"
            ) from None
        if response.status_code == 401:
            raise SourceUnavailableError(
                "the extraction service refused the service token (HTTP 401): give the connections the stack's "
                "token (ASAT_SERVICE_TOKEN)"
            )
        if response.status_code == 404:
            raise SourceNotFoundError(f"the extraction service has no {path} for practice {practice_id}")
        if response.status_code != 200:
            raise SourceUnavailableError(
                f"the extraction service answered HTTP {response.status_code} to GET {path}: {_message(response)}"
            )
        return response

    def transactions(self, practice_id: int, ids: Sequence[UUID]) -> dict[UUID, SourceTransaction]:
        wanted = set(ids)
        found: dict[UUID, SourceTransaction] = {}
        offset = 0
        while wanted - found.keys():
            page = _json(self._get(practice_id, "/v1/transactions", {"limit": PAGE_LIMIT, "offset": offset}))
            rows = page.get("transactions") if isinstance(page, dict) else None
            if not isinstance(rows, list):
                raise SourceUnavailableError("the extraction service's GET /v1/transactions has no transactions list")
            for row in rows:
                parsed = _transaction_row(row)
                if parsed.id in wanted:
                    found[parsed.id] = parsed
            if len(rows) < PAGE_LIMIT:
                break
            offset += PAGE_LIMIT
        return found

    def document(self, practice_id: int, document_id: UUID) -> SourceDocument:
        detail = _json(self._get(practice_id, f"/v1/documents/{document_id}"))
        document = detail.get("document") if isinstance(detail, dict) else None
        if not isinstance(document, dict):
            raise SourceUnavailableError(f"the extraction service's GET /v1/documents/{document_id} has no document")
        content = self._get(practice_id, f"/v1/documents/{document_id}/file").content
        return SourceDocument(
            id=document_id,
            filename=str(document.get("filename") or f"{document_id}"),
            media_type=str(document.get("media_type") or "application/octet-stream"),
            content=content,
        )


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        raise SourceUnavailableError("the extraction service answered something other than JSON") from None


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return "no JSON body"
    message = body.get("message") if isinstance(body, dict) else None
    return str(message)[:300] if message else "no message"


def _transaction_row(row: object) -> SourceTransaction:
    if not isinstance(row, dict):
        raise SourceUnavailableError("the extraction service listed a transaction that is not an object")
    try:
        values = row.get("values")
        if not isinstance(values, dict):
            raise ValueError("values is not an object")
        return transaction_from_values(
            UUID(str(row["id"])), UUID(str(row["document_id"])), str(row["review_status"]), values
        )
    except (KeyError, ValueError) as exc:
        raise SourceUnavailableError(f"the extraction service listed a transaction of the wrong shape: {exc}") from None
