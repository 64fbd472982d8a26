"""What the connections tests share: a controllable clock, a sleep recorder, sample transactions
and documents, and a world (accounts, store, source, connectors) pointed at the fakes."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from urllib.parse import parse_qs, urlsplit
from uuid import UUID, uuid4

from argon2 import profiles

from asat_accounts import AccountsStore, Client, Practice, client_fields
from asat_accounts.passwords import hash_password
from asat_accounts.secret_box import KeyRing, SecretKey
from asat_connections import (
    Connections,
    ConnectionsSettings,
    ConnectionsStore,
    InMemoryTransactionSource,
    SourceDocument,
    SourceLine,
    SourceTransaction,
    build_connections,
)
from asat_connections.rules.retry import RetryPolicy
from asat_connections.testing import FakeHubSpot, FakeXero, ServedApp, serve_all

KEY_RING = KeyRing((SecretKey("k1", bytes(range(32))),))
XERO_CLIENT_ID = "0F5A2C4E6B8D0A1C3E5F7B9D1A3C5E7F"
XERO_CLIENT_SECRET = "fake-secret-Zq8xV3nLp0wRt6yUe2iOa9sDf4gHj7kL"
PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def cheap_hash() -> str:
    return hash_password("correct horse battery staple", profiles.CHEAPEST)


class FakeClock:
    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@dataclass
class Sleeps:
    waited: list[float] = field(default_factory=list)

    def __call__(self, seconds: float) -> None:
        self.waited.append(seconds)


def transaction(
    supplier: str,
    number: str | None,
    total: str,
    gst: str | None,
    lines: list[tuple[str, str]],
    *,
    issued: date = date(2024, 7, 3),
    status: str = "confirmed",
    registered: bool | None = True,
    kind: str = "invoice",
    abn: str | None = None,
) -> SourceTransaction:
    return SourceTransaction(
        id=uuid4(),
        document_id=uuid4(),
        review_status=status,
        kind=kind,
        supplier_name=supplier,
        supplier_abn=abn,
        invoice_number=number,
        issue_date=issued,
        currency="AUD",
        total_amount=Decimal(total),
        gst_amount=None if gst is None else Decimal(gst),
        gst_registered_supplier=registered,
        line_items=tuple(SourceLine(d, Decimal(a)) for d, a in lines),
    )


def three_bills() -> list[tuple[SourceTransaction, SourceDocument]]:
    """Two bills from Officeworks (GST-inclusive and -exclusive lines) and one from an
    unregistered supplier (no GST), with a PDF, a PNG and a PDF."""
    t1 = transaction(
        "Officeworks Pty Ltd", "INV-1001", "110.00", "10.00", [("Paper", "40.00"), ("Toner", "70.00")],
        abn="51824753556",
    )  # fmt: skip
    t2 = transaction("Officeworks Pty Ltd", "INV-1002", "220.00", "20.00", [("Chair", "200.00")])
    t3 = transaction("Bob's Bookkeeping", "B-7", "50.00", None, [("March bookkeeping", "50.00")], registered=False)
    return [
        (t1, SourceDocument(t1.document_id, "officeworks 1001.pdf", "application/pdf", PDF)),
        (t2, SourceDocument(t2.document_id, "receipt.png", "image/png", PNG)),
        (t3, SourceDocument(t3.document_id, "bob-b7.pdf", "application/pdf", PDF + b"b7")),
    ]


@dataclass
class World:
    """One practice with two clients, a fake Xero and a fake HubSpot served locally, and the
    connectors pointed at them."""

    accounts: AccountsStore
    store: ConnectionsStore
    source: InMemoryTransactionSource
    practice: Practice
    client: Client
    other_client: Client
    xero: FakeXero
    hubspot: FakeHubSpot
    xero_url: str
    hubspot_url: str
    clock: FakeClock
    sleeps: Sleeps
    connections: Connections
    tenant: str
    other_tenant: str

    def connect_xero(self, client_id: int | None = None) -> None:
        """The whole dance: save the app, start, follow Xero's redirect, finish."""
        self.connections.xero.save_app(self.practice.id, XERO_CLIENT_ID, XERO_CLIENT_SECRET)
        start = self.connections.xero.start_authorisation(self.practice.id, client_id or self.client.id)
        params = browse(start.url)
        self.connections.xero.finish_authorisation(self.practice.id, params)

    def add_transactions(self, items: list[tuple[SourceTransaction, SourceDocument]]) -> list[UUID]:
        for t, d in items:
            self.source.add(self.practice.id, t, d)
        return [t.id for t, _ in items]


def browse(url: str) -> dict[str, str]:
    """Be the browser at Xero's authorize URL: follow nothing, return the redirect's query.

    Plain ``http.client`` (no logging), so the test harness itself logs no state or code."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=10)
    try:
        conn.request("GET", f"{parts.path}?{parts.query}")
        response = conn.getresponse()
        location = response.getheader("Location") or ""
        response.read()
    finally:
        conn.close()
    assert response.status == 302, f"Xero's authorize page answered {response.status}"
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


@contextmanager
def make_world(accounts: AccountsStore, store: ConnectionsStore, timeout_s: float = 5.0) -> Iterator[World]:
    tag = uuid4().hex[:8]
    practice, _ = accounts.create_practice(f"Alpha Tax {tag}", f"owner-{tag}@alpha.example", cheap_hash())
    client = accounts.add_client(practice.id, client_fields("Client One Pty Ltd"))
    other = accounts.add_client(practice.id, client_fields("Client Two Pty Ltd"))
    xero, hubspot = FakeXero(), FakeHubSpot()
    tenant = xero.add_organisation("Client One (Xero)")
    other_tenant = xero.add_organisation("Client Two (Xero)")
    clock, sleeps = FakeClock(), Sleeps()
    with serve_all(xero.app, hubspot.app) as (xero_served, hubspot_served):
        settings = _settings(xero_served, hubspot_served, timeout_s)
        xero.register_app(XERO_CLIENT_ID, XERO_CLIENT_SECRET, "http://localhost:8740/connections/xero/callback")
        source = InMemoryTransactionSource()
        connections = build_connections(
            settings, accounts, store, source, clock=clock, sleep=sleeps, policy=RetryPolicy(max_wait_s=60)
        )
        try:
            yield World(
                accounts, store, source, practice, client, other, xero, hubspot, xero_served.url,
                hubspot_served.url, clock, sleeps, connections, tenant, other_tenant,
            )  # fmt: skip
        finally:
            connections.close()


def _settings(xero: ServedApp, hubspot: ServedApp, timeout_s: float) -> ConnectionsSettings:
    return ConnectionsSettings.model_validate(
        {
            "ASAT_XERO_LOGIN_URL": xero.url,
            "ASAT_XERO_IDENTITY_URL": xero.url,
            "ASAT_XERO_API_URL": xero.url,
            "ASAT_HUBSPOT_API_URL": hubspot.url,
            "ASAT_CONNECTIONS_TIMEOUT": timeout_s,
        }
    )
