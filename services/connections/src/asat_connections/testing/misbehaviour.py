"""Misbehaviour on demand, shared by the fakes: which operation, what goes wrong, how often."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

Kind = Literal["expired_token", "rate_limit", "server_error", "timeout", "duplicate", "invalid_grant"]


@dataclass
class Misbehaviour:
    """``operation``: the fake's name for an endpoint (``create_invoice``, ``list_companies``, ...;
    ``*`` any). ``kind``:

    - ``expired_token``: 401 as for an expired access token (and that token stops working);
    - ``rate_limit``: 429 with ``Retry-After: <retry_after>`` (nothing done);
    - ``server_error``: 500 (nothing done);
    - ``timeout``: the request is carried out, but the reply waits ``delay_s`` seconds (longer
      than the client's timeout);
    - ``duplicate``: the provider's duplicate reply (nothing created);
    - ``invalid_grant``: the token endpoint refuses the refresh token (revoked).

    It applies to ``times`` matching requests (None: until cleared), after letting ``after``
    through, and only to those ``when`` accepts (given the request's JSON element, e.g. an invoice).
    """

    operation: str
    kind: Kind
    times: int | None = 1
    after: int = 0
    retry_after: int = 2
    delay_s: float = 2.0
    when: Callable[[dict[str, Any]], bool] | None = None
    fired: int = 0
    seen: int = 0


class Switchboard:
    """The misbehaviours a fake has been told, consulted once per request."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rules: list[Misbehaviour] = []

    def add(self, rule: Misbehaviour) -> Misbehaviour:
        with self._lock:
            self._rules.append(rule)
        return rule

    def clear(self) -> None:
        with self._lock:
            self._rules.clear()

    def take(self, operation: str, element: dict[str, Any] | None = None) -> Misbehaviour | None:
        """The misbehaviour this request meets, counted; None: behave."""
        with self._lock:
            for rule in self._rules:
                if rule.operation not in (operation, "*"):
                    continue
                if rule.when is not None and (element is None or not rule.when(element)):
                    continue
                if rule.times is not None and rule.fired >= rule.times:
                    continue
                rule.seen += 1
                if rule.seen <= rule.after:
                    continue
                rule.fired += 1
                return rule
        return None


async def linger(seconds: float, request: Request | None = None) -> None:
    """Wait ``seconds``, or until the client hangs up (so a server shutting down has nothing left)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        await asyncio.sleep(0.05)
        if request is not None and await request.is_disconnected():
            return


@dataclass
class Logged:
    """One request a fake received: method, path, the fake's operation name, the status (0 while
    the reply is under way)."""

    method: str
    path: str
    operation: str
    status: int


class RequestLog:
    """ASGI middleware (plain, so a handler still sees the client hang up): logs each request on
    arrival, as ``scope["fake_logged"]``, and its status when the reply starts."""

    def __init__(self, app: ASGIApp, on_arrival: Callable[[Logged], None]) -> None:
        self.app = app
        self.on_arrival = on_arrival

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        logged = Logged(str(scope["method"]), str(scope["path"]), "?", 0)
        scope["fake_logged"] = logged
        self.on_arrival(logged)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                logged.status = int(message["status"])
            await send(message)

        await self.app(scope, receive, sending)
