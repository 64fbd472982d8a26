"""What the system said for one case, as the scoring rules see it (plain data, no I/O).

An in-process :class:`~asat_research.pipeline.ResearchOutcome`, an HTTP ``/v1/research`` body
(read as ``asat_corpus.contracts.research.ResearchOutcome``) and a dependency failure all become a
:class:`SystemAnswer`, so every path is scored the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import ValidationError

from asat_corpus.contracts.decisions import ANSWER, is_answered, is_unanswered
from asat_corpus.contracts.errors import describe_validation_error
from asat_corpus.contracts.research import ResearchOutcome

ERROR = "error"
__all__ = ["ANSWER", "ERROR"]


@dataclass(frozen=True)
class CitedSource:
    """One citation of the answer: the version (or ruling) cited and the verified quote."""

    source_id: str  # "itaa1997:328-110@C2015C00285" or "TR 2020/1"
    act: str | None
    provision: str | None
    register_ids: tuple[str, ...]
    quote: str
    valid_from: str | None = None  # ISO dates as the payload states them
    valid_to: str | None = None
    kind: str = "provision"
    start: int | None = None
    end: int | None = None
    then_stood: str | None = None  # the caveat of a text quoted as it then stood

    def label(self) -> str:
        if self.act and self.provision:
            pinned = f" ({', '.join(self.register_ids)})" if self.register_ids else ""
            return f"{self.act} {self.provision}{pinned}"
        return self.source_id


@dataclass(frozen=True)
class SystemAnswer:
    """The decision, the citations of the verified claims, and what the run cost."""

    decision: str  # "answer", "abstain_*" or "error"
    citations: tuple[CitedSource, ...] = ()
    premise_rejected: bool = False
    reasons: tuple[str, ...] = ()
    latency_ms: float = 0.0
    provider: str = ""
    model: str = ""
    corpus_generation: str = ""
    audit_id: int | None = None
    stage_ms: Mapping[str, float] = field(default_factory=dict)

    @property
    def answered(self) -> bool:
        return is_answered(self.decision)

    @property
    def abstained(self) -> bool:
        """Not answered by the gate's decision: an abstention, or a period conflict (``period_conflict``)."""
        return is_unanswered(self.decision)


def error_answer(message: str, latency_ms: float = 0.0) -> SystemAnswer:
    """The record of a case the system could not run (a dependency down, a refused request)."""
    return SystemAnswer(decision=ERROR, reasons=(message,), latency_ms=latency_ms)


class CitationLike(Protocol):
    @property
    def source_id(self) -> str: ...
    @property
    def act(self) -> str | None: ...
    @property
    def provision(self) -> str | None: ...
    @property
    def register_ids(self) -> tuple[str, ...]: ...
    @property
    def quote(self) -> str: ...
    @property
    def valid_from(self) -> str | None: ...
    @property
    def valid_to(self) -> str | None: ...
    @property
    def kind(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def then_stood(self) -> str | None: ...


class ClaimLike(Protocol):
    @property
    def citations(self) -> Sequence[CitationLike]: ...


class OutcomeLike(Protocol):
    """What the runner reads of a ``ResearchOutcome`` (a fake in tests may be anything shaped so)."""

    @property
    def decision(self) -> str: ...
    @property
    def reasons(self) -> Sequence[str]: ...
    @property
    def claims(self) -> Sequence[ClaimLike]: ...
    @property
    def premise_rejected(self) -> bool: ...
    @property
    def provider(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def corpus_generation(self) -> str: ...
    @property
    def audit_id(self) -> int: ...
    @property
    def latencies_ms(self) -> Mapping[str, float]: ...


def _unique(citations: Sequence[CitedSource]) -> tuple[CitedSource, ...]:
    """Each cited span once, in first-cited order (two claims may cite the same span)."""
    return tuple(dict.fromkeys(citations))


def answer_from_outcome(outcome: OutcomeLike, latency_ms: float) -> SystemAnswer:
    citations = [
        CitedSource(
            source_id=c.source_id,
            act=c.act,
            provision=c.provision,
            register_ids=tuple(c.register_ids),
            quote=c.quote,
            valid_from=c.valid_from,
            valid_to=c.valid_to,
            kind=c.kind,
            start=c.start,
            end=c.end,
            then_stood=c.then_stood,
        )
        for claim in outcome.claims
        for c in claim.citations
    ]
    return SystemAnswer(
        decision=outcome.decision,
        citations=_unique(citations),
        premise_rejected=bool(outcome.premise_rejected),
        reasons=tuple(outcome.reasons),
        latency_ms=latency_ms,
        provider=outcome.provider,
        model=outcome.model,
        corpus_generation=outcome.corpus_generation,
        audit_id=outcome.audit_id,
        stage_ms=dict(outcome.latencies_ms),
    )


def answer_from_json(body: Mapping[str, Any], latency_ms: float) -> SystemAnswer:
    """A ``POST /v1/research`` 200 body as a :class:`SystemAnswer`.

    Raises ``ValueError`` naming the fields when the body is not a research outcome.
    """
    try:
        outcome = ResearchOutcome.model_validate(body)
    except ValidationError as exc:
        raise ValueError(f"the research response is not a research outcome: {describe_validation_error(exc)}") from None
    return answer_from_outcome(outcome, latency_ms)
