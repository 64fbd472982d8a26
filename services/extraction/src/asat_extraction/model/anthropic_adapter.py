"""Anthropic's Messages API: ``POST {base_url}/v1/messages``.

Structured output comes from a forced tool call: one tool whose ``input_schema`` is the reply
schema and ``tool_choice`` naming it, so the reply is the tool call's input, never free text. An
image document's pages go first in the user turn as base64 ``image`` blocks (vision).
"""

from __future__ import annotations

import base64
from typing import Any

from asat_extraction.extractor.port import ExtractorError
from asat_extraction.model.extractor import ModelRequest
from asat_extraction.model.transport import make_client, post_json

NAME = "anthropic"
DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"
MAX_TOKENS = 4096
TOOL_DESCRIPTION = "Record the document's fields, each copied exactly as printed, or null."


class AnthropicTransport:
    provider = NAME

    def __init__(self, base_url: str, model: str, api_key: str, *, timeout: float = 120.0) -> None:
        self.model = model
        self.who = f"{NAME} at {base_url}"
        headers = {"x-api-key": api_key, "anthropic-version": API_VERSION}
        self._client = make_client(base_url.rstrip("/") + "/", headers, timeout)

    def body(self, request: ModelRequest) -> dict[str, Any]:
        content: list[dict[str, Any]] = [
            {
                "type": "image",
                "source": {
                    "type": "base64",
                    "media_type": image.media_type,
                    "data": base64.b64encode(image.data).decode("ascii"),
                },
            }
            for image in request.images
        ]
        content.append({"type": "text", "text": request.user})
        return {
            "model": self.model,
            "max_tokens": MAX_TOKENS,
            "temperature": 0,
            "system": request.system,
            "messages": [{"role": "user", "content": content}],
            "tools": [{"name": request.schema_name, "description": TOOL_DESCRIPTION, "input_schema": request.schema}],
            "tool_choice": {"type": "tool", "name": request.schema_name, "disable_parallel_tool_use": True},
        }

    def ask(self, request: ModelRequest) -> dict[str, object]:
        reply = post_json(self._client, "v1/messages", self.body(request), who=self.who, model=self.model)
        if reply.get("stop_reason") == "max_tokens":
            raise ExtractorError(
                f"{self.who} model {self.model} stopped at max_tokens ({MAX_TOKENS}), so the tool call is cut short"
            )
        blocks = reply.get("content") if isinstance(reply.get("content"), list) else []
        assert isinstance(blocks, list)
        calls = [
            block
            for block in blocks
            if isinstance(block, dict) and block.get("type") == "tool_use" and block.get("name") == request.schema_name
        ]
        if len(calls) != 1 or not isinstance(calls[0].get("input"), dict):
            kinds = ", ".join(str(block.get("type")) for block in blocks if isinstance(block, dict)) or "nothing"
            raise ExtractorError(
                f"{self.who} model {self.model} did not make exactly one forced {request.schema_name} tool call "
                f"(it returned {kinds}); the document was not read"
            )
        tool_input: dict[str, object] = calls[0]["input"]
        return tool_input
