"""HTTP edge: ``POST /v1/verify`` and ``GET /healthz``; 413 beyond the limits, 422 on bad input, 401
without the service token (when the app is built with one, as ``python -m asat_verifier`` does)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from asat_corpus.contracts.errors import ErrorBody
from asat_corpus.contracts.verification import VerificationRequest, VerificationResponse
from asat_corpus.http_errors import install_error_handlers
from asat_corpus.service_token import ServiceTokenGuard
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


def build_app(scorer: GroundednessScorer, limits: Limits, service_token: str | None = None) -> FastAPI:
    """``service_token``: every request but ``/healthz`` must carry it (``None``: open, for in-process tests)."""
    app = FastAPI(
        title="AsAt verifier",
        version="1",
        description="Citation integrity (exact substring after normalisation) and claim groundedness.",
    )

    install_error_handlers(
        app,
        invalid_prefix="the request does not match the VerificationRequest schema: ",
        http_hint="send a UTF-8 JSON VerificationRequest",
    )

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
    if service_token is not None:
        app.add_middleware(ServiceTokenGuard, token=service_token)  # outermost: refused before anything runs
    return app
