from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from asat_audit.canonical import GENESIS_HASH, chain_hash, record_document
from asat_audit.chain import BreakKind, ChainLink, link_of, verify_chain
from asat_audit.memory_store import InMemoryAuditStore
from asat_audit.record import AuditEntry
from asat_corpus.contracts.decisions import Decision


def _ticking_clock() -> Any:
    moments = iter(datetime(2024, 7, 1, tzinfo=UTC) + timedelta(seconds=i) for i in range(1000))
    return lambda: next(moments)


@pytest.fixture
def entries(make_record: Any) -> list[AuditEntry]:
    store = InMemoryAuditStore(clock=_ticking_clock())
    for n in range(5):
        store.append(make_record(n))
    return list(store.iter_entries())


def test_an_empty_chain_is_valid() -> None:
    report = verify_chain([])
    assert report.ok
    assert (report.checked, report.last_id, report.last_hash) == (0, 0, GENESIS_HASH)


def test_an_intact_chain_is_valid(entries: list[AuditEntry]) -> None:
    report = verify_chain(link_of(e) for e in entries)
    assert report.ok
    assert (report.checked, report.last_id, report.last_hash) == (5, 5, entries[-1].hash)


def test_an_altered_row_is_a_hash_mismatch_at_that_row(entries: list[AuditEntry]) -> None:
    entries[2] = replace(entries[2], record=replace(entries[2].record, question="something else"))
    report = verify_chain(link_of(e) for e in entries)
    assert report.broken is not None
    assert (report.broken.id, report.broken.kind) == (3, BreakKind.HASH_MISMATCH)
    assert (report.checked, report.last_id, report.last_hash) == (2, 2, entries[1].hash)


def test_an_altered_row_with_a_recomputed_hash_breaks_the_next_link(entries: list[AuditEntry]) -> None:
    old = entries[2]
    record = replace(old.record, decision=Decision.ABSTAIN_LOW_RELEVANCE, reasons=("forged",))
    forged_hash = chain_hash(old.prev_hash, record_document(old.id, old.recorded_at, record))
    entries[2] = replace(old, record=record, hash=forged_hash)
    report = verify_chain(link_of(e) for e in entries)
    assert report.broken is not None
    assert (report.broken.id, report.broken.kind) == (4, BreakKind.PREV_HASH_MISMATCH)
    assert forged_hash in report.broken.detail


def test_a_removed_row_is_a_gap(entries: list[AuditEntry]) -> None:
    del entries[2]
    report = verify_chain(link_of(e) for e in entries)
    assert report.broken is not None
    assert (report.broken.id, report.broken.kind) == (4, BreakKind.ID_GAP)
    assert "expected row id 3" in report.broken.detail


def test_a_removed_first_row_is_a_gap(entries: list[AuditEntry]) -> None:
    report = verify_chain(link_of(e) for e in entries[1:])
    assert report.broken is not None
    assert (report.broken.id, report.broken.kind, report.checked) == (2, BreakKind.ID_GAP, 0)


def test_rows_out_of_order_are_reported(entries: list[AuditEntry]) -> None:
    entries[1], entries[2] = entries[2], entries[1]
    report = verify_chain(link_of(e) for e in entries)
    assert report.broken is not None
    assert (report.broken.id, report.broken.kind) == (3, BreakKind.ID_GAP)


def test_an_unreadable_row_is_reported_not_raised(entries: list[AuditEntry]) -> None:
    links = [link_of(e) for e in entries]
    links[1] = ChainLink(2, links[1].prev_hash, links[1].hash, None, problem="citations is not a list")
    report = verify_chain(links)
    assert report.broken is not None
    assert (report.broken.id, report.broken.kind) == (2, BreakKind.UNREADABLE)
    assert "citations is not a list" in report.broken.detail


def test_a_document_that_cannot_be_serialised_is_unreadable(entries: list[AuditEntry]) -> None:
    links = [link_of(e) for e in entries]
    links[0] = replace(links[0], document={"ms": float("nan")})
    report = verify_chain(links)
    assert report.broken is not None
    assert report.broken.kind == BreakKind.UNREADABLE


def test_the_rows_after_a_vouched_row_are_checked_from_it(entries: list[AuditEntry]) -> None:
    links = [link_of(entry) for entry in entries]
    after = links[1]
    report = verify_chain(links[2:], after_id=after.id, after_hash=after.hash)
    assert report.ok and report.checked == 3 and report.last_id == 5
    # Rows that do not follow the vouched row break at the first of them.
    wrong = verify_chain(links[3:], after_id=after.id, after_hash=after.hash)
    assert not wrong.ok and wrong.broken is not None and wrong.broken.id == 4
    forged = verify_chain(links[2:], after_id=after.id, after_hash="f" * 64)
    assert not forged.ok and forged.broken is not None and forged.broken.id == 3
