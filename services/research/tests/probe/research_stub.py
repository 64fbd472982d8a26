"""A stub research service for the ``ask`` tests: ``POST /v1/research`` over real HTTP.

It answers with one recorded reply (``recorded/<name>.json``, produced by the API's own
``outcome_json``; ``test_ask`` checks they still are exactly what it produces) or a scripted
error, and validates each request with the API's own ``ResearchRequest``, answering 422 in the
API's error shape as the real service does.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from asat_research.api import ResearchRequest

RECORDED = Path(__file__).resolve().parent / "recorded"


def recorded_text(name: str) -> str:
    return (RECORDED / f"{name}.json").read_text(encoding="utf-8")


def recorded(name: str) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(recorded_text(name))
    return body


@dataclass
class ResearchStub:
    url: str = ""
    status: int = 200
    body: str = ""  # the reply, sent byte for byte
    requests: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    _httpd: ThreadingHTTPServer | None = None

    def start(self) -> ResearchStub:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                raw = json.loads(self.rfile.read(length) or b"{}")
                stub.paths.append(self.path)
                stub.requests.append(raw)
                status, body = stub._reply(self.path, raw)
                payload = body.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

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

    def answer_with(self, name: str) -> None:
        self.status, self.body = 200, recorded_text(name)

    def fail_with(self, status: int, body: dict[str, Any]) -> None:
        self.status, self.body = status, json.dumps(body)

    def _reply(self, path: str, raw: dict[str, Any]) -> tuple[int, str]:
        if path != "/v1/research":
            return 404, json.dumps({"detail": "Not Found"})
        try:
            ResearchRequest.model_validate(raw)
        except ValidationError as exc:
            details = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()]
            return 422, json.dumps({"error": "invalid_request", "message": "; ".join(details), "details": details})
        return self.status, self.body
