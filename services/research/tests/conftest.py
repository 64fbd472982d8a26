"""Fixtures shared by the research tests.

The in-process research stack (corpus slice, MiniLM index, real ingest and verifier apps) is
built once per session for the pipeline tests. It is imported only when a test asks for it, so
the fast suites (``tests/pipeline``) load no corpus, no model and no other service. The audit
log's Postgres tests live with the audit library (``services/audit/tests``); research tests use
the in-memory store.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .stack import Stack


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    from .stack import session_stack

    yield from session_stack(tmp_path_factory)
