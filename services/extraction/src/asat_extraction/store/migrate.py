"""Schema ``extraction``: numbered SQL files, a migrations table, an advisory lock, the app role's grants.

Files ``NNNN_name.sql`` run in order 1, 2, 3, ... each in its own transaction with its row in
``extraction.schema_migrations``. An applied file whose checksum changed stops the run: never edit
an applied migration; add the next one.

``python -m asat_extraction migrate`` runs them as the owner role (``ASAT_EXTRACTION_MIGRATE_URL``);
the service connects as the app role, which after every migrate holds exactly ``APP_PRIVILEGES``
(everything else revoked: never ``TRUNCATE``, which row-level security does not filter), ``USAGE``
on the schema and its sequences. A table added by a migration but missing from ``APP_PRIVILEGES``
stops the run, so no table is reachable by accident.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import psycopg
from psycopg import sql

SCHEMA = "extraction"
LOCK_KEY = 0x4153_4154_4558_5452  # "ASATEXTR"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
MIGRATE_COMMAND = "python -m asat_extraction migrate"
# The session setting 0002_practices reads: the practice that owns rows stored before practices.
EXISTING_ROWS_SETTING = "asat.existing_rows_practice"

# What the app role may do to each table of schema extraction (row-level security narrows it to
# the practice's rows). Documents and corrections are only ever added; a transaction is corrected.
APP_PRIVILEGES: Mapping[str, tuple[str, ...]] = {
    "schema_migrations": ("SELECT",),
    "documents": ("SELECT", "INSERT"),
    "transactions": ("SELECT", "INSERT", "UPDATE"),
    "corrections": ("SELECT", "INSERT"),
}
# Tables of schema extraction that hold no practice's data: every other table must have a
# practice_id column and a row-level security policy on it (the role check and the tests say so).
NON_TENANT_TABLES = frozenset({"schema_migrations"})


class MigrationError(Exception):
    """The schema cannot be brought up to date; the message says what to do."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str
    checksum: str


def load_migrations() -> tuple[Migration, ...]:
    root = resources.files("asat_extraction.store") / "migrations"
    found: list[Migration] = []
    for entry in root.iterdir():
        match = _NAME.match(entry.name)
        if match is None:
            continue
        text = entry.read_text(encoding="utf-8")
        found.append(Migration(int(match[1]), match[2], text, hashlib.sha256(text.encode()).hexdigest()))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(f"migration {expected:04d} is missing: versions must run 1, 2, 3, ... without gaps")
    return tuple(found)


def latest_version() -> int:
    """The version the code needs the schema at: its last migration's."""
    return len(load_migrations())


def grant_app_role(conn: psycopg.Connection[Any], app_role: str) -> None:
    """Leave ``app_role`` exactly ``APP_PRIVILEGES`` on schema ``extraction`` (run as the owner)."""
    role = sql.Identifier(app_role)
    schema = sql.Identifier(SCHEMA)
    rows = conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = %s AND c.relkind IN ('r', 'p', 'v', 'm') ORDER BY c.relname",
        (SCHEMA,),
    ).fetchall()
    tables = [str(row[0]) for row in rows]
    unlisted = [name for name in tables if name not in APP_PRIVILEGES]
    if unlisted:
        raise MigrationError(
            f"table(s) {', '.join(f'{SCHEMA}.{n}' for n in unlisted)} have no entry in "
            "asat_extraction.store.migrate.APP_PRIVILEGES: add what the app role may do to each (and a "
            "practice_id column with its row-level security policy, or an entry in NON_TENANT_TABLES), "
            "then run migrate again"
        )
    conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(schema, role))
    for name in tables:
        table = sql.Identifier(SCHEMA, name)
        conn.execute(sql.SQL("REVOKE ALL ON {} FROM {}").format(table, role))
        privileges = sql.SQL(", ").join(sql.SQL(p) for p in APP_PRIVILEGES[name])
        conn.execute(sql.SQL("GRANT {} ON {} TO {}").format(privileges, table, role))
    conn.execute(sql.SQL("REVOKE ALL ON ALL SEQUENCES IN SCHEMA {} FROM {}").format(schema, role))
    conn.execute(sql.SQL("GRANT USAGE ON ALL SEQUENCES IN SCHEMA {} TO {}").format(schema, role))


def migrate(
    url: str,
    app_role: str,
    existing_rows_practice: int | None = None,
    migrations: Sequence[Migration] | None = None,
) -> int:
    """Apply pending migrations to the database at ``url`` (the owner role's) and grant
    ``app_role``; returns how many were applied. ``existing_rows_practice``: the practice that
    owns documents stored before documents belonged to a practice (0002 stops without it when
    there are any). ``migrations``: the packaged ones unless given (tests stop at an older one)."""
    if existing_rows_practice is not None and existing_rows_practice < 1:
        raise MigrationError(
            f"--existing-rows-practice {existing_rows_practice}: a practice id is a whole number from 1"
        )
    chosen = tuple(load_migrations() if migrations is None else migrations)
    with psycopg.connect(url, autocommit=True) as conn:
        current = conn.execute("SELECT current_user").fetchone()
        if current is not None and current[0] == app_role:
            raise MigrationError(
                f"the app role {app_role!r} is the role running migrations (the tables' owner): the service must "
                "connect as a separate role, granted only what it needs by migrate"
            )
        exists = conn.execute("SELECT count(*) FROM pg_roles WHERE rolname = %s", (app_role,)).fetchone()
        if exists is None or exists[0] == 0:
            raise MigrationError(
                f"the app role {app_role!r} does not exist: create it first "
                f"(CREATE ROLE {app_role} LOGIN PASSWORD '...'), then run migrate again"
            )
        conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            conn.execute(
                "SELECT set_config(%s, %s, false)",
                (EXISTING_ROWS_SETTING, "" if existing_rows_practice is None else str(existing_rows_practice)),
            )
            applied_now = _apply(conn, chosen)
            with conn.transaction():
                grant_app_role(conn, app_role)
            return applied_now
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))


def _apply(conn: psycopg.Connection[Any], migrations: tuple[Migration, ...]) -> int:
    conn.execute(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}")
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS {SCHEMA}.schema_migrations (version integer PRIMARY KEY,"
        " name text NOT NULL, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
    )
    rows = conn.execute(f"SELECT version, checksum FROM {SCHEMA}.schema_migrations").fetchall()
    applied = {int(version): str(checksum) for version, checksum in rows}
    known = {m.version: m for m in migrations}
    for version, checksum in applied.items():
        if version not in known:
            raise MigrationError(
                f"the database has extraction migration {version:04d}, unknown to this code: run a newer release"
            )
        if known[version].checksum != checksum:
            raise MigrationError(
                f"extraction migration {version:04d}_{known[version].name} changed after it was applied: "
                "restore the file and put the change in a new migration"
            )
    pending = [m for m in migrations if m.version not in applied]
    for migration in pending:
        with conn.transaction():
            try:
                conn.execute(migration.sql.encode())
            except psycopg.Error as error:
                raise MigrationError(
                    f"extraction migration {migration.version:04d}_{migration.name} failed and was rolled back: "
                    f"{str(error).strip()}"
                ) from error
            conn.execute(
                f"INSERT INTO {SCHEMA}.schema_migrations (version, name, checksum) VALUES (%s, %s, %s)",
                (migration.version, migration.name, migration.checksum),
            )
    return len(pending)
