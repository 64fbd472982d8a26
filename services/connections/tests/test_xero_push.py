"""Pushing reviewed transactions to Xero against the fake, end to end: draft bills with their
attachments, contacts created once, idempotent re-pushes, and each misbehaviour: an expired token,
a 429, a 500 on one bill, a reply that never comes, a duplicate reply."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from asat_connections import PushResult, PushState

from .support import World, three_bills, transaction


def _bills(w: World) -> list[dict[str, Any]]:
    return [i for i in w.xero.invoices(w.tenant) if i["Type"] == "ACCPAY"]


def test_three_transactions_become_three_draft_bills_each_with_its_attachment(any_world: World) -> None:
    w = any_world
    w.connect_xero()
    items = three_bills()
    ids = w.add_transactions(items)
    report = w.connections.push.push(w.practice.id, w.client.id, ids)
    assert [o.result for o in report.outcomes] == [PushResult.CREATED] * 3, report
    assert report.new_bills == 3 and report.contacts_created == 2  # Officeworks once, Bob once
    bills = _bills(w)
    assert len(bills) == 3 and {b["Status"] for b in bills} == {"DRAFT"}
    by_number = {b["InvoiceNumber"]: b for b in bills}
    assert by_number["INV-1001"]["LineAmountTypes"] == "Inclusive"
    assert by_number["INV-1002"]["LineAmountTypes"] == "Exclusive"
    assert by_number["B-7"]["LineAmountTypes"] == "NoTax"
    assert [(li["Description"], li["LineAmount"]) for li in by_number["INV-1001"]["LineItems"]] == [
        ("Paper", 40.0),
        ("Toner", 70.0),
    ]
    assert by_number["INV-1001"]["DateString"] == "2024-07-03T00:00:00"
    assert all("AccountCode" not in li for b in bills for li in b["LineItems"])  # left for the agent
    contacts = w.xero.contacts(w.tenant)
    assert sorted(c["Name"] for c in contacts) == ["Bob's Bookkeeping", "Officeworks Pty Ltd"]
    officeworks = next(c for c in contacts if c["Name"] == "Officeworks Pty Ltd")
    assert officeworks["TaxNumber"] == "51824753556"
    assert by_number["INV-1001"]["Contact"]["ContactID"] == by_number["INV-1002"]["Contact"]["ContactID"]
    for (_t, document), outcome in zip(items, report.outcomes, strict=True):
        (meta, content), *rest = w.xero.attachments(outcome.invoice_id or "")
        assert rest == [] and content == document.content and meta["MimeType"] == document.media_type
        assert outcome.attachment_id == meta["AttachmentID"]
    records = w.connections.push.pushed(w.practice.id, ids)
    assert {r.state for r in records.values()} == {PushState.PUSHED}
    assert {r.invoice_id for r in records.values()} == {b["InvoiceID"] for b in bills}


def test_pushing_again_creates_nothing(any_world: World) -> None:
    w = any_world
    w.connect_xero()
    ids = w.add_transactions(three_bills())
    w.connections.push.push(w.practice.id, w.client.id, ids)
    puts = w.xero.count("PUT", "create_invoice")
    again = w.connections.push.push(w.practice.id, w.client.id, ids)
    assert again.new_bills == 0 and again.contacts_created == 0
    assert {o.result for o in again.outcomes} == {PushResult.ALREADY_PUSHED}
    assert len(_bills(w)) == 3 and w.xero.count("PUT", "create_invoice") == puts
    assert sum(len(w.xero.attachments(b["InvoiceID"])) for b in _bills(w)) == 3


def test_a_token_expiring_mid_push_is_refreshed_and_the_push_completes(any_world: World) -> None:
    w = any_world
    w.connect_xero()
    ids = w.add_transactions(three_bills())
    tokens = w.xero.count("POST", "token")
    w.xero.misbehave("create_invoice", "expired_token", after=1)  # the second bill's request
    report = w.connections.push.push(w.practice.id, w.client.id, ids)
    assert report.new_bills == 3, report
    assert w.xero.count("POST", "token") == tokens + 1  # one refresh
    assert len(_bills(w)) == 3


def test_a_429_is_waited_out_for_its_retry_after(any_world: World) -> None:
    w = any_world
    w.connect_xero()
    ids = w.add_transactions(three_bills())
    w.xero.misbehave("create_invoice", "rate_limit", retry_after=7, after=1)
    report = w.connections.push.push(w.practice.id, w.client.id, ids)
    assert report.new_bills == 3 and len(_bills(w)) == 3
    assert w.sleeps.waited == [7.0]  # waited (through the injected sleep), not in real time


def test_a_rate_limit_longer_than_we_wait_stops_the_push_and_says_when(world: World) -> None:
    w = world
    w.connect_xero()
    ids = w.add_transactions(three_bills())
    w.xero.misbehave("create_invoice", "rate_limit", retry_after=3600, after=1)
    report = w.connections.push.push(w.practice.id, w.client.id, ids)
    assert [o.result for o in report.outcomes] == [PushResult.CREATED, PushResult.FAILED, PushResult.FAILED]
    assert report.retry_at is not None and "try again after" in report.outcomes[1].message
    assert report.outcomes[2].message.startswith("not attempted") and report.outcomes[2].retryable
    assert w.sleeps.waited == []
    w.xero.clear_misbehaviour()
    assert w.connections.push.push(w.practice.id, w.client.id, ids).new_bills == 2


def test_a_500_on_one_bill_leaves_the_others_pushed_and_it_retryable(any_world: World) -> None:
    w = any_world
    w.connect_xero()
    ids = w.add_transactions(three_bills())
    w.xero.misbehave(
        "create_invoice", "server_error", times=None, when=lambda inv: inv.get("InvoiceNumber") == "INV-1002"
    )
    report = w.connections.push.push(w.practice.id, w.client.id, ids)
    results = [o.result for o in report.outcomes]
    assert results == [PushResult.CREATED, PushResult.FAILED, PushResult.CREATED]
    failed = report.outcomes[1]
    assert failed.retryable and "HTTP 500" in failed.message and "pushing again will create it once" in failed.message
    assert len(_bills(w)) == 2
    record = w.connections.push.pushed(w.practice.id, [ids[1]])[ids[1]]
    assert record.state is PushState.FAILED and record.retryable and record.ambiguous
    w.xero.clear_misbehaviour()
    again = w.connections.push.push(w.practice.id, w.client.id, ids)
    assert [o.result for o in again.outcomes] == [
        PushResult.ALREADY_PUSHED,
        PushResult.CREATED,
        PushResult.ALREADY_PUSHED,
    ]
    assert len(_bills(w)) == 3
    assert all(len(w.xero.attachments(b["InvoiceID"])) == 1 for b in _bills(w))


def test_a_reply_that_never_comes_is_checked_before_creating_again(world: World) -> None:
    w = world
    w.connect_xero()
    ids = w.add_transactions(three_bills())
    # Xero creates the first bill but answers after the client's timeout (1 s here).
    w.connections.xero.http.client.timeout = __import__("httpx").Timeout(1.0)
    w.xero.misbehave("create_invoice", "timeout", delay_s=3.0)
    report = w.connections.push.push(w.practice.id, w.client.id, ids)
    assert [o.result for o in report.outcomes] == [PushResult.FOUND, PushResult.CREATED, PushResult.CREATED]
    assert len(_bills(w)) == 3  # not 4: the retry looked first and adopted it
    assert w.xero.count("PUT", "create_invoice") == 3
    found = report.outcomes[0]
    assert found.invoice_id in {b["InvoiceID"] for b in _bills(w)} and found.attachment_id is not None
    assert all(len(w.xero.attachments(b["InvoiceID"])) == 1 for b in _bills(w))


def test_a_duplicate_reply_adopts_the_bill_this_app_made_before(world: World) -> None:
    w = world
    w.connect_xero()
    items = three_bills()
    ids = w.add_transactions(items[:1])
    w.xero.misbehave("create_invoice", "timeout", delay_s=3.0, times=None)  # every create answers too late ...
    w.connections.xero.http.client.timeout = __import__("httpx").Timeout(1.0)
    w.xero.misbehave("get_invoices", "server_error", times=None)  # ... and the search fails
    first = w.connections.push.push(w.practice.id, w.client.id, ids)
    assert first.outcomes[0].result is PushResult.FAILED and first.outcomes[0].retryable
    w.xero.clear_misbehaviour()
    assert len(_bills(w)) == 1  # Xero has it (Idempotency-Key: the repeats made no second one)
    w.xero.misbehave("create_invoice", "duplicate")
    again = w.connections.push.push(w.practice.id, w.client.id, ids)
    assert again.outcomes[0].result is PushResult.FOUND
    assert len(_bills(w)) == 1 and len(w.xero.attachments(_bills(w)[0]["InvoiceID"])) == 1


def test_a_duplicate_reply_with_no_bill_of_ours_is_reported_not_retried(world: World) -> None:
    w = world
    w.connect_xero()
    ids = w.add_transactions(three_bills()[:1])
    w.xero.misbehave("create_invoice", "duplicate")
    report = w.connections.push.push(w.practice.id, w.client.id, ids)
    outcome = report.outcomes[0]
    assert outcome.result is PushResult.FAILED and not outcome.retryable
    assert "already exists" in outcome.message and "look for it in Xero" in outcome.message


def test_transactions_that_cannot_be_bills_are_refused_with_the_reason(world: World) -> None:
    w = world
    w.connect_xero()
    pending = transaction("Acme", "A-1", "11.00", "1.00", [("Thing", "11.00")], status="pending")
    credit = transaction("Acme", "CN-1", "11.00", "1.00", [("Refund", "11.00")], kind="credit_note")
    _, document = three_bills()[0]
    ids = []
    for t in (pending, credit):
        w.source.add(w.practice.id, t, type(document)(t.document_id, "x.pdf", "application/pdf", b"%PDF"))
        ids.append(t.id)
    report = w.connections.push.push(w.practice.id, w.client.id, [*ids, ids[0]])  # a repeat is pushed once
    assert [o.result for o in report.outcomes] == [PushResult.REFUSED, PushResult.REFUSED]
    assert "not reviewed: confirm or correct it first" in report.outcomes[0].message
    assert "credit note" in report.outcomes[1].message
    assert _bills(w) == [] and w.xero.count("PUT", "create_contact") == 0


def test_lines_that_add_up_to_neither_are_pushed_inclusive_with_a_warning(world: World) -> None:
    w = world
    w.connect_xero()
    odd = transaction("Acme", "A-2", "100.00", "9.09", [("Thing", "80.00")])
    _, document = three_bills()[0]
    w.source.add(w.practice.id, odd, type(document)(odd.document_id, "a2.pdf", "application/pdf", b"%PDF"))
    (outcome,) = w.connections.push.push(w.practice.id, w.client.id, [odd.id]).outcomes
    assert outcome.result is PushResult.CREATED and outcome.warnings
    assert "check the draft bill's lines in Xero" in outcome.warnings[0]
    assert _bills(w)[0]["LineAmountTypes"] == "Inclusive" and Decimal(str(_bills(w)[0]["Total"])) == Decimal("80")


def test_an_existing_contact_is_used_not_created(world: World) -> None:
    w = world
    w.connect_xero()
    w.xero.seed_contact(w.tenant, "officeworks pty ltd")
    report = w.connections.push.push(w.practice.id, w.client.id, w.add_transactions(three_bills()))
    assert report.contacts_created == 1  # Bob's only
    assert len(w.xero.contacts(w.tenant)) == 2


def test_a_transaction_pushed_for_one_client_is_not_pushed_to_another(world: World) -> None:
    w = world
    w.connect_xero(w.client.id)
    w.xero.consent(w.other_tenant)
    w.connect_xero(w.other_client.id)
    ids = w.add_transactions(three_bills()[:1])
    w.connections.push.push(w.practice.id, w.client.id, ids)
    (outcome,) = w.connections.push.push(w.practice.id, w.other_client.id, ids).outcomes
    assert outcome.result is PushResult.ALREADY_PUSHED and f"client {w.client.id}" in outcome.message
    assert [i for i in w.xero.invoices(w.other_tenant) if i["Type"] == "ACCPAY"] == []


def test_an_attachment_that_failed_is_attached_by_the_next_push(world: World) -> None:
    w = world
    w.connect_xero()
    ids = w.add_transactions(three_bills()[:1])
    w.xero.misbehave("create_attachment", "server_error", times=None)
    (outcome,) = w.connections.push.push(w.practice.id, w.client.id, ids).outcomes
    assert outcome.result is PushResult.CREATED and outcome.attachment_id is None and outcome.retryable
    assert "push again to attach it" in outcome.message
    w.xero.clear_misbehaviour()
    (again,) = w.connections.push.push(w.practice.id, w.client.id, ids).outcomes
    assert again.result is PushResult.ATTACHED and again.attachment_id is not None
    assert len(_bills(w)) == 1 and len(w.xero.attachments(_bills(w)[0]["InvoiceID"])) == 1


@pytest.mark.parametrize("misbehaviour", ["server_error", "rate_limit"])
def test_reads_are_retried_after_a_transient_failure(world: World, misbehaviour: str) -> None:
    w = world
    w.connect_xero()
    w.xero.misbehave("get_contacts", misbehaviour, retry_after=1)  # type: ignore[arg-type]
    report = w.connections.push.push(w.practice.id, w.client.id, w.add_transactions(three_bills()[:1]))
    assert report.new_bills == 1 and w.sleeps.waited == [1.0]
