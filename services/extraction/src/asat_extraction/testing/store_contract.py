"""The contract every document store meets (memory, Postgres), for two practices: each sees and
changes only its own documents and transactions."""

from __future__ import annotations

import hashlib
import uuid
from datetime import date

import pytest

from asat_extraction.store.port import DocumentStore, NotFound
from asat_extraction.store.records import NewDocument, ReviewStatus, TransactionFilter

# Two practices; a store under test may hold rows of others too (the Postgres one is shared by a module).
A, B = 1, 2


def new_document(content: bytes = b"%PDF-1.4 sample", **values: object) -> NewDocument:
    flat: dict[str, object] = {"kind": "invoice", "supplier_abn": "51824753556", "currency": "AUD",
                               "issue_date": "2024-03-19", "total_amount": "41.25", **values}  # fmt: skip
    return NewDocument("a.pdf", "application/pdf", hashlib.sha256(content).hexdigest(), content, "deterministic",
                       flat, {"warnings": []})  # fmt: skip


class DocumentStoreContract:
    @pytest.fixture
    def store(self) -> DocumentStore:
        raise NotImplementedError("define a 'store' fixture returning an empty adapter under test")

    def test_add_and_read_back(self, store: DocumentStore) -> None:
        document, transaction, created = store.add(A, new_document(b"one"))
        assert created
        assert store.document(A, document.id) == document
        assert store.content(A, document.id) == b"one"
        assert store.transaction_of(A, document.id).id == transaction.id
        assert store.transaction(A, transaction.id).review_status is ReviewStatus.PENDING
        assert transaction.values == transaction.original

    def test_same_bytes_return_the_existing_document(self, store: DocumentStore) -> None:
        first, t1, _ = store.add(A, new_document(b"same"))
        again, t2, created = store.add(A, new_document(b"same"))
        assert not created and again.id == first.id and t2.id == t1.id

    def test_same_bytes_in_another_practice_are_its_own_document(self, store: DocumentStore) -> None:
        first, t1, _ = store.add(A, new_document(b"shared bytes"))
        other, t2, created = store.add(B, new_document(b"shared bytes"))
        assert created and other.id != first.id and t2.id != t1.id
        assert store.add(B, new_document(b"shared bytes"))[0].id == other.id

    def test_unknown_ids_raise_not_found(self, store: DocumentStore) -> None:
        with pytest.raises(NotFound):
            store.document(A, uuid.uuid4())
        with pytest.raises(NotFound):
            store.transaction(A, uuid.uuid4())
        with pytest.raises(NotFound):
            store.correct(A, uuid.uuid4(), "sam", {"total_amount": "1.00"}, ReviewStatus.CORRECTED, None)

    def test_another_practices_ids_are_not_found(self, store: DocumentStore) -> None:
        document, transaction, _ = store.add(A, new_document(b"alpha's"))
        for read in (store.document, store.content, store.transaction_of):
            with pytest.raises(NotFound, match="no document"):
                read(B, document.id)
        with pytest.raises(NotFound, match="no transaction"):
            store.transaction(B, transaction.id)
        with pytest.raises(NotFound, match="no transaction"):
            store.correct(B, transaction.id, "mallory", {"total_amount": "0.01"}, ReviewStatus.REJECTED, None)
        unchanged = store.transaction(A, transaction.id)  # the refused correction left nothing behind
        assert unchanged.values["total_amount"] == "41.25" and unchanged.corrections == ()
        assert unchanged.review_status is ReviewStatus.PENDING

    def test_lists_show_only_the_practices_own(self, store: DocumentStore) -> None:
        _, a, _ = store.add(A, new_document(b"a1", currency="NZD"))
        _, b, _ = store.add(B, new_document(b"b1", currency="NZD"))
        a_ids = {t.id for t in store.transactions(A, TransactionFilter(limit=1000))}
        b_ids = {t.id for t in store.transactions(B, TransactionFilter(limit=1000))}
        assert a.id in a_ids and b.id in b_ids and not a_ids & b_ids
        assert [t.id for t in store.transactions(A, TransactionFilter(currency="NZD"))] == [a.id]

    def test_correction_keeps_the_original_and_records_who(self, store: DocumentStore) -> None:
        _, transaction, _ = store.add(A, new_document(b"fix me"))
        fixed = store.correct(A, transaction.id, "sam", {"total_amount": "42.00"}, ReviewStatus.CORRECTED, "misread")
        assert fixed.values["total_amount"] == "42.00"
        assert fixed.original["total_amount"] == "41.25"
        assert fixed.review_status is ReviewStatus.CORRECTED
        (correction,) = fixed.corrections
        assert (correction.who, correction.changes, correction.before, correction.note) == (
            "sam", {"total_amount": "42.00"}, {"total_amount": "41.25"}, "misread",
        )  # fmt: skip
        assert store.transaction(A, transaction.id) == fixed

    def test_filters(self, store: DocumentStore) -> None:
        _, a, _ = store.add(A, new_document(b"a", kind="receipt", issue_date="2024-01-10"))
        _, b, _ = store.add(A, new_document(b"b", currency="USD", supplier_abn=None, issue_date="2024-06-30"))
        store.correct(A, b.id, "sam", {}, ReviewStatus.CONFIRMED, None)

        def ids(query: TransactionFilter) -> set[uuid.UUID]:
            return {t.id for t in store.transactions(A, query)}

        assert ids(TransactionFilter(kind="receipt")) == {a.id}
        assert ids(TransactionFilter(currency="USD")) == {b.id}
        assert ids(TransactionFilter(review_status=ReviewStatus.CONFIRMED)) == {b.id}
        assert ids(TransactionFilter(issued_from=date(2024, 6, 1))) == {b.id}
        assert ids(TransactionFilter(issued_to=date(2024, 2, 1))) == {a.id}
        assert len(store.transactions(A, TransactionFilter(limit=1))) == 1
