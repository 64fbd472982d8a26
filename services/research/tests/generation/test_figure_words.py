"""How a rejection's note says the law's figure: as written, unless the text's conversion ran a
fraction on into the number (ITAA 1997 s 40-440 writes 18¾% as "183/4%")."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_research.generation.extractive import figure_words
from asat_research.generation.quantities import Quantity, quantities


def _one(text: str) -> Quantity:
    (quantity,) = quantities(text)
    return quantity


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Step 1. taking 183/4% of the taxable use percentage", '18.75% (written "183/4%")'),
        ("(b) 331/3% if the gain is made", '33.33% (written "331/3%")'),
        ("Add to the step 2 amount 371/2% of the sum", '37.5% (written "371/2%")'),
        ("The amount of GST is 10% of the value", "10%"),
        ("aggregated turnover of less than $2,000,000", "$2,000,000"),
    ],
)
def test_the_note_says_the_value_of_a_run_on_fraction_and_keeps_the_text_as_written(text: str, said: str) -> None:
    assert figure_words(_one(text)) == said


@given(st.integers(min_value=1, max_value=99), st.sampled_from(["1/2", "1/4", "3/4"]))
def test_a_run_on_fraction_is_said_by_its_value_and_as_written(whole: int, fraction: str) -> None:
    written = f"{whole}{fraction}%"
    quantity = _one(f"at {written} of the sum")
    numerator, denominator = (int(x) for x in fraction.split("/"))
    assert quantity.value == whole + Decimal(numerator) / denominator
    assert figure_words(quantity).endswith(f'(written "{written}")')
    assert figure_words(quantity).startswith(f"{quantity.value.normalize():f}%")
