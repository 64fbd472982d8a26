"""The AuditStore port: an append-only, hash-chained log of research outcomes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from asat_audit.chain import ChainLink, ChainReport
from asat_audit.checkpoint import Checkpoint
from asat_audit.record import AuditEntry, AuditRecord


class AuditWriteError(Exception):
    """The record was not stored. The caller must not return the answer (the service answers 503)."""


class AuditReadError(Exception):
    """The log could not be read (connection lost, or a stored row is not a valid audit row)."""


class AuditStartupError(Exception):
    """The store refuses to start: unsafe role, schema missing or out of date, or no connection."""


class AuditStore(Protocol):
    """Append-only audit log. Implementations are safe to share between threads."""

    def append(self, record: AuditRecord) -> AuditEntry:
        """Store ``record`` as the next link of the chain; raise ``AuditWriteError`` if not stored."""
        ...

    def get(self, entry_id: int) -> AuditEntry | None:
        """The row with id ``entry_id``, or ``None``."""
        ...

    def last(self, n: int, practice_id: int | None = None) -> tuple[AuditEntry, ...]:
        """The last ``n`` rows, oldest first; with ``practice_id``, the last ``n`` asked for that
        practice (``record.asked_by.practice_id``)."""
        ...

    def find(self, contains: str, n: int, practice_id: int | None = None) -> tuple[AuditEntry, ...]:
        """The last ``n`` rows whose question contains ``contains`` (case-insensitive, literally:
        no wildcards), oldest first; with ``practice_id``, of that practice's rows only."""
        ...

    def iter_entries(self, after_id: int = 0) -> Iterator[AuditEntry]:
        """Every row with id greater than ``after_id``, in id order."""
        ...

    def verify(self) -> ChainReport:
        """Walk the whole chain from the first row and report the first broken link."""
        ...

    def iter_links(self, after_id: int = 0) -> Iterator[ChainLink]:
        """Every row after ``after_id`` as stored (its hashes and the document its hash should
        cover), in id order."""
        ...

    def checkpoints(self) -> tuple[Checkpoint, ...]:
        """The stored copy of the signed checkpoints, oldest first."""
        ...

    def add_checkpoint(self, checkpoint: Checkpoint) -> None:
        """Store a signed checkpoint; raise ``AuditWriteError`` if not stored."""
        ...
