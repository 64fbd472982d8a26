"""The Postgres AuditStore: ``research.audit_log`` over psycopg 3 and a small connection pool.

``PostgresAuditLog`` reads (any role that may SELECT). ``PostgresAuditStore`` also appends, and
refuses to start unless its role may only SELECT and INSERT the log. Appends from every process
serialise on a transaction advisory lock: lock, read the last row, take the database clock,
hash, insert, commit.

Each instance checks the database once on a direct connection (unreachable, wrong role or
schema: ``AuditStartupError``), then keeps a small ``psycopg_pool.ConnectionPool`` (sizes and
timeouts: ``asat_audit.pool_settings``), shared by its threads. Every new pooled connection is
checked again (the writer's role and schema) before it is used; every connection is tested
before it is handed out, so one the server dropped is replaced (and the idle ones with it); no
call waits longer than ``wait_s`` for one. Any failure is the store's ``AuditReadError`` /
``AuditWriteError`` naming the cause.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any, LiteralString, Self, TypeVar

import psycopg
from psycopg.conninfo import make_conninfo
from psycopg.rows import DictRow, dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool, PoolTimeout

from asat_audit.canonical import GENESIS_HASH, chain_hash, record_document
from asat_audit.chain import ChainLink, ChainReport, verify_chain
from asat_audit.checkpoint import Checkpoint, CheckpointFormatError, from_json, to_json
from asat_audit.migration_runner import load_migrations
from asat_audit.pool_settings import (
    CONNECT_TIMEOUT_S,
    DEFAULT_POOL,
    LOCK_TIMEOUT_MS,
    START_HINT,
    STATEMENT_TIMEOUT_MS,
    PoolSettings,
    connection_params,
    no_connection_message,
)
from asat_audit.postgres_rows import COLUMNS, INSERT, JSON_COLUMNS, row_entry, row_link
from asat_audit.record import AuditEntry, AuditRecord
from asat_audit.role_check import require_safe_app_role
from asat_audit.store import AuditReadError, AuditStartupError, AuditWriteError

__all__ = [
    "CHAIN_LOCK_KEY",
    "CONNECT_TIMEOUT_S",
    "LOCK_TIMEOUT_MS",
    "PAGE_SIZE",
    "STATEMENT_TIMEOUT_MS",
    "PoolSettings",
    "PostgresAuditLog",
    "PostgresAuditStore",
    "connect",
    "like_literal",
]

CHAIN_LOCK_KEY = 0x4153_4154_4155_4454  # "ASATAUDT": pg_advisory_xact_lock key of chain appends
PAGE_SIZE = 1000
_SELECT: LiteralString = "SELECT " + COLUMNS + " FROM research.audit_log"
# The rows one practice asked (index audit_log_practice, migration 0005).
_OF_PRACTICE: LiteralString = "(asked_by ->> 'practice_id')::bigint = %s"

Connection = psycopg.Connection[DictRow]
T = TypeVar("T")


def connect(url: str, settings: PoolSettings = DEFAULT_POOL) -> Connection:
    """An autocommit connection returning dict rows; ``AuditStartupError`` says why it failed."""
    try:
        return psycopg.connect(_conninfo(url, settings), autocommit=True, row_factory=dict_row)
    except psycopg.Error as exc:
        raise AuditStartupError(
            f"cannot connect to the audit database: {str(exc).strip()}. Check the connection URL and that "
            f"Postgres is running (`{START_HINT}`)"
        ) from exc


def _conninfo(url: str, settings: PoolSettings) -> str:
    """``url`` with the audit connection parameters (which win over the URL's own)."""
    try:
        return make_conninfo(url, **connection_params(settings))
    except psycopg.ProgrammingError as exc:  # not a connection URL at all
        raise AuditStartupError(f"the audit database URL is not valid: {str(exc).strip()}") from exc


class _Problems:
    """The last reason a pooled connection could not be opened (cleared by the next that could)."""

    def __init__(self) -> None:
        self.last: str | None = None

    def note(self, what: str) -> None:
        self.last = what

    def clear(self) -> None:
        self.last = None


def _connection_class(problems: _Problems) -> type[Connection]:
    """The pool's connection class: it notes why a connection attempt failed (the pool itself
    only logs it), so that a call that got no connection can say why."""

    class AuditConnection(psycopg.Connection[DictRow]):
        @classmethod
        def connect(cls, conninfo: str = "", **kwargs: Any) -> Self:
            try:
                return super().connect(conninfo, **kwargs)
            except psycopg.Error as exc:
                problems.note(
                    f"{str(exc).strip() or type(exc).__name__}. Check that Postgres is running (`{START_HINT}`)"
                )
                raise

    return AuditConnection


class PostgresAuditLog:
    """Read access to the log: get, last N, iterate, verify."""

    def __init__(self, url: str, settings: PoolSettings = DEFAULT_POOL) -> None:
        self._settings = settings
        self._problems = _Problems()
        self._in_use = 0
        self._counting = threading.Lock()
        # Checked once on a direct connection, so that a wrong role or schema (or no database)
        # fails here, not in the pool's background workers, which only log and retry.
        first = connect(url, settings)
        try:
            self._on_connect(first)
        except psycopg.Error as exc:
            raise AuditStartupError(f"checking the audit database failed: {str(exc).strip()}") from exc
        finally:
            first.close()
        self._pool: ConnectionPool[Connection] = ConnectionPool(
            _conninfo(url, settings),
            connection_class=_connection_class(self._problems),
            kwargs={"autocommit": True, "row_factory": dict_row},
            min_size=settings.min_size,
            max_size=settings.max_size,
            open=False,
            configure=self._configure,
            check=self._check,
            timeout=settings.wait_s,
            reconnect_timeout=settings.reconnect_window_s,
            name="asat-audit",
        )
        try:
            # Ready when constructed: min_size connections open and checked, or an outage.
            self._pool.open(wait=True, timeout=settings.wait_s)
        except PoolTimeout as exc:  # the pool closed itself
            why = no_connection_message(settings, f"PoolTimeout: {exc}", 0, self._problems.last)
            raise AuditStartupError(f"cannot open the audit database's connections: {why}") from exc

    def close(self) -> None:
        self._pool.close()

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

    def iter_links(self, after_id: int = 0) -> Iterator[ChainLink]:
        for row in self._iter_rows(after_id):
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
        """Keyset pages in id order. Each page takes a pooled connection and gives it back before
        its rows are yielded: no connection, transaction or lock is held between pages."""
        cursor = after_id
        while True:
            rows = self._read(_SELECT + " WHERE id > %s ORDER BY id LIMIT %s", (cursor, PAGE_SIZE))
            yield from rows
            if len(rows) < PAGE_SIZE:
                return
            cursor = int(rows[-1]["id"])

    def _read(self, query: LiteralString, params: tuple[object, ...]) -> list[dict[str, Any]]:
        return self._with_connection(
            lambda conn: conn.execute(query, params).fetchall(), AuditReadError, "reading research.audit_log failed"
        )

    def _with_connection(self, work: Callable[[Connection], T], error: type[Exception], failed: str) -> T:
        """``work`` on a pooled connection; any database failure (none free within ``wait_s``
        included) is ``error`` saying ``failed`` and why. A broken connection is not reused."""
        try:
            with self._pool.connection(timeout=self._settings.wait_s) as conn:
                with self._counting:
                    self._in_use += 1
                try:
                    return work(conn)
                finally:
                    with self._counting:
                        self._in_use -= 1
        except PoolTimeout as exc:
            with self._counting:
                in_use = self._in_use
            why = no_connection_message(self._settings, f"PoolTimeout: {exc}", in_use, self._problems.last)
            raise error(f"{failed}: {why}") from exc
        except psycopg.Error as exc:
            raise error(f"{failed}: {str(exc).strip() or type(exc).__name__}") from exc

    def _check(self, conn: Connection) -> None:
        """The pool's test of a connection before it is handed out. One the server dropped means
        it has likely dropped the others too (a restart, an administrator): every idle one is
        replaced at once, rather than each found dead in turn behind the pool's growing back-off
        between failed checks (1, 2, 4 s), which would outlast a call's wait."""
        try:
            ConnectionPool.check_connection(conn)
        except psycopg.Error:
            self._pool.drain()
            raise

    def _configure(self, conn: Connection) -> None:
        """The pool's hook on every new connection: ``_on_connect``'s checks; a connection that
        fails them is closed and never handed out (the pool retries, and notes why)."""
        try:
            self._on_connect(conn)
        except (AuditStartupError, psycopg.Error) as exc:
            self._problems.note(str(exc).strip() or type(exc).__name__)
            conn.close()
            raise
        self._problems.clear()

    def _on_connect(self, conn: Connection) -> None:
        """Checks run on every new connection (none for reading)."""


class PostgresAuditStore(PostgresAuditLog):
    """The writer. Raises ``AuditStartupError`` unless connected as a SELECT+INSERT-only role on
    an up-to-date schema; ``append`` raises ``AuditWriteError`` whenever the row was not stored."""

    def _on_connect(self, conn: Connection) -> None:
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
        return self._with_connection(lambda conn: _append(conn, record), AuditWriteError, "audit record not stored")

    def add_checkpoint(self, checkpoint: Checkpoint) -> None:
        self._with_connection(
            lambda conn: _store_checkpoint(conn, checkpoint), AuditWriteError, "checkpoint not stored"
        )


def _append(conn: Connection, record: AuditRecord) -> AuditEntry:
    with conn.transaction():
        return _append_locked(conn, record)


def _store_checkpoint(conn: Connection, checkpoint: Checkpoint) -> None:
    conn.execute(
        "INSERT INTO research.audit_checkpoints (last_id, first_id, body) VALUES (%s, %s, %s)",
        (checkpoint.last_id, checkpoint.first_id, to_json(checkpoint)),
    )


def _append_locked(conn: Connection, record: AuditRecord) -> AuditEntry:
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
