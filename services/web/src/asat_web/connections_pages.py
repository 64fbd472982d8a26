"""Settings → Connections (Xero, HubSpot) and the Documents page's Push to Xero (docs/connections.md).

Every route acts for the session's practice only, through the connections library
(``asat_connections``: the practice's own Xero app, OAuth 2.0 with PKCE, draft bills; HubSpot
companies imported as clients). Who may do what is ``asat_accounts.permissions``: owners save the
Xero app, connect and disconnect clients and the HubSpot token (``MANAGE_CONNECTIONS``); owners
and agents push reviewed transactions (``PUSH_TO_XERO``) and import companies
(``IMPORT_CLIENTS``); everyone reads the page. A client id of another practice is not found (404)
before anything is sent to a provider. Nothing secret is rendered back: credential fields are
always empty, only the library's masked hints are shown, and any message that would carry what
was typed has it replaced.

When the server has no connections (``ASAT_DATABASE_URL`` / the connection tables / a setting
missing: ``python -m asat_web`` says why at start), the page says so and every action answers 503
with the reason: never a silent no-op.

``background_refresh`` refreshes the Xero tokens due (``xero.refresh_all()``) every 5 minutes for
the app's lifetime (started by the app's lifespan).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import parse_qs, urlsplit
from uuid import UUID

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from asat_accounts.model import Client
from asat_accounts.permissions import Action
from asat_accounts.secret_box import SecretDecryptError, SecretKeyError
from asat_accounts.store import AccountsStore
from asat_connections import (
    AuthorisationError,
    ConnectionConflictError,
    Connections,
    ConnectionsError,
    ConnectionsInputError,
    ConnectionsStoreError,
    ConnectionStatus,
    MissingScopesError,
    NeedsReauthorisationError,
    NotConnectedError,
    ProviderRefusedError,
    ProviderUnavailableError,
    PushOutcome,
    PushReport,
    PushResult,
    PushState,
    SourceNotFoundError,
    SourceUnavailableError,
)
from asat_web.auth import Refused, practice_id, require
from asat_web.security_headers import CONTENT_SECURITY_POLICY

log = logging.getLogger(__name__)

Page = Callable[..., HTMLResponse]
DocumentsPage = Callable[..., Awaitable[HTMLResponse]]
ClientId = Annotated[int, Path(ge=1)]
REFRESH_EVERY_S = 300.0
MAX_PUSH = 100  # transactions one Push may carry
REVIEWED = frozenset({"confirmed", "corrected"})
NOT_CONFIGURED = (
    "Connections are not configured on this server: the web needs the accounts database "
    "(ASAT_DATABASE_URL, migrated by `python -m asat_accounts migrate`) and ASAT_SECRET_KEY, "
    "and was started without them. Nothing here can be saved or sent until it is."
)
RESULT_WORDS = {
    PushResult.CREATED: "in Xero (new draft bill)",
    PushResult.FOUND: "in Xero (found: an earlier attempt had created it)",
    PushResult.ALREADY_PUSHED: "in Xero already (nothing sent)",
    PushResult.ATTACHED: "in Xero (its document attached now)",
    PushResult.FAILED: "not pushed",
    PushResult.REFUSED: "refused",
}


def status_of(exc: ConnectionsError) -> int:
    """The HTTP status a page answers with for one of the library's errors (docs/connections.md)."""
    if isinstance(exc, ConnectionsInputError):
        return 422
    if isinstance(exc, NotConnectedError | ConnectionConflictError | NeedsReauthorisationError):
        return 409
    if isinstance(exc, AuthorisationError):
        return 400
    if isinstance(exc, ProviderRefusedError):
        return 502
    if isinstance(exc, SourceNotFoundError):
        return 404
    if isinstance(exc, ProviderUnavailableError | SourceUnavailableError | ConnectionsStoreError):
        return 503
    return 500


def without(text: str, *secrets: str) -> str:
    """``text`` with every one of ``secrets`` (what was typed) replaced, should a message carry it."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[hidden]")
    return text


def outcome_row(outcome: PushOutcome, retry_at: str | None) -> dict[str, Any]:
    """One transaction's push result as the Documents page shows it."""
    in_xero = outcome.result in (PushResult.CREATED, PushResult.FOUND, PushResult.ALREADY_PUSHED, PushResult.ATTACHED)
    kind = "in-xero" if in_xero else outcome.result.value
    if outcome.result is PushResult.FAILED and retry_at is not None and outcome.retryable:
        kind = "rate-limited"
    return {
        "transaction_id": str(outcome.transaction_id),
        "result": outcome.result.value,
        "kind": kind,
        "words": RESULT_WORDS[outcome.result],
        "invoice_id": outcome.invoice_id,
        "message": outcome.message,
        "retryable": outcome.retryable,
        "warnings": list(outcome.warnings),
    }


def report_view(report: PushReport) -> dict[str, Any]:
    retry_at = report.retry_at.isoformat(timespec="seconds") if report.retry_at is not None else None
    return {
        "outcomes": [outcome_row(o, retry_at) for o in report.outcomes],
        "retry_at": retry_at,
        "new_bills": report.new_bills,
        "contacts_created": report.contacts_created,
    }


@dataclass(frozen=True)
class ConnectionsWeb:
    """The connections as the web has them: the library's (``None`` when not configured, with why)."""

    connections: Connections | None
    problem: str
    store: AccountsStore

    def require_configured(self) -> Connections:
        if self.connections is None:
            raise Refused(503, "Connections not configured", self.problem or NOT_CONFIGURED)
        return self.connections

    def client_or_404(self, client_id: int) -> Client:
        found = self.store.client(practice_id(), client_id)
        if found is None:
            raise Refused(404, "Client not found", f"There is no client {client_id} in this practice.")
        return found

    def documents_context(self, transaction_ids: Sequence[UUID]) -> dict[str, Any]:
        """What the Documents page shows of Xero: which transactions are in it (or failed), and the
        clients connected to an organisation (the Push form's choice)."""
        if self.connections is None:
            return {"push": {"enabled": False, "problem": self.problem or NOT_CONFIGURED, "clients": [], "pushed": {}}}
        pid = practice_id()
        try:
            records = self.connections.push.pushed(pid, list(transaction_ids)) if transaction_ids else {}
            connected = {
                c.client_id: c.tenant.name if c.tenant else ""
                for c in self.connections.xero.connections(pid)
                if c.status is ConnectionStatus.CONNECTED
            }
        except ConnectionsError as exc:
            return {
                "push": {"enabled": False, "problem": f"Xero pushes cannot be read: {exc}", "clients": [], "pushed": {}}
            }
        clients = [
            {"id": c.id, "name": c.name, "organisation": connected[c.id]}
            for c in self.store.clients(pid)
            if c.id in connected
        ]
        pushed = {
            str(t): {"state": r.state.value, "invoice_id": r.invoice_id, "problem": r.problem, "retryable": r.retryable}
            for t, r in records.items()
            if r.state in (PushState.PUSHED, PushState.FAILED)
        }
        return {"push": {"enabled": True, "problem": None, "clients": clients, "pushed": pushed}}


@dataclass(frozen=True)
class ConnectionsDeps:
    web: ConnectionsWeb
    page: Page
    documents_page: DocumentsPage  # the Documents list, re-rendered with a push's results


def connections_router(deps: ConnectionsDeps) -> APIRouter:
    router = APIRouter()
    web = deps.web

    def connections_page(status: int = 200, **context: Any) -> HTMLResponse:
        context = {"problem": None, "done": None, "report": None, "missing_scopes": ()} | context
        if web.connections is None:
            return deps.page(
                "settings_connections.html",
                status=status,
                configured=False,
                not_configured=web.problem or NOT_CONFIGURED,
                **context,
            )
        pid = practice_id()
        xero, hubspot = web.connections.xero, web.connections.hubspot
        by_client = {c.client_id: c for c in xero.connections(pid)}
        rows = [{"client": c, "connection": by_client.get(c.id)} for c in web.store.clients(pid)]
        response = deps.page(
            "settings_connections.html",
            status=status,
            configured=True,
            not_configured=None,
            app=xero.app(pid),
            rows=rows,
            hubspot=hubspot.view(pid),
            **context,
        )
        # Connect posts to this site, which redirects the browser to Xero's login page: the page's
        # form-action must allow that one origin too (a browser checks a form's redirects).
        login = urlsplit(web.connections.settings.xero_login_url)
        policy = CONTENT_SECURITY_POLICY.replace(
            "form-action 'self'", f"form-action 'self' {login.scheme}://{login.netloc}"
        )
        response.headers["content-security-policy"] = policy
        return response

    async def show(status: int = 200, **context: Any) -> HTMLResponse:
        return await run_in_threadpool(connections_page, status, **context)

    async def failed(exc: Exception, *typed: str) -> HTMLResponse:
        if isinstance(exc, ConnectionsError):
            status, message = status_of(exc), str(exc)
        else:  # the secret store: no ASAT_SECRET_KEY, or a key that no longer opens the sealed value
            status, message = 503, f"The sealed credentials cannot be used: {exc}"
        extra: dict[str, Any] = {}
        if isinstance(exc, MissingScopesError):
            extra["missing_scopes"] = exc.missing
        return await show(status, problem=without(message, *typed), **extra)

    @router.get("/settings/connections", response_class=HTMLResponse)
    async def connections(connected: int | None = None) -> HTMLResponse:
        done = None
        if connected is not None and web.connections is not None:
            found = await run_in_threadpool(web.store.client, practice_id(), connected)
            if found is not None:
                done = f"{found.name} is connected to Xero."
        return await show(done=done)

    # --- Xero ------------------------------------------------------------------------------------

    @router.post("/settings/connections/xero/app", response_class=HTMLResponse)
    async def save_xero_app(request: Request) -> HTMLResponse:
        require(Action.MANAGE_CONNECTIONS)
        found = web.require_configured()
        fields = await _fields(request)
        client_id, secret = fields.get("client_id", ""), fields.get("client_secret", "")
        try:
            await run_in_threadpool(found.xero.save_app, practice_id(), client_id, secret)
        except (ConnectionsError, SecretKeyError, SecretDecryptError) as exc:
            return await failed(exc, client_id.strip(), secret.strip())
        return await show(done="Xero app saved; its client id and secret are kept sealed.")

    @router.post("/settings/connections/xero/{client_id}/connect", response_model=None)
    async def connect_xero(client_id: ClientId) -> Response:
        require(Action.MANAGE_CONNECTIONS)
        await run_in_threadpool(web.client_or_404, client_id)
        found = web.require_configured()
        try:
            start = await run_in_threadpool(found.xero.start_authorisation, practice_id(), client_id)
        except (ConnectionsError, SecretKeyError, SecretDecryptError) as exc:
            return await failed(exc)
        return RedirectResponse(start.url, status_code=303, headers={"cache-control": "no-store"})

    @router.get("/connections/xero/callback", response_model=None)
    async def xero_callback(request: Request) -> Response:
        """Xero sends the browser back here with ``code`` and ``state`` (or ``error``)."""
        require(Action.MANAGE_CONNECTIONS)
        found = web.require_configured()
        params = dict(request.query_params)
        try:
            connection = await run_in_threadpool(found.xero.finish_authorisation, practice_id(), params)
        except (ConnectionsError, SecretKeyError, SecretDecryptError) as exc:
            return await failed(exc, *params.values())
        if connection.status is ConnectionStatus.CHOOSE_ORGANISATION:
            return await show(done="Xero authorised several organisations: choose the client's below.")
        return RedirectResponse(
            f"/settings/connections?connected={connection.client_id}",
            status_code=303,
            headers={"cache-control": "no-store"},
        )

    @router.post("/settings/connections/xero/{client_id}/organisation", response_class=HTMLResponse)
    async def choose_organisation(client_id: ClientId, request: Request) -> HTMLResponse:
        require(Action.MANAGE_CONNECTIONS)
        client = await run_in_threadpool(web.client_or_404, client_id)
        found = web.require_configured()
        tenant_id = (await _fields(request)).get("tenant_id", "")
        try:
            connection = await run_in_threadpool(found.xero.choose_organisation, practice_id(), client_id, tenant_id)
        except (ConnectionsError, SecretKeyError, SecretDecryptError) as exc:
            return await failed(exc)
        organisation = connection.tenant.name if connection.tenant else "the organisation"
        return await show(done=f"{client.name} is connected to {organisation} in Xero.")

    @router.post("/settings/connections/xero/{client_id}/disconnect", response_class=HTMLResponse)
    async def disconnect_xero(client_id: ClientId) -> HTMLResponse:
        require(Action.MANAGE_CONNECTIONS)
        client = await run_in_threadpool(web.client_or_404, client_id)
        found = web.require_configured()
        try:
            report = await run_in_threadpool(found.xero.disconnect, practice_id(), client_id)
        except (ConnectionsError, SecretKeyError, SecretDecryptError) as exc:
            return await failed(exc)
        done = f"{client.name} is disconnected from Xero."
        return await show(done=done if report.revoked_at_xero else f"{done} {report.message}")

    # --- HubSpot ---------------------------------------------------------------------------------

    @router.post("/settings/connections/hubspot", response_class=HTMLResponse)
    async def connect_hubspot(request: Request) -> HTMLResponse:
        require(Action.MANAGE_CONNECTIONS)
        found = web.require_configured()
        token = (await _fields(request)).get("token", "")
        try:
            view = await run_in_threadpool(found.hubspot.connect, practice_id(), token)
        except (ConnectionsError, SecretKeyError, SecretDecryptError) as exc:
            return await failed(exc, token.strip())
        return await show(done=f"HubSpot account {view.hub_id} connected; the token is kept sealed.")

    @router.post("/settings/connections/hubspot/import", response_class=HTMLResponse)
    async def import_hubspot() -> HTMLResponse:
        require(Action.IMPORT_CLIENTS)
        found = web.require_configured()
        try:
            report = await run_in_threadpool(found.hubspot.import_companies, practice_id())
        except (ConnectionsError, SecretKeyError, SecretDecryptError) as exc:
            return await failed(exc)
        return await show(done="HubSpot companies imported.", report=report)

    @router.post("/settings/connections/hubspot/disconnect", response_class=HTMLResponse)
    async def disconnect_hubspot() -> HTMLResponse:
        require(Action.MANAGE_CONNECTIONS)
        found = web.require_configured()
        try:
            had = await run_in_threadpool(found.hubspot.disconnect, practice_id())
        except (ConnectionsError, SecretKeyError, SecretDecryptError) as exc:
            return await failed(exc)
        return await show(done="HubSpot disconnected; its token is deleted." if had else "HubSpot was not connected.")

    # --- Push to Xero ----------------------------------------------------------------------------

    @router.post("/documents/push", response_class=HTMLResponse)
    async def push(request: Request) -> HTMLResponse:
        """The selected reviewed transactions pushed to the chosen client's Xero organisation."""
        require(Action.PUSH_TO_XERO)
        body = parse_qs((await request.body()).decode("utf-8", "replace"))
        raw_client = (body.get("client_id") or [""])[0]
        try:
            client_id = int(raw_client)
        except ValueError:
            return await deps.documents_page(422, problem="Choose the client whose Xero organisation gets the bills.")
        if client_id < 1:
            return await deps.documents_page(422, problem="Choose the client whose Xero organisation gets the bills.")
        await run_in_threadpool(web.client_or_404, client_id)
        found = web.require_configured()
        try:
            ids = list(dict.fromkeys(UUID(v) for v in body.get("transaction_id", [])))
        except ValueError:
            return await deps.documents_page(422, problem="A selected transaction id is not valid: reload the page.")
        if not ids:
            return await deps.documents_page(422, problem="Select at least one reviewed transaction to push.")
        if len(ids) > MAX_PUSH:
            return await deps.documents_page(422, problem=f"Push at most {MAX_PUSH} transactions at once.")
        try:
            report = await run_in_threadpool(found.push.push, practice_id(), client_id, ids)
        except (ConnectionsError, SecretKeyError, SecretDecryptError) as exc:
            status = status_of(exc) if isinstance(exc, ConnectionsError) else 503
            return await deps.documents_page(status, problem=f"Nothing was pushed to Xero: {exc}")
        return await deps.documents_page(push_report=report_view(report))

    return router


@contextlib.asynccontextmanager
async def background_refresh(
    connections: Connections | None, every_s: float = REFRESH_EVERY_S
) -> AsyncIterator[asyncio.Task[None] | None]:
    """While the app runs: ``xero.refresh_all()`` every ``every_s`` seconds (tokens due within ten
    minutes are refreshed; a failure is logged by type and the loop goes on)."""
    if connections is None:
        yield None
        return

    async def loop() -> None:
        while True:
            await asyncio.sleep(every_s)
            try:
                await run_in_threadpool(connections.xero.refresh_all)
            except Exception as exc:
                log.warning("xero background refresh failed (%s); next try in %.0f s", type(exc).__name__, every_s)

    task = asyncio.create_task(loop(), name="xero-refresh")
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _fields(request: Request) -> dict[str, str]:
    body = (await request.body()).decode("utf-8", "replace")
    return {k: v[0] for k, v in parse_qs(body, keep_blank_values=True).items()}
