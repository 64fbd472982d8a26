"""Every VerifierClient adapter runs the shared contract (:mod:`.verifier_client_contract`).

The HTTP client talks to the real verifier app: in process (FastAPI's test client) and over a
real socket (uvicorn on a free port); failures come from a mock transport.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from asat_research.verifier_client import HttpVerifierClient, VerifierClient
from asat_verifier.composition import create_app

from .verifier_client_contract import VerifierClientContract

NOWHERE = "http://127.0.0.1:9"  # the discard port: nothing listens


class _HttpContract(VerifierClientContract):
    def unreachable(self) -> VerifierClient:
        return HttpVerifierClient(NOWHERE, timeout_s=2)

    def answering(self, status: int, body: str) -> VerifierClient:
        transport = httpx.MockTransport(lambda _: httpx.Response(status, text=body))
        return HttpVerifierClient("http://stub", client=httpx.Client(transport=transport, base_url="http://stub"))


class TestHttpVerifierClientInProcess(_HttpContract):
    @pytest.fixture(scope="class")
    @classmethod
    def verifier(cls) -> VerifierClient:
        return HttpVerifierClient("http://verifier", client=TestClient(create_app(), base_url="http://verifier"))


@pytest.fixture(scope="module")
def served_verifier() -> Iterator[str]:
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "the verifier did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


class TestHttpVerifierClientOverASocket(_HttpContract):
    @pytest.fixture
    def verifier(self, served_verifier: str) -> VerifierClient:
        return HttpVerifierClient(served_verifier, timeout_s=10)
