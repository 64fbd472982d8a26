"""The web service: pages for research, chat, the source viewer and the audit log.

Pages are rendered on the server; ``POST /stream`` relays the research service's event stream
to the browser (same origin), each stage as it arrives and the decision rendered as HTML.
``GET /period`` says, as the question is typed, what period it would be answered for (research's
``POST /v1/period``): the period is read from the question unless the form names one, and a
question naming one period asked with another is refused, offering both.
While the index is being built (research's ``GET /v1/index/status``), the research and chat pages
show its progress (``asat_web.index_view``; ``GET /index-status`` as JSON, polled by the page) with
the form disabled, and a question research refuses as ``index_building`` is shown as a notice.
A research reply that breaks its contract, or an unexpected error status from it, is a 502 page
naming the research service; research down (or answering 503) is a 503 page.
``/documents`` uploads invoices and receipts to the extraction service (``ASAT_EXTRACTION_URL``),
lists their transactions and shows each for review beside its original, where a field's
correction is sent back through extraction's API; extraction's failures are 502 and 503 pages
naming the extraction service, as for research.
Every page but ``/healthz``, ``/sign-in`` and the static files needs a signed-in session, and every
state-changing request its CSRF token (``asat_web.auth``); each page acts for the session's
practice only, and every question sent to research says who asked (``asked_by``) and carries the
practice's saved generation provider, if any (``provider``: ``asat_web.practice_provider``).
Sign-in and the settings pages are ``asat_web.account_pages`` and ``asat_web.settings_pages``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, date, datetime
from importlib.resources import files
from typing import Annotated, Any, Literal
from urllib.parse import parse_qs, quote
from uuid import UUID

import httpx
from argon2 import Parameters
from fastapi import Depends, FastAPI, Path, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool

from asat_accounts.errors import AccountsError, AccountsStoreError
from asat_accounts.model import Client, ResearchHistoryEntry
from asat_accounts.passwords import DEFAULT_PARAMETERS
from asat_accounts.permissions import Action
from asat_accounts.sessions import SessionPolicy
from asat_accounts.store import AccountsStore
from asat_accounts.throttle import DEFAULT_RULE, ThrottleRule
from asat_connections import Connections
from asat_corpus.contracts.across_years import AcrossYearsRequest
from asat_corpus.contracts.audit_log import AuditEntryOut
from asat_corpus.contracts.errors import ErrorBody, describe_validation_error
from asat_corpus.contracts.provider import GenerationProvider
from asat_corpus.contracts.research import MAX_QUESTION_CHARS, PeriodPreview, ResearchOutcome
from asat_corpus.http_errors import install_error_handlers
from asat_corpus.http_limits import BodyLimit
from asat_web.account_pages import AccountDeps, account_router
from asat_web.across_years_view import across_years_context
from asat_web.across_years_view import browser_events as across_years_events
from asat_web.across_years_view import collect as collect_across_years
from asat_web.answer_changes import compare_outcomes
from asat_web.audit_status import audit_status
from asat_web.auth import (
    ACCOUNTS_DOWN,
    GateConfig,
    Refused,
    SessionGate,
    asked_by,
    asked_by_model,
    csrf_protect,
    practice_id,
    refusal_response_body,
    require,
    signed_in,
)
from asat_web.connections_pages import ConnectionsDeps, ConnectionsWeb, background_refresh, connections_router
from asat_web.diff import diff_texts
from asat_web.documents_view import EDITABLE, IMAGE_TYPES, KINDS, LABELS, parse_change, review_view, show
from asat_web.extraction_client import (
    ExtractionClient,
    ExtractionRejected,
    ExtractionReplyError,
    ExtractionUnavailable,
    Upload,
)
from asat_web.file_note_download import Refusal, file_note
from asat_web.highlight import QuoteMismatch
from asat_web.history import (
    MAX_SEARCH_CHARS,
    Recorder,
    answer_as_given,
    ask_again_body,
    asked_on,
    history_entry_of,
    history_rows,
    request_period,
)
from asat_web.index_view import IndexView, index_view, unknown_view
from asat_web.labels import default_income_year, period_preview
from asat_web.practice_provider import practice_provider, provider_field
from asat_web.rendering import Renderer
from asat_web.research_client import (
    IndexNotReady,
    ResearchClient,
    ResearchRejected,
    ResearchReplyError,
    ResearchUnavailable,
)
from asat_web.security_headers import add_security_headers
from asat_web.settings import WebSettings
from asat_web.settings_pages import SettingsDeps, settings_router
from asat_web.source_view import adjacent_versions, quote_in_source, timeline_items
from asat_web.timeline_chart import timeline_chart
from asat_web.turn import Mode, TurnRequest, browser_events, render_outcome

# Forms and the stream carry a question (at most 2,000 characters) and a few fields; the upload
# form carries the documents extraction reads (each refused there beyond its own limit).
MAX_FORM_BYTES = 256 * 1024
MAX_UPLOAD_BYTES = 256 * 1024 * 1024
# The replies of POST /stream and POST /across-years/stream: server-sent events (each event's data
# is JSON: a stage, the rendered result or table, or an error), or an ErrorBody: a body that is not
# JSON (400), no session (401), no CSRF token or a role that may not ask (403), over the limit (413),
# a refused field (422).
EVENT_STREAM: dict[int | str, dict[str, Any]] = {
    200: {"description": "Server-sent events, each with JSON data", "content": {"text/event-stream": {}}},
    **{status: {"model": ErrorBody} for status in (400, 401, 403, 413, 422)},
}


class WebHealth(BaseModel):
    status: Literal["ok"]
    research_url: str


class PeriodRead(BaseModel):
    """``GET /period``: the period research would answer the question for, in words and as data."""

    text: str
    preview: PeriodPreview


class StreamRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    income_year: int | None = Field(default=None, ge=1900, le=2100)
    as_of: date | None = None
    as_known_on: date | None = None  # the law as it then stood; sent alone when given
    mode: Mode = Mode.RESEARCH
    first_source: int = Field(default=1, ge=1)
    client_id: int | None = Field(default=None, ge=1)  # one of the practice's clients, recorded with the question

    def turn(self) -> TurnRequest:
        return TurnRequest(
            question=self.question.strip(),
            income_year=self.income_year,
            as_of=self.as_of.isoformat() if self.as_of else None,
            mode=self.mode,
            first_source=self.first_source,
            as_known_on=self.as_known_on.isoformat() if self.as_known_on else None,
        )


def create_app(
    settings: WebSettings | None = None,
    client: httpx.AsyncClient | None = None,
    today: Any = date.today,
    extraction_client: httpx.AsyncClient | None = None,
    *,
    accounts: AccountsStore,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    password_parameters: Parameters = DEFAULT_PARAMETERS,
    throttle_rule: ThrottleRule = DEFAULT_RULE,
    session_policy: SessionPolicy | None = None,
    connections: Connections | None = None,
    connections_problem: str = "",
) -> FastAPI:
    """The app; ``client`` (an httpx client, e.g. over a stub research app) replaces the network,
    and ``extraction_client`` does the same for the extraction service. Both services get the
    service token of ``settings`` with every request. ``accounts`` holds the users, sessions and
    the practice's clients and settings (``asat_accounts``); ``clock``, ``password_parameters``
    (Argon2), ``throttle_rule`` and ``session_policy`` are the sign-in's, replaceable in tests."""
    settings = settings or WebSettings()
    store = accounts
    policy = session_policy or SessionPolicy()
    token = settings.service_token
    research = ResearchClient(settings.research_url, client=client, service_token=token)
    extraction = ExtractionClient(settings.extraction_url, client=extraction_client, service_token=token)
    renderer = Renderer()
    # Settings → Connections and Push to Xero (asat_web.connections_pages); None: the pages say why.
    xero_web = ConnectionsWeb(connections, connections_problem, store)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        async with background_refresh(connections):  # Xero tokens refreshed every 5 minutes
            yield
        await research.aclose()
        await extraction.aclose()

    # Every route checks the CSRF token of a state-changing request (asat_web.auth.csrf_protect).
    app = FastAPI(
        title="AsAt web",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        dependencies=[Depends(csrf_protect(settings.max_upload_files))],
    )

    def page(template: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(renderer.render(template, **context), status_code=status)

    def render_error(title: str, message: str, status: int) -> str:
        return renderer.render("error.html", title=title, message=message, status=status)

    # Innermost: every request but /healthz, /sign-in and /static/ needs a session (asat_web.auth).
    app.add_middleware(SessionGate, config=GateConfig(store, clock, policy, settings.cookie_secure, render_error))
    app.middleware("http")(add_security_headers)
    app.mount("/static", StaticFiles(directory=str(files("asat_web") / "static")), name="static")

    def clients_now() -> tuple[Client, ...]:
        """The practice's current clients (the research forms offer them)."""
        return store.clients(practice_id())

    def form_defaults() -> dict[str, Any]:
        return {"default_year": default_income_year(today()), "clients": clients_now(), "client_id": None}

    def error_page(title: str, message: str, status: int) -> HTMLResponse:
        return page("error.html", status=status, title=title, message=message)

    def chosen_client(raw: str | int | None) -> int | None:
        """The client the form chose: none, or one of the practice's current clients (else ValueError)."""
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            return None
        try:
            client_id = int(raw)
        except ValueError:
            raise ValueError("choose one of your practice's clients, or none") from None
        found = store.client(practice_id(), client_id) if client_id >= 1 else None
        if found is None or found.archived:
            raise ValueError("choose one of your practice's current clients, or none")
        return client_id

    def provider_now() -> GenerationProvider | None:
        """The practice's own generation provider, its key revealed from the sealed secret now, for
        research's request (``asat_web.practice_provider``); ``None`` when it saved none."""
        return practice_provider(store, practice_id())

    def of_this_practice(entry: AuditEntryOut) -> bool:
        """Whether the audit row says it was asked for the signed-in practice: checked as well as
        the practice's history (``owns``), so both must agree before a row is shown."""
        asked = entry.record.asked_by
        return asked is not None and asked.practice_id == practice_id()

    async def owns(audit_id: int) -> bool:
        """Whether audit row ``audit_id`` is in the practice's research history (row-level
        security: another practice's rows are not seen). Checked before research is asked for the
        row: another practice's row, or one asked by no signed-in user, is not found (404)."""
        return await run_in_threadpool(store.owns_audit_row, practice_id(), audit_id)

    def recorder(client_id: int | None) -> Recorder:
        """Keeps each outcome of this request in the practice's history, as asked by the signed-in
        user for ``client_id`` (taken from the session now: a stream outlives the request's start)."""
        user_id, practice = signed_in().user.id, practice_id()

        async def record(outcome: ResearchOutcome, question: str) -> str | None:
            entry = history_entry_of(outcome, question, user_id, client_id, clock())
            try:
                await run_in_threadpool(store.record_research, practice, entry)
            except AccountsError as exc:
                return (
                    f"Research answered (audit row {outcome.audit_id}), but the answer could not be kept in "
                    f"your practice's research history, so it is not shown: {exc}. Check that Postgres is "
                    "running, then ask again."
                )
            return None

        return record

    def asked_by_of(entry: ResearchHistoryEntry, emails: dict[int, str], clients: dict[int, Client]) -> str:
        """ "asked by jo@… (Practice), for client Acme Pty Ltd" for a row of the practice's history."""
        session = signed_in()
        practice_name = session.practice.practice_name if session.practice is not None else ""
        who = emails.get(entry.user_id, f"a former member (user {entry.user_id})")
        words = f"asked by {who} ({practice_name})"
        found = clients.get(entry.client_id) if entry.client_id is not None else None
        if found is not None:
            words += f", for client {found.name}" + (" (archived)" if found.archived else "")
        return words

    def audit_list() -> list[dict[str, Any]]:
        """The practice's latest audit rows, from its research history, newest first."""
        practice = practice_id()
        entries = store.research_history(practice, None, settings.audit_rows)
        emails = {m.user.id: m.user.email for m in store.members(practice)}
        clients = {c.id: c for c in store.clients(practice, include_archived=True)}
        return [
            {
                "id": e.audit_id,
                "recorded": asked_on(e.asked_at),
                "question": e.question,
                "period": e.period,
                "decision": e.decision,
                "asked": asked_by_of(e, emails, clients),
                "corpus_generation": e.corpus_generation,
            }
            for e in entries
        ]

    def asked_by_words(entry: AuditEntryOut) -> str | None:
        """ "asked by jo@… (Practice), for client Acme Pty Ltd" for an audit row of this practice."""
        asked = entry.record.asked_by
        session = signed_in()
        if asked is None or session.practice is None:
            return None
        words = f"asked by {asked.user_email} ({session.practice.practice_name})"
        if asked.client_id is not None:
            found = store.client(practice_id(), asked.client_id)
            if found is not None:
                words += f", for client {found.name}" + (" (archived)" if found.archived else "")
        return words

    @app.exception_handler(AccountsStoreError)
    async def accounts_down(request: Request, exc: AccountsStoreError) -> Response:
        """The accounts database failed (no session, sign-in or setting can be read): 503."""
        return await refused(request, Refused(503, ACCOUNTS_DOWN, f"{exc}. Check that Postgres is running."))

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> Response:
        body, media_type = refusal_response_body(request.url.path, request.headers, exc, render_error)
        if media_type == "application/json":
            return JSONResponse(body, status_code=exc.status)
        return HTMLResponse(body, status_code=exc.status)

    install_error_handlers(app)
    app.add_middleware(BodyLimit, max_bytes=MAX_FORM_BYTES, overrides={"/documents": MAX_UPLOAD_BYTES})
    app.include_router(
        account_router(
            AccountDeps(store, page, clock, policy, throttle_rule, password_parameters, settings.cookie_secure)
        )
    )
    app.include_router(settings_router(SettingsDeps(store, page, research, password_parameters)))

    @app.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        return RedirectResponse("/research", status_code=303)

    async def index_now() -> IndexView:
        """The index's readiness as the question pages show it; ``unknown`` (the form usable, and
        why research could not say) when research cannot be asked."""
        try:
            return index_view(await research.index_status())
        except (ResearchUnavailable, ResearchRejected) as exc:
            return unknown_view(str(exc))

    @app.get("/research", response_class=HTMLResponse)
    async def research_page() -> HTMLResponse:
        index = await index_now()
        return page("research.html", turn=None, question="", index=index, **await run_in_threadpool(form_defaults))

    @app.get(
        "/index-status",
        response_model=IndexView,
        responses={502: {"model": ErrorBody}, 503: {"model": ErrorBody}},
    )
    async def index_status() -> IndexView | JSONResponse:
        """Whether questions can be asked now and how far the index's build has got (the research
        and chat pages poll it while the index is being built)."""
        try:
            return index_view(await research.index_status())
        except ResearchReplyError as exc:
            return JSONResponse({"error": "dependency_unusable", "message": str(exc)}, status_code=502)
        except (ResearchUnavailable, ResearchRejected) as exc:
            return JSONResponse({"error": "dependency_unavailable", "message": str(exc)}, status_code=503)

    @app.post("/research", response_class=HTMLResponse)
    async def research_form(request: Request) -> HTMLResponse:
        """Without JavaScript: the form posts here and the whole page comes back with the turn."""
        require(Action.ASK)
        fields = {k: v[0] for k, v in parse_qs((await request.body()).decode("utf-8", "replace")).items()}
        question = fields.get("question", "").strip()
        context = await run_in_threadpool(form_defaults) | {"question": question}
        if not question:
            return page("research.html", status=422, turn=None, problem="Type a question.", **context)
        provider = await run_in_threadpool(provider_now)  # refused (503, 422) as a page of its own
        try:
            client_id = await run_in_threadpool(chosen_client, fields.get("client_id"))
            context["client_id"] = client_id
            year, day, known_on = _period(fields)
            turn = TurnRequest(
                question, year, day, as_known_on=known_on, asked_by=asked_by(client_id), provider=provider
            )
            body = await research.research(turn.research_body())
            problem = await recorder(client_id)(body, question)
            if problem is not None:
                return page("research.html", status=503, turn=None, problem=problem, **context)
            result = render_outcome(renderer, body, turn)
        except ValueError as exc:
            return page("research.html", status=422, turn=None, problem=str(exc), **context)
        except ResearchRejected as exc:
            return page("research.html", status=422, turn=None, problem=str(exc), **context)
        except ResearchReplyError as exc:
            return page("research.html", status=502, turn=None, problem=str(exc), **context)
        except IndexNotReady as exc:
            # A notice with the build's progress (the form disabled), not an error page.
            refused = page(
                "research.html", status=503, turn=None, index=index_view(exc.readiness()), index_refused=True, **context
            )
            if exc.retry_after is not None:
                refused.headers["retry-after"] = str(exc.retry_after)
            return refused
        except ResearchUnavailable as exc:
            return page("research.html", status=503, turn=None, problem=str(exc), **context)
        return page("research.html", turn={"question": question, "html": result["html"]}, **context)

    @app.get("/chat", response_class=HTMLResponse)
    async def chat_page() -> HTMLResponse:
        index = await index_now()
        return page("chat.html", index=index, **await run_in_threadpool(form_defaults))

    @app.get("/period", response_model=PeriodRead, responses={422: {}, 502: {}, 503: {}})
    async def period(
        question: Annotated[str, Query(max_length=MAX_QUESTION_CHARS)] = "",
        income_year: Annotated[int | None, Query(ge=1900, le=2100)] = None,
        as_of: date | None = None,
    ) -> PeriodRead | JSONResponse:
        """What period the question would be answered for (nothing is asked or recorded)."""
        body: dict[str, Any] = {"question": question}
        if as_of is not None:
            body["as_of"] = as_of.isoformat()
        elif income_year is not None:
            body["income_year"] = income_year
        try:
            read = await research.period(body)
        except ResearchRejected as exc:
            return JSONResponse({"error": "invalid_request", "message": str(exc)}, status_code=422)
        except ResearchReplyError as exc:
            return JSONResponse({"error": "dependency_unusable", "message": str(exc)}, status_code=502)
        except ResearchUnavailable as exc:
            return JSONResponse({"error": "dependency_unavailable", "message": str(exc)}, status_code=503)
        return PeriodRead(text=period_preview(read), preview=read)

    @app.post("/stream", response_model=None, response_class=StreamingResponse, responses=EVENT_STREAM)
    async def stream(request: StreamRequest) -> StreamingResponse | JSONResponse:
        require(Action.ASK)
        if not request.question.strip():
            return JSONResponse(
                {"error": "invalid_request", "message": "the question is empty: type the question"}, status_code=422
            )
        try:
            client_id = await run_in_threadpool(chosen_client, request.client_id)
        except ValueError as exc:
            return JSONResponse({"error": "invalid_request", "message": str(exc)}, status_code=422)
        turn = replace(request.turn(), asked_by=asked_by(client_id), provider=await run_in_threadpool(provider_now))
        return StreamingResponse(
            browser_events(research, renderer, turn, recorder(client_id)),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    @app.get("/across-years", response_class=HTMLResponse)
    async def across_years_page(
        question: Annotated[str, Query(max_length=MAX_QUESTION_CHARS)] = "",
        income_year: Annotated[int | None, Query(ge=1900, le=2100)] = None,
        as_of: date | None = None,
        source: Annotated[list[str] | None, Query()] = None,
        full: bool = False,
    ) -> HTMLResponse:
        """How has this changed?: the table fills in as research's stream arrives (the script posts
        to ``/across-years/stream``); with ``full`` (where the page refreshes without JavaScript)
        every year is asked first and the whole table is rendered here."""
        try:
            request = AcrossYearsRequest(
                question=question.strip(),
                income_year=income_year,
                as_of=as_of,
                source_ids=tuple(source) if source is not None else None,
            )
        except ValidationError as exc:
            return error_page("Cannot follow this question across years", describe_validation_error(exc), 422)
        context = across_years_context(request)
        if not full:
            return page("across_years.html", full=False, **context)
        require(Action.ASK)
        mine = {"asked_by": asked_by_model(), "provider": await run_in_threadpool(provider_now)}
        collected = await collect_across_years(research, request.model_copy(update=mine), recorder(None))
        table = collected.table()
        return page(
            "across_years.html",
            status=200 if table is not None else collected.status,
            full=True,
            table=table,
            error=collected.error,
            finished=collected.finished,
            **context,
        )

    @app.post("/across-years/stream", response_model=None, response_class=StreamingResponse, responses=EVENT_STREAM)
    async def across_years_stream(request: AcrossYearsRequest) -> StreamingResponse:
        """Research's across-years stream relayed (same origin): each event the table rendered again.
        Who asks, and the provider asked, are the session's practice's, whatever the body says."""
        require(Action.ASK)
        mine = {"asked_by": asked_by_model(), "provider": await run_in_threadpool(provider_now)}
        return StreamingResponse(
            across_years_events(research, renderer, request.model_copy(update=mine), recorder(None)),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    # Registered before /source/{source_id:path}, which would otherwise take ".../text" as the id.
    @app.get("/source/{source_id:path}/text", response_class=HTMLResponse)
    async def source_text(source_id: str) -> HTMLResponse:
        """The version's whole text as an HTML fragment ("Show whole section" in the evidence);
        the id is checked as /source does: research's GET /v1/sources/{id} answers for it."""
        try:
            source = await research.source(source_id)
        except ResearchRejected as exc:
            return page("_whole_text.html", status=exc.status, problem=f"No source {source_id!r}: {exc}")
        except ResearchReplyError as exc:
            return page("_whole_text.html", status=502, problem=f"{UNUSABLE}: {exc}")
        except ResearchUnavailable as exc:
            return page("_whole_text.html", status=503, problem=f"Research service unavailable: {exc}")
        return page("_whole_text.html", source=source, problem=None)

    @app.get("/source/{source_id:path}", response_class=HTMLResponse)
    async def source_page(
        source_id: str,
        audit: Annotated[int | None, Query(ge=1)] = None,
        start: Annotated[int | None, Query(ge=0)] = None,
        end: Annotated[int | None, Query(ge=0)] = None,
        against: str | None = None,
    ) -> HTMLResponse:
        try:
            source = (await research.source(source_id)).model_dump(mode="json")
        except ResearchRejected as exc:
            return error_page("Source not found", f"No source {source_id!r}: {exc}", exc.status)
        except ResearchReplyError as exc:
            return error_page(UNUSABLE, str(exc), 502)
        except ResearchUnavailable as exc:
            return error_page("Research service unavailable", str(exc), 503)
        text = str(source.get("text", ""))
        shown: Any = None
        problem = None
        if audit is not None and start is not None and end is not None:
            try:
                if not await owns(audit):
                    raise ResearchRejected(404, f"no audit row {audit} in this practice")
                row = await research.audit_entry(audit)
                if not await run_in_threadpool(of_this_practice, row):
                    raise ResearchRejected(404, f"no audit row {audit} in this practice")
                shown = quote_in_source(text, row.model_dump(mode="json"), source_id, start, end)
            except QuoteMismatch as exc:
                problem = str(exc)
            except (ResearchRejected, ResearchUnavailable) as exc:
                problem = f"the quote cannot be checked against audit row {audit}, so it is not shown: {exc}"
        timeline = timeline_items(source)
        before, after = adjacent_versions(timeline)
        other_id = against or before or after
        diff = None
        if other_id and other_id != source_id:
            try:
                other = (await research.source(other_id)).model_dump(mode="json")
                older_first = other_id != after
                old, new = (str(other.get("text", "")), text) if older_first else (text, str(other.get("text", "")))
                diff = {"other": other, "segments": diff_texts(old, new), "older_first": older_first}
            except (ResearchRejected, ResearchUnavailable) as exc:
                diff = {"problem": f"the version {other_id} could not be fetched for the comparison: {exc}"}
        return page(
            "source.html",
            source=source,
            text=text,
            shown=shown,
            problem=problem,
            timeline=timeline,
            chart=timeline_chart(timeline),
            before=before,
            after=after,
            diff=diff,
        )

    @app.get("/audit", response_class=HTMLResponse)
    async def audit_page() -> HTMLResponse:
        """The practice's latest audit rows (from its research history), and the whole log's
        integrity, in words that give no count of other practices' rows (``audit_status``)."""
        entries = await run_in_threadpool(audit_list)
        try:
            chain = await research.audit_verify()
        except ResearchReplyError as exc:
            return error_page(UNUSABLE, str(exc), 502)
        except (ResearchRejected, ResearchUnavailable) as exc:
            return error_page("Audit log unavailable", str(exc), 503)
        return page("audit.html", entries=entries, integrity=audit_status(chain))

    def file_note_or_refusal(made: Response | Refusal) -> Response:
        return made if isinstance(made, Response) else error_page(made.title, made.message, made.status)

    @app.get("/audit/{entry_id}/file-note.pdf", response_model=None)
    async def file_note_pdf(entry_id: int) -> Response:
        """The audit row's file note as PDF, made from the row (never from the browser)."""
        if not await owns(entry_id):
            return error_page("Audit row not found", f"no audit row {entry_id} in this practice", 404)
        return file_note_or_refusal(await file_note(research, entry_id, "pdf", datetime.now(UTC), practice_id()))

    @app.get("/audit/{entry_id}/file-note.md", response_model=None)
    async def file_note_markdown(entry_id: int) -> Response:
        """The audit row's file note as Markdown, made from the row (never from the browser)."""
        if not await owns(entry_id):
            return error_page("Audit row not found", f"no audit row {entry_id} in this practice", 404)
        return file_note_or_refusal(await file_note(research, entry_id, "md", datetime.now(UTC), practice_id()))

    @app.get("/audit/{entry_id}", response_class=HTMLResponse)
    async def audit_entry_page(entry_id: int) -> HTMLResponse:
        if not await owns(entry_id):
            return error_page("Audit row not found", f"no audit row {entry_id} in this practice", 404)
        try:
            row = await research.audit_entry(entry_id)
        except ResearchRejected as exc:
            return error_page("Audit row not found", str(exc), exc.status)
        except ResearchReplyError as exc:
            return error_page(UNUSABLE, str(exc), 502)
        except ResearchUnavailable as exc:
            return error_page("Audit log unavailable", str(exc), 503)
        if not await run_in_threadpool(of_this_practice, row):
            return error_page("Audit row not found", f"no audit row {entry_id} in this practice", 404)
        entry = row.model_dump(mode="json")
        asked = await run_in_threadpool(asked_by_words, row)
        return page("audit_entry.html", entry=entry, record=entry["record"], asked=asked)

    @app.get("/history", response_class=HTMLResponse)
    async def history_page(q: str = "") -> HTMLResponse:
        """The recent questions, newest first; ``q`` keeps those whose question contains it."""
        search = q.strip()
        if len(search) > MAX_SEARCH_CHARS:
            problem = f"Search for at most {MAX_SEARCH_CHARS} characters (this is {len(search)})."
            return page("history.html", status=422, rows=(), q=search, problem=problem)
        found = await run_in_threadpool(store.research_history, practice_id(), search or None, settings.audit_rows)
        return page("history.html", rows=history_rows(found), q=search, problem=None)

    async def history_row(audit_id: int) -> AuditEntryOut | HTMLResponse:
        if not await owns(audit_id):
            return error_page("Question not found", f"no audit row {audit_id} in this practice", 404)
        try:
            row = await research.audit_entry(audit_id)
            if not await run_in_threadpool(of_this_practice, row):
                raise ResearchRejected(404, f"no audit row {audit_id} in this practice")
            return row
        except ResearchRejected as exc:
            return error_page("Question not found", str(exc), exc.status)
        except ResearchReplyError as exc:
            return error_page(UNUSABLE, str(exc), 502)
        except ResearchUnavailable as exc:
            return error_page("Audit log unavailable", str(exc), 503)

    async def history_entry_page(entry: AuditEntryOut, status: int = 200, **context: Any) -> HTMLResponse:
        """The answer as given (never a part of one), the form that asks again, and what ``context`` adds."""
        given = answer_as_given(entry)
        turn = TurnRequest(entry.record.question, None, None)
        given_html = render_outcome(renderer, given.outcome, turn)["html"] if given.outcome else None
        context = {"again": None, "again_html": None, "changes": None, "again_problem": None} | context
        return page(
            "history_entry.html",
            status=status,
            entry=entry,
            given=given,
            given_html=given_html,
            asked=asked_on(entry.recorded_at),
            asked_by=await run_in_threadpool(asked_by_words, entry),
            again_period=request_period(ask_again_body(entry, given.outcome)),
            **context,
        )

    @app.get("/history/{audit_id}", response_class=HTMLResponse)
    async def history_entry(audit_id: Annotated[int, Path(ge=1)]) -> HTMLResponse:
        entry = await history_row(audit_id)
        return entry if isinstance(entry, HTMLResponse) else await history_entry_page(entry)

    @app.post("/history/{audit_id}/again", response_class=HTMLResponse)
    async def history_again(audit_id: Annotated[int, Path(ge=1)]) -> HTMLResponse:
        """The row's question asked again for the same period (a new audit row, asked by the
        signed-in user, for the row's client while it is still the practice's), shown below the
        answer as given with what changed."""
        require(Action.ASK)
        entry = await history_row(audit_id)
        if isinstance(entry, HTMLResponse):
            return entry
        given = answer_as_given(entry).outcome
        before = entry.record.asked_by.client_id if entry.record.asked_by is not None else None
        try:
            client_id = await run_in_threadpool(chosen_client, before)
        except ValueError:
            client_id = None
        provider = await run_in_threadpool(provider_now)
        try:
            body = ask_again_body(entry, given) | {"asked_by": asked_by(client_id)} | provider_field(provider)
            now = await research.research(body)
            problem = await recorder(client_id)(now, entry.record.question)
            if problem is not None:
                return await history_entry_page(entry, 503, again_problem=problem)
        except ResearchRejected as exc:
            return await history_entry_page(entry, exc.status, again_problem=f"Not asked again: {exc}")
        except ResearchReplyError as exc:
            return await history_entry_page(entry, 502, again_problem=f"{UNUSABLE}: {exc}")
        except ResearchUnavailable as exc:
            return await history_entry_page(entry, 503, again_problem=f"Not asked again: {exc}")
        again_html = render_outcome(renderer, now, TurnRequest(entry.record.question, None, None))["html"]
        changes = compare_outcomes(given, now) if given is not None else None
        return await history_entry_page(entry, again=now, again_html=again_html, changes=changes)

    def extraction_error(exc: ExtractionRejected | ExtractionUnavailable) -> HTMLResponse:
        if isinstance(exc, ExtractionRejected):
            title = "Document not found" if exc.status == 404 else "The extraction service refused the request"
            return error_page(title, str(exc), exc.status)
        if isinstance(exc, ExtractionReplyError):
            return error_page("Extraction service reply unusable", str(exc), 502)
        return error_page("Extraction service unavailable", str(exc), 503)

    async def documents_page(status: int = 200, **context: Any) -> HTMLResponse:
        try:
            listed = await extraction.transactions(practice_id(), settings.document_rows)
        except (ExtractionRejected, ExtractionUnavailable) as exc:
            return extraction_error(exc)
        rows = [
            {
                "document_id": t.document_id,
                "review_status": t.review_status,
                "kind": show(t.values.get("kind")).replace("_", " "),
                "supplier": show(t.values.get("supplier_name")),
                "total": show(t.values.get("total_amount")),
                "currency": t.values.get("currency") or "",
                "issue_date": show(t.values.get("issue_date")),
                "warnings": len(t.extraction.warnings),
                "transaction_id": str(t.id),
            }
            for t in listed.transactions
        ]
        ids = [t.id for t in listed.transactions]
        context = {"results": None, "problem": None, "push_report": None} | context
        context |= await run_in_threadpool(xero_web.documents_context, ids)
        return page("documents.html", status=status, rows=rows, **context)

    async def review_page(document_id: UUID, status: int = 200, **context: Any) -> HTMLResponse:
        try:
            detail = await extraction.document(practice_id(), document_id)
        except (ExtractionRejected, ExtractionUnavailable) as exc:
            return extraction_error(exc)
        context = {"problem": None, "saved": None, "form": {}} | context
        return page(
            "document.html",
            status=status,
            document=detail.document,
            transaction=detail.transaction,
            view=review_view(detail),
            editable=[(name, LABELS[name]) for name in EDITABLE],
            kinds=KINDS,
            labels=LABELS,
            show=show,
            **context,
        )

    @app.get("/documents", response_class=HTMLResponse)
    async def documents() -> HTMLResponse:
        return await documents_page()

    @app.post("/documents", response_class=HTMLResponse)
    async def upload_documents(request: Request) -> HTMLResponse:
        """The files of the form (``files``, one or many) forwarded in one request to extraction."""
        require(Action.UPLOAD_DOCUMENTS)
        form = await request.form(max_files=settings.max_upload_files + 1, max_fields=10)
        uploads: list[Upload] = []
        for item in form.getlist("files"):
            if isinstance(item, str) or not item.filename:
                continue
            content = await item.read()
            media_type = item.content_type or "application/octet-stream"
            uploads.append(Upload(filename=item.filename, content=content, media_type=media_type))
        await form.close()
        if not uploads:
            return await documents_page(422, problem="Choose at least one file (or drop files on the box).")
        try:
            reply = await extraction.upload(practice_id(), uploads)
        except ExtractionRejected as exc:
            return await documents_page(exc.status, problem=f"Nothing was uploaded: {exc}")
        except ExtractionUnavailable as exc:
            return extraction_error(exc)
        return await documents_page(results=reply.results)

    @app.get("/documents/{document_id}", response_class=HTMLResponse)
    async def document_page(document_id: UUID, saved: str | None = None) -> HTMLResponse:
        said = None
        if saved in LABELS:
            said = f"Correction to {LABELS[saved]} saved."
        elif saved in ("confirmed", "rejected"):
            said = f"Marked {saved}."
        return await review_page(document_id, saved=said)

    @app.get("/documents/{document_id}/file", response_model=None)
    async def document_file(document_id: UUID) -> Response:
        """The original, relayed from extraction (same origin, so the page's policy allows the image)."""
        try:
            original = await extraction.original(practice_id(), document_id)
        except (ExtractionRejected, ExtractionUnavailable) as exc:
            return extraction_error(exc)
        disposition = "inline" if original.media_type in IMAGE_TYPES else "attachment"
        headers = {"content-disposition": f'{disposition}; filename="{document_id}"', "cache-control": "no-store"}
        return Response(original.content, media_type=original.media_type, headers=headers)

    @app.get("/documents/{document_id}/pages/{page}", response_model=None)
    async def document_page_image(document_id: UUID, page: Annotated[int, Path(ge=1, le=10_000)]) -> Response:
        """One page of the original rendered as PNG by extraction, relayed (same origin: the policy allows it)."""
        try:
            image = await extraction.page(practice_id(), document_id, page)
        except (ExtractionRejected, ExtractionUnavailable) as exc:
            return extraction_error(exc)
        headers = {
            "content-disposition": f'inline; filename="{document_id}-page-{page}.png"',
            "cache-control": "private, max-age=3600",
        }
        return Response(image.content, media_type="image/png", headers=headers)

    @app.post("/documents/{document_id}/corrections", response_model=None)
    async def correct_document(document_id: UUID, request: Request) -> HTMLResponse | RedirectResponse:
        """One field's corrected value (or a review decision) and who made it, sent as a PATCH."""
        require(Action.REVIEW_DOCUMENTS)
        fields = {k: v[0] for k, v in parse_qs((await request.body()).decode("utf-8", "replace")).items()}
        who, note = fields.get("who", "").strip(), fields.get("note", "").strip() or None
        decision = fields.get("review_status")
        name = fields.get("field", "")
        form = {"who": who, "note": note or "", "field": name, "value": fields.get("value", "")}
        body: dict[str, Any] = {"who": who, "note": note}
        try:
            if not who:
                raise ValueError("Type your name as the reviewer: every correction records who made it.")
            if decision in ("confirmed", "rejected"):
                body["review_status"] = decision
            else:
                body["changes"] = {name: parse_change(name, fields.get("value", ""))}
        except ValueError as exc:
            return await review_page(document_id, status=422, problem=str(exc), form=form)
        try:
            detail = await extraction.document(practice_id(), document_id)
            await extraction.correct(practice_id(), detail.transaction.id, body)
        except ExtractionRejected as exc:
            if exc.status == 404:
                return extraction_error(exc)
            return await review_page(document_id, status=exc.status, problem=f"Not saved: {exc}", form=form)
        except ExtractionUnavailable as exc:
            return extraction_error(exc)
        saved = name if "changes" in body else (decision or "")
        return RedirectResponse(f"/documents/{document_id}?saved={quote(saved)}#corrections", status_code=303)

    app.include_router(connections_router(ConnectionsDeps(xero_web, page, documents_page)))

    @app.get("/healthz", response_model=WebHealth)
    async def healthz() -> WebHealth:
        return WebHealth(status="ok", research_url=settings.research_url)

    return app


UNUSABLE = "Research service reply unusable"


def _period(fields: dict[str, str]) -> tuple[int | None, str | None, str | None]:
    """The period the form asked for, as ``(income year, as-at day, as-known-on day)``: none when
    "from the question" is chosen (research reads it from the question, else takes the current
    income year and says so), a day when "as at" or "as known on" is chosen, else the income year."""
    chosen = fields.get("period")
    if chosen == "question" or (chosen is None and not fields.get("income_year", "").strip()):
        return None, None, None
    if chosen == "as_of":
        day = fields.get("as_of", "").strip()
        try:
            return None, date.fromisoformat(day).isoformat(), None
        except ValueError:
            raise ValueError(f"the as-at date {day!r} is not a date: pick one, or choose an income year") from None
    if fields.get("period") == "as_known_on":
        day = fields.get("as_known_on", "").strip()
        try:
            return None, None, date.fromisoformat(day).isoformat()
        except ValueError:
            raise ValueError(
                f"the as-known-on date {day!r} is not a date (YYYY-MM-DD): pick one, or choose another period"
            ) from None
    raw = fields.get("income_year", "").strip()
    try:
        year = int(raw)
    except ValueError:
        raise ValueError(f"the income year {raw!r} is not a year such as 2015: type one") from None
    if not 1900 <= year <= 2100:
        raise ValueError(f"the income year {year} is outside 1900 to 2100")
    return year, None, None
