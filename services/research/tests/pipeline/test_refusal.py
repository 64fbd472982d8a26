"""The rules decided at resolve give the gate's own decision and reasons (``asat_research.refusal``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.resolution import Status
from asat_research.gate import Decision, GateConfig, GateEvidence, decide
from asat_research.named_provisions import UnheldProvision
from asat_research.refusal import NamedUnheld, named_unheld, refusal
from asat_research.scope import out_of_scope
from asat_research.temporal import period_conflict

CONFIG = GateConfig(min_score=0.4)
PASSING = GateEvidence(
    income_year=2015,
    day_given=False,
    top_score=0.7,
    gap_score=None,
    gap_description=None,
    verified_claims=2,
    failed_claims=0,
    supporting_sources=("itaa1997 s 328-110",),
    out_of_period_citations=(),
    as_known_on=date(2015, 1, 1),
)
SCOPE_QUESTIONS = (
    "Is payroll tax payable in NSW on wages of $1.5 million?",
    "What is Singapore's corporate tax rate?",
    "What is the Medicare levy rate for 2020?",
    "Will the ATO audit my client?",
)
UNHELD = (
    UnheldProvision("itaa1997 328-115", Status.GAP, "itaa1997 328-115: text not held for 2020-06-30"),
    UnheldProvision("itaa1997 104-107B", Status.NOT_YET_ENACTED, "itaa1997 104-107B: not yet enacted on 2010-06-30"),
)


def _gate(scope_reason: str | None, named: NamedUnheld | None) -> GateEvidence:
    evidence = replace(PASSING, out_of_scope=scope_reason)
    if named is not None:
        evidence = replace(evidence, named_unheld=named.reason, named_unheld_kind=named.kind)
    return evidence


@given(st.sampled_from((None, *SCOPE_QUESTIONS)), st.sampled_from((None, *UNHELD)))
def test_refusal_is_what_the_gate_decides_on_the_same_evidence(
    question: str | None, unheld: UnheldProvision | None
) -> None:
    scope_reason = out_of_scope(question) if question is not None else None
    named = named_unheld(unheld) if unheld is not None else None
    refused = refusal(scope_reason, named)
    gated = decide(_gate(scope_reason, named), CONFIG)
    if scope_reason is None and named is None:
        assert refused is None and gated.decision is Decision.ANSWER
        return
    assert refused == gated


def test_the_named_kind_follows_the_resolution() -> None:
    gap, not_yet = (named_unheld(u) for u in UNHELD)
    assert (gap.kind, gap.decision) == ("gap", Decision.ABSTAIN_TEXT_NOT_HELD)
    assert (not_yet.kind, not_yet.decision) == ("not_yet_enacted", Decision.ABSTAIN_NOT_YET_ENACTED)
    assert gap.reason == "the question names itaa1997 328-115: itaa1997 328-115: text not held for 2020-06-30"


def test_a_period_conflict_comes_first_and_the_named_section_is_not_judged_against_it() -> None:
    conflict = period_conflict("Does s 328-115 apply to NSW payroll tax in FY2016?", 2020, None)
    assert conflict is not None
    scope = out_of_scope("Does s 328-115 apply to NSW payroll tax in FY2016?")
    result = refusal(scope, named_unheld(UNHELD[0]), conflict)
    assert result is not None and result.decision is Decision.PERIOD_CONFLICT
    assert result.reasons == (conflict.reason, scope)
    assert result.failed_rules == (Decision.PERIOD_CONFLICT, Decision.ABSTAIN_OUT_OF_SCOPE)
    alone = refusal(None, None, conflict)
    assert alone is not None and alone.reasons == (conflict.reason,) and not alone.answered
