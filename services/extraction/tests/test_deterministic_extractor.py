"""The deterministic extractor: the contract, and the distractors it must not fall for."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from asat_extraction.extractor.deterministic import DeterministicExtractor
from asat_extraction.extractor.port import Extractor
from asat_extraction.fields import DocumentKind, Extraction
from asat_extraction.testing.extractor_contract import INVOICE, ExtractorContract, document


class TestDeterministicContract(ExtractorContract):
    @pytest.fixture
    def extractor(self) -> Extractor:
        return DeterministicExtractor()


def extract(text: str) -> Extraction:
    return DeterministicExtractor().extract(document(text))


def test_reads_the_standard_invoice() -> None:
    e = extract(INVOICE)
    assert e.kind.value is DocumentKind.INVOICE
    assert e.supplier_name.value == "Harbourside Plumbing Pty Ltd"
    assert e.supplier_abn.value == "51824753556" and e.abn_valid.value is True
    assert e.invoice_number.value == "INV-00042"
    assert e.issue_date.value == date(2024, 3, 19)
    assert (e.currency.value, e.total_amount.value, e.gst_amount.value) == ("AUD", Decimal("41.25"), Decimal("3.75"))
    assert e.gst_registered_supplier.value is True
    items = e.line_items.value
    assert items is not None and len(items) == 1
    assert (items[0].description, items[0].quantity, items[0].unit_amount) == ("Copper pipe 15mm", 3, Decimal("12.50"))
    assert e.total_amount.provenance is not None and e.total_amount.provenance.text == "Total (inc GST) $41.25"


def test_customer_abn_po_number_and_balance_due_are_not_mistaken() -> None:
    text = """Bill To:\tInvoice No: 7781
Northwind Traders Pty Ltd\tPO Number: PO-99123
ABN 53 004 085 616\tDate: 19/03/2024
Description\tAmount
Consulting\t1,100.00
Total\t$1,100.00
GST\t$100.00
Less amount paid\t$500.00
Balance due\t$600.00
Harbourside Plumbing Pty Ltd | ABN 51 824 753 556
TAX INVOICE
"""
    e = extract(text)
    assert e.supplier_abn.value == "51824753556"
    assert e.supplier_name.value == "Harbourside Plumbing Pty Ltd"
    assert e.evidence.buyer_abn == "53004085616"
    assert e.invoice_number.value == "7781"
    assert e.total_amount.value == Decimal("1100.00")


def test_only_a_customer_abn_gives_null_supplier_abn_with_reason() -> None:
    e = extract("INVOICE\nInvoice No: 12\nCustomer ABN: 53 004 085 616\nTotal $10.00\n")
    assert e.supplier_abn.value is None and e.supplier_abn.reason and "customer" in e.supplier_abn.reason
    assert e.abn_valid.value is None


def test_credit_note_is_negative_and_uses_its_own_number() -> None:
    e = extract("CREDIT NOTE\nOriginal Invoice No: INV-1\nCredit Note No: CN-77\nTotal credit $110.00\nGST $10.00\n")
    assert e.kind.value is DocumentKind.CREDIT_NOTE
    assert e.invoice_number.value == "CN-77"
    assert (e.total_amount.value, e.gst_amount.value) == (Decimal("-110.00"), Decimal("-10.00"))


def test_ambiguous_date_is_flagged() -> None:
    e = extract("TAX INVOICE\nDate: 05/03/2024\nTotal $11.00\n")
    assert e.issue_date.value == date(2024, 3, 5)
    assert "issue_date_ambiguous" in [w.code for w in e.warnings]


def test_not_registered_supplier() -> None:
    e = extract("Jo's Gardening\nABN 51 824 753 556\nINVOICE\nTotal $200.00\nNot registered for GST.\n")
    assert e.gst_registered_supplier.value is False
    assert e.gst_amount.value is None and e.gst_amount.reason


def test_foreign_currency_and_month_first_evidence() -> None:
    e = extract("Cloudsoft Inc.\nINVOICE\nInvoice No: CS-1\nDate: 03/05/2024\nDue: 03/19/2024\nTotal USD $500.00\n")
    assert e.currency.value == "USD"
    assert e.issue_date.value == date(2024, 3, 5)
    assert e.gst_registered_supplier.value is None


def test_totals_on_the_last_page_only() -> None:
    from asat_extraction.document import DocumentText, InputKind, Page

    pages = (
        Page(
            1,
            "Acme Pty Ltd\nABN 51 824 753 556\nTAX INVOICE\nDescription\tAmount\nWidget\t10.00\nContinued on next page",
            "p1",
        ),
        Page(2, "Description\tAmount\nGadget\t12.00\nTotal\t$22.00\nGST\t$2.00", "p2"),
    )
    e = DeterministicExtractor().extract(DocumentText(pages, InputKind.TEXT_PDF, "application/pdf"))
    assert e.total_amount.value == Decimal("22.00")
    assert e.total_amount.provenance is not None and e.total_amount.provenance.page == 2
    assert [i.description for i in e.line_items.value or ()] == ["Widget", "Gadget"]


def test_receipt_with_gst_included_line() -> None:
    e = extract(
        "Bean There Cafe\nABN 51 824 753 556\nTAX INVOICE / RECEIPT\n2 x Flat White @ 4.50\t9.00\nTotal\t$9.00\nIncludes GST of\t$0.82\n"
    )
    assert e.kind.value is DocumentKind.RECEIPT
    assert e.gst_amount.value == Decimal("0.82")
    items = e.line_items.value or ()
    assert [(i.description, i.quantity, i.unit_amount) for i in items] == [("Flat White", 2, Decimal("4.50"))]
