"""The TransactionSource contract: every adapter's test class subclasses it and provides
``loaded``: a source holding, for practice ``practice``, the transactions of ``expected`` (id ->
what it must read as) with their documents' bytes, and nothing for ``other_practice``."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID, uuid4

import pytest

from asat_connections import SourceNotFoundError, SourceTransaction, TransactionSource


@dataclass
class Loaded:
    source: TransactionSource
    practice: int
    other_practice: int
    expected: dict[UUID, SourceTransaction]
    documents: dict[UUID, tuple[str, bytes]]  # document id -> (media type, bytes)


class TransactionSourceContract:
    @pytest.fixture
    def loaded(self) -> Loaded:  # pragma: no cover - each adapter's class provides it
        raise NotImplementedError

    def test_the_transactions_asked_for_are_read_with_their_values(self, loaded: Loaded) -> None:
        got = loaded.source.transactions(loaded.practice, list(loaded.expected))
        assert got == loaded.expected

    def test_an_unknown_id_is_absent_not_an_error(self, loaded: Loaded) -> None:
        some = next(iter(loaded.expected))
        got = loaded.source.transactions(loaded.practice, [some, uuid4()])
        assert list(got) == [some]
        assert loaded.source.transactions(loaded.practice, []) == {}

    def test_another_practice_sees_none_of_them(self, loaded: Loaded) -> None:
        assert loaded.source.transactions(loaded.other_practice, list(loaded.expected)) == {}
        document = next(iter(loaded.documents))
        with pytest.raises(SourceNotFoundError):
            loaded.source.document(loaded.other_practice, document)

    def test_a_document_comes_back_byte_for_byte(self, loaded: Loaded) -> None:
        for t in loaded.expected.values():
            document = loaded.source.document(loaded.practice, t.document_id)
            media_type, content = loaded.documents[t.document_id]
            assert document.id == t.document_id and document.content == content
            assert document.media_type == media_type and document.filename
            assert "content" not in repr(document)

    def test_an_unknown_document_is_not_found(self, loaded: Loaded) -> None:
        with pytest.raises(SourceNotFoundError):
            loaded.source.document(loaded.practice, uuid4())
