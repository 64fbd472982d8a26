"""What the system said for one case, as the scoring rules see it (plain data, no I/O).

An in-process :class:`~asat_research.pipeline.ResearchOutcome`, an HTTP ``/v1/research`` body
and a dependency failure all become a :class:`SystemAnswer`, so every path is scored the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from asat_corpus.contracts.decisions import ANSWER, is_answered

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
        return self.decision.startswith("abstain")


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


def _optional_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _optional_int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def answer_from_json(body: Mapping[str, Any], latency_ms: float) -> SystemAnswer:
    """A ``POST /v1/research`` 200 body (``api.outcome_json``) as a :class:`SystemAnswer`.

    Raises ``ValueError`` naming the field when the body is not shaped like one.
    """
    decision = body.get("decision")
    if not isinstance(decision, str) or not decision:
        raise ValueError(f"the research response has no `decision` (keys: {', '.join(sorted(body))})")
    citations: list[CitedSource] = []
    for claim in body.get("claims") or ():
        for raw in claim.get("citations") or ():
            citations.append(
                CitedSource(
                    source_id=str(raw["source_id"]),
                    act=_optional_str(raw.get("act")),
                    provision=_optional_str(raw.get("provision")),
                    register_ids=tuple(str(r) for r in raw.get("register_ids") or ()),
                    quote=str(raw.get("quote", "")),
                    valid_from=_optional_str(raw.get("valid_from")),
                    valid_to=_optional_str(raw.get("valid_to")),
                    kind=str(raw.get("kind", "provision")),
                    start=_optional_int(raw.get("start")),
                    end=_optional_int(raw.get("end")),
                    then_stood=_optional_str(raw.get("then_stood")),
                )
            )
    latencies = body.get("latencies_ms") or {}
    return SystemAnswer(
        decision=decision,
        citations=_unique(citations),
        premise_rejected=bool(body.get("premise_rejected", False)),
        reasons=tuple(str(r) for r in body.get("reasons") or ()),
        latency_ms=latency_ms,
        provider=str(body.get("provider", "")),
        model=str(body.get("model", "")),
        corpus_generation=str(body.get("corpus_generation", "")),
        audit_id=_optional_int(body.get("audit_id")),
        stage_ms={str(k): float(v) for k, v in latencies.items()},
    )
