"""The one error handler every service installs: 422 and HTTPException replies are ErrorBody."""

from __future__ import annotations

from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel

from asat_corpus.contracts.errors import ErrorBody
from asat_corpus.http_errors import install_error_handlers


class _Body(BaseModel):
    year: int


def _app(**options: str) -> TestClient:
    app = FastAPI()
    install_error_handlers(app, **options)

    @app.post("/thing")
    def thing(body: _Body) -> dict[str, int]:
        return {"year": body.year}

    @app.get("/missing")
    def missing() -> None:
        raise HTTPException(status_code=404, detail="no thing 7")

    return TestClient(app)


def test_a_refused_field_is_a_422_naming_it() -> None:
    reply = _app(invalid_prefix="bad thing: ").post("/thing", json={"year": "soon"})
    body = ErrorBody.model_validate(reply.json())
    assert reply.status_code == 422 and body.error == "invalid_request"
    assert body.message.startswith("bad thing: year: Input should be a valid integer") and len(body.details) == 1


def test_an_http_exception_is_an_error_body_with_its_detail() -> None:
    reply = _app(http_hint="ask for thing 1").get("/missing")
    assert reply.status_code == 404
    assert reply.json() | {} == ErrorBody(error="not_found", message="no thing 7: ask for thing 1").model_dump(
        mode="json"
    )
    assert _app().get("/nowhere").json()["error"] == "not_found"
