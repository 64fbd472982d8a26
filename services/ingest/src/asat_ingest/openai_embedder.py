"""Embeddings from any OpenAI-compatible server: ``POST {base_url}/embeddings``.

Request ``{"model": ..., "input": [texts], "encoding_format": "float"}`` (plus ``dimensions``
when asked for); reply ``{"data": [{"index": i, "embedding": [...]}, ...]}``, put back in input
order by ``index``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx

from asat_corpus.redaction import url_without_credentials
from asat_ingest.embedder import EmbedderError
from asat_ingest.http_embedding import (
    DEFAULT_HTTP_BATCH,
    check_settings,
    check_vector,
    embed_in_batches,
    post_json,
    reply_items,
)


class OpenAICompatibleEmbedder:
    def __init__(
        self,
        base_url: str,
        model: str,
        dim: int,
        api_key: str | None = None,
        request_dimensions: bool = False,
        batch_size: int = DEFAULT_HTTP_BATCH,
        revision: str = "",
        timeout_s: float = 60.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        check_settings(model, dim, batch_size, "an OpenAI-compatible embedder needs a model name")
        self._url = base_url.rstrip("/") + "/embeddings"
        self._model = model
        self._dim = dim
        self._request_dimensions = request_dimensions
        self._batch_size = batch_size
        self._revision = revision
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(headers=headers, timeout=timeout_s, transport=transport)

    @property
    def identity(self) -> str:
        return f"openai-compatible|{url_without_credentials(self._url)}|model={self._model}|revision={self._revision}|dim={self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def _body(self, texts: Sequence[str]) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self._model, "input": list(texts), "encoding_format": "float"}
        if self._request_dimensions:
            body["dimensions"] = self._dim
        return body

    def _embed_batch(self, texts: Sequence[str]) -> list[list[float]]:
        what = f"the OpenAI-compatible embeddings endpoint (model {self._model})"
        reply = post_json(self._client, self._url, self._body(texts), what)
        data = reply_items(reply, "data", len(texts), what)
        by_index: dict[int, list[float]] = {}
        for item in data:
            if not isinstance(item, dict) or not isinstance(item.get("index"), int):
                raise EmbedderError(f"{what} returned a data item without an integer index")
            by_index[item["index"]] = check_vector(item.get("embedding"), self._dim, what)
        if sorted(by_index) != list(range(len(texts))):
            raise EmbedderError(f"{what} returned indices {sorted(by_index)} for {len(texts)} inputs")
        return [by_index[i] for i in range(len(texts))]

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Questions are embedded as documents are."""
        return self.embed(texts)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return embed_in_batches(texts, self._batch_size, self._embed_batch)

    def close(self) -> None:
        self._client.close()
