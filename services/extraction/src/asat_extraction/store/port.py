"""The store port: every adapter (memory, Postgres) passes ``asat_extraction.testing.store_contract``.

Every operation acts for one practice (``practice_id``, the practice the web's signed-in user acts
for): it reads and writes that practice's rows only, and another practice's document or
transaction is ``NotFound``, exactly as an id that does not exist.
"""

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
    """No document or transaction has that id in this practice."""


class DocumentStore(Protocol):
    def add(self, practice_id: int, document: NewDocument) -> tuple[StoredDocument, Transaction, bool]:
        """Store the document and its transaction together (both or neither). The same bytes
        (sha256) again in the same practice return the existing pair and ``False``; new ones
        (or the same bytes in another practice) return ``True``."""
        ...

    def document(self, practice_id: int, document_id: UUID) -> StoredDocument: ...

    def content(self, practice_id: int, document_id: UUID) -> bytes: ...

    def transaction_of(self, practice_id: int, document_id: UUID) -> Transaction: ...

    def transaction(self, practice_id: int, transaction_id: UUID) -> Transaction: ...

    def correct(
        self,
        practice_id: int,
        transaction_id: UUID,
        who: str,
        changes: JsonObject,
        review_status: ReviewStatus,
        note: str | None,
    ) -> Transaction:
        """Apply ``changes`` to the current values, record who/when/before; the original stays."""
        ...

    def transactions(self, practice_id: int, query: TransactionFilter) -> list[Transaction]:
        """The practice's matching transactions, newest first."""
        ...
