"""Schema ``app``: its migrations (``asat_accounts/migrations/NNNN_name.sql``) and the app role's grants.

The runner is the audit log's (``asat_audit.migration_runner``: numbered files, a checksummed
``app.schema_migrations``, an advisory lock), given this package's ``MigrationTarget``. After
every migrate the app role is left exactly ``APP_PRIVILEGES`` on each table (everything else
revoked: never ``TRUNCATE``, which row-level security does not filter), ``USAGE`` on the
schema and its sequences, and ``EXECUTE`` on ``APP_FUNCTIONS``. A table added by a migration but
missing from ``APP_PRIVILEGES`` stops the run, so no table is reachable by accident.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import psycopg
from psycopg import sql
from psycopg.rows import TupleRow

from asat_audit.migration_runner import (
    Migration,
    MigrationError,
    MigrationReport,
    MigrationTarget,
    migrate_database,
)

SCHEMA = "app"
PACKAGE = "asat_accounts"
MIGRATE_COMMAND = "python -m asat_accounts migrate"

# What the app role may do to each table of schema app (row-level security narrows it to rows).
APP_PRIVILEGES: Mapping[str, tuple[str, ...]] = {
    "schema_migrations": ("SELECT",),
    "practices": ("SELECT", "INSERT", "UPDATE"),
    "users": ("SELECT", "INSERT", "UPDATE"),
    "memberships": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    "clients": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    "secrets": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    "sessions": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    "sign_in_attempts": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    "provider_settings": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    # 0003_connections (asat_connections): the push and import ledgers are never deleted from.
    "xero_connections": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    "xero_authorisations": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    "xero_pushes": ("SELECT", "INSERT", "UPDATE"),
    "hubspot_connections": ("SELECT", "INSERT", "UPDATE", "DELETE"),
    "hubspot_imports": ("SELECT", "INSERT"),
    # 0004_research_history: append-only from the app's side.
    "research_history": ("SELECT", "INSERT"),
}

# The owner's functions the app role may call (each answers a count or ids across practices).
APP_FUNCTIONS: tuple[str, ...] = ("user_count()", "practice_ids()")


def grant_app_role(conn: psycopg.Connection[TupleRow], app_role: str) -> None:
    """Leave ``app_role`` exactly the privileges above on schema ``app`` (run as the owner)."""
    role = sql.Identifier(app_role)
    schema = sql.Identifier(SCHEMA)
    rows = conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = %s AND c.relkind IN ('r', 'p', 'v', 'm') ORDER BY c.relname",
        (SCHEMA,),
    ).fetchall()
    tables = [str(name) for (name,) in rows]
    unlisted = [name for name in tables if name not in APP_PRIVILEGES]
    if unlisted:
        raise MigrationError(
            f"table(s) {', '.join(f'app.{n}' for n in unlisted)} have no entry in "
            "asat_accounts.migrate.APP_PRIVILEGES: add what the app role may do to each (and a "
            "row-level security policy if it has a practice_id column), then run migrate again"
        )
    conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(schema, role))
    for name in tables:
        table = sql.Identifier(SCHEMA, name)
        conn.execute(sql.SQL("REVOKE ALL ON {} FROM {}").format(table, role))
        privileges = sql.SQL(", ").join(sql.SQL(p) for p in APP_PRIVILEGES[name])
        conn.execute(sql.SQL("GRANT {} ON {} TO {}").format(privileges, table, role))
    conn.execute(sql.SQL("REVOKE ALL ON ALL SEQUENCES IN SCHEMA {} FROM {}").format(schema, role))
    conn.execute(sql.SQL("GRANT USAGE ON ALL SEQUENCES IN SCHEMA {} TO {}").format(schema, role))
    for function in APP_FUNCTIONS:
        found = conn.execute("SELECT to_regprocedure(%s) IS NOT NULL", (f"{SCHEMA}.{function}",)).fetchone()
        if found == (True,):  # absent only before the migration that creates it
            conn.execute(sql.SQL("GRANT EXECUTE ON FUNCTION {}.{} TO {}").format(schema, sql.SQL(function), role))


TARGET = MigrationTarget(schema=SCHEMA, package=PACKAGE, grant_app_role=grant_app_role)


def load_migrations() -> tuple[Migration, ...]:
    """The packaged migrations of schema ``app``."""
    return TARGET.load()


def migrate(url: str, app_role: str, migrations: Sequence[Migration] | None = None) -> MigrationReport:
    """Bring schema ``app`` up to date at ``url`` (the owner role's) and grant ``app_role``."""
    return migrate_database(url, app_role, migrations, TARGET)
