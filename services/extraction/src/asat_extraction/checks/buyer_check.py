"""Check: a tax invoice of $1,000 or more (GST-inclusive) shows the buyer's identity or ABN
(A New Tax System (Goods and Services Tax) Act 1999, s 29-70; GSTR 2013/1)."""

from __future__ import annotations

from decimal import Decimal

from asat_extraction.fields import Warning

BUYER_IDENTITY_THRESHOLD = Decimal("1000.00")


def check_buyer_identity(
    is_tax_invoice: bool, total: Decimal | None, currency: str | None, buyer_name: str | None, buyer_abn: str | None
) -> list[Warning]:
    if not is_tax_invoice or total is None or currency not in (None, "AUD"):
        return []
    if abs(total) < BUYER_IDENTITY_THRESHOLD or buyer_name or buyer_abn:
        return []
    return [
        Warning(
            "buyer_identity_missing",
            f"a tax invoice of ${abs(total):,} (at least $1,000) must show the buyer's identity or ABN and "
            "none was found: ask the supplier for a tax invoice that names the buyer",
            None,
        )
    ]
