"""Schemathesis over the web's OpenAPI, in process: its JSON routes and its form routes, signed in
as a practice's owner and anonymous; no input may produce a 5xx.

The schema is the app's own with its form bodies added (``fuzz_world.fuzz_schema``: each form as
the page fills it in; schemathesis's negative cases send everything else). Every case runs in a
fresh world (``fuzz_world.FuzzWorld.fresh``): a new session and accounts store, the stub
extraction reset, so a sign-out or a removed member in one case changes nothing for the next.
Every route of the schema is fuzzed, sign-out and the two event streams included (schemathesis
reads a stream's first events); redirects are not followed (a 303 is the reply under test). Left
out, as the app leaves them out of its schema: ``GET /`` and ``GET /settings`` (a redirect each, no
input) and the static files.

Checks: ``not_a_server_error`` everywhere. The JSON routes document every status they answer
(``/period``, ``/index-status``, ``/healthz``, ``/stream``, ``/across-years/stream``): there, the
status, the content type and the body must match the schema too. The HTML pages document only 200 and 422 (their
404s, 409s and 303s are in the docstrings, not the schema), so their status is not checked
against it; an anonymous request must be refused, though (``refused_unless_open``). Six generated
examples per operation, plus schemathesis's explicit and coverage cases, are about 2,900 cases
in 35 s here; the longer run is ``scripts/fuzz_counts.py`` (docs/fuzzing.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import settings
from schemathesis.checks import (
    CheckContext,
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.failures import Failure
from schemathesis.core.transport import Response

from asat_web.auth import SIGN_IN, is_open

from .fuzz_world import BUTTONS, FORMS, Dispatch, FuzzWorld, fuzz_schema, fuzz_world, shape_app

SHAPE = shape_app()
WEB = Dispatch(SHAPE)
schema = schemathesis.openapi.from_dict(fuzz_schema(SHAPE))
schema.app = WEB
JSON_ROUTES = frozenset({"/period", "/index-status", "/healthz", "/stream", "/across-years/stream"})
CONFORMANCE = [status_code_conformance, content_type_conformance, response_schema_conformance]
# Hypothesis's default health checks are on (too_slow counts generation, not the request).
FUZZ = settings(max_examples=6, deadline=None)


@pytest.fixture(scope="module")
def world() -> Iterator[FuzzWorld]:
    with fuzz_world() as built:
        WEB.app = built.app
        yield built
        WEB.app = SHAPE


def refused_unless_open(ctx: CheckContext, response: Response, case: schemathesis.Case[Any]) -> bool | None:
    """Anonymous: every route but the open ones is a redirect to sign-in (GET) or a 401."""
    if is_open(case.path):
        return None
    status = response.status_code
    location = response.headers.get("location", [""])[0]
    if (status == 303 and location.startswith(SIGN_IN)) or status == 401:
        return None
    raise Failure(
        operation=case.operation.label,
        title="An anonymous request was not refused",
        message=f"{case.method} {case.formatted_path} answered {status} (location {location!r}) without a session",
    )


@schema.parametrize()
@FUZZ
def test_signed_in_no_input_gives_a_server_error(world: FuzzWorld, case: schemathesis.Case[Any]) -> None:
    world.fresh(case.path)
    checks: list[Any] = [not_a_server_error]
    if case.path in JSON_ROUTES:
        checks += CONFORMANCE
    case.call_and_validate(headers=world.signed_in_headers(), checks=checks, max_redirects=0)


@schema.parametrize()
@FUZZ
def test_anonymous_is_refused_and_gets_no_server_error(world: FuzzWorld, case: schemathesis.Case[Any]) -> None:
    world.fresh(case.path)
    case.call_and_validate(
        headers=world.anonymous_headers(), checks=[not_a_server_error, refused_unless_open], max_redirects=0
    )


def test_every_post_route_is_a_described_form_a_button_or_json() -> None:
    """A new form route must be described in FORMS (or be a button) to be fuzzed with its fields."""
    posts = {path: operations["post"] for path, operations in SHAPE.openapi()["paths"].items() if "post" in operations}
    bodiless = {path for path, operation in posts.items() if "requestBody" not in operation}
    undescribed = bodiless - set(FORMS) - BUTTONS - {"/documents"}
    assert undescribed == set(), (
        f"describe these POST routes' fields in fuzz_world.FORMS, or add to BUTTONS: {undescribed}"
    )
    assert set(FORMS) | BUTTONS <= bodiless, "FORMS or BUTTONS name a route the app no longer has (or that has a body)"


def test_the_schema_carries_the_forms_and_the_app_serves_its_own() -> None:
    fuzzed = fuzz_schema(SHAPE)["paths"]
    assert set(fuzzed["/research"]["post"]["requestBody"]["content"]) == {"application/x-www-form-urlencoded"}
    assert set(fuzzed["/documents"]["post"]["requestBody"]["content"]) == {"multipart/form-data"}
    assert "requestBody" not in SHAPE.openapi()["paths"]["/research"]["post"]
