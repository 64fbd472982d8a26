"""Concurrent writers: each on its own store (as separate service processes would be), and many
threads sharing one store and its small pool (as research's request threads do)."""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest

from asat_audit.pool_settings import DEFAULT_POOL
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


SHARING_THREADS = 3 * DEFAULT_POOL.max_size  # more threads than the pool has connections
SHARED_ROWS_EACH = 25


def test_threads_sharing_one_store_through_its_small_pool_leave_one_intact_chain(
    clean_audit_log: Any, make_record: Any
) -> None:
    start = threading.Barrier(SHARING_THREADS)
    written: dict[int, list[AuditEntry]] = {}
    failures: list[BaseException] = []

    with PostgresAuditStore(clean_audit_log.app_url) as store:

        def writer(number: int) -> None:
            try:
                start.wait()
                written[number] = [
                    store.append(make_record(n, request_id=f"t{number}-{n}")) for n in range(SHARED_ROWS_EACH)
                ]
            except BaseException as exc:  # reported below; a thread cannot fail the test itself
                failures.append(exc)

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(SHARING_THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        with psycopg.connect(clean_audit_log.admin_url) as admin:
            backends = admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND usename = %s",
                (clean_audit_log.name, clean_audit_log.app_role),
            ).fetchone()
        # The pool grew past one connection under the load, and never past its bound.
        assert backends is not None and 2 <= backends[0] <= DEFAULT_POOL.max_size, backends
        report = store.verify()

    total = SHARING_THREADS * SHARED_ROWS_EACH
    assert sorted(entry.id for entries in written.values() for entry in entries) == list(range(1, total + 1))
    for entries in written.values():
        assert [e.id for e in entries] == sorted(e.id for e in entries)
    assert report.ok, report.broken
    assert (report.checked, report.last_id) == (total, total)
