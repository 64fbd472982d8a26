"""Embeddings from an Ollama server: ``POST {base_url}/api/embed``.

Request ``{"model": ..., "input": [texts], "truncate": true}``; reply
``{"model": ..., "embeddings": [[...], ...]}`` in input order.
"""

from __future__ import annotations

from collections.abc import Sequence

import httpx

from asat_corpus.redaction import url_without_credentials
from asat_ingest.http_embedding import (
    DEFAULT_HTTP_BATCH,
    check_settings,
    check_vector,
    embed_in_batches,
    post_json,
    reply_items,
)

DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434"


class OllamaEmbedder:
    def __init__(
        self,
        model: str,
        dim: int,
        base_url: str = DEFAULT_OLLAMA_URL,
        batch_size: int = DEFAULT_HTTP_BATCH,
        revision: str = "",
        timeout_s: float = 120.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        check_settings(model, dim, batch_size, "an Ollama embedder needs a model name, e.g. nomic-embed-text")
        self._url = base_url.rstrip("/") + "/api/embed"
        self._model = model
        self._dim = dim
        self._batch_size = batch_size
        self._revision = revision
        self._client = httpx.Client(timeout=timeout_s, transport=transport)

    @property
    def identity(self) -> str:
        return (
            f"ollama|{url_without_credentials(self._url)}|model={self._model}|revision={self._revision}|dim={self._dim}"
        )

    @property
    def dim(self) -> int:
        return self._dim

    def _embed_batch(self, texts: Sequence[str]) -> list[list[float]]:
        what = f"the Ollama embed endpoint (model {self._model})"
        reply = post_json(self._client, self._url, {"model": self._model, "input": list(texts), "truncate": True}, what)
        embeddings = reply_items(reply, "embeddings", len(texts), what)
        return [check_vector(vector, self._dim, what) for vector in embeddings]

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Questions are embedded as documents are."""
        return self.embed(texts)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return embed_in_batches(texts, self._batch_size, self._embed_batch)

    def close(self) -> None:
        self._client.close()
