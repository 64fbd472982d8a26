"""The Retriever adapter over HTTP: the ingest service owns the index and answers searches.

Requests and replies are the ``asat_corpus.contracts.search`` models. Ingest unreachable, or
answering 503 (its index not ready), is :class:`RetrievalUnavailable`; any other error status, or
a reply that does not match the contract, is :class:`IngestReplyError` (research answers 502).
"""

from __future__ import annotations

from typing import TypeVar

import httpx
from pydantic import BaseModel, ValidationError

from asat_corpus.contracts.errors import describe_validation_error
from asat_corpus.contracts.search import IndexInfo, SearchReply, SearchRequest
from asat_corpus.service_token import bearer_headers
from asat_research.retrieval import Hit, IndexReport, RetrievalUnavailable, SearchResult
from asat_research.unusable_reply import UnusableReply

INGEST = "the ingest service"
RETRIEVAL_TIMEOUT_S = 10.0  # each wait on ingest (connect, send, read); tests/test_deadlines.py
Reply = TypeVar("Reply", bound=BaseModel)


class IngestReplyError(RetrievalUnavailable, UnusableReply):
    """Ingest answered with an error status (other than 503) or a reply that breaks its contract."""

    service = "ingest"


class HttpRetriever:
    def __init__(
        self,
        base_url: str,
        timeout_s: float = RETRIEVAL_TIMEOUT_S,
        client: httpx.Client | None = None,
        service_token: str | None = None,
    ) -> None:
        """``client`` replaces the HTTP client (tests pass a FastAPI TestClient of the real service);
        ``service_token`` is sent with every request (ingest refuses one without it)."""
        self.base_url = base_url.rstrip("/")
        self._client = client if client is not None else httpx.Client(base_url=self.base_url, timeout=timeout_s)
        self._auth = bearer_headers(service_token)

    def _call(self, method: str, path: str, reply_model: type[Reply], body: BaseModel | None = None) -> Reply:
        try:
            if body is None:
                reply = self._client.request(method, path, headers=self._auth)
            else:
                content = body.model_dump_json()
                reply = self._client.request(
                    method, path, content=content, headers={"content-type": "application/json", **self._auth}
                )
        except httpx.HTTPError as exc:
            raise RetrievalUnavailable(
                f"{INGEST} at {self.base_url} cannot be reached ({type(exc).__name__}): "
                "start it with `python -m asat_ingest serve`"
            ) from exc
        where = f"{method} {path}"
        if reply.status_code == 503:
            raise RetrievalUnavailable(f"{INGEST} cannot search now (503 to {where}): {_message(reply)}")
        if reply.status_code != 200:
            raise IngestReplyError(f"{INGEST} answered {reply.status_code} to {where}: {_message(reply)}")
        try:
            return reply_model.model_validate_json(reply.content)
        except ValidationError as exc:
            raise IngestReplyError(
                f"{INGEST} sent a reply to {where} that is not a {reply_model.__name__} "
                f"({describe_validation_error(exc)}): are research and ingest the same release?"
            ) from exc

    def search(
        self, query: str, income_year: int, limit: int, acts: tuple[str, ...] | None = None, axis: str = "in_force"
    ) -> SearchResult:
        try:
            request = SearchRequest.model_validate(
                {
                    "query": query,
                    "income_year": income_year,
                    "limit": limit,
                    "acts": list(acts) if acts else None,
                    "axis": axis,
                }
            )
        except ValidationError as exc:
            raise ValueError(f"the search cannot be sent to {INGEST}: {describe_validation_error(exc)}") from exc
        reply = self._call("POST", "/v1/search", SearchReply, request)
        hits = tuple(
            Hit(chunk_id=h.chunk_id, source_id=h.source_id, score=h.score, dense_score=h.dense_score, payload=h.payload)
            for h in reply.hits
        )
        return SearchResult(hits=hits, corpus_generation=reply.corpus_generation, embedder=reply.embedder)

    def index_generation(self) -> str:
        info = self._call("GET", "/v1/index", IndexInfo)
        if info.state != "ready" or info.corpus_generation is None:
            raise RetrievalUnavailable(f"the index is not ready ({info.state}): {info.message}")
        return info.corpus_generation

    def index_report(self) -> IndexReport:
        info = self._call("GET", "/v1/index", IndexInfo)
        return IndexReport(info.state, info.message, info.corpus_generation, info.build)

    def close(self) -> None:
        self._client.close()


def _message(reply: httpx.Response) -> str:
    """What an error reply says: its ``message`` (an ErrorBody), else the start of its text."""
    try:
        body = reply.json()
    except ValueError:
        return reply.text[:300] or reply.reason_phrase
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return str(body["message"])
    return reply.text[:300]
