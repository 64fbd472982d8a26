"""One stub model server per test module; each test starts with an empty script and must
leave no problem and no unserved exchange behind."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.research.tests.generation.stub_server import StubServer


@pytest.fixture(scope="module")
def stub_server() -> Iterator[StubServer]:
    server = StubServer().start()
    yield server
    server.stop()


@pytest.fixture
def stub(stub_server: StubServer) -> Iterator[StubServer]:
    stub_server.reset()
    yield stub_server
    assert stub_server.problems == [], f"requests the real API would not have received: {stub_server.problems}"
    assert stub_server.unserved() == [], f"scripted exchanges never requested: {stub_server.unserved()}"
