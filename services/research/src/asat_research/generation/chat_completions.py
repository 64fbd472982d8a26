"""One request in the OpenAI chat-completions wire format, shared by the OpenAI-compatible and
aggregator adapters: strict ``json_schema`` response format, temperature 0, a fixed seed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import openai
from openai.types.chat import ChatCompletion

from asat_research.generation.model_call import call_model
from asat_research.generation.port import GenerationError
from asat_research.generation.two_pass import PassRequest


def make_client(base_url: str, api_key: str, *, timeout: float, max_retries: int) -> openai.AsyncOpenAI:
    """The async client: its requests run through :func:`call_model`, which can cancel them."""
    # The SDK refuses an empty key; local OpenAI-compatible servers accept any.
    return openai.AsyncOpenAI(base_url=base_url, api_key=api_key or "unused", timeout=timeout, max_retries=max_retries)


def complete(
    client: openai.AsyncOpenAI,
    *,
    who: str,
    model: str,
    request: PassRequest,
    seed: int,
    extra_body: Mapping[str, Any] | None = None,
) -> ChatCompletion:
    """Sends one pass; any transport or API failure becomes a :class:`GenerationError` naming ``who``
    (the request's deadline or cancellation: the :mod:`model_call` errors, also naming it)."""
    try:
        return call_model(
            lambda: client.chat.completions.create(
                model=model,
                messages=[
                    {"role": "system", "content": request.system},
                    {"role": "user", "content": request.user},
                ],
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": request.schema_name, "strict": True, "schema": request.schema},
                },
                temperature=0,
                seed=seed,
                extra_body=dict(extra_body) if extra_body else None,
            ),
            who=who,
        )
    except openai.APIStatusError as exc:
        raise GenerationError(
            f"{who} answered HTTP {exc.status_code} for model {model}: {exc.message}. Check "
            "ASAT_GENERATION_MODEL and ASAT_GENERATION_API_KEY, and that the model supports "
            "json_schema structured output."
        ) from exc
    except openai.APIError as exc:
        raise GenerationError(
            f"{who} could not be reached or did not answer ({exc}); check ASAT_GENERATION_BASE_URL "
            "and that the server is running."
        ) from exc


def reply_content(completion: ChatCompletion, *, who: str) -> str:
    """The first choice's text, or a :class:`GenerationError` saying why there is none usable."""
    if not completion.choices:
        raise GenerationError(f"{who} returned no choices for model {completion.model}; the reply is not used.")
    choice = completion.choices[0]
    if choice.message.refusal:
        raise GenerationError(f"{who} model {completion.model} refused: {choice.message.refusal}")
    if choice.finish_reason == "length":
        raise GenerationError(
            f"{who} model {completion.model} stopped at its length limit, so the JSON is cut short; "
            "offer fewer spans or use a model with a larger output limit."
        )
    if choice.message.content is None:
        raise GenerationError(f"{who} model {completion.model} returned no content (finish {choice.finish_reason}).")
    return choice.message.content


def reported_model(completion: ChatCompletion) -> str:
    """The model the response names, with the backend fingerprint where one is reported."""
    if completion.system_fingerprint:
        return f"{completion.model} (system_fingerprint {completion.system_fingerprint})"
    return completion.model
