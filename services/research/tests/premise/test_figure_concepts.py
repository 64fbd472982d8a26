from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from asat_research.premise.figure_concepts import (
    WINDOW,
    Bound,
    concept_words,
    figures_in_context,
    shared_concept,
    stem,
)


def test_stem_takes_off_plurals_and_possessives_only() -> None:
    assert [stem(w) for w in ["contributions", "members", "applies", "spouse's", "spouse\u2019s", "business"]] == [
        "contribution",
        "member",
        "apply",
        "spouse",
        "spouse",
        "business",
    ]
    assert [stem(w) for w in ["gst", "less", "bonus", "analysis"]] == ["gst", "less", "bonus", "analysis"]


def test_concept_words_drop_function_words_figure_words_and_the_income_year() -> None:
    assert concept_words("your *aggregated turnover for the previous income year was less than") == [
        "aggregated",
        "turnover",
    ]
    assert concept_words("once the spouse earns") == ["spouse", "income"]  # earns is the income concept
    assert concept_words("an asset that was acquired at least") == ["asset", "holding period"]


def test_a_figure_s_words_are_its_window_in_its_sentence() -> None:
    text = "The rebate is 10% of the cost. Your aggregated turnover must be less than $2 million."
    percent, money = figures_in_context(text)
    assert money.words == {"aggregated", "turnover"}  # not the rebate of the sentence before
    assert percent.words == {"offset", "cost"}
    assert money.line == "Your aggregated turnover must be less than $2 million."
    assert text[money.sentence_start :].startswith("Your")
    assert money.bound is Bound.BELOW and percent.bound is Bound.NONE


def test_the_window_is_a_few_content_words_either_side() -> None:
    far = " ".join(f"word{chr(97 + i)}" for i in range(WINDOW))
    (figure,) = figures_in_context(f"turnover {far} $2 million")
    assert "turnover" not in figure.words
    (near,) = figures_in_context(f"turnover {far[6:]} $2 million")
    assert "turnover" in near.words


def test_a_paragraph_figure_takes_the_words_of_its_lead_in() -> None:
    text = (
        "(1) The amount of the producer offset is: (a) if the film is a feature film produced for cinemas "
        "and shown in them\u201440%; or (b) otherwise\u201430% of the expenditure."
    )  # after ITAA 1997 s 376-60(1), shortened
    _forty, thirty = figures_in_context(text)
    assert "offset" in thirty.words and "producer" in thirty.words
    assert thirty.line == "(b) otherwise\u201430% of the expenditure."


def test_member_counts_and_ages_carry_their_concept() -> None:
    (members,) = figures_in_context("(a) it has fewer than 5 members;")
    assert members.words == {"members"}
    (age,) = figures_in_context("when you are aged 60 or over")
    assert "age" in age.words


def test_figures_share_a_concept_by_a_vocabulary_word_or_two_other_words() -> None:
    (stated,) = figures_in_context("the turnover threshold was $10 million")
    (law,) = figures_in_context("your aggregated turnover was less than $2 million")
    assert shared_concept(stated, law) == "turnover"
    (cgt,) = figures_in_context("the CGT asset was bought 2 years before the CGT event")
    (other,) = figures_in_context("a CGT event happening to a CGT asset at least 12 months after")
    assert shared_concept(cgt, other) == "asset cgt event"
    (spouse,) = figures_in_context("the spouse earns $13,800")
    assert shared_concept(spouse, law) is None
    (one,) = figures_in_context("the asset cost $300")
    (two,) = figures_in_context("an asset worth $500")
    assert shared_concept(one, two) is None  # one shared word is not a concept


@given(st.sampled_from(["turnover", "threshold", "discount", "members", "income"]), st.integers(1, 10**7))
def test_a_figure_shares_its_concept_with_the_same_words_whatever_its_value(concept: str, value: int) -> None:
    (a,) = figures_in_context(f"the {concept} is ${value:,}")
    (b,) = figures_in_context(f"the {concept} is ${value + 1:,}")
    assert shared_concept(a, b) is not None


def test_a_holding_period_is_a_duration_never_a_percentage() -> None:
    (stated,) = figures_in_context("A company gets the 50% CGT discount on shares it has held for over 12 months")[:1]
    (law,) = figures_in_context("(ii) a *widely held company or a *100% subsidiary of a widely held company; and")
    assert "holding period" not in law.words and shared_concept(stated, law) is None
    months = figures_in_context("the asset was held for at least 12 months")[0]
    assert "holding period" in months.words
