"""Money and date parsing."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from asat_extraction.dates import Order, document_order, find_dates, resolve
from asat_extraction.money import display_money, format_money, parse_money


def test_money_forms() -> None:
    assert parse_money("$1,234.50") == Decimal("1234.50")
    assert parse_money("-$12.00") == Decimal("-12.00")
    assert parse_money("($12.00)") == Decimal("-12.00")
    assert parse_money("12.00 CR") == Decimal("-12.00")
    assert parse_money("12") is None


@given(st.integers(-(10**9), 10**9).map(lambda c: Decimal(c) / 100))
def test_money_round_trip(value: Decimal) -> None:
    assert parse_money(display_money(value)) == value
    assert format_money(value) == f"{value:.2f}"


def test_written_and_iso_dates() -> None:
    assert [d.day_first for d in find_dates("5 March 2024, 2024-03-06 and Mar 7, 2024")] == [
        date(2024, 3, 5), date(2024, 3, 6), date(2024, 3, 7)
    ]  # fmt: skip


def test_ambiguous_date_is_day_first_and_flagged_without_evidence() -> None:
    (match,) = find_dates("Date: 05/03/2024")
    assert match.ambiguous
    assert resolve(match, document_order([match])) == (date(2024, 3, 5), True)


def test_document_evidence_settles_order() -> None:
    matches = find_dates("Date: 03/05/2024 Due: 03/19/2024")
    order = document_order(matches)
    assert order is Order.MONTH_FIRST
    assert resolve(matches[0], order) == (date(2024, 3, 5), False)
    matches = find_dates("Date: 05/03/2024 Due: 19/03/2024")
    assert resolve(matches[0], document_order(matches)) == (date(2024, 3, 5), False)


@given(st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31)))
def test_day_first_numeric_round_trip(value: date) -> None:
    (match,) = find_dates(value.strftime("%d/%m/%Y"))
    assert resolve(match, Order.DAY_FIRST)[0] == value
