"""Verifier throughput: one request of 20 claims against 20 sources of 2,000 characters each.

Goes through the real app (FastAPI TestClient in process by default, or a running verifier with
``--url``, sent ``ASAT_SERVICE_TOKEN``, which it requires) and prints the median and p95 time per request over ``--runs`` requests, after
``--warmup`` unmeasured ones. The scorer is the one the environment configures
(``ASAT_GROUNDEDNESS``, deterministic by default).

    .venv/bin/python scripts/bench_verifier.py [--runs 50] [--warmup 3] [--url http://127.0.0.1:8710] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from typing import Any

import httpx
from fastapi.testclient import TestClient

from asat_corpus.service_token import bearer_headers, optional_service_token
from asat_verifier.composition import config_from_env, create_app

SOURCES = 20
CLAIMS = 20
SOURCE_CHARS = 2_000
_VOCABULARY = [
    "you",
    "can",
    "deduct",
    "from",
    "your",
    "assessable",
    "income",
    "any",
    "loss",
    "or",
    "outgoing",
    "to",
    "the",
    "extent",
    "that",
    "it",
    "is",
    "incurred",
    "in",
    "gaining",
    "producing",
    "carrying",
    "on",
    "a",
    "business",
    "for",
    "the",
    "purpose",
    "of",
    "capital",
    "private",
    "domestic",
    "nature",
    "entity",
    "small",
    "aggregated",
    "turnover",
    "income",
    "year",
    "less",
    "than",
    "commissioner",
    "may",
    "determine",
    "amount",
    "provision",
    "section",
    "subsection",
    "paragraph",
    "division",
    "taxpayer",
]


def _source_text(rng: random.Random, index: int) -> str:
    words: list[str] = [f"({index % 9 + 1})"]
    while len(" ".join(words)) < SOURCE_CHARS - 40:
        word = rng.choice(_VOCABULARY)
        roll = rng.random()
        if roll < 0.02:
            word = f"${rng.randint(1, 99)} million"
        elif roll < 0.04:
            word = f"{rng.randint(1, 50)}%"
        elif roll < 0.06:
            word = f"section {rng.randint(1, 400)}-{rng.randint(1, 99)}"
        elif roll < 0.08:
            word += ";\n   "
        words.append(word)
    text = " ".join(words)
    return (text + " " + "x" * SOURCE_CHARS)[: SOURCE_CHARS - 1] + "."


def build_request(seed: int = 7) -> dict[str, Any]:
    """20 sources of 2,000 characters and 20 claims, each quoting two spans of one source."""
    rng = random.Random(seed)
    sources = [
        {"id": f"src-{i}", "text": _source_text(rng, i), "act": "ITAA1997", "provision": f"{i + 1}-1"}
        for i in range(SOURCES)
    ]
    claims = []
    for i in range(CLAIMS):
        source = sources[i % SOURCES]
        text = str(source["text"])
        quotes = []
        for _ in range(2):
            start = rng.randrange(0, SOURCE_CHARS - 300)
            start = text.index(" ", start) + 1
            end = text.index(" ", start + 120)
            quotes.append({"source_id": source["id"], "text": text[start:end]})
        claims.append(
            {
                "id": f"claim-{i}",
                "text": quotes[0]["text"][:160],
                "source_ids": [source["id"]],
                "quotes": quotes,
            }
        )
    return {"claims": claims, "sources": sources, "retrieved_source_ids": [s["id"] for s in sources]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--url", help="a running verifier; default: the app in process")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    request = build_request()
    config = config_from_env()
    client: TestClient | httpx.Client
    if args.url:
        headers = bearer_headers(optional_service_token(os.environ))  # a running verifier requires the token
        client = httpx.Client(base_url=args.url, timeout=60, headers=headers)
    else:
        client = TestClient(create_app(config))
    with client:
        first = client.post("/v1/verify", json=request)
        first.raise_for_status()
        reply = first.json()
        for _ in range(args.warmup):
            client.post("/v1/verify", json=request).raise_for_status()
        timings: list[float] = []
        for _ in range(args.runs):
            started = time.perf_counter()
            client.post("/v1/verify", json=request).raise_for_status()
            timings.append((time.perf_counter() - started) * 1000)

    timings.sort()
    quotes = [q for c in reply["claims"] for q in c["quotes"]]
    result = {
        "scorer": reply["scorer"],
        "target": args.url or "in-process TestClient",
        "claims": CLAIMS,
        "sources": SOURCES,
        "source_chars": SOURCE_CHARS,
        "quotes": len(quotes),
        "quotes_verified": sum(q["verified"] for q in quotes),
        "claims_verified": sum(c["verified"] for c in reply["claims"]),
        "runs": args.runs,
        "median_ms": round(statistics.median(timings), 2),
        "p95_ms": round(timings[max(0, round(0.95 * len(timings)) - 1)], 2),
        "min_ms": round(timings[0], 2),
        "request_bytes": len(json.dumps(request)),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['claims']} claims x {result['sources']} sources of {SOURCE_CHARS} chars "
            f"({result['quotes_verified']}/{result['quotes']} quotes verified, "
            f"{result['claims_verified']}/{CLAIMS} claims verified; scorer {result['scorer']}; "
            f"{result['target']})\n"
            f"median {result['median_ms']} ms, p95 {result['p95_ms']} ms, min {result['min_ms']} ms "
            f"per request over {args.runs} runs"
        )


if __name__ == "__main__":
    main()
