"""Settings → Connections and Push to Xero in a real browser: Playwright drives Debian's Chromium
(headless) against the web app, the REAL extraction app (deterministic extractor) and the
connections library's wire-level fakes of Xero and HubSpot, each under uvicorn on its own free
127.0.0.1 port. The owner saves the practice's Xero app (registering in the fake the redirect URI
the page shows), connects a client through the fake's consent page (it approves at once and sends
the browser back to the callback), pushes one reviewed transaction and sees it in Xero, and
imports HubSpot companies, seeing the counts. The page passes axe-core; saves
``docs/screenshots/connections.png``."""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from asat_accounts.fields import client_fields
from asat_connections import ConnectionsSettings, HttpTransactionSource, InMemoryConnectionsStore, build_connections
from asat_connections.testing import FakeHubSpot, FakeXero, serve_all
from asat_extraction.api import build_app
from asat_extraction.extractor.deterministic import DeterministicExtractor
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.inputs.ocr import TesseractOcr
from asat_extraction.pipeline import Pipeline
from asat_extraction.store.memory import MemoryStore
from asat_extraction.testing.samples import invoice_pdf
from asat_web.settings import WebSettings

from ..signed_in import RESEARCH, add_practice, new_store, web_app
from ..stub_research import create_stub
from .axe import assert_accessible
from .signing_in import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

try:
    import playwright.sync_api as playwright_sync
except ImportError:  # pragma: no cover - the message is the point
    pytest.fail(
        "the browser tests need the playwright package: .venv/bin/pip install playwright "
        "(the Python package only; the browser is Debian's /usr/bin/chromium, never `playwright install`)",
        pytrace=False,
    )

CHROMIUM = os.environ.get("ASAT_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[4] / "docs" / "screenshots"
TIMEOUT_MS = 60_000
XERO_CLIENT_ID = "0F5A2C4E6B8D0A1C3E5F7B9D1A3C5E7F"
XERO_SECRET = "fake-secret-Zq8xV3nLp0wRt6yUe2iOa9sDf4gHj7kL"
SCOPES = ["crm.objects.companies.read", "crm.schemas.companies.read"]


@contextmanager
def serve_on(app: FastAPI, sock: socket.socket) -> Iterator[None]:
    """``app`` under uvicorn on the already-bound ``sock`` (its URL was needed before the app)."""
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    else:
        raise RuntimeError("the web did not start")
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@dataclass
class Stack:
    web_url: str
    extraction_url: str
    practice_id: int
    xero: FakeXero
    hubspot: FakeHubSpot
    tenant: str


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    store = new_store()
    owner = add_practice(store)
    store.add_client(owner.practice_id, client_fields("Client One Pty Ltd"))
    xero, hubspot = FakeXero(), FakeHubSpot()
    tenant = xero.add_organisation("Client One (Xero)")
    extraction = build_app(
        Pipeline(DeterministicExtractor(), TesseractOcr(), InputLimits()), MemoryStore(), max_files=5
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    web_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    with serve_all(xero.app, hubspot.app, extraction) as (xero_at, hubspot_at, extraction_at):
        settings = ConnectionsSettings.model_validate(
            {
                "ASAT_APP_URL": web_url,
                "ASAT_XERO_LOGIN_URL": xero_at.url,
                "ASAT_XERO_IDENTITY_URL": xero_at.url,
                "ASAT_XERO_API_URL": xero_at.url,
                "ASAT_HUBSPOT_API_URL": hubspot_at.url,
            }
        )
        source = HttpTransactionSource(extraction_at.url, None)
        connections = build_connections(settings, store, InMemoryConnectionsStore(), source)
        web_settings = WebSettings(research_url=RESEARCH, extraction_url=extraction_at.url, cookie_secure=False)
        research = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_stub()), base_url=RESEARCH)
        app = web_app(research, store, settings=web_settings, connections=connections)
        try:
            with serve_on(app, sock):
                yield Stack(web_url, extraction_at.url, owner.practice_id, xero, hubspot, tenant)
        finally:
            connections.close()
            source.close()


@pytest.fixture(scope="module")
def tab(stack: Stack) -> Iterator[playwright_sync.Page]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install chromium (or set ASAT_CHROMIUM)", pytrace=False)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with playwright_sync.sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(TIMEOUT_MS)
        sign_in(page, stack.web_url)
        yield page
        chromium.close()


def test_save_the_xero_app_connect_push_and_import_from_hubspot(stack: Stack, tab: playwright_sync.Page) -> None:
    expect = playwright_sync.expect
    tab.goto(f"{stack.web_url}/settings/connections")
    expect(tab.get_by_role("link", name="Connections")).to_have_attribute("aria-current", "page")
    redirect_uri = tab.locator("#redirect-uri").inner_text()
    assert redirect_uri == f"{stack.web_url}/connections/xero/callback"
    stack.xero.register_app(XERO_CLIENT_ID, XERO_SECRET, redirect_uri)  # what the practice does at Xero

    tab.get_by_label("Client id").fill(XERO_CLIENT_ID)
    tab.get_by_label("Client secret").fill(XERO_SECRET)
    tab.get_by_role("button", name="Save Xero app").click()
    expect(tab.get_by_role("status")).to_contain_text("Xero app saved")
    assert XERO_SECRET not in tab.content() and XERO_CLIENT_ID not in tab.content()

    tab.get_by_role("button", name="Connect Client One Pty Ltd to Xero").click()  # → Xero's consent → callback
    tab.wait_for_url(re.compile(r".*/settings/connections\?connected=\d+$"))
    expect(tab.get_by_role("status")).to_have_text("Client One Pty Ltd is connected to Xero.")
    expect(tab.locator(".xero-clients")).to_contain_text("Client One (Xero)")

    # HubSpot: paste the token, import the companies, see the counts.
    stack.hubspot.add_property("abn", "ABN")
    stack.hubspot.add_company("Acme Pty Ltd", abn="51 824 753 556")
    stack.hubspot.add_company("Bad Number Pty Ltd", abn="12 345 678 901")
    stack.hubspot.add_company("Client One Pty Ltd")
    token = stack.hubspot.issue_token(SCOPES)
    tab.get_by_label("Private-app token").fill(token)
    tab.get_by_role("button", name="Save HubSpot token").click()
    expect(tab.get_by_role("status")).to_contain_text("HubSpot account")
    tab.get_by_role("button", name="Import companies").click()
    expect(tab.locator("#imported-count")).to_have_text("2 imported as new clients")
    expect(tab.locator("#matched-count")).to_have_text("1 matched to existing clients")
    expect(tab.locator("#invalid-abn-count")).to_have_text("1 with an invalid ABN (imported without it)")
    assert token not in tab.content()
    assert_accessible(tab, "Settings → Connections")
    tab.screenshot(path=str(SHOTS / "connections.png"), full_page=True)

    # One reviewed transaction (uploaded to extraction and confirmed there), pushed from Documents.
    headers = {"X-AsAt-Practice": str(stack.practice_id)}
    uploaded = httpx.post(
        f"{stack.extraction_url}/v1/documents",
        headers=headers,
        files={"files": ("harbourside.pdf", invoice_pdf(), "application/pdf")},
        timeout=60,
    )
    transaction_id = uploaded.json()["results"][0]["transaction"]["id"]
    confirmed = httpx.patch(
        f"{stack.extraction_url}/v1/transactions/{transaction_id}",
        headers=headers,
        json={"who": "Ada Reviewer", "review_status": "confirmed"},
    )
    assert confirmed.status_code == 200, confirmed.text
    tab.goto(f"{stack.web_url}/documents")
    row = tab.locator(f'tr[data-transaction="{transaction_id}"]')
    row.get_by_role("checkbox").check()
    tab.get_by_label("Client", exact=True).select_option(label="Client One Pty Ltd (Client One (Xero))")
    tab.get_by_role("button", name="Push", exact=True).click()
    outcome = tab.locator(f'.push-outcomes li[data-transaction="{transaction_id}"]')
    expect(outcome).to_contain_text("in Xero (new draft bill)")
    invoices = stack.xero.invoices(stack.tenant)
    assert len(invoices) == 1 and invoices[0]["Status"] == "DRAFT"
    expect(outcome).to_contain_text(invoices[0]["InvoiceID"])
    expect(tab.locator(f'tr[data-transaction="{transaction_id}"] .xero-state')).to_contain_text("in Xero")
    expect(tab.locator(f'tr[data-transaction="{transaction_id}"]').get_by_role("checkbox")).to_have_count(0)
    assert_accessible(tab, "Documents after a push")
