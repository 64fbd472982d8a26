from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from asat_research.gate import Decision, GateConfig, GateEvidence, VersionSpread, decide

CONFIG = GateConfig(min_score=0.4)
GOOD = GateEvidence(
    income_year=2015,
    day_given=False,
    top_score=0.7,
    gap_score=None,
    gap_description=None,
    verified_claims=2,
    failed_claims=0,
    supporting_sources=("itaa1997 s 328-110",),
    out_of_period_citations=(),
)


def test_answers_when_every_rule_passes() -> None:
    result = decide(GOOD, CONFIG)
    assert result.decision is Decision.ANSWER and result.reasons == ()


def test_each_rule_abstains_with_its_reason() -> None:
    cases = {
        Decision.ABSTAIN_TEMPORAL_VIOLATION: replace(GOOD, out_of_period_citations=("itaa1997:328-110@C2026C00122",)),
        Decision.ABSTAIN_TEXT_NOT_HELD: replace(GOOD, gap_score=0.68, gap_description="328-110: text not held"),
        Decision.ABSTAIN_NOTHING_RETRIEVED: replace(GOOD, top_score=None),
        Decision.ABSTAIN_NOT_YET_ENACTED: replace(
            GOOD,
            named_unheld="the question names itaa1997 104-107B: not yet enacted",
            named_unheld_kind="not_yet_enacted",
        ),
        Decision.ABSTAIN_LOW_RELEVANCE: replace(GOOD, top_score=0.39),
        Decision.ABSTAIN_NO_VERIFIED_CLAIM: replace(GOOD, verified_claims=0, failed_claims=3),
        Decision.ABSTAIN_INSUFFICIENT_SOURCES: replace(GOOD, supporting_sources=()),
        Decision.ABSTAIN_VERSION_CONFLICT: replace(
            GOOD, version_spreads=(VersionSpread("itaa1997 s 328-110", ("a", "b")),)
        ),
    }
    for expected, evidence in cases.items():
        result = decide(evidence, CONFIG)
        assert result.decision is expected, expected
        assert result.reasons and all(result.reasons)


def test_a_given_day_settles_a_mid_year_change() -> None:
    evidence = replace(GOOD, day_given=True, version_spreads=(VersionSpread("x", ("a", "b")),))
    assert decide(evidence, CONFIG).answered


@given(
    st.floats(0, 1),
    st.integers(0, 5),
    st.integers(0, 5),
    st.lists(st.text(min_size=1), max_size=3),
    st.booleans(),
    st.booleans(),
)
def test_never_answers_without_a_verified_claim_or_with_a_temporal_violation(
    score: float, verified: int, failed: int, sources: list[str], gap: bool, violation: bool
) -> None:
    evidence = replace(
        GOOD,
        top_score=score,
        verified_claims=verified,
        failed_claims=failed,
        supporting_sources=tuple(sources),
        gap_score=1.0 if gap else None,
        gap_description="gap" if gap else None,
        out_of_period_citations=("x",) if violation else (),
    )
    result = decide(evidence, CONFIG)
    if result.answered:
        assert verified > 0 and not gap and not violation and score >= CONFIG.min_score and sources


def test_a_gap_well_below_the_best_passage_does_not_block_the_answer() -> None:
    assert decide(replace(GOOD, gap_score=0.5, gap_description="x"), CONFIG).answered
    assert not decide(replace(GOOD, gap_score=0.66, gap_description="x"), CONFIG).answered


def test_a_declined_question_abstains_with_the_generator_s_reason() -> None:
    result = decide(replace(GOOD, declined="quoting is not confirming", verified_claims=0), CONFIG)
    assert result.decision is Decision.ABSTAIN_GENERATOR_DECLINED
    assert result.reasons[0] == "quoting is not confirming"


def test_a_model_past_the_deadline_abstains_saying_so() -> None:
    why = "openai_compatible did not answer within the request's deadline of 60 s"
    result = decide(replace(GOOD, deadline_passed=why, verified_claims=0), CONFIG)
    assert result.decision is Decision.ABSTAIN_DEADLINE
    assert result.reasons[0] == why
    # It comes before "declined" and "no verified claim": the model never answered.
    both = replace(GOOD, deadline_passed=why, declined="quoting is not confirming", verified_claims=0)
    assert decide(both, CONFIG).decision is Decision.ABSTAIN_DEADLINE


def test_a_weak_best_passage_needs_corroboration() -> None:
    config = GateConfig(min_score=0.4, corroboration_score=0.6)
    weak = replace(GOOD, top_score=0.5)
    assert decide(weak, config).decision is Decision.ABSTAIN_INSUFFICIENT_SOURCES
    assert "corroboration bar" in decide(weak, config).reasons[0]
    assert decide(replace(weak, supporting_sources=("a", "b")), config).answered
    assert decide(replace(GOOD, top_score=0.65), config).answered


def test_out_of_scope_is_the_first_reason() -> None:
    result = decide(replace(GOOD, out_of_scope="out of scope: payroll tax is a state tax"), CONFIG)
    assert result.decision is Decision.ABSTAIN_OUT_OF_SCOPE


def test_a_not_yet_enacted_marker_abstains_as_such() -> None:
    evidence = replace(GOOD, gap_score=0.7, gap_description="s 355-100: not yet enacted", gap_kind="not_yet_enacted")
    assert decide(evidence, CONFIG).decision is Decision.ABSTAIN_NOT_YET_ENACTED


def test_one_held_version_and_an_unheld_part_of_the_year_answers_with_a_caveat() -> None:
    spread = VersionSpread("ITAA 1997 s 292-85", ("v2015",), ("2007-03-15 to 2015-06-22",))
    result = decide(replace(GOOD, version_spreads=(spread,)), CONFIG)
    assert result.answered
    assert "not held" in result.reasons[0] and "292-85" in result.reasons[0]


def test_an_answer_from_the_text_as_it_then_stood_says_so_and_keeps_its_caveat() -> None:
    caveat = "ITAA 1997 s 114-5: as it then stood (C2015C00285); amended by Act No. 70, 2015"
    result = decide(replace(GOOD, then_stood=(caveat,)), CONFIG)
    assert result.decision is Decision.ANSWERED_AS_THEN_STOOD and result.answered
    assert result.reasons[0] == caveat


def test_an_answer_as_it_then_stood_still_abstains_when_another_rule_fails() -> None:
    evidence = replace(GOOD, then_stood=("caveat",), top_score=0.39)
    result = decide(evidence, CONFIG)
    assert result.decision is Decision.ABSTAIN_LOW_RELEVANCE and not result.answered


def test_a_premise_a_fixed_rule_showed_wrong_is_not_held_to_the_relevance_floor_or_corroboration() -> None:
    config = GateConfig(min_score=0.4, corroboration_score=0.6)
    weak = replace(GOOD, top_score=0.1, verified_claims=1)
    assert decide(weak, config).decision is Decision.ABSTAIN_LOW_RELEVANCE
    assert decide(replace(weak, premise_rule="exclusion"), config).decision is Decision.ANSWER
    assert decide(replace(GOOD, top_score=0.5, premise_rule="exclusion"), config).answered
    # every other rule still applies: no verified claim, a marker, a temporal violation
    assert not decide(replace(weak, premise_rule="exclusion", verified_claims=0), config).answered
    marker = replace(weak, premise_rule="exclusion", gap_score=0.5, gap_description="s 293-20: text not held")
    assert decide(marker, config).decision is Decision.ABSTAIN_TEXT_NOT_HELD
    # a marker the ranker scores below the floor is not about the question
    assert decide(replace(marker, gap_score=0.2), config).answered
    late = replace(weak, premise_rule="exclusion", out_of_period_citations=("itaa1997:293-20@C2015C00285",))
    assert decide(late, config).decision is Decision.ABSTAIN_TEMPORAL_VIOLATION


def test_a_not_yet_enacted_marker_does_not_block_a_premise_shown_wrong() -> None:
    marker = replace(GOOD, gap_score=0.9, gap_description="s 328-285: not yet enacted", gap_kind="not_yet_enacted")
    assert decide(marker, CONFIG).decision is Decision.ABSTAIN_NOT_YET_ENACTED
    assert decide(replace(marker, premise_rule="exclusion"), CONFIG).answered


def test_a_figure_alone_is_held_to_the_floor_but_not_to_a_not_yet_enacted_marker() -> None:
    weak = replace(GOOD, top_score=0.1, premise_rule="figure")
    assert decide(weak, CONFIG).decision is Decision.ABSTAIN_LOW_RELEVANCE
    # unless the section ranked first gives the concept another figure
    assert decide(replace(weak, premise_in_top_section=True), CONFIG).answered
    marker = replace(GOOD, gap_score=0.9, gap_kind="not_yet_enacted", premise_rule="figure")
    assert decide(marker, CONFIG).answered


def test_the_contradiction_models_rejection_waives_no_bar() -> None:
    config = GateConfig(min_score=0.4, corroboration_score=0.6)
    weak = replace(GOOD, top_score=0.1, verified_claims=1, premise_rule="model", premise_in_top_section=True)
    assert decide(weak, config).decision is Decision.ABSTAIN_LOW_RELEVANCE
    marker = replace(GOOD, gap_score=0.9, gap_kind="not_yet_enacted", premise_rule="model")
    assert decide(marker, CONFIG).decision is Decision.ABSTAIN_NOT_YET_ENACTED
