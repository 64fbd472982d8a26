"""The web app as schemathesis fuzzes it (``test_openapi_fuzz.py``, ``scripts/fuzz_counts.py``).

**The schema.** The web serves its OpenAPI to signed-in users only (``/openapi.json`` is behind the
session gate), and its form routes read their bodies themselves (``parse_qs``, ``request.form``),
so their fields are not in it. :func:`fuzz_schema` is ``app.openapi()`` (what the app serves) with
each form route's body added as ``application/x-www-form-urlencoded`` (``FORMS``; the upload as
``multipart/form-data``), the Xero callback's query, and the ids that exist in a fresh world
offered beside any other value; what the app serves is unchanged.

**The world.** One web app over swappable parts: the accounts store and the connections store are
replaced, and the stub extraction emptied, before every case (:meth:`FuzzWorld.fresh`), so a case
sees the same state whatever ran before it (a sign-out, a removed member, a saved provider): a
practice (id 1) whose owner is signed in with a new session, the stub research's audit rows 1 to 5
in its research history, client 1, the extractive provider saved, a document (``DOCUMENT``) in the
stub extraction, the practice's Xero app saved, and HubSpot connected on the connections pages. Xero and HubSpot are the
connections library's wire-level fakes, served on free local ports with the stub extraction (the
push reads transactions over HTTP).
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import httpx
from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send

from asat_accounts.fields import client_fields
from asat_accounts.memory_store import InMemoryAccountsStore
from asat_accounts.model import Role
from asat_accounts.sessions import new_token
from asat_accounts.store import AccountsStore
from asat_connections import (
    Connections,
    ConnectionsSettings,
    HttpTransactionSource,
    InMemoryConnectionsStore,
    build_connections,
)
from asat_connections.store import ConnectionsStore
from asat_connections.testing import FakeHubSpot, FakeXero, serve_all
from asat_corpus.contracts.provider import PROVIDERS
from asat_corpus.contracts.research import MAX_QUESTION_CHARS
from asat_web.auth import CSRF_FIELD, CSRF_HEADER, SESSION_COOKIE, SIGN_IN_COOKIE
from asat_web.documents_view import EDITABLE
from asat_web.settings import WebSettings

from . import stub_extraction
from .signed_in import OWNER_EMAIL, PASSWORD, RESEARCH, Account, add_practice, new_store, record_stub_rows, web_app
from .stub_research import create_stub as create_research_stub

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"
XERO_CLIENT_ID = "0F5A2C4E6B8D0A1C3E5F7B9D1A3C5E7F"
XERO_SECRET = "fake-secret-Zq8xV3nLp0wRt6yUe2iOa9sDf4gHj7kL"
CALLBACK = "https://testserver/connections/xero/callback"
HUBSPOT_SCOPES = ["crm.objects.companies.read", "crm.schemas.companies.read"]
DOCUMENT = "8c4f7e2a-1b3d-4e5f-9a6b-7c8d9e0f1a2b"  # the stub extraction's document in every fresh world
TRANSACTION = "1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
CONNECTIONS_PAGES = "/settings/connections"  # the pages that show the HubSpot connection
SIGN_IN_TOKEN = "fuzz-sign-in-form-token-" + "s" * 24  # the sign-in form's double-submit cookie and field

TEXT: dict[str, Any] = {"type": "string"}
DAY: dict[str, Any] = {"type": "string", "format": "date"}
ID: dict[str, Any] = {"type": "integer", "minimum": 1}


def enum(*values: str) -> dict[str, Any]:
    return {"enum": list(values)}


def form(required: tuple[str, ...], **fields: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": fields, "required": list(required), "additionalProperties": False}


# Every route that reads a form of its own: what its form sends when filled in as the page asks
# (choices, dates, ids), so that positive cases get past the form to the work behind it, and
# negative ones (anything else) test the form's own refusals. A route that posts no fields (a
# button) is in BUTTONS; test_openapi_fuzz checks that every POST is in one or the other.
FORMS: dict[str, dict[str, Any]] = {
    "/sign-in": form(
        ("email", "password", CSRF_FIELD),
        email={"anyOf": [enum(OWNER_EMAIL), {"type": "string", "format": "email"}]},
        password={"anyOf": [enum(PASSWORD), TEXT]},  # the owner's, sometimes: a sign-in that succeeds
        next=TEXT,
        **{CSRF_FIELD: enum(SIGN_IN_TOKEN)},
    ),
    "/sign-in/practice": form(("practice_id",), practice_id=ID, next=TEXT),
    "/account/password": form(
        ("current", "new", "again"), current=enum(PASSWORD), new={"type": "string", "minLength": 12}, again=TEXT
    ),
    "/settings/members": form(("email", "role"), email={"type": "string", "format": "email"}, role=enum(*Role)),
    "/settings/members/{user_id}/role": form(("role",), role=enum(*Role)),
    "/settings/clients": form(
        ("name",), name={"type": "string", "minLength": 1}, abn=enum("51 824 753 556", ""), notes=TEXT
    ),
    "/settings/clients/{client_id}": form(
        ("name",), name={"type": "string", "minLength": 1}, abn=enum("51 824 753 556", ""), notes=TEXT
    ),
    "/settings/provider": form(
        ("provider",),
        provider=enum(*PROVIDERS),
        base_url={"type": "string", "format": "uri"},
        model=TEXT,
        api_key=TEXT,
        remove_key=enum("yes"),
    ),
    "/research": form(
        ("question",),
        question={"type": "string", "minLength": 1, "maxLength": MAX_QUESTION_CHARS},
        client_id=enum("1", ""),
        period=enum("question", "income_year", "as_of", "as_known_on"),
        income_year={"type": "integer", "minimum": 1900, "maximum": 2100},
        as_of=DAY,
        as_known_on=DAY,
    ),
    "/documents/{document_id}/corrections": form(
        ("who",),
        who={"type": "string", "minLength": 1},
        note=TEXT,
        review_status=enum("confirmed", "rejected"),
        field=enum(*EDITABLE),
        value=TEXT,
    ),
    "/settings/connections/xero/app": form(
        ("client_id", "client_secret"), client_id=enum(XERO_CLIENT_ID), client_secret=enum(XERO_SECRET)
    ),
    "/settings/connections/xero/{client_id}/organisation": form(
        ("tenant_id",), tenant_id={"type": "string", "format": "uuid"}
    ),
    "/settings/connections/hubspot": form(("token",), token={"type": "string", "minLength": 1}),
    "/documents/push": form(
        ("client_id", "transaction_id"),
        client_id=ID,
        transaction_id={"type": "array", "minItems": 1, "items": {"anyOf": [enum(TRANSACTION), {"format": "uuid"}]}},
    ),
}
UPLOAD = form(("files",), files={"type": "array", "minItems": 1, "items": {"type": "string", "format": "binary"}})
BUTTONS = frozenset(
    {
        "/sign-out",
        "/settings/members/{user_id}/remove",
        "/settings/clients/{client_id}/archive",
        "/settings/provider/check",
        "/history/{audit_id}/again",
        "/settings/connections/xero/{client_id}/connect",
        "/settings/connections/xero/{client_id}/disconnect",
        "/settings/connections/hubspot/import",
        "/settings/connections/hubspot/disconnect",
    }
)
# The Xero callback reads its query itself (``code`` and ``state``, or ``error``).
CALLBACK_QUERY = ("code", "state", "error")


def fuzz_schema(app: FastAPI) -> dict[str, Any]:
    """``app.openapi()`` with the form bodies, the callback's query and the seeded ids added."""
    document = copy.deepcopy(app.openapi())
    paths: dict[str, dict[str, Any]] = document["paths"]
    for path, body in FORMS.items():
        paths[path]["post"]["requestBody"] = {"required": True, "content": {FORM: {"schema": body}}}
    paths["/documents"]["post"]["requestBody"] = {"required": True, "content": {MULTIPART: {"schema": UPLOAD}}}
    paths["/connections/xero/callback"]["get"]["parameters"] = [
        {"name": name, "in": "query", "required": name != "error", "schema": TEXT} for name in CALLBACK_QUERY
    ]
    for operations in paths.values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == "document_id" and parameter["in"] == "path":
                    parameter["schema"] = {"anyOf": [{"enum": [DOCUMENT]}, parameter["schema"]]}
    return document


class Swappable:
    """Stands for the object of the current case: every attribute is read from ``target``."""

    def __init__(self, target: object) -> None:
        self.target = target

    def __getattr__(self, name: str) -> Any:
        return getattr(self.target, name)


class Dispatch:
    """An ASGI app that serves with ``app``, replaceable between cases. Its lifespan is its own:
    the app's is not run (the world owns the app's clients, which the app's shutdown would close,
    and schemathesis ends a lifespan after every test), so no background Xero refresh runs either."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return


def seed_extraction(stub: FastAPI) -> None:
    """Empty the stub extraction but for ``DOCUMENT`` (a PDF) and its transaction ``TRANSACTION``."""
    for kept in ("documents", "transactions", "contents", "patches", "uploads", "practices"):
        getattr(stub.state, kept).clear()
    read = stub_extraction.extraction()
    stub.state.documents[DOCUMENT] = {"id": DOCUMENT, "filename": "invoice.pdf", "media_type": "application/pdf",
                                      "sha256": "0" * 64, "size": 6, "created_at": stub_extraction.NOW}  # fmt: skip
    stub.state.contents[DOCUMENT] = b"%PDF-1"
    stub.state.transactions[TRANSACTION] = {
        "id": TRANSACTION, "document_id": DOCUMENT, "extractor": "deterministic", "review_status": "confirmed",
        "values": stub_extraction.flat(read), "original": stub_extraction.flat(read), "extraction": read,
        "corrections": [], "created_at": stub_extraction.NOW, "updated_at": stub_extraction.NOW,
    }  # fmt: skip


@dataclass
class FuzzWorld:
    """The web app (``app``) and the parts :meth:`fresh` replaces or resets before each case. The
    stub research is kept: it only records what it is asked, and answers the same whatever it holds."""

    app: FastAPI
    accounts: Swappable
    connections_store: Swappable
    extraction: FastAPI
    connections: Connections
    hubspot: FakeHubSpot
    owner: Account | None = None

    def fresh(self, path: str = "") -> None:
        """A new world for the next case, of ``path`` (see the module docstring). HubSpot is
        connected (a call to the fake, ~40 ms) only for the connections pages, which show it."""
        store = new_store()
        owner = add_practice(store)
        record_stub_rows(owner)
        store.add_client(owner.practice_id, client_fields("Client One Pty Ltd"))
        store.save_provider_settings(owner.practice_id, "extractive", "", "")
        self.accounts.target = store
        self.connections_store.target = InMemoryConnectionsStore()
        seed_extraction(self.extraction)
        self.connections.xero.save_app(owner.practice_id, XERO_CLIENT_ID, XERO_SECRET)
        if path.startswith(CONNECTIONS_PAGES):
            self.connections.hubspot.connect(owner.practice_id, self.hubspot.issue_token(HUBSPOT_SCOPES))
        self.owner = owner

    def signed_in_headers(self) -> dict[str, str]:
        """The headers of the practice's owner in a new session: its cookie and CSRF token."""
        owner = self.owner
        assert owner is not None, "fresh() makes the owner"
        now = datetime.now(UTC)
        token, csrf = new_token(), new_token()
        owner.store.create_session(owner.user_id, owner.practice_id, token, csrf, now, now + timedelta(hours=12))
        return {"cookie": f"{SESSION_COOKIE}={token}", CSRF_HEADER: csrf}

    @staticmethod
    def anonymous_headers() -> dict[str, str]:
        """No session; the sign-in form's cookie, which the form's ``csrf_token`` field matches."""
        return {"cookie": f"{SIGN_IN_COOKIE}={SIGN_IN_TOKEN}"}


def shape_app() -> FastAPI:
    """The web app's routes and models only (for its schema, before any world exists)."""
    return web_app(create_research_stub(), new_store())


@contextmanager
def fuzz_world() -> Iterator[FuzzWorld]:
    """The world, its fakes served until the ``with`` ends."""
    accounts = Swappable(new_store())
    connections_store = Swappable(InMemoryConnectionsStore())
    extraction = stub_extraction.create_stub()
    xero, hubspot = FakeXero(), FakeHubSpot()
    xero.register_app(XERO_CLIENT_ID, XERO_SECRET, CALLBACK)
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
        connections = build_connections(
            settings,
            cast(AccountsStore, accounts),
            cast(ConnectionsStore, connections_store),
            source,
            sleep=lambda _: None,
        )
        research_client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=create_research_stub()), base_url=RESEARCH
        )
        extraction_client = httpx.AsyncClient(transport=httpx.ASGITransport(app=extraction), base_url=extraction_at.url)
        app = web_app(
            research_client,
            cast(InMemoryAccountsStore, accounts),
            settings=WebSettings(research_url=RESEARCH, extraction_url=extraction_at.url),
            connections=connections,
            extraction_client=extraction_client,
        )
        world = FuzzWorld(app, accounts, connections_store, extraction, connections, hubspot)
        world.fresh()
        try:
            yield world
        finally:
            asyncio.run(_close(research_client, extraction_client))
            connections.close()
            source.close()


async def _close(*clients: httpx.AsyncClient) -> None:
    for client in clients:
        await client.aclose()
