"""``POST /v1/provider/check``: the provider probe over the settings in the request (the web's
provider settings page), never research's own; the key is in no reply."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from asat_research.api import create_app

from .pipeline.fakes import fakes
from .probe.silent_server import refused_url

KEY = "sk-proj-checkme-0123456789abcdefghijklmnop"


def _check(body: dict[str, Any]) -> tuple[int, dict[str, Any], str]:
    api = TestClient(create_app(fakes().pipeline()))
    reply = api.post("/v1/provider/check", json=body)
    return reply.status_code, reply.json(), reply.text


def test_the_extractive_default_has_nothing_to_probe() -> None:
    status, report, _ = _check({"provider": "extractive"})
    assert status == 200
    assert (report["verdict"], report["exit_code"], report["checks"]) == ("nothing_to_probe", 0, [])


def test_settings_the_service_would_refuse_are_misconfigured() -> None:
    status, report, _ = _check({"provider": "openai_compatible", "model": "qwen", "api_key": KEY})
    assert status == 200
    assert (report["verdict"], report["exit_code"]) == ("misconfigured", 2)
    assert "ASAT_GENERATION_BASE_URL" in report["summary"]


def test_a_provider_nothing_listens_for_is_unusable_and_the_key_is_not_echoed() -> None:
    url = refused_url()
    status, report, text = _check(
        {"provider": "openai_compatible", "base_url": url, "model": "qwen", "api_key": KEY, "timeout_s": 5}
    )
    assert status == 200
    assert (report["verdict"], report["endpoint"], report["model"]) == ("unusable", url, "qwen")
    reachable = next(c for c in report["checks"] if c["name"] == "reachable")
    assert reachable["status"] == "fail"
    assert KEY not in text and KEY[8:30] not in text


def test_an_unknown_provider_or_a_long_timeout_is_refused() -> None:
    assert _check({"provider": "gpt"})[0] == 422
    assert _check({"provider": "ollama", "timeout_s": 600})[0] == 422
    status, _, text = _check({"provider": "ollama", "api_key": KEY, "extra": 1})
    assert status == 422 and KEY not in text
