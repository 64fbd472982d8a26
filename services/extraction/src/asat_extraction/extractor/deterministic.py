"""The default extractor: rules over the document's lines, no model. Same text, same answer."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from asat_corpus.text.abn import abn_is_valid
from asat_extraction.document import DocumentText
from asat_extraction.extractor.amounts import (
    AmountFound,
    CurrencyFound,
    find_currency,
    find_gst,
    find_gst_free_part,
    find_subtotal,
    find_total,
)
from asat_extraction.extractor.heading import find_issue_date, find_kind, find_number
from asat_extraction.extractor.items import find_items
from asat_extraction.extractor.lines import Line, document_lines
from asat_extraction.extractor.parties import bill_to_cells, buyer_name, find_abns, supplier_name
from asat_extraction.extractor.vocabulary import NOT_REGISTERED, TAX_INVOICE
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
from asat_extraction.money import format_money


def _signed(value: Decimal, kind: DocumentKind) -> Decimal:
    """Credit notes are negative, however the document prints them."""
    return -abs(value) if kind is DocumentKind.CREDIT_NOTE else value


def _amount_field(amount: AmountFound | None, kind: DocumentKind, reason: str) -> Field[Decimal]:
    if amount is None:
        return missing(reason)
    return found(_signed(amount.value, kind), 0.95 if amount.rank != 1 else 0.8, amount.line.page, amount.line.text)


class DeterministicExtractor:
    """Rules over lines; see the modules of ``asat_extraction.extractor`` for each field's rule."""

    @property
    def name(self) -> str:
        return "deterministic"

    def extract(self, document: DocumentText) -> Extraction:
        lines = document_lines(document)
        if not lines:
            reason = "the document has no text (nothing was read from it)"
            return Extraction(
                kind=missing(reason), supplier_name=missing(reason), supplier_abn=missing(reason),
                abn_valid=missing(reason), invoice_number=missing(reason), issue_date=missing(reason),
                currency=missing(reason), total_amount=missing(reason), gst_amount=missing(reason),
                gst_registered_supplier=missing(reason), line_items=missing(reason),
                warnings=(Warning("no_text", reason + ": check the file is a document and not blank"),),
            )  # fmt: skip
        warnings: list[Warning] = []
        kind_found = find_kind(lines)
        kind = kind_found.kind
        kind_field: Field[DocumentKind] = (
            found(kind, kind_found.confidence, kind_found.line.page, kind_found.line.text)
            if kind_found.line
            else Field(
                kind, kind_found.confidence, None, "no title says invoice, receipt or credit note; read as invoice"
            )
        )

        buyer_block = bill_to_cells(lines)
        abns = find_abns(lines, buyer_block)
        supplier = next((a for a in abns if not a.customer), None)
        buyer = next((a for a in abns if a.customer), None)
        abn_field: Field[str]
        valid_field: Field[bool]
        if supplier is None:
            reason = "no supplier ABN is shown" + (" (only a customer ABN)" if buyer else "")
            abn_field, valid_field = missing(reason), missing("no supplier ABN to check")
        else:
            abn_field = found(
                supplier.digits, 0.95 if supplier.labelled else 0.7, supplier.line.page, supplier.line.text
            )
            valid_field = found(abn_is_valid(supplier.digits), 1.0, supplier.line.page, supplier.line.text)

        name = supplier_name(lines, supplier, buyer_block)
        name_field: Field[str] = (
            found(name.name, name.confidence, name.line.page, name.line.text)
            if name
            else missing("no line reads as the supplier's name")
        )

        number = find_number(lines, kind)
        number_field: Field[str] = (
            found(number.value, number.confidence, number.line.page, number.line.text)
            if number
            else missing("no invoice, receipt or credit note number label is shown")
        )

        issued = find_issue_date(lines)
        date_field: Field[date]
        if issued is None:
            date_field = missing("no issue date is shown")
        else:
            date_field = found(issued.value, issued.confidence, issued.line.page, issued.line.text)
            if issued.ambiguous:
                warnings.append(
                    Warning(
                        "issue_date_ambiguous",
                        f"issue date {issued.match.text!r} reads as {issued.value.isoformat()} day-first (Australian) "
                        f"or {issued.alternative.isoformat() if issued.alternative else '?'} month-first, and no other "
                        "date on the document settles it: confirm the date",
                        "issue_date",
                    )
                )

        total = find_total(lines)
        total_field = _amount_field(total, kind, "no total is shown")
        gst = find_gst(lines)
        gst_field = _amount_field(gst, kind, "no GST amount is shown")

        currency = find_currency(lines, total.line if total else None)
        currency_field: Field[str] = (
            found(currency.code, currency.confidence, currency.line.page, currency.line.text)
            if isinstance(currency, CurrencyFound)
            else missing(currency)
        )

        registered_field = self._registration(lines, abn_field, gst, document_is_tax_invoice=any(
            TAX_INVOICE.search(line.text) for line in lines
        ))  # fmt: skip

        items = find_items(lines)
        line_items = tuple(
            LineItem(
                description=item.description,
                amount=_signed(item.amount, kind),
                quantity=item.quantity,
                unit_amount=None if item.unit_amount is None else _signed(item.unit_amount, kind),
                gst_free=item.gst_free,
                provenance=Provenance(item.line.page, item.line.text),
            )
            for item in items
        )
        items_field: Field[tuple[LineItem, ...]] = (
            Field(line_items, 0.85, Provenance(items[0].line.page, items[0].line.text))
            if items
            else missing("no line items are shown as rows with amounts")
        )

        gst_free_found = find_gst_free_part(lines)
        gst_free_part: Decimal | None = None
        if gst_free_found is not None:
            gst_free_part = _signed(gst_free_found.value, kind)
        elif any(item.gst_free for item in line_items):
            gst_free_part = sum((item.amount for item in line_items if item.gst_free), Decimal(0))
        subtotal = find_subtotal(lines)
        evidence = Evidence(
            subtotal=_signed(subtotal.value, kind) if subtotal else None,
            gst_free_part=gst_free_part,
            buyer_name=buyer_name(lines, buyer_block),
            buyer_abn=buyer.digits if buyer else None,
            is_tax_invoice=any(TAX_INVOICE.search(line.text) for line in lines),
        )
        if total is not None and total.rank == 1:
            warnings.append(
                Warning(
                    "total_from_amount_due",
                    f"no line is labelled as the total; the amount due {format_money(total.value)} was taken as the "
                    "total: check no part payment was deducted",
                    "total_amount",
                )
            )
        return Extraction(
            kind=kind_field,
            supplier_name=name_field,
            supplier_abn=abn_field,
            abn_valid=valid_field,
            invoice_number=number_field,
            issue_date=date_field,
            currency=currency_field,
            total_amount=total_field,
            gst_amount=gst_field,
            gst_registered_supplier=registered_field,
            line_items=items_field,
            evidence=evidence,
            warnings=tuple(warnings),
            extractor=self.name,
        )

    @staticmethod
    def _registration(
        lines: list[Line], abn: Field[str], gst: AmountFound | None, document_is_tax_invoice: bool
    ) -> Field[bool]:
        for line in lines:
            if NOT_REGISTERED.search(line.text):
                return found(False, 0.95, line.page, line.text)
        if gst is not None and gst.value != 0:
            return found(True, 0.9, gst.line.page, gst.line.text)
        if document_is_tax_invoice and abn.value is not None:
            tax_line = next(line for line in lines if TAX_INVOICE.search(line.text))
            return found(True, 0.8, tax_line.page, tax_line.text)
        return missing("no GST is charged and nothing says whether the supplier is registered for GST")
