from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from asat_research.generation.quantities import asserts_premise, contradicted, quantities


def test_reads_money_percent_durations_and_members() -> None:
    found = {
        (q.kind, q.value)
        for q in quantities("$10 million, $2,000,000, 15%, 10 per cent, 12 months, 2 years, 5 members, six months")
    }
    assert found == {
        ("money", 10_000_000),
        ("money", 2_000_000),
        ("percent", 15),
        ("percent", 10),
        ("months", 12),
        ("months", 24),
        ("members", 5),
        ("months", 6),
    }


def test_contradiction_needs_a_different_figure_of_the_same_kind() -> None:
    assert [q.text for q in contradicted("GST is 15%, isn't it?", ["is 10% of the value"])] == ["15%"]
    assert contradicted("GST is 10%, isn't it?", ["is 10% of the value"]) == []
    assert contradicted("GST is 15%, isn't it?", ["no figures here"]) == []
    assert contradicted("held 6 months", ["at least 12 months before"])[0].kind == "months"


def test_premise_forms() -> None:
    assert asserts_premise("Now that GST is 15%, how much is in a sale?")
    assert asserts_premise("The discount applies after 6 months, doesn't it?")
    assert not asserts_premise("What is the GST rate?")


@given(st.integers(1, 10**9))
def test_money_round_trips(amount: int) -> None:
    (quantity,) = quantities(f"${amount:,}")
    assert quantity.value == amount
