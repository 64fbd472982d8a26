"""Check: the line items add up to the subtotal or the total (or, with GST, to the total)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from asat_extraction.fields import Warning
from asat_extraction.money import format_money

CENT = Decimal("0.01")


def check_line_items_sum(
    amounts: Sequence[Decimal], subtotal: Decimal | None, total: Decimal | None, gst: Decimal | None
) -> list[Warning]:
    if not amounts or total is None:
        return []
    items = sum(amounts, Decimal(0))
    targets = [total]
    if subtotal is not None:
        targets.append(subtotal)
    if gst is not None:
        targets.append(total - gst)
    if any(abs(items - target) <= CENT for target in targets):
        return []
    against = f"subtotal {format_money(subtotal)} or " if subtotal is not None else ""
    return [
        Warning(
            "line_items_sum",
            f"the {len(amounts)} line items add up to {format_money(items)}, not the {against}total "
            f"{format_money(total)}: a line may be missing or misread; compare the lines with the document",
            "line_items",
        )
    ]
