"""First-stage recall of the gold section: hybrid (dense + BM25, RRF), dense alone and BM25 alone.

In process, over the index of the current settings (``ASAT_VAR_DIR`` or ``ASAT_INDEX_DIR``, the
embedder of ``ASAT_EMBEDDER``; the index must have been built with it: stop the ingest service
first, the index directory belongs to one process). For each of the suite's answerable cases,
the rank of the first hit from a gold section (or ruling) among the first stage's hits, as
``bench_retrieval.py query`` ranks them; recall@N for N in ``--at`` (100 is the domain
ranker's candidate count, ``asat_research.composition.RETRIEVE_LIMIT``).

    ASAT_VAR_DIR=var .venv/bin/python scripts/bench_first_stage.py [--suite gold-set/pit_suite.yaml] [--at 5 20 50 100] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench_retrieval import _rank, _year

from asat_ingest.bm25 import Bm25Encoder
from asat_ingest.composition import build_embedder, build_index, config_from_env
from asat_research.gold import load_suite

MODES = ("hybrid", "dense", "bm25")
QUERY_ENCODER = Bm25Encoder(avg_doc_len=1.0)  # as ingest's searcher encodes a query


def recall_at(ranks: Sequence[int | None], n: int) -> float:
    """The share of ``ranks`` at or above ``n`` (``None``: not found)."""
    return round(sum(1 for r in ranks if r is not None and r <= n) / len(ranks), 3) if ranks else 0.0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", default="gold-set/pit_suite.yaml")
    parser.add_argument("--at", type=int, nargs="+", default=[5, 20, 50, 100])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    config = config_from_env()
    embedder = build_embedder(config)
    index = build_index(config)
    cases = [c for c in load_suite(args.suite).cases if c.expect.value in ("answer", "reject_premise")]
    limit = max(args.at)
    ranks: dict[str, list[int | None]] = {mode: [] for mode in MODES}
    started = time.perf_counter()
    for number, case in enumerate(cases, start=1):
        dense = embedder.embed_queries([case.question])[0]
        sparse = QUERY_ENCODER.encode_query(case.question)
        sparse_or_none = None if sparse.is_empty else sparse
        for mode in MODES:
            vectors = {"hybrid": (dense, sparse_or_none), "dense": (dense, None), "bm25": (None, sparse_or_none)}[mode]
            if vectors == (None, None):
                ranks[mode].append(None)
                continue
            hits = index.hybrid_search(vectors[0], vectors[1], _year(case), limit, limit)
            ranks[mode].append(_rank(case, [{"payload": h.payload} for h in hits]))
        print(f"\r[first stage] {number}/{len(cases)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    index.close()
    report: dict[str, Any] = {
        "embedder": embedder.identity,
        "answerable_cases": len(cases),
        "seconds": round(time.perf_counter() - started, 1),
        "recall": {mode: {f"@{n}": recall_at(ranks[mode], n) for n in args.at} for mode in MODES},
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{report['embedder']}: {len(cases)} answerable cases")
        for mode in MODES:
            print(f"  {mode:<7} " + "  ".join(f"{k} {v}" for k, v in report["recall"][mode].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
