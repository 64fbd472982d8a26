"""The web service: pages for research, chat, the source viewer and the audit log.

Pages are rendered on the server; ``POST /stream`` relays the research service's event stream
to the browser (same origin), each stage as it arrives and the decision rendered as HTML.
``GET /period`` says, as the question is typed, what period it would be answered for (research's
``POST /v1/period``): the period is read from the question unless the form names one, and a
question naming one period asked with another is refused, offering both.
A research reply that breaks its contract, or an unexpected error status from it, is a 502 page
naming the research service; research down (or answering 503) is a 503 page.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date
from importlib.resources import files
from typing import Annotated, Any, Literal
from urllib.parse import parse_qs

import httpx
from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from asat_corpus.contracts.research import MAX_QUESTION_CHARS, PeriodPreview
from asat_corpus.http_errors import install_error_handlers
from asat_web.diff import diff_texts
from asat_web.highlight import QuoteMismatch
from asat_web.labels import default_income_year, period_preview
from asat_web.rendering import Renderer
from asat_web.research_client import ResearchClient, ResearchRejected, ResearchReplyError, ResearchUnavailable
from asat_web.security_headers import add_security_headers
from asat_web.settings import WebSettings
from asat_web.source_view import adjacent_versions, quote_in_source, timeline_items
from asat_web.timeline_chart import timeline_chart
from asat_web.turn import Mode, TurnRequest, browser_events, render_outcome


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
) -> FastAPI:
    """The app; ``client`` (an httpx client, e.g. over a stub research app) replaces the network."""
    settings = settings or WebSettings()
    research = ResearchClient(settings.research_url, client=client)
    renderer = Renderer()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        await research.aclose()

    app = FastAPI(title="AsAt web", version="0.1.0", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.middleware("http")(add_security_headers)
    app.mount("/static", StaticFiles(directory=str(files("asat_web") / "static")), name="static")

    def page(template: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(renderer.render(template, **context), status_code=status)

    def form_defaults() -> dict[str, Any]:
        return {"default_year": default_income_year(today())}

    def error_page(title: str, message: str, status: int) -> HTMLResponse:
        return page("error.html", status=status, title=title, message=message)

    install_error_handlers(app)

    @app.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        return RedirectResponse("/research", status_code=303)

    @app.get("/research", response_class=HTMLResponse)
    def research_page() -> HTMLResponse:
        return page("research.html", turn=None, question="", **form_defaults())

    @app.post("/research", response_class=HTMLResponse)
    async def research_form(request: Request) -> HTMLResponse:
        """Without JavaScript: the form posts here and the whole page comes back with the turn."""
        fields = {k: v[0] for k, v in parse_qs((await request.body()).decode("utf-8", "replace")).items()}
        question = fields.get("question", "").strip()
        context = form_defaults() | {"question": question}
        if not question:
            return page("research.html", status=422, turn=None, problem="Type a question.", **context)
        try:
            year, day, known_on = _period(fields)
            turn = TurnRequest(question, year, day, as_known_on=known_on)
            body = await research.research(turn.research_body())
            result = render_outcome(renderer, body, turn)
        except ValueError as exc:
            return page("research.html", status=422, turn=None, problem=str(exc), **context)
        except ResearchRejected as exc:
            return page("research.html", status=422, turn=None, problem=str(exc), **context)
        except ResearchReplyError as exc:
            return page("research.html", status=502, turn=None, problem=str(exc), **context)
        except ResearchUnavailable as exc:
            return page("research.html", status=503, turn=None, problem=str(exc), **context)
        return page("research.html", turn={"question": question, "html": result["html"]}, **context)

    @app.get("/chat", response_class=HTMLResponse)
    def chat_page() -> HTMLResponse:
        return page("chat.html", **form_defaults())

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

    @app.post("/stream", response_model=None)
    async def stream(request: StreamRequest) -> StreamingResponse | JSONResponse:
        if not request.question.strip():
            return JSONResponse(
                {"error": "invalid_request", "message": "the question is empty: type the question"}, status_code=422
            )
        return StreamingResponse(
            browser_events(research, renderer, request.turn()),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

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
                entry = (await research.audit_entry(audit)).model_dump(mode="json")
                shown = quote_in_source(text, entry, source_id, start, end)
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
        try:
            recent = await research.audit_recent(settings.audit_rows)
            chain = await research.audit_verify()
        except ResearchReplyError as exc:
            return error_page(UNUSABLE, str(exc), 502)
        except (ResearchRejected, ResearchUnavailable) as exc:
            return error_page("Audit log unavailable", str(exc), 503)
        entries = [e.model_dump(mode="json") for e in recent.entries]
        return page("audit.html", entries=entries, chain=chain.model_dump(mode="json"))

    @app.get("/audit/{entry_id}", response_class=HTMLResponse)
    async def audit_entry_page(entry_id: int) -> HTMLResponse:
        try:
            entry = (await research.audit_entry(entry_id)).model_dump(mode="json")
        except ResearchRejected as exc:
            return error_page("Audit row not found", str(exc), exc.status)
        except ResearchReplyError as exc:
            return error_page(UNUSABLE, str(exc), 502)
        except ResearchUnavailable as exc:
            return error_page("Audit log unavailable", str(exc), 503)
        return page("audit_entry.html", entry=entry, record=entry["record"])

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
