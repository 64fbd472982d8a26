"""Signed-in users for the web's app tests: an in-memory accounts store and TestClients that carry
a session cookie and its CSRF token.

The in-memory store (``asat_accounts.memory_store``) passes the same store contract suite as the
Postgres store (``services/accounts/tests/store_contract.py``), so the pages behave here as over
Postgres. Password hashes use Argon2's cheapest parameters (the app is given the same), so a
sign-in through the form costs nothing. The first practice made in a store has id 1 and its owner
user id 1: the stub research's audit rows are theirs (``stub_research.ASKED_BY``), and
``record_stub_rows`` puts them in that practice's research history, as the web writes a row when
research answers (a page taking an audit row's id opens only the practice's own).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import httpx
from argon2 import profiles
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_accounts.memory_store import InMemoryAccountsStore
from asat_accounts.model import ResearchHistoryEntry, Role
from asat_accounts.passwords import hash_password
from asat_accounts.secret_box import KeyRing, SecretKey
from asat_accounts.sessions import new_token
from asat_corpus.contracts.audit_log import AuditEntryOut
from asat_web.app import create_app
from asat_web.auth import CSRF_HEADER, SESSION_COOKIE
from asat_web.history import record_period
from asat_web.settings import WebSettings

from . import stub_research

RESEARCH = "http://research.test"
BASE_URL = "https://testserver"  # https, so that the Secure session cookie set by sign-in is sent back
OWNER_EMAIL = "owner@practice.test"
PASSWORD = "correct horse battery staple"
CHEAP = profiles.CHEAPEST
KEY = SecretKey("k1", bytes(range(32)))


@dataclass(frozen=True)
class Account:
    """A user of a practice in ``store``."""

    store: InMemoryAccountsStore
    practice_id: int
    user_id: int
    email: str
    role: Role


def new_store() -> InMemoryAccountsStore:
    return InMemoryAccountsStore(KeyRing((KEY,)))


def add_practice(store: InMemoryAccountsStore, name: str = "Test Practice", email: str = OWNER_EMAIL) -> Account:
    practice, owner = store.create_practice(name, email, hash_password(PASSWORD, CHEAP))
    return Account(store, practice.id, owner.user.id, owner.user.email, Role.OWNER)


def add_member(owner: Account, email: str, role: Role) -> Account:
    member = owner.store.add_member(owner.practice_id, email, hash_password(PASSWORD, CHEAP), role)
    return Account(owner.store, owner.practice_id, member.user.id, member.user.email, role)


def stub_rows() -> list[dict[str, Any]]:
    """The stub research's audit rows of the first practice (1 to 5), oldest first."""
    return [
        stub_research.audit_entry(1),
        stub_research.audit_entry(2),
        stub_research.SHOWN_ROWS[3],
        stub_research.SHOWN_ROWS[4],
        stub_research.question_row(),
    ]


def record_stub_rows(account: Account, rows: Iterable[dict[str, Any]] | None = None) -> None:
    """Put audit rows (JSON, as research sends them; the stub's 1 to 5 by default) in
    ``account``'s practice's research history, as asked by ``account``."""
    for row in stub_rows() if rows is None else rows:
        entry = AuditEntryOut.model_validate(row)
        record = entry.record
        asked = record.asked_by
        account.store.record_research(
            account.practice_id,
            ResearchHistoryEntry(
                audit_id=entry.id,
                user_id=account.user_id,
                client_id=asked.client_id if asked is not None else None,
                question=record.question,
                period=record_period(record),
                decision=record.decision.value,
                corpus_generation=record.corpus_generation,
                asked_at=entry.recorded_at,
            ),
        )


def web_app(
    research: FastAPI | httpx.AsyncClient,
    store: InMemoryAccountsStore,
    today: date = date(2026, 4, 1),
    settings: WebSettings | None = None,
    **app_args: Any,
) -> FastAPI:
    """The web app over ``research`` (a stub research app, or an httpx client) and ``store``."""
    client = research if isinstance(research, httpx.AsyncClient) else _over(research)
    return create_app(
        settings or WebSettings(research_url=RESEARCH),
        client=client,
        today=lambda: today,
        accounts=store,
        password_parameters=CHEAP,
        **app_args,
    )


def signed_in(app: FastAPI, account: Account, csrf_header: bool = True) -> TestClient:
    """A client of ``app`` signed in as ``account`` (a session made in the store, as sign-in makes
    one), sending the session's CSRF token with every request unless ``csrf_header`` is off."""
    now = datetime.now(UTC)
    token, csrf = new_token(), new_token()
    account.store.create_session(account.user_id, account.practice_id, token, csrf, now, now + timedelta(hours=12))
    client = TestClient(app, base_url=BASE_URL)
    client.cookies.set(SESSION_COOKIE, token)
    if csrf_header:
        client.headers[CSRF_HEADER] = csrf
    return client


def anonymous(app: FastAPI) -> TestClient:
    return TestClient(app, base_url=BASE_URL)


def _over(stub: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=stub), base_url=RESEARCH)


def owner_client(
    research: FastAPI | httpx.AsyncClient, settings: WebSettings | None = None, **app_args: Any
) -> TestClient:
    """The web app over ``research`` with a new store, signed in as the owner of its practice (id 1),
    whose research history holds the stub's audit rows."""
    store = new_store()
    owner = add_practice(store)
    record_stub_rows(owner)
    return signed_in(web_app(research, store, settings=settings, **app_args), owner)
