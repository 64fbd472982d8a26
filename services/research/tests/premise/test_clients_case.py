"""Statements about the client, not the law: the two readings and where they differ."""

from __future__ import annotations

import pytest

from asat_research.premise.clients_case import CLIENT_FACTS, CLIENTS_CASE
from asat_research.premise.detection import detect_premise


@pytest.mark.parametrize(
    "statement",
    ["my client qualifies", "My client with $6 million turnover qualifies", "she is fine", "We can claim it"],
)
def test_the_client_as_subject_is_both(statement: str) -> None:
    assert CLIENTS_CASE.match(statement) and CLIENT_FACTS.match(statement)


@pytest.mark.parametrize(
    "statement", ["my client's company owns the house", "My client's speeding fines were incurred while driving"]
)
def test_what_the_client_has_is_a_fact_but_may_still_assert_the_law(statement: str) -> None:
    assert CLIENT_FACTS.match(statement) and not CLIENTS_CASE.match(statement)


@pytest.mark.parametrize(
    "statement", ["Private expenses are deductible", "The CGT discount applies after 6 months", "A company gets it"]
)
def test_a_statement_of_the_law_is_neither(statement: str) -> None:
    assert not CLIENTS_CASE.match(statement) and not CLIENT_FACTS.match(statement)


def test_a_curly_apostrophe_reads_as_a_straight_one_once_detected() -> None:
    premise = detect_premise("My client\u2019s company owns the house, so it gets the exemption, right?")
    assert premise is not None
    assert CLIENT_FACTS.match(premise.statements[0]) and not CLIENTS_CASE.match(premise.statements[0])
