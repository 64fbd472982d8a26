"""Benchmark the index: build times, query latency, and recall of the gold provision.

    # cold build (fresh vector cache) then warm rebuild, into temporary directories:
    .venv/bin/python scripts/bench_retrieval.py build [--rulings none|public|all] [--json]
    # query latency p50/p95 (>= 200 queries) and recall@5/@20 on the suite's answerable cases,
    # against the index the ingest service is serving (or in-process from ASAT_INDEX_DIR):
    .venv/bin/python scripts/bench_retrieval.py query [--url http://127.0.0.1:8720] [--suite ...] [--json]

Medians and percentiles are printed with the number of samples; the machine is shared, so
compare figures from the same run only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx

from asat_corpus.corpus_build import load_corpus
from asat_corpus.index_scope import RulingScope
from asat_corpus.service_token import bearer_headers, optional_service_token
from asat_ingest.build import build_index
from asat_ingest.composition import build_cache, build_embedder, build_term_cache, config_from_env
from asat_ingest.composition import build_index as open_index
from asat_research.gold import GoldCase, RulingRef, load_suite

Search = Callable[[str, int, int], list[dict[str, Any]]]


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _progress(label: str) -> Callable[[str, int, int], None]:
    def report(phase: str, done: int, total: int) -> None:
        print(f"\r[{label}] {phase} {done}/{total}", end="", file=sys.stderr)

    return report


def bench_build(rulings: str) -> dict[str, Any]:
    config = config_from_env()
    corpus = load_corpus()
    results: dict[str, Any] = {"scope": {"acts": "all", "rulings": rulings}}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config = replace(
            config,
            index_dir=root / "index",
            cache_dir=root / "cache",
            scope=replace(config.scope, acts=None, rulings=RulingScope(rulings)),
        )
        for label in ("cold", "warm"):
            index = open_index(config)
            cache = build_cache(config)
            term_cache = build_term_cache(config)
            started = time.perf_counter()
            summary = build_index(
                corpus,
                config.scope,
                config.vector_config,
                build_embedder(config),
                cache,
                term_cache,
                index,
                config.collection,
                _progress(label),
            )
            seconds = time.perf_counter() - started
            print(file=sys.stderr)
            index.close()
            cache.close()
            term_cache.close()
            results[label] = {
                "seconds": round(seconds, 1),
                "points": summary.points,
                "embedded": summary.embedded,
                "cache_hits": summary.cache_hits,
            }
    results["speedup"] = round(results["cold"]["seconds"] / max(results["warm"]["seconds"], 1e-9), 1)
    return results


def _http_search(url: str) -> Search:
    # The ingest service requires the service token (ASAT_SERVICE_TOKEN; make up keeps it in var/secrets/).
    client = httpx.Client(base_url=url, timeout=30, headers=bearer_headers(optional_service_token(os.environ)))

    def search(query: str, year: int, limit: int) -> list[dict[str, Any]]:
        reply = client.post("/v1/search", json={"query": query, "income_year": year, "limit": limit})
        reply.raise_for_status()
        hits: list[dict[str, Any]] = reply.json()["hits"]
        return hits

    return search


def _local_search() -> Search:
    from asat_ingest.runtime import IngestRuntime

    runtime = IngestRuntime(config_from_env())

    def search(query: str, year: int, limit: int) -> list[dict[str, Any]]:
        hits = runtime.search(query=query, income_year=year, limit=limit, prefetch_limit=100, acts=None, kinds=None)
        return [h.__dict__ for h in hits]

    return search


def _year(case: GoldCase) -> int:
    if case.income_year is not None:
        return case.income_year
    assert case.as_of is not None
    return case.as_of.year + 1 if case.as_of.month >= 7 else case.as_of.year


def _rank(case: GoldCase, hits: list[dict[str, Any]]) -> int | None:
    wanted: set[tuple[str, str]] = set()
    for authority in case.gold:
        if isinstance(authority, RulingRef):
            wanted.add(("ruling", authority.ruling))
        else:
            wanted.add((authority.act, authority.provision))
    seen: list[tuple[str, str]] = []
    for hit in hits:
        payload = hit["payload"]
        if payload.get("kind") == "ruling":
            key = ("ruling", str(payload["ruling"]))
        else:
            key = (str(payload.get("act")), str(payload.get("provision")))
        if key not in seen:
            seen.append(key)
        if key in wanted:
            return seen.index(key) + 1
    return None


def bench_query(search: Search, suite_path: str) -> dict[str, Any]:
    suite = load_suite(suite_path)
    cases = list(suite.cases)
    search(cases[0].question, _year(cases[0]), 20)  # warm up
    timings: list[float] = []
    queries = [(c.question, _year(c)) for c in cases] + [
        (c.question, 2026 if _year(c) != 2026 else 2015) for c in cases
    ]
    for number, (question, year) in enumerate(queries[: max(200, len(queries))], start=1):
        started = time.perf_counter()
        search(question, year, 20)
        timings.append((time.perf_counter() - started) * 1000)
        print(f"\r[latency] {number}/{len(queries)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    ranks: list[int | None] = []
    for case in cases:
        if case.expect.value in ("answer", "reject_premise"):
            ranks.append(_rank(case, search(case.question, _year(case), 20)))
    found = [r for r in ranks if r is not None]
    return {
        "queries": len(timings),
        "latency_ms": {"p50": round(statistics.median(timings), 1), "p95": round(_percentile(timings, 0.95), 1)},
        "answerable_cases": len(ranks),
        "recall_at_5": round(sum(1 for r in found if r <= 5) / len(ranks), 3) if ranks else None,
        "recall_at_20": round(len(found) / len(ranks), 3) if ranks else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build")
    build.add_argument("--rulings", choices=[r.value for r in RulingScope], default="none")
    build.add_argument("--json", action="store_true")
    query = sub.add_parser("query")
    query.add_argument("--url", help="a running ingest service; default: open the index in-process")
    query.add_argument("--suite", default="gold-set/pit_suite.yaml")
    query.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.command == "build":
        result = bench_build(args.rulings)
    else:
        result = bench_query(_http_search(args.url) if args.url else _local_search(), args.suite)
    print(json.dumps(result, indent=2) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
