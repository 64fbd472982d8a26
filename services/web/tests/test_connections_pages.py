"""Settings → Connections and Push to Xero, through the web's routes with signed-in clients, against
the connections library's wire-level fakes (FakeXero, FakeHubSpot) and the stub extraction service,
each served on a free local port (``asat_connections.testing.serve_all``); the library's stores are
in memory, the accounts store is the web's own. No app secret, token, code or state is in any
response the web sends."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient

from asat_accounts.fields import client_fields
from asat_accounts.memory_store import InMemoryAccountsStore
from asat_accounts.model import Role
from asat_connections import (
    Connections,
    ConnectionsSettings,
    HttpTransactionSource,
    InMemoryConnectionsStore,
    build_connections,
)
from asat_connections.testing import FakeHubSpot, FakeXero, serve_all
from asat_web.connections_pages import background_refresh
from asat_web.settings import WebSettings

from .signed_in import RESEARCH, Account, add_member, add_practice, new_store, signed_in, web_app
from .stub_extraction import create_stub as create_extraction_stub
from .stub_research import create_stub

XERO_CLIENT_ID = "0F5A2C4E6B8D0A1C3E5F7B9D1A3C5E7F"
XERO_SECRET = "fake-secret-Zq8xV3nLp0wRt6yUe2iOa9sDf4gHj7kL"
CALLBACK = "https://testserver/connections/xero/callback"
SCOPES = ["crm.objects.companies.read", "crm.schemas.companies.read"]


@dataclass
class World:
    store: InMemoryAccountsStore
    owner: Account
    agent: Account
    reviewer: Account
    client_id: int
    other_client_id: int
    xero: FakeXero
    hubspot: FakeHubSpot
    tenant: str
    other_tenant: str
    connections: Connections
    web: TestClient
    secrets: list[str]  # everything that must never be in a response

    def as_(self, account: Account) -> TestClient:
        return signed_in(self.web.app, account)  # type: ignore[arg-type]


@pytest.fixture
def world() -> Iterator[World]:
    store = new_store()
    owner = add_practice(store)
    agent = add_member(owner, "agent@practice.test", Role.AGENT)
    reviewer = add_member(owner, "reviewer@practice.test", Role.REVIEWER)
    client = store.add_client(owner.practice_id, client_fields("Client One Pty Ltd"))
    other = store.add_client(owner.practice_id, client_fields("Client Two Pty Ltd"))
    xero, hubspot = FakeXero(), FakeHubSpot()
    tenant = xero.add_organisation("Client One (Xero)")
    other_tenant = xero.add_organisation("Client Two (Xero)")
    xero.register_app(XERO_CLIENT_ID, XERO_SECRET, CALLBACK)
    extraction = create_extraction_stub()
    with serve_all(xero.app, hubspot.app, extraction) as (xero_at, hubspot_at, extraction_at):
        settings = ConnectionsSettings.model_validate(
            {
                "ASAT_APP_URL": "https://testserver",
                "ASAT_XERO_LOGIN_URL": xero_at.url,
                "ASAT_XERO_IDENTITY_URL": xero_at.url,
                "ASAT_XERO_API_URL": xero_at.url,
                "ASAT_HUBSPOT_API_URL": hubspot_at.url,
                "ASAT_CONNECTIONS_TIMEOUT": 5,
            }
        )
        source = HttpTransactionSource(extraction_at.url, None)
        connections = build_connections(settings, store, InMemoryConnectionsStore(), source, sleep=lambda _: None)
        web_settings = WebSettings(research_url=RESEARCH, extraction_url=extraction_at.url)
        # The web reaches the same stub in process (one app: the same documents); the source over HTTP.
        in_process = httpx.AsyncClient(transport=httpx.ASGITransport(app=extraction), base_url=extraction_at.url)
        app = web_app(
            create_stub(), store, settings=web_settings, connections=connections, extraction_client=in_process
        )
        try:
            yield World(
                store, owner, agent, reviewer, client.id, other.id, xero, hubspot, tenant, other_tenant,
                connections, signed_in(app, owner), [XERO_SECRET, XERO_CLIENT_ID],
            )  # fmt: skip
        finally:
            connections.close()
            source.close()


def clean(world: World, reply: httpx.Response) -> httpx.Response:
    """``reply``, once checked to carry no secret, token, code or state (body, headers)."""
    everything = reply.text + " ".join(f"{k}: {v}" for k, v in reply.headers.items())
    for secret in [*world.secrets, *world.xero.issued]:
        assert secret not in everything, "a secret reached a response"
    return reply


def connect(world: World, client_id: int, web: TestClient | None = None) -> httpx.Response:
    """The dance as the browser does it: Connect → Xero's authorize page → the callback."""
    web = web or world.web
    started = web.post(f"/settings/connections/xero/{client_id}/connect", follow_redirects=False)
    assert started.status_code == 303, started.text
    at_xero = httpx.get(started.headers["location"], follow_redirects=False)
    assert at_xero.status_code == 302
    back = urlsplit(at_xero.headers["location"])
    assert f"{back.scheme}://{back.netloc}{back.path}" == CALLBACK
    world.secrets += [v[0] for k, v in parse_qs(back.query).items() if k in ("code", "state")]
    return clean(world, web.get(f"{back.path}?{back.query}", follow_redirects=False))


def save_app(world: World) -> httpx.Response:
    return clean(
        world,
        world.web.post(
            "/settings/connections/xero/app", data={"client_id": XERO_CLIENT_ID, "client_secret": XERO_SECRET}
        ),
    )


def test_the_page_shows_the_redirect_uri_to_register_and_saves_the_app_sealed(world: World) -> None:
    page = clean(world, world.web.get("/settings/connections"))
    assert page.status_code == 200
    assert CALLBACK in page.text and "not saved yet" in page.text
    login = world.connections.settings.xero_login_url.rstrip("/")
    assert f"form-action 'self' {login}" in page.headers["content-security-policy"]  # Connect redirects there
    saved = save_app(world)
    assert saved.status_code == 200 and "Xero app saved" in saved.text
    assert XERO_SECRET[-4:] in saved.text or "…" in saved.text  # the hint only
    assert 'name="client_secret" value=""' in saved.text
    bad = clean(world, world.web.post("/settings/connections/xero/app", data={"client_id": "x", "client_secret": ""}))
    assert bad.status_code == 422


def test_connect_a_client_through_xero_s_consent_then_disconnect(world: World) -> None:
    save_app(world)
    back = connect(world, world.client_id)
    assert back.status_code == 303 and back.headers["location"] == f"/settings/connections?connected={world.client_id}"
    page = clean(world, world.web.get(back.headers["location"]))
    assert "Client One Pty Ltd is connected to Xero." in page.text
    assert "status-connected" in page.text and "Client One (Xero)" in page.text
    replayed = clean(world, world.web.get(f"/connections/xero/callback?code=abc&state={world.secrets[-1]}"))
    assert replayed.status_code == 400  # a state is single-use
    gone = clean(world, world.web.post(f"/settings/connections/xero/{world.client_id}/disconnect"))
    assert gone.status_code == 200 and "disconnected from Xero" in gone.text
    assert "status-connected" not in gone.text


def test_several_organisations_are_offered_and_the_chosen_one_bound(world: World) -> None:
    save_app(world)
    world.xero.consent(world.tenant, world.other_tenant)
    chooser = connect(world, world.client_id)
    assert chooser.status_code == 200 and "choose the client" in chooser.text
    assert 'name="tenant_id"' in chooser.text and "Client Two (Xero)" in chooser.text
    chosen = world.web.post(
        f"/settings/connections/xero/{world.client_id}/organisation", data={"tenant_id": world.other_tenant}
    )
    assert chosen.status_code == 200 and "connected to Client Two (Xero)" in clean(world, chosen).text


def test_a_refused_consent_says_so(world: World) -> None:
    save_app(world)
    world.xero.deny_next_consent()
    refused = connect(world, world.client_id)
    assert refused.status_code == 400 and 'role="alert"' in refused.text


def test_only_owners_manage_connections_agents_push_and_import_reviewers_neither(world: World) -> None:
    agent, reviewer = world.as_(world.agent), world.as_(world.reviewer)
    form = {"client_id": XERO_CLIENT_ID, "client_secret": XERO_SECRET}
    assert agent.post("/settings/connections/xero/app", data=form).status_code == 403
    assert agent.post(f"/settings/connections/xero/{world.client_id}/connect").status_code == 403
    assert agent.post("/settings/connections/hubspot", data={"token": "pat-na1-x"}).status_code == 403
    assert agent.get("/connections/xero/callback?code=a&state=b").status_code == 403
    assert agent.post("/settings/connections/hubspot/import").status_code == 409  # allowed, but nothing connected
    assert reviewer.post("/settings/connections/hubspot/import").status_code == 403
    assert reviewer.post("/documents/push", data={"client_id": world.client_id}).status_code == 403
    page = agent.get("/settings/connections")
    assert page.status_code == 200 and "Only owners save the Xero app" in page.text
    assert world.connections.xero.app(world.owner.practice_id).configured is False


def test_csrf_is_required_on_every_form(world: World) -> None:
    bare = signed_in(world.web.app, world.owner, csrf_header=False)  # type: ignore[arg-type]
    for path in (
        "/settings/connections/xero/app",
        f"/settings/connections/xero/{world.client_id}/connect",
        f"/settings/connections/xero/{world.client_id}/organisation",
        f"/settings/connections/xero/{world.client_id}/disconnect",
        "/settings/connections/hubspot",
        "/settings/connections/hubspot/import",
        "/settings/connections/hubspot/disconnect",
        "/documents/push",
    ):
        assert bare.post(path, data={"x": "1"}).status_code == 403, path
    assert 'name="csrf_token"' in world.web.get("/settings/connections").text


def test_hubspot_missing_scopes_are_named_then_companies_imported_with_counts(world: World) -> None:
    narrow = world.hubspot.issue_token(["crm.objects.companies.read"])
    world.secrets.append(narrow)
    refused = clean(world, world.web.post("/settings/connections/hubspot", data={"token": narrow}))
    assert refused.status_code == 422 and "crm.schemas.companies.read" in refused.text
    assert 'id="missing-scopes"' in refused.text
    token = world.hubspot.issue_token(SCOPES)
    world.secrets.append(token)
    saved = clean(world, world.web.post("/settings/connections/hubspot", data={"token": token}))
    assert saved.status_code == 200 and f"HubSpot account {world.hubspot.hub_id} connected" in saved.text
    world.hubspot.add_property("abn", "ABN")
    world.hubspot.add_company("Acme Pty Ltd", abn="51 824 753 556")
    world.hubspot.add_company("Bad Number Pty Ltd", abn="12 345 678 901")
    world.hubspot.add_company("Client One Pty Ltd")
    report = clean(world, world.web.post("/settings/connections/hubspot/import"))
    assert report.status_code == 200
    assert "<strong>2</strong> imported as new clients" in report.text
    assert "<strong>1</strong> matched to existing clients" in report.text
    assert "<strong>1</strong> with an invalid ABN" in report.text and "Bad Number Pty Ltd" in report.text
    again = clean(world, world.web.post("/settings/connections/hubspot/import"))
    assert "<strong>0</strong> imported as new clients" in again.text and "3 imported before" in again.text
    gone = clean(world, world.web.post("/settings/connections/hubspot/disconnect"))
    assert "its token is deleted" in gone.text and "not connected" in gone.text


def _reviewed_transaction(world: World) -> str:
    uploaded = world.web.post("/documents", files={"files": ("inv-42.pdf", b"%PDF-1.4 one", "application/pdf")})
    assert uploaded.status_code == 200
    listed = world.web.get("/documents")
    document_id = listed.text.split('href="/documents/', 1)[1].split('"', 1)[0]
    decided = world.web.post(
        f"/documents/{document_id}/corrections",
        data={"who": "Jo", "review_status": "confirmed"},
        follow_redirects=False,
    )
    assert decided.status_code == 303
    return listed.text.split('data-transaction="', 1)[1].split('"', 1)[0]


def test_push_a_reviewed_transaction_to_xero_and_see_it_marked(world: World) -> None:
    save_app(world)
    connect(world, world.client_id)
    transaction_id = _reviewed_transaction(world)
    listed = world.web.get("/documents")
    assert f'name="transaction_id" value="{transaction_id}"' in listed.text
    assert f'<option value="{world.client_id}">Client One Pty Ltd (Client One (Xero))' in listed.text
    pushed = clean(
        world, world.web.post("/documents/push", data={"client_id": world.client_id, "transaction_id": transaction_id})
    )
    assert pushed.status_code == 200, pushed.text
    invoices = world.xero.invoices(world.tenant)
    assert len(invoices) == 1 and invoices[0]["Status"] == "DRAFT"
    invoice_id = invoices[0]["InvoiceID"]
    assert 'data-result="created"' in pushed.text and "in Xero (new draft bill)" in pushed.text
    assert invoice_id in pushed.text
    # Marked on the list: in Xero, no checkbox any more; pushing again sends nothing.
    assert "status-in-xero" in pushed.text and f'value="{transaction_id}" form="push-form"' not in pushed.text
    again = world.web.post("/documents/push", data={"client_id": world.client_id, "transaction_id": transaction_id})
    assert 'data-result="already_pushed"' in again.text and len(world.xero.invoices(world.tenant)) == 1


def test_push_reports_failures_refusals_and_rate_limits(world: World) -> None:
    save_app(world)
    connect(world, world.client_id)
    pending = world.web.post("/documents", files={"files": ("pending.pdf", b"%PDF-1.4 two", "application/pdf")})
    assert pending.status_code == 200
    not_reviewed = world.web.get("/documents").text.split('data-transaction="', 1)[1].split('"', 1)[0]
    refused = world.web.post("/documents/push", data={"client_id": world.client_id, "transaction_id": not_reviewed})
    assert 'data-result="refused"' in refused.text
    reviewed = _reviewed_transaction(world)
    world.xero.misbehave("create_invoice", "server_error", times=10)
    failed = world.web.post("/documents/push", data={"client_id": world.client_id, "transaction_id": reviewed})
    assert 'data-result="failed"' in failed.text and "can be pushed again" in failed.text
    world.xero.clear_misbehaviour()
    world.xero.misbehave("create_invoice", "rate_limit", times=10, retry_after=3600)
    limited = world.web.post("/documents/push", data={"client_id": world.client_id, "transaction_id": reviewed})
    assert "rate limit" in limited.text and "try again after" in limited.text


def test_push_needs_a_client_and_a_selection(world: World) -> None:
    assert world.web.post("/documents/push", data={}).status_code == 422
    assert world.web.post("/documents/push", data={"client_id": world.client_id}).status_code == 422
    assert world.web.post("/documents/push", data={"client_id": 999, "transaction_id": "x"}).status_code == 404


def test_without_connections_the_pages_say_so_and_actions_answer_503() -> None:
    store = new_store()
    owner = add_practice(store)
    client = store.add_client(owner.practice_id, client_fields("Client One Pty Ltd"))
    web = signed_in(web_app(create_stub(), store), owner)
    page = web.get("/settings/connections")
    assert page.status_code == 200 and 'id="not-configured"' in page.text and "ASAT_DATABASE_URL" in page.text
    form = {"client_id": XERO_CLIENT_ID, "client_secret": XERO_SECRET}
    assert web.post("/settings/connections/xero/app", data=form).status_code == 503
    assert web.post(f"/settings/connections/xero/{client.id}/connect").status_code == 503
    assert web.post("/settings/connections/hubspot/import").status_code == 503
    assert web.post("/documents/push", data={"client_id": client.id, "transaction_id": "x"}).status_code == 503


def test_the_background_refresh_runs_refresh_all_until_the_app_stops() -> None:
    calls: list[int] = []

    class Xero:
        def refresh_all(self) -> dict[int, tuple[()]]:
            calls.append(1)
            if len(calls) == 2:
                raise RuntimeError("Xero down")  # a failed round: logged, the loop goes on
            return {}

    async def run() -> None:
        fake: Any = SimpleNamespace(xero=Xero())
        async with background_refresh(fake, every_s=0.01) as task:
            while len(calls) < 3:
                await asyncio.sleep(0.01)
        assert task is not None and task.cancelled()

    asyncio.run(run())
    assert len(calls) >= 3
