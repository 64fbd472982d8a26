"""One error reply for every service's HTTP edge: :func:`install_error_handlers`.

Every 4xx a service sends itself is an :class:`~asat_corpus.contracts.errors.ErrorBody`: bad input
is a 422 naming each refused field, and an ``HTTPException`` (404, 409, ...) carries its detail
as the message. This is the only module of ``asat_corpus`` that imports FastAPI (the ``http``
extra of ``asat-corpus``): every service depends on FastAPI already, and sharing the handler here
keeps one copy of it without a service importing another. The domain never imports it.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from asat_corpus.contracts.errors import ErrorBody, error_details

# Stable codes for the statuses a service raises itself; any other is ``http_<status>``.
ERROR_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "request_too_large",
    415: "unsupported_media_type",
}
SHOWN_DETAILS = 5


def install_error_handlers(app: FastAPI, *, invalid_prefix: str = "", http_hint: str = "") -> None:
    """Reply to a request that fails validation with a 422 :class:`ErrorBody` listing every refused
    field (``invalid_prefix`` leads its message), and to an ``HTTPException`` with an
    :class:`ErrorBody` whose message is its detail (followed by ``http_hint`` when given)."""

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = error_details(exc.errors())
        shown = "; ".join(details[:SHOWN_DETAILS])
        body = ErrorBody(error="invalid_request", message=f"{invalid_prefix}{shown}", details=details)
        return JSONResponse(status_code=422, content=body.model_dump(mode="json"))

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        message = f"{exc.detail}: {http_hint}" if http_hint else str(exc.detail)
        body = ErrorBody(error=ERROR_CODES.get(exc.status_code, f"http_{exc.status_code}"), message=message)
        return JSONResponse(status_code=exc.status_code, content=body.model_dump(mode="json"), headers=exc.headers)
