from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from asat_research.relevance.division_summaries import Section, opening, summary_pairs, unit_of

# Shapes from the Fuel Tax Act 2006, Division 42 (fuel tax credit for nonbusiness taxpayers).
DIV42 = ("Chapter 3—Fuel tax credits", "Part 3-1—Basic rules", "Division 42—Fuel tax credit for nonbusiness taxpayers")
SUMMARY = Section(
    "fta2006",
    "42-1",
    "What this Division is about",
    DIV42,
    "Fuel tax credits are provided under this Division to nonbusiness taxpayers. Currently, a credit is only "
    "provided for fuel to be used by you for generating electricity for domestic use.",
)
OPERATIVE = Section("fta2006", "42-5", "Fuel tax credit for nonbusiness taxpayers", DIV42, "You are entitled ...")
ELSEWHERE = Section("fta2006", "43-5", "Working out your fuel tax credit", (*DIV42[:2], "Division 43—Working"), "...")
SUBDIVISION = (*DIV42, "Subdivision 42-A—Something")


def test_a_summary_asks_for_the_operative_sections_of_its_division_only() -> None:
    guide = Section("fta2006", "42-2", "Guide to Division 42", DIV42, "...")
    (pair,) = summary_pairs([SUMMARY, OPERATIVE, ELSEWHERE, guide])
    assert (pair.act, pair.number, pair.targets) == ("fta2006", "42-1", ("42-5",))
    assert pair.question.startswith("Fuel tax credits are provided under this Division")


def test_a_subdivision_summary_asks_for_its_subdivision_and_a_division_summary_for_all_of_it() -> None:
    sub_summary = Section("fta2006", "42-3", "What this Subdivision is about", SUBDIVISION, SUMMARY.text)
    inner = Section("fta2006", "42-7", "Inner rule", SUBDIVISION, "...")
    pairs = {p.number: p.targets for p in summary_pairs([SUMMARY, OPERATIVE, sub_summary, inner])}
    assert pairs == {"42-1": ("42-5", "42-7"), "42-3": ("42-7",)}


def test_a_summary_without_operative_sections_or_words_gives_no_pair() -> None:
    assert summary_pairs([SUMMARY]) == []
    short = Section("fta2006", "42-1", "What this Division is about", DIV42, "See below.")
    assert summary_pairs([short, OPERATIVE]) == []


def test_unit_of_reads_the_innermost_division_or_subdivision() -> None:
    assert unit_of(SUBDIVISION, subdivision=False) == "Division 42"
    assert unit_of(SUBDIVISION, subdivision=True) == "Subdivision 42-A"
    assert unit_of(DIV42[:2], subdivision=False) is None


@given(st.lists(st.text(alphabet="abc .", min_size=1, max_size=30), min_size=1, max_size=20), st.integers(1, 80))
def test_opening_is_whole_sentences_from_the_start_within_the_word_budget(parts: list[str], words: int) -> None:
    text = " ".join(parts)
    result = opening(text, words)
    normal = " ".join(text.split())
    assert normal.startswith(result)
    first = opening(text, 1)
    assert len(result.split()) <= max(words, len(first.split()))
