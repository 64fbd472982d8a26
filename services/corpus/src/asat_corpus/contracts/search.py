"""``POST /v1/search`` and ``GET /v1/index`` of the ingest service, as research asks them.

A search is a filtered hybrid search of one income year on one time axis; every hit's payload is
the index point's payload (the chunk's text, dates and ids), read by research as data.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_SEARCH_LIMIT = 100
SearchAxis = Literal["in_force", "on_the_books"]
# ``asat_ingest.build.IndexState`` and ``building`` (a test keeps them equal).
IndexStateName = Literal["ready", "missing", "incomplete", "stale", "wrong_embedder", "building"]


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(description="The question text.")
    income_year: int = Field(description="Income year N: 1 July N-1 to 30 June N.")
    limit: int = Field(default=20, ge=1, le=MAX_SEARCH_LIMIT)
    prefetch_limit: int = Field(default=100, ge=1, le=1000)
    acts: list[str] | None = None
    kinds: list[str] | None = None
    axis: SearchAxis = Field(
        default="in_force",
        description="in_force: the law as it now stands (and texts served as they then stood); "
        "on_the_books: the texts held compilations showed in the year (known time).",
    )


class SearchHit(BaseModel):
    model_config = ConfigDict(frozen=True)

    chunk_id: str
    source_id: str = Field(description="Provision version id or ruling id.")
    score: float = Field(description="Fused (RRF) score.")
    dense_score: float = Field(description="Cosine between the query and the chunk embedding.")
    payload: dict[str, Any] = Field(description="The index point's payload: the chunk's text, dates and ids.")


class SearchReply(BaseModel):
    model_config = ConfigDict(frozen=True)

    hits: tuple[SearchHit, ...]
    corpus_generation: str = Field(description="The corpus generation the index is stamped with.")
    embedder: str
    income_year: int


class IndexInfo(BaseModel):
    """The index's state, generation and make-up."""

    model_config = ConfigDict(frozen=True)

    state: IndexStateName
    message: str
    corpus_generation: str | None = Field(description="The generation the index is stamped with; null if none.")
    expected_corpus_generation: str = Field(description="The generation of the corpus as it is now.")
    points: int
    by_kind: dict[str, int]
    embedder: str
    vector_config: dict[str, Any]
    index_scope: dict[str, Any]
    collection: str
    backend: str
