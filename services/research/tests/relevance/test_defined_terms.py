from __future__ import annotations

from asat_research.relevance.defined_terms import dictionary_entries, terms_in, terms_index

# Entries as ITAA 1997 s 995-1 prints them (C2026C00122), one a line.
DICTIONARY = """aggregated turnover has the meaning given by section 328-115.
small business entity has the meaning given by section 328-110.
accumulated SSL debt has the meaning given by section 1061ZVEC of the Social Security Act 1991.
entity has the meaning given by section 960-100.
acquire:
(a) a *CGT asset: you acquire a CGT asset in the circumstances worked out under Division 109"""


def test_entries_pointing_at_a_section_of_the_same_act_are_read() -> None:
    entries = dictionary_entries("itaa1997", DICTIONARY)
    assert [(e.term, e.number) for e in entries] == [
        ("aggregated turnover", "328-115"),
        ("small business entity", "328-110"),
        ("entity", "960-100"),
    ]


def test_a_question_finds_the_sections_defining_its_terms_but_not_short_common_words() -> None:
    index = terms_index(dictionary_entries("itaa1997", DICTIONARY))
    found = terms_in("What aggregated turnover makes my client a small business entity?", index)
    assert found == {("itaa1997", "328-115"), ("itaa1997", "328-110")}
    assert terms_in("Is this entity taxed?", index) == set()
