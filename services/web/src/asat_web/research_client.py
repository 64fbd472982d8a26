"""The research service over HTTP: the only way the web service reaches the pipeline.

Every reply is read as its ``asat_corpus.contracts`` model. Failures become
:class:`ResearchUnavailable` (the service cannot be reached, or answered 503: says how to start
it; :class:`IndexNotReady` when the 503 says the index is being built or its build failed, with
the build), :class:`ResearchRejected` (it refused the request itself, 404 or 422: carries its message) or
:class:`ResearchReplyError` (any other error status, or a reply that breaks the contract: the
pages answer 502 naming the research service).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, ValidationError

from asat_corpus.contracts.audit_log import AuditEntryOut, ChainReportOut
from asat_corpus.contracts.errors import describe_validation_error
from asat_corpus.contracts.provider import ProviderCheckReply
from asat_corpus.contracts.research import PeriodPreview, ResearchOutcome, UnavailableBody
from asat_corpus.contracts.search import IndexBuild, IndexReadiness
from asat_corpus.contracts.source_view import SourceOut
from asat_corpus.service_token import bearer_headers
from asat_web.source_path import NotASourceId, source_path
from asat_web.sse import SseEvent, SseParser

START_HINT = "start it with `python -m asat_research serve` (or `make up`), or set ASAT_RESEARCH_URL"
# The research service's refusals of a request itself (not found, invalid): passed on as they are.
REFUSALS = frozenset({404, 422})
# How long the web waits for research to answer a question. Research's own deadline for the model
# calls, plus its bounded stages after them, ends every question well before it (tests/test_deadlines.py),
# so the user sees an audited abstention, never a timeout of the web's.
RESEARCH_TIMEOUT_S = 120.0
PROVIDER_CHECK_TIMEOUT_S = 300.0  # the probe sends the provider several requests, each up to its own timeout
Reply = TypeVar("Reply", bound=BaseModel)


class ResearchUnavailable(Exception):
    """The research service is down, unreachable or failed; nothing is shown as an answer."""


class IndexNotReady(ResearchUnavailable):
    """Research refused a question because the index is being built (``index_building``) or its
    build failed (``index_build_failed``): shown as a notice with the build's progress, never as an
    answer. ``build`` is the build research reported; ``retry_after`` its ``Retry-After``."""

    def __init__(self, error: str, message: str, build: IndexBuild | None, retry_after: int | None) -> None:
        super().__init__(message)
        self.error = error
        self.build = build
        self.retry_after = retry_after

    @property
    def building(self) -> bool:
        return self.error == INDEX_BUILDING

    def readiness(self) -> IndexReadiness:
        """The refusal as the index's readiness (what the page shows)."""
        return IndexReadiness(state="building" if self.building else "failed", message=str(self), build=self.build)


INDEX_BUILDING = "index_building"
INDEX_REFUSALS = frozenset({INDEX_BUILDING, "index_build_failed"})


class ResearchReplyError(ResearchUnavailable):
    """The research service answered unusably: an error status other than a refusal or 503, or a
    reply that does not match its contract. Shown as a 502 naming the research service."""


class ResearchRejected(Exception):
    """The research service refused the request (4xx); ``status`` and its message are kept."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class ResearchClient:
    def __init__(
        self,
        base_url: str,
        client: httpx.AsyncClient | None = None,
        timeout_s: float = RESEARCH_TIMEOUT_S,
        service_token: str | None = None,
    ) -> None:
        """``service_token`` goes with every request: research refuses one without it (401)."""
        self.base_url = base_url.rstrip("/")
        self._client = client or httpx.AsyncClient(base_url=self.base_url, timeout=timeout_s)
        self._auth = bearer_headers(service_token)

    async def aclose(self) -> None:
        await self._client.aclose()

    @asynccontextmanager
    async def stream(self, body: Mapping[str, Any]) -> AsyncIterator[AsyncIterator[SseEvent]]:
        """``POST /v1/research/stream``: the events as they arrive."""
        try:
            async with self._client.stream(
                "POST", f"{self.base_url}/v1/research/stream", json=dict(body), headers=self._auth
            ) as reply:
                if reply.status_code != 200:
                    await reply.aread()
                    self._raise_for(reply, "POST /v1/research/stream")
                    raise ResearchReplyError(
                        f"the research service answered {reply.status_code} to POST /v1/research/stream"
                    )
                yield _events(reply)
        except httpx.HTTPError as exc:
            raise self._unreachable(exc) from exc

    @asynccontextmanager
    async def across_years(self, body: Mapping[str, Any]) -> AsyncIterator[AsyncIterator[SseEvent]]:
        """``POST /v1/research/across-years``: the plan, each year's outcome, then done, as they arrive."""
        path = "/v1/research/across-years"
        try:
            async with self._client.stream(
                "POST", f"{self.base_url}{path}", json=dict(body), headers=self._auth
            ) as reply:
                if reply.status_code != 200:
                    await reply.aread()
                    self._raise_for(reply, f"POST {path}")
                    raise ResearchReplyError(f"the research service answered {reply.status_code} to POST {path}")
                yield _events(reply)
        except httpx.HTTPError as exc:
            raise self._unreachable(exc) from exc

    async def research(self, body: Mapping[str, Any]) -> ResearchOutcome:
        """``POST /v1/research``: the outcome as one JSON reply."""
        return await self._call("POST", "/v1/research", ResearchOutcome, json=dict(body))

    async def period(self, body: Mapping[str, Any]) -> PeriodPreview:
        """``POST /v1/period``: the period the question would be answered for, not answering it."""
        return await self._call("POST", "/v1/period", PeriodPreview, json=dict(body))

    async def source(self, source_id: str) -> SourceOut:
        try:
            path = source_path(source_id)
        except NotASourceId as exc:
            raise ResearchRejected(404, str(exc)) from exc
        return await self._call("GET", path, SourceOut)

    async def provider_check(self, body: Mapping[str, Any]) -> ProviderCheckReply:
        """``POST /v1/provider/check``: the provider probe over ``body``'s settings (with their key).
        It may take a while (several requests to the provider), hence its own timeout."""
        return await self._call(
            "POST", "/v1/provider/check", ProviderCheckReply, json=dict(body), timeout=PROVIDER_CHECK_TIMEOUT_S
        )

    async def audit_entry(self, entry_id: int) -> AuditEntryOut:
        """``GET /v1/audit/{id}``: one row of the log. The web asks only for a row of the signed-in
        practice's research history (``AccountsStore.owns_audit_row``); the practice's lists are
        its history, never research's ``GET /v1/audit``."""
        return await self._call("GET", f"/v1/audit/{entry_id}", AuditEntryOut)

    async def audit_verify(self) -> ChainReportOut:
        return await self._call("GET", "/v1/audit/verify", ChainReportOut)

    async def index_status(self) -> IndexReadiness:
        """``GET /v1/index/status``: whether a question can be answered now (the build's progress)."""
        return await self._call("GET", "/v1/index/status", IndexReadiness)

    async def _call(self, method: str, path: str, model: type[Reply], **kwargs: Any) -> Reply:
        try:
            reply = await self._client.request(method, f"{self.base_url}{path}", headers=self._auth, **kwargs)
        except httpx.HTTPError as exc:
            raise self._unreachable(exc) from exc
        self._raise_for(reply, f"{method} {path}")
        if reply.status_code != 200:
            raise ResearchReplyError(f"the research service answered {reply.status_code} to {method} {path}")
        try:
            return model.model_validate_json(reply.content)
        except ValidationError as exc:
            raise ResearchReplyError(
                f"the research service sent a reply to {method} {path} that is not a {model.__name__} "
                f"({describe_validation_error(exc)}): is ASAT_RESEARCH_URL the research service, of this release?"
            ) from exc

    def _raise_for(self, reply: httpx.Response, where: str) -> None:
        if reply.status_code < 400:
            return
        message = _message(reply)
        if reply.status_code == 503:
            refused = _index_refusal(reply)
            if refused is not None:
                raise refused
            raise ResearchUnavailable(f"the research service cannot answer now (503): {message}")
        if reply.status_code in REFUSALS:
            raise ResearchRejected(reply.status_code, message)
        raise ResearchReplyError(f"the research service answered {reply.status_code} to {where}: {message}")

    def _unreachable(self, exc: httpx.HTTPError) -> ResearchUnavailable:
        return ResearchUnavailable(
            f"the research service at {self.base_url} cannot be reached ({type(exc).__name__}: {exc}); {START_HINT}"
        )


async def _events(reply: httpx.Response) -> AsyncIterator[SseEvent]:
    parser = SseParser()
    async for text in reply.aiter_text():
        for event in parser.feed(text):
            yield event
    for event in parser.close():
        yield event


def _index_refusal(reply: httpx.Response) -> IndexNotReady | None:
    """A 503 saying the index is being built or its build failed, as :class:`IndexNotReady`;
    ``None`` for any other 503 (a body that is not an ``UnavailableBody`` included)."""
    try:
        body = UnavailableBody.model_validate_json(reply.content)
    except ValidationError:
        return None
    if body.error not in INDEX_REFUSALS:
        return None
    raw = reply.headers.get("retry-after", "")
    return IndexNotReady(body.error, body.message, body.build, int(raw) if raw.isdigit() else None)


def _message(reply: httpx.Response) -> str:
    try:
        body = reply.json()
    except ValueError:
        return reply.text[:300] or reply.reason_phrase
    if isinstance(body, dict):
        text = body.get("message") or body.get("detail") or body.get("error")
        if text:
            return str(text)
    return reply.text[:300]
