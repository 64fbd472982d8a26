"""A local stub of a model API: replays recorded request/response pairs over real HTTP.

Each test scripts the exchanges it expects; the server answers them in order on 127.0.0.1 (a
random port) and checks that every request carries what its recorded request says it must (a
recursive subset of the JSON body, plus named headers). A request that does not match gets HTTP 418
and is recorded as a problem, so a test cannot pass on a request the real API would not have
received. With :meth:`StubServer.always`, one exchange answers every request (the contract suite
asks more than once). Recorded exchanges live in ``services/extraction/tests/fixtures/model/*.json``::

    {"exchanges": {"<name>": {"request": {"method", "path", "body", "headers"?},
                              "response": {"status", "body"}}}}
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Exchange:
    name: str
    method: str
    path: str
    body_must: dict[str, Any]  # a recursive subset of the request body
    headers_must: dict[str, str]  # lower-case header name -> exact value
    status: int
    response: Any  # the reply's JSON body


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def load_exchanges(path: Path) -> dict[str, Exchange]:
    """The named exchanges of the recorded file ``path``."""
    recorded = json.loads(path.read_text(encoding="utf-8"))
    return {
        name: Exchange(
            name=name,
            method=pair["request"]["method"],
            path=pair["request"]["path"],
            body_must=pair["request"]["body"],
            headers_must={k.lower(): v for k, v in pair["request"].get("headers", {}).items()},
            status=pair["response"]["status"],
            response=pair["response"]["body"],
        )
        for name, pair in recorded["exchanges"].items()
    }


def mismatches(actual: Any, expected: Any, where: str = "body") -> list[str]:
    """Where ``actual`` lacks or differs from ``expected``.

    Objects are compared as subsets and lists item by item (same length); all else exactly.
    """
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        found: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                found.append(f"{where}.{key}: missing")
            else:
                found.extend(mismatches(actual[key], value, f"{where}.{key}"))
        return found
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected a list of {len(expected)}, got {actual!r}"]
        return [
            p for i, (a, e) in enumerate(zip(actual, expected, strict=True)) for p in mismatches(a, e, f"{where}[{i}]")
        ]
    if actual != expected or type(actual) is not type(expected):
        return [f"{where}: expected {expected!r}, got {actual!r}"]
    return []


@dataclass
class StubServer:
    url: str = ""
    received: list[Received] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    _script: deque[Exchange] = field(default_factory=deque)
    _always: Exchange | None = None
    _httpd: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> StubServer:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                stub._answer(self)

            def do_GET(self) -> None:
                stub._answer(self)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    def script(self, *exchanges: Exchange) -> None:
        with self._lock:
            self._script.extend(exchanges)

    def always(self, exchange: Exchange) -> None:
        """Answer every request (after any scripted ones) with ``exchange``."""
        with self._lock:
            self._always = exchange

    def reset(self) -> None:
        with self._lock:
            self._script.clear()
            self._always = None
            self.received.clear()
            self.problems.clear()

    def unserved(self) -> list[str]:
        with self._lock:
            return [exchange.name for exchange in self._script]

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length", "0"))
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {"<not json>": raw.decode("utf-8", "replace")}
        headers = {k.lower(): v for k, v in handler.headers.items()}
        with self._lock:
            self.received.append(Received(path=handler.path, headers=headers, body=body))
            exchange = self._script.popleft() if self._script else self._always
            problems = self._check(exchange, handler.command, handler.path, headers, body)
            self.problems.extend(problems)
        if exchange is None or problems:
            self._send(handler, 418, {"error": {"message": "stub: unexpected request: " + "; ".join(problems)}})
        else:
            self._send(handler, exchange.status, exchange.response)

    @staticmethod
    def _check(
        exchange: Exchange | None, method: str, path: str, headers: dict[str, str], body: dict[str, Any]
    ) -> list[str]:
        if exchange is None:
            return [f"no exchange scripted for {method} {path}"]
        found = [f"{exchange.name}: {problem}" for problem in mismatches(body, exchange.body_must)]
        if (method, path.split("?")[0]) != (exchange.method, exchange.path):
            found.append(f"{exchange.name}: expected {exchange.method} {exchange.path}, got {method} {path}")
        for name, value in exchange.headers_must.items():
            if headers.get(name) != value:
                found.append(f"{exchange.name}: header {name} expected {value!r}, got {headers.get(name)!r}")
        return found

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, body: Any) -> None:
        payload = json.dumps(body).encode("utf-8")
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(payload)))
        handler.end_headers()
        handler.wfile.write(payload)
