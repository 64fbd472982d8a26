"""The Retriever adapter over HTTP: the ingest service owns the index and answers searches."""

from __future__ import annotations

from typing import Any

import httpx

from asat_research.retrieval import Hit, RetrievalUnavailable, SearchResult


class RetrievalRequestError(ValueError):
    """The ingest service refused the request as invalid (4xx): the caller's input was wrong."""


class HttpRetriever:
    def __init__(self, base_url: str, timeout_s: float = 10.0, client: httpx.Client | None = None) -> None:
        """``client`` replaces the HTTP client (tests pass a FastAPI TestClient of the real service)."""
        self.base_url = base_url.rstrip("/")
        self._client = client if client is not None else httpx.Client(base_url=self.base_url, timeout=timeout_s)

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            reply = self._client.post(path, json=body)
        except httpx.HTTPError as exc:
            raise RetrievalUnavailable(
                f"the index service at {self.base_url} cannot be reached ({type(exc).__name__}): "
                "start it with `python -m asat_ingest serve`"
            ) from exc
        return self._body(reply)

    def _body(self, reply: httpx.Response) -> dict[str, Any]:
        try:
            body: dict[str, Any] = reply.json()
        except ValueError:
            body = {"message": reply.text[:200]}
        if reply.status_code >= 500:
            raise RetrievalUnavailable(f"the index service answered {reply.status_code}: {body.get('message', body)}")
        if reply.status_code >= 400:
            raise RetrievalRequestError(str(body.get("message", body)))
        return body

    def search(
        self, query: str, income_year: int, limit: int, acts: tuple[str, ...] | None = None, axis: str = "in_force"
    ) -> SearchResult:
        body = self._post(
            "/v1/search",
            {
                "query": query,
                "income_year": income_year,
                "limit": limit,
                "acts": list(acts) if acts else None,
                "axis": axis,
            },
        )
        hits = tuple(
            Hit(
                chunk_id=h["chunk_id"],
                source_id=h["source_id"],
                score=float(h["score"]),
                dense_score=float(h["dense_score"]),
                payload=h["payload"],
            )
            for h in body["hits"]
        )
        return SearchResult(hits=hits, corpus_generation=body["corpus_generation"], embedder=body["embedder"])

    def index_generation(self) -> str:
        try:
            reply = self._client.get("/v1/index")
        except httpx.HTTPError as exc:
            raise RetrievalUnavailable(f"the index service at {self.base_url} cannot be reached: {exc}") from exc
        body = self._body(reply)
        if body.get("state") != "ready":
            raise RetrievalUnavailable(f"the index is not ready ({body.get('state')}): {body.get('message')}")
        return str(body["corpus_generation"])

    def close(self) -> None:
        self._client.close()
