"""Any server speaking the OpenAI chat-completions API (OpenAI, vLLM, llama.cpp server, LM Studio ...).

``POST {base_url}/chat/completions`` with a strict ``json_schema`` response format, temperature 0
and a fixed seed. An image document's pages go in the user turn as ``image_url`` parts holding
``data:`` URLs (vision models); the text is always sent too, since only it can ground a value.
"""

from __future__ import annotations

import base64
from typing import Any

from asat_extraction.extractor.port import ExtractorError
from asat_extraction.model.extractor import ModelRequest
from asat_extraction.model.transport import make_client, post_json, reply_object

NAME = "openai"
SEED = 7


class OpenAITransport:
    provider = NAME

    def __init__(self, base_url: str, model: str, api_key: str = "", *, timeout: float = 120.0) -> None:
        self.model = model
        self.who = f"{NAME} at {base_url}"
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = make_client(base_url.rstrip("/") + "/", headers, timeout)

    def body(self, request: ModelRequest) -> dict[str, Any]:
        user: str | list[dict[str, Any]] = request.user
        if request.images:
            user = [{"type": "text", "text": request.user}] + [
                {
                    "type": "image_url",
                    "image_url": {
                        "url": f"data:{image.media_type};base64,{base64.b64encode(image.data).decode('ascii')}"
                    },
                }
                for image in request.images
            ]
        return {
            "model": self.model,
            "messages": [{"role": "system", "content": request.system}, {"role": "user", "content": user}],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": request.schema_name, "strict": True, "schema": request.schema},
            },
            "temperature": 0,
            "seed": SEED,
        }

    def ask(self, request: ModelRequest) -> dict[str, object]:
        reply = post_json(self._client, "chat/completions", self.body(request), who=self.who, model=self.model)
        choices = reply.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise ExtractorError(f"{self.who} returned no choices for model {self.model}; the document was not read")
        choice = choices[0]
        message = choice.get("message") if isinstance(choice.get("message"), dict) else {}
        assert isinstance(message, dict)
        if message.get("refusal"):
            raise ExtractorError(f"{self.who} model {self.model} refused: {message['refusal']}")
        if choice.get("finish_reason") == "length":
            raise ExtractorError(
                f"{self.who} model {self.model} stopped at its length limit, so the JSON is cut short; "
                "use a model with a larger output limit"
            )
        content = message.get("content")
        return reply_object(content if isinstance(content, str) else None, who=self.who, model=self.model)
