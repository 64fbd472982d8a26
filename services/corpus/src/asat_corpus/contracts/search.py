"""``POST /v1/search`` and ``GET /v1/index`` of the ingest service, as research asks them, and the
index's readiness as research passes it on (``GET /v1/index/status`` of research, read by the web).

A search is a filtered hybrid search of one income year on one time axis; every hit's payload is
the index point's payload (the chunk's text, dates and ids), read by research as data. A build of
the index is an :class:`IndexBuild`: how far it got, how fast and how long is left
(``asat_corpus.build_progress``), or why it failed.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_SEARCH_LIMIT = 100
SearchAxis = Literal["in_force", "on_the_books"]
# ``asat_ingest.build.IndexState`` and ``building`` (a test keeps them equal).
IndexStateName = Literal["ready", "missing", "incomplete", "stale", "wrong_embedder", "building"]
BuildState = Literal["queued", "running", "succeeded", "failed"]
# Research's word for the index (``asat_research.index_gate``): ready to answer from; being built
# (questions are refused with 503 index_building); its build failed (503 index_build_failed); or
# not usable for another reason (ingest down, missing, stale: the pipeline's own 503 says which).
ReadinessName = Literal["ready", "building", "failed", "unavailable"]


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


class IndexBuild(BaseModel):
    """A build of the index by the ingest service: its phase, how far it got, how fast, the time
    left, and at the end its error when it failed."""

    model_config = ConfigDict(frozen=True)

    id: str
    state: BuildState
    phase: str = Field(
        description="'' before the first texts, 'embed' (texts to vectors; cached ones count at once), "
        "'terms' (each text's search terms counted; cached ones count at once), 'index' (points written)."
    )
    done: int = Field(ge=0, description="Texts done in this phase.")
    total: int = Field(ge=0, description="Texts this phase has to do.")
    percent: float = Field(
        ge=0,
        le=100,
        description="Of the whole build: embedding is 0 to 85, counting search terms 85 to 92, writing 92 to 100.",
    )
    rate: float | None = Field(
        ge=0, description="Texts per second in this phase over its last two minutes; null until measured."
    )
    seconds_left: float | None = Field(ge=0, description="This phase's time left at that rate; null while unknown.")
    started: float = Field(description="Unix time the build started.")
    finished: float | None = Field(description="Unix time it finished; null while it runs.")
    error: str | None = Field(description="Why it failed; null unless it failed.")
    message: str = Field(description="The above in words, e.g. 'index building, 42% done (...)'.")


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
    build: IndexBuild | None = Field(
        default=None,
        description="The build running now, else the last one this process ran (with its error when it failed); "
        "null when it has run none.",
    )


class IndexReadiness(BaseModel):
    """Whether research can answer from the index now (research's ``GET /v1/index/status``)."""

    model_config = ConfigDict(frozen=True)

    state: ReadinessName
    message: str = Field(description="What it means for a question, e.g. 'index building, 42% done (...)'.")
    build: IndexBuild | None = Field(description="The ingest service's build running now, or its last one.")
