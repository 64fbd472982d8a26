"""Sign-in for the workspace: every page needs a session, every state-changing request its CSRF
token, wrong passwords are rate-limited per address, and sign-out, password change and the
practice chooser work. Over the stub research service and an in-memory accounts store (which
passes the accounts store contract suite)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.routing import BaseRoute, Route

from asat_accounts.errors import AccountsStoreError
from asat_accounts.fields import client_fields
from asat_accounts.memory_store import InMemoryAccountsStore
from asat_accounts.model import Role, SignInAttempts, WebSession
from asat_accounts.secret_box import KeyRing
from asat_accounts.sessions import new_token
from asat_web.auth import CSRF_HEADER, SESSION_COOKIE, SIGN_IN_COOKIE, safe_next, sign_in_location
from asat_web.settings import WebSettings

from .signed_in import (
    KEY,
    OWNER_EMAIL,
    PASSWORD,
    Account,
    add_member,
    add_practice,
    anonymous,
    new_store,
    signed_in,
    web_app,
)
from .stub_research import V2015, create_stub

OPEN = {("GET", "/healthz"), ("GET", "/sign-in"), ("POST", "/sign-in")}
SAMPLES = {
    "source_id": V2015,
    "document_id": "00000000-0000-0000-0000-000000000000",
}
STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}


class Clock:
    """The app's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


def _app(clock: Clock | None = None, secure: bool = True) -> tuple[FastAPI, Account]:
    store = new_store()
    owner = add_practice(store)
    settings = WebSettings(research_url="http://research.test", cookie_secure=secure)
    return web_app(create_stub(), store, settings=settings, clock=clock or Clock()), owner


def routes(app: FastAPI) -> list[tuple[str, str]]:
    """Every (method, path) the app serves (its own routes and its routers'), with the path
    parameters filled in; not the static files."""
    found: list[tuple[str, str]] = []
    pending: list[BaseRoute] = list(app.routes)
    while pending:
        route = pending.pop(0)
        included = getattr(route, "original_router", None)  # a router included in the app
        if included is not None:
            pending.extend(included.routes)
            continue
        if not isinstance(route, Route):
            continue
        path = re.sub(r"\{(\w+)(?::path)?\}", lambda m: SAMPLES.get(m.group(1), "1"), route.path)
        found.extend((method, path) for method in sorted(route.methods or ()) if method != "HEAD")
    return found


def _send(client: TestClient, method: str, path: str, **kwargs: object) -> httpx.Response:
    if method in STATE_CHANGING and "json" not in kwargs and "data" not in kwargs:
        json_routes = ("/stream", "/across-years/stream")
        kwargs = kwargs | ({"json": {}} if path in json_routes else {"data": {}})
    return client.request(method, path, follow_redirects=False, **kwargs)  # type: ignore[arg-type]


def _sign_in(
    client: TestClient, email: str = OWNER_EMAIL, password: str = PASSWORD, next_path: str = ""
) -> httpx.Response:
    form = client.get("/sign-in", params={"next": next_path} if next_path else None)
    token = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
    assert token is not None and client.cookies.get(SIGN_IN_COOKIE) == token.group(1)
    data = {"email": email, "password": password, "csrf_token": token.group(1), "next": next_path}
    return client.post("/sign-in", data=data, follow_redirects=False)


# --- every page needs a session ------------------------------------------------------------------


def test_without_a_session_every_workspace_page_redirects_to_sign_in_and_every_change_is_refused() -> None:
    app, _ = _app()
    client = anonymous(app)
    served = routes(app)
    assert len(served) > 30 and ("GET", "/settings/provider") in served and ("POST", "/sign-out") in served
    for method, path in served:
        if (method, path) in OPEN:
            continue
        reply = _send(client, method, path)
        if method in ("GET", "HEAD"):
            assert reply.status_code == 303, (method, path, reply.status_code)
            location = reply.headers["location"]
            assert urlsplit(location).path == "/sign-in", (path, location)
            assert parse_qs(urlsplit(location).query)["next"] == [path], (path, location)
        else:
            assert reply.status_code == 401, (method, path, reply.status_code)
    # Only these are open; a new page is guarded unless added here on purpose.
    assert client.get("/healthz").status_code == 200
    assert client.get("/sign-in").status_code == 200
    assert client.get("/static/app.css").status_code == 200
    assert client.get("/no-such-page", follow_redirects=False).status_code == 303


def test_a_script_s_request_without_a_session_gets_json() -> None:
    app, _ = _app()
    reply = anonymous(app).post("/stream", json={"question": "q"})
    assert reply.status_code == 401 and reply.json()["error"] == "unauthenticated"


def test_a_forged_or_unknown_session_cookie_is_no_session() -> None:
    app, _ = _app()
    client = anonymous(app)
    for value in (new_token(), "x" * 500, "not a token;"):
        client.cookies.set(SESSION_COOKIE, value)
        reply = client.get("/research", follow_redirects=False)
        assert reply.status_code == 303 and reply.headers["location"].startswith("/sign-in?next=")


# --- signing in ------------------------------------------------------------------------------------


def test_signing_in_sets_a_secure_http_only_cookie_and_goes_where_it_was_going() -> None:
    app, _ = _app()
    client = anonymous(app)
    first = client.get("/history?q=turnover", follow_redirects=False)
    next_path = parse_qs(urlsplit(first.headers["location"]).query)["next"][0]
    assert next_path == "/history?q=turnover"
    reply = _sign_in(client, next_path=next_path)
    assert reply.status_code == 303 and reply.headers["location"] == "/history?q=turnover"
    cookie = next(c for c in reply.headers.get_list("set-cookie") if c.startswith(f"{SESSION_COOKIE}="))
    assert {"HttpOnly", "SameSite=Lax", "Secure", "Path=/"} <= {p.strip() for p in cookie.split(";")}
    assert "Max-Age" not in cookie  # ends with the browser; the server ends it after 12 hours anyway
    page = client.get("/research")
    assert page.status_code == 200 and OWNER_EMAIL in page.text and 'name="csrf-token"' in page.text
    assert client.get("/sign-in", follow_redirects=False).headers["location"] == "/research"  # signed in already


def test_the_cookie_is_not_secure_when_the_setting_says_plain_http() -> None:
    app, _ = _app(secure=False)
    reply = _sign_in(TestClient(app))  # http://testserver
    cookie = next(c for c in reply.headers.get_list("set-cookie") if c.startswith(f"{SESSION_COOKIE}="))
    assert "Secure" not in cookie and "HttpOnly" in cookie


def test_a_wrong_password_or_unknown_email_says_the_same() -> None:
    app, _ = _app()
    for email, password in ((OWNER_EMAIL, "wrong password here"), ("nobody@practice.test", PASSWORD)):
        reply = _sign_in(anonymous(app), email, password)
        assert reply.status_code == 401 and "Email or password is wrong." in reply.text
        assert SESSION_COOKIE not in reply.headers.get("set-cookie", "")


def test_the_sign_in_form_needs_its_own_token() -> None:
    app, _ = _app()
    client = anonymous(app)
    data = {"email": OWNER_EMAIL, "password": PASSWORD}
    assert client.post("/sign-in", data=data | {"csrf_token": new_token()}, follow_redirects=False).status_code == 403
    client.get("/sign-in")
    forged = client.post("/sign-in", data=data | {"csrf_token": new_token()}, follow_redirects=False)
    assert forged.status_code == 403 and "expired" in forged.text


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/history?q=x", "/history?q=x"),
        ("//evil.example/", "/research"),
        ("https://evil.example/", "/research"),
        ("/\\evil.example", "/research"),
        ("/sign-in", "/research"),
        ("", "/research"),
        ("research", "/research"),
    ],
)
def test_only_this_site_s_paths_are_followed_after_sign_in(target: str, expected: str) -> None:
    assert safe_next(target) == expected
    assert sign_in_location("/audit/3", "x=1") == "/sign-in?next=%2Faudit%2F3%3Fx%3D1"


# --- rate limiting -----------------------------------------------------------------------------------


def test_twenty_wrong_passwords_in_a_minute_lock_the_address_for_a_while() -> None:
    clock = Clock()
    app, _ = _app(clock)
    client = anonymous(app)
    for attempt in range(19):
        clock.now += timedelta(seconds=2)
        assert _sign_in(client, password=f"wrong password {attempt}").status_code == 401
    clock.now += timedelta(seconds=2)
    twentieth = _sign_in(client, password="wrong password again")
    assert twentieth.status_code == 429 and "locked for 15 more minutes" in twentieth.text
    right = _sign_in(client)  # even the right password, from this address
    assert right.status_code == 429 and SESSION_COOKIE not in right.headers.get("set-cookie", "")
    other = TestClient(app, base_url="https://testserver", client=("203.0.113.7", 4000))
    assert _sign_in(other).status_code == 303  # another address is not locked
    clock.now += timedelta(minutes=14)
    assert _sign_in(client).status_code == 429
    clock.now += timedelta(minutes=1, seconds=1)
    assert _sign_in(client).status_code == 303


def test_failures_spread_over_more_than_a_minute_do_not_lock() -> None:
    clock = Clock()
    app, _ = _app(clock)
    client = anonymous(app)
    for attempt in range(30):
        clock.now += timedelta(seconds=4)  # 15 in any minute
        assert _sign_in(client, password=f"wrong {attempt}").status_code == 401
    assert _sign_in(client).status_code == 303


# --- sessions end ----------------------------------------------------------------------------------


def test_signing_out_ends_the_session() -> None:
    app, owner = _app()
    client = signed_in(app, owner)
    token = client.cookies.get(SESSION_COOKIE)
    reply = client.post("/sign-out", follow_redirects=False)
    assert reply.status_code == 303 and reply.headers["location"] == "/sign-in"
    assert any(c.startswith(f"{SESSION_COOKIE}=;") and "Max-Age=0" in c for c in reply.headers.get_list("set-cookie"))
    assert owner.store.find_session(token or "") is None
    again = anonymous(app)
    again.cookies.set(SESSION_COOKIE, token or "")
    assert again.get("/research", follow_redirects=False).status_code == 303


def test_sign_out_needs_the_csrf_token() -> None:
    app, owner = _app()
    client = signed_in(app, owner, csrf_header=False)
    assert client.post("/sign-out", follow_redirects=False).status_code == 403
    assert client.get("/research").status_code == 200  # still signed in


def test_an_idle_or_old_session_ends() -> None:
    clock = Clock()
    app, owner = _app(clock)
    client = signed_in(app, owner)
    assert client.get("/research", follow_redirects=False).status_code == 200
    clock.now += timedelta(hours=1, minutes=59)
    assert client.get("/research", follow_redirects=False).status_code == 200  # touched: idle starts again
    clock.now += timedelta(hours=2, minutes=1)
    assert client.get("/research", follow_redirects=False).status_code == 303


def test_removing_a_member_ends_their_session_at_once() -> None:
    app, owner = _app()
    agent = add_member(owner, "agent@practice.test", Role.AGENT)
    client = signed_in(app, agent)
    assert client.get("/research", follow_redirects=False).status_code == 200
    owner.store.remove_member(owner.practice_id, agent.user_id)
    assert client.get("/research", follow_redirects=False).status_code == 303


# --- password --------------------------------------------------------------------------------------


def test_changing_the_password_checks_the_current_one_and_ends_other_sessions() -> None:
    app, owner = _app()
    client = signed_in(app, owner)
    elsewhere = signed_in(app, owner)
    page = client.get("/account/password")
    assert page.status_code == 200 and 'autocomplete="new-password"' in page.text
    new = "a brand new long password"
    wrong = client.post("/account/password", data={"current": "not it at all", "new": new, "again": new})
    assert wrong.status_code == 403 and "current password is wrong" in wrong.text
    short = client.post("/account/password", data={"current": PASSWORD, "new": "short", "again": "short"})
    assert short.status_code == 422 and "at least 12" in short.text
    differ = client.post("/account/password", data={"current": PASSWORD, "new": new, "again": new + "!"})
    assert differ.status_code == 422 and "differ" in differ.text
    done = client.post("/account/password", data={"current": PASSWORD, "new": new, "again": new})
    assert done.status_code == 200 and "Password changed. 1 other session signed out." in done.text
    assert client.get("/research", follow_redirects=False).status_code == 200
    assert elsewhere.get("/research", follow_redirects=False).status_code == 303
    assert _sign_in(anonymous(app)).status_code == 401
    assert _sign_in(anonymous(app), password=new).status_code == 303


# --- a member of several practices ------------------------------------------------------------------


def test_a_member_of_two_practices_chooses_one_and_sees_only_its_pages() -> None:
    app, owner = _app()
    other = add_practice(owner.store, "Other Practice", "owner@other.test")
    owner.store.add_existing_member(other.practice_id, OWNER_EMAIL, Role.REVIEWER)
    client = anonymous(app)
    reply = _sign_in(client, next_path="/audit")
    assert reply.status_code == 303 and reply.headers["location"] == "/sign-in/practice?next=%2Faudit"
    assert client.get("/research", follow_redirects=False).headers["location"].startswith("/sign-in/practice")
    assert client.post("/research", data={"question": "q"}, follow_redirects=False).status_code == 403
    chooser = client.get("/sign-in/practice?next=/audit")
    assert "Test Practice" in chooser.text and "Other Practice" in chooser.text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', chooser.text)
    assert csrf is not None
    foreign = add_practice(owner.store, "Not Mine", "owner@notmine.test")
    refused = client.post(
        "/sign-in/practice", data={"practice_id": str(foreign.practice_id), "csrf_token": csrf.group(1)}
    )
    assert refused.status_code == 404
    chosen = client.post(
        "/sign-in/practice",
        data={"practice_id": str(other.practice_id), "next": "/audit", "csrf_token": csrf.group(1)},
        follow_redirects=False,
    )
    assert chosen.status_code == 303 and chosen.headers["location"] == "/audit"
    audit = client.get("/audit")
    assert audit.status_code == 200 and "Other Practice (reviewer)" in audit.text
    assert "No questions recorded yet." in audit.text  # practice 1's rows are not this practice's


# --- CSRF --------------------------------------------------------------------------------------------


def test_every_state_changing_route_refuses_a_missing_or_forged_csrf_token() -> None:
    app, owner = _app()
    without = signed_in(app, owner, csrf_header=False)
    forged = signed_in(app, owner, csrf_header=False)
    forged.headers[CSRF_HEADER] = new_token()
    changing = [(m, p) for m, p in routes(app) if m in STATE_CHANGING and (m, p) not in OPEN]
    assert len(changing) >= 15
    for method, path in changing:
        for client in (without, forged):
            reply = _send(client, method, path)
            assert reply.status_code == 403, (method, path, reply.status_code, reply.text[:200])
        form = _send(forged, method, path, data={"csrf_token": new_token()})
        assert form.status_code == 403, (method, path)
    assert owner.store.members(owner.practice_id)[0].role is Role.OWNER  # nothing changed


def test_the_right_token_in_the_form_is_accepted() -> None:
    app, owner = _app()
    client = signed_in(app, owner, csrf_header=False)
    token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/research").text)
    assert token is not None
    reply = client.post("/settings/clients", data={"name": "Acme Pty Ltd", "csrf_token": token.group(1)})
    assert reply.status_code == 201 and "Client Acme Pty Ltd added." in reply.text


PAGES_WITH_FORMS = ("/research", "/chat", "/history/3", "/documents", "/settings/members", "/settings/clients",
                    "/settings/provider", "/account/password")  # fmt: skip


def test_every_form_that_posts_carries_the_csrf_token() -> None:
    app, owner = _app()
    client = signed_in(app, owner)
    owner.store.add_client(owner.practice_id, client_fields("Acme Pty Ltd"))
    pages = [*PAGES_WITH_FORMS, f"/settings/clients/{owner.store.clients(owner.practice_id)[0].id}"]
    token = client.headers[CSRF_HEADER]
    for page in pages:
        html = client.get(page).text
        forms = re.findall(r"<form[^>]*method=\"post\"[^>]*>(.*?)</form>", html, re.S)
        assert forms, page
        for form in forms:
            assert f'<input type="hidden" name="csrf_token" value="{token}">' in form, (page, form[:200])


class _BrokenStore(InMemoryAccountsStore):
    def find_session(self, token: str) -> WebSession | None:
        raise AccountsStoreError("the accounts database failed: connection refused")

    def sign_in_attempts(self, address: str) -> SignInAttempts:
        raise AccountsStoreError("the accounts database failed: connection refused")


def test_the_accounts_database_down_is_a_503_not_a_sign_in_page() -> None:
    store = _BrokenStore(KeyRing((KEY,)))
    add_practice(store)
    app = web_app(create_stub(), store)
    client = anonymous(app)
    client.cookies.set(SESSION_COOKIE, new_token())
    page = client.get("/research", follow_redirects=False)
    assert page.status_code == 503 and "Accounts unavailable" in page.text
    assert client.post("/stream", json={"question": "q"}).json()["error"] == "dependency_unavailable"
    fresh = anonymous(app)
    form = fresh.get("/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
    assert token is not None
    reply = fresh.post("/sign-in", data={"email": OWNER_EMAIL, "password": PASSWORD, "csrf_token": token.group(1)})
    assert reply.status_code == 503 and "Check that Postgres is running." in reply.text
