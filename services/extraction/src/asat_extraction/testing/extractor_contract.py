"""The contract every extractor adapter meets (deterministic, and model adapters when added)."""

from __future__ import annotations

import pytest

from asat_extraction.document import DocumentText, InputKind, Page
from asat_extraction.extractor.port import Extractor
from asat_extraction.fields import FIELD_NAMES, Extraction, Field

INVOICE = """Harbourside Plumbing Pty Ltd
12 George Street
Sydney NSW 2000
ABN 51 824 753 556
TAX INVOICE
Invoice No: INV-00042\tDate: 19/03/2024
Bill To: Northwind Traders Pty Ltd
Description\tQty\tUnit Price\tAmount
Copper pipe 15mm\t3\t12.50\t37.50
\tSubtotal\t$37.50
\tGST\t$3.75
\tTotal (inc GST)\t$41.25
"""


def document(text: str) -> DocumentText:
    return DocumentText((Page(1, text, "test page 1"),), InputKind.TEXT, "text/plain")


class ExtractorContract:
    @pytest.fixture
    def extractor(self) -> Extractor:
        raise NotImplementedError("define an 'extractor' fixture returning the adapter under test")

    def test_has_a_name(self, extractor: Extractor) -> None:
        assert extractor.name.strip()

    def test_every_field_has_a_value_with_provenance_or_a_reason(self, extractor: Extractor) -> None:
        result = extractor.extract(document(INVOICE))
        for name in FIELD_NAMES:
            field: Field[object] = getattr(result, name)
            assert 0.0 <= field.confidence <= 1.0
            if field.value is None:
                assert field.reason
            elif name != "kind":
                assert field.provenance is not None

    def test_provenance_text_is_in_the_document(self, extractor: Extractor) -> None:
        result = extractor.extract(document(INVOICE))
        flat = " ".join(INVOICE.split())
        for name in FIELD_NAMES:
            field: Field[object] = getattr(result, name)
            if field.provenance is not None:
                assert field.provenance.text in flat
                assert field.provenance.page == 1

    def test_blank_document_gives_nulls_with_reasons(self, extractor: Extractor) -> None:
        result: Extraction = extractor.extract(document("   \n"))
        for name in FIELD_NAMES:
            field: Field[object] = getattr(result, name)
            assert field.value is None and field.reason

    def test_same_text_same_answer(self, extractor: Extractor) -> None:
        assert extractor.extract(document(INVOICE)) == extractor.extract(document(INVOICE))
