"""Any server speaking the OpenAI chat-completions API with strict ``json_schema`` output
(OpenAI, vLLM, llama.cpp server, LM Studio ...), through the official ``openai`` SDK."""

from __future__ import annotations

from collections.abc import Sequence

from asat_research.generation.chat_completions import complete, make_client, reply_content, reported_model
from asat_research.generation.model_call import MAX_RETRIES
from asat_research.generation.port import Generation, NumberedSpan, Selection
from asat_research.generation.provider_label import provider_label
from asat_research.generation.two_pass import DEFAULT_SEED, ModelReply, PassRequest, run_select, run_write

NAME = "openai_compatible"


class OpenAICompatibleGenerator:
    name = NAME

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str,
        *,
        seed: int = DEFAULT_SEED,
        timeout: float = 60.0,
        max_retries: int = MAX_RETRIES,
    ) -> None:
        self.model = model
        self.seed = seed
        self.provider = provider_label(self.name, base_url)
        self._client = make_client(base_url, api_key, timeout=timeout, max_retries=max_retries)

    def select(self, question: str, spans: Sequence[NumberedSpan]) -> Selection:
        return run_select(self._ask, question, spans, provider=self.provider, model=self.model)

    def write(self, question: str, spans: Sequence[NumberedSpan]) -> Generation:
        return run_write(self._ask, question, spans, provider=self.provider, model=self.model, seed=self.seed)

    def _ask(self, request: PassRequest) -> ModelReply:
        completion = complete(self._client, who=self.provider, model=self.model, request=request, seed=self.seed)
        content = reply_content(completion, who=self.provider)
        return ModelReply(payload=content, provider=self.provider, model=reported_model(completion))
