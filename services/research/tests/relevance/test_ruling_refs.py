from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from asat_research.relevance.ruling_refs import SECTION_NUMBER, parse_ruling_references, ruling_references_block

# TR 2004/15 (rulings/TR/TR_2004_15.txt), as printed.
TR_2004_15 = """Previous Rulings/Determinations:
TR 2004/D1
Legislative References:
ITAA 1936 6(1)
ITAA 1936 6(1)(b)
ITAA 1997 995-1(1)
TAA 1953 Pt IVAAA
Case References:
American Leaf Blending Co. Sdn Bhd v. Director-General of Inland Revenue (Malaysia)
[1978] 3 All ER 1185
"""

# TD 2024/1: a lower-case heading, bulleted lines, and a heading without a colon after them.
TD_2024_1 = """Legislative references:
- FBTAA 1986 136(1)
- ITAA 1997 995-1(1)
ATO references
NO:
1-10X0IN5Y
"""


def _triples(block: str, assumed_act: str | None = None) -> list[tuple[str | None, str | None, str | None]]:
    return [(r.act, r.number, r.label) for r in parse_ruling_references(block, assumed_act=assumed_act)]


def test_the_block_runs_from_its_heading_to_the_next() -> None:
    assert ruling_references_block(TR_2004_15).splitlines() == [
        "ITAA 1936 6(1)",
        "ITAA 1936 6(1)(b)",
        "ITAA 1997 995-1(1)",
        "TAA 1953 Pt IVAAA",
    ]
    assert ruling_references_block(TD_2024_1).splitlines() == ["- FBTAA 1986 136(1)", "- ITAA 1997 995-1(1)"]
    assert ruling_references_block("All legislative references in this Ruling are to the ITAA 1997.") == ""


def test_each_line_is_its_section_and_subsection_label() -> None:
    assert _triples(ruling_references_block(TR_2004_15)) == [
        ("itaa1936", "6", "(1)"),  # "6(1)(b)" sits in the same section and subsection: one reference
        ("itaa1997", "995-1", "(1)"),
        ("taa1953", None, None),
    ]
    assert _triples(ruling_references_block(TD_2024_1)) == [("fbtaa1986", "136", "(1)"), ("itaa1997", "995-1", "(1)")]


def test_parts_divisions_and_subdivisions_have_no_section() -> None:
    block = "ITAA 1997 Div 40\nITAA 1997 Subdiv 328-C\nITAA 1997 Subdiv27-B\nITAA 1936 Pt III Div 3\nITAA 1997 8-1"
    assert _triples(block) == [("itaa1997", None, None), ("itaa1936", None, None), ("itaa1997", "8-1", None)]


def test_letters_in_a_section_number_are_upper_case_and_a_paragraph_is_no_label() -> None:
    assert _triples("ITAA 1936 82kzm\nITAA 1936 159GZZZQ(2)\nITAA 1936 26(d)") == [
        ("itaa1936", "82KZM", None),
        ("itaa1936", "159GZZZQ", "(2)"),
        ("itaa1936", "26", None),
    ]


def test_schedule_1_to_the_taa_1953_is_numbered_as_the_corpus_numbers_it() -> None:
    # MT 2012/3, in part.
    block = "TAA 1953\nTAA 1953 2(1)\nTAA 1953 Sch 1 250-10\nTAA 1953 Sch1 12-35(1)\nTAA 1953 Sch 1 Div 284"
    assert _triples(block) == [
        ("taa1953", None, None),
        ("taa1953", "2", "(1)"),
        ("taa1953", "sch1-250-10", None),
        ("taa1953", "sch1-12-35", "(1)"),
    ]


def test_the_gst_act_under_its_many_abbreviations() -> None:
    # GSTR 2001/6, GSTR 2003/3, GSTR 2009/2, GSTR 2000/25, PS LA 2005/24, TA 2004/1.
    block = (
        "ANTS(GST)A99 9-75(1)(a)\nANTS (GST) A99 9-5\nANTS (GST) Act 1999 7-1(1)\nANTS(GST)A 11-15(1)\n"
        "ANTS(GST) 1999 Div 33\nGST Act subsection 9-10\nANTS(GST)R99 40-5.09\nANTS(GSTT)A99 6(2)"
    )
    assert _triples(block) == [
        ("gst1999", "9-75", "(1)"),
        ("gst1999", "9-5", None),
        ("gst1999", "7-1", "(1)"),
        ("gst1999", "11-15", "(1)"),
        ("gst1999", None, None),
        ("gst1999", "9-10", None),
        (None, "40-5.09", None),  # the GST Regulations, which the corpus does not hold
        (None, "6", "(2)"),  # the GST Transition Act, likewise
    ]


def test_acts_the_corpus_does_not_hold_keep_their_name_and_no_slug() -> None:
    refs = parse_ruling_references("ITAA 1997 Subdiv 974-B\nBanking Act 1959\nCorporations Act 2001 722(1)")
    assert [(r.act_name, r.act, r.number, r.label, r.held) for r in refs] == [
        ("ITAA 1997", "itaa1997", None, None, True),
        ("Banking Act 1959", None, None, None, False),
        ("Corporations Act 2001", None, "722", "(1)", False),
    ]


def test_a_taxpayer_alert_names_the_act_once_above_its_provisions() -> None:
    # TA 2009/6, in part.
    block = (
        "A New Tax System (Wine Equalisation Tax) Act 1999\nSection 5-5, AD2d\nSubdivision 9-B\nSubsection 13-5(1)\n"
        "A New Tax System (Goods and Services Tax) Act 1999\nDivision 165\n"
        "Taxation Administration Act 1953\nSchedule 1 Div 290"
    )
    assert _triples(block) == [
        ("wet1999", None, None),
        ("wet1999", "5-5", None),
        ("wet1999", "13-5", "(1)"),
        ("gst1999", None, None),
        ("taa1953", None, None),
    ]
    # TA 2002/1: the Act after the provision.
    assert _triples("Section 8-1 of the ITAA 1997\nPt IVA of the ITAA 1936") == [
        ("itaa1997", "8-1", None),
        ("itaa1936", None, None),
    ]


def test_old_it_rulings_cite_the_itaa_1936_bare() -> None:
    # IT 134 names "ITAA"; IT 355 names no Act, and a treaty article is no Act.
    assert _triples("ITAA 23(jc)\nITAA 221A(1)") == [("itaa1936", "23", None), ("itaa1936", "221A", "(1)")]
    it_355 = "UK AGREEMENT - ARTICLE 5\n26(a)\n26AAA"
    assert _triples(it_355) == []
    assert _triples(it_355, assumed_act="ITAA 1936") == [("itaa1936", "26", None), ("itaa1936", "26AAA", None)]


@given(
    st.integers(1, 999),
    st.integers(1, 999),
    st.integers(1, 99),
    st.sampled_from(["", "A", "B", "AB"]),
    st.sampled_from(["ITAA 1997", "- ITAA 1997", "Income Tax Assessment Act 1997"]),
)
def test_a_generated_1997_reference_round_trips(division: int, section: int, sub: int, suffix: str, act: str) -> None:
    refs = parse_ruling_references(f"{act} {division}-{section}({sub}{suffix})(a)")
    assert [(r.act, r.number, r.label) for r in refs] == [("itaa1997", f"{division}-{section}", f"({sub}{suffix})")]


@given(st.text(max_size=300))
def test_any_text_parses_and_every_held_section_is_a_section_number(text: str) -> None:
    for ref in parse_ruling_references(ruling_references_block(text) or text, assumed_act="ITAA 1936"):
        assert ref.act_name
        if ref.act is not None and ref.number is not None:
            assert re.fullmatch(SECTION_NUMBER, ref.number.removeprefix("sch1-"))
