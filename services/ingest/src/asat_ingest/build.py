"""Building the index from the dated corpus: items -> embeddings (cached) -> term counts (cached)
-> sparse -> Qdrant -> stamp.

The collection is created empty and stamped incomplete first, so a build that stops half way
is never mistaken for a finished index; it is stamped complete with its ``corpus_generation``
only after the last point is written.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from asat_corpus.build_progress import EMBED, TERMS, WRITE
from asat_corpus.corpus_build import CorpusBuild, IndexItem, items_generation
from asat_corpus.index_scope import IndexScope
from asat_corpus.vector_config import VectorConfig
from asat_ingest.bm25 import Bm25Encoder
from asat_ingest.cached_embedding import embed_with_cache
from asat_ingest.embedder import Embedder
from asat_ingest.index_point import IndexPoint
from asat_ingest.index_stamp import IndexStamp
from asat_ingest.term_count_cache import TermCountCache, term_counts_with_cache
from asat_ingest.term_counts import TermCounts
from asat_ingest.vector_cache import VectorCache
from asat_ingest.vector_index import VectorIndex

UPSERT_BATCH = 512
ProgressCallback = Callable[[str, int, int], None]  # phase, done, total


class BuildError(Exception):
    pass


@dataclass(frozen=True)
class BuildSummary:
    corpus_generation: str
    collection: str
    points: int
    by_kind: dict[str, int]
    cache_hits: int
    embedded: int
    seconds: float
    embedder_identity: str
    scope: dict[str, object]


def generation_of(items: Sequence[IndexItem], vector_config: VectorConfig) -> str:
    """The same value as ``CorpusBuild.generation`` for these items (computed once)."""
    return items_generation(items, vector_config)


def _points(
    items: Sequence[IndexItem],
    vectors: Sequence[Sequence[float]],
    bm25: Bm25Encoder,
    counts: dict[str, TermCounts],
) -> Iterator[IndexPoint]:
    for item, vector in zip(items, vectors, strict=True):
        payload = dict(item.payload)
        payload["text"] = item.text
        payload["embed_text"] = item.embed_text
        sparse = bm25.encode_counts(counts[item.embed_text])
        yield IndexPoint(id=item.id, dense=vector, sparse=sparse, payload=payload)


def build_index(
    corpus: CorpusBuild,
    scope: IndexScope,
    vector_config: VectorConfig,
    embedder: Embedder,
    cache: VectorCache,
    term_cache: TermCountCache,
    index: VectorIndex,
    collection: str,
    progress: ProgressCallback | None = None,
) -> BuildSummary:
    started = time.perf_counter()
    if embedder.dim != vector_config.dim:
        raise BuildError(
            f"the embedder gives {embedder.dim}-dimensional vectors but the vector configuration says "
            f"{vector_config.dim}: set ASAT_EMBEDDER_DIM to match the model"
        )
    items = list(corpus.index_items(scope))
    if not items:
        raise BuildError(f"the scope {scope.as_dict()} selects nothing from the corpus: check ASAT_INDEX_ACTS")
    generation = generation_of(items, vector_config)
    report = progress or (lambda phase, done, total: None)

    # Embed in length order so each batch pads little; map back by text.
    texts = sorted({i.embed_text for i in items}, key=len)
    done = 0

    def on_embedded(n: int) -> None:
        nonlocal done
        done += n
        report(EMBED, done, len(texts))

    embedded = embed_with_cache(embedder, cache, texts, on_progress=on_embedded)
    by_text = dict(zip(texts, embedded.vectors, strict=True))
    vectors = [by_text[i.embed_text] for i in items]

    counted = 0

    def on_counted(n: int) -> None:
        nonlocal counted
        counted += n
        report(TERMS, counted, len(texts))

    counts = term_counts_with_cache(term_cache, texts, on_progress=on_counted)
    bm25 = Bm25Encoder.fit_lengths(counts[i.embed_text].length for i in items)
    index.create(collection, embedder.dim, generation, embedder.identity)
    written = 0
    batch: list[IndexPoint] = []
    for point in _points(items, vectors, bm25, counts):
        batch.append(point)
        if len(batch) >= UPSERT_BATCH:
            written += index.upsert(batch)
            batch.clear()
            report(WRITE, written, len(items))
    if batch:
        written += index.upsert(batch)
        report(WRITE, written, len(items))
    stamp: IndexStamp = index.stamp()
    return BuildSummary(
        corpus_generation=generation,
        collection=collection,
        points=stamp.points,
        by_kind=dict(stamp.by_kind),
        cache_hits=embedded.hits,
        embedded=embedded.embedded,
        seconds=round(time.perf_counter() - started, 2),
        embedder_identity=embedder.identity,
        scope=scope.as_dict(),
    )


class IndexState(StrEnum):
    READY = "ready"
    MISSING = "missing"
    INCOMPLETE = "incomplete"
    STALE = "stale"
    WRONG_EMBEDDER = "wrong_embedder"


@dataclass(frozen=True)
class IndexStatus:
    state: IndexState
    message: str
    stamp: IndexStamp | None

    @property
    def ready(self) -> bool:
        return self.state is IndexState.READY


BUILD_HINT = "run `python -m asat_ingest build` (or POST /v1/builds to the ingest service)"


def index_status(stamp: IndexStamp | None, expected_generation: str, embedder_identity: str) -> IndexStatus:
    """Whether the index may serve queries for the corpus as it is now (pure)."""
    if stamp is None:
        return IndexStatus(IndexState.MISSING, f"no index has been built: {BUILD_HINT}", None)
    if not stamp.complete:
        return IndexStatus(
            IndexState.INCOMPLETE, f"the index build did not finish ({stamp.points} points): {BUILD_HINT}", stamp
        )
    if stamp.embedder_identity != embedder_identity:
        return IndexStatus(
            IndexState.WRONG_EMBEDDER,
            f"the index was built with {stamp.embedder_identity}, not the configured {embedder_identity}: {BUILD_HINT}",
            stamp,
        )
    if stamp.corpus_generation != expected_generation:
        return IndexStatus(
            IndexState.STALE,
            f"the index was built from corpus generation {stamp.corpus_generation[:12]}, but the corpus is now "
            f"{expected_generation[:12]}: {BUILD_HINT}",
            stamp,
        )
    return IndexStatus(IndexState.READY, f"ready: {stamp.points} points, generation {stamp.corpus_generation}", stamp)
