"""A local (or hosted) Ollama server through the official ``ollama`` client: ``format`` carries
the pass's JSON schema, ``options`` a fixed seed and temperature 0."""

from __future__ import annotations

from collections.abc import Sequence

import httpx
import ollama

from asat_research.generation.model_call import call_model
from asat_research.generation.port import Generation, GenerationError, NumberedSpan, Selection
from asat_research.generation.provider_label import provider_label
from asat_research.generation.two_pass import DEFAULT_SEED, ModelReply, PassRequest, run_select, run_write

NAME = "ollama"
DEFAULT_BASE_URL = "http://127.0.0.1:11434"


class OllamaGenerator:
    name = NAME

    def __init__(
        self,
        model: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str = "",
        seed: int = DEFAULT_SEED,
        timeout: float = 120.0,
    ) -> None:
        self.model = model
        self.seed = seed
        self.provider = provider_label(NAME, base_url)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else None
        # Async: each request runs through call_model, which ends it at the deadline or on cancellation.
        self._client = ollama.AsyncClient(host=base_url, timeout=timeout, headers=headers)

    def select(self, question: str, spans: Sequence[NumberedSpan]) -> Selection:
        return run_select(self._ask, question, spans, provider=self.provider, model=self.model)

    def write(self, question: str, spans: Sequence[NumberedSpan]) -> Generation:
        return run_write(self._ask, question, spans, provider=self.provider, model=self.model, seed=self.seed)

    def _ask(self, request: PassRequest) -> ModelReply:
        try:
            response = call_model(
                lambda: self._client.chat(
                    model=self.model,
                    messages=[
                        {"role": "system", "content": request.system},
                        {"role": "user", "content": request.user},
                    ],
                    format=request.schema,
                    options={"seed": self.seed, "temperature": 0},
                    stream=False,
                ),
                who=self.provider,
            )
        except ollama.ResponseError as exc:
            raise GenerationError(
                f"{self.provider} answered HTTP {exc.status_code} for model {self.model}: {exc.error}. "
                f"Check ASAT_GENERATION_MODEL (is it pulled? `ollama pull {self.model}`)."
            ) from exc
        except (ConnectionError, httpx.HTTPError) as exc:
            raise GenerationError(
                f"{self.provider} could not be reached or did not answer ({exc}); check "
                "ASAT_GENERATION_BASE_URL and that `ollama serve` is running."
            ) from exc
        if response.done_reason == "length":
            raise GenerationError(
                f"{self.provider} model {response.model} stopped at its length limit, so the JSON is cut short; "
                "offer fewer spans or raise num_predict."
            )
        content = response.message.content
        if content is None:
            raise GenerationError(f"{self.provider} model {response.model} returned no content.")
        return ModelReply(payload=content, provider=self.provider, model=response.model or self.model)
