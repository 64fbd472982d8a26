"""Self-migrating schemas: ordered SQL files, a migrations table, an advisory lock.

Files are named ``NNNN_name.sql`` and numbered 1, 2, 3, ... without gaps. Each is applied in its
own transaction together with its row in ``<schema>.schema_migrations(version, name, checksum,
applied_at)``. A session advisory lock serialises runners, so two services starting together do
not race. An applied migration whose file changed (checksum) stops the run: migrations are never
edited once applied; add a new one instead.

Which schema, which packaged ``migrations/`` folder and which grants is a ``MigrationTarget``;
the default, ``AUDIT``, is schema ``research`` of this package. Another library (``asat_accounts``,
schema ``app``) passes its own target. Migrations run as the owner role
(``ASAT_AUDIT_MIGRATE_URL`` for the audit log); after them the runner calls the target's grant
function, which for the audit log (re)grants the app role ``USAGE`` on the schema and ``SELECT,
INSERT`` on the log, and revokes the rest.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import LiteralString

import psycopg
from psycopg import sql
from psycopg.rows import TupleRow

SCHEMA = "research"  # the audit log's schema (``AUDIT.schema``)
MIGRATION_LOCK_KEY = 0x4153_4154_4D49_4752  # "ASATMIGR": pg_advisory_lock key of the runner
_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class MigrationError(Exception):
    """The schema cannot be brought up to date safely; the message says what to do."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str
    checksum: str  # sha256 hex of the file's UTF-8 bytes


@dataclass(frozen=True)
class AppliedMigration:
    version: int
    name: str
    checksum: str


@dataclass(frozen=True)
class MigrationReport:
    applied: tuple[Migration, ...]
    already_applied: int

    @property
    def version(self) -> int:
        return self.already_applied + len(self.applied)


def parse_migrations(files: Iterable[tuple[str, str]]) -> tuple[Migration, ...]:
    """Migrations from ``(file name, SQL text)`` pairs: checked, numbered 1..n, in order."""
    found: dict[int, Migration] = {}
    for file_name, text in files:
        match = _FILE_NAME.match(file_name)
        if match is None:
            raise MigrationError(f"migration file {file_name!r} is not named NNNN_lowercase_name.sql: rename it")
        version = int(match.group(1))
        if version in found:
            raise MigrationError(f"two migration files have version {version}: renumber one of them")
        checksum = hashlib.sha256(text.encode("utf-8")).hexdigest()
        found[version] = Migration(version=version, name=match.group(2), sql=text, checksum=checksum)
    ordered = tuple(found[v] for v in sorted(found))
    for expected, migration in enumerate(ordered, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migration versions must run 1, 2, 3, ... without gaps: expected {expected:04d}, "
                f"found {migration.version:04d}_{migration.name}.sql"
            )
    return ordered


def load_migrations(directory: Traversable | None = None) -> tuple[Migration, ...]:
    """The ``*.sql`` files of ``directory`` (default: the packaged ``asat_audit/migrations``)."""
    root = directory if directory is not None else resources.files("asat_audit") / "migrations"
    files = [(f.name, f.read_text(encoding="utf-8")) for f in root.iterdir() if f.name.endswith(".sql")]
    return parse_migrations(files)


GrantAppRole = Callable[["psycopg.Connection[TupleRow]", str], None]


@dataclass(frozen=True)
class MigrationTarget:
    """One schema's migrations: where they are applied, where they ship, what the app role gets.

    ``package`` holds a ``migrations/`` folder of ``NNNN_name.sql`` files. ``grant_app_role(conn,
    role)`` runs after every migrate (in a transaction, as the owner) and must leave the app role
    exactly the privileges it needs, revoking the rest, so a rerun repairs hand-made grants.
    """

    schema: str
    package: str
    grant_app_role: GrantAppRole

    def load(self) -> tuple[Migration, ...]:
        """The packaged migrations of ``package``."""
        return load_migrations(resources.files(self.package) / "migrations")


def plan_migrations(available: Sequence[Migration], applied: Sequence[AppliedMigration]) -> tuple[Migration, ...]:
    """The migrations still to apply; refuses a changed, unknown or out-of-order applied migration."""
    by_version = {m.version: m for m in available}
    for number, done in enumerate(sorted(applied, key=lambda a: a.version), start=1):
        if done.version != number:
            raise MigrationError(
                f"the database records migration {done.version:04d} but not {number:04d}: the "
                "migrations table was edited by hand; restore it from a backup"
            )
        known = by_version.get(done.version)
        if known is None:
            raise MigrationError(
                f"the database has migration {done.version:04d}_{done.name} which this code does not "
                "know: it was migrated by a newer release; run that release (or a newer one)"
            )
        if known.checksum != done.checksum:
            raise MigrationError(
                f"migration {done.version:04d}_{done.name} was changed after it was applied "
                f"(checksum {done.checksum[:12]} in the database, {known.checksum[:12]} on disk): "
                "restore the original file and put the change in a new migration"
            )
    applied_versions = {a.version for a in applied}
    return tuple(m for m in available if m.version not in applied_versions)


def apply_migrations(
    conn: psycopg.Connection[TupleRow],
    migrations: Sequence[Migration],
    app_role: str,
    target: MigrationTarget | None = None,
) -> MigrationReport:
    """Bring ``target``'s schema (default: ``research``) up to date on ``conn`` (the owner) and
    grant ``app_role``.

    ``conn`` must be in autocommit mode; each migration runs in its own transaction.
    """
    chosen = AUDIT if target is None else target
    schema = sql.Identifier(chosen.schema)
    if not conn.autocommit:
        raise MigrationError("apply_migrations needs an autocommit connection: connect with autocommit=True")
    current = _scalar(conn, "SELECT current_user")
    if app_role == current:
        raise MigrationError(
            f"the app role {app_role!r} is the role running migrations (the table owner): the app "
            "must connect as a separate role, granted only what it needs by migrate"
        )
    if _scalar(conn, "SELECT count(*) FROM pg_roles WHERE rolname = %s", (app_role,)) == 0:
        raise MigrationError(
            f"the app role {app_role!r} does not exist: create it first "
            f"(CREATE ROLE {app_role} LOGIN PASSWORD '...'), then run migrate again"
        )
    conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))
    try:
        with conn.transaction():
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(schema))
            conn.execute(
                sql.SQL(
                    "CREATE TABLE IF NOT EXISTS {}.schema_migrations ("
                    " version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,"
                    " applied_at timestamptz NOT NULL DEFAULT now())"
                ).format(schema)
            )
        rows = conn.execute(
            sql.SQL("SELECT version, name, checksum FROM {}.schema_migrations").format(schema)
        ).fetchall()
        applied = [AppliedMigration(int(str(v)), str(n), str(c)) for v, n, c in rows]
        pending = plan_migrations(migrations, applied)
        for migration in pending:
            with conn.transaction():
                try:
                    conn.execute(migration.sql.encode("utf-8"))
                except psycopg.Error as exc:
                    raise MigrationError(
                        f"migration {migration.version:04d}_{migration.name} failed and was rolled back: {exc}".strip()
                    ) from exc
                conn.execute(
                    sql.SQL("INSERT INTO {}.schema_migrations (version, name, checksum) VALUES (%s, %s, %s)").format(
                        schema
                    ),
                    (migration.version, migration.name, migration.checksum),
                )
        with conn.transaction():
            chosen.grant_app_role(conn, app_role)
        return MigrationReport(applied=pending, already_applied=len(applied))
    finally:
        if not conn.closed:
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))


def migrate_database(
    url: str,
    app_role: str,
    migrations: Sequence[Migration] | None = None,
    target: MigrationTarget | None = None,
) -> MigrationReport:
    """Connect to ``url`` as the owner role, apply ``target``'s pending migrations (default: the
    audit log's), grant ``app_role``."""
    chosen_target = AUDIT if target is None else target
    chosen = chosen_target.load() if migrations is None else migrations
    with psycopg.connect(url, autocommit=True) as conn:
        return apply_migrations(conn, chosen, app_role, chosen_target)


def _grant_app_role(conn: psycopg.Connection[TupleRow], app_role: str) -> None:
    role = sql.Identifier(app_role)
    conn.execute(sql.SQL("GRANT USAGE ON SCHEMA research TO {}").format(role))
    conn.execute(sql.SQL("GRANT SELECT ON research.schema_migrations TO {}").format(role))
    conn.execute(sql.SQL("GRANT SELECT, INSERT ON research.audit_log TO {}").format(role))
    conn.execute(
        sql.SQL("REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON research.audit_log FROM {}").format(role)
    )
    if _scalar(conn, "SELECT to_regclass('research.audit_checkpoints') IS NOT NULL"):  # from migration 0004
        conn.execute(sql.SQL("GRANT SELECT, INSERT ON research.audit_checkpoints TO {}").format(role))


AUDIT = MigrationTarget(schema=SCHEMA, package="asat_audit", grant_app_role=_grant_app_role)


def _scalar(conn: psycopg.Connection[TupleRow], query: LiteralString, params: tuple[object, ...] = ()) -> object:
    row = conn.execute(query, params or None).fetchone()
    if row is None:
        raise MigrationError(f"query returned no row: {query}")
    return row[0]
