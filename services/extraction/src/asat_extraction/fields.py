"""What an extraction is: each field's value beside its provenance and confidence, or null with a reason.

Values are kept typed here (Decimal, date); ``serialise`` turns them into the JSON edge
(decimal strings, ISO dates).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from enum import StrEnum
from typing import Generic, TypeVar

T = TypeVar("T")

FIELD_NAMES = (
    "kind",
    "supplier_name",
    "supplier_abn",
    "abn_valid",
    "invoice_number",
    "issue_date",
    "currency",
    "total_amount",
    "gst_amount",
    "gst_registered_supplier",
    "line_items",
)


class DocumentKind(StrEnum):
    INVOICE = "invoice"
    RECEIPT = "receipt"
    CREDIT_NOTE = "credit_note"


@dataclass(frozen=True)
class Provenance:
    """The page the value was read from and the exact text it was read from (one line, as shown)."""

    page: int
    text: str


@dataclass(frozen=True)
class Field(Generic[T]):
    """A value with its provenance and confidence in [0, 1]; or ``value=None`` with ``reason`` why."""

    value: T | None
    confidence: float = 0.0
    provenance: Provenance | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be in [0, 1], got {self.confidence}")
        if self.value is None and not self.reason:
            raise ValueError("a null field needs a reason saying why it is null")


def found(value: T, confidence: float, page: int, text: str) -> Field[T]:
    return Field(value=value, confidence=confidence, provenance=Provenance(page, text.strip()))


def missing(reason: str) -> Field[T]:
    return Field(value=None, reason=reason)


@dataclass(frozen=True)
class LineItem:
    description: str
    amount: Decimal
    quantity: Decimal | None = None
    unit_amount: Decimal | None = None
    gst_free: bool = False
    provenance: Provenance | None = None


@dataclass(frozen=True)
class Warning:
    """A failed check or a doubt: ``code`` for machines, ``message`` says what and what to do."""

    code: str
    message: str
    field: str | None = None


@dataclass(frozen=True)
class Evidence:
    """What the checks need beyond the output fields (shown on the document, or None)."""

    subtotal: Decimal | None = None
    gst_free_part: Decimal | None = None
    buyer_name: str | None = None
    buyer_abn: str | None = None
    is_tax_invoice: bool = False


@dataclass(frozen=True)
class Extraction:
    kind: Field[DocumentKind]
    supplier_name: Field[str]
    supplier_abn: Field[str]
    abn_valid: Field[bool]
    invoice_number: Field[str]
    issue_date: Field[date]
    currency: Field[str]
    total_amount: Field[Decimal]
    gst_amount: Field[Decimal]
    gst_registered_supplier: Field[bool]
    line_items: Field[tuple[LineItem, ...]]
    evidence: Evidence = Evidence()
    warnings: tuple[Warning, ...] = field(default=())
    extractor: str = "deterministic"
