"""An OpenRouter-style aggregator: the OpenAI wire format at a base URL, routed to whichever
upstream provider serves the model.

The request asks the router to use only providers that honour every parameter sent
(``provider.require_parameters``), so the JSON schema should reach the model; if a provider
drops it anyway, the reply fails the schema check and is refused with a
:class:`~asat_research.generation.reply_parser.SchemaViolation` naming that provider. The
upstream provider and the model the response reports are recorded.
"""

from __future__ import annotations

from typing import Any

from openai.types.chat import ChatCompletion

from asat_research.generation.chat_completions import complete, reply_content, reported_model
from asat_research.generation.openai_compatible import OpenAICompatibleGenerator
from asat_research.generation.two_pass import ModelReply, PassRequest

NAME = "aggregator"
DEFAULT_BASE_URL = "https://openrouter.ai/api/v1"
ROUTING: dict[str, Any] = {"provider": {"require_parameters": True}}


class AggregatorGenerator(OpenAICompatibleGenerator):
    """The OpenAI-compatible generator, plus routing parameters and the upstream provider."""

    name = NAME

    def _ask(self, request: PassRequest) -> ModelReply:
        completion = complete(
            self._client, who=self.provider, model=self.model, request=request, seed=self.seed, extra_body=ROUTING
        )
        answered_by = f"{self.provider}/{upstream_provider(completion)}"
        content = reply_content(completion, who=answered_by)
        return ModelReply(payload=content, provider=answered_by, model=reported_model(completion))


def upstream_provider(completion: ChatCompletion) -> str:
    """The ``provider`` field OpenRouter adds to the response, or ``unknown`` when absent."""
    extra = completion.model_extra or {}
    reported = extra.get("provider")
    return reported if isinstance(reported, str) and reported else "unknown"
