"""The store port: every adapter (memory, Postgres) passes ``asat_extraction.testing.store_contract``."""

from __future__ import annotations

from typing import Protocol
from uuid import UUID

from asat_extraction.store.records import (
    JsonObject,
    NewDocument,
    ReviewStatus,
    StoredDocument,
    Transaction,
    TransactionFilter,
)


class NotFound(LookupError):
    """No document or transaction has that id."""


class DocumentStore(Protocol):
    def add(self, document: NewDocument) -> tuple[StoredDocument, Transaction, bool]:
        """Store the document and its transaction together (both or neither). The same bytes
        (sha256) again return the existing pair and ``False``; new ones return ``True``."""
        ...

    def document(self, document_id: UUID) -> StoredDocument: ...

    def content(self, document_id: UUID) -> bytes: ...

    def transaction_of(self, document_id: UUID) -> Transaction: ...

    def transaction(self, transaction_id: UUID) -> Transaction: ...

    def correct(
        self,
        transaction_id: UUID,
        who: str,
        changes: JsonObject,
        review_status: ReviewStatus,
        note: str | None,
    ) -> Transaction:
        """Apply ``changes`` to the current values, record who/when/before; the original stays."""
        ...

    def transactions(self, query: TransactionFilter) -> list[Transaction]:
        """Matching transactions, newest first."""
        ...
