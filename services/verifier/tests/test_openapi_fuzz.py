"""Schemathesis fuzz of the OpenAPI schema, in process: no input may produce a 5xx.

A short run for the test suite; the longer CLI run is in docs/verifier.md.
"""

from __future__ import annotations

import schemathesis
from hypothesis import settings
from schemathesis.checks import not_a_server_error

from asat_verifier.api import build_app
from asat_verifier.groundedness.deterministic import DeterministicScorer
from asat_verifier.limits import Limits

APP = build_app(DeterministicScorer(), Limits(max_body_bytes=50_000, max_claims=5, max_sources=5))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=40, deadline=None)
def test_no_input_gives_a_server_error(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=[not_a_server_error])
