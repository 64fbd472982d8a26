"""Check: the supplier ABN passes the modulus-89 checksum; a tax invoice shows one."""

from __future__ import annotations

from asat_corpus.text.abn import abn_is_valid
from asat_extraction.fields import Warning


def check_supplier_abn(abn: str | None, is_tax_invoice: bool) -> list[Warning]:
    if abn is None:
        if is_tax_invoice:
            return [
                Warning(
                    "abn_missing",
                    "the document calls itself a tax invoice but no supplier ABN was found: "
                    "ask the supplier for a tax invoice that shows their ABN before claiming GST credits",
                    "supplier_abn",
                )
            ]
        return []
    if not abn_is_valid(abn):
        return [
            Warning(
                "abn_checksum",
                f"supplier ABN {abn} fails the modulus-89 checksum: it is mistyped or not an ABN; "
                "check it on the ABN Lookup before relying on this document",
                "supplier_abn",
            )
        ]
    return []
