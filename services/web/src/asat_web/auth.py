"""Sign-in for the workspace: the session cookie, the gate every page passes, and CSRF.

**Sessions.** Signing in sets the cookie ``asat_session`` to a random 256-bit token
(``asat_accounts.sessions.new_token``; the accounts store keeps only its SHA-256): ``HttpOnly``,
``SameSite=Lax``, ``Path=/``, ``Secure`` unless ``ASAT_WEB_COOKIE_SECURE=false`` (plain http on
this machine, as ``make up`` serves it), and no ``Max-Age``, so it ends with the browser; the
store ends it after 12 hours, or 2 hours without a request (``SessionPolicy``).

**The gate** (``SessionGate``, an ASGI middleware in front of every route): ``/healthz``,
``/sign-in`` and ``/static/...`` are open; any other request needs a live session, else a ``GET``
is sent to ``/sign-in?next=<where it was going>`` (303) and anything else is refused with 401. A
session that has not chosen its practice yet (a member of several) reaches only the chooser and
sign-out. The session is put in the request's state and in a context variable for the templates.

**CSRF** (``csrf_protect``, one dependency on every route): a ``POST``, ``PUT``, ``PATCH`` or
``DELETE`` must carry the session's CSRF token, in the ``X-CSRF-Token`` header (the scripts send
it, read from ``<meta name="csrf-token">``) or the form field ``csrf_token`` (every form has it),
compared in constant time; else 403. The sign-in form, before any session exists, has its own
token in a short-lived cookie ``asat_sign_in`` (double submit): a page of another site cannot sign
the browser in to someone else's account either.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from fastapi import Request
from starlette.concurrency import run_in_threadpool
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from asat_accounts.errors import AccountsError, AccountsStoreError
from asat_accounts.model import WebSession
from asat_accounts.permissions import Action, refusal
from asat_accounts.sessions import SessionPolicy, csrf_matches, needs_touch, plausible_token, session_alive
from asat_accounts.store import AccountsStore
from asat_corpus.contracts.research import AskedBy

SESSION_COOKIE = "asat_session"
SIGN_IN_COOKIE = "asat_sign_in"  # the sign-in form's CSRF token, before there is a session
SIGN_IN_COOKIE_SECONDS = 3600
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf_token"
SIGN_IN = "/sign-in"
CHOOSER = "/sign-in/practice"
HOME = "/research"
OPEN_PATHS = frozenset({"/healthz", SIGN_IN})
OPEN_PREFIXES = ("/static/",)
WITHOUT_PRACTICE = frozenset({CHOOSER, "/sign-out"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Routes whose callers are scripts (fetch): their refusals are JSON ({"error", "message"}).
SCRIPT_PATHS = frozenset({"/stream", "/period", "/across-years/stream"})
ACCOUNTS_DOWN = "Accounts unavailable"

_current: ContextVar[WebSession | None] = ContextVar("asat_web_session", default=None)
Clock = Callable[[], datetime]
RenderError = Callable[[str, str, int], str]


class Refused(Exception):
    """A request the signed-in user may not make (or may no longer: the session ended)."""

    def __init__(self, status: int, title: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.title = title
        self.message = message


# --- pure rules --------------------------------------------------------------------------------


def is_open(path: str) -> bool:
    """Whether ``path`` is served without a session: health, the sign-in page, static files."""
    return path in OPEN_PATHS or path.startswith(OPEN_PREFIXES)


def safe_next(target: str | None) -> str:
    """Where to go after signing in: ``target`` when it is a path of this site (never another
    host: ``//evil``, ``https://evil``, ``/\\evil``), else the research page."""
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")):
        return HOME
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or any(c in target for c in "\r\n\t\\") or is_open(parts.path):
        return HOME
    return target


def sign_in_location(path: str, query: str = "") -> str:
    """``/sign-in?next=...`` for a request of ``path`` (and its query)."""
    target = path + (f"?{query}" if query else "")
    return f"{SIGN_IN}?next={quote(safe_next(target), safe='')}"


def cookie_header(name: str, value: str, *, secure: bool, path: str = "/", max_age: int | None = None) -> str:
    """A ``Set-Cookie`` value: HttpOnly, SameSite=Lax, Secure unless ``secure`` is off."""
    parts = [f"{name}={value}", f"Path={path}", "HttpOnly", "SameSite=Lax"]
    if max_age is not None:
        parts.append(f"Max-Age={max_age}")
    if secure:
        parts.append("Secure")
    return "; ".join(parts)


def cleared_cookie(name: str, *, secure: bool, path: str = "/") -> str:
    return cookie_header(name, "", secure=secure, path=path, max_age=0)


def cookies_of(headers: Mapping[str, str] | list[tuple[bytes, bytes]]) -> dict[str, str]:
    """The request's cookies (read leniently, as Starlette reads them)."""
    if isinstance(headers, list):
        raw = "; ".join(v.decode("latin-1") for k, v in headers if k.lower() == b"cookie")
    else:
        raw = headers.get("cookie", "")
    return cookie_parser(raw)


def wants_json(path: str, headers: Mapping[str, str]) -> bool:
    """Whether a refusal should be JSON (a script's request) rather than a page."""
    content_type = headers.get("content-type", "")
    return path in SCRIPT_PATHS or content_type.startswith("application/json")


# --- the current session ---------------------------------------------------------------------------


def current_session() -> WebSession | None:
    """The session of the request being served (``None`` on open pages)."""
    return _current.get()


def signed_in() -> WebSession:
    """The session of the request being served; the gate guarantees one on every workspace page."""
    session = _current.get()
    if session is None or session.practice is None:
        raise Refused(401, "Sign in", "Your session has ended: sign in again.")
    return session


def practice_id() -> int:
    session = signed_in()
    assert session.practice is not None  # signed_in() refuses a session without one
    return session.practice.practice_id


def require(action: Action) -> WebSession:
    """The session, when its role in its practice may do ``action``; else ``Refused`` (403)."""
    session = signed_in()
    assert session.practice is not None
    problem = refusal(session.practice.role, action)
    if problem is not None:
        raise Refused(403, "Not allowed", problem)
    return session


def may(action: Action) -> bool:
    """Whether the signed-in user may do ``action`` (for templates: show the form or not)."""
    session = _current.get()
    return session is not None and session.practice is not None and refusal(session.practice.role, action) is None


def asked_by_model(client_id: int | None = None) -> AskedBy:
    """Who asks, for research's request: the signed-in user and practice (and the client chosen)."""
    session = signed_in()
    assert session.practice is not None
    return AskedBy(
        user_id=session.user.id,
        user_email=session.user.email,
        practice_id=session.practice.practice_id,
        client_id=client_id,
    )


def asked_by(client_id: int | None = None) -> dict[str, Any]:
    """``asked_by_model`` as the JSON of research's request."""
    return asked_by_model(client_id).model_dump(mode="json", exclude_none=True)


def csrf_token() -> str:
    """The session's CSRF token, for forms and ``<meta name="csrf-token">`` ("" on open pages)."""
    session = _current.get()
    return session.csrf_token if session is not None else ""


# --- the gate --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GateConfig:
    store: AccountsStore
    clock: Clock
    policy: SessionPolicy
    secure_cookie: bool
    render_error: RenderError


class SessionGate:
    """Every request but the open ones needs a live session (see the module docstring)."""

    def __init__(self, app: ASGIApp, config: GateConfig) -> None:
        self.app = app
        self.config = config

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or is_open(scope["path"]):
            await self.app(scope, receive, send)
            return
        token = cookies_of(scope["headers"]).get(SESSION_COOKIE)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        method = scope["method"]
        try:
            session = await self._live_session(token)
        except AccountsStoreError as exc:
            await self._refuse(send, scope["path"], headers, 503, ACCOUNTS_DOWN, str(exc), False)
            return
        if session is None:
            clear = token is not None
            if method in SAFE_METHODS:
                query = scope.get("query_string", b"").decode("latin-1")
                await self._redirect(send, sign_in_location(scope["path"], query), clear)
            else:
                message = "You are not signed in (or your session has ended): sign in again at /sign-in."
                await self._refuse(send, scope["path"], headers, 401, "Sign in", message, clear)
            return
        if session.practice is None and scope["path"] not in WITHOUT_PRACTICE:
            if method in SAFE_METHODS:
                await self._redirect(send, f"{CHOOSER}?next={quote(safe_next(scope['path']), safe='')}", False)
            else:
                message = "Choose the practice you are working for first (/sign-in/practice)."
                await self._refuse(send, scope["path"], headers, 403, "Choose a practice", message, False)
            return
        scope.setdefault("state", {})
        scope["state"]["session"] = session
        scope["state"]["session_token"] = token
        reset = _current.set(session)
        try:
            await self.app(scope, receive, send)
        finally:
            _current.reset(reset)

    async def _live_session(self, token: str | None) -> WebSession | None:
        if token is None or not plausible_token(token):
            return None
        store, policy = self.config.store, self.config.policy
        try:
            session = await run_in_threadpool(store.find_session, token)
            if session is None:
                return None
            now = self.config.clock()
            if not session_alive(session, now, policy):
                await run_in_threadpool(store.end_session, token)
                return None
            if needs_touch(session, now, policy):
                await run_in_threadpool(store.touch_session, token, now)
        except AccountsStoreError:
            raise
        except AccountsError:
            return None
        return session

    async def _redirect(self, send: Send, location: str, clear: bool) -> None:
        headers = [(b"location", location.encode("latin-1")), (b"cache-control", b"no-store")]
        if clear:
            headers.append((b"set-cookie", cleared_cookie(SESSION_COOKIE, secure=self.config.secure_cookie).encode()))
        await send({"type": "http.response.start", "status": 303, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    async def _refuse(
        self, send: Send, path: str, headers: Mapping[str, str], status: int, title: str, message: str, clear: bool
    ) -> None:
        if wants_json(path, headers):
            error = {401: "unauthenticated", 503: "dependency_unavailable"}.get(status, "forbidden")
            body = json.dumps({"error": error, "message": message}).encode()
            content_type = b"application/json"
        else:
            body = self.config.render_error(title, message, status).encode("utf-8")
            content_type = b"text/html; charset=utf-8"
        out = [(b"content-type", content_type), (b"cache-control", b"no-store")]
        if clear:
            out.append((b"set-cookie", cleared_cookie(SESSION_COOKIE, secure=self.config.secure_cookie).encode()))
        await send({"type": "http.response.start", "status": status, "headers": out})
        await send({"type": "http.response.body", "body": body})


# --- CSRF ------------------------------------------------------------------------------------------


def csrf_protect(max_upload_files: int) -> Callable[[Request], Awaitable[None]]:
    """The dependency every route has: a state-changing request must carry the session's token."""

    async def check(request: Request) -> None:
        if request.method in SAFE_METHODS or is_open(request.url.path):
            return
        session = getattr(request.state, "session", None)
        if not isinstance(session, WebSession):
            raise Refused(401, "Sign in", "You are not signed in: sign in again at /sign-in.")
        presented = request.headers.get(CSRF_HEADER)
        if presented is None:
            presented = await form_field(request, CSRF_FIELD, max_upload_files)
        if not csrf_matches(session.csrf_token, presented):
            raise Refused(
                403,
                "Form expired",
                "This form was not sent by this page of AsAt (its security token is missing or wrong): "
                "reload the page and send it again.",
            )

    return check


async def form_field(request: Request, name: str, max_upload_files: int) -> str | None:
    """One field of the request's form, read so that the route can read the form again: an
    urlencoded body is kept as bytes, a multipart form is parsed (and kept) with the upload limits."""
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("application/x-www-form-urlencoded"):
        values = parse_qs((await request.body()).decode("utf-8", "replace")).get(name)
        return values[0] if values else None
    if content_type.startswith("multipart/form-data"):
        form = await request.form(max_files=max_upload_files + 1, max_fields=10)
        value = form.get(name)
        return value if isinstance(value, str) else None
    return None


def refusal_response_body(path: str, headers: Mapping[str, str], exc: Refused, render: RenderError) -> tuple[Any, str]:
    """The body of a refusal (JSON for scripts, a page otherwise) and its media type."""
    if wants_json(path, headers):
        error = {401: "unauthenticated", 404: "not_found", 503: "dependency_unavailable"}.get(exc.status, "forbidden")
        return {"error": error, "message": exc.message}, "application/json"
    return render(exc.title, exc.message, exc.status), "text/html"
