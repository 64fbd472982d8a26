"""Migrating schema app with the audit log's runner, and what the app role is granted."""

from __future__ import annotations

from collections.abc import Callable

import psycopg
import pytest

from asat_accounts.migrate import APP_FUNCTIONS, APP_PRIVILEGES, load_migrations, migrate
from asat_audit.migration_runner import MigrationError, migrate_database, parse_migrations
from asat_audit.migration_runner import load_migrations as load_audit_migrations

from .support import AccountsDatabase

pytestmark = pytest.mark.postgres

ALL_PRIVILEGES = ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER")


def _granted(db: AccountsDatabase) -> dict[str, tuple[str, ...]]:
    with db.admin() as admin:
        tables = [
            str(name)
            for (name,) in admin.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'app' ORDER BY tablename"
            ).fetchall()
        ]
        return {
            table: tuple(
                p
                for p in ALL_PRIVILEGES
                if admin.execute("SELECT has_table_privilege(%s, %s, %s)", (db.app_role, f"app.{table}", p)).fetchone()
                == (True,)
            )
            for table in tables
        }


def _applied(db: AccountsDatabase, schema: str) -> list[tuple[object, ...]]:
    with db.admin() as admin:
        return admin.execute(f"SELECT version, name FROM {schema}.schema_migrations ORDER BY version").fetchall()


def test_a_fresh_database_is_migrated_once_and_the_app_role_granted_exactly(
    make_database: Callable[[], AccountsDatabase],
) -> None:
    db = make_database()
    first = migrate(db.owner_url, db.app_role)
    assert [m.name for m in first.applied] == [m.name for m in load_migrations()]
    assert first.version == len(load_migrations())
    again = migrate(db.owner_url, db.app_role)
    assert (again.applied, again.already_applied) == ((), len(load_migrations()))
    assert _applied(db, "app") == [(m.version, m.name) for m in load_migrations()]
    assert _granted(db) == dict(APP_PRIVILEGES)
    with db.admin() as admin:
        for function in APP_FUNCTIONS:
            assert admin.execute(
                "SELECT has_function_privilege(%s, %s, 'EXECUTE')", (db.app_role, f"app.{function}")
            ).fetchone() == (True,)
            assert admin.execute(
                "SELECT has_function_privilege('public', %s, 'EXECUTE')", (f"app.{function}",)
            ).fetchone() == (False,)


def test_a_grant_made_by_hand_is_revoked_by_the_next_migrate(fresh_db: AccountsDatabase) -> None:
    with fresh_db.admin() as admin:
        admin.execute(f'GRANT TRUNCATE, DELETE ON app.practices TO "{fresh_db.app_role}"')
    assert "TRUNCATE" in _granted(fresh_db)["practices"]
    migrate(fresh_db.owner_url, fresh_db.app_role)
    assert _granted(fresh_db) == dict(APP_PRIVILEGES)


def test_accounts_and_the_audit_log_share_a_database_with_separate_histories(
    make_database: Callable[[], AccountsDatabase],
) -> None:
    db = make_database()
    migrate_database(db.owner_url, db.app_role)  # the audit log, by default
    migrate(db.owner_url, db.app_role)
    assert len(_applied(db, "research")) == len(load_audit_migrations())
    assert _applied(db, "app") == [(m.version, m.name) for m in load_migrations()]
    with db.admin() as admin:
        assert admin.execute(
            "SELECT has_table_privilege(%s, 'research.audit_log', 'INSERT')", (db.app_role,)
        ).fetchone() == (True,)


def test_a_table_without_an_entry_in_app_privileges_stops_the_run(
    make_database: Callable[[], AccountsDatabase],
) -> None:
    db = make_database()
    packaged = [(f"{m.version:04d}_{m.name}.sql", m.sql) for m in load_migrations()]
    extra = parse_migrations(
        [*packaged, (f"{len(packaged) + 1:04d}_documents.sql", "CREATE TABLE app.documents (practice_id bigint);")]
    )
    with pytest.raises(MigrationError, match=r"app\.documents have no entry in asat_accounts.migrate.APP_PRIVILEGES"):
        migrate(db.owner_url, db.app_role, extra)
    with psycopg.connect(db.admin_url) as admin:
        assert admin.execute(
            "SELECT has_table_privilege(%s, 'app.documents', 'SELECT')", (db.app_role,)
        ).fetchone() == (False,)


def test_the_app_role_must_not_be_the_owner(make_database: Callable[[], AccountsDatabase]) -> None:
    db = make_database()
    with pytest.raises(MigrationError, match="must connect as a separate role"):
        migrate(db.owner_url, db.owner_role)
