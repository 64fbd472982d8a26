"""The Postgres AuditStore: ``research.audit_log`` over plain psycopg 3.

``PostgresAuditLog`` reads (any role that may SELECT). ``PostgresAuditStore`` also appends, and
refuses to start unless its role may only SELECT and INSERT the log. Appends from every process
serialise on a transaction advisory lock: lock, read the last row, take the database clock,
hash, insert, commit. Each instance holds one connection, shared by its threads under a lock,
and reconnects (re-checking the role) after the connection breaks.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime
from typing import Any, LiteralString, Self

import psycopg
from psycopg.rows import DictRow, dict_row
from psycopg.types.json import Jsonb

from asat_audit.canonical import GENESIS_HASH, chain_hash, record_document
from asat_audit.chain import ChainLink, ChainReport, verify_chain
from asat_audit.checkpoint import Checkpoint, CheckpointFormatError, from_json, to_json
from asat_audit.migration_runner import load_migrations
from asat_audit.postgres_rows import COLUMNS, INSERT, JSON_COLUMNS, row_entry, row_link
from asat_audit.record import AuditEntry, AuditRecord
from asat_audit.role_check import require_safe_app_role
from asat_audit.store import AuditReadError, AuditStartupError, AuditWriteError

CHAIN_LOCK_KEY = 0x4153_4154_4155_4454  # "ASATAUDT": pg_advisory_xact_lock key of chain appends
CONNECT_TIMEOUT_S = 5
# A hung or locked database fails a statement within these bounds (an error, never a stalled
# request): no audit statement runs longer than STATEMENT_TIMEOUT_MS or waits for a lock (the
# chain's advisory lock included) longer than LOCK_TIMEOUT_MS.
STATEMENT_TIMEOUT_MS = 5000
LOCK_TIMEOUT_MS = 3000
PAGE_SIZE = 1000
_SELECT: LiteralString = "SELECT " + COLUMNS + " FROM research.audit_log"
# The rows one practice asked (index audit_log_practice, migration 0005).
_OF_PRACTICE: LiteralString = "(asked_by ->> 'practice_id')::bigint = %s"


def connect(url: str) -> psycopg.Connection[DictRow]:
    """An autocommit connection returning dict rows; ``AuditStartupError`` says why it failed."""
    try:
        return psycopg.connect(
            url,
            autocommit=True,
            row_factory=dict_row,
            connect_timeout=CONNECT_TIMEOUT_S,
            options=f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c lock_timeout={LOCK_TIMEOUT_MS}",
        )
    except psycopg.Error as exc:
        raise AuditStartupError(
            f"cannot connect to the audit database: {str(exc).strip()}. Check the connection URL and that "
            "Postgres is running (`pg_ctlcluster --skip-systemctl-redirect 15 main start`)"
        ) from exc


class PostgresAuditLog:
    """Read access to the log: get, last N, iterate, verify."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[DictRow] | None = None
        with self._lock:
            self._connection()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, entry_id: int) -> AuditEntry | None:
        rows = self._read(_SELECT + " WHERE id = %s", (entry_id,))
        return row_entry(rows[0]) if rows else None

    def last(self, n: int, practice_id: int | None = None) -> tuple[AuditEntry, ...]:
        if n < 0:
            raise ValueError(f"last(n) needs n >= 0, got {n}")
        if practice_id is None:
            rows = self._read(_SELECT + " ORDER BY id DESC LIMIT %s", (n,))
        else:
            rows = self._read(_SELECT + " WHERE " + _OF_PRACTICE + " ORDER BY id DESC LIMIT %s", (practice_id, n))
        return tuple(row_entry(row) for row in reversed(rows))

    def find(self, contains: str, n: int, practice_id: int | None = None) -> tuple[AuditEntry, ...]:
        if n < 0:
            raise ValueError(f"find(contains, n) needs n >= 0, got {n}")
        pattern = "%" + like_literal(contains) + "%"
        if practice_id is None:
            query = _SELECT + " WHERE question ILIKE %s ESCAPE '\\' ORDER BY id DESC LIMIT %s"
            rows = self._read(query, (pattern, n))
        else:
            query = _SELECT + " WHERE " + _OF_PRACTICE + " AND question ILIKE %s ESCAPE '\\' ORDER BY id DESC LIMIT %s"
            rows = self._read(query, (practice_id, pattern, n))
        return tuple(row_entry(row) for row in reversed(rows))

    def iter_entries(self, after_id: int = 0) -> Iterator[AuditEntry]:
        for row in self._iter_rows(after_id):
            yield row_entry(row)

    def iter_links(self) -> Iterator[ChainLink]:
        for row in self._iter_rows(0):
            yield row_link(row)

    def verify(self) -> ChainReport:
        return verify_chain(self.iter_links())

    def checkpoints(self) -> tuple[Checkpoint, ...]:
        rows = self._read("SELECT body FROM research.audit_checkpoints ORDER BY last_id", ())
        try:
            return tuple(from_json(str(row["body"])) for row in rows)
        except CheckpointFormatError as exc:
            raise AuditReadError(f"research.audit_checkpoints holds a row that is not a checkpoint: {exc}") from exc

    def _iter_rows(self, after_id: int) -> Iterator[dict[str, Any]]:
        """Keyset pages in id order; no transaction or lock is held between pages."""
        cursor = after_id
        while True:
            rows = self._read(_SELECT + " WHERE id > %s ORDER BY id LIMIT %s", (cursor, PAGE_SIZE))
            yield from rows
            if len(rows) < PAGE_SIZE:
                return
            cursor = int(rows[-1]["id"])

    def _read(self, query: LiteralString, params: tuple[object, ...]) -> list[dict[str, Any]]:
        with self._lock:
            try:
                return self._connection().execute(query, params).fetchall()
            except psycopg.Error as exc:
                self._drop_if_broken()
                raise AuditReadError(f"reading research.audit_log failed: {str(exc).strip()}") from exc
            except AuditStartupError as exc:
                raise AuditReadError(str(exc)) from exc

    def _connection(self) -> psycopg.Connection[DictRow]:
        """The live connection (caller holds ``_lock``), reconnecting after a break."""
        if self._conn is None or self._conn.closed or self._conn.broken:
            self._conn = connect(self._url)
            try:
                self._on_connect(self._conn)
            except BaseException:
                self._conn.close()
                self._conn = None
                raise
        return self._conn

    def _on_connect(self, conn: psycopg.Connection[DictRow]) -> None:
        """Checks run on every new connection (none for reading)."""

    def _drop_if_broken(self) -> None:
        if self._conn is not None and (self._conn.closed or self._conn.broken):
            self._conn.close()
            self._conn = None


class PostgresAuditStore(PostgresAuditLog):
    """The writer. Raises ``AuditStartupError`` unless connected as a SELECT+INSERT-only role on
    an up-to-date schema; ``append`` raises ``AuditWriteError`` whenever the row was not stored."""

    def _on_connect(self, conn: psycopg.Connection[DictRow]) -> None:
        require_safe_app_role(conn)
        needed = len(load_migrations())
        row = conn.execute("SELECT coalesce(max(version), 0) AS version FROM research.schema_migrations").fetchone()
        have = int(row["version"]) if row is not None else 0
        if have < needed:
            raise AuditStartupError(
                f"the audit schema is at version {have} and this code needs {needed}: run "
                "`python -m asat_audit migrate` with ASAT_AUDIT_MIGRATE_URL set to the owner role"
            )

    def append(self, record: AuditRecord) -> AuditEntry:
        with self._lock:
            try:
                conn = self._connection()
                with conn.transaction():
                    return _append_locked(conn, record)
            except AuditStartupError as exc:
                raise AuditWriteError(f"audit record not stored: {exc}") from exc
            except psycopg.Error as exc:
                self._drop_if_broken()
                raise AuditWriteError(f"audit record not stored: {str(exc).strip()}") from exc

    def add_checkpoint(self, checkpoint: Checkpoint) -> None:
        with self._lock:
            try:
                with self._connection().transaction() as tx:
                    _store_checkpoint(tx.connection, checkpoint)
            except AuditStartupError as exc:
                raise AuditWriteError(f"checkpoint not stored: {exc}") from exc
            except psycopg.Error as exc:
                self._drop_if_broken()
                raise AuditWriteError(f"checkpoint not stored: {str(exc).strip()}") from exc


def _store_checkpoint(conn: psycopg.Connection[DictRow], checkpoint: Checkpoint) -> None:
    conn.execute(
        "INSERT INTO research.audit_checkpoints (last_id, first_id, body) VALUES (%s, %s, %s)",
        (checkpoint.last_id, checkpoint.first_id, to_json(checkpoint)),
    )


def _append_locked(conn: psycopg.Connection[DictRow], record: AuditRecord) -> AuditEntry:
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (CHAIN_LOCK_KEY,))
    # A new statement after the lock: its snapshot sees every append committed before ours.
    head = conn.execute(
        "SELECT clock_timestamp() AS now, last.id, last.hash FROM (SELECT 1) AS one"
        " LEFT JOIN LATERAL (SELECT id, hash FROM research.audit_log ORDER BY id DESC LIMIT 1) AS last ON true"
    ).fetchone()
    if head is None:
        raise AuditWriteError("audit record not stored: the database returned no clock reading")
    recorded_at: datetime = head["now"]
    entry_id = 1 if head["id"] is None else int(head["id"]) + 1
    prev_hash = GENESIS_HASH if head["hash"] is None else str(head["hash"])
    document = record_document(entry_id, recorded_at, record)
    digest = chain_hash(prev_hash, document)
    params: dict[str, object] = {
        **document,
        "recorded_at": recorded_at,
        "as_of": record.as_of,
        "as_known_on": record.as_known_on,
        "shown": record.shown,
        "asked_by": Jsonb(document["asked_by"]) if record.asked_by is not None else None,
    }
    for name in JSON_COLUMNS:
        params[name] = Jsonb(document[name])
    params["prev_hash"] = prev_hash
    params["hash"] = digest
    conn.execute(INSERT, params)
    return AuditEntry(id=entry_id, recorded_at=recorded_at, prev_hash=prev_hash, hash=digest, record=record)


def like_literal(text: str) -> str:
    """``text`` as a literal inside an ``ILIKE ... ESCAPE '\\'`` pattern: ``%``, ``_`` and ``\\`` escaped."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
