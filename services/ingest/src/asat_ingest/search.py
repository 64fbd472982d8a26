"""The query side of the index: a question and an income year in, filtered hybrid hits out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from asat_corpus.contracts.search import MAX_SEARCH_LIMIT
from asat_corpus.income_year import MAX_INCOME_YEAR, MIN_INCOME_YEAR
from asat_ingest.bm25 import Bm25Encoder
from asat_ingest.embedder import Embedder
from asat_ingest.index_point import AXIS_YEAR_KEYS, IN_FORCE
from asat_ingest.vector_cache import VectorCache
from asat_ingest.vector_index import VectorIndex

MAX_QUERY_CHARS = 2000
MAX_LIMIT = MAX_SEARCH_LIMIT  # the contract's bound (asat_corpus.contracts.search)
_QUERY_ENCODER = Bm25Encoder(avg_doc_len=1.0)  # query weights do not depend on document lengths


class SearchInputError(ValueError):
    """The search request is invalid; the message says what to change."""


class UnknownActError(SearchInputError):
    """The search names an Act the index does not know (a 400, not a validation 422)."""


class TemporalViolationError(RuntimeError):
    """A hit outside the requested income year came back: never served."""


@dataclass(frozen=True)
class SearchHit:
    chunk_id: str
    source_id: str
    score: float
    dense_score: float
    payload: dict[str, Any]


def cosines(query: Sequence[float], vectors: Sequence[Sequence[float] | npt.NDArray[np.float32]]) -> list[float]:
    """The cosine between ``query`` and each of ``vectors``, in one matrix product (0 where either
    vector is all zeros)."""
    if not vectors:
        return []
    q = np.asarray(query, dtype=np.float64)
    matrix = np.asarray(np.stack([np.asarray(v, dtype=np.float64) for v in vectors]))
    if matrix.shape[1] != q.shape[0]:
        raise ValueError(f"cannot compare a {q.shape[0]}-dimensional vector with {matrix.shape[1]}-dimensional ones")
    norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(q))
    dots = matrix @ q
    safe = np.where(norms > 0, norms, 1.0)
    return [float(x) for x in np.where(norms > 0, dots / safe, 0.0)]


def check_search_input(
    query: str, income_year: int, limit: int, acts: Sequence[str] | None, known_acts: frozenset[str]
) -> str:
    cleaned = " ".join(query.split())
    if not cleaned:
        raise SearchInputError("the query is empty: send the question text")
    if len(cleaned) > MAX_QUERY_CHARS:
        raise SearchInputError(f"the query has {len(cleaned)} characters; the limit is {MAX_QUERY_CHARS}")
    if not MIN_INCOME_YEAR <= income_year <= MAX_INCOME_YEAR:
        raise SearchInputError(
            f"income_year {income_year} is outside {MIN_INCOME_YEAR}-{MAX_INCOME_YEAR}; income year N runs "
            "1 July N-1 to 30 June N"
        )
    if not 1 <= limit <= MAX_LIMIT:
        raise SearchInputError(f"limit must be between 1 and {MAX_LIMIT}, got {limit}")
    unknown = sorted(set(acts or ()) - known_acts)
    if unknown:
        raise UnknownActError(f"unknown act(s) {', '.join(unknown)}; known acts: {', '.join(sorted(known_acts))}")
    return cleaned


class IndexSearcher:
    def __init__(self, index: VectorIndex, embedder: Embedder, cache: VectorCache, known_acts: frozenset[str]):
        self._index = index
        self._embedder = embedder
        self._cache = cache
        self.known_acts = known_acts

    def search(
        self,
        query: str,
        income_year: int,
        limit: int = 20,
        prefetch_limit: int = 100,
        acts: Sequence[str] | None = None,
        kinds: Sequence[str] | None = None,
        axis: str = IN_FORCE,
    ) -> list[SearchHit]:
        cleaned = check_search_input(query, income_year, limit, acts, self.known_acts)
        dense = self._embedder.embed_queries([cleaned])[0]
        sparse = _QUERY_ENCODER.encode_query(cleaned)
        hits = self._index.hybrid_search(
            dense,
            sparse if not sparse.is_empty else None,
            income_year,
            limit,
            max(prefetch_limit, limit),
            acts=list(acts) if acts else None,
            kinds=list(kinds) if kinds else None,
            axis=axis,
        )
        for hit in hits:
            if not any(income_year in hit.payload.get(key, ()) for key in AXIS_YEAR_KEYS[axis]):
                raise TemporalViolationError(
                    f"the index returned {hit.id} outside income year {income_year}; refusing to serve it"
                )
        embed_texts = [str(hit.payload.get("embed_text", "")) for hit in hits]
        cached = self._cache.get_arrays(self._embedder.identity, embed_texts)
        missing = [t for t, v in zip(embed_texts, cached, strict=True) if v is None]
        fresh = dict(zip(missing, self._embedder.embed(missing), strict=True)) if missing else {}
        vectors = [
            vector if vector is not None else fresh[text] for text, vector in zip(embed_texts, cached, strict=True)
        ]
        results = []
        for hit, score in zip(hits, cosines(dense, vectors), strict=True):
            payload = {k: v for k, v in hit.payload.items() if k != "embed_text"}
            results.append(
                SearchHit(
                    chunk_id=hit.id,
                    source_id=str(payload.get("source_id", "")),
                    score=hit.score,
                    dense_score=score,
                    payload=payload,
                )
            )
        return results
