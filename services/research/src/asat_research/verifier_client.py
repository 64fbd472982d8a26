"""The VerifierClient port and its HTTP adapter (the verifier is a separate service)."""

from __future__ import annotations

from typing import Protocol

import httpx
from pydantic import ValidationError

from asat_corpus.contracts.verification import VerificationRequest, VerificationResponse


class VerifierUnavailable(Exception):
    """The verifier cannot be reached or failed; nothing unverified may be served."""


class VerifierClient(Protocol):
    def verify(self, request: VerificationRequest) -> VerificationResponse: ...


class HttpVerifierClient:
    def __init__(self, base_url: str, timeout_s: float = 10.0, client: httpx.Client | None = None) -> None:
        """``client`` replaces the HTTP client (tests pass a FastAPI TestClient of the real service)."""
        self.base_url = base_url.rstrip("/")
        self._client = client if client is not None else httpx.Client(base_url=self.base_url, timeout=timeout_s)

    def verify(self, request: VerificationRequest) -> VerificationResponse:
        try:
            reply = self._client.post(
                "/v1/verify", content=request.model_dump_json(), headers={"content-type": "application/json"}
            )
        except httpx.HTTPError as exc:
            raise VerifierUnavailable(
                f"the verifier at {self.base_url} cannot be reached ({type(exc).__name__}): "
                "start it with `python -m asat_verifier`"
            ) from exc
        if reply.status_code != 200:
            raise VerifierUnavailable(f"the verifier answered {reply.status_code}: {reply.text[:300]}")
        try:
            return VerificationResponse.model_validate_json(reply.content)
        except ValidationError as exc:
            raise VerifierUnavailable(f"the verifier's reply does not match the contract: {exc}") from exc

    def healthy(self) -> bool:
        try:
            return self._client.get("/healthz").status_code == 200
        except httpx.HTTPError:
            return False

    def close(self) -> None:
        self._client.close()
