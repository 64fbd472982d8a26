"""The research service over HTTP: the only way the web service reaches the pipeline.

Failures become :class:`ResearchUnavailable` (the service cannot be reached or answered 5xx:
says how to start it) or :class:`ResearchRejected` (it answered 4xx: carries its message).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import quote

import httpx

from asat_web.sse import SseEvent, SseParser

START_HINT = "start it with `python -m asat_research serve` (or `make up`), or set ASAT_RESEARCH_URL"


class ResearchUnavailable(Exception):
    """The research service is down, unreachable or failed; nothing is shown as an answer."""


class ResearchRejected(Exception):
    """The research service refused the request (4xx); ``status`` and its message are kept."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class ResearchClient:
    def __init__(self, base_url: str, client: httpx.AsyncClient | None = None, timeout_s: float = 120.0) -> None:
        self.base_url = base_url.rstrip("/")
        self._client = client or httpx.AsyncClient(base_url=self.base_url, timeout=timeout_s)

    async def aclose(self) -> None:
        await self._client.aclose()

    @asynccontextmanager
    async def stream(self, body: Mapping[str, Any]) -> AsyncIterator[AsyncIterator[SseEvent]]:
        """``POST /v1/research/stream``: the events as they arrive."""
        try:
            async with self._client.stream("POST", f"{self.base_url}/v1/research/stream", json=dict(body)) as reply:
                if reply.status_code != 200:
                    await reply.aread()
                    self._raise_for(reply)
                yield _events(reply)
        except httpx.HTTPError as exc:
            raise self._unreachable(exc) from exc

    async def research(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """``POST /v1/research``: the outcome as one JSON reply."""
        return await self._json("POST", "/v1/research", json=dict(body))

    async def source(self, source_id: str) -> dict[str, Any]:
        return await self._json("GET", f"/v1/sources/{quote(source_id, safe=':@/')}")

    async def audit_recent(self, last: int) -> dict[str, Any]:
        return await self._json("GET", "/v1/audit", params={"last": last})

    async def audit_entry(self, entry_id: int) -> dict[str, Any]:
        return await self._json("GET", f"/v1/audit/{entry_id}")

    async def audit_verify(self) -> dict[str, Any]:
        return await self._json("GET", "/v1/audit/verify")

    async def _json(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        try:
            reply = await self._client.request(method, f"{self.base_url}{path}", **kwargs)
        except httpx.HTTPError as exc:
            raise self._unreachable(exc) from exc
        self._raise_for(reply)
        try:
            body = reply.json()
        except ValueError as exc:
            raise ResearchUnavailable(f"the research service sent {path} a reply that is not JSON") from exc
        if not isinstance(body, dict):
            raise ResearchUnavailable(f"the research service sent {path} JSON that is not an object")
        return body

    def _raise_for(self, reply: httpx.Response) -> None:
        if reply.status_code < 400:
            return
        message = _message(reply)
        if reply.status_code >= 500:
            raise ResearchUnavailable(f"the research service could not answer ({reply.status_code}): {message}")
        raise ResearchRejected(reply.status_code, message)

    def _unreachable(self, exc: httpx.HTTPError) -> ResearchUnavailable:
        return ResearchUnavailable(
            f"the research service at {self.base_url} cannot be reached ({type(exc).__name__}: {exc}); {START_HINT}"
        )


async def _events(reply: httpx.Response) -> AsyncIterator[SseEvent]:
    parser = SseParser()
    async for text in reply.aiter_text():
        for event in parser.feed(text):
            yield event
    for event in parser.close():
        yield event


def _message(reply: httpx.Response) -> str:
    try:
        body = reply.json()
    except ValueError:
        return reply.text[:300] or reply.reason_phrase
    if isinstance(body, dict):
        text = body.get("message") or body.get("detail") or body.get("error")
        if text:
            return str(text)
    return reply.text[:300]
