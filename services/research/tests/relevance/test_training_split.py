from __future__ import annotations

from collections import Counter

from asat_research.relevance.training_data import provision_split, title_question


def test_split_is_stable_and_roughly_seventy_ten_twenty() -> None:
    splits = Counter(provision_split("itaa1997", f"{d}-{n}") for d in range(1, 60) for n in range(1, 40))
    total = sum(splits.values())
    assert abs(splits["train"] / total - 0.7) < 0.03
    assert abs(splits["dev"] / total - 0.1) < 0.03
    assert abs(splits["test"] / total - 0.2) < 0.03
    assert provision_split("itaa1997", "328-110") == provision_split("itaa1997", "328-110")


def test_a_ruling_title_loses_its_tax_type_prefix() -> None:
    assert title_question("Income tax: residence of companies not incorporated in Australia") == (
        "residence of companies not incorporated in Australia"
    )
    assert (
        title_question("Goods and Services Tax: commercial residential premises") == "commercial residential premises"
    )
    assert title_question("First home super saver scheme") == "First home super saver scheme"
