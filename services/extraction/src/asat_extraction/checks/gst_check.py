"""Check: GST is 1/11 of the taxable part of a GST-inclusive total, the taxable part being the total
less any stated GST-free part.

Rounding: a supplier may round GST per line, so the tolerance is one cent plus half a cent per line.
"""

from __future__ import annotations

from decimal import Decimal

from asat_extraction.fields import Warning
from asat_extraction.money import format_money

ELEVEN = Decimal(11)


def gst_tolerance(line_count: int) -> Decimal:
    return Decimal("0.01") + Decimal("0.005") * max(line_count, 0)


def expected_gst(total: Decimal, gst_free_part: Decimal | None) -> Decimal:
    """1/11 of (total - GST-free part), unrounded; signs follow the total (credit notes negative)."""
    return (total - (gst_free_part or Decimal(0))) / ELEVEN


def check_gst(
    total: Decimal | None, gst: Decimal | None, gst_free_part: Decimal | None, line_count: int = 0
) -> list[Warning]:
    if total is None or gst is None:
        return []
    if gst_free_part is not None and abs(gst_free_part) > abs(total):
        return [
            Warning(
                "gst_free_exceeds_total",
                f"the stated GST-free part {format_money(gst_free_part)} is larger than the total "
                f"{format_money(total)}: check both amounts on the document",
                "gst_amount",
            )
        ]
    expected = expected_gst(total, gst_free_part)
    if abs(gst - expected) <= gst_tolerance(line_count):
        return []
    if gst == 0:
        return []  # GST of nil is the no-GST case, judged by the registration check instead
    free = f" less the GST-free part {format_money(gst_free_part)}" if gst_free_part is not None else ""
    return [
        Warning(
            "gst_mismatch",
            f"GST {format_money(gst)} is not 1/11 of the total {format_money(total)}{free} "
            f"(expected about {format_money(expected)}): the document may have GST-free items it does not "
            "state, or an error; check the GST before claiming a credit",
            "gst_amount",
        )
    ]
