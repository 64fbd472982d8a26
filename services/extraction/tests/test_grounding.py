"""Grounding: a model's value is kept only where it occurs in the document's text (property tests)."""

from __future__ import annotations

import re
import string
from datetime import date
from decimal import Decimal
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.text.abn import abn_is_valid, format_abn
from asat_extraction.checks.run import run_checks
from asat_extraction.fields import FIELD_NAMES, DocumentKind, Extraction, Field
from asat_extraction.model.grounding import NOT_FOUND, ground, model_amount
from asat_extraction.money import display_money, format_money
from asat_extraction.testing.extractor_contract import INVOICE, document

NAME = "test:model"
amounts = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("9999999.99"), places=2)
abns = st.text(alphabet=string.digits, min_size=11, max_size=11).filter(lambda d: d[0] != "0")
words = st.text(alphabet=string.ascii_letters, min_size=2, max_size=10)
names = st.lists(words, min_size=1, max_size=4).map(" ".join)
dates = st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31))


def grounded(text: str, **payload: Any) -> Extraction:
    return ground(document(text), payload, NAME)


def reasons(field: Field[Any]) -> tuple[Any, str | None]:
    return field.value, field.reason


# --- amounts: parsed equal to an amount printed in the text ------------------------------------


@given(amounts, st.sampled_from(["plain", "display", "number", "grouped"]))
def test_a_printed_total_is_kept_however_the_model_writes_it(value: Decimal, form: str) -> None:
    text = f"TAX INVOICE\nTotal (inc GST)\t{display_money(value)}\n"
    given_as: object = {
        "plain": format_money(value),
        "display": display_money(value),
        "number": float(value),
        "grouped": f"{value:,}",
    }[form]
    e = grounded(text, total_amount=given_as)
    assert e.total_amount.value == value
    assert e.total_amount.provenance is not None
    assert display_money(value) in e.total_amount.provenance.text


@given(amounts, amounts)
def test_a_total_not_printed_is_null_with_a_warning(printed: Decimal, invented: Decimal) -> None:
    if printed == invented:
        return
    e = grounded(f"INVOICE\nTotal\t{display_money(printed)}\n", total_amount=format_money(invented))
    assert reasons(e.total_amount) == (None, NOT_FOUND)
    assert [(w.code, w.field) for w in e.warnings] == [("model_value_not_found", "total_amount")]


def test_1100_is_the_printed_1_100_00() -> None:
    e = grounded("INVOICE\nConsulting\t1,100.00\nTotal\t$1,100.00\n", total_amount=1100.00)
    assert e.total_amount.value == Decimal("1100.00")
    assert e.total_amount.provenance is not None and e.total_amount.provenance.text == "Total $1,100.00"


@given(amounts)
def test_a_credit_note_total_is_negative_whatever_sign_the_model_gives(value: Decimal) -> None:
    text = f"CREDIT NOTE\nTotal credit\t{display_money(value)}\n"
    for given_as in (format_money(value), format_money(-value)):
        e = grounded(text, kind="credit_note", total_amount=given_as)
        assert e.kind.value is DocumentKind.CREDIT_NOTE and e.total_amount.value == -value


def test_part_of_a_date_is_not_an_amount() -> None:
    e = grounded("INVOICE\nDate: 19.03.2024\nTotal $5.00\n", total_amount="19.03")
    assert e.total_amount.value is None


@given(st.text(max_size=12))
def test_model_amount_never_raises(raw: str) -> None:
    value = model_amount(raw)
    assert value is None or value.is_finite()


# --- ABNs: digits only; the checksum decides validity ---------------------------------------------


@given(abns, st.sampled_from(["grouped", "plain"]), st.sampled_from(["grouped", "plain", "dashed"]))
def test_a_printed_abn_is_kept_as_digits_and_checked(digits: str, printed_as: str, given_as: str) -> None:
    printed = format_abn(digits) if printed_as == "grouped" else digits
    model = {"grouped": format_abn(digits), "plain": digits, "dashed": "-".join(format_abn(digits).split())}[given_as]
    e = grounded(f"Acme Pty Ltd\nABN {printed}\nTAX INVOICE\n", supplier_abn=model)
    assert e.supplier_abn.value == digits
    assert e.abn_valid.value is abn_is_valid(digits)
    codes = [w.code for w in run_checks(e)]
    assert ("abn_checksum" in codes) is not abn_is_valid(digits)


@given(abns, abns)
def test_an_abn_not_printed_is_null(printed: str, invented: str) -> None:
    if printed == invented:
        return
    e = grounded(f"ABN {format_abn(printed)}\n", supplier_abn=format_abn(invented))
    assert reasons(e.supplier_abn) == (None, NOT_FOUND) and e.abn_valid.value is None


def test_an_invalid_abn_is_never_returned_as_valid() -> None:
    e = grounded("Acme Pty Ltd\nABN 51 824 753 557\nTAX INVOICE\n", supplier_abn="51824753557", abn_valid=True)
    assert (e.supplier_abn.value, e.abn_valid.value) == ("51824753557", False)
    assert "abn_checksum" in [w.code for w in run_checks(e)]


# --- names: whitespace and case ---------------------------------------------------------------------


@given(names, st.sampled_from([str.upper, str.lower, str.title, lambda s: "  " + s.replace(" ", "   ") + " "]))
def test_a_printed_name_is_kept_as_printed(name: str, alter: Any) -> None:
    e = grounded(f"{name} Pty Ltd\nTAX INVOICE\n", supplier_name=alter(name))
    assert e.supplier_name.value == name
    assert e.supplier_name.provenance is not None and e.supplier_name.provenance.text == f"{name} Pty Ltd"


def test_a_name_must_be_whole_words() -> None:
    e = grounded("Harbourside Plumbing Pty Ltd\n", supplier_name="Harbour")
    assert reasons(e.supplier_name) == (None, NOT_FOUND)


def test_the_invoice_number_keeps_its_case_and_whole_words() -> None:
    text = "INVOICE\nInvoice No: INV-00042\n"
    assert grounded(text, invoice_number="INV-00042").invoice_number.value == "INV-00042"
    assert grounded(text, invoice_number="inv-00042").invoice_number.value is None
    assert grounded(text, invoice_number="00042").invoice_number.value is None


# --- dates: the printed form parses to the same day ----------------------------------------------


@given(dates, st.sampled_from(["%d/%m/%Y", "%d %B %Y", "%Y-%m-%d", "%d-%b-%Y", "%B %d, %Y"]))
def test_a_printed_date_is_kept(day: date, form: str) -> None:
    e = grounded(f"INVOICE\nDate: {day.strftime(form)}\n", issue_date=day.isoformat())
    assert e.issue_date.value == day
    ambiguous = form == "%d/%m/%Y" and day.day <= 12 and day.day != day.month
    assert ("issue_date_ambiguous" in [w.code for w in e.warnings]) is ambiguous


@given(dates, dates)
def test_a_date_not_printed_is_null(printed: date, invented: date) -> None:
    if invented in (printed, _swapped(printed)):
        return
    e = grounded(f"INVOICE\nDate: {printed.strftime('%d/%m/%Y')}\n", issue_date=invented.isoformat())
    assert reasons(e.issue_date) == (None, NOT_FOUND)


def _swapped(day: date) -> date | None:
    try:
        return date(day.year, day.day, day.month)
    except ValueError:
        return None


def test_the_documents_own_order_settles_an_ambiguous_date() -> None:
    text = "INVOICE\nDate: 05/03/2024\nDue: 19/03/2024\n"
    assert grounded(text, issue_date="2024-03-05").issue_date.value == date(2024, 3, 5)
    assert grounded(text, issue_date="2024-05-03").issue_date.value is None


# --- kind, currency, registration, items -------------------------------------------------------------


def test_kind_currency_and_registration_need_words_that_say_so() -> None:
    e = grounded("INVOICE\nTotal USD $10.00\n", kind="receipt", currency="USD", gst_registered_supplier=True)
    assert e.kind.value is None and e.currency.value == "USD" and e.gst_registered_supplier.value is None
    e = grounded("Jo's Gardening\nABN 51 824 753 556\nTotal $200.00\nNot registered for GST.\n", currency="AUD",
                 gst_registered_supplier=False)  # fmt: skip
    assert e.currency.value == "AUD" and e.gst_registered_supplier.value is False
    assert grounded("INVOICE\nTotal €10.00\n", currency="AUD").currency.value is None


def test_line_items_need_description_and_amount_on_one_row() -> None:
    items = [
        {
            "description": "Copper pipe 15mm",
            "amount": "37.50",
            "quantity": "3",
            "unit_amount": "12.50",
            "gst_free": False,
        },
        {"description": "Gold tap", "amount": "999.00", "quantity": None, "unit_amount": None, "gst_free": False},
        {"description": "Copper pipe 15mm", "amount": "41.25", "quantity": "9", "unit_amount": None, "gst_free": True},
    ]
    e = grounded(INVOICE, line_items=items)
    kept = e.line_items.value
    assert kept is not None and [(i.description, i.amount, i.quantity) for i in kept] == [
        ("Copper pipe 15mm", Decimal("37.50"), Decimal("3"))
    ]
    assert [w.field for w in e.warnings] == ["line_items", "line_items"]


def test_an_empty_reply_gives_nulls_with_reasons() -> None:
    e = grounded(INVOICE)
    for name in FIELD_NAMES:
        field: Field[Any] = getattr(e, name)
        assert field.value is None and field.reason
    assert e.warnings == ()


# --- any reply: every kept value is in its provenance line -------------------------------------------

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=20),
                     st.sampled_from(["Harbourside Plumbing Pty Ltd", "41.25", "$3.75", "51 824 753 556",
                                      "2024-03-19", "INV-00042", "AUD", "invoice", "receipt", "37.50"]))  # fmt: skip
_items = st.lists(st.fixed_dictionaries({"description": _scalars, "amount": _scalars, "quantity": _scalars,
                                         "unit_amount": _scalars, "gst_free": st.booleans()}), max_size=3)  # fmt: skip
_payloads = st.fixed_dictionaries({}, optional={
    **{name: _scalars for name in ("kind", "supplier_name", "supplier_abn", "invoice_number", "issue_date",
                                   "currency", "total_amount", "gst_amount", "gst_registered_supplier",
                                   "subtotal", "buyer_name", "buyer_abn")},
    "line_items": _items,
})  # fmt: skip
_LINES = [" ".join(line.split()) for line in INVOICE.splitlines()]


@given(_payloads)
def test_whatever_the_model_says_every_value_kept_is_on_its_provenance_line(payload: dict[str, Any]) -> None:
    e = ground(document(INVOICE), payload, NAME)
    for name in FIELD_NAMES:
        field: Field[Any] = getattr(e, name)
        if field.value is None:
            assert field.reason
            continue
        assert field.provenance is not None and field.provenance.text in _LINES
        line = field.provenance.text
        value = field.value
        if name in ("supplier_name", "invoice_number"):
            assert value in line
        elif name in ("total_amount", "gst_amount"):
            assert format_money(abs(value)) in line.replace(",", "")
        elif name == "supplier_abn":
            assert value in re.sub(r"\D", "", line)
        elif name == "abn_valid":
            assert value is abn_is_valid(e.supplier_abn.value or "")
    for item in e.line_items.value or ():
        assert item.provenance is not None and item.description.lower() in item.provenance.text.lower()
        assert format_money(abs(item.amount)) in item.provenance.text
