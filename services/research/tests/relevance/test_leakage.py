from __future__ import annotations

from asat_research.relevance.leakage import LeakageGuard, jaccard, shingles, tokens

GOLD = ["What aggregated turnover made a business a small business entity in the 2014-15 income year?"]


def test_a_shared_eight_word_run_leaks() -> None:
    guard = LeakageGuard.of(GOLD)
    assert guard.leaks("Tell me what aggregated turnover made a business a small business entity, please")
    assert not guard.leaks("Is a trust that carries on a business a small business entity for GST purposes?")


def test_a_near_copy_by_bag_of_words_leaks() -> None:
    guard = LeakageGuard.of(["Is a speeding fine deductible?"])
    assert guard.leaks("speeding fine: is it deductible")  # Jaccard 4/5
    assert not guard.leaks("Are fines and penalties imposed by a court deductible under section 26-5?")


def test_the_helpers() -> None:
    assert tokens("A $2 million test, isn't it?") == ["a", "2", "million", "test", "isn't", "it"]
    assert shingles(["a", "b", "c"], 2) == {("a", "b"), ("b", "c")}
    assert jaccard({"a", "b"}, {"b", "c"}) == 1 / 3
    assert jaccard(set(), set()) == 0.0
