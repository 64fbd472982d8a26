"""Money amounts: parse the printed forms found on invoices into Decimal, and format them back.

Accepted: ``1,234.50``, ``$1,234.50``, ``-$12.00``, ``($12.00)``, ``12.00 CR``, ``A$12.00``. An amount
must show cents (two decimals); ``12`` alone is a quantity, not money.

Not ``asat_corpus.text.figures.read_figures``: that reads figures in running prose (``$2.5b``,
``ten dollars``, ``$300`` without cents, dollars only) and knows no credit forms, while an invoice
amount must show cents, may be negative by ``-``, parentheses or ``CR``, and may be in € or £.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")

MONEY = re.compile(
    r"(?P<open>\()?(?P<minus>-)?\s?(?P<symbol>(?:[A-Z]{2,3})?\$|€|£)?\s?(?P<minus2>-)?"
    r"(?P<number>\d{1,3}(?:,\d{3})+\.\d{2}|\d+\.\d{2})(?!\d)(?P<close>\))?(?P<cr>\s?CR\b)?"
)


def parse_money(text: str) -> Decimal | None:
    """The single amount ``text`` holds (surrounding spaces allowed), or None."""
    match = MONEY.fullmatch(text.strip())
    return money_value(match) if match else None


def money_value(match: re.Match[str]) -> Decimal:
    """The signed value of a ``MONEY`` match: minus sign, parentheses or ``CR`` make it negative."""
    value = Decimal(match.group("number").replace(",", ""))
    negative = bool(match.group("minus") or match.group("minus2") or match.group("cr"))
    negative = negative or bool(match.group("open") and match.group("close"))
    return -value if negative else value


def format_money(value: Decimal) -> str:
    """Two decimals, no grouping: ``Decimal('1234.5')`` -> ``'1234.50'``."""
    return str(value.quantize(CENT, rounding=ROUND_HALF_UP))


def display_money(value: Decimal, symbol: str = "$") -> str:
    """As printed on a document: ``$1,234.50`` (negative as ``-$1,234.50``)."""
    sign = "-" if value < 0 else ""
    return f"{sign}{symbol}{abs(value).quantize(CENT, rounding=ROUND_HALF_UP):,}"
