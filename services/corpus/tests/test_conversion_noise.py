"""Item 1: texts that differ only by conversion defects, on short synthetic texts."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from asat_corpus.comparison import words
from asat_corpus.conversion_noise import (
    Verdict,
    conversion_words,
    is_significant,
    judge_pair,
    rejoin_split,
    repair_glued,
    short_diff,
)

TABLE_AUTHORISED = (
    "Item | CGT event | Exception\n"
    "1 | any insurance policy or annuity instrument | the insured\n"
    "2 | an interest in a complying superannuation entity | the trustee"
)
# The same table as a converter laid it out: cells wrapped onto their own lines, in another order.
TABLE_CONVERTED = (
    "Item CGT event\nException\n1 any insurance policy or annuity instrument\nthe insured\n"
    "2 an interest in a complying superannuation entity\nthe trustee"
)


def test_a_reflowed_table_is_the_same_words() -> None:
    judgement = judge_pair(TABLE_CONVERTED, TABLE_AUTHORISED, earlier_authorised=False, later_authorised=True)
    assert judgement.verdict is Verdict.SAME_WORDS and judgement.merges
    assert judgement.reference_is_later


def test_the_dropped_s_1_defect_is_undone_only_where_the_other_text_confirms_it() -> None:
    authorised = "The amount of the adjustment is 1/11 of the amount, and GST is 10% of the value."
    converted = "The amount of the adjustment i/11 of the amount, and GST i0% of the value."
    assert judge_pair(converted, authorised, False, True).verdict is Verdict.SAME_WORDS
    vocabulary = frozenset(words(authorised))
    assert "is 1/11" in repair_glued("adjustment i/11 of", vocabulary)
    # Without the other text's words to confirm it, nothing is changed.
    assert repair_glued("adjustment i/11 of", frozenset()) == "adjustment i/11 of"
    assert repair_glued("exceed8 months", frozenset({"exceeds", "18"})) == "exceeds 18 months"


def test_split_words_are_rejoined_against_the_other_text() -> None:
    assert rejoin_split(["becau", "se", "of", "it"], frozenset({"because", "of", "it"})) == ["because", "of", "it"]
    assert rejoin_split(["y", "es", "n", "o"], frozenset({"yes", "no"})) == ["yes", "no"]
    # Two real words are not glued into a third.
    assert rejoin_split(["asset", "based"], frozenset({"asset", "based", "assetbased"})) == ["asset", "based"]
    assert conversion_words("inte rests", "interests") == ["interests"]


def test_a_conversion_that_lost_a_table_in_another_order_is_the_same_version() -> None:
    authorised = "Method 2: the shares are listed.\nItem | Event\n1 | disposal of a right | 7 June 1999"
    converted = "the shares are listed. Method 2:"
    judgement = judge_pair(converted, authorised, False, True)
    assert judgement.verdict is Verdict.CONVERSION_LOST_MATERIAL and judgement.merges


def test_a_changed_figure_keeps_the_texts_apart() -> None:
    judgement = judge_pair("less than $2 million", "less than $10 million", False, True)
    assert judgement.verdict is Verdict.FIGURES_DIFFER and not judgement.merges
    assert "2" in judgement.significant_changes


def test_a_negation_only_the_conversion_holds_keeps_the_texts_apart() -> None:
    long = " ".join(f"word{i}" for i in range(60))
    judgement = judge_pair(f"{long} you can not deduct", f"{long} you can deduct it", False, True)
    assert judgement.verdict is Verdict.FIGURES_DIFFER
    assert "not" in judgement.significant_changes


def test_near_identical_texts_merge_only_above_the_floor() -> None:
    base = " ".join(f"term{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(100))
    near = judge_pair(f"{base} becau", f"{base} because", False, True)
    assert near.verdict is Verdict.NEAR_IDENTICAL and near.similarity >= 0.95
    far = judge_pair(
        f"{base} " + " ".join(f"other{chr(97 + i)}" for i in range(20)), f"{base} extra words", False, True
    )
    assert far.verdict is Verdict.TOO_DIFFERENT and not far.merges


def test_an_authorised_text_missing_lines_is_kept_apart_as_a_suspected_parse_defect() -> None:
    converted = "1. Work out your capital proceeds.\n2. Work out the cost base.\n3. Subtract one from the other."
    authorised = "3. Subtract one from the other."
    judgement = judge_pair(converted, authorised, False, True)
    assert judgement.verdict is Verdict.AUTHORISED_LACKS_WORDS and not judgement.merges
    assert "parsing the authorised text" in judgement.cause


def test_two_authorised_texts_are_never_merged() -> None:
    assert judge_pair("a b c", "c b a", True, True).verdict is Verdict.BOTH_AUTHORISED


def test_significant_words() -> None:
    assert all(is_significant(w) for w in ("10", "328110", "1997", "not", "july", "unless"))
    assert not any(is_significant(w) for w in ("item", "insured", "deduct"))


def test_short_diff_lists_word_changes() -> None:
    assert short_diff("less than $2 million", "less than $10 million") == ("-2 +10",)
    assert short_diff("same", "same") == ()


_WORDS = st.lists(st.sampled_from(["the", "amount", "is", "10", "not", "item", "of", "gst", "you"]), max_size=30)


@settings(max_examples=200, deadline=None)
@given(_WORDS, st.randoms(use_true_random=False))
def test_any_reordering_of_the_same_words_merges(tokens: list[str], rnd: Random) -> None:
    shuffled = list(tokens)
    rnd.shuffle(shuffled)
    assert judge_pair(" ".join(shuffled), " ".join(tokens), False, True).verdict is Verdict.SAME_WORDS


@settings(max_examples=200, deadline=None)
@given(_WORDS, st.sampled_from(["11", "2", "never", "march"]))
def test_a_figure_or_negation_only_the_conversion_holds_never_merges(tokens: list[str], extra: str) -> None:
    authorised = " ".join(tokens)
    if extra in tokens:
        return
    judgement = judge_pair(f"{authorised} {extra}", authorised, False, True)
    assert not judgement.merges


def test_words_split_into_several_pieces_are_rejoined() -> None:
    vocabulary = frozenset({"were", "the", "bonus", "equities", "partly", "paid"})
    assert rejoin_split(["w", "ere", "th", "e", "p", "artly", "p", "aid"], vocabulary) == [
        "were",
        "the",
        "partly",
        "paid",
    ]
    assert rejoin_split(["eq", "u", "ities"], vocabulary) == ["equities"]
