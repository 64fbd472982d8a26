"""The deterministic scorer: the contract suite, then what it must catch."""

from __future__ import annotations

import pytest

from asat_corpus.contracts.verification import GroundednessCheck
from asat_verifier.groundedness.deterministic import DeterministicScorer
from asat_verifier.groundedness.port import Evidence, GroundednessResult
from asat_verifier.testing.groundedness_contract import GroundednessScorerContract

SBE = Evidence(
    "An entity is a small business entity for an income year if it carries on a business in the "
    "income year and its aggregated turnover for the income year is less than $10 million.",
    source_id="ITAA1997:328-110",
    act="ITAA1997",
    provision="328-110",
)
RATE = Evidence(
    "The rate of tax for a base rate entity is 25% for the 2021-22 income year and later income years, "
    "applying from 1 July 2021.",
    source_id="rates",
)
PRIVATE = Evidence(
    "You cannot deduct a loss or outgoing under this section to the extent that it is a loss or "
    "outgoing of a private or domestic nature.",
    source_id="ITAA1997:8-1",
    act="ITAA1997",
    provision="8-1",
)
CAR = Evidence(
    "You can deduct car expenses only if you satisfy the substantiation rules in Division 28, "
    "which apply for up to 5,000 business kilometres.",
    source_id="ITAA1997:28-12",
)


class TestDeterministicScorerContract(GroundednessScorerContract):
    @pytest.fixture
    def scorer(self) -> DeterministicScorer:
        return DeterministicScorer()


def _judge(claim: str, *quotes: Evidence) -> GroundednessResult:
    return DeterministicScorer().score(claim, quotes)


def _failed(result: GroundednessResult) -> list[GroundednessCheck]:
    return [f.check for f in result.findings if not f.passed]


@pytest.mark.parametrize(
    ("claim", "quotes"),
    [
        ("A small business entity has aggregated turnover of less than $10 million.", (SBE,)),
        ("A small business entity has aggregated turnover under $10,000,000 for the income year.", (SBE,)),
        ("Under section 328-110 of the ITAA 1997 aggregated turnover is less than $10m.", (SBE,)),
        ("A base rate entity is taxed at 25 per cent from the 2021–22 income year.", (RATE,)),
        ("The 25% rate for a base rate entity applies from 2021-07-01.", (RATE,)),
        ("A private or domestic outgoing is not deductible under this section.", (PRIVATE,)),
        ("Car expenses for up to 5000 business kilometres need substantiation under Division 28.", (CAR,)),
        ("Deductions for car expenses are subject to substantiation in Division 28.", (CAR,)),
    ],
)
def test_supported_claims_are_grounded(claim: str, quotes: tuple[Evidence, ...]) -> None:
    result = _judge(claim, *quotes)
    assert result.grounded, [f.message for f in result.findings if not f.passed]
    assert result.score >= 0.5


@pytest.mark.parametrize(
    ("claim", "quotes", "check"),
    [
        # money amounts
        ("A small business entity has aggregated turnover of less than $2 million.", (SBE,), "money"),
        ("A small business entity has aggregated turnover less than $10 billion.", (SBE,), "money"),
        # numbers
        ("Car expenses for up to 500 business kilometres need substantiation under Division 28.", (CAR,), "number"),
        ("Car expenses for up to 5,001 business kilometres need substantiation.", (CAR,), "number"),
        # percentages
        ("A base rate entity is taxed at 26% from the 2021-22 income year.", (RATE,), "percentage"),
        ("A base rate entity is taxed at 25.5 per cent from the 2021-22 income year.", (RATE,), "percentage"),
        # dates and income years
        ("The 25% rate for a base rate entity applies from 1 July 2020.", (RATE,), "date"),
        ("The base rate entity rate is 25% for the 2020-21 income year.", (RATE,), "date"),
        # provision references
        ("Under section 328-115 a small business entity has turnover less than $10 million.", (SBE,), "provision"),
        ("Car expenses need substantiation under Division 82, up to 5,000 business kilometres.", (CAR,), "provision"),
        ("Under section 8-10 a private or domestic outgoing is not deductible.", (PRIVATE,), "provision"),
    ],
)
def test_changed_facts_fail(claim: str, quotes: tuple[Evidence, ...], check: str) -> None:
    result = _judge(claim, *quotes)
    assert not result.grounded
    assert GroundednessCheck(check) in _failed(result)
    assert result.score < 1.0


def test_the_message_says_what_the_quotes_have() -> None:
    result = _judge("Turnover must be less than $2 million for a small business entity.", SBE)
    (money,) = [f for f in result.findings if f.check is GroundednessCheck.MONEY]
    assert "'$2 million' is not in the quotes" in money.message
    assert "$10 million" in money.message


def test_dropped_negation_fails() -> None:
    result = _judge("A private or domestic outgoing is deductible under this section.", PRIVATE)
    assert not result.grounded
    assert _failed(result) == [GroundednessCheck.NEGATION]


def test_added_negation_fails() -> None:
    quote = Evidence("A loss or outgoing incurred in gaining assessable income is deductible under this section.")
    result = _judge("A loss or outgoing incurred in gaining assessable income is not deductible.", quote)
    assert not result.grounded
    assert _failed(result) == [GroundednessCheck.NEGATION]


def test_negation_kept_in_other_words_passes() -> None:
    result = _judge("Private or domestic outgoings are not deductible under this section.", PRIVATE)
    assert result.grounded


def test_unrelated_claim_fails_on_overlap() -> None:
    result = _judge("The moon is made of green cheese and orbits the earth.", SBE)
    assert _failed(result) == [GroundednessCheck.OVERLAP]


def test_source_provision_supports_a_reference_the_quote_text_lacks() -> None:
    assert _judge("Under section 8-1 a private or domestic outgoing is not deductible.", PRIVATE).grounded
    assert _judge("Under Division 8 a private or domestic outgoing is not deductible.", PRIVATE).grounded


def test_min_overlap_is_validated() -> None:
    with pytest.raises(ValueError, match="min_overlap"):
        DeterministicScorer(min_overlap=1.5)
