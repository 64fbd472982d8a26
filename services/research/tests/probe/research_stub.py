"""A stub research service for the ``ask`` tests: ``POST /v1/research`` over real HTTP.

It answers with one recorded outcome (``recorded/<name>.json``, produced by the API's own
``outcome_json``; ``test_ask`` checks they still are exactly what it produces), rendered by the
same ``JSONResponse`` the API returns it with, or with a scripted error; and it validates each
request with the API's own ``ResearchRequest``, answering 422 in the API's error shape as the
real service does.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from fastapi.responses import JSONResponse
from pydantic import ValidationError

from asat_corpus.contracts.research import ResearchRequest

RECORDED = Path(__file__).resolve().parent / "recorded"


def recorded(name: str) -> dict[str, Any]:
    body: dict[str, Any] = json.loads((RECORDED / f"{name}.json").read_text(encoding="utf-8"))
    return body


def as_sent(body: dict[str, Any]) -> str:
    """The body exactly as the API's ``JSONResponse`` puts it on the wire."""
    return bytes(JSONResponse(body).body).decode("utf-8")


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

    def reset(self) -> None:
        self.status, self.body = 200, ""
        self.requests.clear()
        self.paths.clear()

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    def answer_with(self, name: str) -> None:
        self.status, self.body = 200, as_sent(recorded(name))

    def reply_with(self, status: int, body: dict[str, Any]) -> None:
        self.status, self.body = status, as_sent(body)

    def _reply(self, path: str, raw: dict[str, Any]) -> tuple[int, str]:
        if path != "/v1/research":
            return 404, json.dumps({"detail": "Not Found"})
        try:
            ResearchRequest.model_validate(raw)
        except ValidationError as exc:
            details = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()]
            return 422, json.dumps({"error": "invalid_request", "message": "; ".join(details), "details": details})
        return self.status, self.body
