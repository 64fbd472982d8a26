"""HTTP edge: ``POST /v1/verify`` and ``GET /healthz``; 413 beyond the limits, 422 on bad input."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from asat_corpus.contracts.verification import ErrorBody, VerificationRequest, VerificationResponse
from asat_verifier.body_limit import BodyLimit, too_large_body
from asat_verifier.groundedness.port import GroundednessScorer
from asat_verifier.limits import LimitExceeded, Limits, exceeded_count
from asat_verifier.verification import verify


class Health(BaseModel):
    status: str
    scorer: str


class _TooLarge(Exception):
    def __init__(self, exceeded: LimitExceeded) -> None:
        super().__init__(exceeded.message)
        self.exceeded = exceeded


def _location(loc: tuple[object, ...] | list[object]) -> str:
    parts = [str(part) for part in loc if part != "body"]
    return ".".join(parts) or "body"


def build_app(scorer: GroundednessScorer, limits: Limits) -> FastAPI:
    app = FastAPI(
        title="AsAt verifier",
        version="1",
        description="Citation integrity (exact substring after normalisation) and claim groundedness.",
    )

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        details = [f"{_location(e.get('loc', ()))}: {e.get('msg', 'invalid')}" for e in error.errors()]
        body = ErrorBody(
            error="invalid_request",
            message="the request does not match the VerificationRequest schema: " + "; ".join(details[:5]),
            details=details,
        )
        return JSONResponse(status_code=422, content=body.model_dump(mode="json"))

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, error: HTTPException) -> JSONResponse:
        code = "bad_request" if error.status_code == 400 else f"http_{error.status_code}"
        body = ErrorBody(error=code, message=f"{error.detail}: send a UTF-8 JSON VerificationRequest")
        return JSONResponse(status_code=error.status_code, content=body.model_dump(mode="json"), headers=error.headers)

    @app.exception_handler(_TooLarge)
    async def too_large(_: Request, error: _TooLarge) -> JSONResponse:
        exceeded = error.exceeded
        body = too_large_body(exceeded.limit, exceeded.maximum, exceeded.actual, exceeded.message)
        return JSONResponse(status_code=413, content=body.model_dump(mode="json"))

    @app.get("/healthz")
    def healthz() -> Health:
        return Health(status="ok", scorer=scorer.name)

    @app.post(
        "/v1/verify",
        responses={
            400: {"model": ErrorBody, "description": "The body could not be read (e.g. not UTF-8)."},
            413: {"model": ErrorBody, "description": "A limit was exceeded; `limit` names it."},
            422: {"model": ErrorBody, "description": "The body is not a valid VerificationRequest."},
        },
    )
    def verify_endpoint(request: VerificationRequest) -> VerificationResponse:
        exceeded = exceeded_count(limits, request)
        if exceeded is not None:
            raise _TooLarge(exceeded)
        return verify(request, scorer)

    app.add_middleware(BodyLimit, max_body_bytes=limits.max_body_bytes)
    return app
