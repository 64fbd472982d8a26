"""The assertion of a question, as a search query of its own."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_research.premise.assertion_queries import MAX_QUERIES, assertion_queries, main_clause
from asat_research.premise.detection import detect_premise


@pytest.mark.parametrize(
    ("statement", "clause"),
    [
        (
            "Private expenses are deductible under the general deduction rule as long as they're paid during the year",
            "Private expenses are deductible under the general deduction rule",
        ),
        (
            "an SMSF could lend money to a member's relative as long as it charged market interest",
            "an SMSF could lend money to a member's relative",
        ),
        ("The CGT discount applies once an asset's been held for 6 months", "The CGT discount applies"),
        (
            "a trust can stream franked dividends, provided that the deed allows it",
            "a trust can stream franked dividends",
        ),
        ("GST is 15%", "GST is 15%"),
        ("if it is paid, it is deductible", "if it is paid, it is deductible"),  # nothing before the qualifier
    ],
)
def test_main_clause_stops_before_the_first_qualifier(statement: str, clause: str) -> None:
    assert main_clause(statement) == clause


@pytest.mark.parametrize(
    ("question", "queries"),
    [
        (
            "Private expenses are deductible under the general deduction rule as long as they're paid during the year, aren't they?",
            ("Private expenses are deductible under the general deduction rule",),
        ),
        (
            "My client's company owns the house she lives in — the company can use the main residence exemption when it sells, correct?",
            ("the company can use the main residence exemption",),
        ),
        (
            "A company gets the 50% CGT discount on shares it has held for over 12 months, right?",
            (),  # the question less its tag: no search of its own
        ),
    ],
)
def test_a_question_that_asserts_is_searched_for_its_assertion(question: str, queries: tuple[str, ...]) -> None:
    assert assertion_queries(question) == queries


@pytest.mark.parametrize(
    "question",
    [
        "What is the small business entity turnover threshold for 2025-26?",
        "Can my client deduct the cost of a home office if she works from home two days a week?",
        "How is the CGT discount worked out for a trust?",
    ],
)
def test_a_plain_question_has_no_assertion_query(question: str) -> None:
    assert assertion_queries(question) == ()


def test_the_clients_facts_are_no_query() -> None:
    question = "Since my client's turnover was under $10 million in 2019-20 because of the pandemic, is she a small business entity?"
    assert assertion_queries(question) == ()


_WORDS = st.sampled_from(
    [
        "expenses",
        "private",
        "deductible",
        "the",
        "company",
        "offset",
        "super",
        "fund",
        "can",
        "is",
        "lend",
        "GST-free",
        "discount",
        "members",
        "turnover",
        "threshold",
        "exempt",
        "trust",
        "loan",
        "payments",
    ]
)
_QUALIFIERS = st.sampled_from(["as long as", "if", "once", "unless", "because", "provided that", "when"])
_TAGS = st.sampled_from([", right?", ", isn't it?", ", correct?", ", aren't they?", ", couldn't it?"])


@given(
    st.lists(_WORDS, min_size=1, max_size=8),
    st.one_of(st.none(), st.tuples(_QUALIFIERS, st.lists(_WORDS, min_size=1, max_size=6))),
    _TAGS,
)
def test_queries_are_few_and_each_the_start_of_a_statement_without_its_proviso(
    clause: list[str], proviso: tuple[str, list[str]] | None, tag: str
) -> None:
    statement = " ".join(clause) + (f" {proviso[0]} {' '.join(proviso[1])}" if proviso else "")
    question = statement[0].upper() + statement[1:] + tag
    queries = assertion_queries(question)
    assert len(queries) <= MAX_QUERIES
    # "X because Y, right?" asserts Y too: detection gives it as a statement of its own
    premise = detect_premise(question)
    statements = premise.statements if premise is not None else ()
    for query in queries:
        assert any(s.startswith(query) for s in statements)
        assert not any(f" {q} " in f" {query} " for q in ("as long as", "once", "unless", "because", "provided that"))


@pytest.mark.parametrize(
    "statement",
    [
        "GST applies to services provided by a charity to its members in 2025-26",  # "provided" a verb
        "The offset has been capped since 2017 for every spouse who earns over the limit",
        "The trust where the beneficiaries are minors pays tax at the top rate on their shares",
    ],
)
def test_a_verb_or_a_preposition_is_no_proviso(statement: str) -> None:
    assert main_clause(statement) == statement
