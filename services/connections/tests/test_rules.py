"""The pure rules: PKCE and state, retry and backoff, token refresh timing, the line-amount type,
bills and finding one made before, the ABN property and ABN acceptance, scopes."""

from __future__ import annotations

import base64
import hashlib
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_connections.rules.bills import (
    LineAmountType,
    bill_matches,
    bill_payload,
    bill_problem,
    choose_line_amount_type,
    pick_existing_bill,
    xero_date,
)
from asat_connections.rules.companies import abn_property, client_key, read_abn
from asat_connections.rules.oauth import (
    authorize_url,
    callback_problem,
    code_challenge,
    new_code_verifier,
    new_state,
    state_digest,
    state_matches,
    verifier_is_valid,
)
from asat_connections.rules.retry import Outcome, RetryPolicy, Stop, Wait, decide, retry_after_seconds
from asat_connections.rules.scopes import missing_scopes
from asat_connections.rules.tokens import expires_at, refresh_due
from asat_connections.xero_push import attachment_name
from asat_corpus.text.abn import complete_abn

from .support import transaction

NOW = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


# --- PKCE and state --------------------------------------------------------------------------------


def test_the_rfc_7636_example_challenge() -> None:
    # RFC 7636 appendix B.
    assert (
        code_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    )


@given(st.binary(min_size=32, max_size=32))
def test_verifiers_are_valid_and_challenges_are_their_s256(material: bytes) -> None:
    verifier = new_code_verifier(lambda n: material[:n])
    assert verifier_is_valid(verifier) and len(verifier) == 43
    expected = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    assert code_challenge(verifier) == expected


def test_a_short_verifier_or_random_source_is_refused() -> None:
    with pytest.raises(ValueError, match="43 to 128"):
        code_challenge("short")
    with pytest.raises(ValueError, match="gave 3 bytes"):
        new_code_verifier(lambda n: b"abc")


@given(st.binary(min_size=32, max_size=32), st.binary(min_size=32, max_size=32))
def test_a_state_matches_only_its_own_digest(a: bytes, b: bytes) -> None:
    state_a, state_b = new_state(lambda n: a), new_state(lambda n: b)
    assert state_matches(state_a, state_digest(state_a))
    assert state_matches(state_b, state_digest(state_a)) is (state_a == state_b)
    assert not state_matches(state_a, "not a digest")


def test_the_authorize_url_carries_the_code_flow_with_s256() -> None:
    url = authorize_url("https://login.example/authorize", "cid", "http://localhost:8740/cb", ("a", "b"), "st", "ch")
    assert url == (
        "https://login.example/authorize?response_type=code&client_id=cid&redirect_uri=http%3A%2F%2Flocalhost%3A8740"
        "%2Fcb&scope=a+b&state=st&code_challenge=ch&code_challenge_method=S256"
    )


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ({"code": "c", "state": "s"}, None),
        ({"error": "access_denied", "state": "s"}, "consent was not given"),
        ({"error": "invalid_scope", "error_description": "bad", "state": "s"}, "invalid_scope (bad)"),
        ({"state": "s"}, "lacks code"),
        ({}, "lacks code and state"),
    ],
)
def test_callback_problems(params: dict[str, str], says: str | None) -> None:
    problem = callback_problem(params)
    assert (problem is None) if says is None else (problem is not None and says in problem)


# --- retry and backoff -----------------------------------------------------------------------------

POLICY = RetryPolicy(max_attempts=4, max_wait_s=60, backoff_s=(1, 2, 4))


def test_a_429_waits_for_retry_after_in_seconds_or_as_a_date() -> None:
    assert decide(POLICY, 1, Outcome(429, "7"), NOW, idempotent=False) == Wait(7.0, "HTTP 429 (rate limited)")
    later = "Sat, 01 Mar 2025 09:00:30 GMT"
    assert retry_after_seconds(later, NOW) == 30.0
    assert decide(POLICY, 1, Outcome(429, None), NOW, idempotent=True) == Wait(1.0, "HTTP 429 (rate limited)")


def test_a_429_beyond_the_longest_wait_stops_with_when_to_retry() -> None:
    decision = decide(POLICY, 1, Outcome(429, "3600"), NOW, idempotent=True)
    assert isinstance(decision, Stop) and decision.retry_at == NOW + timedelta(hours=1) and not decision.ambiguous


def test_attempts_are_bounded() -> None:
    assert isinstance(decide(POLICY, 4, Outcome(429, "1"), NOW, idempotent=True), Stop)
    assert isinstance(decide(POLICY, 4, Outcome(503), NOW, idempotent=True), Stop)
    assert decide(POLICY, 3, Outcome(500), NOW, idempotent=True) == Wait(4.0, "HTTP 500")


def test_a_create_that_may_have_happened_is_not_repeated_blindly() -> None:
    for outcome in (Outcome(500), Outcome(None, sent=True)):
        decision = decide(POLICY, 1, outcome, NOW, idempotent=False)
        assert isinstance(decision, Stop) and decision.ambiguous
    # ... but one that never went out (the connection failed) is retried.
    assert decide(POLICY, 1, Outcome(None, sent=False), NOW, idempotent=False) == Wait(1.0, "could not connect")


@pytest.mark.parametrize("status", [200, 201, 204, 400, 401, 403, 404, 409, 422])
def test_other_statuses_are_for_the_caller(status: int) -> None:
    assert decide(POLICY, 1, Outcome(status), NOW, idempotent=False) is None


@pytest.mark.parametrize("value", [None, "", "soon", "Mon, 99 Foo 2025"])
def test_an_unreadable_retry_after_falls_back_to_backoff(value: str | None) -> None:
    assert retry_after_seconds(value, NOW) is None


# --- token timing ----------------------------------------------------------------------------------


def test_expiry_and_refresh_due() -> None:
    expiry = expires_at(NOW, 1800)
    assert expiry == NOW + timedelta(minutes=30)
    assert not refresh_due(expiry, NOW + timedelta(minutes=28))
    assert refresh_due(expiry, NOW + timedelta(minutes=29, seconds=1))
    assert refresh_due(None, NOW)
    assert expires_at(NOW, "1800") == NOW and expires_at(NOW, True) == NOW  # odd values: expired


# --- bills -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "gst", "lines", "registered", "expected"),
    [
        ("110.00", "10.00", ["40.00", "70.00"], True, LineAmountType.INCLUSIVE),
        ("220.00", "20.00", ["200.00"], True, LineAmountType.EXCLUSIVE),
        ("50.00", None, ["50.00"], True, LineAmountType.NO_TAX),
        ("50.00", "0.00", ["50.00"], True, LineAmountType.NO_TAX),
        ("55.00", "5.00", ["55.00"], False, LineAmountType.NO_TAX),
        ("33.00", "3.00", [], True, LineAmountType.INCLUSIVE),
        ("100.00", "9.09", ["80.00"], True, LineAmountType.INCLUSIVE),
    ],
)
def test_the_line_amount_type_is_what_the_document_shows(
    total: str, gst: str | None, lines: list[str], registered: bool, expected: LineAmountType
) -> None:
    t = transaction("S", "1", total, gst, [(f"l{i}", a) for i, a in enumerate(lines)], registered=registered)
    choice = choose_line_amount_type(t)
    assert choice.type is expected
    assert (choice.warning is not None) is (total == "100.00")


def test_a_bill_payload_has_the_amounts_as_extracted_and_no_codes() -> None:
    t = transaction("Officeworks", "INV-9", "110.00", "10.00", [("Paper", "40.00"), ("Toner", "70.00")])
    payload = bill_payload(t, "c-1")
    assert payload == {
        "Type": "ACCPAY",
        "Status": "DRAFT",
        "Contact": {"ContactID": "c-1"},
        "LineAmountTypes": "Inclusive",
        "LineItems": [
            {"Description": "Paper", "Quantity": 1.0, "LineAmount": 40.0},
            {"Description": "Toner", "Quantity": 1.0, "LineAmount": 70.0},
        ],
        "InvoiceNumber": "INV-9",
        "Date": "2024-07-03",
        "CurrencyCode": "AUD",
    }
    no_lines = bill_payload(transaction("Bob", None, "50.00", None, [], registered=False), "c-2")
    assert no_lines["LineItems"] == [{"Description": "Bob", "Quantity": 1.0, "LineAmount": 50.0}]
    assert "InvoiceNumber" not in no_lines


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"review_status": "pending"}, "not reviewed"),
        ({"review_status": "rejected"}, "not reviewed"),
        ({"kind": "credit_note"}, "credit note"),
        ({"supplier_name": None}, "no supplier"),
        ({"total_amount": None}, "no total"),
        ({"total_amount": Decimal("-5")}, "negative"),
        ({"issue_date": None}, "no issue date"),
        ({"due_date": date(2024, 1, 1)}, "due date is before"),
    ],
)
def test_what_cannot_be_a_bill_says_why(change: dict[str, object], problem: str) -> None:
    from dataclasses import replace

    t = replace(transaction("S", "1", "11.00", "1.00", [("x", "11.00")]), **change)  # type: ignore[arg-type]
    found = bill_problem(t)
    assert found is not None and problem in found


def test_an_earlier_bill_is_recognised_by_contact_number_date_and_amounts() -> None:
    t = transaction("S", "INV-1", "110.00", "10.00", [("a", "40.00"), ("b", "70.00")])
    ours = {
        "InvoiceID": "i-1",
        "Type": "ACCPAY",
        "Status": "DRAFT",
        "Contact": {"ContactID": "C-1"},
        "InvoiceNumber": "INV-1",
        "Date": "/Date(1719964800000+0000)/",
        "LineItems": [{"LineAmount": 40.0}, {"LineAmount": 70.0}],
    }
    assert bill_matches(ours, t, "c-1")
    assert not bill_matches({**ours, "Status": "DELETED"}, t, "c-1")
    assert not bill_matches({**ours, "InvoiceNumber": "INV-2"}, t, "c-1")
    assert not bill_matches({**ours, "LineItems": [{"LineAmount": 40.0}]}, t, "c-1")
    assert not bill_matches({**ours, "Contact": {"ContactID": "c-2"}}, t, "c-1")
    assert pick_existing_bill([{**ours, "InvoiceID": "i-0", "Type": "ACCREC"}, ours], t, "c-1") == "i-1"
    assert xero_date("2024-07-03T00:00:00") == xero_date("/Date(1719964800000+0000)/") == date(2024, 7, 3)
    assert xero_date("garbage") is None


def test_attachment_names_are_safe_in_a_url_path() -> None:
    assert attachment_name("officeworks 1001.pdf", "application/pdf") == "officeworks_1001.pdf"
    assert attachment_name("../../etc/passwd", "application/pdf") == "etc_passwd.pdf"
    assert attachment_name("scan", "image/png") == "scan.png"


# --- companies and scopes --------------------------------------------------------------------------


def test_the_abn_property_is_a_custom_one_named_or_labelled_abn() -> None:
    props: list[dict[str, Any]] = [
        {"name": "name", "label": "Company name", "hubspotDefined": True},
        {"name": "tax_id", "label": "Australian Business Number"},
        {"name": "abn_notes", "label": "Notes on the ABN"},
        {"name": "abn", "label": "ABN"},
        {"name": "cabnet", "label": "Cabinet"},
    ]
    assert abn_property(props) == "abn"
    assert abn_property(props[:2]) == "tax_id"
    assert abn_property([props[0], props[4]]) is None
    assert abn_property([{"name": "abn", "label": "ABN", "hubspotDefined": True}]) is None


@pytest.mark.parametrize(
    ("value", "abn", "problem"),
    [
        ("51 824 753 556", "51824753556", None),
        ("51-824-753-556", "51824753556", None),
        ("51824753557", None, "fails the ABN checksum"),
        ("ABN 51824753556", None, "is not an ABN"),
        ("1234", None, "is not an ABN"),
        ("", None, None),
        (None, None, None),
    ],
)
def test_an_abn_is_taken_only_when_it_passes_the_checksum(
    value: str | None, abn: str | None, problem: str | None
) -> None:
    reading = read_abn(value)
    assert reading.abn == abn
    assert (reading.problem is None) if problem is None else (problem in (reading.problem or ""))


@given(st.integers(min_value=0, max_value=999_999_999))
def test_every_valid_abn_is_taken(n: int) -> None:
    abn = complete_abn(f"{n:09d}")
    assert read_abn(f"{abn[:2]} {abn[2:5]} {abn[5:8]} {abn[8:]}").abn == abn


def test_client_names_compare_without_case_or_spacing() -> None:
    assert client_key("ACME  pty ltd ") == client_key("Acme Pty Ltd")


def test_missing_scopes_are_named_in_order() -> None:
    assert missing_scopes(("a", "b", "c"), ["c", "x"]) == ("a", "b")
    assert missing_scopes(("a",), ["a"]) == ()
