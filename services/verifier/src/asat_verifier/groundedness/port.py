"""The groundedness port: every scorer takes a claim and its evidence and returns a verdict."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from asat_corpus.contracts.verification import GroundednessCheck


@dataclass(frozen=True)
class Evidence:
    """A verified quote and what is known of its source (for provision and Act references)."""

    text: str
    source_id: str = ""
    act: str | None = None
    provision: str | None = None


@dataclass(frozen=True)
class Finding:
    check: GroundednessCheck
    passed: bool
    message: str


@dataclass(frozen=True)
class GroundednessResult:
    """``score`` in [0, 1]; ``grounded`` is the scorer's verdict; ``findings`` say why."""

    score: float
    grounded: bool
    findings: tuple[Finding, ...]


NO_EVIDENCE = GroundednessResult(
    score=0.0,
    grounded=False,
    findings=(Finding(GroundednessCheck.EVIDENCE, False, "no verified quote to judge the claim against"),),
)


class GroundednessScorer(Protocol):
    """Judges whether ``claim_text`` is supported by ``quotes``; with no quotes it is not."""

    @property
    def name(self) -> str: ...

    def score(self, claim_text: str, quotes: Sequence[Evidence]) -> GroundednessResult: ...
