"""One contract, two adapters: the Postgres store and the in-memory store behave the same."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from asat_accounts.memory_store import InMemoryAccountsStore
from asat_accounts.postgres_store import PostgresAccountsStore
from asat_accounts.secret_box import KeyRing
from asat_accounts.store import AccountsStore

from .store_contract import AccountsStoreContract, MakeStore
from .support import AccountsDatabase


class TestPostgresAccountsStore(AccountsStoreContract):
    pytestmark = pytest.mark.postgres

    @pytest.fixture
    def make_store(self, accounts_db: AccountsDatabase) -> Iterator[MakeStore]:
        opened: list[PostgresAccountsStore] = []

        def make(ring: KeyRing | None) -> AccountsStore:
            opened.append(PostgresAccountsStore(accounts_db.app_url, ring))
            return opened[-1]

        yield make
        for store in opened:
            store.close()


class TestInMemoryAccountsStore(AccountsStoreContract):
    @pytest.fixture
    def make_store(self) -> MakeStore:
        def make(ring: KeyRing | None) -> AccountsStore:
            return InMemoryAccountsStore(ring)

        return make
