"""Request limits: body size, claims, sources and quotes per claim. Beyond them: 413."""

from __future__ import annotations

from dataclasses import dataclass

from asat_corpus.contracts.verification import VerificationRequest


@dataclass(frozen=True)
class Limits:
    max_body_bytes: int = 2_000_000
    max_claims: int = 100
    max_sources: int = 200
    max_quotes_per_claim: int = 20

    def __post_init__(self) -> None:
        for name in ("max_body_bytes", "max_claims", "max_sources", "max_quotes_per_claim"):
            if getattr(self, name) < 1:
                raise ValueError(f"limit {name} must be at least 1, got {getattr(self, name)}")


@dataclass(frozen=True)
class LimitExceeded:
    """``limit`` is the name of the limit (``max_claims``...), as in the 413 reply."""

    limit: str
    maximum: int
    actual: int

    @property
    def message(self) -> str:
        return f"{self.limit} is {self.maximum} and the request has {self.actual}: split the request"


def exceeded_count(limits: Limits, request: VerificationRequest) -> LimitExceeded | None:
    """The first count limit the request exceeds, or None."""
    if len(request.claims) > limits.max_claims:
        return LimitExceeded("max_claims", limits.max_claims, len(request.claims))
    if len(request.sources) > limits.max_sources:
        return LimitExceeded("max_sources", limits.max_sources, len(request.sources))
    most_quotes = max((len(claim.quotes) for claim in request.claims), default=0)
    if most_quotes > limits.max_quotes_per_claim:
        return LimitExceeded("max_quotes_per_claim", limits.max_quotes_per_claim, most_quotes)
    return None
