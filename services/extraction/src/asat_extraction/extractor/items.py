"""Line items: rows with a description and a trailing amount, between an item header and the totals.

A header ("Description ... Amount") opens a table and a summary line (subtotal, total, GST, balance)
closes it; a header repeated on a later page opens it again. A document without a header (a till
receipt) is read from its start to its first summary line. Quantity and unit price are kept only
when the row shows them and they multiply to the amount, or when shown as "2 x ..." / "@ 4.50".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from asat_extraction.dates import find_dates
from asat_extraction.extractor.lines import Line
from asat_extraction.extractor.vocabulary import ABN, ITEM_HEADER, NOT_ITEM

CENT = Decimal("0.01")
_STOP = re.compile(
    r"^\W*(sub\s*-?\s*total|total|gst|amount\s+(due|paid|payable)|balance|less\b|includes?\s+gst|rounding|"
    r"tax\s+(total|amount)|payment|eftpos|cash|card|change|visa|mastercard|amex)",
    re.I,
)
_TOKEN = r"[-(]?\$?\d[\d,]*(?:\.\d+)?\)?"
_ROW = re.compile(
    rf"^(?P<desc>.*?[A-Za-z].*?)\s+(?P<tail>(?:{_TOKEN}\s+)*[-(]?\$?\d[\d,]*\.\d{{2}}\)?)(?P<flag>\s*[*«»]|\s+CR)?$"
)
_PREFIX_QTY = re.compile(r"^(?P<qty>\d+(?:\.\d+)?)\s*[xX]\s+")
_AT_UNIT = re.compile(r"\s*@\s*\$?(?P<unit>\d[\d,]*\.\d{2})(\s*(each|ea))?\s*$", re.I)


@dataclass(frozen=True)
class ItemFound:
    description: str
    amount: Decimal
    quantity: Decimal | None
    unit_amount: Decimal | None
    gst_free: bool
    line: Line


def _number(token: str) -> Decimal | None:
    try:
        return Decimal(token.strip("()$").replace(",", "").replace("$", ""))
    except InvalidOperation:
        return None


def parse_row(line: Line) -> ItemFound | None:
    match = _ROW.match(line.text)
    if match is None:
        return None
    tokens = match.group("tail").split()
    values = [_number(token) for token in tokens]
    if any(value is None for value in values):
        return None
    numbers: list[Decimal] = [value for value in values if value is not None]
    amount = numbers[-1]
    if tokens[-1].startswith(("-", "(")):
        amount = -abs(amount)
    quantity: Decimal | None = None
    unit: Decimal | None = None
    used = 1
    for qty_at, unit_at in ((-3, -2), (-4, -3)):
        if len(numbers) >= -qty_at and abs(numbers[qty_at] * numbers[unit_at] - abs(amount)) <= CENT:
            quantity, unit, used = numbers[qty_at], numbers[unit_at], -qty_at
            break
    if quantity is None and len(numbers) == 2 and "." not in tokens[0]:
        quantity, used = numbers[0], 2
    description = " ".join([match.group("desc"), *tokens[: len(tokens) - used]]).strip()
    prefix = _PREFIX_QTY.match(description)
    if prefix and quantity is None:
        quantity = Decimal(prefix.group("qty"))
        description = description[prefix.end() :]
    at = _AT_UNIT.search(description)
    if at:
        unit = unit or _number(at.group("unit"))
        description = description[: at.start()]
    description = description.strip(" .:-–")
    if len(re.findall(r"[A-Za-z]", description)) < 2:
        return None
    gst_free = bool(match.group("flag") and match.group("flag").strip() in ("*", "«", "»"))
    return ItemFound(description, amount, quantity, unit, gst_free, line)


def find_items(lines: list[Line]) -> list[ItemFound]:
    has_header = any(ITEM_HEADER.search(line.text) for line in lines)
    inside = not has_header
    items: list[ItemFound] = []
    for line in lines:
        if ITEM_HEADER.search(line.text):
            inside = True
            continue
        if _STOP.match(line.text) or re.match(r"^\W*(carried|brought)\s+forward", line.text, re.I):
            inside = False if has_header else inside
            if not has_header:
                break
            continue
        if not inside or NOT_ITEM.search(line.text) or ABN.search(line.text) or find_dates(line.text):
            continue
        item = parse_row(line)
        if item is not None:
            items.append(item)
    return items
