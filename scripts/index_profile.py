"""Where an index build's time goes (``scripts/bench_index.py --profile``): each stage of the real
build over the default scope, and the embedder's settings, measured on this machine.

Stages, in build order: parse (loading the dated corpus; served from its parse cache after the
first run), chunk (the index items of the scope), tokenize, embed, BM25 (fit and encode), upsert
(Qdrant Edge) and stamp. The whole scope goes through every stage but embedding and upsert, which
are timed on a sample and projected to the whole scope from the sample's rate per length bucket
(embedding the whole scope is what the profile is for: tens of minutes with MiniLM).

The embedder's settings: onnxruntime's intra-op threads (inter-op 1), the batch size per length
bucket, and the padding the batches carry in length order (today's build) and in corpus order.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asat_corpus.corpus_build import CorpusBuild, IndexItem, load_corpus
from asat_corpus.index_scope import IndexScope
from asat_ingest.bm25 import Bm25Encoder
from asat_ingest.edge_index import QdrantEdgeIndex
from asat_ingest.index_point import IndexPoint
from asat_ingest.minilm_embedder import DEFAULT_MAX_TOKENS, MINILM_DIM, MiniLmOnnxEmbedder, default_tokenizer_path

# Word pieces per text (with [CLS]/[SEP]); the last bucket is cut at the model's max_tokens.
BUCKETS: tuple[tuple[int, int], ...] = ((1, 64), (65, 128), (129, 192), (193, 10**9))
Progress = Callable[[str], None]


@dataclass(frozen=True)
class Timed:
    seconds: float
    value: Any


def timed(work: Callable[[], Any]) -> Timed:
    started = time.perf_counter()
    value = work()
    return Timed(time.perf_counter() - started, value)


def bucket_of(tokens: int) -> int:
    for number, (low, high) in enumerate(BUCKETS):
        if low <= tokens <= high:
            return number
    raise ValueError(f"a text of {tokens} word pieces fits no bucket")


def bucket_label(number: int) -> str:
    low, high = BUCKETS[number]
    return f"{low}-{high}" if high < 10**9 else f"{low}+ (cut at {DEFAULT_MAX_TOKENS})"


def padding_share(lengths: Sequence[int], batch_size: int) -> float:
    """The share of the tokens fed to the model that are padding, batching ``lengths`` in order."""
    real = padded = 0
    for start in range(0, len(lengths), batch_size):
        batch = lengths[start : start + batch_size]
        real += sum(batch)
        padded += max(batch) * len(batch)
    return round(1 - real / padded, 4) if padded else 0.0


def _sample(texts: Sequence[str], buckets: Sequence[int], per_bucket: int, seed: int) -> dict[int, list[str]]:
    rng = random.Random(seed)
    by_bucket: dict[int, list[str]] = {n: [] for n in range(len(BUCKETS))}
    for text, bucket in zip(texts, buckets, strict=True):
        by_bucket[bucket].append(text)
    return {n: rng.sample(group, min(per_bucket, len(group))) for n, group in by_bucket.items()}


def _rate(embedder: MiniLmOnnxEmbedder, texts: Sequence[str]) -> float:
    if not texts:
        return 0.0
    embedder.embed(list(texts[:4]))  # the session loaded and warm
    took = timed(lambda: embedder.embed(list(texts)))
    return len(texts) / took.seconds


def profile(
    scope: IndexScope,
    per_bucket: int = 64,
    threads: Sequence[int] = (1, 2),
    batch_sizes: Sequence[int] = (1, 8, 32),
    upsert_sample: int = 2048,
    seed: int = 7,
    say: Progress = lambda _: None,
) -> dict[str, Any]:
    from tokenizers import Tokenizer

    say("parse: loading the dated corpus")
    parsed = timed(lambda: load_corpus())
    corpus: CorpusBuild = parsed.value
    say("chunk: the index items of the scope")
    chunked = timed(lambda: list(corpus.index_items(scope)))
    items: list[IndexItem] = chunked.value
    texts = sorted({i.embed_text for i in items}, key=len)

    say(f"tokenize: {len(texts)} distinct texts")
    tokenizer = Tokenizer.from_file(str(default_tokenizer_path()))
    # The file pads every text to a fixed length and cuts it: count the word pieces as written.
    tokenizer.no_padding()
    tokenizer.no_truncation()
    tokenized = timed(lambda: tokenizer.encode_batch(texts))
    lengths = [len(e.ids) for e in tokenized.value]
    cut = [min(n, DEFAULT_MAX_TOKENS) for n in lengths]
    cut_by_text = dict(zip(texts, cut, strict=True))
    buckets = [bucket_of(n) for n in lengths]
    counts = [buckets.count(n) for n in range(len(BUCKETS))]
    sample = _sample(texts, buckets, per_bucket, seed)

    say("embed: rate per length bucket, thread setting and batch size")
    rates: dict[str, dict[str, float]] = {}
    for thread_count in threads:
        for batch in batch_sizes:
            embedder = MiniLmOnnxEmbedder(batch_size=batch, threads=thread_count)
            key = f"threads={thread_count},batch={batch}"
            rates[key] = {bucket_label(n): round(_rate(embedder, sample[n]), 1) for n in range(len(BUCKETS))}
            say(f"  {key}: {rates[key]}")
    default_key = f"threads={max(threads)},batch=8"
    projected_s = {
        key: round(sum(counts[n] / rate[bucket_label(n)] for n in range(len(BUCKETS)) if counts[n]), 1)
        for key, rate in rates.items()
    }
    best_key = min(projected_s, key=lambda k: projected_s[k])

    say("bm25: fit over the scope and encode every item")
    bm25_fit = timed(lambda: Bm25Encoder.fit(i.embed_text for i in items))
    encoder: Bm25Encoder = bm25_fit.value
    bm25_encode = timed(lambda: [encoder.encode_document(i.embed_text) for i in items])

    say(f"upsert and stamp: {upsert_sample} points into a scratch Qdrant Edge index")
    chosen = random.Random(seed).sample(items, min(upsert_sample, len(items)))
    sparse = bm25_encode.value
    by_id = {item.id: vector for item, vector in zip(items, sparse, strict=True)}
    unit = [1.0 / MINILM_DIM**0.5] * MINILM_DIM
    points = [
        IndexPoint(id=i.id, dense=unit, sparse=by_id[i.id], payload={**i.payload, "text": i.text}) for i in chosen
    ]
    with tempfile.TemporaryDirectory(prefix="asat-profile-") as tmp:
        index = QdrantEdgeIndex(Path(tmp) / "edge", collection="profile")
        index.create("profile", MINILM_DIM, "profile", "profile")
        upserted = timed(lambda: index.upsert(points))
        stamped = timed(index.stamp)
        index.close()
    upsert_per_point = upserted.seconds / len(points)

    stages = {
        "parse_s": round(parsed.seconds, 1),
        "chunk_s": round(chunked.seconds, 1),
        "tokenize_s": round(tokenized.seconds, 1),
        "embed_s_projected": projected_s[default_key],
        "bm25_s": round(bm25_fit.seconds + bm25_encode.seconds, 1),
        "upsert_s_projected": round(upsert_per_point * len(items), 1),
        "stamp_s_on_sample": round(stamped.seconds, 2),
    }
    return {
        "scope": scope.as_dict(),
        "items": len(items),
        "distinct_texts": len(texts),
        "word_pieces": {
            "median": statistics.median(lengths),
            "mean_after_cut": round(statistics.mean(cut), 1),
            "share_cut_at_max": round(sum(1 for n in lengths if n > DEFAULT_MAX_TOKENS) / len(lengths), 4),
        },
        "texts_per_bucket": {bucket_label(n): counts[n] for n in range(len(BUCKETS))},
        "stages": stages,
        "embed_rates_per_s": rates,
        "embed_projected_s": projected_s,
        "embed_default_setting": default_key,
        "embed_fastest_setting": best_key,
        "padding_share_batch8": {
            "length_order": padding_share(cut, 8),
            "corpus_order": padding_share([cut_by_text[i.embed_text] for i in items], 8),
        },
    }
