"""Amounts by their labels: total, GST, subtotal, GST-free part; and the currency they are in.

The total is the last amount labelled as a total ("Total", "Total (inc GST)", "Grand total"),
never a subtotal, a GST total, a page total or a balance; "Amount due" is used only when the
document shows no total at all (after a part payment it is the balance, not the total).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

from asat_extraction.extractor.lines import Line
from asat_extraction.extractor.vocabulary import (
    ABN_LABEL,
    AMOUNT_DUE,
    CURRENCY_CODE,
    CURRENCY_SYMBOL,
    GST,
    GST_FREE_PART,
    GST_INCLUDED,
    INCLUSIVE,
    NOT_GST,
    NOT_TOTAL,
    SUBTOTAL,
    TOTAL,
)
from asat_extraction.money import MONEY, money_value

_ONLY_MONEY = re.compile(r"^\W{0,3}[A-Z]{0,3}\s?" + MONEY.pattern + r"\W{0,3}$")


@dataclass(frozen=True)
class AmountFound:
    value: Decimal
    line: Line
    rank: int = 0


def money_after(lines: list[Line], position: int, offset: int) -> Decimal | None:
    """The first amount on ``lines[position]`` after ``offset``; else the next line when it is only an amount."""
    match = MONEY.search(lines[position].text, offset)
    if match:
        return money_value(match)
    if position + 1 < len(lines):
        following = lines[position + 1]
        if following.page == lines[position].page and _ONLY_MONEY.match(following.text):
            found = MONEY.search(following.text)
            return money_value(found) if found else None
    return None


def find_total(lines: list[Line]) -> AmountFound | None:
    best: AmountFound | None = None
    for position, line in enumerate(lines):
        label = TOTAL.search(line.text)
        rank = 0
        if label and not NOT_TOTAL.search(line.text):
            rank = 3 if INCLUSIVE.search(line.text) else 2
        elif AMOUNT_DUE.search(line.text) and not NOT_TOTAL.search(line.text):
            label, rank = AMOUNT_DUE.search(line.text), 1
        if label is None or rank == 0:
            continue
        value = money_after(lines, position, label.end())
        if value is not None and (best is None or rank >= best.rank):
            best = AmountFound(value, line, rank)
    return best


def find_gst(lines: list[Line]) -> AmountFound | None:
    last: AmountFound | None = None
    for position, line in enumerate(lines):
        included = GST_INCLUDED.search(line.text)
        label = included or GST.search(line.text)
        if label is None:
            continue
        if included is None and (
            NOT_GST.search(line.text)
            or (TOTAL.search(line.text) and not re.search(r"total\s+gst|gst\s+total", line.text, re.I))
        ):
            continue
        value = money_after(lines, position, label.end())
        if value is not None:
            last = AmountFound(value, line)
    return last


def find_subtotal(lines: list[Line]) -> AmountFound | None:
    last: AmountFound | None = None
    for position, line in enumerate(lines):
        label = SUBTOTAL.search(line.text)
        if label:
            value = money_after(lines, position, label.end())
            if value is not None:
                last = AmountFound(value, line)
    return last


def find_gst_free_part(lines: list[Line]) -> AmountFound | None:
    last: AmountFound | None = None
    for position, line in enumerate(lines):
        label = GST_FREE_PART.search(line.text)
        if label is None or (label.start() > 0 and not label.group(1) and not label.group(2)):
            continue
        value = money_after(lines, position, label.end())
        if value is not None:
            last = AmountFound(value, line)
    return last


@dataclass(frozen=True)
class CurrencyFound:
    code: str
    line: Line
    confidence: float


def find_currency(lines: list[Line], total_line: Line | None) -> CurrencyFound | str:
    """The currency, or a reason why none is shown."""

    def codes(line: Line) -> list[str]:
        found = CURRENCY_CODE.findall(line.text)
        found += [code for symbol, code in CURRENCY_SYMBOL.items() if symbol in line.text]
        return found

    if total_line is not None and codes(total_line):
        return CurrencyFound(codes(total_line)[0], total_line, 0.95)
    counted: Counter[str] = Counter()
    first_line: dict[str, Line] = {}
    for line in lines:
        for code in codes(line):
            counted[code] += 1
            first_line.setdefault(code, line)
    if counted:
        code, _ = counted.most_common(1)[0]
        return CurrencyFound(code, first_line[code], 0.9)
    dollar = next((line for line in lines if "$" in line.text), None)
    australian = any(ABN_LABEL.search(line.text) or GST.search(line.text) for line in lines)
    if dollar is not None and australian:
        return CurrencyFound("AUD", total_line or dollar, 0.8)
    if dollar is not None:
        return "amounts show '$' but nothing says which dollar (no currency code, ABN or GST)"
    return "no currency code or symbol is shown"
