from __future__ import annotations

import pytest

from asat_web.outcome import parse_outcome
from asat_web.sources_rail import number_sources

from .stub_research import V2026, citation, outcome


def test_numbers_continue_from_first_and_a_repeated_quote_keeps_its_number() -> None:
    body = outcome()
    other = citation(V2026, quote="(1)", start=0)
    body["claims"].append(
        {"id": "c2", "text": "Also.", "citations": [body["claims"][0]["citations"][0], other], "groundedness": 1.0}
    )
    numbered = number_sources(parse_outcome(body), first=4)
    assert [e.number for e in numbered.entries] == [4, 5]
    assert numbered.claim_numbers == ((4,), (4, 5))
    assert numbered.next_number == 6


def test_an_abstention_numbers_its_reading_list_quotes() -> None:
    numbered = number_sources(parse_outcome(outcome(answered=False)))
    assert numbered.claim_numbers == () and [e.number for e in numbered.entries] == [1]
    with pytest.raises(ValueError, match="start at 1"):
        number_sources(parse_outcome(outcome()), first=0)
