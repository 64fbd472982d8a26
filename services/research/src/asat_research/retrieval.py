"""The retrieval port: a hybrid search behind a hard income-year filter, as research sees it.

The index is owned by the ingest service (one process owns a Qdrant Edge directory); research
asks it over HTTP. The filter is applied inside the vector store on every prefetch and on the
fused query, so a hit outside the income year cannot come back; research checks every hit's
``income_years`` again anyway and treats a violation as an error, never as data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from asat_corpus.contracts.search import IndexBuild


class RetrievalUnavailable(Exception):
    """The index cannot be queried (down, missing or stale); the message names what to run."""


@dataclass(frozen=True)
class Hit:
    chunk_id: str
    source_id: str  # provision version id or ruling id
    score: float  # fused (RRF) score
    dense_score: float  # cosine between the query and the chunk embedding
    payload: dict[str, Any]


@dataclass(frozen=True)
class SearchResult:
    hits: tuple[Hit, ...]
    corpus_generation: str
    embedder: str


@dataclass(frozen=True)
class IndexReport:
    """What the index service says of its index: its state (``asat_corpus.contracts.search.
    IndexStateName``), in words, the generation stamped on it, and its build running now or last."""

    state: str
    message: str
    corpus_generation: str | None
    build: IndexBuild | None


class Retriever(Protocol):
    def search(
        self, query: str, income_year: int, limit: int, acts: tuple[str, ...] | None = None, axis: str = "in_force"
    ) -> SearchResult:
        """Hits of ``income_year`` on a time axis: ``in_force`` (the law as it now stands, and texts
        served as they then stood) or ``on_the_books`` (what held compilations showed)."""
        ...

    def index_generation(self) -> str: ...

    def index_report(self) -> IndexReport:
        """The index's state and build now; raises :class:`RetrievalUnavailable` when the index
        service cannot say (down, or an unusable reply)."""
        ...
