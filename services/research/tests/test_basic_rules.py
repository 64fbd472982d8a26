"""A Subdivision's basic rule: its first section that is not guide material."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from asat_corpus.income_year import income_years_overlapping
from asat_corpus.provision import Bound, BoundMethod, ProvisionTimeline, ProvisionVersion
from asat_research.basic_rules import BasicRules, Section, section_order, states_a_rule

MAIN_RESIDENCE = ("Chapter 3", "Division 118—Exemptions", "Subdivision 118-B—Main residence")


def _timeline(
    number: str, heading: str, hierarchy: tuple[str, ...], start: date = date(2015, 7, 1)
) -> ProvisionTimeline:
    version = ProvisionVersion(
        id=f"itaa1997:{number}@C0",
        act="itaa1997",
        number=number,
        heading=heading,
        hierarchy=hierarchy,
        text=f"{heading}.",
        subsections=(),
        register_ids=("C0",),
        authorised=True,
        valid_from=start,
        valid_to=None,
        from_bound=Bound(start, BoundMethod.AMENDMENT_COMMENCEMENT),
        to_bound=Bound(None, BoundMethod.OPEN),
        income_years=income_years_overlapping(start, None, 2026),
        content_hash=number,
    )
    return ProvisionTimeline(act="itaa1997", number=number, versions=(version,), gaps=())


RULES = BasicRules(
    [
        _timeline(
            "118-185", "Partial exemption where dwelling was your main residence during part only", MAIN_RESIDENCE
        ),
        _timeline("118-105", "Map of this Subdivision", MAIN_RESIDENCE),
        _timeline("118-110", "Basic case", MAIN_RESIDENCE),
        _timeline("118-100", "What this Subdivision is about", MAIN_RESIDENCE),
        _timeline("118-145", "Absences", MAIN_RESIDENCE),
        _timeline("8-1", "General deductions", ("Chapter 2", "Division 8—Deductions")),
    ]
)


def test_the_basic_rule_is_the_first_section_after_the_guide_material() -> None:
    assert RULES.basic_rule("itaa1997", "118-185", 2026) == Section("itaa1997", "118-110", "Basic case")
    assert RULES.basic_rule("itaa1997", "118-145", 2020) == Section("itaa1997", "118-110", "Basic case")


def test_a_section_in_no_subdivision_has_no_basic_rule() -> None:
    assert RULES.basic_rule("itaa1997", "8-1", 2026) is None
    assert RULES.basic_rule("itaa1997", "999-1", 2026) is None


def test_the_basic_rule_is_one_in_force_in_the_year() -> None:
    later = BasicRules(
        [
            _timeline("118-110", "Basic case", MAIN_RESIDENCE, start=date(2020, 7, 1)),
            _timeline("118-145", "Absences", MAIN_RESIDENCE),
        ]
    )
    assert later.basic_rule("itaa1997", "118-145", 2016) == Section("itaa1997", "118-145", "Absences")
    assert later.basic_rule("itaa1997", "118-145", 2021) == Section("itaa1997", "118-110", "Basic case")


@pytest.mark.parametrize(
    ("numbers", "ordered"),
    [
        (["115-10", "115-5", "115-25"], ["115-5", "115-10", "115-25"]),
        (["109D", "109C", "109CA"], ["109C", "109CA", "109D"]),
    ],
)
def test_sections_are_ordered_by_number_not_by_text(numbers: list[str], ordered: list[str]) -> None:
    assert sorted(numbers, key=section_order) == ordered


@pytest.mark.parametrize(
    ("heading", "rule"),
    [
        ("What this Subdivision is about", False),
        ("Map of this Subdivision", False),
        ("Guide to Division 293", False),
        ("What the following provisions are about", False),
        ("Object of this Subdivision", False),
        ("Objects of Division", False),
        ("Overview", False),
        ("Diagram giving overview of this Subdivision", False),
        ("Interpretation", False),
        ("Definitions", False),
        ("Application of this Subdivision to certain other assets", True),
        ("Basic case", True),
        ("Who can make a discount capital gain?", True),
    ],
)
def test_guide_material_states_no_rule(heading: str, rule: bool) -> None:
    assert states_a_rule(heading) is rule


def test_a_later_version_in_the_year_gives_the_heading() -> None:
    first = _timeline("118-110", "Basic case", MAIN_RESIDENCE)
    renamed = replace(first.versions[0], id="itaa1997:118-110@C1", heading="Basic case—main residence")
    rules = BasicRules(
        [replace(first, versions=(first.versions[0], renamed)), _timeline("118-145", "Absences", MAIN_RESIDENCE)]
    )
    assert rules.basic_rule("itaa1997", "118-145", 2026) == Section("itaa1997", "118-110", "Basic case—main residence")


def test_a_subdivision_letter_repeated_in_another_division_is_another_subdivision() -> None:
    loans = (
        "Part III",
        "Division 7A—Distributions to entities connected with a private company",
        "Subdivision B—Payments",
    )
    other = ("Part III", "Division 1AB—Bodies ceasing to be STBs", "Subdivision B—Payments")
    rules = BasicRules(
        [
            _timeline("24AW", "Body ceasing to be an STB", other),
            _timeline("109C", "Payments treated as dividends", loans),
            _timeline("109E", "Payments treated as dividends in later years", loans),
        ]
    )
    assert rules.basic_rule("itaa1997", "109E", 2024) == Section("itaa1997", "109C", "Payments treated as dividends")


def test_a_section_is_in_the_subdivision_it_was_in_that_year() -> None:
    early = _timeline("84-5", "Offshore supplies", ("Chapter 4", "Division 84"), start=date(2015, 7, 1))
    later = replace(
        early.versions[0],
        id="itaa1997:84-5@C1",
        hierarchy=("Chapter 4", "Division 84", "Subdivision 84-A—Offshore supplies"),
        valid_from=date(2020, 7, 1),
        income_years=income_years_overlapping(date(2020, 7, 1), None, 2026),
    )
    first = replace(
        early.versions[0],
        valid_to=date(2020, 7, 1),
        income_years=income_years_overlapping(date(2015, 7, 1), date(2020, 7, 1), 2026),
    )
    rules = BasicRules([replace(early, versions=(first, later))])
    assert rules.basic_rule("itaa1997", "84-5", 2018) is None
    assert rules.basic_rule("itaa1997", "84-5", 2024) == Section("itaa1997", "84-5", "Offshore supplies")
