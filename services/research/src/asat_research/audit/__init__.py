"""The audit log: append-only, hash-chained record of every research outcome (schema ``research``).

The research service builds an ``AuditRecord`` and appends it through an ``AuditStore``
(``PostgresAuditStore`` in production, ``InMemoryAuditStore`` in unit tests). If ``append``
raises ``AuditWriteError`` the answer must not be returned.
"""

from asat_research.audit.canonical import GENESIS_HASH, canonical_bytes, chain_hash, record_document
from asat_research.audit.chain import BreakKind, ChainBreak, ChainLink, ChainReport, verify_chain
from asat_research.audit.memory_store import InMemoryAuditStore
from asat_research.audit.migration_runner import MigrationError, MigrationReport, migrate_database
from asat_research.audit.record import AuditCitation, AuditEntry, AuditRecord, ReadingListItem, StageLatency
from asat_research.audit.store import AuditReadError, AuditStartupError, AuditStore, AuditWriteError

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
