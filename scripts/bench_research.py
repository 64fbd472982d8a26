"""Benchmark: end-to-end latency of ``POST /v1/research`` against a running research service.

Asks the suite's questions (cycled to ``--n``, default 200) at their income years, after a
warm-up, and prints p50/p95 per request plus the per-stage medians the service reports. The
issue's targets with the extractive generator, warm: p50 under 300 ms, p95 under 800 ms.

    .venv/bin/python scripts/bench_research.py [--url http://127.0.0.1:8730] [--n 200] [--json]

The service requires the service token: ``ASAT_SERVICE_TOKEN`` is sent (``make up`` keeps it in
var/secrets/service-token).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import time
from collections import Counter
from typing import Any

import httpx

from asat_corpus.service_token import bearer_headers, optional_service_token
from asat_research.gold import load_suite


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8730")
    parser.add_argument("--suite", default="gold-set/pit_suite.yaml")
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    cases = list(load_suite(args.suite).cases)
    client = httpx.Client(base_url=args.url, timeout=60, headers=bearer_headers(optional_service_token(os.environ)))

    def ask(index: int) -> tuple[float, dict[str, Any]]:
        case = cases[index % len(cases)]
        body: dict[str, Any] = {"question": case.question}
        if case.as_of is not None:
            body["as_of"] = case.as_of.isoformat()
        else:
            body["income_year"] = case.income_year
        started = time.perf_counter()
        reply = client.post("/v1/research", json=body)
        elapsed = (time.perf_counter() - started) * 1000
        if reply.status_code != 200:
            raise SystemExit(f"error: {reply.status_code} {reply.text[:300]}")
        result: dict[str, Any] = reply.json()
        return elapsed, result

    for i in range(5):
        ask(i)
    timings: list[float] = []
    stages: dict[str, list[float]] = {}
    decisions: Counter[str] = Counter()
    for number, index in enumerate(itertools.islice(itertools.count(), args.n), start=1):
        elapsed, result = ask(index)
        timings.append(elapsed)
        decisions[result["decision"]] += 1
        for stage, ms in result["latencies_ms"].items():
            stages.setdefault(stage, []).append(ms)
        print(f"\r[bench] {number}/{args.n}", end="", file=sys.stderr)
    print(file=sys.stderr)
    summary = {
        "requests": len(timings),
        "p50_ms": round(statistics.median(timings), 1),
        "p95_ms": round(_percentile(timings, 0.95), 1),
        "stage_median_ms": {k: round(statistics.median(v), 1) for k, v in stages.items()},
        "decisions": dict(decisions),
    }
    print(json.dumps(summary, indent=2) if args.json else "\n".join(f"{k}: {v}" for k, v in summary.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
