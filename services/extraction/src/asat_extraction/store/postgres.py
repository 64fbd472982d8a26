"""Postgres store (schema ``extraction``): a document and its transaction are written in one
database transaction, so a failure stores neither. Concurrent uploads of the same bytes meet at
the sha256 unique constraint and both return the one stored document."""

from __future__ import annotations

import uuid
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

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

Row = dict[str, Any]
_DOCUMENT_COLUMNS = "id, filename, media_type, sha256, size, created_at"
_TRANSACTION_COLUMNS = (
    'id, document_id, extractor, "values", original, extraction, review_status, created_at, updated_at'
)


def _document(row: Row) -> StoredDocument:
    return StoredDocument(row["id"], row["filename"], row["media_type"], row["sha256"], row["size"], row["created_at"])


class PostgresStore:
    """One short connection per operation (the service's load is a person uploading receipts)."""

    def __init__(self, url: str) -> None:
        self._url = url

    def _connect(self) -> psycopg.Connection[Row]:
        return psycopg.connect(self._url, row_factory=dict_row)

    def check(self) -> None:
        """Raise psycopg.Error when the database cannot be reached or the schema is not migrated."""
        with self._connect() as conn:
            conn.execute("SELECT 1 FROM extraction.schema_migrations LIMIT 1")

    def _transaction(self, conn: psycopg.Connection[Row], row: Row) -> Transaction:
        corrections = conn.execute(
            "SELECT who, at, changes, before, note FROM extraction.corrections WHERE transaction_id = %s ORDER BY id",
            (row["id"],),
        ).fetchall()
        return Transaction(
            id=row["id"],
            document_id=row["document_id"],
            extractor=row["extractor"],
            values=row["values"],
            original=row["original"],
            extraction=row["extraction"],
            review_status=ReviewStatus(row["review_status"]),
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            corrections=tuple(Correction(c["who"], c["at"], c["changes"], c["before"], c["note"]) for c in corrections),
        )

    def add(self, document: NewDocument) -> tuple[StoredDocument, Transaction, bool]:
        with self._connect() as conn, conn.transaction():
            inserted = conn.execute(
                f"INSERT INTO extraction.documents (id, filename, media_type, sha256, size, content) "
                f"VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (sha256) DO NOTHING RETURNING {_DOCUMENT_COLUMNS}",
                (uuid.uuid4(), document.filename, document.media_type, document.sha256, len(document.content),
                 document.content),
            ).fetchone()  # fmt: skip
            if inserted is None:
                existing = conn.execute(
                    f"SELECT {_DOCUMENT_COLUMNS} FROM extraction.documents WHERE sha256 = %s", (document.sha256,)
                ).fetchone()
                assert existing is not None
                row = conn.execute(
                    f"SELECT {_TRANSACTION_COLUMNS} FROM extraction.transactions WHERE document_id = %s",
                    (existing["id"],),
                ).fetchone()
                assert row is not None
                return _document(existing), self._transaction(conn, row), False
            row = conn.execute(
                f'INSERT INTO extraction.transactions (id, document_id, extractor, "values", original, extraction) '
                f"VALUES (%s, %s, %s, %s, %s, %s) RETURNING {_TRANSACTION_COLUMNS}",
                (uuid.uuid4(), inserted["id"], document.extractor, Jsonb(document.values), Jsonb(document.values),
                 Jsonb(document.extraction)),
            ).fetchone()  # fmt: skip
            assert row is not None
            return _document(inserted), self._transaction(conn, row), True

    def document(self, document_id: UUID) -> StoredDocument:
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {_DOCUMENT_COLUMNS} FROM extraction.documents WHERE id = %s", (document_id,)
            ).fetchone()
        if row is None:
            raise NotFound(f"no document {document_id}")
        return _document(row)

    def content(self, document_id: UUID) -> bytes:
        with self._connect() as conn:
            row = conn.execute("SELECT content FROM extraction.documents WHERE id = %s", (document_id,)).fetchone()
        if row is None:
            raise NotFound(f"no document {document_id}")
        return bytes(row["content"])

    def transaction_of(self, document_id: UUID) -> Transaction:
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {_TRANSACTION_COLUMNS} FROM extraction.transactions WHERE document_id = %s", (document_id,)
            ).fetchone()
            if row is None:
                raise NotFound(f"no document {document_id}")
            return self._transaction(conn, row)

    def transaction(self, transaction_id: UUID) -> Transaction:
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {_TRANSACTION_COLUMNS} FROM extraction.transactions WHERE id = %s", (transaction_id,)
            ).fetchone()
            if row is None:
                raise NotFound(f"no transaction {transaction_id}")
            return self._transaction(conn, row)

    def correct(
        self, transaction_id: UUID, who: str, changes: JsonObject, review_status: ReviewStatus, note: str | None
    ) -> Transaction:
        with self._connect() as conn, conn.transaction():
            row = conn.execute(
                'SELECT "values" FROM extraction.transactions WHERE id = %s FOR UPDATE', (transaction_id,)
            ).fetchone()
            if row is None:
                raise NotFound(f"no transaction {transaction_id}")
            before = {key: row["values"].get(key) for key in changes}
            conn.execute(
                "INSERT INTO extraction.corrections (transaction_id, who, changes, before, note) VALUES (%s, %s, %s, %s, %s)",
                (transaction_id, who, Jsonb(changes), Jsonb(before), note),
            )
            updated = conn.execute(
                f'UPDATE extraction.transactions SET "values" = "values" || %s, review_status = %s, updated_at = now() '
                f"WHERE id = %s RETURNING {_TRANSACTION_COLUMNS}",
                (Jsonb(changes), review_status.value, transaction_id),
            ).fetchone()
            assert updated is not None
            return self._transaction(conn, updated)

    def transactions(self, query: TransactionFilter) -> list[Transaction]:
        clauses: list[str] = []
        params: list[object] = []
        for column, value in (
            ("review_status", query.review_status.value if query.review_status else None),
            ("kind", query.kind),
            ("supplier_abn", query.supplier_abn),
            ("currency", query.currency),
        ):
            if value is not None:
                clauses.append(f"{column} = %s")
                params.append(value)
        if query.issued_from is not None:
            clauses.append("issue_date >= %s")
            params.append(query.issued_from.isoformat())
        if query.issued_to is not None:
            clauses.append("issue_date <= %s")
            params.append(query.issued_to.isoformat())
        where = ("WHERE " + " AND ".join(clauses)) if clauses else ""
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {_TRANSACTION_COLUMNS} FROM extraction.transactions {where} "
                "ORDER BY created_at DESC, id DESC LIMIT %s OFFSET %s",
                (*params, query.limit, query.offset),
            ).fetchall()
            return [self._transaction(conn, row) for row in rows]
