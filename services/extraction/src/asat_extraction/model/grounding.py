"""Grounding: a model's field is kept only where its value occurs in the document's own text.

The verifier's principle applied to fields. The model's reply (``payload``) is read field by field
and each value is looked for in the document's lines (text layer or OCR); provenance (page and
line) comes from where it was found, never from the model. The comparison is normalised per type:

- names and descriptions: whitespace collapsed, case ignored, whole words (value as printed is kept);
- the invoice number: whitespace collapsed, case kept, whole words;
- ABNs: digits only (``51 824 753 556`` and ``51824753556`` are the same);
- amounts: parsed equal to an amount printed with cents (``"1,100.00"`` and ``1100`` are the same);
  the sign comes from the document (credit notes are negative), never from the model;
- the issue date: a date printed in the text reads as the same day (an ambiguous day/month is
  resolved as the deterministic extractor does, and flagged when the document cannot settle it);
- kind, currency and GST registration: the words or symbols that say so are printed.

A value not found becomes null with the reason :data:`NOT_FOUND` and a ``model_value_not_found``
warning. ``abn_valid`` is the modulus-89 checksum of the grounded ABN, never the model's opinion.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from asat_corpus.text.abn import abn_is_valid
from asat_extraction.dates import document_order, find_dates, resolve
from asat_extraction.document import DocumentText
from asat_extraction.extractor.lines import Line, document_lines
from asat_extraction.extractor.vocabulary import (
    ABN_LABEL,
    CURRENCY_CODE,
    CURRENCY_SYMBOL,
    GST,
    NOT_REGISTERED,
    NOT_TOTAL,
    SUBTOTAL,
    TAX_INVOICE,
    TOTAL,
)
from asat_extraction.fields import (
    DocumentKind,
    Evidence,
    Extraction,
    Field,
    LineItem,
    Provenance,
    Warning,
    found,
    missing,
)
from asat_extraction.money import MONEY, money_value

NOT_FOUND = "model value not found in the document text"
NO_TEXT = "the document has no text (nothing was read from it)"

CONFIDENCE = 0.8  # a model value found in the text
CONFIDENCE_LABELLED_AMOUNT = 0.85  # an amount found on a line labelled for it
CONFIDENCE_UNLABELLED = 0.6  # found, but not on a line labelled for it

_KIND_WORDS = {
    DocumentKind.CREDIT_NOTE: re.compile(r"\b(credit|adjustment)\s+note\b", re.I),
    DocumentKind.RECEIPT: re.compile(r"\breceipt\b", re.I),
    DocumentKind.INVOICE: re.compile(r"\binvoice\b", re.I),
}
_GST_FREE_MARK = re.compile(r"gst[\s\-]*free|\bno\s+gst\b|\bgst\s+exempt\b|[*«»]", re.I)
_NUMBER = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\d.,])\d+(?:\.\d+)?")
_WORD_EDGE = r"A-Za-z0-9_/'\-"  # a value must not continue into these ("42" is not in "INV-0042")


@dataclass(frozen=True)
class Hit:
    """Where a value was found: the line, and the value as the document prints it."""

    line: Line
    printed: str


# --- finding values in lines -------------------------------------------------------------------


def find_text(lines: Iterable[Line], value: str, *, ignore_case: bool) -> Hit | None:
    """The first line holding ``value`` as whole words (whitespace collapsed; case too if asked)."""
    tokens = value.split()
    if not tokens:
        return None
    pattern = re.compile(
        rf"(?<![{_WORD_EDGE}])" + r"\s+".join(re.escape(t) for t in tokens) + rf"(?![{_WORD_EDGE}])",
        re.I if ignore_case else 0,
    )
    for line in lines:
        match = pattern.search(line.text)
        if match:
            return Hit(line, match.group(0))
    return None


def find_abn(lines: Iterable[Line], digits: str) -> Hit | None:
    """The first line printing the 11 ``digits`` (spaces, dots or hyphens between them allowed)."""
    if len(digits) != 11 or not digits.isdigit():
        return None
    pattern = re.compile(r"(?<!\d)(?<!\d )" + r"[ .\-]?".join(digits) + r"(?! ?\d)")
    for line in lines:
        match = pattern.search(line.text)
        if match:
            return Hit(line, match.group(0))
    return None


def printed_amounts(line: Line) -> list[tuple[Decimal, str]]:
    """The amounts (with cents) printed on ``line``, signed as printed; parts of dates are not amounts."""
    dates = [(d.start, d.end) for d in find_dates(line.text)]
    amounts: list[tuple[Decimal, str]] = []
    for match in MONEY.finditer(line.text):
        if any(start < match.end() and match.start() < end for start, end in dates):
            continue
        amounts.append((money_value(match), match.group(0).strip()))
    return amounts


def find_amount(
    lines: Iterable[Line], value: Decimal, prefer: Callable[[str], bool] | None = None
) -> tuple[Hit, Decimal, bool] | None:
    """A line printing an amount equal to ``|value|``: (where, the printed signed amount, labelled).

    With ``prefer``, a line it accepts wins over an earlier one it does not.
    """
    first: tuple[Hit, Decimal, bool] | None = None
    for line in lines:
        for amount, printed in printed_amounts(line):
            if abs(amount) != abs(value):
                continue
            labelled = prefer is not None and prefer(line.text)
            if labelled or prefer is None:
                return Hit(line, printed), amount, labelled
            first = first or (Hit(line, printed), amount, False)
    return first


# --- reading the model's values ----------------------------------------------------------------


def model_text(raw: object) -> str | None:
    """A string value of the reply (stripped), or None for null, empty or a non-string."""
    if isinstance(raw, bool) or raw is None:
        return None
    if isinstance(raw, int | float):
        return str(raw)
    if isinstance(raw, str) and raw.strip():
        return raw.strip()
    return None


def model_amount(raw: object) -> Decimal | None:
    """An amount from the reply: a number, or a string such as ``"$1,100.00"`` or ``"1100"``."""
    if isinstance(raw, bool) or raw is None:
        return None
    if isinstance(raw, int | float):
        raw = repr(raw)
    if not isinstance(raw, str):
        return None
    cleaned = re.sub(r"[A-Za-z$€£,\s]", "", raw.strip())
    negative = cleaned.startswith("(") and cleaned.endswith(")")
    cleaned = cleaned.strip("()")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        return None
    if not value.is_finite():
        return None
    return -value if negative else value


def model_date(raw: object) -> date | None:
    """A date from the reply: ISO ``YYYY-MM-DD``, or a single unambiguous printed form."""
    text = model_text(raw)
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        pass
    matches = find_dates(text)
    if len(matches) == 1 and not matches[0].ambiguous:
        return matches[0].day_first or matches[0].month_first
    return None


# --- building the extraction --------------------------------------------------------------------


class _Grounder:
    def __init__(self, document: DocumentText, payload: Mapping[str, object]) -> None:
        self.lines = document_lines(document)
        self.payload = payload
        self.warnings: list[Warning] = []

    def dropped(self, field: str, shown: object, why: str = "") -> Field[Any]:
        detail = f" ({why})" if why else ""
        self.warnings.append(
            Warning(
                "model_value_not_found",
                f"the model gave {field} {shown!r}, which is not in the document text{detail}; it was dropped: "
                "read the field from the document",
                field,
            )
        )
        return missing(f"{NOT_FOUND}{detail}")

    def none_given(self, field: str) -> Field[Any]:
        return missing(f"the model found no {field.replace('_', ' ')} on the document")

    def kind(self) -> Field[DocumentKind]:
        raw = model_text(self.payload.get("kind"))
        if raw is None:
            return self.none_given("kind")
        try:
            kind = DocumentKind(raw.lower().replace(" ", "_"))
        except ValueError:
            return self.dropped("kind", raw, "not invoice, receipt or credit_note")
        for line in self.lines:
            if _KIND_WORDS[kind].search(line.text):
                return found(kind, CONFIDENCE, line.page, line.text)
        return self.dropped("kind", raw, f"no line says {kind.value.replace('_', ' ')}")

    def text(self, name: str, *, ignore_case: bool) -> Field[str]:
        raw = model_text(self.payload.get(name))
        if raw is None:
            return self.none_given(name)
        hit = find_text(self.lines, raw, ignore_case=ignore_case)
        if hit is None:
            return self.dropped(name, raw)
        return found(" ".join(hit.printed.split()), CONFIDENCE, hit.line.page, hit.line.text)

    def abn(self, name: str) -> Field[str]:
        raw = model_text(self.payload.get(name))
        if raw is None:
            return self.none_given(name)
        digits = re.sub(r"\D", "", raw)
        if len(digits) != 11:
            return self.dropped(name, raw, "not 11 digits")
        hit = find_abn(self.lines, digits)
        if hit is None:
            return self.dropped(name, raw)
        return found(digits, CONFIDENCE, hit.line.page, hit.line.text)

    def amount(self, name: str, kind: DocumentKind | None, prefer: Callable[[str], bool]) -> Field[Decimal]:
        raw = self.payload.get(name)
        value = model_amount(raw)
        if value is None:
            if model_text(raw) is None:
                return self.none_given(name)
            return self.dropped(name, raw, "not an amount")
        result = find_amount(self.lines, value, prefer)
        if result is None:
            return self.dropped(name, raw)
        hit, printed, labelled = result
        signed = -abs(printed) if kind is DocumentKind.CREDIT_NOTE else printed
        confidence = CONFIDENCE_LABELLED_AMOUNT if labelled else CONFIDENCE_UNLABELLED
        return found(signed, confidence, hit.line.page, hit.line.text)

    def issue_date(self) -> Field[date]:
        raw = self.payload.get("issue_date")
        value = model_date(raw)
        if value is None:
            if model_text(raw) is None:
                return self.none_given("issue_date")
            return self.dropped("issue_date", raw, "not a date")
        order = document_order(m for line in self.lines for m in find_dates(line.text))
        for line in self.lines:
            for match in find_dates(line.text):
                resolved, ambiguous = resolve(match, order)
                readings = {match.day_first, match.month_first}
                if value == resolved or (ambiguous and value in readings):
                    if ambiguous:
                        other = (readings - {value}).pop()
                        self.warnings.append(
                            Warning(
                                "issue_date_ambiguous",
                                f"issue date {match.text!r} reads as {value.isoformat()} or "
                                f"{other.isoformat() if other else '?'}, and no other date on the document settles "
                                "it: confirm the date",
                                "issue_date",
                            )
                        )
                    return found(value, CONFIDENCE, line.page, line.text)
        return self.dropped("issue_date", raw)

    def currency(self, total: Field[Decimal]) -> Field[str]:
        raw = model_text(self.payload.get("currency"))
        if raw is None:
            return self.none_given("currency")
        code = raw.upper()
        for line in self.lines:
            if code in CURRENCY_CODE.findall(line.text) or any(
                symbol in line.text and symbol_code == code for symbol, symbol_code in CURRENCY_SYMBOL.items()
            ):
                return found(code, CONFIDENCE, line.page, line.text)
        # As the deterministic extractor: a bare "$" on a document with an ABN or GST, and no other
        # currency shown, is Australian dollars.
        shown_any = any(CURRENCY_CODE.search(line.text) for line in self.lines)
        australian = any(ABN_LABEL.search(line.text) or GST.search(line.text) for line in self.lines)
        dollar = next((line for line in self.lines if "$" in line.text), None)
        if code == "AUD" and dollar is not None and australian and not shown_any:
            where = total.provenance or Provenance(dollar.page, dollar.text)
            return found(code, CONFIDENCE_UNLABELLED, where.page, where.text)
        return self.dropped("currency", raw)

    def registered(self) -> Field[bool]:
        raw = self.payload.get("gst_registered_supplier")
        if not isinstance(raw, bool):
            return self.none_given("gst_registered_supplier")
        for line in self.lines:
            if raw is False and NOT_REGISTERED.search(line.text):
                return found(False, CONFIDENCE, line.page, line.text)
            if raw is True and not NOT_REGISTERED.search(line.text):
                charged = GST.search(line.text) and any(value != 0 for value, _ in printed_amounts(line))
                if charged or TAX_INVOICE.search(line.text):
                    return found(True, CONFIDENCE, line.page, line.text)
        why = "nothing on it says the supplier is " + ("registered" if raw else "not registered") + " for GST"
        return self.dropped("gst_registered_supplier", raw, why)

    def line_items(self, kind: DocumentKind | None) -> Field[tuple[LineItem, ...]]:
        raw = self.payload.get("line_items")
        if not isinstance(raw, list) or not raw:
            return self.none_given("line_items")
        items: list[LineItem] = []
        for index, entry in enumerate(raw, start=1):
            item = self._item(entry, kind) if isinstance(entry, Mapping) else None
            if item is None:
                self.warnings.append(
                    Warning(
                        "model_value_not_found",
                        f"the model gave line item {index} ({_shown(entry)}), which is not a row of the document "
                        "text; it was dropped: check the line items",
                        "line_items",
                    )
                )
            else:
                items.append(item)
        if not items:
            return missing(f"{NOT_FOUND} (no line item the model gave is a row of the document)")
        first = items[0].provenance
        assert first is not None
        return Field(tuple(items), CONFIDENCE, first)

    def _item(self, entry: Mapping[str, object], kind: DocumentKind | None) -> LineItem | None:
        description = model_text(entry.get("description"))
        amount = model_amount(entry.get("amount"))
        if description is None or amount is None:
            return None
        for line in self.lines:
            hit = find_text([line], description, ignore_case=True)
            if hit is None:
                continue
            printed = [value for value, _ in printed_amounts(line) if abs(value) == abs(amount)]
            if not printed:
                continue
            unit = model_amount(entry.get("unit_amount"))
            unit_printed = [v for v, _ in printed_amounts(line) if unit is not None and abs(v) == abs(unit)]
            quantity = model_amount(entry.get("quantity"))
            if quantity is not None and not any(
                Decimal(n.replace(",", "")) == quantity for n in _NUMBER.findall(line.text)
            ):
                quantity = None
            return LineItem(
                description=" ".join(hit.printed.split()),
                amount=_signed(printed[0], kind),
                quantity=quantity,
                unit_amount=_signed(unit_printed[0], kind) if unit_printed else None,
                gst_free=entry.get("gst_free") is True and bool(_GST_FREE_MARK.search(line.text)),
                provenance=Provenance(line.page, line.text),
            )
        return None

    def evidence(self, kind: DocumentKind | None, items: tuple[LineItem, ...]) -> Evidence:
        subtotal = self.amount_quietly("subtotal", kind, lambda text: bool(SUBTOTAL.search(text)))
        buyer = model_text(self.payload.get("buyer_name"))
        buyer_hit = find_text(self.lines, buyer, ignore_case=True) if buyer else None
        buyer_abn = re.sub(r"\D", "", model_text(self.payload.get("buyer_abn")) or "")
        gst_free = [item.amount for item in items if item.gst_free]
        return Evidence(
            subtotal=subtotal,
            gst_free_part=sum(gst_free, Decimal(0)) if gst_free else None,
            buyer_name=" ".join(buyer_hit.printed.split()) if buyer_hit else None,
            buyer_abn=buyer_abn if find_abn(self.lines, buyer_abn) else None,
            is_tax_invoice=any(TAX_INVOICE.search(line.text) for line in self.lines),
        )

    def amount_quietly(self, name: str, kind: DocumentKind | None, prefer: Callable[[str], bool]) -> Decimal | None:
        value = model_amount(self.payload.get(name))
        result = find_amount(self.lines, value, prefer) if value is not None else None
        return _signed(result[1], kind) if result else None


def _signed(value: Decimal, kind: DocumentKind | None) -> Decimal:
    return -abs(value) if kind is DocumentKind.CREDIT_NOTE else value


def _shown(entry: object) -> str:
    if isinstance(entry, Mapping):
        return f"{entry.get('description')!r} {entry.get('amount')!r}"
    return repr(entry)


def _is_total(text: str) -> bool:
    return bool(TOTAL.search(text)) and not NOT_TOTAL.search(text)


def _is_gst(text: str) -> bool:
    return bool(GST.search(text))


def blank_extraction(extractor: str, reason: str = NO_TEXT) -> Extraction:
    """Every field null with ``reason``: the document has no text to ground a value in."""
    return Extraction(
        kind=missing(reason), supplier_name=missing(reason), supplier_abn=missing(reason),
        abn_valid=missing(reason), invoice_number=missing(reason), issue_date=missing(reason),
        currency=missing(reason), total_amount=missing(reason), gst_amount=missing(reason),
        gst_registered_supplier=missing(reason), line_items=missing(reason),
        warnings=(Warning("no_text", reason + ": check the file is a document and not blank"),),
        extractor=extractor,
    )  # fmt: skip


def ground(document: DocumentText, payload: Mapping[str, object], extractor: str) -> Extraction:
    """The extraction keeping only the model's values that occur in ``document``'s text."""
    g = _Grounder(document, payload)
    if not g.lines:
        return blank_extraction(extractor)
    kind = g.kind()
    supplier_abn = g.abn("supplier_abn")
    abn_valid: Field[bool] = (
        Field(abn_is_valid(supplier_abn.value), 1.0, supplier_abn.provenance)
        if supplier_abn.value is not None
        else missing("no supplier ABN to check")
    )
    total = g.amount("total_amount", kind.value, _is_total)
    gst = g.amount("gst_amount", kind.value, _is_gst)
    items = g.line_items(kind.value)
    return Extraction(
        kind=kind,
        supplier_name=g.text("supplier_name", ignore_case=True),
        supplier_abn=supplier_abn,
        abn_valid=abn_valid,
        invoice_number=g.text("invoice_number", ignore_case=False),
        issue_date=g.issue_date(),
        currency=g.currency(total),
        total_amount=total,
        gst_amount=gst,
        gst_registered_supplier=g.registered(),
        line_items=items,
        evidence=g.evidence(kind.value, items.value or ()),
        warnings=tuple(g.warnings),
        extractor=extractor,
    )
