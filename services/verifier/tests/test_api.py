"""The HTTP edge: 200 with every failure reason, 413 per limit, 422, health."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asat_verifier.api import build_app
from asat_verifier.groundedness.deterministic import DeterministicScorer
from asat_verifier.limits import Limits

S81 = (
    "You can deduct from your assessable income any loss or outgoing to the extent that it is incurred "
    "in gaining or producing your assessable income.\n"
    "You cannot deduct a loss or outgoing under this section to the extent that it is a loss or\u00a0outgoing "
    "of a private or domestic nature."
)
SBE = (
    "An entity is a small business entity for an income year if its aggregated turnover for the "
    "income year is less than $10 million."
)


def _source(source_id: str, text: str, provision: str) -> dict[str, Any]:
    return {
        "id": source_id,
        "text": text,
        "act": "ITAA1997",
        "provision": provision,
        "register_id": "C2020C00001",
        "version_id": f"ITAA1997:{provision}@2020-07-01",
        "valid_from": "2020-07-01",
        "valid_to": None,
    }


def _request(*claims: dict[str, Any], retrieved: list[str] | None = None) -> dict[str, Any]:
    return {
        "claims": list(claims),
        "sources": [_source("s81", S81, "8-1"), _source("sbe", SBE, "328-110"), _source("extra", SBE, "328-110")],
        "retrieved_source_ids": ["s81", "sbe"] if retrieved is None else retrieved,
    }


def _claim(
    claim_id: str, text: str, quotes: list[tuple[str, str]], source_ids: list[str] | None = None
) -> dict[str, Any]:
    return {
        "id": claim_id,
        "text": text,
        "source_ids": sorted({s for s, _ in quotes}) if source_ids is None else source_ids,
        "quotes": [{"source_id": s, "text": t} for s, t in quotes],
    }


GOOD = _claim(
    "c1",
    "A private or domestic loss or outgoing is not deductible under section 8-1.",
    [("s81", "You cannot deduct a loss or outgoing under this section to the extent that it is a loss or outgoing")],
)


@pytest.fixture
def client() -> Iterator[TestClient]:
    limits = Limits(max_body_bytes=20_000, max_claims=3, max_sources=4, max_quotes_per_claim=2)
    with TestClient(build_app(DeterministicScorer(), limits)) as test_client:
        yield test_client


def test_healthz(client: TestClient) -> None:
    reply = client.get("/healthz")
    assert reply.status_code == 200
    assert reply.json() == {"status": "ok", "scorer": "deterministic"}


def test_verified_claim_with_range_in_original(client: TestClient) -> None:
    reply = client.post("/v1/verify", json=_request(GOOD))
    assert reply.status_code == 200
    body = reply.json()
    assert body["verified"] is True and body["scorer"] == "deterministic"
    (claim,) = body["claims"]
    assert claim["verified"] and claim["grounded"] and claim["reasons"] == []
    assert 0.5 <= claim["groundedness_score"] <= 1.0
    (quote,) = claim["quotes"]
    assert quote["verified"] and quote["reason"] is None
    assert S81[quote["start"] : quote["end"]] == (
        "You cannot deduct a loss or outgoing under this section to the extent that it is a loss or\u00a0outgoing"
    )


@pytest.mark.parametrize(
    ("quote_source", "quote_text", "cited", "reason"),
    [
        ("nope", "You cannot deduct a loss or outgoing under this section", ["nope"], "unknown_source"),
        ("extra", "An entity is a small business entity for an income year", ["extra"], "source_not_retrieved"),
        ("sbe", "An entity is a small business entity for an income year", ["s81"], "source_not_cited"),
        ("s81", "any loss or outgoing", ["s81"], "too_short"),
        ("s81", "You can deduct from your assessable income every loss", ["s81"], "not_a_substring"),
    ],
)
def test_each_quote_failure_reason(
    client: TestClient, quote_source: str, quote_text: str, cited: list[str], reason: str
) -> None:
    claim = _claim("c1", "An entity can deduct a loss.", [(quote_source, quote_text)], source_ids=cited)
    body = client.post("/v1/verify", json=_request(claim)).json()
    (verdict,) = body["claims"]
    (quote,) = verdict["quotes"]
    assert quote["verified"] is False
    assert quote["reason"] == reason
    assert quote["message"]
    assert quote["start"] is None and quote["end"] is None
    assert verdict["verified"] is False and body["verified"] is False
    assert "quote_not_verified" in [r["code"] for r in verdict["reasons"]]


def test_ungrounded_claim_with_verified_quote(client: TestClient) -> None:
    claim = _claim(
        "c2",
        "A small business entity has aggregated turnover of less than $2 million.",
        [("sbe", "its aggregated turnover for the income year is less than $10 million")],
    )
    (verdict,) = client.post("/v1/verify", json=_request(claim)).json()["claims"]
    assert verdict["quotes"][0]["verified"] is True
    assert verdict["grounded"] is False and verdict["verified"] is False
    assert [r["code"] for r in verdict["reasons"]] == ["not_grounded"]
    assert "$2 million" in verdict["reasons"][0]["message"]
    assert any(f["check"] == "money" and not f["passed"] for f in verdict["findings"])


def test_claim_without_quotes_and_bad_citations(client: TestClient) -> None:
    claim = _claim("c3", "Something is deductible.", [], source_ids=["ghost", "extra"])
    (verdict,) = client.post("/v1/verify", json=_request(claim)).json()["claims"]
    codes = [r["code"] for r in verdict["reasons"]]
    assert codes == ["no_quotes", "unknown_cited_source", "cited_source_not_retrieved", "not_grounded"]
    assert verdict["groundedness_score"] == 0.0


def test_many_claims_each_judged(client: TestClient) -> None:
    bad = _claim("bad", "It is deductible.", [("s81", "any loss or outgoing")])
    body = client.post("/v1/verify", json=_request(GOOD, bad)).json()
    assert [c["verified"] for c in body["claims"]] == [True, False]
    assert body["verified"] is False


@pytest.mark.parametrize(
    ("mutate", "limit"),
    [
        (lambda r: r.update(claims=[{**GOOD, "id": str(i)} for i in range(4)]), "max_claims"),
        (lambda r: r.update(sources=[_source(f"x{i}", "t", "1") for i in range(5)]), "max_sources"),
        (lambda r: r["claims"][0].update(quotes=GOOD["quotes"] * 3), "max_quotes_per_claim"),
        (lambda r: r["sources"][0].update(text="x" * 30_000), "max_body_bytes"),
    ],
)
def test_limits_give_413_naming_the_limit(client: TestClient, mutate: Any, limit: str) -> None:
    request = json.loads(json.dumps(_request(GOOD)))
    mutate(request)
    reply = client.post("/v1/verify", json=request)
    assert reply.status_code == 413
    body = reply.json()
    assert body["error"] == "request_too_large"
    assert body["limit"] == limit
    assert limit in body["message"]
    assert body["actual"] > body["maximum"]


def test_body_limit_applies_without_content_length(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(30):
            yield b" " * 1000

    reply = client.post("/v1/verify", content=chunks(), headers={"content-type": "application/json"})
    assert reply.status_code == 413
    assert reply.json()["limit"] == "max_body_bytes"


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"claims": [], "sources": []}, "retrieved_source_ids: Field required"),
        (
            {
                "claims": [{"id": "c", "text": "t", "quotes": [{"text": "x"}]}],
                "sources": [],
                "retrieved_source_ids": [],
            },
            "claims.0.quotes.0.source_id: Field required",
        ),
        ({**_request(GOOD), "sources": [_source("s81", S81, "8-1")] * 2}, "source id 's81' appears more than once"),
        ({**_request(GOOD), "surprise": 1}, "surprise: Extra inputs are not permitted"),
    ],
)
def test_invalid_requests_give_readable_422(client: TestClient, body: dict[str, Any], fragment: str) -> None:
    reply = client.post("/v1/verify", json=body)
    assert reply.status_code == 422
    payload = reply.json()
    assert payload["error"] == "invalid_request"
    assert fragment in payload["message"]


def test_malformed_json_gives_422(client: TestClient) -> None:
    reply = client.post("/v1/verify", content=b"{not json", headers={"content-type": "application/json"})
    assert reply.status_code == 422
    assert reply.json()["error"] == "invalid_request"


def test_unreadable_body_gives_400_in_the_error_shape(client: TestClient) -> None:
    reply = client.post("/v1/verify", content=b"\xff\xfe{", headers={"content-type": "application/json"})
    assert reply.status_code == 400
    assert reply.json()["error"] == "bad_request"


def test_a_day_must_be_an_iso_string(client: TestClient) -> None:
    request = _request(GOOD)
    request["sources"][0]["valid_to"] = 0
    reply = client.post("/v1/verify", json=request)
    assert reply.status_code == 422
    assert "sources.0.valid_to" in reply.json()["message"]
