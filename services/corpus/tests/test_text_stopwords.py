"""The stopword list and its named variants."""

from __future__ import annotations

from asat_corpus.text.stopwords import FUNCTION_WORDS, MEANINGFUL_FUNCTION_WORDS, QUESTION_STOPWORDS


def test_lists_are_lower_case_single_words() -> None:
    for words in (FUNCTION_WORDS, MEANINGFUL_FUNCTION_WORDS, QUESTION_STOPWORDS):
        assert all(w == w.lower().strip() and w.isalpha() for w in words)


def test_words_of_legal_meaning_are_not_plain_function_words() -> None:
    assert not FUNCTION_WORDS & MEANINGFUL_FUNCTION_WORDS
    assert {
        "not",
        "no",
        "nor",
        "must",
        "may",
        "any",
        "all",
        "only",
        "under",
        "more",
        "less",
    } <= MEANINGFUL_FUNCTION_WORDS
    assert {"before", "after"}.isdisjoint(FUNCTION_WORDS | MEANINGFUL_FUNCTION_WORDS)


def test_question_stopwords_add_the_words_every_question_carries() -> None:
    assert {"client", "clients", "claim"} == QUESTION_STOPWORDS - FUNCTION_WORDS
