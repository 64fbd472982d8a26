"""The Postgres store meets the store contract; migrations are idempotent and all-or-nothing."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from asat_extraction.store.migrate import migrate
from asat_extraction.store.port import DocumentStore
from asat_extraction.store.postgres import PostgresStore
from asat_extraction.testing.postgres import scratch_database
from asat_extraction.testing.store_contract import DocumentStoreContract

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with scratch_database() as url:
        assert migrate(url) == 1
        assert migrate(url) == 0
        yield url


class TestPostgresStore(DocumentStoreContract):
    @pytest.fixture
    def store(self, database: str) -> DocumentStore:
        with psycopg.connect(database, autocommit=True) as conn:
            conn.execute("TRUNCATE extraction.corrections, extraction.transactions, extraction.documents")
        return PostgresStore(database)


def test_sha256_is_unique_in_the_schema(database: str) -> None:
    with psycopg.connect(database) as conn, pytest.raises(psycopg.errors.CheckViolation):
        conn.execute(
            "INSERT INTO extraction.documents (id, filename, media_type, sha256, size, content) "
            "VALUES (gen_random_uuid(), 'x', 'text/plain', 'not-a-hash', 1, 'x')"
        )
