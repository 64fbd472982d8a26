from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from asat_research.relevance.legislative_refs import ActNames, parse_references, references_block

ACTS = ActNames.from_titles(
    {
        "Income Tax Assessment Act 1997": "itaa1997",
        "Income Tax Assessment Act 1936": "itaa1936",
        "A New Tax System (Goods And Services Tax) Act 1999": "gst1999",
        "Taxation Administration Act 1953": "taa1953",
    }
)

# The Legislative References of ATO ID 2003/217 (rulings/AID/AID_2003_217.txt), as printed.
BLOCK_2003_217 = """Date of decision:
         26 February 2003

Legislative References:

Income Tax Assessment Act 1997   section 70-35   subsection 70-45(1A)
A New Tax System (Goods and Services Tax) Act 1999   Division 66   section 66-5   section 66-10   subsection 66-10(1)   section 66-15   paragraph 11-5(b)

Related ATO Interpretative Decisions

 ATO ID 2003/216
"""


def test_the_block_ends_at_the_next_heading() -> None:
    block = references_block(BLOCK_2003_217)
    assert block.splitlines() == [
        "Income Tax Assessment Act 1997   section 70-35   subsection 70-45(1A)",
        "A New Tax System (Goods and Services Tax) Act 1999   Division 66   section 66-5   section 66-10   "
        "subsection 66-10(1)   section 66-15   paragraph 11-5(b)",
    ]
    assert references_block("no references here") == ""


def test_each_reference_is_its_section_and_subsection_label() -> None:
    refs = parse_references(references_block(BLOCK_2003_217), ACTS)
    pairs = [(r.act, r.number, r.label) for r in refs]
    assert pairs == [
        ("itaa1997", "70-35", None),
        ("itaa1997", "70-45", "(1A)"),
        ("gst1999", "66-5", None),
        ("gst1999", "66-10", None),
        ("gst1999", "66-10", "(1)"),
        ("gst1999", "66-15", None),
        ("gst1999", "11-5", None),  # a paragraph, not a subsection
    ]


def test_an_act_not_held_has_no_slug_and_a_whole_act_no_number() -> None:
    refs = parse_references("Income Tax Assessment Act 1936   section 27F\nMedicare Levy Act 1986", ACTS)
    assert [(r.act, r.number, r.held) for r in refs] == [("itaa1936", "27F", True), (None, None, False)]


def test_taa_1953_hyphenated_sections_are_schedule_1_and_bare_numbers_count() -> None:
    refs = parse_references(
        "Taxation Administration Act 1953   TAA 1953 12-1(1)   TAA 1953 Schedule 1   TAA 1953 12-35\n"
        "Taxation Administration Act 1953   section 8AAG   subsection 8AAG(4)",
        ACTS,
    )
    assert [(r.number, r.label) for r in refs] == [
        ("sch1-12-1", "(1)"),
        ("sch1-12-35", None),
        ("8AAG", None),
        ("8AAG", "(4)"),
    ]


@given(st.text(max_size=300))
def test_any_text_parses_without_error_and_every_reference_names_an_act(text: str) -> None:
    for ref in parse_references(references_block(text) or text, ACTS):
        assert ref.act_name
        assert ref.held == (ref.act is not None)
