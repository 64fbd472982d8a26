"""Benchmark: MiniLM embedding throughput and hybrid query latency on a Qdrant Edge index.

1. MiniLM int8 ONNX (CPU): texts/s over texts of about 200 word pieces, batch size 8.
2. A Qdrant Edge index of random points (384-d dense, BM25-like sparse, income-year payloads):
   build time (upsert + stamp), then hybrid query latency (dense + sparse prefetch, income-year
   filter everywhere, RRF k=60), p50/p95 over warm queries. Retrieval only: query vectors are
   made up front, so the figure excludes query embedding (reported separately).

With ``--profile``: instead, where a real build of the scope (``ASAT_INDEX_ACTS``,
``ASAT_INDEX_RULINGS``; default: every act and the public rulings) spends its time, stage by stage,
and the embedder's thread, batch and padding settings (``scripts/index_profile.py``).

    .venv/bin/python scripts/bench_index.py [--points 20000] [--queries 200] [--texts 96] [--optimize] [--json]
    .venv/bin/python scripts/bench_index.py --profile [--per-bucket 64] [--json]
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
from index_profile import profile

from asat_corpus.index_scope import index_scope_from_env
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
        embedder.embed_queries([query])
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


def _profile(per_bucket: int, as_json: bool) -> int:
    found = profile(index_scope_from_env(), per_bucket=per_bucket, say=lambda m: print(m, file=sys.stderr, flush=True))
    if as_json:
        json.dump(found, sys.stdout, indent=2)
        print()
        return 0
    print(f"scope {found['scope']}: {found['items']} items, {found['distinct_texts']} distinct texts to embed")
    print(f"word pieces: {found['word_pieces']}; texts per bucket: {found['texts_per_bucket']}")
    print("stage seconds (embed and upsert projected from a sample):")
    for stage, seconds in found["stages"].items():
        print(f"  {stage:<22} {seconds}")
    print("embed texts/s by setting and length bucket (projected seconds for the scope):")
    for setting, rates in found["embed_rates_per_s"].items():
        print(f"  {setting:<20} {rates}  -> {found['embed_projected_s'][setting]} s")
    print(f"today's setting {found['embed_default_setting']}; fastest {found['embed_fastest_setting']}")
    print(f"padding share at batch 8: {found['padding_share_batch8']}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--texts", type=int, default=96)
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime threads (default: all cores)")
    parser.add_argument("--optimize", action="store_true", help="build the HNSW graph at stamp time")
    parser.add_argument("--skip-embedding", action="store_true")
    parser.add_argument("--profile", action="store_true", help="where a real build's time goes, by stage")
    parser.add_argument("--per-bucket", type=int, default=64, help="--profile: texts embedded per length bucket")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.profile:
        return _profile(args.per_bucket, args.json)
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
