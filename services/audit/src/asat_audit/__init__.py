"""The audit log: append-only, hash-chained record of every research outcome (schema ``research``).

A library (``services/audit``), used by the research service: it builds an ``AuditRecord``
(whose ``decision`` is the gate's ``asat_corpus.contracts.decisions.Decision``) and appends it
through an ``AuditStore`` (``PostgresAuditStore`` in production, held through
``asat_audit.reconnecting.ReconnectingAuditStore``; ``InMemoryAuditStore`` in unit tests). If
``append`` raises ``AuditWriteError`` the answer must not be returned. ``python -m asat_audit``
migrates the schema, verifies the chain and shows the last rows. It imports no service
(``.importlinter``).
"""

from asat_audit.canonical import GENESIS_HASH, canonical_bytes, chain_hash, record_document
from asat_audit.chain import BreakKind, ChainBreak, ChainLink, ChainReport, verify_chain
from asat_audit.memory_store import InMemoryAuditStore
from asat_audit.migration_runner import MigrationError, MigrationReport, migrate_database
from asat_audit.record import AuditCitation, AuditEntry, AuditRecord, ReadingListItem, StageLatency
from asat_audit.store import AuditReadError, AuditStartupError, AuditStore, AuditWriteError

__all__ = [
    "GENESIS_HASH",
    "AuditCitation",
    "AuditEntry",
    "AuditReadError",
    "AuditRecord",
    "AuditStartupError",
    "AuditStore",
    "AuditWriteError",
    "BreakKind",
    "ChainBreak",
    "ChainLink",
    "ChainReport",
    "InMemoryAuditStore",
    "MigrationError",
    "MigrationReport",
    "ReadingListItem",
    "StageLatency",
    "canonical_bytes",
    "chain_hash",
    "migrate_database",
    "record_document",
    "verify_chain",
]
