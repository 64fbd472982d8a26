"""The migration runner against fresh databases on the real server."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import psycopg
import pytest

from asat_research.audit.migration_runner import (
    MigrationError,
    MigrationReport,
    load_migrations,
    migrate_database,
    parse_migrations,
)

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
    assert [m.name for m in first.applied] == ["audit_log"]
    assert first.version == len(load_migrations())
    again = migrate_database(db.owner_url, db.app_role)
    assert (again.applied, again.already_applied) == ((), len(load_migrations()))
    assert _applied(db) == [(1, "audit_log")]
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
    assert _applied(db) == [(1, "audit_log")]
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
    assert sorted(len(r.applied) for r in reports) == [0, 0, 0, 1]
    assert _applied(db) == [(1, "audit_log")]


def test_the_app_role_must_differ_from_the_owner(make_database: Any) -> None:
    db = make_database()
    with pytest.raises(MigrationError, match="must connect as a separate role"):
        migrate_database(db.owner_url, db.owner_role)


def test_the_app_role_must_exist(make_database: Any) -> None:
    db = make_database()
    with pytest.raises(MigrationError, match="does not exist: create it first"):
        migrate_database(db.owner_url, "asat_no_such_role_here")
