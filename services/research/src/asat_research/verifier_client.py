"""The VerifierClient port and its HTTP adapter (the verifier is a separate service).

The verifier unreachable, or answering 503, is :class:`VerifierUnavailable`; any other error
status, or a reply that is not a ``VerificationResponse``, is :class:`VerifierReplyError`
(research answers 502 naming the verifier).
"""

from __future__ import annotations

from typing import Protocol

import httpx
from pydantic import ValidationError

from asat_corpus.contracts.errors import describe_validation_error
from asat_corpus.contracts.verification import VerificationRequest, VerificationResponse
from asat_corpus.service_token import bearer_headers
from asat_research.unusable_reply import UnusableReply

VERIFIER_TIMEOUT_S = 10.0  # each wait on the verifier (connect, send, read); tests/test_deadlines.py


class VerifierUnavailable(Exception):
    """The verifier cannot be reached or failed; nothing unverified may be served."""


class VerifierReplyError(VerifierUnavailable, UnusableReply):
    """The verifier answered with an error status (other than 503) or a reply that breaks its contract."""

    service = "verifier"


class VerifierClient(Protocol):
    def verify(self, request: VerificationRequest) -> VerificationResponse: ...


class HttpVerifierClient:
    def __init__(
        self,
        base_url: str,
        timeout_s: float = VERIFIER_TIMEOUT_S,
        client: httpx.Client | None = None,
        service_token: str | None = None,
    ) -> None:
        """``client`` replaces the HTTP client (tests pass a FastAPI TestClient of the real service);
        ``service_token`` is sent with every request (the verifier refuses one without it)."""
        self.base_url = base_url.rstrip("/")
        self._client = client if client is not None else httpx.Client(base_url=self.base_url, timeout=timeout_s)
        self._auth = bearer_headers(service_token)

    def verify(self, request: VerificationRequest) -> VerificationResponse:
        try:
            reply = self._client.post(
                "/v1/verify",
                content=request.model_dump_json(),
                headers={"content-type": "application/json", **self._auth},
            )
        except httpx.HTTPError as exc:
            raise VerifierUnavailable(
                f"the verifier at {self.base_url} cannot be reached ({type(exc).__name__}): "
                "start it with `python -m asat_verifier`"
            ) from exc
        if reply.status_code == 503:
            raise VerifierUnavailable(f"the verifier cannot verify now (503): {reply.text[:300]}")
        if reply.status_code != 200:
            raise VerifierReplyError(
                f"the verifier answered {reply.status_code} to POST /v1/verify: {reply.text[:300]}"
            )
        try:
            return VerificationResponse.model_validate_json(reply.content)
        except ValidationError as exc:
            raise VerifierReplyError(
                f"the verifier sent a reply to POST /v1/verify that is not a VerificationResponse "
                f"({describe_validation_error(exc)}): are research and the verifier the same release?"
            ) from exc

    def healthy(self) -> bool:
        try:
            return self._client.get("/healthz").status_code == 200
        except httpx.HTTPError:
            return False

    def close(self) -> None:
        self._client.close()
