"""A local (or hosted) Ollama server: ``POST {base_url}/api/chat``.

``format`` carries the reply schema, ``options`` a fixed seed and temperature 0, ``stream`` is
off. An image document's pages go in the user message's ``images`` (base64), for vision models
such as ``llama3.2-vision`` or ``qwen2.5vl``.
"""

from __future__ import annotations

import base64
from typing import Any

from asat_extraction.extractor.port import ExtractorError
from asat_extraction.model.extractor import ModelRequest
from asat_extraction.model.transport import make_client, post_json, reply_object

NAME = "ollama"
DEFAULT_BASE_URL = "http://127.0.0.1:11434"
SEED = 7


class OllamaTransport:
    provider = NAME

    def __init__(self, base_url: str, model: str, api_key: str = "", *, timeout: float = 120.0) -> None:
        self.model = model
        self.who = f"{NAME} at {base_url}"
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = make_client(base_url.rstrip("/") + "/", headers, timeout)

    def body(self, request: ModelRequest) -> dict[str, Any]:
        user: dict[str, Any] = {"role": "user", "content": request.user}
        if request.images:
            user["images"] = [base64.b64encode(image.data).decode("ascii") for image in request.images]
        return {
            "model": self.model,
            "messages": [{"role": "system", "content": request.system}, user],
            "format": request.schema,
            "options": {"seed": SEED, "temperature": 0},
            "stream": False,
        }

    def ask(self, request: ModelRequest) -> dict[str, object]:
        try:
            reply = post_json(self._client, "api/chat", self.body(request), who=self.who, model=self.model)
        except ExtractorError as error:
            if "HTTP 404" in error.message:
                raise ExtractorError(f"{error.message}; is it pulled? `ollama pull {self.model}`") from None
            raise
        if reply.get("done_reason") == "length":
            raise ExtractorError(
                f"{self.who} model {self.model} stopped at its length limit, so the JSON is cut short; "
                "raise num_predict"
            )
        message = reply.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        return reply_object(content if isinstance(content, str) else None, who=self.who, model=self.model)
