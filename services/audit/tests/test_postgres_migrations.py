"""The migration runner against fresh databases on the real server."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from asat_audit.canonical import GENESIS_HASH, chain_hash, record_document
from asat_audit.migration_runner import (
    MigrationError,
    MigrationReport,
    load_migrations,
    migrate_database,
    parse_migrations,
)
from asat_audit.postgres_rows import JSON_COLUMNS
from asat_audit.postgres_store import PostgresAuditStore
from asat_audit.store import AuditStartupError

pytestmark = pytest.mark.postgres


def _privileges(db: Any) -> tuple[Any, ...] | None:
    with psycopg.connect(db.admin_url) as admin:
        return admin.execute(
            "SELECT has_table_privilege(%(r)s, 'research.audit_log', 'SELECT'),"
            " has_table_privilege(%(r)s, 'research.audit_log', 'INSERT'),"
            " has_table_privilege(%(r)s, 'research.audit_log', 'UPDATE'),"
            " has_table_privilege(%(r)s, 'research.audit_log', 'DELETE'),"
            " has_table_privilege(%(r)s, 'research.audit_log', 'TRUNCATE')",
            {"r": db.app_role},
        ).fetchone()


def _applied(db: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(db.admin_url) as admin:
        return admin.execute("SELECT version, name FROM research.schema_migrations ORDER BY version").fetchall()


def test_a_fresh_database_is_migrated_once_and_the_app_role_granted(make_database: Any) -> None:
    db = make_database()
    first = migrate_database(db.owner_url, db.app_role)
    assert [m.name for m in first.applied] == ["audit_log", "as_known_on", "shown", "checkpoints", "asked_by"]
    assert first.version == len(load_migrations())
    again = migrate_database(db.owner_url, db.app_role)
    assert (again.applied, again.already_applied) == ((), len(load_migrations()))
    assert _applied(db) == [(1, "audit_log"), (2, "as_known_on"), (3, "shown"), (4, "checkpoints"), (5, "asked_by")]
    assert _privileges(db) == (True, True, False, False, False)


def test_a_changed_applied_migration_stops_the_run(make_database: Any) -> None:
    db = make_database()
    migrate_database(db.owner_url, db.app_role)
    edited = tuple(replace(m, checksum="0" * 64) for m in load_migrations())
    with pytest.raises(MigrationError, match="was changed after it was applied"):
        migrate_database(db.owner_url, db.app_role, edited)


def test_a_failing_migration_is_rolled_back_and_not_recorded(make_database: Any) -> None:
    db = make_database()
    packaged = [(f"{m.version:04d}_{m.name}.sql", m.sql) for m in load_migrations()]
    broken = parse_migrations(
        [*packaged, (f"{len(packaged) + 1:04d}_broken.sql", "CREATE TABLE research.t (x int); SELEC 1;")]
    )
    with pytest.raises(MigrationError, match="failed and was rolled back"):
        migrate_database(db.owner_url, db.app_role, broken)
    assert _applied(db) == [(1, "audit_log"), (2, "as_known_on"), (3, "shown"), (4, "checkpoints"), (5, "asked_by")]
    with psycopg.connect(db.admin_url) as admin:
        assert admin.execute("SELECT to_regclass('research.t')").fetchone() == (None,)


def test_two_runners_starting_together_do_not_race(make_database: Any) -> None:
    db = make_database()
    start = threading.Barrier(4)
    reports: list[MigrationReport] = []
    failures: list[BaseException] = []

    def run() -> None:
        try:
            start.wait()
            reports.append(migrate_database(db.owner_url, db.app_role))
        except BaseException as exc:  # reported below
            failures.append(exc)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert sorted(len(r.applied) for r in reports) == [0, 0, 0, len(load_migrations())]
    assert _applied(db) == [(1, "audit_log"), (2, "as_known_on"), (3, "shown"), (4, "checkpoints"), (5, "asked_by")]


def test_the_app_role_must_differ_from_the_owner(make_database: Any) -> None:
    db = make_database()
    with pytest.raises(MigrationError, match="must connect as a separate role"):
        migrate_database(db.owner_url, db.owner_role)


def test_the_app_role_must_exist(make_database: Any) -> None:
    db = make_database()
    with pytest.raises(MigrationError, match="does not exist: create it first"):
        migrate_database(db.owner_url, "asat_no_such_role_here")


def test_a_log_written_before_as_known_on_and_shown_still_verifies_after_0003(
    make_database: Any, make_record: Any
) -> None:
    db = make_database()
    migrate_database(db.owner_url, db.app_role, load_migrations()[:1])
    # Two rows as the code before 0002 wrote them: no as_known_on column, hash over the old document.
    prev_hash = GENESIS_HASH
    moment = datetime(2024, 7, 1, 3, 4, 5, 6, tzinfo=UTC)
    with psycopg.connect(db.app_url, autocommit=True) as conn:
        for entry_id in (1, 2):
            record = make_record(entry_id)
            document = record_document(entry_id, moment, record)
            digest = chain_hash(prev_hash, document)
            params: dict[str, object] = {**document, "recorded_at": moment, "as_of": record.as_of}
            for name in JSON_COLUMNS:
                params[name] = Jsonb(document[name])
            conn.execute(
                "INSERT INTO research.audit_log (id, recorded_at, request_id, question, as_of, income_year,"
                " decision, reasons, citations, verified_quotes, reading_list, provider, model, seed,"
                " corpus_generation, latencies, prev_hash, hash) VALUES (%(id)s, %(recorded_at)s,"
                " %(request_id)s, %(question)s, %(as_of)s, %(income_year)s, %(decision)s, %(reasons)s,"
                " %(citations)s, %(verified_quotes)s, %(reading_list)s, %(provider)s, %(model)s, %(seed)s,"
                " %(corpus_generation)s, %(latencies)s, %(prev_hash)s, %(hash)s)",
                {**params, "prev_hash": prev_hash, "hash": digest},
            )
            prev_hash = digest
    with pytest.raises(AuditStartupError, match="version 1 and this code needs 5"):
        PostgresAuditStore(db.app_url)

    report = migrate_database(db.owner_url, db.app_role)
    assert [m.name for m in report.applied] == ["as_known_on", "shown", "checkpoints", "asked_by"]
    with PostgresAuditStore(db.app_url) as store:
        old = store.get(2)
        assert old is not None
        assert (old.record.as_known_on, old.hash) == (None, prev_hash)
        new = store.append(make_record(3, as_known_on=date(2015, 10, 31), shown='{"note":"as shown"}'))
        assert (new.id, new.prev_hash, new.record.as_known_on) == (3, prev_hash, date(2015, 10, 31))
        assert (old.record.shown, new.record.shown) == (None, '{"note":"as shown"}')
        verified = store.verify()
    assert (verified.ok, verified.checked, verified.last_hash) == (True, 3, new.hash)
