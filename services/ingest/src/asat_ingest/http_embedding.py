"""The HTTP plumbing the remote embedders share: one JSON POST, errors that say what to do."""

from __future__ import annotations

import math
from typing import Any

import httpx

from asat_ingest.embedder import EmbedderError


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
