from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_web.app import create_app
from asat_web.settings import WebSettings

from .stub_research import create_stub

RESEARCH = "http://research.test"


def web_client(stub: FastAPI, today: date = date(2026, 4, 1)) -> TestClient:
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=stub), base_url=RESEARCH)
    return TestClient(create_app(WebSettings(research_url=RESEARCH), client=client, today=lambda: today))


@pytest.fixture
def make_web() -> Callable[..., tuple[TestClient, FastAPI]]:
    def make(**stub_args: Any) -> tuple[TestClient, FastAPI]:
        stub = create_stub(**stub_args)
        return web_client(stub), stub

    return make


def pytest_configure(config: pytest.Config) -> None:
    # Registered here so that --strict-markers accepts it (the root pytest config lists the others).
    config.addinivalue_line("markers", "browser: drives Debian's Chromium with Playwright against the running services")
