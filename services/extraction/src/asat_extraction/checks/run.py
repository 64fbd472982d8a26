"""All field checks over an extraction, in a fixed order."""

from __future__ import annotations

from asat_extraction.checks.abn_check import check_supplier_abn
from asat_extraction.checks.buyer_check import check_buyer_identity
from asat_extraction.checks.gst_check import check_gst
from asat_extraction.checks.sum_check import check_line_items_sum
from asat_extraction.fields import Extraction, Warning


def run_checks(extraction: Extraction) -> tuple[Warning, ...]:
    evidence = extraction.evidence
    items = extraction.line_items.value or ()
    total = extraction.total_amount.value
    gst = extraction.gst_amount.value
    warnings = [
        *check_supplier_abn(extraction.supplier_abn.value, evidence.is_tax_invoice),
        *check_gst(total, gst, evidence.gst_free_part, len(items)),
        *check_line_items_sum([item.amount for item in items], evidence.subtotal, total, gst),
        *check_buyer_identity(
            evidence.is_tax_invoice, total, extraction.currency.value, evidence.buyer_name, evidence.buyer_abn
        ),
    ]
    return tuple(warnings)
