"""The in-memory store meets the store contract."""

from __future__ import annotations

import pytest

from asat_extraction.store.memory import MemoryStore
from asat_extraction.store.port import DocumentStore
from asat_extraction.testing.store_contract import DocumentStoreContract


class TestMemoryStore(DocumentStoreContract):
    @pytest.fixture
    def store(self) -> DocumentStore:
        return MemoryStore()
