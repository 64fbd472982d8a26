"""The HTTP API's request and response bodies (pydantic at the edge)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from asat_extraction.store.records import ReviewStatus, StoredDocument, Transaction

AMOUNT_PATTERN = r"^-?\d+\.\d{2}$"


class DocumentOut(BaseModel):
    id: UUID
    filename: str
    media_type: str
    sha256: str
    size: int
    created_at: datetime

    @classmethod
    def of(cls, document: StoredDocument) -> DocumentOut:
        return cls(**document.__dict__)


class CorrectionOut(BaseModel):
    who: str
    at: datetime
    changes: dict[str, Any]
    before: dict[str, Any]
    note: str | None


class TransactionOut(BaseModel):
    id: UUID
    document_id: UUID
    extractor: str
    review_status: ReviewStatus
    values: dict[str, Any]
    original: dict[str, Any]
    extraction: dict[str, Any]
    corrections: list[CorrectionOut]
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, t: Transaction) -> TransactionOut:
        return cls(
            id=t.id, document_id=t.document_id, extractor=t.extractor, review_status=t.review_status,
            values=t.values, original=t.original, extraction=t.extraction,
            corrections=[CorrectionOut(**c.__dict__) for c in t.corrections], created_at=t.created_at,
            updated_at=t.updated_at,
        )  # fmt: skip


class UploadResult(BaseModel):
    filename: str
    status: Literal["created", "existing", "error"]
    document: DocumentOut | None = None
    transaction: TransactionOut | None = None
    cause: str | None = None
    message: str | None = None


class UploadResponse(BaseModel):
    results: list[UploadResult]


class DocumentDetail(BaseModel):
    document: DocumentOut
    transaction: TransactionOut
    page_count: int | None = Field(
        default=None,
        description="pages of a PDF or frames of an image, each shown by GET /v1/documents/{id}/pages/{page}; "
        "null for a document without pages (email, text)",
    )


class LineItemIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    description: str = Field(min_length=1)
    amount: str = Field(pattern=AMOUNT_PATTERN)
    quantity: str | None = Field(default=None, pattern=r"^\d+(\.\d+)?$")
    unit_amount: str | None = Field(default=None, pattern=r"^-?\d+\.\d{2}$")


class FieldChanges(BaseModel):
    """Corrected values; fields left out stay as they are."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["invoice", "receipt", "credit_note"] | None = None
    supplier_name: str | None = None
    supplier_abn: str | None = Field(default=None, pattern=r"^\d{11}$")
    abn_valid: bool | None = None
    invoice_number: str | None = None
    issue_date: date | None = None
    currency: str | None = Field(default=None, pattern=r"^[A-Z]{3}$")
    total_amount: str | None = Field(default=None, pattern=AMOUNT_PATTERN)
    gst_amount: str | None = Field(default=None, pattern=AMOUNT_PATTERN)
    gst_registered_supplier: bool | None = None
    line_items: list[LineItemIn] | None = None


class TransactionPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    who: str = Field(min_length=1, max_length=200, description="who made the correction or review")
    changes: FieldChanges = Field(default_factory=FieldChanges)
    review_status: Literal["confirmed", "corrected", "rejected"] | None = None
    note: str | None = Field(default=None, max_length=2000)


class TransactionList(BaseModel):
    transactions: list[TransactionOut]


class Health(BaseModel):
    status: str
    extractor: str
    database: str
