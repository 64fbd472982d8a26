"""One HTTP request to a provider, with the retry rules applied (``rules.retry``) and nothing leaked.

``ProviderHttp.send`` returns the final response of any status the caller must read (2xx, 4xx
other than 429); it waits out 429s (``Retry-After``, with the injected sleep) and retries 5xx,
timeouts and failed connections of idempotent requests; otherwise it raises
``ProviderUnavailableError`` (``retry_at`` when the provider gave one, ``ambiguous`` when a create
may have been carried out). Log lines name the provider, the method, the path (no query: it may
carry a name searched for) and the status: never a header or a body, so never a token.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import httpx

from asat_connections.errors import ProviderUnavailableError
from asat_connections.rules.retry import Outcome, RetryPolicy, Stop, Wait, decide
from asat_connections.timing import Clock, Sleep, system_clock, system_sleep

log = logging.getLogger("asat_connections.http")


class ProviderHttp:
    """Requests to one provider (``provider``: its name in messages, e.g. ``Xero``)."""

    def __init__(
        self,
        provider: str,
        client: httpx.Client,
        policy: RetryPolicy | None = None,
        clock: Clock = system_clock,
        sleep: Sleep = system_sleep,
    ) -> None:
        self.provider = provider
        self.client = client
        self.policy = policy or RetryPolicy()
        self.clock = clock
        self.sleep = sleep

    def send(
        self,
        method: str,
        url: str,
        *,
        idempotent: bool,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        data: Mapping[str, str] | None = None,
        content: bytes | None = None,
        auth: httpx.Auth | tuple[str, str] | None = None,
    ) -> httpx.Response:
        path = urlsplit(url).path
        attempt = 0
        while True:
            attempt += 1
            response: httpx.Response | None = None
            try:
                response = self.client.request(
                    method, url, headers=headers, params=params, json=json, data=data, content=content, auth=auth
                )
                outcome = Outcome(response.status_code, response.headers.get("Retry-After"))
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                log.warning("%s %s %s: could not connect (%s)", self.provider, method, path, type(exc).__name__)
                outcome = Outcome(None, sent=False)
            except httpx.TransportError as exc:  # read/write timeouts, a dropped connection
                log.warning("%s %s %s: no reply (%s)", self.provider, method, path, type(exc).__name__)
                outcome = Outcome(None, sent=True)
            if response is not None:
                log.info("%s %s %s -> %s", self.provider, method, path, response.status_code)
            decision = decide(self.policy, attempt, outcome, self.clock(), idempotent)
            if decision is None and response is not None:
                return response
            if isinstance(decision, Wait):
                log.info("%s %s %s: %s; waiting %.1f s", self.provider, method, path, decision.reason, decision.seconds)
                self.sleep(decision.seconds)
                continue
            stop = decision if isinstance(decision, Stop) else Stop("no reply")
            when = f"; try again after {stop.retry_at:%Y-%m-%d %H:%M:%S} UTC" if stop.retry_at else "; try again later"
            raise ProviderUnavailableError(
                f"{self.provider} did not complete {method} {path}: {stop.reason}{when}",
                retry_at=stop.retry_at,
                ambiguous=stop.ambiguous,
            )
