"""Append-only by construction, against the real server: privileges, trigger, start-up refusal."""

from __future__ import annotations

import io
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from typing import Any, LiteralString

import psycopg
import pytest
from psycopg import sql

from asat_audit.canonical import chain_hash, record_document
from asat_audit.cli import main
from asat_audit.postgres_store import LOCK_TIMEOUT_MS, PostgresAuditStore
from asat_audit.record import AskedBy
from asat_audit.store import AuditReadError, AuditStartupError, AuditWriteError

pytestmark = pytest.mark.postgres

CHANGES: list[LiteralString] = [
    "UPDATE research.audit_log SET question = 'changed' WHERE id = 1",
    "UPDATE research.audit_log SET question = 'changed' WHERE false",
    "DELETE FROM research.audit_log WHERE id = 2",
    "TRUNCATE research.audit_log",
]


@pytest.fixture
def three_rows(clean_audit_log: Any, make_record: Any) -> Iterator[Any]:
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        for n in range(3):
            store.append(make_record(n))
    yield clean_audit_log


def _verify_json(db: Any) -> tuple[int, dict[str, Any]]:
    out = io.StringIO()
    code = main(["verify", "--json"], env={"ASAT_DATABASE_URL": db.app_url}, out=out, err=io.StringIO())
    return code, json.loads(out.getvalue())


def _tamper(db: Any, statement: LiteralString, params: tuple[object, ...] = ()) -> None:
    """As superuser, with the append-only triggers disabled: what an intruder with full access does."""
    with db.admin() as admin, admin.transaction():
        admin.execute("ALTER TABLE research.audit_log DISABLE TRIGGER USER")
        admin.execute(statement, params or None)
        admin.execute("ALTER TABLE research.audit_log ENABLE TRIGGER USER")


@pytest.mark.parametrize("statement", CHANGES)
def test_the_app_role_may_not_change_or_remove_rows(three_rows: Any, statement: LiteralString) -> None:
    with psycopg.connect(three_rows.app_url) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege) as caught:
        conn.execute(statement)
    assert "permission denied" in str(caught.value)


@pytest.mark.parametrize("statement", CHANGES)
def test_even_the_owner_may_not_change_or_remove_rows(three_rows: Any, statement: LiteralString) -> None:
    with psycopg.connect(three_rows.owner_url) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege) as caught:
        conn.execute(statement)
    assert "research.audit_log is append-only" in str(caught.value)
    with psycopg.connect(three_rows.admin_url) as admin:
        assert admin.execute("SELECT count(*) FROM research.audit_log").fetchone() == (3,)


def test_an_insert_that_does_not_extend_the_chain_is_refused(three_rows: Any) -> None:
    with psycopg.connect(three_rows.owner_url) as conn:
        row = conn.execute("SELECT * FROM research.audit_log WHERE id = 3").fetchone()
        assert row is not None
    # Same row again with id 4 but prev_hash of row 2: a fork.
    with psycopg.connect(three_rows.app_url) as conn, pytest.raises(psycopg.errors.SerializationFailure) as caught:
        conn.execute(
            "INSERT INTO research.audit_log SELECT 4, recorded_at, request_id, question, as_of, income_year,"
            " decision, reasons, citations, verified_quotes, reading_list, provider, model, seed,"
            " corpus_generation, latencies, prev_hash, repeat('a', 64) FROM research.audit_log WHERE id = 3"
        )
    assert "does not extend the chain" in str(caught.value)


def test_a_row_altered_behind_the_systems_back_is_found_by_verify(three_rows: Any) -> None:
    code, report = _verify_json(three_rows)
    assert code == 0
    assert (report["ok"], report["checked"], report["last_id"], report["broken"]) == (True, 3, 3, None)
    _tamper(three_rows, "UPDATE research.audit_log SET decision = 'abstain_low_relevance', reasons = '[]' WHERE id = 2")
    code, report = _verify_json(three_rows)
    assert code == 1
    assert report["ok"] is False
    assert report["checked"] == 1
    assert report["broken"]["id"] == 2
    assert report["broken"]["kind"] == "hash_mismatch"


@pytest.mark.parametrize(
    ("row", "statement"),
    [
        (1, "UPDATE research.audit_log SET as_known_on = DATE '2015-10-31' WHERE id = 1"),  # none -> set
        (2, "UPDATE research.audit_log SET as_known_on = DATE '2015-11-01' WHERE id = 2"),  # changed
        (2, "UPDATE research.audit_log SET as_known_on = NULL WHERE id = 2"),  # set -> none
    ],
)
def test_tampering_with_as_known_on_is_found_by_verify(
    clean_audit_log: Any, make_record: Any, row: int, statement: LiteralString
) -> None:
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        store.append(make_record(0))
        store.append(make_record(1, as_known_on=date(2015, 10, 31)))
        store.append(make_record(2))
    code, report = _verify_json(clean_audit_log)
    assert (code, report["ok"], report["checked"]) == (0, True, 3)
    with psycopg.connect(clean_audit_log.admin_url) as admin:
        stored = admin.execute("SELECT id, as_known_on FROM research.audit_log ORDER BY id").fetchall()
    assert stored == [(1, None), (2, date(2015, 10, 31)), (3, None)]
    _tamper(clean_audit_log, statement)
    code, report = _verify_json(clean_audit_log)
    assert code == 1
    assert report["checked"] == row - 1
    assert (report["broken"]["id"], report["broken"]["kind"]) == (row, "hash_mismatch")


def test_a_removed_row_is_found_as_a_gap(three_rows: Any) -> None:
    _tamper(three_rows, "DELETE FROM research.audit_log WHERE id = 2")
    code, report = _verify_json(three_rows)
    assert code == 1
    assert (report["broken"]["id"], report["broken"]["kind"]) == (3, "id_gap")


def test_a_forged_row_with_a_recomputed_hash_breaks_the_next_link(three_rows: Any) -> None:
    with PostgresAuditStore(three_rows.app_url) as store:
        old = store.get(2)
    assert old is not None
    forged = replace(old.record, question="a question never asked")
    forged_hash = chain_hash(old.prev_hash, record_document(old.id, old.recorded_at, forged))
    _tamper(
        three_rows,
        "UPDATE research.audit_log SET question = %s, hash = %s WHERE id = 2",
        (forged.question, forged_hash),
    )
    code, report = _verify_json(three_rows)
    assert code == 1
    assert (report["broken"]["id"], report["broken"]["kind"]) == (3, "prev_hash_mismatch")


def test_a_row_no_longer_shaped_like_a_record_is_reported_not_crashed_on(three_rows: Any) -> None:
    _tamper(three_rows, """UPDATE research.audit_log SET citations = '[{"x": 1}]' WHERE id = 3""")
    code, report = _verify_json(three_rows)
    assert code == 1
    assert (report["broken"]["id"], report["broken"]["kind"]) == (3, "hash_mismatch")


def test_a_row_whose_decision_the_gate_never_makes_is_refused_when_read_back(three_rows: Any) -> None:
    _tamper(three_rows, "UPDATE research.audit_log SET decision = 'answered' WHERE id = 2")
    with PostgresAuditStore(three_rows.app_url) as store:
        with pytest.raises(AuditReadError, match=r"audit row 2 is not a valid audit record .*'answered'"):
            store.get(2)
        assert store.get(1) is not None
    code, report = _verify_json(three_rows)  # verify reads the raw columns: a broken link, not a crash
    assert code == 1
    assert (report["broken"]["id"], report["broken"]["kind"]) == (2, "hash_mismatch")


def test_the_store_refuses_a_superuser(audit_db: Any) -> None:
    with pytest.raises(AuditStartupError, match="is a superuser"):
        PostgresAuditStore(audit_db.admin_url)


def test_the_store_refuses_the_table_owner(audit_db: Any) -> None:
    with pytest.raises(AuditStartupError, match=r"owns research\.audit_log"):
        PostgresAuditStore(audit_db.owner_url)


@pytest.mark.parametrize("privilege", ["UPDATE", "DELETE", "TRUNCATE"])
def test_the_store_refuses_a_role_that_may_change_rows(audit_db: Any, privilege: LiteralString) -> None:
    grant = sql.SQL("GRANT " + privilege + " ON research.audit_log TO {}").format(sql.Identifier(audit_db.app_role))
    revoke = sql.SQL("REVOKE " + privilege + " ON research.audit_log FROM {}").format(sql.Identifier(audit_db.app_role))
    with audit_db.admin() as admin:
        admin.execute(grant)
        try:
            with pytest.raises(AuditStartupError, match=f"has {privilege} on research.audit_log"):
                PostgresAuditStore(audit_db.app_url)
        finally:
            admin.execute(revoke)


def test_the_store_refuses_a_role_with_bypassrls(audit_db: Any) -> None:
    role = sql.Identifier(audit_db.app_role)
    with audit_db.admin() as admin:
        admin.execute(sql.SQL("ALTER ROLE {} BYPASSRLS").format(role))
        try:
            with pytest.raises(AuditStartupError, match="has BYPASSRLS"):
                PostgresAuditStore(audit_db.app_url)
        finally:
            admin.execute(sql.SQL("ALTER ROLE {} NOBYPASSRLS").format(role))


def test_the_store_refuses_an_unmigrated_database(make_database: Any) -> None:
    db = make_database()
    with pytest.raises(AuditStartupError, match=r"asat_audit migrate"):
        PostgresAuditStore(db.app_url)


def test_the_store_says_how_to_start_postgres_when_unreachable() -> None:
    with pytest.raises(AuditStartupError, match="pg_ctlcluster"):
        PostgresAuditStore("postgresql://nobody@127.0.0.1:1/none")


# A connection the server ends (idle, or in the middle of an append) is replaced by the store's
# pool: test_postgres_pool.py.


def test_a_revoked_insert_is_an_audit_write_error_with_the_reason(clean_audit_log: Any, make_record: Any) -> None:
    role = sql.Identifier(clean_audit_log.app_role)
    with PostgresAuditStore(clean_audit_log.app_url) as store, clean_audit_log.admin() as admin:
        admin.execute(sql.SQL("REVOKE INSERT ON research.audit_log FROM {}").format(role))
        try:
            with pytest.raises(AuditWriteError, match="permission denied"):
                store.append(make_record(0))
        finally:
            admin.execute(sql.SQL("GRANT INSERT ON research.audit_log TO {}").format(role))
        assert store.append(make_record(0)).id == 1


@pytest.mark.parametrize(
    ("row", "statement"),
    [
        (1, """UPDATE research.audit_log SET shown = '{"note":"added later"}' WHERE id = 1"""),  # none -> set
        (2, """UPDATE research.audit_log SET shown = '{"claims":[],"note":"edited"}' WHERE id = 2"""),  # edited
        (2, """UPDATE research.audit_log SET shown = '{"claims":[], "note":"as shown"}' WHERE id = 2"""),  # spacing
        (2, "UPDATE research.audit_log SET shown = NULL WHERE id = 2"),  # set -> none
        (3, """UPDATE research.audit_log SET asked_by = jsonb_set(asked_by, '{practice_id}', '9') WHERE id = 3"""),
        (
            1,
            """UPDATE research.audit_log SET asked_by = '{"user_id":1,"user_email":"x@y.z","practice_id":1,"client_id":null}' WHERE id = 1""",
        ),
    ],
)
def test_tampering_with_what_was_shown_is_found_by_verify(
    clean_audit_log: Any, make_record: Any, row: int, statement: LiteralString
) -> None:
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        store.append(make_record(0))
        store.append(make_record(1, shown='{"claims":[],"note":"as shown"}'))
        store.append(make_record(2, asked_by=AskedBy(5, "jo@example.com.au", 2)))
    assert _verify_json(clean_audit_log)[0] == 0
    _tamper(clean_audit_log, statement)
    code, report = _verify_json(clean_audit_log)
    assert code == 1
    assert report["checked"] == row - 1
    assert (report["broken"]["id"], report["broken"]["kind"]) == (row, "hash_mismatch")


def test_a_locked_table_fails_the_append_within_the_lock_timeout(clean_audit_log: Any, make_record: Any) -> None:
    """A database that holds the log locked (hung, or a runaway migration) gives an AuditWriteError
    after LOCK_TIMEOUT_MS, so research answers 503, never a request stalled without end."""
    lock_timeout_s = LOCK_TIMEOUT_MS / 1000
    outcome: list[BaseException | None] = []
    took: list[float] = []
    with PostgresAuditStore(clean_audit_log.app_url) as store, clean_audit_log.admin() as admin:
        admin.execute("BEGIN")
        admin.execute("LOCK TABLE research.audit_log IN ACCESS EXCLUSIVE MODE")

        def append() -> None:
            started = time.monotonic()
            try:
                store.append(make_record(0))
                outcome.append(None)
            except BaseException as exc:  # reported below
                outcome.append(exc)
            took.append(time.monotonic() - started)

        worker = threading.Thread(target=append)
        worker.start()
        worker.join(timeout=lock_timeout_s * 10)
        admin.execute("ROLLBACK")
    assert not worker.is_alive(), "the append was still waiting long after the lock timeout"
    assert len(outcome) == 1 and isinstance(outcome[0], AuditWriteError)
    assert "lock timeout" in str(outcome[0])
    # It waited for the lock (not failing for another reason) and no longer than the timeout allows.
    assert lock_timeout_s - 0.1 <= took[0] <= lock_timeout_s + 3.0, took
