"""The Documents pages' data: the review view's fields and source lines, and a correction read from a form.

The extraction service keeps each field's provenance (page and the exact line it was read from),
not the document's whole text. So the review view lists the lines the fields were read from, page
by page, each once, and every field points at its line (``line-N``): a click highlights it and
marks the page it is on. A PDF's pages and an image's frames are shown as pictures (``page-N``),
each rendered by extraction (``page_count`` in its reply) and relayed through the web's origin.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from asat_web.extraction_client import FIELDS, DocumentDetail, Provenance, Transaction

LABELS = {
    "kind": "Kind",
    "supplier_name": "Supplier",
    "supplier_abn": "Supplier ABN",
    "abn_valid": "ABN checksum valid",
    "invoice_number": "Invoice number",
    "issue_date": "Issue date",
    "currency": "Currency",
    "total_amount": "Total",
    "gst_amount": "GST",
    "gst_registered_supplier": "GST-registered supplier",
    "line_items": "Line items",
}
KINDS = ("invoice", "receipt", "credit_note")
BOOLEAN_FIELDS = frozenset({"abn_valid", "gst_registered_supplier"})
AMOUNT_FIELDS = frozenset({"total_amount", "gst_amount"})
# Line items are shown, not corrected here (the API takes a whole list; corrections are per field).
EDITABLE = tuple(name for name in FIELDS if name != "line_items")
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


@dataclass
class SourceLine:
    id: str
    page: int
    text: str
    fields: list[str] = field(default_factory=list)


@dataclass
class FieldRow:
    name: str
    label: str
    value: str
    original: str | None  # the extracted value, when a correction changed it
    confidence: float
    reason: str | None
    line_id: str | None
    warnings: list[str]


@dataclass(frozen=True)
class PageImage:
    number: int
    id: str  # page-N: the element a field's line marks
    src: str
    alt: str


@dataclass
class ReviewView:
    fields: list[FieldRow]
    lines: list[SourceLine]
    line_items: list[dict[str, Any]]
    is_image: bool
    pages: list[PageImage] = field(default_factory=list)


def page_images(detail: DocumentDetail) -> list[PageImage]:
    """One picture per page (a TIFF's frames are its pages), each with alt text naming it."""
    document, count = detail.document, detail.page_count or 0
    return [
        PageImage(
            number=n,
            id=f"page-{n}",
            src=f"/documents/{document.id}/pages/{n}",
            alt=f"Page {n} of {count} of the uploaded document {document.filename}",
        )
        for n in range(1, count + 1)
    ]


def show(value: Any) -> str:
    """A value as the pages show it: none is an em dash, booleans are yes/no, line items a count."""
    if value is None or value == "":
        return "\u2014"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return f"{len(value)} item{'s' if len(value) != 1 else ''}"
    return str(value)


def review_view(detail: DocumentDetail) -> ReviewView:
    transaction = detail.transaction
    extraction = transaction.extraction
    lines: dict[tuple[int, str], SourceLine] = {}

    def line_of(provenance: Provenance | None, label: str) -> str | None:
        if provenance is None or not provenance.text.strip():
            return None
        key = (provenance.page, provenance.text)
        if key not in lines:
            lines[key] = SourceLine(f"line-{len(lines) + 1}", provenance.page, provenance.text)
        lines[key].fields.append(label)
        return lines[key].id

    warnings: dict[str | None, list[str]] = {}
    for warning in extraction.warnings:
        warnings.setdefault(warning.field, []).append(warning.message)
    rows: list[FieldRow] = []
    for name in FIELDS:
        reading = extraction.field(name)
        current = transaction.values.get(name, reading.value)
        extracted = transaction.original.get(name, reading.value)
        rows.append(
            FieldRow(
                name=name,
                label=LABELS[name],
                value=show(current),
                original=show(extracted) if current != extracted else None,
                confidence=reading.confidence,
                reason=reading.reason,
                line_id=line_of(reading.provenance, LABELS[name]),
                warnings=warnings.get(name, []),
            )
        )
    items = [
        {
            "description": item.description,
            "amount": item.amount,
            "quantity": item.quantity,
            "line_id": line_of(item.provenance, f"Line item: {item.description}"),
        }
        for item in extraction.line_items_read()
    ]
    ordered = sorted(lines.values(), key=lambda line: (line.page, int(line.id.split("-")[1])))
    return ReviewView(rows, ordered, items, detail.document.media_type in IMAGE_TYPES, page_images(detail))


def warning_count(transaction: Transaction) -> int:
    return len(transaction.extraction.warnings)


def parse_change(name: str, raw: str) -> Any:
    """The corrected value for the API from the form's text; ValueError says what to type."""
    text = raw.strip()
    if name not in EDITABLE:
        raise ValueError(f"the field {name!r} cannot be corrected here: choose one of {', '.join(EDITABLE)}")
    if not text:
        return None
    if name == "kind":
        word = text.lower().replace(" ", "_")
        if word not in KINDS:
            raise ValueError(f"the kind {text!r} is not one of invoice, receipt, credit note")
        return word
    if name in BOOLEAN_FIELDS:
        word = text.lower()
        if word in ("yes", "true", "y"):
            return True
        if word in ("no", "false", "n"):
            return False
        raise ValueError(f"{LABELS[name]}: type yes or no, not {text!r}")
    if name == "supplier_abn":
        return "".join(text.split())
    if name in AMOUNT_FIELDS:
        return text.replace("$", "").replace(",", "").replace(" ", "")
    if name == "currency":
        return text.upper()
    return text
