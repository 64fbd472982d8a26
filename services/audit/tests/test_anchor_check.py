"""The log against its signed checkpoints (pure, over the in-memory store): what the chain alone
cannot catch (an owner who recomputes the chain after an edit, rows cut from the end) is caught,
naming the first bad row."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from asat_audit.anchor_check import AnchorProblem, check_anchors
from asat_audit.canonical import GENESIS_HASH, chain_hash, record_document
from asat_audit.chain import ChainLink, link_of
from asat_audit.checkpoint import Checkpoint, sign
from asat_audit.integrity import check_integrity
from asat_audit.memory_store import InMemoryAuditStore
from asat_audit.record import AuditEntry

KEY = Ed25519PrivateKey.generate()
MOMENT = datetime(2026, 12, 3, tzinfo=UTC)


def _log(make_record: Callable[..., Any], n: int) -> list[AuditEntry]:
    store = InMemoryAuditStore()
    return [store.append(make_record(i)) for i in range(n)]


def _checkpoints(entries: list[AuditEntry], cuts: list[int]) -> list[Checkpoint]:
    """Checkpoints ending at each id of ``cuts``."""
    out, first = [], 1
    for last in cuts:
        out.append(sign(KEY, first, last, [e.hash for e in entries[first - 1 : last]], MOMENT))
        first = last + 1
    return out


def _rewritten(entries: list[AuditEntry], row: int) -> list[ChainLink]:
    """What an owner with full access does: edit row ``row`` and recompute every later hash."""
    links, prev = [], GENESIS_HASH
    for entry in entries:
        record = entry.record
        if entry.id == row:
            record = dataclasses.replace(record, question="a question never asked")
        document = record_document(entry.id, entry.recorded_at, record)
        digest = chain_hash(prev, document)
        links.append(ChainLink(entry.id, prev, digest, document))
        prev = digest
    return links


def test_an_intact_log_checks_out_and_says_how_far_it_is_anchored(make_record: Any) -> None:
    entries = _log(make_record, 7)
    report = check_integrity((link_of(e) for e in entries), _checkpoints(entries, [3, 5]), KEY.public_key())
    assert report.ok and report.anchors is not None
    assert (report.anchors.checkpoints, report.anchors.anchored_id, report.unanchored_rows) == (2, 5, 2)


def test_a_recomputed_chain_passes_the_chain_but_not_the_checkpoints(make_record: Any) -> None:
    entries = _log(make_record, 7)
    links = _rewritten(entries, 4)
    report = check_integrity(links, _checkpoints(entries, [3, 6]), KEY.public_key())
    assert report.chain.ok  # the chain alone is fooled
    assert report.anchors is not None and report.anchors.problem is AnchorProblem.REWRITTEN
    assert report.first_bad_id == 4 and not report.ok
    assert report.anchors.anchored_id == 3  # the first checkpoint still holds


def test_rows_cut_from_the_end_are_caught(make_record: Any) -> None:
    entries = _log(make_record, 6)
    checkpoints = _checkpoints(entries, [6])
    report = check_integrity((link_of(e) for e in entries[:4]), checkpoints, KEY.public_key())
    assert report.chain.ok  # a shorter chain is still a valid chain
    assert report.anchors is not None and report.anchors.problem is AnchorProblem.TRUNCATED
    assert report.first_bad_id == 5
    assert "cut from the end" in report.anchors.detail


def test_a_forged_or_missing_checkpoint_is_caught(make_record: Any) -> None:
    entries = _log(make_record, 6)
    first, second = _checkpoints(entries, [3, 6])
    stored = {e.id: e.hash for e in entries}
    forged = dataclasses.replace(second, row_hashes=(*second.row_hashes[:-1], "f" * 64))
    report = check_anchors(stored, [first, forged], KEY.public_key())
    assert (report.problem, report.first_bad_id, report.anchored_id) == (AnchorProblem.BAD_SIGNATURE, 4, 3)
    report = check_anchors(stored, [second], KEY.public_key())
    assert (report.problem, report.first_bad_id) == (AnchorProblem.CHECKPOINT_GAP, 1)


def test_the_databases_copy_must_be_the_files(make_record: Any) -> None:
    entries = _log(make_record, 6)
    checkpoints = _checkpoints(entries, [3, 6])
    stored = {e.id: e.hash for e in entries}
    assert check_anchors(stored, checkpoints, KEY.public_key(), checkpoints[:1]).ok  # a prefix is fine
    other = _checkpoints(entries, [2, 6])
    report = check_anchors(stored, checkpoints, KEY.public_key(), other)
    assert (report.problem, report.first_bad_id) == (AnchorProblem.DATABASE_COPY_DIFFERS, 1)


def test_without_checkpoints_the_report_claims_the_chain_only(make_record: Any) -> None:
    entries = _log(make_record, 3)
    report = check_integrity((link_of(e) for e in entries), None, None)
    assert report.ok and report.anchors is None and report.unanchored_rows == 3
