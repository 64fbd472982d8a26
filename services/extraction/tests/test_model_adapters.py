"""Each model adapter against a stub server speaking its wire format, from recorded exchanges.

The recorded requests (``fixtures/model/*.json``) are subsets the adapter must send (model, JSON
mode or forced tool, schema, seed, headers); the tests also assert the prompts and the image parts.
"""

from __future__ import annotations

import base64
import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from asat_extraction.document import DocumentText, InputKind, Page, PageImage
from asat_extraction.extractor.port import ExtractorError
from asat_extraction.fields import DocumentKind, Extraction
from asat_extraction.model.anthropic_adapter import AnthropicTransport
from asat_extraction.model.extractor import ModelExtractor
from asat_extraction.model.grounding import NOT_FOUND
from asat_extraction.model.ollama_adapter import OllamaTransport
from asat_extraction.model.openai_adapter import OpenAITransport
from asat_extraction.model.prompts import SYSTEM, render_user
from asat_extraction.testing.extractor_contract import INVOICE, document
from asat_extraction.testing.stub_server import StubServer, load_exchanges

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "model"
OPENAI = load_exchanges(FIXTURES / "openai.json")
ANTHROPIC = load_exchanges(FIXTURES / "anthropic.json")
OLLAMA = load_exchanges(FIXTURES / "ollama.json")
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC")


def openai(stub: StubServer) -> ModelExtractor:
    return ModelExtractor(OpenAITransport(f"{stub.url}/v1", "gpt-4o-2024-08-06", "test-key", timeout=5))


def anthropic(stub: StubServer) -> ModelExtractor:
    return ModelExtractor(AnthropicTransport(stub.url, "claude-sonnet-4-5", "test-key", timeout=5))


def ollama(stub: StubServer, api_key: str = "") -> ModelExtractor:
    return ModelExtractor(OllamaTransport(stub.url, "llama3.2-vision", api_key, timeout=5))


def scanned() -> DocumentText:
    """An image document: its OCR text and the picture of its page."""
    return DocumentText(
        (Page(1, INVOICE, "scan.png page 1", ocr=True),),
        InputKind.IMAGE,
        "image/png",
        (PageImage(1, "image/png", PNG),),
    )


def assert_reads_the_invoice(e: Extraction) -> None:
    assert e.kind.value is DocumentKind.INVOICE
    assert e.supplier_name.value == "Harbourside Plumbing Pty Ltd"
    assert (e.supplier_abn.value, e.abn_valid.value) == ("51824753556", True)
    assert e.supplier_abn.provenance is not None and e.supplier_abn.provenance.text == "ABN 51 824 753 556"
    assert e.invoice_number.value == "INV-00042"
    assert e.issue_date.value == date(2024, 3, 19)
    assert (e.currency.value, e.total_amount.value, e.gst_amount.value) == ("AUD", Decimal("41.25"), Decimal("3.75"))
    assert e.total_amount.provenance is not None and e.total_amount.provenance.text == "Total (inc GST) $41.25"
    assert e.gst_registered_supplier.value is True
    items = e.line_items.value
    assert items is not None and [(i.description, i.amount, i.quantity, i.unit_amount) for i in items] == [
        ("Copper pipe 15mm", Decimal("37.50"), Decimal("3"), Decimal("12.50"))
    ]
    assert (e.evidence.subtotal, e.evidence.buyer_name) == (Decimal("37.50"), "Northwind Traders Pty Ltd")
    assert e.warnings == ()


def assert_invented_values_are_null(e: Extraction) -> None:
    assert e.total_amount.value is None and e.total_amount.reason == NOT_FOUND
    assert e.supplier_abn.value is None and e.supplier_abn.reason == NOT_FOUND
    assert e.abn_valid.value is None
    assert {(w.code, w.field) for w in e.warnings} == {
        ("model_value_not_found", "total_amount"),
        ("model_value_not_found", "supplier_abn"),
    }
    assert e.gst_amount.value == Decimal("3.75")


# --- OpenAI-compatible chat completions ---------------------------------------------------------


def test_openai_sends_json_schema_mode_and_reads_the_fields(stub: StubServer) -> None:
    stub.script(OPENAI["invoice_good"])
    e = openai(stub).extract(document(INVOICE))
    assert_reads_the_invoice(e)
    assert e.extractor == "openai:gpt-4o-2024-08-06"
    messages = stub.received[0].body["messages"]
    assert messages == [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": render_user(document(INVOICE))},
    ]


def test_openai_sends_an_image_document_as_a_data_url(stub: StubServer) -> None:
    stub.script(OPENAI["image_good"])
    assert_reads_the_invoice(openai(stub).extract(scanned()))
    text, image = stub.received[0].body["messages"][1]["content"]
    assert text == {"type": "text", "text": render_user(scanned())}
    assert image == {
        "type": "image_url",
        "image_url": {"url": "data:image/png;base64," + base64.b64encode(PNG).decode()},
    }


def test_openai_invented_total_is_null(stub: StubServer) -> None:
    stub.script(OPENAI["invoice_invented_total"])
    assert_invented_values_are_null(openai(stub).extract(document(INVOICE)))


@pytest.mark.parametrize(
    ("exchange", "message"),
    [
        ("invoice_prose", "ignored the JSON format: the reply is not JSON"),
        ("invoice_refusal", "refused: I can't help"),
        ("invoice_truncated", "length limit"),
        ("invoice_unauthorized", r"openai at .* answered HTTP 401 .*Incorrect API key.*ASAT_EXTRACTION_API_KEY"),
    ],
)
def test_openai_failures_are_extractor_errors(stub: StubServer, exchange: str, message: str) -> None:
    stub.script(OPENAI[exchange])
    with pytest.raises(ExtractorError, match=message):
        openai(stub).extract(document(INVOICE))


def test_openai_unreachable_names_the_base_url() -> None:
    extractor = ModelExtractor(OpenAITransport("http://127.0.0.1:9/v1", "m", timeout=2))
    with pytest.raises(
        ExtractorError, match=r"openai at http://127.0.0.1:9/v1 could not be reached.*ASAT_EXTRACTION_BASE_URL"
    ):
        extractor.extract(document(INVOICE))


def test_a_blank_document_sends_no_request(stub: StubServer) -> None:
    e = openai(stub).extract(document("  \n"))
    assert e.total_amount.value is None and stub.received == []


# --- Anthropic Messages ----------------------------------------------------------------------------


def test_anthropic_forces_the_tool_and_reads_its_input(stub: StubServer) -> None:
    stub.script(ANTHROPIC["invoice_good"])
    e = anthropic(stub).extract(document(INVOICE))
    assert_reads_the_invoice(e)
    assert e.extractor == "anthropic:claude-sonnet-4-5"
    body = stub.received[0].body
    assert body["messages"] == [{"role": "user", "content": [{"type": "text", "text": render_user(document(INVOICE))}]}]
    assert "seed" not in body


def test_anthropic_sends_an_image_block_before_the_text(stub: StubServer) -> None:
    stub.script(ANTHROPIC["image_good"])
    assert_reads_the_invoice(anthropic(stub).extract(scanned()))
    image, text = stub.received[0].body["messages"][0]["content"]
    assert image == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": base64.b64encode(PNG).decode()},
    }
    assert text["text"] == render_user(scanned())


def test_anthropic_invented_total_is_null(stub: StubServer) -> None:
    stub.script(ANTHROPIC["invoice_invented_total"])
    assert_invented_values_are_null(anthropic(stub).extract(document(INVOICE)))


@pytest.mark.parametrize(
    ("exchange", "message"),
    [
        ("invoice_text_only", r"did not make exactly one forced record_fields tool call \(it returned text\)"),
        ("invoice_max_tokens", "max_tokens"),
        ("invoice_overloaded", r"anthropic at .* answered HTTP 529 for model claude-sonnet-4-5: Overloaded"),
    ],
)
def test_anthropic_failures_are_extractor_errors(stub: StubServer, exchange: str, message: str) -> None:
    stub.script(ANTHROPIC[exchange])
    with pytest.raises(ExtractorError, match=message):
        anthropic(stub).extract(document(INVOICE))


# --- Ollama -----------------------------------------------------------------------------------------


def test_ollama_sends_the_schema_as_format_and_reads_the_fields(stub: StubServer) -> None:
    stub.script(OLLAMA["invoice_good"])
    e = ollama(stub, api_key="test-key").extract(document(INVOICE))
    assert_reads_the_invoice(e)
    assert e.extractor == "ollama:llama3.2-vision"
    request = stub.received[0]
    assert request.headers["authorization"] == "Bearer test-key"
    assert request.body["messages"][1] == {"role": "user", "content": render_user(document(INVOICE))}


def test_ollama_sends_images_with_the_user_message(stub: StubServer) -> None:
    stub.script(OLLAMA["image_good"])
    assert_reads_the_invoice(ollama(stub).extract(scanned()))
    request = stub.received[0]
    assert request.body["messages"][1]["images"] == [base64.b64encode(PNG).decode()]
    assert "authorization" not in request.headers


def test_ollama_invented_total_is_null(stub: StubServer) -> None:
    stub.script(OLLAMA["invoice_invented_total"])
    assert_invented_values_are_null(ollama(stub).extract(document(INVOICE)))


@pytest.mark.parametrize(
    ("exchange", "message"),
    [
        ("invoice_prose", "ignored the JSON format"),
        ("invoice_truncated", "length limit"),
        ("invoice_not_pulled", r"HTTP 404 .*not found.*ASAT_EXTRACTION_MODEL.*ollama pull llama3.2-vision"),
    ],
)
def test_ollama_failures_are_extractor_errors(stub: StubServer, exchange: str, message: str) -> None:
    stub.script(OLLAMA[exchange])
    with pytest.raises(ExtractorError, match=message):
        ollama(stub).extract(document(INVOICE))


def test_the_recorded_fixtures_are_valid_json_with_named_exchanges() -> None:
    for path in FIXTURES.glob("*.json"):
        recorded = json.loads(path.read_text(encoding="utf-8"))
        assert recorded["_about"] and recorded["exchanges"], path
