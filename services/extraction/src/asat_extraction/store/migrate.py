"""Self-migrating schema ``extraction``: numbered SQL files, a migrations table, an advisory lock.

Files ``NNNN_name.sql`` run in order 1, 2, 3, ... each in its own transaction with its row in
``extraction.schema_migrations``. An applied file whose checksum changed stops the run: never edit
an applied migration; add the next one.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources

import psycopg

SCHEMA = "extraction"
LOCK_KEY = 0x4153_4154_4558_5452  # "ASATEXTR"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


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


def migrate(url: str) -> int:
    """Apply pending migrations to the database at ``url``; returns how many were applied."""
    migrations = load_migrations()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
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
                    conn.execute(migration.sql.encode())
                    conn.execute(
                        f"INSERT INTO {SCHEMA}.schema_migrations (version, name, checksum) VALUES (%s, %s, %s)",
                        (migration.version, migration.name, migration.checksum),
                    )
            return len(pending)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
