"""Every prompt and the reply schema the model adapters send, in one place.

The model is asked to copy each value exactly as the document prints it; whatever it answers,
:mod:`asat_extraction.model.grounding` keeps a value only where it occurs in the document's own
text (its text layer or OCR), so the prompt is advice and the grounding is the rule.
"""

from __future__ import annotations

from typing import Any

from asat_extraction.document import DocumentText

SCHEMA_NAME = "record_fields"

SYSTEM = (
    "You read Australian invoices, receipts and credit notes and record their fields. "
    "Copy every value exactly as it is printed in the document text you are given: the supplier's name, "
    "the ABN digits, the invoice number, amounts with their cents (e.g. 1,100.00). "
    "Give the issue date as YYYY-MM-DD (Australian documents print dates day first). "
    "Never compute, total, convert or guess a value: when the document does not print a field, give null. "
    "The supplier is the business that issued the document, not the customer it is billed to. "
    "Any picture of the page is only there to help you read the text; a value that is not in the text "
    "is discarded."
)

_NULLABLE_STRING: dict[str, Any] = {"type": ["string", "null"]}


def _string(description: str) -> dict[str, Any]:
    return {**_NULLABLE_STRING, "description": description}


LINE_ITEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["description", "amount", "quantity", "unit_amount", "gst_free"],
    "properties": {
        "description": {"type": "string", "description": "the item's description as printed"},
        "amount": {"type": "string", "description": "the line's amount as printed, with cents"},
        "quantity": _string("the quantity as printed, or null"),
        "unit_amount": _string("the unit price as printed, or null"),
        "gst_free": {"type": "boolean", "description": "true when the line is marked GST-free"},
    },
}

FIELDS: dict[str, dict[str, Any]] = {
    "kind": {
        "type": ["string", "null"],
        "enum": ["invoice", "receipt", "credit_note", None],
        "description": "what the document's title calls it (an adjustment note is a credit_note)",
    },
    "supplier_name": _string("the issuing business's name as printed"),
    "supplier_abn": _string("the issuing business's ABN as printed (11 digits), not the customer's"),
    "invoice_number": _string("the document's own number (not a PO or original invoice number)"),
    "issue_date": _string("the issue date as YYYY-MM-DD"),
    "currency": _string("the ISO 4217 code, e.g. AUD"),
    "total_amount": _string("the total including GST as printed"),
    "gst_amount": _string("the GST amount as printed"),
    "gst_registered_supplier": {
        "type": ["boolean", "null"],
        "description": "true when the document charges GST or is a tax invoice; false when it says the supplier "
        "is not registered for GST; else null",
    },
    "subtotal": _string("the amount before GST as printed"),
    "buyer_name": _string("the customer's name as printed"),
    "buyer_abn": _string("the customer's ABN as printed"),
    "line_items": {"type": "array", "items": LINE_ITEM_SCHEMA},
}

SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": list(FIELDS),
    "properties": FIELDS,
}


def render_user(document: DocumentText) -> str:
    """The user turn: the document's text page by page, then the instruction."""
    parts = ["The document's text, page by page:"]
    for page in document.pages:
        parts.append(f"--- page {page.number} ---\n{page.text.strip()}")
    parts.append(f"--- end ---\nRecord the fields of this document with {SCHEMA_NAME} (JSON only).")
    return "\n".join(parts)
