"""Signing in and out, choosing the practice, changing one's password (``/sign-in``, ``/sign-out``,
``/sign-in/practice``, ``/account/password``).

Sign-in checks the email and password with ``asat_accounts.check_credentials`` (the same work for
an unknown email; the page says only "Email or password is wrong"). Wrong passwords are counted
per client address (``asat_accounts.throttle``: 20 within a minute lock the address for 15
minutes); while an address is locked nothing is checked and every sign-in from it is refused
(429). A user who belongs to one practice acts for it at once; a member of several chooses. A
new session always gets a new token (a cookie the browser had before is ended). Changing the
password asks for the current one (counted like a sign-in) and ends the user's other sessions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote

from argon2 import Parameters
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from asat_accounts.errors import AccountsNotFoundError
from asat_accounts.model import SignedIn
from asat_accounts.passwords import hash_password, password_problem
from asat_accounts.sessions import SessionPolicy, csrf_matches, new_token, plausible_token
from asat_accounts.sign_in import check_credentials
from asat_accounts.store import AccountsStore
from asat_accounts.throttle import ThrottleRule, locked_until, lockout_message
from asat_web.auth import (
    CHOOSER,
    CSRF_FIELD,
    SESSION_COOKIE,
    SIGN_IN,
    SIGN_IN_COOKIE,
    SIGN_IN_COOKIE_SECONDS,
    Clock,
    Refused,
    cleared_cookie,
    cookie_header,
    cookies_of,
    safe_next,
    signed_in,
)

WRONG = "Email or password is wrong."
Page = Callable[..., HTMLResponse]


@dataclass(frozen=True)
class AccountDeps:
    store: AccountsStore
    page: Page  # (template, status=..., **context) -> HTMLResponse
    clock: Clock
    policy: SessionPolicy
    rule: ThrottleRule
    parameters: Parameters  # Argon2 parameters of new hashes and of the check
    secure_cookie: bool


def account_router(deps: AccountDeps) -> APIRouter:
    router = APIRouter()
    store = deps.store

    def sign_in_form(
        request: Request, status: int = 200, next_path: str = "", email: str = "", problem: str | None = None
    ) -> Response:
        """The sign-in page with its form token, in the page and in a cookie: the browser's token
        when it has one (a favicon or a second tab loading the page must not replace it), else new."""
        held = cookies_of(request.headers).get(SIGN_IN_COOKIE)
        token = held if held is not None and plausible_token(held) else new_token()
        response = deps.page(
            "sign_in.html",
            status=status,
            form_token=token,
            next_path=safe_next(next_path),
            email=email,
            problem=problem,
        )
        response.headers.append(
            "set-cookie",
            cookie_header(
                SIGN_IN_COOKIE, token, secure=deps.secure_cookie, path=SIGN_IN, max_age=SIGN_IN_COOKIE_SECONDS
            ),
        )
        response.headers["cache-control"] = "no-store"
        return response

    @router.get(SIGN_IN, response_class=HTMLResponse)
    def sign_in_page(request: Request, next: str = "") -> Response:
        token = cookies_of(request.headers).get(SESSION_COOKIE)
        if token is not None and plausible_token(token):
            session = store.find_session(token)
            if session is not None and session.practice is not None and deps.clock() < session.expires_at:
                return RedirectResponse(safe_next(next), status_code=303)
        return sign_in_form(request, next_path=next)

    @router.post(SIGN_IN, response_model=None)
    async def sign_in(request: Request) -> Response:
        fields = _fields(await request.body())
        email, password, next_path = fields.get("email", "").strip(), fields.get("password", ""), fields.get("next", "")
        cookies = cookies_of(request.headers)
        form_token = cookies.get(SIGN_IN_COOKIE)
        if form_token is None or not csrf_matches(form_token, fields.get(CSRF_FIELD)):
            problem = "This sign-in form has expired (or was not sent from this site): sign in again."
            return sign_in_form(request, 403, next_path, email, problem)
        address = request.client.host if request.client is not None else "unknown"
        now = deps.clock()
        until = locked_until(await run_in_threadpool(store.sign_in_attempts, address), now)
        if until is not None:
            return sign_in_form(request, 429, next_path, email, lockout_message(until, now))
        found: SignedIn | None = await run_in_threadpool(check_credentials, store, email, password, deps.parameters)
        if found is None:
            counted = await run_in_threadpool(store.record_sign_in_failure, address, now, deps.rule)
            until = locked_until(counted, now)
            if until is not None:
                return sign_in_form(request, 429, next_path, email, lockout_message(until, now))
            return sign_in_form(request, 401, next_path, email, WRONG)
        if not found.memberships:
            problem = "You belong to no practice now: ask an owner of your practice to add you again."
            return sign_in_form(request, 403, next_path, email, problem)
        old = cookies.get(SESSION_COOKIE)
        if old is not None and plausible_token(old):
            await run_in_threadpool(store.end_session, old)
        chosen = found.memberships[0].practice_id if len(found.memberships) == 1 else None
        token = new_token()
        await run_in_threadpool(
            store.create_session, found.user.id, chosen, token, new_token(), now, deps.policy.expires_at(now)
        )
        target = safe_next(next_path)
        if chosen is None:
            target = f"{CHOOSER}?next={quote(target, safe='')}"
        response = RedirectResponse(target, status_code=303)
        response.headers.append("set-cookie", cookie_header(SESSION_COOKIE, token, secure=deps.secure_cookie))
        response.headers.append("set-cookie", cleared_cookie(SIGN_IN_COOKIE, secure=deps.secure_cookie, path=SIGN_IN))
        return response

    @router.get(CHOOSER, response_class=HTMLResponse)
    def choose_page(request: Request, next: str = "") -> HTMLResponse:
        session = request.state.session
        memberships = store.memberships_of(session.user.id)
        return deps.page("choose_practice.html", memberships=memberships, next_path=safe_next(next))

    @router.post(CHOOSER, response_model=None)
    async def choose(request: Request) -> Response:
        fields = _fields(await request.body())
        token = request.state.session_token
        try:
            chosen = int(fields.get("practice_id", ""))
            await run_in_threadpool(store.choose_session_practice, token, chosen)
        except (ValueError, AccountsNotFoundError):
            raise Refused(404, "No such practice", "You are not a member of that practice.") from None
        return RedirectResponse(safe_next(fields.get("next")), status_code=303)

    @router.post("/sign-out", response_model=None)
    async def sign_out(request: Request) -> Response:
        await run_in_threadpool(store.end_session, request.state.session_token)
        response = RedirectResponse(SIGN_IN, status_code=303)
        response.headers.append("set-cookie", cleared_cookie(SESSION_COOKIE, secure=deps.secure_cookie))
        return response

    def password_page(status: int = 200, **context: Any) -> HTMLResponse:
        return deps.page("password.html", status=status, **({"problem": None, "done": None} | context))

    @router.get("/account/password", response_class=HTMLResponse)
    def password_form() -> HTMLResponse:
        signed_in()
        return password_page()

    @router.post("/account/password", response_class=HTMLResponse)
    async def change_password(request: Request) -> HTMLResponse:
        session = signed_in()
        fields = _fields(await request.body())
        current, new, again = fields.get("current", ""), fields.get("new", ""), fields.get("again", "")
        address = request.client.host if request.client is not None else "unknown"
        now = deps.clock()
        until = locked_until(await run_in_threadpool(store.sign_in_attempts, address), now)
        if until is not None:
            return password_page(429, problem=lockout_message(until, now))
        email = session.user.email
        if await run_in_threadpool(check_credentials, store, email, current, deps.parameters) is None:
            counted = await run_in_threadpool(store.record_sign_in_failure, address, now, deps.rule)
            until = locked_until(counted, now)
            wrong = lockout_message(until, now) if until is not None else "The current password is wrong."
            return password_page(429 if until is not None else 403, problem=wrong)
        weak = password_problem(new, email) or ("the two new passwords differ" if new != again else None)
        if weak is not None:
            return password_page(422, problem=weak[0].upper() + weak[1:] + ".")
        await run_in_threadpool(store.set_own_password_hash, session.user.id, hash_password(new, deps.parameters))
        ended = await run_in_threadpool(store.end_other_sessions, session.user.id, request.state.session_token)
        signed_out = f" {ended} other session{'s' if ended != 1 else ''} signed out." if ended else ""
        return password_page(done=f"Password changed.{signed_out}")

    return router


def _fields(body: bytes) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True).items()}
