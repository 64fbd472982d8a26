"""Schemathesis over extraction's OpenAPI, in process, over the real Postgres (as the app role) and
the real pipeline (deterministic extractor, Tesseract): no input may produce a 5xx, and every reply
matches its documented status, content type and model.

The app is built as ``python -m asat_extraction serve`` builds it (``database_check``, a service
token); every request carries the token. ``X-AsAt-Practice`` is fuzzed as any other parameter, and
offered as practice 1 or 2 beside any other text (a random string is almost never a practice id,
and would leave every route at its 400). Practice 1 holds a text receipt and a PDF invoice,
practice 2 a receipt; their ids are offered beside any other UUID, so reads, pages and corrections
reach real rows (and another practice's, which must be a 404). The rows the run writes (uploads,
corrections) stay for the rest of the run. The longer run is ``scripts/fuzz_counts.py``
(docs/fuzzing.md).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from starlette.types import Receive, Scope, Send

from asat_extraction.api import PRACTICE_HEADER, build_app
from asat_extraction.extractor.deterministic import DeterministicExtractor
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.pipeline import Pipeline
from asat_extraction.store.memory import MemoryStore
from asat_extraction.store.postgres import PostgresStore
from asat_extraction.testing.postgres import scratch_database
from asat_extraction.testing.samples import invoice_pdf

pytestmark = pytest.mark.postgres

TOKEN = "extraction-fuzz-token-" + "f" * 22
AUTHORISED = {"authorization": f"Bearer {TOKEN}"}
RECEIPT = b"Acme Pty Ltd\nABN 51 824 753 556\nTax invoice INV-31\nTotal $22.00\nGST $2.00\n"
OTHER_RECEIPT = b"Beta Pty Ltd\nABN 51 824 753 556\nTotal $11.00\nGST $1.00\n"
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


# Stand-ins in the schema for the ids the world seeds (the store makes them when the world is
# built, after the schema is read): ``ExtractionWorld.prepare`` puts the real id in their place.
DOCUMENTS = tuple(f"00000000-0000-4000-8000-00000000000{n}" for n in (1, 2, 3))
TRANSACTIONS = tuple(f"00000000-0000-4000-9000-00000000000{n}" for n in (1, 2, 3))


def fuzz_schema(app: FastAPI) -> dict[str, Any]:
    """``app.openapi()`` (what the app serves at /openapi.json) with the practices and the seeded
    ids (their stand-ins) offered beside any other value."""
    document = copy.deepcopy(app.openapi())
    offered = {PRACTICE_HEADER: ["1", "2"], "document_id": list(DOCUMENTS), "transaction_id": list(TRANSACTIONS)}
    for operations in document["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] in offered:
                    parameter["schema"] = {"anyOf": [{"enum": offered[parameter["name"]]}, parameter["schema"]]}
    return document


class Dispatch:
    """Serves with ``app``: the shape's routes until the world is built."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


SHAPE = build_app(Pipeline(DeterministicExtractor(), None, InputLimits()), MemoryStore(), max_files=3)
EXTRACTION = Dispatch(SHAPE)
schema = schemathesis.openapi.from_dict(fuzz_schema(SHAPE))
schema.app = EXTRACTION


@dataclass(frozen=True)
class ExtractionWorld:
    """The app over a scratch database, and the real id of each stand-in."""

    app: FastAPI
    ids: dict[str, str]

    def prepare(self, case: schemathesis.Case[Any]) -> None:
        """The case's stand-in ids replaced with the seeded rows' ids."""
        for name, value in (case.path_parameters or {}).items():
            if isinstance(value, str) and value in self.ids:
                case.path_parameters[name] = self.ids[value]


def seed(app: FastAPI) -> dict[str, str]:
    """Practice 1's receipt and invoice, practice 2's receipt, uploaded through the API: the real
    id of each stand-in."""
    client = TestClient(app, headers=AUTHORISED)
    ids: dict[str, str] = {}
    uploads = (("1", [("receipt.txt", RECEIPT), ("invoice.pdf", invoice_pdf())]), ("2", [("other.txt", OTHER_RECEIPT)]))
    results = []
    for practice, files in uploads:
        reply = client.post("/v1/documents", files=[("files", f) for f in files], headers={PRACTICE_HEADER: practice})
        assert reply.status_code == 200, reply.text
        results += reply.json()["results"]
    for document, transaction, result in zip(DOCUMENTS, TRANSACTIONS, results, strict=True):
        ids[document] = result["document"]["id"]
        ids[transaction] = result["transaction"]["id"]
    return ids


@contextmanager
def extraction_world(pipeline: Pipeline) -> Iterator[ExtractionWorld]:
    """The app as ``serve`` builds it, over a scratch database (dropped when the ``with`` ends)."""
    with scratch_database() as database:
        store = PostgresStore(database.app_url)
        app = build_app(pipeline, store, max_files=3, database_check=store.check, service_token=TOKEN)
        yield ExtractionWorld(app, seed(app))


@pytest.fixture(scope="module")
def world(pipeline: Pipeline) -> Iterator[ExtractionWorld]:
    with extraction_world(pipeline) as built:
        EXTRACTION.app = built.app
        yield built
        EXTRACTION.app = SHAPE


@schema.parametrize()
@settings(max_examples=25, deadline=None)
def test_every_reply_matches_the_documented_model(world: ExtractionWorld, case: schemathesis.Case[Any]) -> None:
    world.prepare(case)
    case.call_and_validate(headers=AUTHORISED, checks=CHECKS)


def test_the_seeded_ids_and_the_practices_are_offered() -> None:
    app = SHAPE
    fuzzed = fuzz_schema(app)["paths"]

    def parameter(paths: dict[str, Any], path: str, name: str) -> dict[str, Any]:
        found: list[dict[str, Any]] = [p for p in paths[path]["get"]["parameters"] if p["name"] == name]
        assert len(found) == 1, found
        return found[0]

    assert parameter(fuzzed, "/v1/documents/{document_id}", "document_id")["schema"]["anyOf"][0] == {
        "enum": list(DOCUMENTS)
    }
    assert parameter(fuzzed, "/v1/transactions", PRACTICE_HEADER)["schema"]["anyOf"][0] == {"enum": ["1", "2"]}
    served = parameter(app.openapi()["paths"], "/v1/documents/{document_id}", "document_id")
    assert served["schema"] == {"type": "string", "format": "uuid", "title": "Document Id"}  # unchanged
