"""A reviewed transaction as a Xero bill (``ACCPAY`` invoice, ``DRAFT``), and the rules around it (pure).

- ``bill_problem``: why a transaction cannot become a bill (not reviewed, a credit note, no
  supplier, no total or date, a negative total), or None.
- ``choose_line_amount_type``: ``Inclusive``, ``Exclusive`` or ``NoTax``, as the document shows:
  no GST on it (none, zero, or an unregistered supplier) is ``NoTax``; line amounts adding up to
  the total are GST-inclusive; line amounts plus the GST making the total are GST-exclusive;
  otherwise ``Inclusive`` (Australian tax invoices show GST-inclusive prices) with a warning.
- ``bill_payload``: the ``Invoices`` element of ``PUT /Invoices``: the contact, the line items with
  the amounts as extracted (no account codes, no tax rates: left for the agent), the supplier's
  invoice number as ``InvoiceNumber`` (for a bill, Xero shows it as the reference), issue and due
  dates, the currency.
- ``pick_existing_bill``: of the bills a Xero search returned, the one this transaction already
  became (a retry after a timeout, or a duplicate reply), or None.

Fields follow ``xero_accounting.yaml`` (XeroAPI/Xero-OpenAPI): ``Invoice``, ``LineItem``,
``LineAmountTypes``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from asat_connections.transactions import SourceLine, SourceTransaction

BILL_TYPE = "ACCPAY"
BILL_STATUS = "DRAFT"
CENT = Decimal("0.01")
LIVE_STATUSES = ("DRAFT", "SUBMITTED", "AUTHORISED", "PAID")  # not DELETED or VOIDED
MAX_DESCRIPTION = 4000
MAX_INVOICE_NUMBER = 255
_MS_DATE = re.compile(r"^/Date\((-?\d+)([+-]\d{4})?\)/$")


class LineAmountType(StrEnum):
    INCLUSIVE = "Inclusive"
    EXCLUSIVE = "Exclusive"
    NO_TAX = "NoTax"


@dataclass(frozen=True)
class LineAmountChoice:
    type: LineAmountType
    reason: str
    warning: str | None = None  # set when the amounts do not settle it


@dataclass(frozen=True)
class BillLine:
    description: str
    amount: Decimal
    quantity: Decimal
    unit_amount: Decimal | None


def bill_problem(t: SourceTransaction) -> str | None:
    """Why ``t`` cannot be pushed as a bill; None when it can."""
    if not t.reviewed:
        return f"it is {t.review_status}, not reviewed: confirm or correct it first"
    if t.kind == "credit_note":
        return "it is a credit note: credit notes are not pushed as bills; enter it in Xero as a bill credit note"
    if not t.supplier_name:
        return "it has no supplier name: correct the transaction to add one"
    if t.total_amount is None:
        return "it has no total: correct the transaction to add it"
    if t.total_amount < 0:
        return "its total is negative: a bill's total cannot be; correct it or enter it in Xero as a credit note"
    if t.issue_date is None:
        return "it has no issue date: correct the transaction to add it"
    if t.due_date is not None and t.due_date < t.issue_date:
        return "its due date is before its issue date: correct the transaction"
    return None


def _sum(lines: Iterable[SourceLine]) -> Decimal:
    return sum((line.amount for line in lines), Decimal("0"))


def choose_line_amount_type(t: SourceTransaction) -> LineAmountChoice:
    """Whether the line amounts include GST, exclude it, or carry none, as the document shows."""
    gst = t.gst_amount
    if t.gst_registered_supplier is False:
        return LineAmountChoice(LineAmountType.NO_TAX, "the supplier is not registered for GST")
    if gst is None or gst == 0:
        return LineAmountChoice(LineAmountType.NO_TAX, "the document shows no GST")
    total = t.total_amount
    if not t.line_items or total is None:
        return LineAmountChoice(LineAmountType.INCLUSIVE, "one line for the total, which includes the GST shown")
    lines = _sum(t.line_items)
    if lines == total:
        return LineAmountChoice(LineAmountType.INCLUSIVE, "the line amounts add up to the total, which includes GST")
    if lines + gst == total:
        return LineAmountChoice(LineAmountType.EXCLUSIVE, "the line amounts plus the GST make the total")
    return LineAmountChoice(
        LineAmountType.INCLUSIVE,
        "the line amounts add up to neither the total nor the total less GST; GST-inclusive assumed",
        warning=(
            f"line amounts add up to {lines:.2f}, the total is {total:.2f} and GST {gst:.2f}: "
            "check the draft bill's lines in Xero"
        ),
    )


def bill_lines(t: SourceTransaction) -> tuple[BillLine, ...]:
    """The bill's lines: the line items as extracted, or one line for the total when there are none."""
    if not t.line_items:
        number = f" invoice {t.invoice_number}" if t.invoice_number else ""
        description = f"{t.supplier_name or 'Supplier'}{number}"
        return (BillLine(description[:MAX_DESCRIPTION], t.total_amount or Decimal("0"), Decimal("1"), None),)
    lines = []
    for item in t.line_items:
        quantity = item.quantity if item.quantity is not None and item.quantity > 0 else Decimal("1")
        unit = item.unit_amount
        consistent = unit is not None and (quantity * unit).quantize(CENT) == item.amount.quantize(CENT)
        lines.append(BillLine(item.description[:MAX_DESCRIPTION], item.amount, quantity, unit if consistent else None))
    return tuple(lines)


def _money(value: Decimal) -> float:
    return float(value.quantize(CENT))


def bill_payload(t: SourceTransaction, contact_id: str) -> dict[str, Any]:
    """The ``Invoice`` to send for ``t`` (check ``bill_problem`` first)."""
    choice = choose_line_amount_type(t)
    items: list[dict[str, Any]] = []
    for line in bill_lines(t):
        item: dict[str, Any] = {
            "Description": line.description,
            "Quantity": float(line.quantity),
            "LineAmount": _money(line.amount),
        }
        if line.unit_amount is not None:
            item["UnitAmount"] = float(line.unit_amount)
        items.append(item)
    bill: dict[str, Any] = {
        "Type": BILL_TYPE,
        "Status": BILL_STATUS,
        "Contact": {"ContactID": contact_id},
        "LineAmountTypes": choice.type.value,
        "LineItems": items,
    }
    if t.invoice_number:
        bill["InvoiceNumber"] = t.invoice_number[:MAX_INVOICE_NUMBER]
    if t.issue_date is not None:
        bill["Date"] = t.issue_date.isoformat()
    if t.due_date is not None:
        bill["DueDate"] = t.due_date.isoformat()
    if t.currency:
        bill["CurrencyCode"] = t.currency
    return bill


def xero_date(value: object) -> date | None:
    """A Xero date: ``/Date(1518685950940+0000)/`` or ``2018-02-15T00:00:00`` (or ``2018-02-15``)."""
    if not isinstance(value, str) or not value:
        return None
    match = _MS_DATE.match(value)
    if match:
        return (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=int(match.group(1)))).date()
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def _amount(value: object) -> Decimal | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        return Decimal(str(value)).quantize(CENT)
    except InvalidOperation:
        return None


def bill_matches(candidate: Mapping[str, Any], t: SourceTransaction, contact_id: str) -> bool:
    """Whether Xero's ``candidate`` invoice is the bill ``t`` became (same type, contact, number,
    date and line amounts), and is not deleted or voided."""
    if candidate.get("Type") != BILL_TYPE or candidate.get("Status") not in LIVE_STATUSES:
        return False
    contact = candidate.get("Contact")
    if not isinstance(contact, Mapping) or str(contact.get("ContactID", "")).lower() != contact_id.lower():
        return False
    if (candidate.get("InvoiceNumber") or None) != ((t.invoice_number or "")[:MAX_INVOICE_NUMBER] or None):
        return False
    when = xero_date(candidate.get("DateString")) or xero_date(candidate.get("Date"))
    if when != t.issue_date:
        return False
    expected = sum((line.amount for line in bill_lines(t)), Decimal("0")).quantize(CENT)
    items = candidate.get("LineItems")
    if isinstance(items, list) and items:
        amounts = [_amount(i.get("LineAmount")) if isinstance(i, Mapping) else None for i in items]
        if None not in amounts:
            return sum((a for a in amounts if a is not None), Decimal("0")) == expected
    totals = {_amount(candidate.get("SubTotal")), _amount(candidate.get("Total"))}
    return expected in totals


def pick_existing_bill(candidates: Iterable[Mapping[str, Any]], t: SourceTransaction, contact_id: str) -> str | None:
    """The ``InvoiceID`` of the candidate ``t`` already became; the oldest when several match."""
    matching = [c for c in candidates if bill_matches(c, t, contact_id) and c.get("InvoiceID")]
    return str(matching[0]["InvoiceID"]) if matching else None
