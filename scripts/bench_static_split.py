"""Where the corpus-fitted table should hand documents to MiniLM: agreement and cost by length.

For each cut ``T`` (word pieces, ``[CLS]``/``[SEP]`` counted) the documents of at most ``T`` are
embedded by MiniLM and the rest by the table (``ASAT_STATIC_CORPUS_EXACT_TOKENS=T``). Printed per
cut: how many texts MiniLM takes, MiniLM's time for them (projected from rates timed on a sample of
each length bucket, 2 threads, batch 8, in length order as a build runs), and how closely the
mixed vectors agree with MiniLM's own on the texts held out of the table's fit (mean and 10th
percentile cosine). No gold-set data is read: the cut is chosen on agreement and time alone.

Needs MiniLM's vectors of the scope in the vector cache (a MiniLM build, ``make up``, leaves them).

    .venv/bin/python scripts/bench_static_split.py [--cuts 0,32,64,96,128] [--per-bucket 96] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from asat_corpus.corpus_build import load_corpus
from asat_ingest.composition import build_cache, config_from_env
from asat_ingest.fit_static import held_out
from asat_ingest.minilm_embedder import MiniLmOnnxEmbedder
from asat_ingest.static_artifact import FITTED_MODEL_DIR, REFIT_HINT
from asat_ingest.static_embedder import StaticEmbedder

BUCKETS = ((1, 32), (33, 48), (49, 64), (65, 96), (97, 128), (129, 192), (193, 256))


def bucket_of(count: int) -> int:
    return next(i for i, (low, high) in enumerate(BUCKETS) if low <= count <= high)


def timed_rate(minilm: MiniLmOnnxEmbedder, texts: Sequence[str]) -> float:
    """Texts per second, MiniLM on ``texts`` in one call (it batches them in length order)."""
    minilm.embed(texts[:8])  # warm the session
    started = time.perf_counter()
    minilm.embed(texts)
    return len(texts) / (time.perf_counter() - started)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cuts", default="0,32,48,64,96,128")
    parser.add_argument("--per-bucket", type=int, default=96, help="texts timed per length bucket")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cuts = [int(c) for c in args.cuts.split(",")]
    if any(not 0 <= c <= 256 for c in cuts):
        print("error: every cut must be within 0..256 word pieces", file=sys.stderr)
        return 2

    def say(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    config = config_from_env({k: v for k, v in os.environ.items() if k != "ASAT_EMBEDDER"})
    corpus = load_corpus(progress=say)
    texts = sorted({item.embed_text for item in corpus.index_items(config.scope)})
    say(f"{len(texts):,} distinct texts in the scope {config.scope.as_dict()}")
    minilm = MiniLmOnnxEmbedder()
    counts = np.asarray(minilm.count_tokens_many(texts))
    cache = build_cache(config)
    try:
        cached = cache.get_arrays(minilm.identity, texts)
    finally:
        cache.close()
    missing = sum(v is None for v in cached)
    if missing:
        print(
            f"error: {missing:,} of {len(texts):,} texts have no MiniLM vector in the cache: build the MiniLM "
            "index first (make up)",
            file=sys.stderr,
        )
        return 1
    teacher = np.stack([v for v in cached if v is not None])
    table = StaticEmbedder(FITTED_MODEL_DIR, REFIT_HINT, identity_name="static-corpus-table")
    say("embedding every text by the table")
    by_table = table.embed_array(texts)
    cosine = np.sum(by_table * teacher, axis=1)
    held = held_out(texts)

    buckets = np.asarray([bucket_of(int(c)) for c in counts])
    rng = random.Random(0)
    rates: dict[str, float] = {}
    for index, (low, high) in enumerate(BUCKETS):
        members = [texts[i] for i in np.flatnonzero(buckets == index)]
        sample = rng.sample(members, min(args.per_bucket, len(members)))
        say(f"timing MiniLM on {len(sample)} texts of {low}-{high} word pieces")
        rates[f"{low}-{high}"] = round(timed_rate(minilm, sample), 1)

    by_bucket: list[dict[str, Any]] = []
    for index, (low, high) in enumerate(BUCKETS):
        mask = (buckets == index) & held
        by_bucket.append(
            {
                "word_pieces": f"{low}-{high}",
                "texts": int(np.sum(buckets == index)),
                "minilm_texts_per_s": rates[f"{low}-{high}"],
                "table_cosine_mean_held_out": round(float(np.mean(cosine[mask])), 4),
                "table_cosine_p10_held_out": round(float(np.percentile(cosine[mask], 10)), 4),
            }
        )
    per_text_seconds = np.asarray([1.0 / rates[f"{BUCKETS[b][0]}-{BUCKETS[b][1]}"] for b in buckets])
    rows: list[dict[str, Any]] = []
    for cut in cuts:
        exact = counts <= cut
        mixed = np.where(exact, 1.0, cosine)
        rows.append(
            {
                "exact_up_to": cut,
                "minilm_texts": int(np.sum(exact)),
                "minilm_seconds_projected": round(float(np.sum(per_text_seconds[exact])), 1),
                "cosine_mean_held_out": round(float(np.mean(mixed[held])), 4),
                "cosine_p10_held_out": round(float(np.percentile(mixed[held], 10)), 4),
                "share_below_0_8_held_out": round(float(np.mean(mixed[held] < 0.8)), 4),
            }
        )
    result = {
        "texts": len(texts),
        "held_out": int(np.sum(held)),
        "median_word_pieces": statistics.median(int(c) for c in counts),
        "by_bucket": by_bucket,
        "by_cut": rows,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for row in by_bucket:
            print(row)
        for row in rows:
            print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
