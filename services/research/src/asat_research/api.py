"""The research service's HTTP API.

``POST /v1/research`` answers (or abstains) as JSON; ``POST /v1/research/stream`` streams each
stage as a server-sent event and ends with the result; ``POST /v1/period`` says what period a
question would be answered for (and whether it and the parameter disagree) without answering. A dependency that is down gives 503
naming it, and one that answers unusably (an error status, a reply that breaks its contract)
gives 502 naming it: never an answer. Bad input gives 422 saying what to change. Also: the audit
log (``/v1/audit``), the answer across years (``POST /v1/research/across-years``, streamed), the source
viewer's data (``/v1/sources/...``), the provider probe over given settings (``POST /v1/provider/check``),
the index's readiness (``GET /v1/index/status``) and ``/healthz``.

While the index is being built, a question (``/v1/research``, its stream, across-years) is refused
before anything runs: 503 ``index_building`` with ``Retry-After``, the build's percentage and time
left in the message and the build in ``build`` (never an answer from a partial index); after a
failed build, 503 ``index_build_failed`` with its error (``asat_research.index_gate``).

Every reply is a model of ``asat_corpus.contracts`` (``response_model``), built here from the
pipeline's and the audit log's dataclasses; every error is an ``ErrorBody``.

A research request may carry its own ``provider`` (a practice's saved generation provider, from
the web): that request is answered with the generator built from it
(``asat_research.generation.per_request``, kept per settings), through the same pipeline. Settings
it cannot be built from are a 422 naming the field; the provider failing is the usual 503 with a
log reference. Its key is in no reply, audit row or log line: any error text quoting it has it
replaced before it is logged.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Iterator
from datetime import date
from typing import Any, Literal

import anyio
from fastapi import FastAPI, HTTPException, Query, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool

from asat_audit.checkpoint import CheckpointFormatError
from asat_audit.checkpoint_file import KeyFileError
from asat_audit.integrity_report import integrity_json
from asat_audit.log_check import AnchorFiles, check_log
from asat_audit.store import AuditReadError
from asat_corpus.contracts import across_years as across
from asat_corpus.contracts import research as wire
from asat_corpus.contracts.audit_log import AuditEntries, AuditEntryOut, ChainReportOut
from asat_corpus.contracts.errors import ErrorBody
from asat_corpus.contracts.provider import GenerationProvider, ProviderCheckReply, ProviderCheckRequest
from asat_corpus.contracts.research import ResearchRequest, UnavailableBody
from asat_corpus.contracts.search import IndexReadiness
from asat_corpus.contracts.source_view import SourceOut
from asat_corpus.http_errors import install_error_handlers
from asat_corpus.http_limits import BodyLimit, ConcurrencyCap
from asat_corpus.redaction import redact_credentials
from asat_corpus.resolution import resolve
from asat_corpus.service_token import ServiceTokenGuard
from asat_research.across_years_run import AcrossYearsRefused, event_name, prepare
from asat_research.asked_by import audit_asked_by
from asat_research.client_gone import stream_until_client_gone, until_client_gone
from asat_research.generation.factory import GenerationConfigError
from asat_research.generation.per_request import ProviderGenerators
from asat_research.index_gate import IndexGate, refusal
from asat_research.key_scrub import without_key
from asat_research.outcome_wire import outcome_json, outcome_reply
from asat_research.pipeline import (
    DependencyUnavailable,
    RequestCancelled,
    ResearchOutcome,
    ResearchPipeline,
    StageEvent,
)
from asat_research.provider_check import check_provider
from asat_research.reply_redaction import mask_credentials_in_client_logs, reply_text
from asat_research.temporal import TemporalError, preview
from asat_research.timeline_view import act_assents, timeline_json
from asat_research.unusable_reply import unusable_cause

AUDIT_LOG = "audit log (Postgres)"
# The reply to a request whose client went away (nginx's code): no one reads it, nothing was audited.
CLIENT_CLOSED = 499


class EventStreamResponse(StreamingResponse):
    """Server-sent events: ``stage`` (``StageEventData``), then ``result`` (``ResearchOutcome``) or
    ``error`` (``StreamError``)."""

    media_type = "text/event-stream"


def _event_schema(name: str, content_schema: dict[str, Any]) -> dict[str, Any]:
    """One server-sent event: its name, and its data as JSON of ``content_schema``."""
    data = {"type": "string", "contentMediaType": "application/json", "contentSchema": content_schema}
    return {"type": "object", "required": ["event", "data"], "properties": {"event": {"const": name}, "data": data}}


EVENT_STREAM: dict[str, Any] = {
    "description": "Server-sent events: `stage` (StageEventData) per finished stage, then `result` "
    "(ResearchOutcome) or `error` (StreamError).",
    "content": {
        "text/event-stream": {
            "itemSchema": {  # each event (Open API 3.2's keyword for the items of a stream)
                "oneOf": [
                    _event_schema("stage", wire.StageEventData.model_json_schema(mode="serialization")),
                    _event_schema("result", {"$ref": "#/components/schemas/ResearchOutcome"}),
                    _event_schema("error", wire.StreamError.model_json_schema(mode="serialization")),
                ]
            }
        }
    },
}


ACROSS_YEARS_STREAM: dict[str, Any] = {
    "description": "Server-sent events: `plan` (AcrossYearsPlan: the years and the gaps), then one `year` "
    "(AcrossYearsYear: that year's whole ResearchOutcome) per year, then `done` (AcrossYearsDone); or `error` "
    "(StreamError) instead of what is left.",
    "content": {
        "text/event-stream": {
            "itemSchema": {
                "oneOf": [
                    _event_schema("plan", across.AcrossYearsPlan.model_json_schema(mode="serialization")),
                    _event_schema("year", across.AcrossYearsYear.model_json_schema(mode="serialization")),
                    _event_schema("done", across.AcrossYearsDone.model_json_schema(mode="serialization")),
                    _event_schema("error", wire.StreamError.model_json_schema(mode="serialization")),
                ]
            }
        }
    },
}


# A question is at most 2,000 characters: 64 KiB is room for any valid request, and no more.
MAX_BODY_BYTES = 64 * 1024
DEFAULT_MAX_CONCURRENT = 32
# Questions worked on at once; the rest of those admitted wait their turn, first come first served.
# On two cores four threads keep every stage busy without a crowd of threads taking turns at the GIL:
# at 20 closed-loop clients p95 fell from 1.55 s (no limit) to 1.15 s (scripts/load_research.py).
PIPELINE_WORKERS = 4
ANSWERING_PATHS = ("/v1/research", "/v1/research/stream", "/v1/research/across-years")


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorBody} for status in statuses}


def _error(status: int, error: str, message: str, dependency: str | None = None) -> JSONResponse:
    body = ErrorBody(error=error, message=message, dependency=dependency)
    return JSONResponse(body.model_dump(mode="json"), status_code=status)


# The 503 of a question: a dependency down, or the index being built or its build failed.
UNAVAILABLE: dict[int | str, dict[str, Any]] = {
    503: {
        "model": UnavailableBody,
        "description": "A dependency is down (dependency_unavailable), the index is being built (index_building, "
        "with Retry-After) or its build failed (index_build_failed).",
        "headers": {
            "Retry-After": {
                "description": "For index_building: seconds until the build is expected to be done (5 to 300).",
                "schema": {"type": "integer"},
            }
        },
    }
}


def _index_refusal(ready: IndexReadiness) -> JSONResponse | None:
    """503 for a question while the index is being built or its build failed; ``None`` otherwise."""
    refused = refusal(ready)
    if refused is None:
        return None
    error, message, retry_after = refused
    body = UnavailableBody(error=error, message=message, dependency="index", build=ready.build)
    headers = {"retry-after": str(retry_after)} if retry_after is not None else None
    return JSONResponse(body.model_dump(mode="json"), status_code=503, headers=headers)


def _dependency_error(exc: DependencyUnavailable, key: str = "") -> wire.StreamError:
    """503 for a dependency that is down; 502 for one that answered unusably, naming it. ``key``
    (a request's own provider key) is replaced in any text before it is logged or replied."""
    cause = unusable_cause(exc)
    if cause is not None:
        return wire.StreamError(
            status=502,
            error="dependency_unusable",
            message=redact_credentials(_without(f"{cause.service} answered research unusably: {cause}", key)),
            dependency=cause.service,
        )
    return wire.StreamError(
        status=503,
        error="dependency_unavailable",
        message=reply_text(exc.dependency, _without(str(exc), key)),
        dependency=exc.dependency,
    )


def _without(text: str, key: str) -> str:
    return without_key(text, key)


def _key_of(provider: GenerationProvider | None) -> str:
    """The request's own provider key (to keep it out of error texts); ``""`` without one."""
    if provider is None or provider.api_key is None:
        return ""
    return provider.api_key.get_secret_value()


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data, default=str)}\n\n"


def create_app(
    pipeline: ResearchPipeline,
    health: dict[str, Any] | None = None,
    anchors: AnchorFiles | None = None,
    max_concurrent: int = DEFAULT_MAX_CONCURRENT,
    service_token: str | None = None,
    generators: ProviderGenerators | None = None,
    index_gate: IndexGate | None = None,
) -> FastAPI:
    """``anchors``: the audit log's checkpoint file and public key; without them ``/v1/audit/verify``
    checks the chain alone and says so. A body over ``MAX_BODY_BYTES`` is a 413; a question beyond
    ``max_concurrent`` being answered is a 429 with ``Retry-After``. ``service_token``: every request
    but ``/healthz`` must carry it, else 401 (``python -m asat_research serve`` always passes it;
    ``None`` is for in-process tests). ``generators``: the generators of requests' own providers
    (``ASAT_GENERATION_SEED``'s seed; the default seed otherwise). ``index_gate``: whether the index
    may answer now (composition's; else one over the pipeline's retriever and corpus)."""
    app = FastAPI(title="AsAt research", version="0.1.0")
    install_error_handlers(app)
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY_BYTES)
    app.add_middleware(ConcurrencyCap, limit=max_concurrent, paths=ANSWERING_PATHS)
    if service_token is not None:
        # Outermost: a request without the token is refused before it takes a slot or is read.
        app.add_middleware(ServiceTokenGuard, token=service_token)
    checks = health or {}
    workers = anyio.CapacityLimiter(PIPELINE_WORKERS)
    gates = [index_gate] if index_gate is not None else []

    def gate() -> IndexGate:
        """``index_gate``, else one over the pipeline's retriever, made on first use."""
        if not gates:
            gates.append(IndexGate(pipeline.ports.retriever.index_report, pipeline.ports.corpus.generation))
        return gates[0]

    own_providers = generators if generators is not None else ProviderGenerators()
    mask_credentials_in_client_logs()  # a practice's base URL may carry user:password@

    def _validate(request: ResearchRequest) -> str | None:
        if not request.question.strip():
            return "the question is empty: type the question"
        return None

    def _answering(provider: GenerationProvider | None) -> ResearchPipeline:
        """The pipeline for a request: with its own provider's generator when it carries one
        (``GenerationConfigError``, a 422, when that cannot be built), else research's own."""
        if provider is None:
            return pipeline
        return pipeline.with_generator(own_providers.get(provider))

    @app.post(
        "/v1/research",
        response_model=wire.ResearchOutcome,
        responses={**_errors(400, 413, 422, 429, 502), **UNAVAILABLE},
    )
    async def research(request: ResearchRequest, http: Request) -> wire.ResearchOutcome | Response:
        """The answer, or an abstention saying why. The model calls end by the deadline
        (``ASAT_RESEARCH_DEADLINE_S``: then an audited ``abstain_deadline``); a client that goes
        away cancels the model call in flight. 503 ``index_building`` while the index is built."""
        problem = _validate(request)
        if problem:
            return _error(422, "invalid_request", problem)
        key = _key_of(request.provider)
        try:
            asking = _answering(request.provider)
        except GenerationConfigError as exc:
            return _error(422, "invalid_request", _without(str(exc), key))
        not_ready = _index_refusal(await run_in_threadpool(gate().now))
        if not_ready is not None:
            return not_ready

        def work(cancelled: threading.Event) -> ResearchOutcome:
            return asking.answer(
                request.question,
                request.income_year,
                request.as_of,
                as_known_on=request.as_known_on,
                asked_by=audit_asked_by(request.asked_by),
                cancelled=cancelled,
            )

        try:
            outcome = await until_client_gone(http, work, workers)
        except RequestCancelled:
            return Response(status_code=CLIENT_CLOSED)
        except TemporalError as exc:
            return _error(422, "invalid_request", str(exc))
        except DependencyUnavailable as exc:
            failure = _dependency_error(exc, key)
            return JSONResponse(failure.model_dump(mode="json", exclude={"status"}), status_code=failure.status)
        return outcome_reply(outcome)

    @app.post("/v1/period", response_model=wire.PeriodPreview, responses=_errors(400, 413, 422))
    def period(request: wire.PeriodRequest) -> wire.PeriodPreview | JSONResponse:
        """The period the question would be answered for: from the parameter, the question or
        today; with ``conflict`` where ``POST /v1/research`` would refuse it as period_conflict.
        Nothing is retrieved, generated or audited. 422 where the question or parameters are
        ambiguous or out of range (the message says how to ask)."""
        try:
            read = preview(request.question, pipeline.settings.today(), request.income_year, request.as_of)
        except TemporalError as exc:
            return _error(422, "invalid_request", str(exc))
        scope = read.scope
        return wire.PeriodPreview.model_validate(
            {
                "income_year": scope.income_year,
                "as_of": scope.as_of,
                "start": read.start,
                "end": read.end,
                "source": scope.source.value,
                "matched": scope.matched,
                "conflict": dataclasses.asdict(read.conflict) if read.conflict else None,
            }
        )

    @app.post(
        "/v1/research/stream",
        response_model=None,  # a stream of events, each a model named in EventStreamResponse
        response_class=StreamingResponse,  # no media type of its own: the 200 below documents the events
        responses={**_errors(400, 413, 422, 429), **UNAVAILABLE, 200: EVENT_STREAM},
    )
    def research_stream(request: ResearchRequest, http: Request) -> StreamingResponse | JSONResponse:
        """The stages as events, then the result. 503 before the stream while the index is built."""
        problem = _validate(request)
        if problem:
            return _error(422, "invalid_request", problem)
        key = _key_of(request.provider)
        try:
            asking = _answering(request.provider)
        except GenerationConfigError as exc:
            return _error(422, "invalid_request", _without(str(exc), key))
        not_ready = _index_refusal(gate().now())
        if not_ready is not None:
            return not_ready

        def events(cancelled: threading.Event) -> Iterator[str]:
            try:
                for event in asking.run(
                    request.question,
                    request.income_year,
                    request.as_of,
                    as_known_on=request.as_known_on,
                    asked_by=audit_asked_by(request.asked_by),
                    cancelled=cancelled,
                ):
                    yield _stage(event)
            except RequestCancelled:
                return  # the client is gone: no one to tell
            except TemporalError as exc:
                yield _error_event(wire.StreamError(status=422, error="invalid_request", message=str(exc)))
            except DependencyUnavailable as exc:
                yield _error_event(_dependency_error(exc, key))

        return EventStreamResponse(
            stream_until_client_gone(http, events, workers), headers={"cache-control": "no-store"}
        )

    def _stage(event: StageEvent) -> str:
        if event.outcome is not None:
            return _event("result", outcome_json(event.outcome))
        data = wire.StageEventData.model_validate({"stage": event.stage, "ms": round(event.ms, 2), **event.data})
        return _event("stage", data.model_dump(mode="json"))

    @app.post(
        "/v1/research/across-years",
        response_model=None,  # a stream of events, each a model named in ACROSS_YEARS_STREAM
        response_class=StreamingResponse,
        responses={**_errors(400, 413, 422, 429), **UNAVAILABLE, 200: ACROSS_YEARS_STREAM},
    )
    def research_across_years(request: across.AcrossYearsRequest, http: Request) -> StreamingResponse | JSONResponse:
        """The question asked again for every income year in which a provision its answer cited
        changed (``asat_research.across_years``): each year the ordinary pipeline, with its own audit
        row. 422 before anything runs where the period, the question, a source id or the request's
        own provider is refused; 503 while the index is built."""
        key = _key_of(request.provider)
        try:
            prepared = prepare(_answering(request.provider), request)
        except (AcrossYearsRefused, TemporalError, GenerationConfigError) as exc:
            return _error(422, "invalid_request", _without(str(exc), key))
        not_ready = _index_refusal(gate().now())
        if not_ready is not None:
            return not_ready

        def events(cancelled: threading.Event) -> Iterator[str]:
            try:
                for event in prepared.events(cancelled):
                    yield _event(event_name(event), event.model_dump(mode="json"))
            except RequestCancelled:
                return  # the client is gone: no one to tell
            except TemporalError as exc:
                yield _error_event(wire.StreamError(status=422, error="invalid_request", message=str(exc)))
            except DependencyUnavailable as exc:
                yield _error_event(_dependency_error(exc, key))

        return EventStreamResponse(
            stream_until_client_gone(http, events, workers), headers={"cache-control": "no-store"}
        )

    @app.post("/v1/provider/check", response_model=ProviderCheckReply, responses=_errors(400, 413, 422))
    def provider_check(request: ProviderCheckRequest) -> ProviderCheckReply:
        """The provider probe (``python -m asat_research.provider_probe``) run against the settings
        given (the web's provider settings page), not research's own: the same checks, the same
        verdict. The key is used for the probe's requests and is in no reply or log line."""
        return check_provider(request)

    @app.get("/healthz", response_model=wire.ResearchHealth, responses={503: {"model": wire.ResearchHealth}})
    def healthz(response: Response) -> wire.ResearchHealth:
        """200 when every check passes and the index is ready; 503 ``building`` while the index is
        built (the other checks passing), else 503 ``unavailable``."""
        results = {name: bool(check()) for name, check in checks.items()}
        ready = gate().now()
        results["index"] = ready.state == "ready"
        others = all(ok for name, ok in results.items() if name != "index")
        status: Literal["ok", "building", "unavailable"] = "unavailable"
        if all(results.values()):
            status = "ok"
        elif others and ready.state == "building":
            status = "building"
        response.status_code = 200 if status == "ok" else 503
        failing = [name for name, ok in results.items() if not ok]
        message = ready.message if not results["index"] else f"failing: {', '.join(failing)}" if failing else ""
        return wire.ResearchHealth(status=status, checks=results, message=message, build=ready.build)

    @app.get("/v1/index/status", response_model=IndexReadiness)
    def index_status() -> IndexReadiness:
        """Whether a question can be answered now: ``ready``, ``building`` (the build's percentage,
        rate and time left in ``build``), ``failed`` (its error) or ``unavailable`` (why)."""
        return gate().now()

    @app.get("/v1/audit", response_model=AuditEntries, responses=_errors(422, 503))
    def audit_recent(
        last: int = Query(default=20, ge=1, le=500),
        contains: str | None = Query(
            default=None,
            min_length=1,
            max_length=200,
            description="Only rows whose question contains this text (case-insensitive, taken literally).",
        ),
        practice_id: int | None = Query(
            default=None, ge=1, description="Only rows asked for this practice (their asked_by.practice_id)."
        ),
    ) -> AuditEntries | JSONResponse:
        """The latest rows, newest first; with ``contains``, the latest whose question contains it;
        with ``practice_id``, of that practice's rows only."""
        audit = pipeline.ports.audit
        try:
            entries = audit.last(last, practice_id) if contains is None else audit.find(contains, last, practice_id)
        except AuditReadError as exc:
            return _error(503, "dependency_unavailable", reply_text(AUDIT_LOG, str(exc)), dependency=AUDIT_LOG)
        return AuditEntries(entries=tuple(_entry_reply(e) for e in reversed(entries)))

    @app.get("/v1/audit/verify", response_model=ChainReportOut, responses=_errors(503))
    def audit_verify() -> ChainReportOut | JSONResponse:
        try:
            report = check_log(pipeline.ports.audit, anchors)
        except AuditReadError as exc:
            return _error(503, "dependency_unavailable", reply_text(AUDIT_LOG, str(exc)), dependency=AUDIT_LOG)
        except (KeyFileError, CheckpointFormatError) as exc:
            return _error(503, "dependency_unavailable", f"audit checkpoints unusable: {exc}", dependency=AUDIT_LOG)
        return ChainReportOut.model_validate(integrity_json(report))

    @app.get("/v1/audit/{entry_id}", response_model=AuditEntryOut, responses=_errors(404, 422, 503))
    def audit_entry(entry_id: int) -> AuditEntryOut | JSONResponse:
        try:
            entry = pipeline.ports.audit.get(entry_id)
        except AuditReadError as exc:
            return _error(503, "dependency_unavailable", reply_text(AUDIT_LOG, str(exc)), dependency=AUDIT_LOG)
        if entry is None:
            raise HTTPException(status_code=404, detail=f"no audit row {entry_id}")
        return _entry_reply(entry)

    @app.get("/v1/sources/{source_id:path}", response_model=SourceOut, responses=_errors(404))
    def source(source_id: str) -> SourceOut:
        corpus = pipeline.ports.corpus
        doc = corpus.doc(source_id)
        if doc is None:
            raise HTTPException(status_code=404, detail=f"no source {source_id!r}")
        body = dataclasses.asdict(doc)
        if doc.act and doc.provision:
            timeline = corpus.timeline(doc.act, doc.provision)
            if timeline is not None:
                assents = act_assents(corpus.corpus.compilations, doc.act)
                body["timeline"] = timeline_json(timeline, assents)
        return SourceOut.model_validate(body)

    @app.get("/v1/provisions/{act}/{provision}", response_model=wire.ProvisionOnDay, responses=_errors(404, 422))
    def provision_on(act: str, provision: str, as_of: date) -> wire.ProvisionOnDay:
        timeline = pipeline.ports.corpus.timeline(act, provision)
        if timeline is None:
            raise HTTPException(status_code=404, detail=f"no provision {act} {provision}")
        resolution = resolve(timeline, as_of)
        return wire.ProvisionOnDay(
            status=resolution.status,
            message=resolution.message,
            version_id=resolution.version.id if resolution.version else None,
        )

    return app


def _entry_reply(entry: Any) -> AuditEntryOut:
    return AuditEntryOut.model_validate(dataclasses.asdict(entry))


def _error_event(error: wire.StreamError) -> str:
    return _event("error", error.model_dump(mode="json", exclude_none=True))
