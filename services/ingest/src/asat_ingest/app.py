"""The ingest service: builds the index and answers filtered hybrid searches over it.

``POST /v1/builds`` starts a build (202, its id), ``GET /v1/builds/{id}`` its progress,
``GET /v1/index`` the index's generation, counts, embedder and build (its progress while it runs,
its error when it failed), ``POST /v1/search`` a search, ``GET /healthz`` 200 only when the index
may serve (else 503: ``building`` with the build's progress, or ``unavailable`` with what to run).
``python -m asat_ingest serve --build-if-needed`` starts a build at once when the index cannot
serve, and serves meanwhile: searches are refused (503) until the build is done. Built with a
service token (as ``python -m asat_ingest serve`` always is), every path but ``/healthz`` is a 401
without ``Authorization: Bearer <token>``.

Every reply is a model (``response_model``): the search and index replies research reads are
``asat_corpus.contracts.search``, the others ``asat_ingest.replies``; every error an ``ErrorBody``.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Response
from fastapi.responses import JSONResponse

from asat_corpus.contracts.errors import ErrorBody
from asat_corpus.contracts.search import IndexBuild, IndexInfo, SearchHit, SearchReply, SearchRequest
from asat_corpus.http_errors import install_error_handlers
from asat_corpus.http_limits import BodyLimit
from asat_corpus.service_token import ServiceTokenGuard
from asat_ingest.build import IndexStatus
from asat_ingest.replies import BuildProgress, BuildStarted, BuildSummaryOut, IngestHealth
from asat_ingest.runtime import IndexNotReadyError, IngestRuntime
from asat_ingest.search import SearchInputError, TemporalViolationError, UnknownActError


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorBody} for status in statuses}


def _error(status: int, error: str, message: str) -> JSONResponse:
    return JSONResponse(ErrorBody(error=error, message=message).model_dump(mode="json"), status_code=status)


# A search request is a query (at most a few thousand characters) and its filters.
MAX_BODY_BYTES = 64 * 1024


def create_app(runtime: IngestRuntime, service_token: str | None = None) -> FastAPI:
    """``service_token``: every request but ``/healthz`` must carry it (``None``: open, for in-process tests)."""
    app = FastAPI(title="AsAt ingest", version="0.1.0")
    install_error_handlers(app)
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY_BYTES)
    if service_token is not None:
        app.add_middleware(ServiceTokenGuard, token=service_token)  # outermost: refused before anything runs

    def index_words(status: IndexStatus, build: IndexBuild | None) -> str:
        """The index's state in words: the build's progress while it runs; a failed build's error
        before what the index is now; else the index's own status."""
        if build is not None and build.state in ("queued", "running"):
            return build.message
        if build is not None and build.state == "failed" and not status.ready:
            return (
                f"{build.message} (the traceback is in the ingest service's log); the index is "
                f"{status.state.value}: nothing is searched until a build succeeds"
            )
        return status.message

    @app.get("/healthz", response_model=IngestHealth, responses={503: {"model": IngestHealth}})
    def healthz(response: Response) -> IngestHealth:
        """200 when the index may serve; 503 ``building`` while a build runs, else ``unavailable``."""
        building = runtime.building
        status = runtime.status()
        build = runtime.build_report()
        health = IngestHealth(
            status="building" if building else "ok" if status.ready else "unavailable",
            index="building" if building else status.state.value,
            message=index_words(status, build),
            build=build,
        )
        response.status_code = 200 if health.status == "ok" else 503
        return health

    @app.get("/v1/index", response_model=IndexInfo)
    def index_info() -> IndexInfo:
        building = runtime.building
        status = runtime.status()
        build = runtime.build_report()
        stamp = status.stamp
        return IndexInfo(
            state="building" if building else status.state.value,
            message=index_words(status, build),
            corpus_generation=stamp.corpus_generation if stamp else None,
            expected_corpus_generation=runtime.expected_generation,
            points=stamp.points if stamp else 0,
            by_kind=dict(stamp.by_kind) if stamp else {},
            embedder=runtime.embedder.identity,
            vector_config=runtime.config.vector_config.as_dict(),
            index_scope=runtime.config.scope.as_dict(),
            collection=runtime.config.collection,
            backend=runtime.config.index_kind,
            build=build,
        )

    @app.post("/v1/builds", status_code=202, response_model=BuildStarted, responses=_errors(409))
    def start_build() -> BuildStarted:
        try:
            job = runtime.start_build()
        except RuntimeError as exc:
            raise HTTPException(status_code=409, detail=str(exc)) from exc
        return BuildStarted.model_validate({"id": job.id, "state": job.state, "url": f"/v1/builds/{job.id}"})

    @app.get("/v1/builds/{build_id}", response_model=BuildProgress, responses=_errors(404))
    def build_progress(build_id: str) -> BuildProgress:
        job = runtime.jobs.get(build_id)
        if job is None:
            raise HTTPException(status_code=404, detail=f"no build {build_id!r}; POST /v1/builds starts one")
        summary = BuildSummaryOut.model_validate(job.summary.__dict__) if job.summary else None
        return BuildProgress.model_validate(job.as_json() | {"summary": summary})

    @app.post("/v1/search", response_model=SearchReply, responses=_errors(400, 422, 500, 503))
    def search(request: SearchRequest) -> SearchReply | JSONResponse:
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
            return _error(400 if isinstance(exc, UnknownActError) else 422, "invalid_request", str(exc))
        except IndexNotReadyError as exc:
            return _error(503, "index_building" if exc.building else "index_unavailable", str(exc))
        except TemporalViolationError as exc:
            return _error(500, "temporal_violation", str(exc))
        stamp = runtime.status().stamp
        return SearchReply(
            hits=tuple(SearchHit.model_validate(hit.__dict__) for hit in hits),
            corpus_generation=stamp.corpus_generation if stamp else "",
            embedder=runtime.embedder.identity,
            income_year=request.income_year,
        )

    return app
