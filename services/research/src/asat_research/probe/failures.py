"""What kind of failure a :class:`GenerationError` from an adapter was.

The adapters wrap every SDK error in a :class:`GenerationError` (``raise ... from exc``); the
cause tells whether the provider could not be reached, did not answer in time, answered with an
HTTP error, or answered with a reply the contract refuses.
"""

from __future__ import annotations

from enum import StrEnum

import anthropic
import httpx
import ollama
import openai

from asat_research.generation.port import GenerationError


class Failure(StrEnum):
    TIMED_OUT = "timed_out"  # connected (or tried to) and got no answer in time
    UNREACHABLE = "unreachable"  # no connection: wrong host or port, server not running
    HTTP_ERROR = "http_error"  # the server answered with an error status: key, model, schema support
    UNUSABLE_REPLY = "unusable_reply"  # the server answered 200, but outside the contract


_TIMEOUTS: tuple[type[BaseException], ...] = (openai.APITimeoutError, anthropic.APITimeoutError, httpx.TimeoutException)
_UNREACHABLE: tuple[type[BaseException], ...] = (
    openai.APIConnectionError,
    anthropic.APIConnectionError,
    httpx.TransportError,
    ConnectionError,
)
_HTTP: tuple[type[BaseException], ...] = (openai.APIStatusError, anthropic.APIStatusError, ollama.ResponseError)


def classify(error: GenerationError) -> Failure:
    cause = error.__cause__
    if isinstance(cause, _TIMEOUTS):
        return Failure.TIMED_OUT
    if isinstance(cause, _UNREACHABLE):
        return Failure.UNREACHABLE
    if isinstance(cause, _HTTP):
        return Failure.HTTP_ERROR
    return Failure.UNUSABLE_REPLY


def no_answer(failure: Failure) -> bool:
    """True when the provider gave no reply at all (or an HTTP error instead of one)."""
    return failure is not Failure.UNUSABLE_REPLY
