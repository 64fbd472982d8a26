"""The runner over a fake pipeline returning real ResearchOutcome objects."""

from __future__ import annotations

from datetime import date

import yaml

from asat_research.eval_target import PipelineAnswerer
from asat_research.evaluation.runner import CaseResult, run_cases, select_cases
from asat_research.evaluation.scoring import Verdict
from asat_research.gold import parse_suite
from asat_research.temporal import TemporalError
from services.research.tests.evaluation.builders import (
    SUITE_YAML,
    V2015,
    FakeDates,
    FakePipeline,
    FakeResolver,
    suite_script,
)


def suite():  # type: ignore[no-untyped-def]
    return parse_suite(yaml.safe_load(SUITE_YAML))


def test_each_case_is_asked_with_its_date_and_scored() -> None:
    pipeline = FakePipeline(suite_script())
    seen: list[tuple[int, int, str]] = []
    results = run_cases(
        suite().cases,
        PipelineAnswerer(pipeline),
        FakeDates(),
        FakeResolver(),
        lambda i, n, r: seen.append((i, n, r.case.id)),
    )
    assert [q[1:] for q in pipeline.asked] == [(2015, None), (2026, None), (None, date(2024, 1, 1)), (2015, None)]
    assert [r.judgement.verdict for r in results] == [Verdict.ACCURATE] * 2 + [Verdict.MISSING, Verdict.ACCURATE]
    assert seen == [(1, 4, "T1"), (2, 4, "T2"), (3, 4, "O1"), (4, 4, "F1")]
    first = results[0]
    assert first.answer.citations[0].source_id == V2015
    assert first.answer.audit_id == 7 and first.answer.provider == "extractive"
    assert first.answer.latency_ms >= 0


def test_an_out_of_period_citation_is_counted_and_scored_hallucinated() -> None:
    results = run_cases(
        suite().cases, PipelineAnswerer(FakePipeline(suite_script(t2_citation=V2015))), FakeDates(), FakeResolver()
    )
    t2: CaseResult = results[1]
    assert t2.judgement.verdict is Verdict.HALLUCINATED
    assert t2.tally().temporal_violations == 1


def test_a_dependency_failure_becomes_an_error_case_and_the_run_goes_on() -> None:
    script = suite_script()
    script["Small business turnover threshold FY2015?"] = script["down"]
    results = run_cases(suite().cases, PipelineAnswerer(FakePipeline(script)), FakeDates(), FakeResolver())
    assert results[0].answer.decision == "error"
    assert results[0].judgement.rule == "error: dependency_unavailable: verifier unavailable: connection refused"
    assert results[1].judgement.verdict is Verdict.ACCURATE


def test_a_refused_date_becomes_an_error_case() -> None:
    def refuse():  # type: ignore[no-untyped-def]
        raise TemporalError("income year 1850 is out of range")

    script = suite_script()
    script["What is NSW payroll tax?"] = refuse
    results = run_cases(suite().cases, PipelineAnswerer(FakePipeline(script)), FakeDates(), FakeResolver())
    assert results[2].judgement.verdict is Verdict.ERROR
    assert "invalid_request" in results[2].judgement.rule


def test_select_cases_filters_by_any_tag_then_limits() -> None:
    s = suite()
    assert [c.id for c in select_cases(s)] == ["T1", "T2", "O1", "F1"]
    assert [c.id for c in select_cases(s, ("part-iva", "out-of-scope"))] == ["O1", "F1"]
    assert [c.id for c in select_cases(s, ("temporal",), limit=1)] == ["T1"]
    assert select_cases(s, ("nothing",)) == ()
