"""ASGI middleware: refuse a request body over ``max_body_bytes`` with 413, before parsing it.

Checks ``Content-Length`` when sent and counts the bytes actually received either way (chunked
bodies have no length), buffering at most ``max_body_bytes`` before handing the body on.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from asat_corpus.contracts.errors import ErrorBody


def too_large_body(limit: str, maximum: int, actual: int, message: str) -> ErrorBody:
    return ErrorBody(error="request_too_large", message=message, limit=limit, maximum=maximum, actual=actual)


class BodyLimit:
    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def _refuse(self, send: Send, actual: int) -> None:
        body = too_large_body(
            "max_body_bytes",
            self.max_body_bytes,
            actual,
            f"max_body_bytes is {self.max_body_bytes} and the request body has at least {actual} bytes: "
            "split the request",
        )
        payload = json.dumps(body.model_dump(mode="json")).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": payload})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_body_bytes:
                    await self._refuse(send, declared)
                    return
        chunks: list[bytes] = []
        received = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > self.max_body_bytes:
                await self._refuse(send, received)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
