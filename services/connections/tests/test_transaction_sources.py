"""The TransactionSource adapters under one contract: in memory, and over the extraction
service's HTTP API (the real ``asat_extraction`` app, in process, with its in-memory store)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from typing import cast
from uuid import UUID, uuid4

import httpx
import pytest
from fastapi.testclient import TestClient

from asat_connections import (
    HttpTransactionSource,
    InMemoryTransactionSource,
    SourceLine,
    SourceUnavailableError,
)
from asat_connections.transactions import PRACTICE_HEADER, transaction_from_values

from .support import three_bills
from .transaction_source_contract import Loaded, TransactionSourceContract

RECEIPT = (
    b"Acme Pty Ltd\nABN 51 824 753 556\nTax Invoice INV-77\nDate 03/07/2024\nPaper $20.00\nTotal $22.00\nGST $2.00\n"
)
TOKEN = "s" * 40


class TestInMemory(TransactionSourceContract):
    @pytest.fixture
    def loaded(self) -> Loaded:
        source = InMemoryTransactionSource()
        items = three_bills()
        for t, d in items:
            source.add(1, t, d)
        return Loaded(
            source,
            1,
            2,
            {t.id: t for t, _ in items},
            {d.id: (d.media_type, d.content) for _, d in items},
        )


@pytest.fixture(scope="module")
def extraction() -> Iterator[TestClient]:
    from asat_extraction.api import build_app
    from asat_extraction.extractor.deterministic import DeterministicExtractor
    from asat_extraction.inputs.limits import InputLimits
    from asat_extraction.pipeline import Pipeline
    from asat_extraction.store.memory import MemoryStore

    app = build_app(
        Pipeline(DeterministicExtractor(), None, InputLimits()), MemoryStore(), max_files=5, service_token=TOKEN
    )
    with TestClient(app) as client:
        yield client


class TestOverExtractionsHttpApi(TransactionSourceContract):
    @pytest.fixture
    def loaded(self, extraction: TestClient) -> Loaded:
        headers = {PRACTICE_HEADER: "1", "Authorization": f"Bearer {TOKEN}"}
        uploaded = RECEIPT + uuid4().hex.encode()  # new bytes each time (the same bytes are deduplicated)
        upload = extraction.post("/v1/documents", files=[("files", ("acme.txt", uploaded))], headers=headers)
        assert upload.status_code == 200, upload.text
        (result,) = upload.json()["results"]
        transaction_id = UUID(result["transaction"]["id"])
        reviewed = extraction.patch(
            f"/v1/transactions/{transaction_id}",
            json={"who": "agent@alpha.example", "review_status": "confirmed"},
            headers=headers,
        )
        assert reviewed.status_code == 200, reviewed.text
        row = reviewed.json()
        expected = transaction_from_values(transaction_id, UUID(row["document_id"]), "confirmed", row["values"])
        assert expected.supplier_name == "Acme Pty Ltd" and expected.total_amount == Decimal("22.00")
        assert expected.issue_date == date(2024, 7, 3) and expected.line_items == (
            SourceLine("Paper", Decimal("20.00")),
        )
        source = HttpTransactionSource("http://testserver", TOKEN, client=cast(httpx.Client, extraction))
        return Loaded(source, 1, 2, {transaction_id: expected}, {expected.document_id: ("text/plain", uploaded)})


def test_the_http_source_names_the_service_when_it_is_down() -> None:
    source = HttpTransactionSource("http://127.0.0.1:9", TOKEN, client=httpx.Client(timeout=1))
    with pytest.raises(SourceUnavailableError, match=r"could not be reached.*asat_extraction serve"):
        source.transactions(1, [UUID(int=1)])


def test_the_http_source_refused_without_the_service_token(extraction: TestClient) -> None:
    source = HttpTransactionSource("http://testserver", None, client=cast(httpx.Client, extraction))
    with pytest.raises(SourceUnavailableError, match="refused the service token"):
        source.transactions(1, [UUID(int=1)])


def test_values_of_the_wrong_kind_are_named() -> None:
    with pytest.raises(ValueError, match="total_amount 'lots' is not an amount"):
        transaction_from_values(UUID(int=1), UUID(int=2), "confirmed", {"total_amount": "lots"})
    with pytest.raises(ValueError, match="line item 1 has no amount"):
        transaction_from_values(UUID(int=1), UUID(int=2), "confirmed", {"line_items": [{"description": "x"}]})
