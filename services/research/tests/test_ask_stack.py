"""``ask`` against the real research API over real HTTP, on the real Division 328 stack
(MiniLM, Qdrant Edge, the verifier): the quotes of each year's text, and ``--json`` as the API sends it."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn

from asat_research.api import create_app
from asat_research.ask import OutcomeOut, main

from .stack import Stack

pytestmark = [pytest.mark.corpus, pytest.mark.slow]
QUESTION = "What aggregated turnover made a business a small business entity?"


@pytest.fixture(scope="module")
def research_url(stack: Stack) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(stack.pipeline()), host="127.0.0.1", port=port, log_level="error")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code in (200, 503):
                break
        except httpx.HTTPError:
            time.sleep(0.05)
    yield url
    server.should_exit = True
    thread.join(timeout=10)


@pytest.mark.parametrize(
    ("year", "quoted", "register_id"),
    [(2015, "$2 million", "C2015C00285"), (2026, "$10 million", "C2026C00122")],
)
def test_ask_prints_the_quote_of_the_text_in_force_that_year(
    research_url: str, year: int, quoted: str, register_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([QUESTION, "--income-year", str(year), "--url", research_url])
    out = capsys.readouterr().out
    assert code == 0, out
    quote_lines = [line for line in out.splitlines() if line.lstrip().startswith(">")]
    assert any(quoted in line for line in quote_lines), out
    assert register_id in out


def test_ask_json_is_the_api_response_and_fits_its_schema(
    research_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([QUESTION, "--income-year", "2015", "--url", research_url, "--json"])
    printed = capsys.readouterr().out
    assert code == 0
    body = json.loads(printed)
    OutcomeOut.model_validate(body)  # the API's response shape, as ask reads it
    assert body["decision"] == "answer"
    quotes = [c["quote"] for claim in body["claims"] for c in claim["citations"]]
    assert any("$2 million" in q for q in quotes)
