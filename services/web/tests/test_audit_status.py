"""The audit page's words about the log never claim more than was checked, and give a practice no
count of the log's rows (the chain is every practice's)."""

from __future__ import annotations

from typing import Any

from asat_corpus.contracts.audit_log import ChainReportOut
from asat_web.audit_status import audit_status

CHAIN_OK: dict[str, Any] = {"checked": 3, "last_id": 3, "last_hash": "a" * 64, "broken": None, "ok": True, "rows": 3}
CHECKPOINT = {"first_id": 1, "last_id": 2, "last_hash": "b" * 64, "signed_at": "2026-12-03T09:30:00Z", "key_id": "k1"}


def _anchors(**changes: Any) -> dict[str, Any]:
    base = {
        "ok": True,
        "checkpoints": 1,
        "anchored_id": 2,
        "last_checkpoint": CHECKPOINT,
        "problem": None,
        "first_bad_id": None,
        "detail": "",
    }
    return base | changes


def test_a_chain_checked_alone_is_consistent_not_intact_and_says_what_would_not_show() -> None:
    status = audit_status(ChainReportOut.model_validate(CHAIN_OK))
    assert status.ok and status.headline == "Hash chain consistent: every row of the audit log was checked."
    assert "intact" not in status.headline and "recomputed" in status.detail and "cut from the end" in status.detail


def test_checkpoints_name_the_last_one_and_when_and_the_rows_after_it() -> None:
    report = ChainReportOut.model_validate(CHAIN_OK | {"anchors": _anchors(), "unanchored_rows": 1})
    status = audit_status(report)
    assert status.headline == (
        "Audit log verified: every row of the audit log was checked against the chain and the signed checkpoints."
    )
    assert "Last verified checkpoint signed 03 December 2026 09:30:00 UTC (key k1)." in status.detail
    assert "Rows written since are protected by the chain alone until the next checkpoint." in status.detail
    all_anchored = audit_status(ChainReportOut.model_validate(CHAIN_OK | {"anchors": _anchors(), "unanchored_rows": 0}))
    assert "Every row is anchored by a signed checkpoint." in all_anchored.detail


def test_no_checkpoint_yet_is_said() -> None:
    report = ChainReportOut.model_validate(
        CHAIN_OK | {"anchors": _anchors(checkpoints=0, anchored_id=0, last_checkpoint=None), "unanchored_rows": 3}
    )
    status = audit_status(report)
    assert status.ok and "no signed checkpoint yet" in status.headline
    assert status.detail == "Every row is protected by the chain alone until the first checkpoint is signed."


def test_a_sound_log_gives_no_count_of_its_rows() -> None:
    """The counts and row ids of a sound log are every practice's: none is said."""
    big = {"checked": 48_213, "last_id": 48_213, "rows": 48_213}
    checkpoint = CHECKPOINT | {"first_id": 1, "last_id": 47_950}
    for report in (
        CHAIN_OK | big,
        CHAIN_OK
        | big
        | {"anchors": _anchors(anchored_id=0, checkpoints=0, last_checkpoint=None), "unanchored_rows": 48_213},
        CHAIN_OK | big | {"anchors": _anchors(anchored_id=47_950, last_checkpoint=checkpoint), "unanchored_rows": 263},
    ):
        status = audit_status(ChainReportOut.model_validate(report))
        words = status.headline + " " + status.detail
        assert status.ok
        for number in ("48213", "48,213", "47950", "47,950", "263"):
            assert number not in words, (number, words)


def test_a_rewritten_log_names_the_first_bad_row_even_when_the_chain_holds() -> None:
    anchors = _anchors(
        ok=False, problem="rewritten", first_bad_id=2, detail="row 2's stored hash is not the signed one"
    )
    report = ChainReportOut.model_validate(CHAIN_OK | {"ok": False, "anchors": anchors, "first_bad_id": 2})
    status = audit_status(report)
    assert not status.ok and status.headline == "Audit log BROKEN: the first bad row is 2."
    assert "rewritten" in status.detail


def test_a_broken_chain_is_named() -> None:
    broken = {"id": 3, "kind": "hash_mismatch", "detail": "stored hash does not match"}
    report = ChainReportOut.model_validate(CHAIN_OK | {"ok": False, "broken": broken, "checked": 2, "first_bad_id": 3})
    status = audit_status(report)
    assert not status.ok and "first bad row is 3" in status.headline and "hash_mismatch" in status.detail
