"""What the browser is sent for one question: stage lines, then the rendered decision (pure
translation of the research service's events, given a renderer)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic import ValidationError

from asat_corpus.contracts.errors import describe_validation_error
from asat_corpus.contracts.provider import GenerationProvider
from asat_corpus.contracts.research import ResearchOutcome, StageEventData, StreamError
from asat_web import labels
from asat_web.evidence import outcome_evidence
from asat_web.history import Recorder
from asat_web.outcome import outcome_view
from asat_web.question_marks import question_words
from asat_web.rendering import Renderer
from asat_web.research_client import IndexNotReady, ResearchClient, ResearchRejected, ResearchUnavailable
from asat_web.sources_rail import number_sources
from asat_web.sse import SseEvent, format_event


class Mode(StrEnum):
    RESEARCH = "research"
    CHAT = "chat"


@dataclass(frozen=True)
class TurnRequest:
    question: str
    income_year: int | None
    as_of: str | None
    mode: Mode = Mode.RESEARCH
    first_source: int = 1
    as_known_on: str | None = None  # the law as it then stood: the text on the books that day
    asked_by: dict[str, Any] | None = None  # who asks (the session's user, practice and client), recorded
    # The practice's own generation provider (its key a SecretStr: masked in this repr), or none.
    provider: GenerationProvider | None = None

    def research_body(self) -> dict[str, Any]:
        """The research request: the as-known-on day if one was given (it stands alone), else the
        as-at day, else the income year; who asks; and the practice's provider, key revealed."""
        body: dict[str, Any] = {"question": self.question}
        if self.asked_by is not None:
            body["asked_by"] = dict(self.asked_by)
        if self.provider is not None:
            body["provider"] = self.provider.wire()
        if self.as_known_on:
            body["as_known_on"] = self.as_known_on
        elif self.as_of:
            body["as_of"] = self.as_of
        elif self.income_year is not None:
            body["income_year"] = self.income_year
        return body


def render_outcome(renderer: Renderer, reply: ResearchOutcome, request: TurnRequest) -> dict[str, Any]:
    """The decision as HTML (and, in chat, the rail entries and the next source number): the
    evidence grouped by provision version, the question's words marked in the quotes."""
    outcome = outcome_view(reply, request.question)
    words = question_words(request.question)  # marked where they occur in the quotes
    if request.mode is Mode.CHAT:
        numbered = number_sources(outcome, request.first_source)
        return {
            "html": renderer.render("_chat_answer.html", outcome=outcome, numbered=numbered),
            "rail": renderer.render("_rail_entries.html", outcome=outcome, numbered=numbered, words=words),
            "next_source": numbered.next_number,
            "answered": outcome.answered,
        }
    evidence = outcome_evidence(outcome)
    html = renderer.render("_turn_result.html", outcome=outcome, evidence=evidence, words=words)
    return {"html": html, "answered": outcome.answered}


def render_error(renderer: Renderer, message: str, dependency: str | None = None) -> dict[str, Any]:
    return {"html": renderer.render("_error.html", message=message, dependency=dependency)}


def render_index_notice(renderer: Renderer, refused: IndexNotReady) -> dict[str, Any]:
    """A question research refused while the index is being built (or after its build failed):
    a notice with the build's progress, never an answer and not an error of the question's."""
    html = renderer.render("_index_notice.html", building=refused.building, message=str(refused))
    return {"html": html}


def translate(renderer: Renderer, event: SseEvent, request: TurnRequest) -> str | None:
    """One research event as the browser's event; ``None`` for events the page has no use for."""
    try:
        data = event.json()
    except ValueError as exc:
        return format_event("error", render_error(renderer, f"the research service sent a broken event: {exc}"))
    if event.event not in _EVENTS:
        return None
    try:
        if event.event == "stage":
            stage = StageEventData.model_validate(data)
            return format_event(
                "stage",
                {
                    "stage": stage.stage,
                    "label": labels.stage_label(stage.stage),
                    "summary": labels.stage_summary(stage.stage, data),
                    "ms": stage.ms,
                },
            )
        if event.event == "result":
            return format_event("result", render_outcome(renderer, ResearchOutcome.model_validate(data), request))
        error = StreamError.model_validate(data)
    except ValidationError as exc:
        problem = f"the research service's {event.event} event could not be shown: {describe_validation_error(exc)}"
        return format_event("error", render_error(renderer, problem))
    return format_event("error", render_error(renderer, error.message, error.dependency))


_EVENTS = frozenset({"stage", "result", "error"})


async def _recorded(event: SseEvent, request: TurnRequest, record: Recorder | None) -> str | None:
    """Keep a result event's outcome with ``record``; why it could not be kept, else None (an
    event that is not a result, or not a readable outcome, is left to ``translate``)."""
    if record is None or event.event != "result":
        return None
    try:
        outcome = ResearchOutcome.model_validate(event.json())
    except ValueError:  # pydantic's ValidationError too: translate says what is wrong
        return None
    return await record(outcome, request.question)


async def browser_events(
    client: ResearchClient, renderer: Renderer, request: TurnRequest, record: Recorder | None = None
) -> AsyncIterator[str]:
    """The research stream translated for the browser; always ends with ``result`` or ``error``.
    With ``record``, a result is kept in the practice's history (``Recorder``) before it is sent."""
    finished = False
    try:
        async with client.stream(request.research_body()) as events:
            async for event in events:
                problem = await _recorded(event, request, record)
                if problem is not None:
                    yield format_event("error", render_error(renderer, problem))
                    return
                text = translate(renderer, event, request)
                if text is None:
                    continue
                finished = finished or text.startswith(("event: result", "event: error"))
                yield text
    except IndexNotReady as exc:
        yield format_event("error", render_index_notice(renderer, exc))
        return
    except (ResearchUnavailable, ResearchRejected) as exc:
        yield format_event("error", render_error(renderer, str(exc)))
        return
    if not finished:
        yield format_event(
            "error",
            render_error(renderer, "the research stream ended without a decision: ask again, or check research"),
        )
