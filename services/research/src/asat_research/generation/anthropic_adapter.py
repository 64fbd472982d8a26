"""Anthropic's Messages API through the official ``anthropic`` SDK.

Structured output comes from a forced tool call: one tool whose ``input_schema`` is the pass's
JSON schema (span keys as an ``enum``) and ``tool_choice`` naming it, so the reply is the tool
call's input, never free text. The API takes no seed (and this SDK no temperature), so neither
is sent and ``seed`` is recorded as ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence

import anthropic
from anthropic.types import Message, MessageParam, ToolChoiceToolParam, ToolParam

from asat_research.generation.model_call import MAX_RETRIES, call_model
from asat_research.generation.port import Generation, GenerationError, NumberedSpan, Selection
from asat_research.generation.provider_label import provider_label
from asat_research.generation.two_pass import ModelReply, PassRequest, run_select, run_write

NAME = "anthropic"
DEFAULT_BASE_URL = "https://api.anthropic.com"
TOOL_DESCRIPTION = "Record the answer. Cite span keys only; never quote the spans."


class AnthropicGenerator:
    name = NAME

    def __init__(
        self,
        model: str,
        api_key: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        max_tokens: int = 2048,
        timeout: float = 60.0,
        max_retries: int = MAX_RETRIES,
    ) -> None:
        self.model = model
        self.seed = None  # the Messages API accepts no seed
        self.max_tokens = max_tokens
        self.provider = provider_label(NAME, base_url)
        # Async: each request runs through call_model, which ends it at the deadline or on cancellation.
        self._client = anthropic.AsyncAnthropic(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries
        )

    def select(self, question: str, spans: Sequence[NumberedSpan]) -> Selection:
        return run_select(self._ask, question, spans, provider=self.provider, model=self.model)

    def write(self, question: str, spans: Sequence[NumberedSpan]) -> Generation:
        return run_write(self._ask, question, spans, provider=self.provider, model=self.model, seed=self.seed)

    def _ask(self, request: PassRequest) -> ModelReply:
        user_turn: MessageParam = {"role": "user", "content": request.user}
        try:
            message = call_model(
                lambda: self._client.messages.create(
                    model=self.model,
                    max_tokens=self.max_tokens,
                    system=request.system,
                    messages=[user_turn],
                    tools=[
                        ToolParam(name=request.schema_name, description=TOOL_DESCRIPTION, input_schema=request.schema)
                    ],
                    tool_choice=ToolChoiceToolParam(
                        type="tool", name=request.schema_name, disable_parallel_tool_use=True
                    ),
                ),
                who=self.provider,
            )
        except anthropic.APIStatusError as exc:
            raise GenerationError(
                f"{self.provider} answered HTTP {exc.status_code} for model {self.model}: {exc.message}. "
                "Check ASAT_GENERATION_MODEL and ASAT_GENERATION_API_KEY."
            ) from exc
        except anthropic.APIError as exc:
            raise GenerationError(
                f"{self.provider} could not be reached or did not answer ({exc}); check "
                "ASAT_GENERATION_BASE_URL and the network."
            ) from exc
        return ModelReply(payload=self._tool_input(message, request), provider=self.provider, model=message.model)

    def _tool_input(self, message: Message, request: PassRequest) -> dict[str, object]:
        if message.stop_reason == "max_tokens":
            raise GenerationError(
                f"{self.provider} model {message.model} stopped at max_tokens ({self.max_tokens}), so the "
                "tool call is cut short; offer fewer spans or raise max_tokens."
            )
        calls = [block for block in message.content if block.type == "tool_use" and block.name == request.schema_name]
        if len(calls) != 1:
            kinds = ", ".join(block.type for block in message.content) or "nothing"
            raise GenerationError(
                f"{self.provider} model {message.model} did not make exactly one forced {request.schema_name} "
                f"tool call (it returned {kinds}); the reply is not used."
            )
        return calls[0].input
