"""The research service's HTTP API.

``POST /v1/research`` answers (or abstains) as JSON; ``POST /v1/research/stream`` streams each
stage as a server-sent event and ends with the result. A dependency that is down gives 503
naming it, never an answer; bad input gives 422 saying what to change. Also: the audit log
(``/v1/audit``), the source viewer's data (``/v1/sources/...``) and ``/healthz``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from datetime import date
from typing import Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from asat_corpus.contracts.decisions import is_answered
from asat_corpus.resolution import resolve
from asat_research.audit.store import AuditReadError
from asat_research.pipeline import DependencyUnavailable, ResearchOutcome, ResearchPipeline, StageEvent
from asat_research.temporal import TemporalError
from asat_research.timeline_view import act_assents, timeline_json

MAX_QUESTION_CHARS = 2000


class ResearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(
        min_length=1, max_length=MAX_QUESTION_CHARS, description="The question, as a tax agent asks it."
    )
    income_year: int | None = Field(
        default=None, ge=1900, le=2100, description="Income year N: 1 July N-1 to 30 June N."
    )
    as_of: date | None = Field(default=None, description="A day (YYYY-MM-DD); picks the version in force that day.")
    as_known_on: date | None = Field(
        default=None,
        description="A day (YYYY-MM-DD): the law as it then stood, i.e. the text the latest held compilation on "
        "or before that day shows (known time). Give it alone, without income_year or as_of.",
    )


def outcome_json(outcome: ResearchOutcome) -> dict[str, Any]:
    body = dataclasses.asdict(outcome)
    scope = outcome.scope
    body["scope"] = {
        "income_year": scope.income_year,
        "as_of": scope.as_of.isoformat() if scope.as_of else None,
        "as_known_on": scope.as_known_on.isoformat() if scope.as_known_on else None,
        "source": scope.source.value,
        "matched": scope.matched,
    }
    body["answered"] = is_answered(outcome.decision)
    return body


def _error(status: int, error: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": error, "message": message, **extra}, status_code=status)


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data, default=str)}\n\n"


def create_app(pipeline: ResearchPipeline, health: dict[str, Any] | None = None) -> FastAPI:
    app = FastAPI(title="AsAt research", version="0.1.0")
    checks = health or {}

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()]
        return _error(422, "invalid_request", "; ".join(details), details=details)

    def _validate(request: ResearchRequest) -> str | None:
        if not request.question.strip():
            return "the question is empty: type the question"
        return None

    @app.post("/v1/research")
    def research(request: ResearchRequest) -> JSONResponse:
        problem = _validate(request)
        if problem:
            return _error(422, "invalid_request", problem)
        try:
            outcome = pipeline.answer(
                request.question, request.income_year, request.as_of, as_known_on=request.as_known_on
            )
        except TemporalError as exc:
            return _error(422, "invalid_request", str(exc))
        except DependencyUnavailable as exc:
            return _error(503, "dependency_unavailable", str(exc), dependency=exc.dependency)
        return JSONResponse(outcome_json(outcome))

    @app.post("/v1/research/stream", response_model=None)
    def research_stream(request: ResearchRequest) -> StreamingResponse | JSONResponse:
        problem = _validate(request)
        if problem:
            return _error(422, "invalid_request", problem)

        def events() -> Iterator[str]:
            try:
                for event in pipeline.run(
                    request.question, request.income_year, request.as_of, as_known_on=request.as_known_on
                ):
                    yield _stage(event)
            except TemporalError as exc:
                yield _event("error", {"status": 422, "error": "invalid_request", "message": str(exc)})
            except DependencyUnavailable as exc:
                yield _event(
                    "error",
                    {
                        "status": 503,
                        "error": "dependency_unavailable",
                        "dependency": exc.dependency,
                        "message": str(exc),
                    },
                )

        return StreamingResponse(events(), media_type="text/event-stream", headers={"cache-control": "no-store"})

    def _stage(event: StageEvent) -> str:
        if event.outcome is not None:
            return _event("result", outcome_json(event.outcome))
        return _event("stage", {"stage": event.stage, "ms": round(event.ms, 2), **event.data})

    @app.get("/healthz")
    def healthz() -> JSONResponse:
        results = {name: bool(check()) for name, check in checks.items()}
        ok = all(results.values())
        return JSONResponse(
            {"status": "ok" if ok else "unavailable", "checks": results}, status_code=200 if ok else 503
        )

    @app.get("/v1/audit")
    def audit_recent(last: int = Query(default=20, ge=1, le=500)) -> JSONResponse:
        try:
            entries = pipeline.ports.audit.last(last)
        except AuditReadError as exc:
            return _error(503, "dependency_unavailable", str(exc), dependency="audit log (Postgres)")
        return JSONResponse({"entries": [_entry_json(e) for e in reversed(entries)]})

    @app.get("/v1/audit/verify")
    def audit_verify() -> JSONResponse:
        try:
            report = pipeline.ports.audit.verify()
        except AuditReadError as exc:
            return _error(503, "dependency_unavailable", str(exc), dependency="audit log (Postgres)")
        return JSONResponse(json.loads(json.dumps(dataclasses.asdict(report), default=str)) | {"ok": report.ok})

    @app.get("/v1/audit/{entry_id}")
    def audit_entry(entry_id: int) -> JSONResponse:
        try:
            entry = pipeline.ports.audit.get(entry_id)
        except AuditReadError as exc:
            return _error(503, "dependency_unavailable", str(exc), dependency="audit log (Postgres)")
        if entry is None:
            raise HTTPException(status_code=404, detail=f"no audit row {entry_id}")
        return JSONResponse(_entry_json(entry))

    @app.get("/v1/sources/{source_id:path}")
    def source(source_id: str) -> JSONResponse:
        corpus = pipeline.ports.corpus
        doc = corpus.doc(source_id)
        if doc is None:
            raise HTTPException(status_code=404, detail=f"no source {source_id!r}")
        body: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(doc), default=str))
        if doc.act and doc.provision:
            timeline = corpus.timeline(doc.act, doc.provision)
            if timeline is not None:
                assents = act_assents(corpus.corpus.compilations, doc.act)
                body["timeline"] = timeline_json(timeline, assents)
        return JSONResponse(body)

    @app.get("/v1/provisions/{act}/{provision}")
    def provision_on(act: str, provision: str, as_of: date) -> JSONResponse:
        timeline = pipeline.ports.corpus.timeline(act, provision)
        if timeline is None:
            raise HTTPException(status_code=404, detail=f"no provision {act} {provision}")
        resolution = resolve(timeline, as_of)
        return JSONResponse(
            {
                "status": resolution.status.value,
                "message": resolution.message,
                "version_id": resolution.version.id if resolution.version else None,
            }
        )

    return app


def _entry_json(entry: Any) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(entry), default=str))
    return body
