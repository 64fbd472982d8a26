"""Concurrent writers, each on its own connection (as separate service processes would be)."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest

from asat_audit.postgres_store import PostgresAuditStore
from asat_audit.record import AuditEntry

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

WRITERS = 8
ROWS_EACH = 200


def test_eight_writers_by_two_hundred_rows_leave_one_intact_chain(clean_audit_log: Any, make_record: Any) -> None:
    start = threading.Barrier(WRITERS)
    written: dict[int, list[AuditEntry]] = {}
    failures: list[BaseException] = []

    def writer(number: int) -> None:
        try:
            with PostgresAuditStore(clean_audit_log.app_url) as store:
                start.wait()
                written[number] = [store.append(make_record(n, request_id=f"w{number}-{n}")) for n in range(ROWS_EACH)]
        except BaseException as exc:  # reported below; a thread cannot fail the test itself
            failures.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []

    with psycopg.connect(clean_audit_log.admin_url) as admin:
        stats = admin.execute(
            "SELECT count(*), min(id), max(id), count(DISTINCT request_id) FROM research.audit_log"
        ).fetchone()
    total = WRITERS * ROWS_EACH
    assert stats == (total, 1, total, total)

    ids = sorted(entry.id for entries in written.values() for entry in entries)
    assert ids == list(range(1, total + 1))
    for entries in written.values():  # each writer's rows are in its own order within the chain
        assert [e.id for e in entries] == sorted(e.id for e in entries)

    with PostgresAuditStore(clean_audit_log.app_url) as store:
        report = store.verify()
    assert report.ok, report.broken
    assert (report.checked, report.last_id) == (total, total)
