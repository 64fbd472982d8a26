"""Running a suite: ask each case, check its citations against the corpus, score it.

The runner is the only place the three ports meet: an :class:`Answerer` (the system under
test), a :class:`VersionDates` lookup and an :class:`AuthorityResolver` (the corpus). Progress
is reported through a callback after each case.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from asat_research.evaluation.answerers import Answerer
from asat_research.evaluation.integrity import GoldIntegrity, gold_integrity
from asat_research.evaluation.metrics import Tally
from asat_research.evaluation.records import SystemAnswer
from asat_research.evaluation.scoring import Judgement, score_case
from asat_research.evaluation.temporal_check import VersionDates, temporal_violations
from asat_research.gold import AuthorityResolver, CaseDate, GoldCase, GoldSuite


@dataclass(frozen=True)
class CaseResult:
    case: GoldCase
    answer: SystemAnswer
    judgement: Judgement
    temporal_violations: tuple[str, ...]
    integrity: GoldIntegrity

    def tally(self) -> Tally:
        return Tally(
            expect=self.case.expect,
            verdict=self.judgement.verdict,
            decision=self.answer.decision,
            temporal_violations=len(self.temporal_violations),
            gold_total=self.integrity.total,
            gold_resolved=self.integrity.resolved,
            tags=self.case.tags,
        )


Progress = Callable[[int, int, CaseResult], None]


def select_cases(suite: GoldSuite, tags: Sequence[str] = (), limit: int | None = None) -> tuple[GoldCase, ...]:
    """The cases carrying any of ``tags`` (all when none given), in file order, at most ``limit``."""
    wanted = set(tags)
    cases = [c for c in suite.cases if not wanted or wanted & set(c.tags)]
    return tuple(cases if limit is None else cases[:limit])


def evaluate_case(case: GoldCase, answer: SystemAnswer, dates: VersionDates, resolver: AuthorityResolver) -> CaseResult:
    violations = temporal_violations(answer.citations, CaseDate.of(case), dates)
    return CaseResult(
        case=case,
        answer=answer,
        judgement=score_case(case, answer, violations),
        temporal_violations=violations,
        integrity=gold_integrity(case, resolver),
    )


def run_cases(
    cases: Sequence[GoldCase],
    answerer: Answerer,
    dates: VersionDates,
    resolver: AuthorityResolver,
    progress: Progress | None = None,
) -> list[CaseResult]:
    results: list[CaseResult] = []
    for index, case in enumerate(cases, start=1):
        result = evaluate_case(case, answerer.answer(case), dates, resolver)
        results.append(result)
        if progress is not None:
            progress(index, len(cases), result)
    return results
