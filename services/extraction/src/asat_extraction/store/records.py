"""What the store keeps: the original document, its transaction (values as extracted and as corrected), corrections."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from typing import Any
from uuid import UUID

JsonObject = dict[str, Any]


class ReviewStatus(StrEnum):
    PENDING = "pending"
    CONFIRMED = "confirmed"
    CORRECTED = "corrected"
    REJECTED = "rejected"


@dataclass(frozen=True)
class NewDocument:
    filename: str
    media_type: str
    sha256: str
    content: bytes
    extractor: str
    values: JsonObject  # flat field values (schema.flat_values)
    extraction: JsonObject  # the full extraction: provenance, confidence, warnings


@dataclass(frozen=True)
class StoredDocument:
    id: UUID
    filename: str
    media_type: str
    sha256: str
    size: int
    created_at: datetime


@dataclass(frozen=True)
class Correction:
    who: str
    at: datetime
    changes: JsonObject
    before: JsonObject
    note: str | None = None


@dataclass(frozen=True)
class Transaction:
    id: UUID
    document_id: UUID
    extractor: str
    values: JsonObject  # current values (with corrections applied)
    original: JsonObject  # values as extracted, never changed
    extraction: JsonObject
    review_status: ReviewStatus
    created_at: datetime
    updated_at: datetime
    corrections: tuple[Correction, ...] = field(default=())


@dataclass(frozen=True)
class TransactionFilter:
    review_status: ReviewStatus | None = None
    kind: str | None = None
    supplier_abn: str | None = None
    currency: str | None = None
    issued_from: date | None = None
    issued_to: date | None = None
    limit: int = 100
    offset: int = 0

    def matches(self, values: JsonObject, status: ReviewStatus) -> bool:
        issued = values.get("issue_date")
        issued_day = date.fromisoformat(issued) if isinstance(issued, str) else None
        return (
            (self.review_status is None or status is self.review_status)
            and (self.kind is None or values.get("kind") == self.kind)
            and (self.supplier_abn is None or values.get("supplier_abn") == self.supplier_abn)
            and (self.currency is None or values.get("currency") == self.currency)
            and (self.issued_from is None or (issued_day is not None and issued_day >= self.issued_from))
            and (self.issued_to is None or (issued_day is not None and issued_day <= self.issued_to))
        )
