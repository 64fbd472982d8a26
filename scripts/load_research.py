"""Load: many concurrent clients asking research at once, for a bounded time.

For each concurrency level (default 20, 50 and 100) an httpx asyncio driver keeps that many
clients asking the suite's questions (each at its own income year or day) for ``--seconds``
(default 30), then reports throughput, p50/p95/p99 of the answered requests, the replies by
status, and the CPU each service (every process `make up` started, by its pid file under
``<ASAT_VAR_DIR or var>/run``) and the driver itself used per request. A 429 (the concurrency cap) or 503 is counted as a refusal, never hidden; the last line
names the highest concurrency with 0 errors (any status but 200).

Each client asks its next question as soon as it has its answer (``--think-s 0``, the default: the
heaviest load), or after thinking that many seconds, as a person reading the answer would. A
client refused with 429 waits as its ``Retry-After`` says before asking again, as a well-behaved
client does (the web's does not retry at all).

    .venv/bin/python scripts/load_research.py [--url http://127.0.0.1:8730] [--levels 20 50 100] [--seconds 30] [--think-s 0] [--json]

The bearer token is ``ASAT_SERVICE_TOKEN`` when set, else the one `make up` keeps in
``<ASAT_VAR_DIR or var>/secrets/service-token`` (research refuses a request without it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from process_cpu import service_cpu_s

from asat_research.gold import load_suite


@dataclass
class LevelResult:
    concurrency: int
    seconds: float
    requests: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    latencies_ms: list[float] = field(default_factory=list)  # of the 200 replies
    refusals: Counter[str] = field(default_factory=Counter)  # "<status> <error> (<dependency>)": what a non-200 said
    messages: dict[str, str] = field(default_factory=dict)  # the first message of each refusal kind
    cpu_s: dict[str, float] = field(default_factory=dict)  # CPU seconds used during the level, by process

    def cpu_ms_per_request(self) -> dict[str, float]:
        if not self.requests:
            return {}
        return {name: round(1000 * seconds / self.requests, 1) for name, seconds in sorted(self.cpu_s.items())}

    def note_refusal(self, reply: httpx.Response) -> None:
        try:
            body = reply.json()
        except ValueError:
            body = {}
        body = body if isinstance(body, dict) else {}
        kind = f"{reply.status_code} {body.get('error', '?')}" + (
            f" ({body['dependency']})" if body.get("dependency") else ""
        )
        self.refusals[kind] += 1
        self.messages.setdefault(kind, str(body.get("message", reply.text[:200])))

    @property
    def errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status != "200")

    def summary(self) -> dict[str, Any]:
        return {
            "concurrency": self.concurrency,
            "seconds": round(self.seconds, 1),
            "requests": self.requests,
            "throughput_per_s": round(self.requests / self.seconds, 1) if self.seconds else 0.0,
            "p50_ms": percentile(self.latencies_ms, 0.50),
            "p95_ms": percentile(self.latencies_ms, 0.95),
            "p99_ms": percentile(self.latencies_ms, 0.99),
            "statuses": dict(sorted(self.statuses.items())),
            "errors": self.errors,
            "refusals": dict(sorted(self.refusals.items())),
            "messages": dict(sorted(self.messages.items())),
            "cpu_ms_per_request": self.cpu_ms_per_request(),
        }


def percentile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank percentile of ``values`` (``None`` when there are none)."""
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))], 1)


def bodies(suite: str) -> list[dict[str, Any]]:
    out = []
    for case in load_suite(suite).cases:
        body: dict[str, Any] = {"question": case.question}
        if case.as_of is not None:
            body["as_of"] = case.as_of.isoformat()
        else:
            body["income_year"] = case.income_year
        out.append(body)
    return out


def cpu_now(run_dir: Path | None) -> dict[str, float]:
    """CPU seconds so far of each service `make up` started (when ``run_dir`` is given) and of this driver."""
    used = service_cpu_s(run_dir) if run_dir is not None and run_dir.is_dir() else {}
    return used | {"load_driver": time.process_time()}


async def run_level(
    client: httpx.AsyncClient,
    requests: Sequence[dict[str, Any]],
    concurrency: int,
    seconds: float,
    think_s: float = 0.0,
    run_dir: Path | None = None,
) -> LevelResult:
    result = LevelResult(concurrency, seconds)
    cpu_before = cpu_now(run_dir)
    stop_at = time.monotonic() + seconds
    counter = iter(range(10**9))

    async def one_client() -> None:
        while time.monotonic() < stop_at:
            body = requests[next(counter) % len(requests)]
            started = time.perf_counter()
            pause = think_s
            try:
                reply = await client.post("/v1/research", json=body)
                status = str(reply.status_code)
                if reply.status_code == 429:
                    pause = max(pause, retry_after_s(reply.headers.get("retry-after")))
                if reply.status_code != 200:
                    result.note_refusal(reply)
            except httpx.HTTPError as exc:
                status = f"transport:{type(exc).__name__}"
            elapsed = (time.perf_counter() - started) * 1000
            result.requests += 1
            result.statuses[status] += 1
            if status == "200":
                result.latencies_ms.append(elapsed)
            if pause > 0:
                await asyncio.sleep(min(pause, max(0.0, stop_at - time.monotonic())))

    began = time.monotonic()
    await asyncio.gather(*(one_client() for _ in range(concurrency)))
    result.seconds = time.monotonic() - began
    cpu_after = cpu_now(run_dir)
    result.cpu_s = {name: cpu_after[name] - cpu_before.get(name, 0.0) for name in cpu_after}
    return result


def retry_after_s(header: str | None) -> float:
    """The seconds a ``Retry-After`` header asks for (0 when absent or not a number of seconds)."""
    try:
        return max(0.0, float(header)) if header is not None else 0.0
    except ValueError:
        return 0.0


async def run(
    url: str,
    requests: Sequence[dict[str, Any]],
    levels: Sequence[int],
    seconds: float,
    transport: httpx.AsyncBaseTransport | None = None,
    think_s: float = 0.0,
) -> list[LevelResult]:
    token = os.environ.get("ASAT_SERVICE_TOKEN", "").strip()
    var_dir = Path(os.environ.get("ASAT_VAR_DIR", "var"))
    kept = var_dir / "secrets" / "service-token"
    if not token and kept.is_file():
        token = kept.read_text().strip()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    limits = httpx.Limits(max_connections=max(levels), max_keepalive_connections=max(levels))
    results = []
    async with httpx.AsyncClient(
        base_url=url, timeout=120, headers=headers, limits=limits, transport=transport
    ) as client:
        for level in levels:
            print(f"[{level} clients] asking for {seconds:.0f}s ...", file=sys.stderr, flush=True)
            results.append(await run_level(client, requests, level, seconds, think_s, var_dir / "run"))
    return results


def highest_clean(results: Sequence[LevelResult]) -> int | None:
    clean = [r.concurrency for r in results if r.errors == 0 and r.requests > 0]
    return max(clean) if clean else None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8730")
    parser.add_argument("--suite", default="gold-set/pit_suite.yaml")
    parser.add_argument("--levels", type=int, nargs="+", default=[20, 50, 100])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think-s", type=float, default=0.0, help="seconds each client waits after an answer")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if any(level < 1 for level in args.levels) or args.seconds <= 0 or args.think_s < 0:
        parser.error("levels must be at least 1 client, --seconds more than 0 and --think-s at least 0")
    try:
        results = asyncio.run(run(args.url, bodies(args.suite), args.levels, args.seconds, think_s=args.think_s))
    except httpx.HTTPError as exc:
        print(f"load: cannot reach research at {args.url}: {exc}", file=sys.stderr)
        return 2
    best = highest_clean(results)
    if args.json:
        print(
            json.dumps(
                {"think_s": args.think_s, "levels": [r.summary() for r in results], "highest_with_0_errors": best}
            )
        )
    else:
        print(f"{'clients':>7} {'req':>6} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}  statuses")
        for r in results:
            s = r.summary()
            print(
                f"{s['concurrency']:>7} {s['requests']:>6} {s['throughput_per_s']:>7} {s['p50_ms']!s:>8} "
                f"{s['p95_ms']!s:>8} {s['p99_ms']!s:>8}  {s['statuses']}"
            )
        for r in results:
            print(f"{r.concurrency:>7} clients, CPU ms per request: {r.cpu_ms_per_request()}")
        print(f"highest concurrency with 0 errors: {best if best is not None else 'none'}")
    return 0 if results and results[0].errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
