"""In-memory store: for tests and ``extract`` runs that need no database. Not shared between processes."""

from __future__ import annotations

import threading
import uuid
from dataclasses import replace
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


class MemoryStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._documents: dict[UUID, StoredDocument] = {}
        self._contents: dict[UUID, bytes] = {}
        self._by_sha: dict[str, UUID] = {}
        self._transactions: dict[UUID, Transaction] = {}
        self._of_document: dict[UUID, UUID] = {}

    def add(self, document: NewDocument) -> tuple[StoredDocument, Transaction, bool]:
        with self._lock:
            existing = self._by_sha.get(document.sha256)
            if existing is not None:
                return self._documents[existing], self._transactions[self._of_document[existing]], False
            now = datetime.now(UTC)
            stored = StoredDocument(uuid.uuid4(), document.filename, document.media_type, document.sha256,
                                    len(document.content), now)  # fmt: skip
            transaction = Transaction(uuid.uuid4(), stored.id, document.extractor, dict(document.values),
                                      dict(document.values), dict(document.extraction), ReviewStatus.PENDING, now, now)  # fmt: skip
            self._documents[stored.id] = stored
            self._contents[stored.id] = document.content
            self._by_sha[document.sha256] = stored.id
            self._transactions[transaction.id] = transaction
            self._of_document[stored.id] = transaction.id
            return stored, transaction, True

    def document(self, document_id: UUID) -> StoredDocument:
        try:
            return self._documents[document_id]
        except KeyError:
            raise NotFound(f"no document {document_id}") from None

    def content(self, document_id: UUID) -> bytes:
        self.document(document_id)
        return self._contents[document_id]

    def transaction_of(self, document_id: UUID) -> Transaction:
        self.document(document_id)
        return self._transactions[self._of_document[document_id]]

    def transaction(self, transaction_id: UUID) -> Transaction:
        try:
            return self._transactions[transaction_id]
        except KeyError:
            raise NotFound(f"no transaction {transaction_id}") from None

    def correct(
        self, transaction_id: UUID, who: str, changes: JsonObject, review_status: ReviewStatus, note: str | None
    ) -> Transaction:
        with self._lock:
            current = self.transaction(transaction_id)
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
            self._transactions[transaction_id] = updated
            return updated

    def transactions(self, query: TransactionFilter) -> list[Transaction]:
        found = [t for t in self._transactions.values() if query.matches(t.values, t.review_status)]
        found.sort(key=lambda t: (t.created_at, str(t.id)), reverse=True)
        return found[query.offset : query.offset + query.limit]
