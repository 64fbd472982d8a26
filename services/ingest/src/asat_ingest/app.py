"""The ingest service: builds the index and answers filtered hybrid searches over it.

``POST /v1/builds`` starts a build (202, its id), ``GET /v1/builds/{id}`` its progress,
``GET /v1/index`` the index's generation, counts and embedder, ``POST /v1/search`` a search,
``GET /healthz`` 200 only when the index may serve (else 503 with what to run).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from asat_ingest.runtime import IndexNotReadyError, IngestRuntime
from asat_ingest.search import MAX_LIMIT, SearchInputError, TemporalViolationError, UnknownActError


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(description="The question text.")
    income_year: int = Field(description="Income year N: 1 July N-1 to 30 June N.")
    limit: int = Field(default=20, ge=1, le=MAX_LIMIT)
    prefetch_limit: int = Field(default=100, ge=1, le=1000)
    acts: list[str] | None = None
    kinds: list[str] | None = None
    axis: Literal["in_force", "on_the_books"] = Field(
        default="in_force",
        description="in_force: the law as it now stands (and texts served as they then stood); "
        "on_the_books: the texts held compilations showed in the year (known time).",
    )


class HitOut(BaseModel):
    chunk_id: str
    source_id: str
    score: float
    dense_score: float
    payload: dict[str, Any]


class SearchResponse(BaseModel):
    hits: list[HitOut]
    corpus_generation: str
    embedder: str
    income_year: int


def create_app(runtime: IngestRuntime) -> FastAPI:
    app = FastAPI(title="AsAt ingest", version="0.1.0")

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()]
        return JSONResponse(
            {"error": "invalid_request", "message": "; ".join(details), "details": details}, status_code=422
        )

    @app.get("/healthz")
    def healthz() -> JSONResponse:
        status = runtime.status()
        body = {
            "status": "ok" if status.ready else "unavailable",
            "index": status.state.value,
            "message": status.message,
        }
        if runtime.building:
            body |= {"status": "unavailable", "index": "building"}
        return JSONResponse(body, status_code=200 if body["status"] == "ok" else 503)

    @app.get("/v1/index")
    def index_info() -> dict[str, Any]:
        status = runtime.status()
        stamp = status.stamp
        return {
            "state": "building" if runtime.building else status.state.value,
            "message": status.message,
            "corpus_generation": stamp.corpus_generation if stamp else None,
            "expected_corpus_generation": runtime.expected_generation,
            "points": stamp.points if stamp else 0,
            "by_kind": dict(stamp.by_kind) if stamp else {},
            "embedder": runtime.embedder.identity,
            "vector_config": runtime.config.vector_config.as_dict(),
            "index_scope": runtime.config.scope.as_dict(),
            "collection": runtime.config.collection,
            "backend": runtime.config.index_kind,
        }

    @app.post("/v1/builds", status_code=202)
    def start_build() -> dict[str, Any]:
        try:
            job = runtime.start_build()
        except RuntimeError as exc:
            raise HTTPException(status_code=409, detail=str(exc)) from exc
        return {"id": job.id, "state": job.state, "url": f"/v1/builds/{job.id}"}

    @app.get("/v1/builds/{build_id}")
    def build_progress(build_id: str) -> dict[str, Any]:
        job = runtime.jobs.get(build_id)
        if job is None:
            raise HTTPException(status_code=404, detail=f"no build {build_id!r}; POST /v1/builds starts one")
        return job.as_json()

    @app.post("/v1/search", response_model=SearchResponse)
    def search(request: SearchRequest) -> SearchResponse | JSONResponse:
        try:
            hits = runtime.search(
                query=request.query,
                income_year=request.income_year,
                limit=request.limit,
                prefetch_limit=request.prefetch_limit,
                acts=request.acts,
                kinds=request.kinds,
                axis=request.axis,
            )
        except SearchInputError as exc:
            status = 400 if isinstance(exc, UnknownActError) else 422
            return JSONResponse({"error": "invalid_request", "message": str(exc)}, status_code=status)
        except IndexNotReadyError as exc:
            return JSONResponse({"error": "index_unavailable", "message": str(exc)}, status_code=503)
        except TemporalViolationError as exc:
            return JSONResponse({"error": "temporal_violation", "message": str(exc)}, status_code=500)
        stamp = runtime.status().stamp
        return SearchResponse(
            hits=[HitOut(**hit.__dict__) for hit in hits],
            corpus_generation=stamp.corpus_generation if stamp else "",
            embedder=runtime.embedder.identity,
            income_year=request.income_year,
        )

    return app
