"""Field checks: each failure is a warning naming the numbers, never a corrected value."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from asat_extraction.checks.abn_check import check_supplier_abn
from asat_extraction.checks.buyer_check import check_buyer_identity
from asat_extraction.checks.gst_check import check_gst
from asat_extraction.checks.sum_check import check_line_items_sum

CENTS = st.integers(min_value=1, max_value=10_000_000).map(lambda c: Decimal(c) / 100)


def test_invalid_abn_warns() -> None:
    (warning,) = check_supplier_abn("51824753557", is_tax_invoice=True)
    assert warning.code == "abn_checksum" and "51824753557" in warning.message


def test_valid_abn_and_missing_abn_on_plain_invoice_pass() -> None:
    assert check_supplier_abn("51824753556", is_tax_invoice=True) == []
    assert check_supplier_abn(None, is_tax_invoice=False) == []


def test_tax_invoice_without_abn_warns() -> None:
    assert [w.code for w in check_supplier_abn(None, is_tax_invoice=True)] == ["abn_missing"]


def test_gst_one_eleventh() -> None:
    assert check_gst(Decimal("110.00"), Decimal("10.00"), None) == []
    (warning,) = check_gst(Decimal("110.00"), Decimal("11.00"), None)
    assert warning.code == "gst_mismatch" and "11.00" in warning.message and "110.00" in warning.message


def test_gst_with_stated_gst_free_part() -> None:
    assert check_gst(Decimal("120.00"), Decimal("10.00"), Decimal("10.00")) == []
    assert check_gst(Decimal("120.00"), Decimal("10.91"), Decimal("10.00"))  # ignoring the GST-free part is wrong


def test_gst_free_part_larger_than_total() -> None:
    assert [w.code for w in check_gst(Decimal("10.00"), Decimal("1.00"), Decimal("20.00"))] == [
        "gst_free_exceeds_total"
    ]


def test_credit_note_negative_amounts() -> None:
    assert check_gst(Decimal("-110.00"), Decimal("-10.00"), None) == []


@given(taxable=CENTS, free=st.integers(0, 100_000).map(lambda c: Decimal(c) / 100))
def test_correctly_rounded_gst_never_warns(taxable: Decimal, free: Decimal) -> None:
    gst = (taxable / 11).quantize(Decimal("0.01"))
    assert check_gst(taxable + free, gst, free if free else None) == []


@given(taxable=CENTS.filter(lambda v: v > 1))
def test_gst_off_by_more_than_tolerance_always_warns(taxable: Decimal) -> None:
    gst = (taxable / 11).quantize(Decimal("0.01")) + Decimal("0.05")
    assert [w.code for w in check_gst(taxable, gst, None)] == ["gst_mismatch"]


def test_line_items_sum_to_total_subtotal_or_total_less_gst() -> None:
    items = [Decimal("10.00"), Decimal("20.00")]
    assert check_line_items_sum(items, None, Decimal("30.00"), None) == []
    assert check_line_items_sum(items, Decimal("30.00"), Decimal("33.00"), Decimal("3.00")) == []
    assert check_line_items_sum(items, None, Decimal("33.00"), Decimal("3.00")) == []
    (warning,) = check_line_items_sum(items, None, Decimal("40.00"), None)
    assert warning.code == "line_items_sum" and "30.00" in warning.message


@given(st.lists(CENTS, min_size=1, max_size=20))
def test_items_summing_to_the_total_never_warn(amounts: list[Decimal]) -> None:
    assert check_line_items_sum(amounts, None, sum(amounts, Decimal(0)), None) == []


def test_buyer_identity_at_1000() -> None:
    assert [w.code for w in check_buyer_identity(True, Decimal("1000.00"), "AUD", None, None)] == [
        "buyer_identity_missing"
    ]
    assert check_buyer_identity(True, Decimal("999.99"), "AUD", None, None) == []
    assert check_buyer_identity(True, Decimal("5000.00"), "AUD", "Jane Citizen", None) == []
    assert check_buyer_identity(True, Decimal("5000.00"), "AUD", None, "51824753556") == []
    assert check_buyer_identity(False, Decimal("5000.00"), "AUD", None, None) == []
    assert check_buyer_identity(True, Decimal("5000.00"), "USD", None, None) == []
