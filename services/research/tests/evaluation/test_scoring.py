"""Every scoring rule of gold-set-schema.md on hand-made cases and answers."""

from __future__ import annotations

from asat_research.evaluation.scoring import Verdict, score_case
from services.research.tests.evaluation.builders import V2015, V2026, make_answer, make_case, make_citation

TRAP_2026 = {"act": "itaa1997", "provision": "328-110", "register_id": "C2026C00122"}


def test_an_answer_citing_the_gold_is_accurate_and_says_which_gold() -> None:
    judgement = score_case(make_case(), make_answer(make_citation()))
    assert judgement.verdict is Verdict.ACCURATE
    assert judgement.rule == "accurate: cites gold 328-110"


def test_a_chunk_of_the_section_matches_but_another_section_does_not() -> None:
    other = make_citation(V2015, provision="328-115")
    assert score_case(make_case(), make_answer(other)).verdict is Verdict.HALLUCINATED
    assert "cites none of the gold" in score_case(make_case(), make_answer(other)).rule
    assert score_case(make_case(), make_answer(other, make_citation())).verdict is Verdict.ACCURATE


def test_another_act_with_the_same_section_number_does_not_match() -> None:
    wrong_act = make_citation(V2015, act="itaa1936")
    assert score_case(make_case(), make_answer(wrong_act)).verdict is Verdict.HALLUCINATED


def test_a_pinned_register_id_must_be_among_the_citations_register_ids() -> None:
    pinned = make_case(gold=[{"act": "itaa1997", "provision": "328-110", "register_id": "C2015C00285"}])
    assert score_case(pinned, make_answer(make_citation(V2015))).verdict is Verdict.ACCURATE
    wrong = make_citation(V2015, register_ids=("C2016C00001",))
    assert score_case(pinned, make_answer(wrong)).verdict is Verdict.HALLUCINATED


def test_a_ruling_gold_matches_the_citation_with_that_source_id() -> None:
    ruling = make_case(gold=[{"ruling": "TR 2020/1"}], income_year=2021)
    judgement = score_case(ruling, make_answer(make_citation("TR 2020/1", quote="residency")))
    assert judgement.verdict is Verdict.ACCURATE
    assert judgement.rule == "accurate: cites gold TR 2020/1"
    other = make_citation("TR 2019/1", quote="residency")
    assert score_case(ruling, make_answer(other)).verdict is Verdict.HALLUCINATED


def test_must_not_cite_hit_is_a_hallucination_even_alongside_the_gold() -> None:
    case = make_case(income_year=2026, must_not_cite=[TRAP_2026], gold=[{"act": "itaa1997", "provision": "328-110"}])
    judgement = score_case(case, make_answer(make_citation(V2026)))
    assert judgement.verdict is Verdict.HALLUCINATED
    assert judgement.rule.startswith("hallucinated: must_not_cite hit C2026C00122")


def test_must_not_cite_without_register_id_matches_any_version() -> None:
    case = make_case(must_not_cite=[{"act": "itaa1997", "provision": "328-115"}])
    trap = make_citation(V2015, provision="328-115")
    assert "must_not_cite" in score_case(case, make_answer(make_citation(), trap)).rule


def test_must_not_quote_is_compared_after_normalisation() -> None:
    case = make_case(must_not_quote=["less than $10 million"])
    spaced = make_citation(quote="is less  than\n$10 million")
    judgement = score_case(case, make_answer(spaced))
    assert judgement.verdict is Verdict.HALLUCINATED
    assert "must_not_quote" in judgement.rule


def test_must_quote_any_needs_one_phrase_in_a_verified_quote() -> None:
    case = make_case(must_quote_any=["less than $2 million", "$2 million"])
    assert score_case(case, make_answer(make_citation(quote="less than\u00a0$2 million"))).verdict is Verdict.ACCURATE
    missing = score_case(case, make_answer(make_citation(quote="the turnover test")))
    assert missing.verdict is Verdict.HALLUCINATED
    assert missing.rule == "hallucinated: no verified quote contains any of must_quote_any"


def test_reject_premise_needs_the_flag() -> None:
    case = make_case(expect="reject_premise", gold=[{"act": "itaa1936", "provision": "177D"}])
    cited = make_citation("itaa1936:177D@C2015C00001", quote="sole or dominant purpose")
    flagged = score_case(case, make_answer(cited, premise_rejected=True))
    assert flagged.verdict is Verdict.ACCURATE
    assert flagged.rule == "accurate: rejects the premise, cites gold 177D"
    unflagged = score_case(case, make_answer(cited))
    assert unflagged.verdict is Verdict.HALLUCINATED
    assert "false premise" in unflagged.rule


def test_answering_an_abstain_case_is_a_hallucination() -> None:
    case = make_case(expect="abstain", gold=[], tags=["out-of-scope"])
    judgement = score_case(case, make_answer(make_citation()))
    assert judgement.verdict is Verdict.HALLUCINATED
    assert judgement.rule.startswith("hallucinated: answered an abstain case")


def test_any_abstention_is_missing_and_names_the_decision() -> None:
    answerable = score_case(make_case(), make_answer(decision="abstain_low_relevance"))
    assert (answerable.verdict, answerable.rule) == (Verdict.MISSING, "missing: abstain_low_relevance")
    expected = score_case(make_case(expect="abstain", gold=[]), make_answer(decision="abstain_text_not_held"))
    assert (expected.verdict, expected.rule) == (Verdict.MISSING, "missing: abstain_text_not_held (expected)")
    # A question refused for its period (the question and the parameter disagree) is not answered either.
    conflict = score_case(make_case(), make_answer(decision="period_conflict"))
    assert (conflict.verdict, conflict.rule) == (Verdict.MISSING, "missing: period_conflict")


def test_an_out_of_period_citation_makes_the_answer_a_hallucination() -> None:
    judgement = score_case(make_case(), make_answer(make_citation()), ["itaa1997:328-110@X: not in force"])
    assert judgement.verdict is Verdict.HALLUCINATED
    assert judgement.rule.startswith("hallucinated: out-of-period version")


def test_errors_and_unknown_decisions_are_errors() -> None:
    error = score_case(make_case(), make_answer(decision="error", reasons=("verifier unavailable: down",)))
    assert (error.verdict, error.rule) == (Verdict.ERROR, "error: verifier unavailable: down")
    assert score_case(make_case(), make_answer(decision="maybe")).verdict is Verdict.ERROR
