"""What the remote (HTTP) embedders share: settings checks, batching, one JSON POST, reply checks.

Every error says what is wrong and what to do.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import httpx

from asat_ingest.embedder import EmbedderError

DEFAULT_HTTP_BATCH = 32


def check_settings(model: str, dim: int, batch_size: int, no_model: str) -> None:
    """EmbedderError when ``dim`` or ``batch_size`` is below 1, or, saying ``no_model``, when ``model`` is empty."""
    if dim < 1 or batch_size < 1:
        raise EmbedderError(f"dim ({dim}) and batch_size ({batch_size}) must be at least 1")
    if not model:
        raise EmbedderError(no_model)


def embed_in_batches(
    texts: Sequence[str], batch_size: int, embed_batch: Callable[[Sequence[str]], list[list[float]]]
) -> list[list[float]]:
    """``embed_batch`` over ``texts`` in slices of ``batch_size``, vectors in input order."""
    vectors: list[list[float]] = []
    for start in range(0, len(texts), batch_size):
        vectors.extend(embed_batch(texts[start : start + batch_size]))
    return vectors


def post_json(client: httpx.Client, url: str, body: dict[str, Any], what: str) -> Any:
    """POST ``body`` to ``url`` and return the decoded JSON reply, or raise EmbedderError."""
    try:
        response = client.post(url, json=body)
    except httpx.HTTPError as error:
        raise EmbedderError(
            f"{what} at {url} could not be reached ({error.__class__.__name__}: {error}); check that the "
            "server is running and the base URL is right"
        ) from error
    if response.status_code != 200:
        raise EmbedderError(
            f"{what} at {url} answered HTTP {response.status_code}: {response.text[:300]!r}; check the "
            "model name and the API key"
        )
    try:
        return response.json()
    except ValueError as error:
        raise EmbedderError(f"{what} at {url} did not answer JSON: {response.text[:300]!r}") from error


def reply_items(reply: Any, key: str, expected: int, what: str) -> list[Any]:
    """The list under ``key`` in a JSON object ``reply``, or EmbedderError unless it has ``expected`` items."""
    items = reply.get(key) if isinstance(reply, dict) else None
    if not isinstance(items, list) or len(items) != expected:
        count = len(items) if isinstance(items, list) else "no"
        raise EmbedderError(f"{what} returned {count} embeddings for {expected} inputs")
    return items


def check_vector(vector: Any, dim: int, what: str) -> list[float]:
    """``vector`` as a list of floats of length ``dim``, or EmbedderError."""
    if not isinstance(vector, list) or not all(isinstance(x, int | float) for x in vector):
        raise EmbedderError(f"{what} returned an embedding that is not a list of numbers")
    if len(vector) != dim:
        raise EmbedderError(
            f"{what} returned {len(vector)}-dimensional embeddings but the embedder is configured for "
            f"{dim}; set the dimension to match the model"
        )
    values = [float(x) for x in vector]
    if not all(math.isfinite(x) for x in values):
        raise EmbedderError(f"{what} returned an embedding with a non-finite value")
    return values
