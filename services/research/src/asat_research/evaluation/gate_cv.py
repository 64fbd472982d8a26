"""The gate's thresholds chosen by cross-validation on a suite, and the out-of-fold metrics (pure).

The suite is run once with the gate's thresholds switched off: generation and verification do
not depend on the gate, so each case's answer is known, and what any thresholds would have
decided can be replayed from the case's scores. Folds keep a temporal pair (``PIT-T01a`` and
``PIT-T01b``) together. For each fold the thresholds are chosen on the other folds and applied
to the fold: the metrics reported are the out-of-fold ones. The choice follows the product's
floors: among thresholds whose hallucination rate is at most ``MAX_HALLUCINATION`` and whose
correct-abstention rate is at least ``MIN_CORRECT_ABSTENTION`` on the training folds, the one
answering the most cases accurately (fewer hallucinations, then the stricter thresholds, a higher
floor and then a higher marker margin, breaking ties: of thresholds the training folds cannot tell
apart, the one that abstains more on a case they did not hold);
where none reaches the floors, the one with the fewest hallucinations. The thresholds the service ships are
chosen on the whole suite the same way.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from asat_corpus.contracts.decisions import is_answered
from asat_research.evaluation.metrics import Metrics, Tally, aggregate
from asat_research.evaluation.scoring import Verdict
from asat_research.gold import Expect

MAX_HALLUCINATION = 0.05
# the premise rules whose verified quote waives the floors, as gate.FIXED_RULES (not imported:
# evaluation replays the gate as a client)
FIXED_RULES = frozenset({"figure", "exclusion", "eligibility", "limitation", "deeming"})
MIN_CORRECT_ABSTENTION = 0.9
GAP_MARGINS = (-1.0, 0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3)  # -1: the marker rule never fires
FOLDS = 5


@dataclass(frozen=True)
class CaseEvidence:
    """One case as run with the thresholds off."""

    case_id: str
    expect: Expect
    tags: tuple[str, ...]
    base_decision: str  # what the gate decided with its thresholds off
    verdict: Verdict  # the judgement of that decision
    error_class: str | None  # for a hallucinated answer: why it was wrong
    top_score: float | None
    gap_score: float | None
    gap_kind: str = "gap"
    temporal_violations: int = 0
    gold_total: int = 0
    gold_resolved: int = 0
    # What showed the premise wrong with a verified quote: a fixed rule, or "model" (see gate.GateEvidence).
    premise_rule: str | None = None
    premise_in_top_section: bool = False

    @property
    def group(self) -> str:
        """Cases of one temporal pair (``...a`` / ``...b``) share a group."""
        return re.sub(r"[a-z]$", "", self.case_id)


@dataclass(frozen=True)
class Thresholds:
    min_score: float
    gap_margin: float

    def as_dict(self) -> dict[str, float]:
        return {"min_score": round(self.min_score, 4), "gap_margin": self.gap_margin}


def replay(case: CaseEvidence, t: Thresholds) -> tuple[str, Verdict]:
    """(decision, verdict) the gate with thresholds ``t`` gives the case."""
    if not is_answered(case.base_decision):
        return case.base_decision, case.verdict
    fixed = case.premise_rule in FIXED_RULES  # the contradiction model's reading waives nothing
    waived = fixed and (  # as the gate: see gate.decide
        case.gap_kind == "not_yet_enacted" or (case.gap_score or 0.0) < t.min_score
    )
    if (
        case.gap_score is not None
        and case.top_score is not None
        and not waived
        and case.gap_score >= case.top_score - t.gap_margin
    ):
        kind = "abstain_not_yet_enacted" if case.gap_kind == "not_yet_enacted" else "abstain_text_not_held"
        return kind, Verdict.MISSING
    # as GateEvidence.premise_ruled_out (evaluation replays the gate without importing it): a rule of the
    # law denying the premise, or a figure contradicted in the section ranked first
    ruled_out = fixed and (case.premise_rule != "figure" or case.premise_in_top_section)
    if case.top_score is None or (case.top_score < t.min_score and not ruled_out):
        return "abstain_low_relevance", Verdict.MISSING
    return case.base_decision, case.verdict


def tallies(cases: Sequence[CaseEvidence], chosen: Sequence[Thresholds]) -> list[Tally]:
    out = []
    for case, t in zip(cases, chosen, strict=True):
        decision, verdict = replay(case, t)
        out.append(
            Tally(
                case.expect,
                verdict,
                decision,
                case.temporal_violations if is_answered(decision) else 0,
                case.gold_total,
                case.gold_resolved,
                case.tags,
            )
        )
    return out


def objective(cases: Sequence[CaseEvidence], t: Thresholds) -> tuple[int, int, int]:
    """(meets the floors, accurate answers, -hallucinations): larger is better."""
    outcomes = [(c.expect, replay(c, t)[1]) for c in cases]
    verdicts = Counter(v for _, v in outcomes)
    abstain = [v for e, v in outcomes if e is Expect.ABSTAIN]
    correct = sum(v is Verdict.MISSING for v in abstain) / len(abstain) if abstain else 1.0
    hallucination = verdicts[Verdict.HALLUCINATED] / len(cases) if cases else 0.0
    feasible = hallucination <= MAX_HALLUCINATION and correct >= MIN_CORRECT_ABSTENTION
    if feasible:
        return 1, verdicts[Verdict.ACCURATE], -verdicts[Verdict.HALLUCINATED]
    return 0, -verdicts[Verdict.HALLUCINATED], verdicts[Verdict.ACCURATE]


def candidates(cases: Sequence[CaseEvidence]) -> list[Thresholds]:
    scores = sorted({round(c.top_score, 4) for c in cases if c.top_score is not None})
    floors = [0.0, *scores]
    return [Thresholds(s, m) for s in floors for m in GAP_MARGINS]


def choose(cases: Sequence[CaseEvidence], grid: Sequence[Thresholds] | None = None) -> Thresholds:
    """The thresholds with the best objective on ``cases``; ties go to the higher floor, then the
    higher marker margin: what ``cases`` cannot tell apart is decided for abstaining."""
    options = list(grid if grid is not None else candidates(cases))
    best = max(options, key=lambda t: (objective(cases, t), t.min_score, t.gap_margin))
    return best


def fold_of(group: str, folds: int = FOLDS) -> int:
    return int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) % folds


@dataclass(frozen=True)
class CrossValidation:
    per_fold: tuple[Thresholds, ...]
    out_of_fold: Metrics
    out_of_fold_tallies: tuple[Tally, ...]
    final: Thresholds
    in_sample: Metrics


def cross_validate(cases: Sequence[CaseEvidence], folds: int = FOLDS) -> CrossValidation:
    fold = [fold_of(c.group, folds) for c in cases]
    per_fold = []
    chosen: list[Thresholds | None] = [None] * len(cases)
    for k in range(folds):
        train = [c for c, f in zip(cases, fold, strict=True) if f != k]
        t = choose(train)
        per_fold.append(t)
        for i, f in enumerate(fold):
            if f == k:
                chosen[i] = t
    resolved = [t for t in chosen if t is not None]
    oof = tallies(cases, resolved)
    final = choose(cases)
    return CrossValidation(
        tuple(per_fold), aggregate(oof), tuple(oof), final, aggregate(tallies(cases, [final] * len(cases)))
    )


def error_classes(cases: Sequence[CaseEvidence], tallied: Sequence[Tally]) -> dict[str, int]:
    """The classes of error of a run: wrong section, right section but wrong subsection (or a trap
    quoted), a must-abstain case answered, an answerable case abstained on."""
    counts: Counter[str] = Counter()
    for case, tally in zip(cases, tallied, strict=True):
        if tally.verdict is Verdict.HALLUCINATED:
            counts[case.error_class or "other"] += 1
        elif tally.verdict is Verdict.MISSING and case.expect is not Expect.ABSTAIN:
            counts["abstained on an answerable case"] += 1
    return dict(sorted(counts.items()))
