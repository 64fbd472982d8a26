"""The web service: pages for research, chat, the source viewer and the audit log.

Pages are rendered on the server; ``POST /stream`` relays the research service's event stream
to the browser (same origin), each stage as it arrives and the decision rendered as HTML.
``GET /period`` says, as the question is typed, what period it would be answered for (research's
``POST /v1/period``): the period is read from the question unless the form names one, and a
question naming one period asked with another is refused, offering both.
A research reply that breaks its contract, or an unexpected error status from it, is a 502 page
naming the research service; research down (or answering 503) is a 503 page.
``/documents`` uploads invoices and receipts to the extraction service (``ASAT_EXTRACTION_URL``),
lists their transactions and shows each for review beside its original, where a field's
correction is sent back through extraction's API; extraction's failures are 502 and 503 pages
naming the extraction service, as for research.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime
from importlib.resources import files
from typing import Annotated, Any, Literal
from urllib.parse import parse_qs, quote
from uuid import UUID

import httpx
from fastapi import FastAPI, Path, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from asat_corpus.contracts.across_years import AcrossYearsRequest
from asat_corpus.contracts.audit_log import AuditEntryOut
from asat_corpus.contracts.errors import describe_validation_error
from asat_corpus.contracts.research import MAX_QUESTION_CHARS, PeriodPreview
from asat_corpus.http_errors import install_error_handlers
from asat_corpus.http_limits import BodyLimit
from asat_web.across_years_view import across_years_context
from asat_web.across_years_view import browser_events as across_years_events
from asat_web.across_years_view import collect as collect_across_years
from asat_web.answer_changes import compare_outcomes
from asat_web.audit_status import audit_status
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
    answer_as_given,
    ask_again_body,
    asked_on,
    history_rows,
    request_period,
)
from asat_web.labels import default_income_year, period_preview
from asat_web.rendering import Renderer
from asat_web.research_client import ResearchClient, ResearchRejected, ResearchReplyError, ResearchUnavailable
from asat_web.security_headers import add_security_headers
from asat_web.settings import WebSettings
from asat_web.source_view import adjacent_versions, quote_in_source, timeline_items
from asat_web.timeline_chart import timeline_chart
from asat_web.turn import Mode, TurnRequest, browser_events, render_outcome

# Forms and the stream carry a question (at most 2,000 characters) and a few fields; the upload
# form carries the documents extraction reads (each refused there beyond its own limit).
MAX_FORM_BYTES = 256 * 1024
MAX_UPLOAD_BYTES = 256 * 1024 * 1024


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
    extraction_client: httpx.AsyncClient | None = None,
) -> FastAPI:
    """The app; ``client`` (an httpx client, e.g. over a stub research app) replaces the network,
    and ``extraction_client`` does the same for the extraction service. Both services get the
    service token of ``settings`` with every request."""
    settings = settings or WebSettings()
    token = settings.service_token
    research = ResearchClient(settings.research_url, client=client, service_token=token)
    extraction = ExtractionClient(settings.extraction_url, client=extraction_client, service_token=token)
    renderer = Renderer()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        await research.aclose()
        await extraction.aclose()

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
    app.add_middleware(BodyLimit, max_bytes=MAX_FORM_BYTES, overrides={"/documents": MAX_UPLOAD_BYTES})

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
        collected = await collect_across_years(research, request)
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

    @app.post("/across-years/stream", response_model=None)
    async def across_years_stream(request: AcrossYearsRequest) -> StreamingResponse:
        """Research's across-years stream relayed (same origin): each event the table rendered again."""
        return StreamingResponse(
            across_years_events(research, renderer, request),
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
        return page("audit.html", entries=entries, integrity=audit_status(chain))

    def file_note_or_refusal(made: Response | Refusal) -> Response:
        return made if isinstance(made, Response) else error_page(made.title, made.message, made.status)

    @app.get("/audit/{entry_id}/file-note.pdf", response_model=None)
    async def file_note_pdf(entry_id: int) -> Response:
        """The audit row's file note as PDF, made from the row (never from the browser)."""
        return file_note_or_refusal(await file_note(research, entry_id, "pdf", datetime.now(UTC)))

    @app.get("/audit/{entry_id}/file-note.md", response_model=None)
    async def file_note_markdown(entry_id: int) -> Response:
        """The audit row's file note as Markdown, made from the row (never from the browser)."""
        return file_note_or_refusal(await file_note(research, entry_id, "md", datetime.now(UTC)))

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

    @app.get("/history", response_class=HTMLResponse)
    async def history_page(q: str = "") -> HTMLResponse:
        """The recent questions, newest first; ``q`` keeps those whose question contains it."""
        search = q.strip()
        if len(search) > MAX_SEARCH_CHARS:
            problem = f"Search for at most {MAX_SEARCH_CHARS} characters (this is {len(search)})."
            return page("history.html", status=422, rows=(), q=search, problem=problem)
        try:
            found = await research.audit_search(search or None, settings.audit_rows)
        except ResearchRejected as exc:
            return page("history.html", status=422, rows=(), q=search, problem=str(exc))
        except ResearchReplyError as exc:
            return error_page(UNUSABLE, str(exc), 502)
        except ResearchUnavailable as exc:
            return error_page("Audit log unavailable", str(exc), 503)
        return page("history.html", rows=history_rows(found.entries), q=search, problem=None)

    async def history_row(audit_id: int) -> AuditEntryOut | HTMLResponse:
        try:
            return await research.audit_entry(audit_id)
        except ResearchRejected as exc:
            return error_page("Question not found", str(exc), exc.status)
        except ResearchReplyError as exc:
            return error_page(UNUSABLE, str(exc), 502)
        except ResearchUnavailable as exc:
            return error_page("Audit log unavailable", str(exc), 503)

    def history_entry_page(entry: AuditEntryOut, status: int = 200, **context: Any) -> HTMLResponse:
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
            again_period=request_period(ask_again_body(entry, given.outcome)),
            **context,
        )

    @app.get("/history/{audit_id}", response_class=HTMLResponse)
    async def history_entry(audit_id: Annotated[int, Path(ge=1)]) -> HTMLResponse:
        entry = await history_row(audit_id)
        return entry if isinstance(entry, HTMLResponse) else history_entry_page(entry)

    @app.post("/history/{audit_id}/again", response_class=HTMLResponse)
    async def history_again(audit_id: Annotated[int, Path(ge=1)]) -> HTMLResponse:
        """The row's question asked again for the same period (a new audit row), shown below the
        answer as given with what changed."""
        entry = await history_row(audit_id)
        if isinstance(entry, HTMLResponse):
            return entry
        given = answer_as_given(entry).outcome
        try:
            now = await research.research(ask_again_body(entry, given))
        except ResearchRejected as exc:
            return history_entry_page(entry, exc.status, again_problem=f"Not asked again: {exc}")
        except ResearchReplyError as exc:
            return history_entry_page(entry, 502, again_problem=f"{UNUSABLE}: {exc}")
        except ResearchUnavailable as exc:
            return history_entry_page(entry, 503, again_problem=f"Not asked again: {exc}")
        again_html = render_outcome(renderer, now, TurnRequest(entry.record.question, None, None))["html"]
        changes = compare_outcomes(given, now) if given is not None else None
        return history_entry_page(entry, again=now, again_html=again_html, changes=changes)

    def extraction_error(exc: ExtractionRejected | ExtractionUnavailable) -> HTMLResponse:
        if isinstance(exc, ExtractionRejected):
            title = "Document not found" if exc.status == 404 else "The extraction service refused the request"
            return error_page(title, str(exc), exc.status)
        if isinstance(exc, ExtractionReplyError):
            return error_page("Extraction service reply unusable", str(exc), 502)
        return error_page("Extraction service unavailable", str(exc), 503)

    async def documents_page(status: int = 200, **context: Any) -> HTMLResponse:
        try:
            listed = await extraction.transactions(settings.document_rows)
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
            }
            for t in listed.transactions
        ]
        context = {"results": None, "problem": None} | context
        return page("documents.html", status=status, rows=rows, **context)

    async def review_page(document_id: UUID, status: int = 200, **context: Any) -> HTMLResponse:
        try:
            detail = await extraction.document(document_id)
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
            reply = await extraction.upload(uploads)
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
            original = await extraction.original(document_id)
        except (ExtractionRejected, ExtractionUnavailable) as exc:
            return extraction_error(exc)
        disposition = "inline" if original.media_type in IMAGE_TYPES else "attachment"
        headers = {"content-disposition": f'{disposition}; filename="{document_id}"', "cache-control": "no-store"}
        return Response(original.content, media_type=original.media_type, headers=headers)

    @app.get("/documents/{document_id}/pages/{page}", response_model=None)
    async def document_page_image(document_id: UUID, page: Annotated[int, Path(ge=1, le=10_000)]) -> Response:
        """One page of the original rendered as PNG by extraction, relayed (same origin: the policy allows it)."""
        try:
            image = await extraction.page(document_id, page)
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
            detail = await extraction.document(document_id)
            await extraction.correct(detail.transaction.id, body)
        except ExtractionRejected as exc:
            if exc.status == 404:
                return extraction_error(exc)
            return await review_page(document_id, status=exc.status, problem=f"Not saved: {exc}", form=form)
        except ExtractionUnavailable as exc:
            return extraction_error(exc)
        saved = name if "changes" in body else (decision or "")
        return RedirectResponse(f"/documents/{document_id}?saved={quote(saved)}#corrections", status_code=303)

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
