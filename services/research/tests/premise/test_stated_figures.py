from __future__ import annotations

import pytest

from asat_research.premise.stated_figures import stated_figures, states_a_figure_of_the_law

CASES: list[tuple[str, list[str]]] = [
    ("the small business entity turnover threshold was $10 million in 2014-15", ["$10 million"]),
    ("my client with $6 million turnover qualifies", []),
    ("my client on $270,000 is fine", []),
    ("her income is under $37,000", []),
    ("my client\u2019s turnover is $1.5 million and the threshold is $2 million", ["$2 million"]),
    ("the GST in a $1,150 sale is $150", ["$150"]),
    ("the offset cuts out once the spouse earns $13,800", ["$13,800"]),
    ("my client can only deduct contributions if less than 10% of her income is from employment", ["10%"]),
    ("A company gets the 50% CGT discount on shares it has held for over 12 months", ["50%", "12 months"]),
    ("she turned 60 on 1 July 2024", []),
]


@pytest.mark.parametrize(("statement", "figures"), CASES, ids=[s for s, _ in CASES])
def test_only_the_law_s_figures_are_stated_figures(statement: str, figures: list[str]) -> None:
    assert [f.quantity.text for f in stated_figures(statement)] == figures


@pytest.mark.parametrize(
    ("question", "states"),
    [
        (
            "Under the spouse contribution offset in 2025-26, the offset cuts out once the spouse earns $13,800, correct?",
            True,
        ),
        ("The Div 293 threshold is still $300,000 in 2025-26, so my client on $270,000 is fine, isn't she?", True),
        ("Private expenses are deductible under the general deduction rule, aren't they?", False),  # no figure
        ("My client with $6 million turnover is a small business entity, right?", False),  # the client's figure
        ("What is the spouse contribution offset income limit in 2025-26?", False),  # asserts nothing
    ],
)
def test_a_question_states_a_figure_of_the_law_only_in_what_it_asserts(question: str, states: bool) -> None:
    assert states_a_figure_of_the_law(question) is states
