"""In-memory AuditStore for unit tests: same chain, same hashes, no database."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

from asat_audit.canonical import GENESIS_HASH, chain_hash, record_document
from asat_audit.chain import ChainLink, ChainReport, link_of, verify_chain
from asat_audit.checkpoint import Checkpoint
from asat_audit.record import AuditEntry, AuditRecord
from asat_audit.store import AuditWriteError


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _of_practice(entry: AuditEntry, practice_id: int | None) -> bool:
    """Every row when ``practice_id`` is None; else the rows asked for that practice."""
    asked = entry.record.asked_by
    return practice_id is None or (asked is not None and asked.practice_id == practice_id)


class InMemoryAuditStore:
    """Keeps entries in a list; ``clock`` stands in for the database clock."""

    def __init__(self, clock: Callable[[], datetime] = _utc_now) -> None:
        self._clock = clock
        self._entries: list[AuditEntry] = []
        self._checkpoints: list[Checkpoint] = []
        self._lock = threading.Lock()

    def append(self, record: AuditRecord) -> AuditEntry:
        with self._lock:
            entry_id = len(self._entries) + 1
            prev_hash = self._entries[-1].hash if self._entries else GENESIS_HASH
            recorded_at = self._clock()
            digest = chain_hash(prev_hash, record_document(entry_id, recorded_at, record))
            entry = AuditEntry(id=entry_id, recorded_at=recorded_at, prev_hash=prev_hash, hash=digest, record=record)
            self._entries.append(entry)
            return entry

    def get(self, entry_id: int) -> AuditEntry | None:
        with self._lock:
            if 1 <= entry_id <= len(self._entries):
                return self._entries[entry_id - 1]
            return None

    def last(self, n: int, practice_id: int | None = None) -> tuple[AuditEntry, ...]:
        if n < 0:
            raise ValueError(f"last(n) needs n >= 0, got {n}")
        with self._lock:
            found = [e for e in self._entries if _of_practice(e, practice_id)]
        return tuple(found[len(found) - n :]) if n else ()

    def find(self, contains: str, n: int, practice_id: int | None = None) -> tuple[AuditEntry, ...]:
        if n < 0:
            raise ValueError(f"find(contains, n) needs n >= 0, got {n}")
        needle = contains.casefold()
        with self._lock:
            found = [
                e for e in self._entries if needle in e.record.question.casefold() and _of_practice(e, practice_id)
            ]
        return tuple(found[len(found) - n :]) if n else ()

    def iter_entries(self, after_id: int = 0) -> Iterator[AuditEntry]:
        with self._lock:
            snapshot = tuple(self._entries[max(after_id, 0) :])
        return iter(snapshot)

    def verify(self) -> ChainReport:
        return verify_chain(self.iter_links())

    def iter_links(self, after_id: int = 0) -> Iterator[ChainLink]:
        return (link_of(entry) for entry in self.iter_entries(after_id))

    def checkpoints(self) -> tuple[Checkpoint, ...]:
        with self._lock:
            return tuple(self._checkpoints)

    def add_checkpoint(self, checkpoint: Checkpoint) -> None:
        with self._lock:
            if self._checkpoints and checkpoint.last_id <= self._checkpoints[-1].last_id:
                raise AuditWriteError(
                    f"checkpoint not stored: it ends at row {checkpoint.last_id}, not after the last one "
                    f"({self._checkpoints[-1].last_id})"
                )
            self._checkpoints.append(checkpoint)
