"""The Postgres store, as the app role, meets the store contract; migrations are idempotent and all-or-nothing."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from asat_extraction.store.migrate import latest_version, migrate
from asat_extraction.store.port import DocumentStore
from asat_extraction.store.postgres import PostgresStore
from asat_extraction.testing.postgres import ScratchDatabase, scratch_database
from asat_extraction.testing.store_contract import DocumentStoreContract

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def database() -> Iterator[ScratchDatabase]:
    with scratch_database(migrated=False) as db:
        assert migrate(db.owner_url, db.app_role) == latest_version() == 2
        assert migrate(db.owner_url, db.app_role) == 0
        yield db


class TestPostgresStore(DocumentStoreContract):
    @pytest.fixture
    def store(self, database: ScratchDatabase) -> DocumentStore:
        with psycopg.connect(database.admin_url, autocommit=True) as conn:
            conn.execute("TRUNCATE extraction.corrections, extraction.transactions, extraction.documents")
        return PostgresStore(database.app_url)


def test_sha256_is_checked_in_the_schema(database: ScratchDatabase) -> None:
    with psycopg.connect(database.admin_url) as conn, pytest.raises(psycopg.errors.CheckViolation):
        conn.execute(
            "INSERT INTO extraction.documents (id, practice_id, filename, media_type, sha256, size, content) "
            "VALUES (gen_random_uuid(), 1, 'x', 'text/plain', 'not-a-hash', 1, 'x')"
        )


def test_the_same_bytes_are_unique_per_practice_in_the_schema(database: ScratchDatabase) -> None:
    insert = (
        "INSERT INTO extraction.documents (id, practice_id, filename, media_type, sha256, size, content) "
        "VALUES (gen_random_uuid(), %s, 'x', 'text/plain', repeat('a', 64), 1, 'x')"
    )
    with psycopg.connect(database.admin_url) as conn:
        conn.execute(insert, (1,))
        conn.execute(insert, (2,))  # another practice: its own document
        with pytest.raises(psycopg.errors.UniqueViolation, match="documents_practice_sha256_key"):
            conn.execute(insert, (1,))
        conn.rollback()
