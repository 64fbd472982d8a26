"""In-memory store: for tests and ``extract`` runs that need no database. Not shared between processes.

Each practice's documents and transactions are kept apart, as row-level security keeps them in
Postgres: an id of another practice is ``NotFound``, and the same bytes are one document per practice.
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from uuid import UUID

from asat_extraction.store.port import NotFound
from asat_extraction.store.records import (
    Correction,
    JsonObject,
    NewDocument,
    ReviewStatus,
    StoredDocument,
    Transaction,
    TransactionFilter,
)


@dataclass
class _Practice:
    """One practice's rows."""

    documents: dict[UUID, StoredDocument] = field(default_factory=dict)
    contents: dict[UUID, bytes] = field(default_factory=dict)
    by_sha: dict[str, UUID] = field(default_factory=dict)
    transactions: dict[UUID, Transaction] = field(default_factory=dict)
    of_document: dict[UUID, UUID] = field(default_factory=dict)


class MemoryStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._practices: dict[int, _Practice] = {}

    def _of(self, practice_id: int) -> _Practice:
        return self._practices.get(practice_id) or _Practice()

    def add(self, practice_id: int, document: NewDocument) -> tuple[StoredDocument, Transaction, bool]:
        with self._lock:
            rows = self._practices.setdefault(practice_id, _Practice())
            existing = rows.by_sha.get(document.sha256)
            if existing is not None:
                return rows.documents[existing], rows.transactions[rows.of_document[existing]], False
            now = datetime.now(UTC)
            stored = StoredDocument(uuid.uuid4(), document.filename, document.media_type, document.sha256,
                                    len(document.content), now)  # fmt: skip
            transaction = Transaction(uuid.uuid4(), stored.id, document.extractor, dict(document.values),
                                      dict(document.values), dict(document.extraction), ReviewStatus.PENDING, now, now)  # fmt: skip
            rows.documents[stored.id] = stored
            rows.contents[stored.id] = document.content
            rows.by_sha[document.sha256] = stored.id
            rows.transactions[transaction.id] = transaction
            rows.of_document[stored.id] = transaction.id
            return stored, transaction, True

    def document(self, practice_id: int, document_id: UUID) -> StoredDocument:
        try:
            return self._of(practice_id).documents[document_id]
        except KeyError:
            raise NotFound(f"no document {document_id}") from None

    def content(self, practice_id: int, document_id: UUID) -> bytes:
        self.document(practice_id, document_id)
        return self._of(practice_id).contents[document_id]

    def transaction_of(self, practice_id: int, document_id: UUID) -> Transaction:
        self.document(practice_id, document_id)
        rows = self._of(practice_id)
        return rows.transactions[rows.of_document[document_id]]

    def transaction(self, practice_id: int, transaction_id: UUID) -> Transaction:
        try:
            return self._of(practice_id).transactions[transaction_id]
        except KeyError:
            raise NotFound(f"no transaction {transaction_id}") from None

    def correct(
        self,
        practice_id: int,
        transaction_id: UUID,
        who: str,
        changes: JsonObject,
        review_status: ReviewStatus,
        note: str | None,
    ) -> Transaction:
        with self._lock:
            current = self.transaction(practice_id, transaction_id)
            now = datetime.now(UTC)
            before = {key: current.values.get(key) for key in changes}
            correction = Correction(who, now, dict(changes), before, note)
            updated = replace(
                current,
                values={**current.values, **changes},
                review_status=review_status,
                updated_at=now,
                corrections=(*current.corrections, correction),
            )
            self._practices[practice_id].transactions[transaction_id] = updated
            return updated

    def transactions(self, practice_id: int, query: TransactionFilter) -> list[Transaction]:
        with self._lock:
            listed = list(self._of(practice_id).transactions.values())
        found = [t for t in listed if query.matches(t.values, t.review_status)]
        found.sort(key=lambda t: (t.created_at, str(t.id)), reverse=True)
        return found[query.offset : query.offset + query.limit]
