"""Bounded work at every service's HTTP edge: a request-body limit and a concurrency cap.

``BodyLimit`` answers a body larger than its limit with 413 naming the limit, before the route
runs: by ``Content-Length`` when given, else by counting the body as it arrives.
``ConcurrencyCap`` answers a request beyond ``limit`` in flight on the capped paths with 429 and
``Retry-After``; a streamed reply keeps its slot until it ends. Both are plain ASGI middleware
(``app.add_middleware``), part of the ``http`` extra like :mod:`asat_corpus.http_errors`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

from asat_corpus.contracts.errors import ErrorBody

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _TooLarge(Exception):
    pass


async def _reply(send: Send, status: int, body: ErrorBody, headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    payload = json.dumps(body.model_dump(mode="json")).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode("ascii")),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


def too_large_body(limit: int, size: int | None) -> ErrorBody:
    said = f"is {size} bytes" if size is not None else "is larger than that"
    return ErrorBody(
        error="request_too_large",
        message=f"the request body {said}; the limit is {limit} bytes: send less",
        limit="max_body_bytes",
        maximum=limit,
        actual=size,
    )


class BodyLimit:
    """``max_bytes`` for every path but those of ``overrides`` (exact paths, e.g. an upload form)."""

    def __init__(self, app: ASGIApp, max_bytes: int, overrides: Mapping[str, int] | None = None) -> None:
        limits = [max_bytes, *(overrides or {}).values()]
        if min(limits) < 1:
            raise ValueError(f"a body limit must be at least 1 byte, got {min(limits)}")
        self.app = app
        self.max_bytes = max_bytes
        self.overrides = dict(overrides or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.overrides.get(str(scope.get("path", "")), self.max_bytes)
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _reply(send, 413, too_large_body(limit, declared))
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooLarge:
            if started:
                raise
            await _reply(send, 413, too_large_body(limit, None))


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class ConcurrencyCap:
    def __init__(self, app: ASGIApp, limit: int, paths: tuple[str, ...], retry_after_s: int = 2) -> None:
        if limit < 1:
            raise ValueError(f"a concurrency cap must be at least 1, got {limit}")
        self.app = app
        self.limit = limit
        self.paths = paths
        self.retry_after_s = retry_after_s
        self._in_flight = 0
        self._lock = threading.Lock()

    @property
    def in_flight(self) -> int:
        return self._in_flight

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        capped = scope["type"] == "http" and scope.get("method") == "POST" and str(scope.get("path", "")) in self.paths
        if not capped:
            await self.app(scope, receive, send)
            return
        with self._lock:
            admitted = self._in_flight < self.limit
            if admitted:
                self._in_flight += 1
        if not admitted:
            body = ErrorBody(
                error="too_many_requests",
                message=f"{self.limit} questions are being answered already (the limit); ask again in "
                f"{self.retry_after_s} s",
                limit="max_concurrent",
                maximum=self.limit,
            )
            await _reply(send, 429, body, ((b"retry-after", str(self.retry_after_s).encode("ascii")),))
            return
        try:
            await self.app(scope, receive, send)
        finally:
            with self._lock:
                self._in_flight -= 1
