from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from .signed_in import RESEARCH, add_practice, new_store, record_stub_rows, signed_in, web_app
from .stub_research import create_stub

__all__ = ["RESEARCH", "web_client"]


def web_client(stub: FastAPI, today: date = date(2026, 4, 1)) -> TestClient:
    """The web app over ``stub``, signed in as the owner of a practice (id 1: the stub's rows are its,
    in its research history)."""
    store = new_store()
    owner = add_practice(store)
    record_stub_rows(owner)
    return signed_in(web_app(stub, store, today), owner)


@pytest.fixture
def make_web() -> Callable[..., tuple[TestClient, FastAPI]]:
    def make(**stub_args: Any) -> tuple[TestClient, FastAPI]:
        stub = create_stub(**stub_args)
        return web_client(stub), stub

    return make


def pytest_configure(config: pytest.Config) -> None:
    # Registered here so that --strict-markers accepts it (the root pytest config lists the others).
    config.addinivalue_line("markers", "browser: drives Debian's Chromium with Playwright against the running services")
