"""Gold authorities resolving (or not) in the served corpus."""

from __future__ import annotations

from asat_research.evaluation.integrity import gold_integrity
from services.research.tests.evaluation.builders import FakeResolver, make_case


def test_every_gold_of_an_answerable_case_is_counted() -> None:
    case = make_case(gold=[{"act": "itaa1997", "provision": "328-110"}, {"ruling": "TR 2020/1"}])
    assert gold_integrity(case, FakeResolver()).resolved == 2
    missing = gold_integrity(case, FakeResolver(missing=("TR 2020/1",)))
    assert (missing.total, missing.resolved) == (2, 1)
    assert "TR 2020/1 does not resolve income year 2015" in missing.problems[0]


def test_a_pinned_compilation_must_be_the_text_in_force() -> None:
    pinned = make_case(gold=[{"act": "itaa1997", "provision": "328-110", "register_id": "C2026C00122"}])
    result = gold_integrity(pinned, FakeResolver())
    assert result.resolved == 0
    assert "is from C2015C00285" in result.problems[0]


def test_abstain_cases_are_not_counted() -> None:
    case = make_case(expect="abstain", gold=[{"act": "itaa1997", "provision": "328-110"}])
    assert gold_integrity(case, FakeResolver(missing=("328-110",))).total == 0
