"""Benchmark: MiniLM embedding throughput and hybrid query latency on a Qdrant Edge index.

1. MiniLM int8 ONNX (CPU): texts/s over texts of about 200 word pieces, batch size 8.
2. A Qdrant Edge index of random points (384-d dense, BM25-like sparse, income-year payloads):
   build time (upsert + stamp), then hybrid query latency (dense + sparse prefetch, income-year
   filter everywhere, RRF k=60), p50/p95 over warm queries. Retrieval only: query vectors are
   made up front, so the figure excludes query embedding (reported separately).

    .venv/bin/python scripts/bench_index.py [--points 20000] [--queries 200] [--texts 96] [--optimize] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from asat_ingest.edge_index import QdrantEdgeIndex
from asat_ingest.index_point import IndexPoint
from asat_ingest.minilm_embedder import MiniLmOnnxEmbedder
from asat_ingest.sparse_vector import SparseVector

_WORDS = [
    "taxpayer",
    "deduct",
    "deduction",
    "assessable",
    "income",
    "outgoing",
    "capital",
    "nature",
    "private",
    "domestic",
    "business",
    "incurred",
    "gaining",
    "producing",
    "exempt",
    "non-assessable",
    "commissioner",
    "amount",
    "year",
    "entity",
    "company",
    "trust",
    "partnership",
    "beneficiary",
    "dividend",
    "franking",
    "credit",
    "offset",
    "loss",
    "gain",
    "asset",
    "disposal",
    "CGT",
    "event",
    "cost",
    "base",
    "market",
    "value",
    "depreciation",
    "decline",
    "effective",
    "life",
    "superannuation",
    "contribution",
    "concessional",
    "employer",
    "employee",
    "fringe",
    "benefit",
    "GST",
    "supply",
    "acquisition",
    "input",
    "taxed",
    "registration",
    "ruling",
    "section",
    "subsection",
    "paragraph",
    "Division",
    "Subdivision",
    "provision",
    "apply",
    "applies",
    "under",
    "because",
    "despite",
    "unless",
]


def _percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def _legal_text(rng: random.Random, words: int) -> str:
    parts = []
    for i in range(words):
        if i % 23 == 7:
            parts.append(f"section {rng.randint(1, 999)}-{rng.randint(1, 400)}")
        else:
            parts.append(rng.choice(_WORDS))
    return " ".join(parts) + "."


def bench_embedding(texts_count: int, threads: int | None) -> dict[str, Any]:
    rng = random.Random(1)
    embedder = MiniLmOnnxEmbedder(batch_size=8, threads=threads)
    texts = [_legal_text(rng, 150) for _ in range(texts_count)]
    embedder.embed(texts[:8])  # load the session and warm up
    tokens = [embedder.count_tokens(t) for t in texts]
    start = time.perf_counter()
    embedder.embed(texts)
    seconds = time.perf_counter() - start
    single = []
    for text in texts[:40]:
        query = text[:80]
        t0 = time.perf_counter()
        embedder.embed([query])
        single.append((time.perf_counter() - t0) * 1000)
    return {
        "texts": len(texts),
        "mean_tokens": statistics.mean(tokens),
        "batch_size": embedder.batch_size,
        "seconds": round(seconds, 3),
        "texts_per_s": round(len(texts) / seconds, 1),
        "query_embed_ms_p50": round(_percentile(single, 50), 2),
    }


def _random_points(count: int, dim: int, seed: int) -> list[IndexPoint]:
    rng = np.random.default_rng(seed)
    dense = rng.standard_normal((count, dim)).astype(np.float32)
    dense /= np.linalg.norm(dense, axis=1, keepdims=True)
    vocab = 20_000
    acts = ["ITAA1997", "ITAA1936", "GST1999", "TAA1953", "FBTAA1986"]
    points = []
    for i in range(count):
        terms = rng.zipf(1.3, size=40) % vocab
        unique, counts = np.unique(terms, return_counts=True)
        weights = counts * 2.2 / (counts + 1.2)
        first = int(rng.integers(2010, 2027))
        years = list(range(first, min(2026, first + int(rng.integers(1, 8))) + 1))
        kind = "ruling" if i % 5 == 0 else "provision"
        points.append(
            IndexPoint(
                id=f"bench-{i}",
                dense=dense[i].tolist(),
                sparse=SparseVector(tuple(int(x) for x in unique), tuple(float(w) for w in weights)),
                payload={
                    "income_years": years,
                    "act": None if kind == "ruling" else acts[i % len(acts)],
                    "provision": f"{i % 997}-{i % 13}",
                    "kind": kind,
                },
            )
        )
    return points


def bench_index(points_count: int, queries: int, optimize: bool, dim: int = 384) -> dict[str, Any]:
    points = _random_points(points_count, dim, seed=2)
    rng = np.random.default_rng(3)
    with tempfile.TemporaryDirectory(prefix="asat-bench-index-") as tmp:
        index = QdrantEdgeIndex(Path(tmp) / "edge", collection="bench", optimize_on_stamp=optimize)
        start = time.perf_counter()
        index.create("bench", dim, "bench-generation", "random-vectors|dim=384")
        index.upsert(points)
        upsert_s = time.perf_counter() - start
        stamp = index.stamp()
        build_s = time.perf_counter() - start
        query_vectors = rng.standard_normal((queries + 20, dim)).astype(np.float32)
        latencies: list[float] = []
        hits_returned = 0
        for q in range(queries + 20):
            terms = np.unique(rng.zipf(1.3, size=6) % 20_000)
            sparse = SparseVector(tuple(int(t) for t in terms), tuple(1.0 for _ in terms))
            year = int(rng.integers(2012, 2027))
            t0 = time.perf_counter()
            hits = index.hybrid_search(query_vectors[q].tolist(), sparse, year, limit=20, prefetch_limit=100)
            elapsed = (time.perf_counter() - t0) * 1000
            if q >= 20:  # the first 20 warm the index up
                latencies.append(elapsed)
                hits_returned += len(hits)
        index.close()
    return {
        "points": stamp.points,
        "dense_dim": dim,
        "upsert_s": round(upsert_s, 2),
        "optimized": optimize,
        "build_s": round(build_s, 2),
        "queries": len(latencies),
        "limit": 20,
        "prefetch_limit": 100,
        "latency_ms_p50": round(_percentile(latencies, 50), 2),
        "latency_ms_p95": round(_percentile(latencies, 95), 2),
        "mean_hits": round(hits_returned / len(latencies), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--texts", type=int, default=96)
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime threads (default: all cores)")
    parser.add_argument("--optimize", action="store_true", help="build the HNSW graph at stamp time")
    parser.add_argument("--skip-embedding", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = {
        "embedding": None if args.skip_embedding else bench_embedding(args.texts, args.threads),
        "index": bench_index(args.points, args.queries, optimize=args.optimize),
    }
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        print()
    else:
        e, i = result["embedding"], result["index"]
        assert i is not None
        if e is not None:
            print(
                f"MiniLM int8 ONNX: {e['texts_per_s']} texts/s ({e['texts']} texts, mean {e['mean_tokens']:.0f} "
                f"word pieces, batch {e['batch_size']}, {e['seconds']} s); one short query "
                f"{e['query_embed_ms_p50']} ms"
            )
        print(
            f"Qdrant Edge, {i['points']} points: upsert {i['upsert_s']} s, build incl. stamp "
            f"{'and HNSW optimize ' if i['optimized'] else ''}{i['build_s']} s"
        )
        print(
            f"hybrid query (limit {i['limit']}, prefetch {i['prefetch_limit']}, {i['queries']} warm queries): "
            f"p50 {i['latency_ms_p50']} ms, p95 {i['latency_ms_p95']} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
