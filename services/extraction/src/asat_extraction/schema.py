"""The JSON edge (CLI output, HTTP API): pydantic models of an extraction, built from the dataclasses."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from asat_extraction.fields import Extraction, Field, LineItem
from asat_extraction.money import format_money

V = TypeVar("V")


class ProvenanceOut(BaseModel):
    page: int
    text: str


class FieldOut(BaseModel, Generic[V]):
    model_config = ConfigDict(frozen=True)
    value: V | None
    confidence: float
    provenance: ProvenanceOut | None
    reason: str | None


class LineItemOut(BaseModel):
    description: str
    amount: str
    quantity: str | None = None
    unit_amount: str | None = None
    gst_free: bool = False
    provenance: ProvenanceOut | None = None


class WarningOut(BaseModel):
    code: str
    message: str
    field: str | None = None


class ExtractionOut(BaseModel):
    """Each field beside its provenance (page, exact text) and confidence; null values carry a reason."""

    kind: FieldOut[Literal["invoice", "receipt", "credit_note"]]
    supplier_name: FieldOut[str]
    supplier_abn: FieldOut[str]
    abn_valid: FieldOut[bool]
    invoice_number: FieldOut[str]
    issue_date: FieldOut[str]
    currency: FieldOut[str]
    total_amount: FieldOut[str]
    gst_amount: FieldOut[str]
    gst_registered_supplier: FieldOut[bool]
    line_items: FieldOut[list[LineItemOut]]
    warnings: list[WarningOut]
    extractor: str


def _provenance(field: Field[object] | LineItem) -> ProvenanceOut | None:
    p = field.provenance
    return ProvenanceOut(page=p.page, text=p.text) if p else None


def _out(field: Field[V], value: object) -> dict[str, object]:
    return {
        "value": value,
        "confidence": field.confidence,
        "provenance": _provenance(field),  # type: ignore[arg-type]
        "reason": field.reason,
    }


def _text(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, Decimal):
        return format_money(value)
    if isinstance(value, date):
        return value.isoformat()
    return str(value.value if hasattr(value, "value") else value)


def _quantity(value: Decimal | None) -> str | None:
    return None if value is None else format(value.normalize(), "f")


def extraction_out(extraction: Extraction) -> ExtractionOut:
    items = extraction.line_items.value
    items_out = (
        None
        if items is None
        else [
            LineItemOut(
                description=item.description,
                amount=format_money(item.amount),
                quantity=_quantity(item.quantity),
                unit_amount=None if item.unit_amount is None else format_money(item.unit_amount),
                gst_free=item.gst_free,
                provenance=_provenance(item),
            )
            for item in items
        ]
    )
    e = extraction
    return ExtractionOut.model_validate(
        {
            "kind": _out(e.kind, _text(e.kind.value)),
            "supplier_name": _out(e.supplier_name, e.supplier_name.value),
            "supplier_abn": _out(e.supplier_abn, e.supplier_abn.value),
            "abn_valid": _out(e.abn_valid, e.abn_valid.value),
            "invoice_number": _out(e.invoice_number, e.invoice_number.value),
            "issue_date": _out(e.issue_date, _text(e.issue_date.value)),
            "currency": _out(e.currency, e.currency.value),
            "total_amount": _out(e.total_amount, _text(e.total_amount.value)),
            "gst_amount": _out(e.gst_amount, _text(e.gst_amount.value)),
            "gst_registered_supplier": _out(e.gst_registered_supplier, e.gst_registered_supplier.value),
            "line_items": _out(e.line_items, items_out),
            "warnings": [WarningOut(code=w.code, message=w.message, field=w.field) for w in e.warnings],
            "extractor": e.extractor,
        }
    )


def flat_values(extraction: ExtractionOut) -> dict[str, object]:
    """Just the values, as compared with truth files and written to CSV."""
    values: dict[str, object] = {}
    for name in ExtractionOut.model_fields:
        if name in ("warnings", "extractor"):
            continue
        field = getattr(extraction, name)
        value = field.value
        if name == "line_items" and value is not None:
            value = [item.model_dump(exclude={"provenance", "gst_free"}, exclude_none=True) for item in value]
        values[name] = value
    return values
