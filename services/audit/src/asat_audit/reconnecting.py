"""The audit store as a long-running service (research) holds it: connects on first use and after an outage.

At start-up a role or schema problem is fatal (the service refuses to run as a role that could
rewrite the log); a database that is merely down (or not answering) is not: requests get 503
naming Postgres until it is back, and the next request after recovery succeeds.

Until the first connection succeeds, each call tries to open the store itself (failing within
the connect timeout); once open, the store's pool rides out later outages (each call fails
within the pool's wait, and the pool reconnects in the background).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import psycopg

from asat_audit.chain import ChainLink, ChainReport
from asat_audit.checkpoint import Checkpoint
from asat_audit.pool_settings import DEFAULT_POOL, PoolSettings
from asat_audit.postgres_store import PostgresAuditStore
from asat_audit.record import AuditEntry, AuditRecord
from asat_audit.store import AuditReadError, AuditStartupError, AuditWriteError


def is_outage(error: AuditStartupError) -> bool:
    return isinstance(error.__cause__, psycopg.OperationalError)


class ReconnectingAuditStore:
    def __init__(self, url: str, settings: PoolSettings = DEFAULT_POOL) -> None:
        self._url = url
        self._settings = settings
        self._store: PostgresAuditStore | None = None
        self._guard = threading.Lock()
        try:
            self._open()
        except AuditStartupError as exc:
            if not is_outage(exc):
                raise

    def _open(self) -> PostgresAuditStore:
        with self._guard:
            if self._store is not None:
                return self._store
        # Opened outside the guard: while the database does not answer, concurrent calls each
        # fail within the connect timeout instead of queueing behind one another's attempts.
        opened = PostgresAuditStore(self._url, self._settings)
        with self._guard:
            if self._store is None:
                self._store = opened
                return opened
            current = self._store
        opened.close()  # another call opened it meanwhile
        return current

    def _ready(self, error_type: type[Exception]) -> PostgresAuditStore:
        try:
            return self._open()
        except AuditStartupError as exc:
            raise error_type(f"audit database unavailable: {exc}") from exc

    def append(self, record: AuditRecord) -> AuditEntry:
        return self._ready(AuditWriteError).append(record)

    def get(self, entry_id: int) -> AuditEntry | None:
        return self._ready(AuditReadError).get(entry_id)

    def last(self, n: int, practice_id: int | None = None) -> tuple[AuditEntry, ...]:
        return self._ready(AuditReadError).last(n, practice_id)

    def find(self, contains: str, n: int, practice_id: int | None = None) -> tuple[AuditEntry, ...]:
        return self._ready(AuditReadError).find(contains, n, practice_id)

    def iter_entries(self, after_id: int = 0) -> Iterator[AuditEntry]:
        return self._ready(AuditReadError).iter_entries(after_id)

    def verify(self) -> ChainReport:
        return self._ready(AuditReadError).verify()

    def iter_links(self, after_id: int = 0) -> Iterator[ChainLink]:
        return self._ready(AuditReadError).iter_links(after_id)

    def checkpoints(self) -> tuple[Checkpoint, ...]:
        return self._ready(AuditReadError).checkpoints()

    def add_checkpoint(self, checkpoint: Checkpoint) -> None:
        self._ready(AuditWriteError).add_checkpoint(checkpoint)

    def healthy(self) -> bool:
        try:
            self._ready(AuditReadError).last(1)
        except (AuditReadError, AuditWriteError):
            return False
        return True

    def close(self) -> None:
        with self._guard:
            if self._store is not None:
                self._store.close()
                self._store = None
