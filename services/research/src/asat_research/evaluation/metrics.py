"""The suite metrics of ``gold-set-schema.md``, aggregated from per-case tallies (pure).

A rate over an empty population (no answerable case, no gold authority, ...) is ``None``: it
was not measured, which is not the same as 0 or 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from asat_research.evaluation.scoring import Verdict
from asat_research.gold import Expect

METRIC_NAMES = (
    "crag_truthfulness",
    "hallucination_rate",
    "abstention_rate_on_answerable",
    "false_premise_rejection_rate",
    "correct_abstention_rate",
    "temporal_violation_count",
    "referential_integrity_rate",
)


@dataclass(frozen=True)
class Tally:
    """What one case contributes to the metrics."""

    expect: Expect
    verdict: Verdict
    decision: str
    temporal_violations: int = 0
    gold_total: int = 0
    gold_resolved: int = 0
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Metrics:
    crag_truthfulness: float | None
    hallucination_rate: float | None
    abstention_rate_on_answerable: float | None
    false_premise_rejection_rate: float | None
    correct_abstention_rate: float | None
    temporal_violation_count: int
    referential_integrity_rate: float | None

    def as_dict(self) -> dict[str, float | int | None]:
        return {name: getattr(self, name) for name in METRIC_NAMES}


@dataclass(frozen=True)
class Counts:
    n: int
    accurate: int
    hallucinated: int
    missing: int
    error: int
    decisions: dict[str, int] = field(default_factory=dict)  # decision -> cases, sorted by decision


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _abstained(tally: Tally) -> bool:
    return tally.verdict is Verdict.MISSING


def aggregate(tallies: Sequence[Tally]) -> Metrics:
    n = len(tallies)
    verdicts = Counter(t.verdict for t in tallies)
    answerable = [t for t in tallies if t.expect is not Expect.ABSTAIN]
    premise = [t for t in tallies if t.expect is Expect.REJECT_PREMISE]
    abstain = [t for t in tallies if t.expect is Expect.ABSTAIN]
    accurate, hallucinated = verdicts[Verdict.ACCURATE], verdicts[Verdict.HALLUCINATED]
    return Metrics(
        crag_truthfulness=(accurate - hallucinated) / n if n else None,
        hallucination_rate=_rate(hallucinated, n),
        abstention_rate_on_answerable=_rate(sum(map(_abstained, answerable)), len(answerable)),
        false_premise_rejection_rate=_rate(sum(t.verdict is Verdict.ACCURATE for t in premise), len(premise)),
        correct_abstention_rate=_rate(sum(map(_abstained, abstain)), len(abstain)),
        temporal_violation_count=sum(t.temporal_violations for t in tallies),
        referential_integrity_rate=_rate(
            sum(t.gold_resolved for t in answerable), sum(t.gold_total for t in answerable)
        ),
    )


def count(tallies: Iterable[Tally]) -> Counts:
    items = list(tallies)
    verdicts = Counter(t.verdict for t in items)
    decisions = Counter(t.decision for t in items)
    return Counts(
        n=len(items),
        accurate=verdicts[Verdict.ACCURATE],
        hallucinated=verdicts[Verdict.HALLUCINATED],
        missing=verdicts[Verdict.MISSING],
        error=verdicts[Verdict.ERROR],
        decisions=dict(sorted(decisions.items())),
    )


def by_tag(tallies: Sequence[Tally]) -> dict[str, tuple[Metrics, Counts]]:
    """The metrics and counts of the cases carrying each tag, tags in sorted order."""
    tags = sorted({tag for t in tallies for tag in t.tags})
    out: dict[str, tuple[Metrics, Counts]] = {}
    for tag in tags:
        tagged = [t for t in tallies if tag in t.tags]
        out[tag] = (aggregate(tagged), count(tagged))
    return out


@dataclass(frozen=True)
class GateResult:
    passed: bool
    reasons: tuple[str, ...]  # why it failed; empty when it passed


def gate(metrics: Metrics) -> GateResult:
    """The release gate: referential integrity exactly 1.0 (measured) and no temporal violation."""
    reasons: list[str] = []
    rate = metrics.referential_integrity_rate
    if rate is None:
        reasons.append(
            "referential_integrity_rate could not be measured: no expect: answer|reject_premise case "
            "with gold authorities was run (widen --tags/--limit)"
        )
    elif rate != 1.0:
        reasons.append(
            f"referential_integrity_rate is {rate:.4f}, not 1.0: some gold authorities do not resolve in the "
            "served corpus for their case's date (see each case's gold_problems)"
        )
    if metrics.temporal_violation_count:
        reasons.append(
            f"temporal_violation_count is {metrics.temporal_violation_count}, not 0: answers cited versions "
            "not in force on the case's date (see each case's temporal_violations)"
        )
    return GateResult(not reasons, tuple(reasons))
