from __future__ import annotations

from dataclasses import replace

from asat_research.evaluation.gate_cv import (
    GAP_MARGINS,
    CaseEvidence,
    Thresholds,
    choose,
    cross_validate,
    error_classes,
    fold_of,
    replay,
    tallies,
)
from asat_research.evaluation.scoring import Verdict
from asat_research.gold import Expect


def _case(
    case_id: str,
    expect: Expect,
    verdict: Verdict,
    top: float | None,
    gap: float | None = None,
    base: str = "answer",
    error: str | None = None,
) -> CaseEvidence:
    return CaseEvidence(case_id, expect, (), base, verdict, error, top, gap)


def test_replay_applies_the_marker_margin_then_the_floor_and_keeps_other_abstentions() -> None:
    t = Thresholds(min_score=0.5, gap_margin=0.1)
    assert replay(_case("A", Expect.ANSWER, Verdict.ACCURATE, 0.9), t) == ("answer", Verdict.ACCURATE)
    assert replay(_case("A", Expect.ANSWER, Verdict.ACCURATE, 0.4), t) == ("abstain_low_relevance", Verdict.MISSING)
    assert replay(_case("A", Expect.ANSWER, Verdict.ACCURATE, 0.9, gap=0.85), t) == (
        "abstain_text_not_held",
        Verdict.MISSING,
    )
    assert replay(_case("A", Expect.ANSWER, Verdict.ACCURATE, 0.9, gap=0.85), Thresholds(0.5, -1.0))[0] == "answer"
    scoped = _case("A", Expect.ABSTAIN, Verdict.MISSING, 0.9, base="abstain_out_of_scope")
    assert replay(scoped, Thresholds(0.0, -1.0)) == ("abstain_out_of_scope", Verdict.MISSING)
    conflict = _case("A", Expect.ANSWER, Verdict.MISSING, None, base="period_conflict")
    assert replay(conflict, Thresholds(0.0, -1.0)) == ("period_conflict", Verdict.MISSING)


def test_replay_keeps_a_premise_a_fixed_rule_showed_wrong_below_the_floor() -> None:
    t = Thresholds(min_score=0.5, gap_margin=0.1)
    shown = replace(_case("F", Expect.REJECT_PREMISE, Verdict.ACCURATE, 0.1), premise_rule="exclusion")
    assert replay(shown, t) == ("answer", Verdict.ACCURATE)
    assert replay(replace(shown, premise_rule=None), t) == ("abstain_low_relevance", Verdict.MISSING)
    unenacted = replace(shown, top_score=0.9, gap_score=0.9, gap_kind="not_yet_enacted")
    assert replay(unenacted, t) == ("answer", Verdict.ACCURATE)
    assert replay(replace(unenacted, gap_kind="gap"), t) == ("abstain_text_not_held", Verdict.MISSING)
    assert replay(replace(shown, premise_rule="figure"), t) == ("abstain_low_relevance", Verdict.MISSING)
    assert replay(replace(shown, premise_rule="figure", premise_in_top_section=True), t) == ("answer", Verdict.ACCURATE)


def test_choose_puts_the_floor_between_right_and_wrong_answers() -> None:
    cases = [
        _case("A1", Expect.ANSWER, Verdict.ACCURATE, 0.9),
        _case("A2", Expect.ANSWER, Verdict.ACCURATE, 0.8),
        _case("B1", Expect.ABSTAIN, Verdict.HALLUCINATED, 0.3),
        _case("B2", Expect.ABSTAIN, Verdict.HALLUCINATED, 0.5),
    ]
    t = choose(cases)
    assert 0.5 < t.min_score <= 0.8
    assert [replay(c, t)[1] for c in cases] == [Verdict.ACCURATE, Verdict.ACCURATE, Verdict.MISSING, Verdict.MISSING]


def test_cross_validation_keeps_a_temporal_pair_in_one_fold_and_reports_out_of_fold() -> None:
    assert fold_of("PIT-T01") == fold_of(_case("PIT-T01a", Expect.ANSWER, Verdict.ACCURATE, 1).group)
    assert _case("PIT-T01b", Expect.ANSWER, Verdict.ACCURATE, 1).group == "PIT-T01"
    cases = [_case(f"G{i}", Expect.ANSWER, Verdict.ACCURATE, 0.6 + i / 100) for i in range(20)]
    cases += [_case(f"H{i}", Expect.ABSTAIN, Verdict.HALLUCINATED, 0.2 + i / 100) for i in range(20)]
    cv = cross_validate(cases)
    assert len(cv.per_fold) == 5
    assert cv.out_of_fold.hallucination_rate == 0.0
    assert cv.out_of_fold.correct_abstention_rate == 1.0
    assert cv.in_sample.abstention_rate_on_answerable == 0.0


def test_error_classes_count_each_kind_of_mistake() -> None:
    cases = [
        _case("A", Expect.ANSWER, Verdict.HALLUCINATED, 0.9, error="wrong section"),
        _case("B", Expect.ANSWER, Verdict.ACCURATE, 0.1),
        _case("C", Expect.ABSTAIN, Verdict.HALLUCINATED, 0.9, error="answered a must-abstain case"),
    ]
    counted = error_classes(cases, tallies(cases, [Thresholds(0.5, -1.0)] * 3))
    assert counted == {
        "abstained on an answerable case": 1,
        "answered a must-abstain case": 1,
        "wrong section": 1,
    }


def test_thresholds_the_cases_cannot_tell_apart_are_chosen_for_abstaining() -> None:
    cases = [
        _case("A1", Expect.ANSWER, Verdict.ACCURATE, 0.9),
        _case("A2", Expect.ANSWER, Verdict.ACCURATE, 0.8),
        _case("B1", Expect.ABSTAIN, Verdict.HALLUCINATED, 0.3),
    ]
    # an abstention scored 0.5 makes 0.5 a candidate floor giving the same verdicts as 0.8: the
    # higher is chosen; no case has a marker, so every margin ties and the highest is chosen
    cases.append(_case("C1", Expect.ABSTAIN, Verdict.MISSING, 0.5, base="abstain_low_relevance"))
    chosen = choose(cases)
    assert chosen.min_score == 0.8 and chosen.gap_margin == max(GAP_MARGINS)


def test_replay_holds_the_contradiction_models_rejection_to_every_bar() -> None:
    t = Thresholds(min_score=0.5, gap_margin=0.1)
    modelled = replace(_case("F", Expect.REJECT_PREMISE, Verdict.ACCURATE, 0.1), premise_rule="model")
    assert replay(modelled, t) == ("abstain_low_relevance", Verdict.MISSING)
    unenacted = replace(modelled, top_score=0.9, gap_score=0.9, gap_kind="not_yet_enacted")
    assert replay(unenacted, t) == ("abstain_not_yet_enacted", Verdict.MISSING)


def test_the_replay_waives_the_floors_for_the_rules_the_gate_does() -> None:
    """gate_cv keeps its own copy of the fixed rules (it replays the gate as a client): a rule added
    to one and not the other would make the out-of-fold figures describe another gate."""
    from asat_research import gate
    from asat_research.evaluation import gate_cv

    assert gate_cv.FIXED_RULES == gate.FIXED_RULES
