"""A tiny local HTTP server speaking the OpenAI and Ollama embeddings wire formats, for tests.

It answers ``POST /v1/embeddings`` (OpenAI) and ``POST /api/embed`` (Ollama) on 127.0.0.1 with
vectors from a :class:`HashEmbedder`, or with a canned reply set in ``replies`` (path -> JSON),
and records every request body it receives in ``requests``.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from asat_ingest.hash_embedder import HashEmbedder


class EmbeddingStubServer:
    def __init__(self, dim: int = 12) -> None:
        self.embedder = HashEmbedder(dim)
        self.requests: list[tuple[str, dict[str, Any], dict[str, str]]] = []
        self.replies: dict[str, tuple[int, Any]] = {}
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                stub.requests.append((self.path, body, {k.lower(): v for k, v in self.headers.items()}))
                status, reply = stub.reply_for(self.path, body)
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def reply_for(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        if path in self.replies:
            return self.replies[path]
        texts = body.get("input", [])
        if isinstance(texts, str):
            texts = [texts]
        vectors = self.embedder.embed(texts)
        if path == "/v1/embeddings":
            data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
            tokens = sum(len(t.split()) for t in texts)
            usage = {"prompt_tokens": tokens, "total_tokens": tokens}
            return 200, {"object": "list", "data": data, "model": body.get("model"), "usage": usage}
        if path == "/api/embed":
            return 200, {"model": body.get("model"), "embeddings": vectors, "prompt_eval_count": len(texts)}
        return 404, {"error": f"no route {path}"}

    def start(self) -> EmbeddingStubServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
