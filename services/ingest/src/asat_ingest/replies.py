"""The ingest service's own replies: its health and its builds.

The replies research reads (``POST /v1/search``, ``GET /v1/index``) are wire contracts in
``asat_corpus.contracts.search``; these are read by operators and tests only.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from asat_corpus.contracts.search import BuildState, IndexBuild, IndexStateName

__all__ = ["BuildProgress", "BuildStarted", "BuildState", "BuildSummaryOut", "IngestHealth"]


class _Reply(BaseModel):
    model_config = ConfigDict(frozen=True)


class IngestHealth(_Reply):
    """``GET /healthz``: 200 only when the index may serve, else 503: ``building`` while a build
    runs (``build`` says how far), ``unavailable`` otherwise (saying what to run, and why the last
    build failed when it did)."""

    status: Literal["ok", "building", "unavailable"]
    index: IndexStateName
    message: str
    build: IndexBuild | None = Field(
        default=None, description="The build running now, else the last one this process ran; null when none."
    )


class BuildStarted(_Reply):
    """``POST /v1/builds`` (202): the build's id and where to follow it."""

    id: str
    state: BuildState
    url: str


class BuildSummaryOut(_Reply):
    corpus_generation: str
    collection: str
    points: int
    by_kind: dict[str, int]
    cache_hits: int
    embedded: int
    seconds: float
    embedder_identity: str
    scope: dict[str, object]


class BuildProgress(_Reply):
    """``GET /v1/builds/{id}``: the phase, how far it got, and the summary or the error at the end."""

    id: str
    state: BuildState
    phase: str
    done: int
    total: int
    started: float = Field(description="Unix time the build started.")
    finished: float | None = Field(description="Unix time it finished; null while it runs.")
    summary: BuildSummaryOut | None
    error: str | None
