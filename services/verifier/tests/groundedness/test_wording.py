"""Negated terms and content words."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_verifier.groundedness.wording import affirmed_stems, content_stems, negations


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("The amount is not deductible.", "deduct"),
        ("You cannot deduct it.", "deduct"),
        ("You can't deduct it.", "deduct"),
        ("No deduction is allowable.", "deduct"),
        ("It is never assessable.", "assess"),
        ("It does not necessarily form part of the cost.", "form"),
        ("It isn\u2019t income.", "income"),
    ],
)
def test_negated_term(text: str, term: str) -> None:
    assert [n.term for n in negations(text)] == [term]


def test_no_negation() -> None:
    assert negations("The amount is deductible in the income year.") == ()


def test_affirmed_excludes_the_negated_word_only() -> None:
    assert affirmed_stems("The cost is not deductible but the interest is deductible.") >= {"deduct", "intere"}
    assert "deduct" not in affirmed_stems("The cost is not deductible.")


def test_content_stems_drop_stopwords_and_references() -> None:
    assert content_stems("It is not deductible under section of the Act") == ("deduct",)


@given(st.text(max_size=200))
def test_never_raises(text: str) -> None:
    for negation in negations(text):
        assert negation.term
        assert negation.phrase.split()[-1].startswith(negation.term)
