"""Service-to-service authentication: one shared token the composition hands every internal service.

The internal services (verifier, ingest, research, extraction) install :class:`ServiceTokenGuard`:
every request but ``GET /healthz`` (liveness, which reveals nothing and is what the stack's health
probes call) must carry ``Authorization: Bearer <token>``, compared in constant time; anything else
is a 401 :class:`~asat_corpus.contracts.errors.ErrorBody` (``error="unauthenticated"``) with
``WWW-Authenticate: Bearer``. Their callers (research to ingest and the verifier, the web to
research and extraction, the command-line clients) send :func:`bearer_headers` of the same token.

The token comes from ``ASAT_SERVICE_TOKEN`` (:func:`read_service_token`): ``make up`` generates it
once into ``<var>/secrets/service-token`` (mode 0600) and passes it to every process it starts;
``install.sh`` / ``install.ps1`` generate it into ``.env`` for the containers. A plain ASGI
middleware (``app.add_middleware``) like :mod:`asat_corpus.http_limits`, part of the ``http`` extra.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
from collections.abc import Mapping

from asat_corpus.contracts.errors import ErrorBody
from asat_corpus.http_limits import ASGIApp, Receive, Scope, Send

SERVICE_TOKEN_ENV = "ASAT_SERVICE_TOKEN"
MIN_TOKEN_CHARS = 32
OPEN_PATHS = frozenset({"/healthz"})
# RFC 6750's b64token: what a Bearer credential may hold (token_urlsafe and hex both fit).
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
WHERE_IT_COMES_FROM = (
    f"internal services take `Authorization: Bearer <token>` with the token in {SERVICE_TOKEN_ENV}: `make up` "
    "writes it to var/secrets/service-token and passes it to every service; the containers read it from .env "
    "(install.sh / install.ps1 generate it)"
)
GENERATE_HINT = "generate one with: python -c 'import secrets; print(secrets.token_urlsafe(32))'"


class ServiceTokenError(ValueError):
    """``ASAT_SERVICE_TOKEN`` is missing or unusable; the message names it and says what to do."""


def generate_service_token() -> str:
    """A new random token: 32 bytes from the operating system's CSPRNG, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(32)


def check_service_token(token: str, source: str = SERVICE_TOKEN_ENV) -> str:
    """``token`` when it can be a service token (at least 32 characters of RFC 6750's b64token
    alphabet, so it fits a Bearer header unchanged); else :class:`ServiceTokenError` naming ``source``."""
    if len(token) < MIN_TOKEN_CHARS:
        raise ServiceTokenError(
            f"{source} is {len(token)} characters; a service token must be at least {MIN_TOKEN_CHARS}: {GENERATE_HINT}"
        )
    if not _TOKEN_SHAPE.fullmatch(token):
        raise ServiceTokenError(
            f"{source} holds characters a Bearer token cannot carry (only letters, digits and - . _ ~ + / then "
            f"= padding): {GENERATE_HINT}"
        )
    return token


def read_service_token(env: Mapping[str, str]) -> str:
    """The service token from ``ASAT_SERVICE_TOKEN`` in ``env`` (surrounding whitespace dropped).
    Missing, empty, shorter than 32 characters or not a Bearer token: :class:`ServiceTokenError`."""
    raw = env.get(SERVICE_TOKEN_ENV, "").strip()
    if not raw:
        raise ServiceTokenError(
            f"{SERVICE_TOKEN_ENV} is not set: the internal services (verifier, ingest, research, extraction) refuse "
            f"every request without it and the web needs it to call them, so none starts without it. `make up` "
            f"generates it into var/secrets/service-token; to start one by hand: "
            f"export {SERVICE_TOKEN_ENV}=$(cat var/secrets/service-token)"
        )
    return check_service_token(raw)


def optional_service_token(env: Mapping[str, str]) -> str | None:
    """For a client that may call a service (a command-line tool, a benchmark): the token when
    ``ASAT_SERVICE_TOKEN`` is set (checked as :func:`read_service_token` does), else ``None``; a
    guarded service then refuses the call with a 401 saying where the token comes from."""
    if not env.get(SERVICE_TOKEN_ENV, "").strip():
        return None
    return read_service_token(env)


def bearer_headers(token: str | None) -> dict[str, str]:
    """The header that carries ``token`` (none when ``token`` is ``None``)."""
    return {} if token is None else {"authorization": f"Bearer {token}"}


def unauthenticated_body(presented: bool) -> ErrorBody:
    said = (
        "the request's service token is not this service's"
        if presented
        else "the request lacks the service token (no `Authorization: Bearer` header)"
    )
    return ErrorBody(error="unauthenticated", message=f"{said}; {WHERE_IT_COMES_FROM}")


def _presented(scope: Scope) -> list[bytes]:
    return [value for name, value in scope.get("headers", ()) if name.lower() == b"authorization"]


def _credentials(header: bytes) -> bytes | None:
    """The credentials of a ``Bearer`` header (scheme case-insensitive), else ``None``."""
    scheme, _, rest = header.strip().partition(b" ")
    if scheme.lower() != b"bearer":
        return None
    credentials = rest.strip(b" \t")
    return credentials or None


class ServiceTokenGuard:
    """Refuses (401) every HTTP request without ``Authorization: Bearer <token>``, but ``/healthz``."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._token = check_service_token(token, "the service token").encode("ascii")

    def authorised(self, scope: Scope) -> tuple[bool, bool]:
        """(authorised, a credential was presented) for the request of ``scope``."""
        headers = _presented(scope)
        if not headers:
            return False, False
        if len(headers) != 1:
            return False, True
        given = _credentials(headers[0])
        # compare_digest takes time independent of where the two differ (not of their lengths).
        return given is not None and hmac.compare_digest(given, self._token), True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or str(scope.get("path", "")) in OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        allowed, presented = self.authorised(scope)
        if allowed:
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # policy violation
            return
        payload = json.dumps(unauthenticated_body(presented).model_dump(mode="json")).encode("utf-8")
        challenge = b'Bearer error="invalid_token"' if presented else b"Bearer"
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode("ascii")),
                    (b"www-authenticate", challenge),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})
