"""Signing the browser tests' Chromium in.

The web app runs with an in-memory accounts store holding one practice and its owner (the same
as the app tests', ``tests/signed_in.py``), over plain http on 127.0.0.1 with
``ASAT_WEB_COOKIE_SECURE=false`` (as ``make up`` serves it); ``sign_in`` fills in the sign-in
form, as a person does, so every page after it is the owner's. Kept free of Playwright and of the
research stack, so the stub-only browser tests import it cheaply.
"""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI

from asat_web.settings import WebSettings

from ..signed_in import OWNER_EMAIL, PASSWORD, RESEARCH, add_practice, new_store, web_app


def browser_web_app(
    research: FastAPI | httpx.AsyncClient, settings: WebSettings | None = None, **app_args: Any
) -> FastAPI:
    """The web app for a browser test: its own accounts store with the owner ``sign_in`` uses."""
    plain_http = (settings or WebSettings(research_url=RESEARCH)).model_copy(update={"cookie_secure": False})
    store = new_store()
    add_practice(store)
    return web_app(research, store, settings=plain_http, **app_args)


def sign_in(page: Any, web_url: str, email: str = OWNER_EMAIL, password: str = PASSWORD) -> None:
    """Sign ``page`` (a Playwright page; its context keeps the cookie) in through the form."""
    page.goto(f"{web_url}/sign-in")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{web_url}/research")
