"""Subsection ranges and markup removal shared by the Markdown parsers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.parsers.markdown_text import (
    double_hyphen_to_dash,
    strip_emphasis,
    subsection_ranges,
)

labels = st.sampled_from(["(1)", "(2)", "(2A)", "(3)", "(10)", "(a)", "(i)", "Note:", ""])
words = st.text(alphabet="abcdef ;:.$", min_size=0, max_size=30)
lines = st.builds(lambda label, rest: f"{label} {rest}".strip(), labels, words)


@given(st.lists(lines, max_size=12))
def test_subsection_ranges_are_ordered_disjoint_and_cover_labelled_lines(
    body: list[str],
) -> None:
    text = "\n".join(body)
    ranges = subsection_ranges(text)
    previous_end = 0
    for sub in ranges:
        assert previous_end <= sub.start <= sub.end <= len(text)
        previous_end = sub.end
        chunk = text[sub.start : sub.end]
        if sub.label:
            assert chunk.startswith(sub.label)
        else:
            assert sub.start == 0 and chunk.strip()
    labelled = [line for line in body if line[:1] == "(" and line[1:2].isdigit()]
    assert [sub.label for sub in ranges if sub.label] == [line.split(" ")[0] for line in labelled]


def test_unlabelled_lead_in_gets_empty_label() -> None:
    text = "General rule\n(1) You are.\n(a) one; and\n(2) Also."
    ranges = subsection_ranges(text)
    assert [(s.label, text[s.start : s.end]) for s in ranges] == [
        ("", "General rule"),
        ("(1)", "(1) You are.\n(a) one; and"),
        ("(2)", "(2) Also."),
    ]


def test_emphasis_removed_but_defined_term_asterisk_kept() -> None:
    assert strip_emphasis("a **_small business entity_** carrying on a *business") == (
        "a small business entity carrying on a *business"
    )
    assert strip_emphasis("the _Excise Act 1901 _to deliver") == "the Excise Act 1901 to deliver"
    assert strip_emphasis("is called a **_general deduction_** .") == ("is called a general deduction.")
    assert strip_emphasis("a * CGT asset", spaced_defined_terms=True) == "a *CGT asset"
    assert strip_emphasis(r"an \*entity") == "an *entity"


def test_double_hyphen_becomes_em_dash() -> None:
    assert double_hyphen_to_dash("Division 328--Small business") == "Division 328\u2014Small business"
    assert double_hyphen_to_dash("a ---- rule") == "a ---- rule"
