"""Postgres store (schema ``extraction``), as the app role, under row-level security.

Every operation is one database transaction that first sets ``app.practice_id`` for itself
(``set_config(..., true)``, i.e. ``SET LOCAL``), so the policies of ``0002_practices`` show it that
practice's rows only and refuse a row written for another; a query that forgot the practice fails.
The store refuses to start (``ExtractionStartupError``, from ``store.role_check``) as a role that
row-level security would not bind: the tables' owner, a superuser, a ``BYPASSRLS`` role.

A document and its transaction are written in one transaction, so a failure stores neither.
Concurrent uploads of the same bytes to one practice meet at the (practice_id, sha256) unique
constraint and both return the one stored document.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
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
from asat_extraction.store.role_check import require_safe_app_role

Row = dict[str, Any]
_DOCUMENT_COLUMNS = "id, filename, media_type, sha256, size, created_at"
_TRANSACTION_COLUMNS = (
    'id, document_id, extractor, "values", original, extraction, review_status, created_at, updated_at'
)


def _document(row: Row) -> StoredDocument:
    return StoredDocument(row["id"], row["filename"], row["media_type"], row["sha256"], row["size"], row["created_at"])


class PostgresStore:
    """One short connection per operation (the service's load is a person uploading receipts).

    Constructing it checks the role and the schema (``store.role_check``) and raises
    ``ExtractionStartupError`` naming every problem: the service refuses to start."""

    def __init__(self, url: str) -> None:
        self._url = url
        with psycopg.connect(url) as conn:
            require_safe_app_role(conn)

    def _connect(self) -> psycopg.Connection[Row]:
        return psycopg.connect(self._url, row_factory=dict_row)

    @contextmanager
    def _in_practice(self, practice_id: int) -> Iterator[psycopg.Connection[Row]]:
        """A connection inside one transaction acting for ``practice_id`` (``SET LOCAL app.practice_id``)."""
        with self._connect() as conn, conn.transaction():
            conn.execute("SELECT set_config('app.practice_id', %s, true)", (str(int(practice_id)),))
            yield conn

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

    def add(self, practice_id: int, document: NewDocument) -> tuple[StoredDocument, Transaction, bool]:
        with self._in_practice(practice_id) as conn:
            inserted = conn.execute(
                f"INSERT INTO extraction.documents (id, practice_id, filename, media_type, sha256, size, content) "
                f"VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (practice_id, sha256) DO NOTHING "
                f"RETURNING {_DOCUMENT_COLUMNS}",
                (uuid.uuid4(), practice_id, document.filename, document.media_type, document.sha256,
                 len(document.content), document.content),
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
                f'INSERT INTO extraction.transactions (id, practice_id, document_id, extractor, "values", original, '
                f"extraction) VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING {_TRANSACTION_COLUMNS}",
                (uuid.uuid4(), practice_id, inserted["id"], document.extractor, Jsonb(document.values),
                 Jsonb(document.values), Jsonb(document.extraction)),
            ).fetchone()  # fmt: skip
            assert row is not None
            return _document(inserted), self._transaction(conn, row), True

    def document(self, practice_id: int, document_id: UUID) -> StoredDocument:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                f"SELECT {_DOCUMENT_COLUMNS} FROM extraction.documents WHERE id = %s", (document_id,)
            ).fetchone()
        if row is None:
            raise NotFound(f"no document {document_id}")
        return _document(row)

    def content(self, practice_id: int, document_id: UUID) -> bytes:
        with self._in_practice(practice_id) as conn:
            row = conn.execute("SELECT content FROM extraction.documents WHERE id = %s", (document_id,)).fetchone()
        if row is None:
            raise NotFound(f"no document {document_id}")
        return bytes(row["content"])

    def transaction_of(self, practice_id: int, document_id: UUID) -> Transaction:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                f"SELECT {_TRANSACTION_COLUMNS} FROM extraction.transactions WHERE document_id = %s", (document_id,)
            ).fetchone()
            if row is None:
                raise NotFound(f"no document {document_id}")
            return self._transaction(conn, row)

    def transaction(self, practice_id: int, transaction_id: UUID) -> Transaction:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                f"SELECT {_TRANSACTION_COLUMNS} FROM extraction.transactions WHERE id = %s", (transaction_id,)
            ).fetchone()
            if row is None:
                raise NotFound(f"no transaction {transaction_id}")
            return self._transaction(conn, row)

    def correct(
        self,
        practice_id: int,
        transaction_id: UUID,
        who: str,
        changes: JsonObject,
        review_status: ReviewStatus,
        note: str | None,
    ) -> Transaction:
        with self._in_practice(practice_id) as conn:
            row = conn.execute(
                'SELECT "values" FROM extraction.transactions WHERE id = %s FOR UPDATE', (transaction_id,)
            ).fetchone()
            if row is None:
                raise NotFound(f"no transaction {transaction_id}")
            before = {key: row["values"].get(key) for key in changes}
            conn.execute(
                "INSERT INTO extraction.corrections (practice_id, transaction_id, who, changes, before, note) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                (practice_id, transaction_id, who, Jsonb(changes), Jsonb(before), note),
            )
            updated = conn.execute(
                f'UPDATE extraction.transactions SET "values" = "values" || %s, review_status = %s, updated_at = now() '
                f"WHERE id = %s RETURNING {_TRANSACTION_COLUMNS}",
                (Jsonb(changes), review_status.value, transaction_id),
            ).fetchone()
            assert updated is not None
            return self._transaction(conn, updated)

    def transactions(self, practice_id: int, query: TransactionFilter) -> list[Transaction]:
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
        with self._in_practice(practice_id) as conn:
            rows = conn.execute(
                f"SELECT {_TRANSACTION_COLUMNS} FROM extraction.transactions {where} "
                "ORDER BY created_at DESC, id DESC LIMIT %s OFFSET %s",
                (*params, query.limit, query.offset),
            ).fetchall()
            return [self._transaction(conn, row) for row in rows]
