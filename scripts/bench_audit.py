"""Audit insert cost under concurrent writers: median and p95 ms per insert, rows/s.

By default it creates a throwaway database with its own owner and app roles on the server at
``ASAT_TEST_DATABASE_URL`` (a superuser URL; default postgresql://postgres@127.0.0.1:5432/postgres),
migrates it, runs the writers, verifies the chain and drops everything. Each writer has its own
connection (as separate service processes would) and appends ``--rows`` records.

    .venv/bin/python scripts/bench_audit.py [--writers 8] [--rows 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from asat_audit.migration_runner import migrate_database
from asat_audit.postgres_store import PostgresAuditStore
from asat_audit.record import AuditCitation, AuditRecord, ReadingListItem, StageLatency
from asat_corpus.contracts.decisions import Decision

DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def _record(writer: int, n: int) -> AuditRecord:
    quote = "a loss or outgoing to the extent that it is incurred in gaining or producing your assessable income"
    citation = AuditCitation("ITAA1997/8-1@2019-07-01", ("C2019C00123",), quote, 120, 120 + len(quote))
    return AuditRecord(
        request_id=f"bench-{writer}-{n}",
        question="Was the home office deductible in FY2020 for an employee working from home?",
        as_of=date(2019, 7, 1),
        income_year=2020,
        decision=Decision.ANSWER,
        reasons=("two independent sources", "all quotes verified"),
        citations=(citation, citation),
        verified_quotes=(citation,),
        reading_list=(ReadingListItem(citation.version_id, citation.register_ids, "ITAA 1997 s 8-1"),),
        provider="extractive",
        model="extractive-v1",
        seed=42,
        corpus_generation="bench",
        latencies=(StageLatency("retrieve", 12.5), StageLatency("generate", 3.0), StageLatency("verify", 0.25)),
    )


@contextmanager
def _throwaway_database(admin_url: str) -> Iterator[str]:
    """Creates database + owner + app role, migrates, yields the app URL, drops it all."""
    name = f"asat_bench_{secrets.token_hex(5)}"
    owner, app = f"{name}_owner", f"{name}_app"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(owner)))
        admin.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(app)))
        admin.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(owner)))
    try:
        migrate_database(make_conninfo(admin_url, dbname=name, user=owner, password=""), app)
        yield make_conninfo(admin_url, dbname=name, user=app, password="")
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
            admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(app)))
            admin.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(owner)))


def _percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, min(len(sorted_values), round(fraction * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


def run(app_url: str, writers: int, rows: int) -> dict[str, object]:
    start = threading.Barrier(writers + 1)
    latencies: list[list[float]] = [[] for _ in range(writers)]
    failures: list[BaseException] = []

    def writer(number: int) -> None:
        try:
            with PostgresAuditStore(app_url) as store:
                store.append(_record(number, -1))  # warm-up, not measured
                start.wait()
                for n in range(rows):
                    began = time.perf_counter()
                    store.append(_record(number, n))
                    latencies[number].append((time.perf_counter() - began) * 1000)
        except BaseException as exc:
            failures.append(exc)
            start.abort()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    if failures:
        raise failures[0]
    with PostgresAuditStore(app_url) as store:
        report = store.verify()
    values = sorted(v for per_writer in latencies for v in per_writer)
    return {
        "writers": writers,
        "rows_per_writer": rows,
        "inserts": len(values),
        "median_ms": round(statistics.median(values), 3),
        "p95_ms": round(_percentile(values, 0.95), 3),
        "max_ms": round(values[-1], 3),
        "rows_per_s": round(len(values) / elapsed, 1),
        "elapsed_s": round(elapsed, 3),
        "chain_ok": report.ok,
        "chain_rows": report.checked,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--rows", type=int, default=200, help="inserts per writer")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--admin-url", default=os.environ.get("ASAT_TEST_DATABASE_URL", DEFAULT_ADMIN_URL), help="superuser URL"
    )
    args = parser.parse_args()
    with _throwaway_database(args.admin_url) as app_url:
        result = run(app_url, args.writers, args.rows)
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(
            f"{result['inserts']} audit inserts by {result['writers']} concurrent writers: "
            f"median {result['median_ms']} ms, p95 {result['p95_ms']} ms, max {result['max_ms']} ms, "
            f"{result['rows_per_s']} rows/s; chain ok: {result['chain_ok']} ({result['chain_rows']} rows)"
        )
    return 0 if result["chain_ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
