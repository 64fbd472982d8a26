from __future__ import annotations

import pytest

from asat_web.highlight import QuoteMismatch
from asat_web.source_view import adjacent_versions, quote_in_source, timeline_items, verified_quote

from .stub_research import (
    CANDIDATES,
    QUOTE,
    RETRO_ACT,
    RETRO_ASSENT,
    SOURCES,
    START,
    TEXT_2015,
    V2015,
    V2026,
    audit_entry,
)


def test_timeline_marks_the_current_version_and_keeps_gaps_in_order() -> None:
    items = timeline_items(SOURCES[V2026])
    assert [(i.kind, i.current) for i in items] == [
        ("gap", False),
        ("version", False),
        ("gap", False),
        ("retrospective", False),
        ("version", True),
    ]
    assert items[0].reason == "no compilation held"
    assert adjacent_versions(items) == (V2015, None)
    assert adjacent_versions(timeline_items(SOURCES[V2015])) == (None, V2026)
    assert adjacent_versions(timeline_items({"id": "x"})) == (None, None)


def test_timeline_items_carry_both_axes_the_uncertain_stretch_and_the_retrospective_act() -> None:
    not_held, first, uncertain, retro, _ = timeline_items(SOURCES[V2015])
    assert first.valid_bounds is not None and first.known_bounds is not None
    end = first.valid_bounds[1]
    assert (end.day, end.widest, end.uncertain, end.candidates, end.acts) == (
        "2016-07-01",
        "2017-07-01",
        True,
        tuple(CANDIDATES),
        (RETRO_ACT,),
    )
    assert not first.valid_bounds[0].uncertain
    assert (first.known_from, first.known_to, first.compilation_dates) == ("2015-06-22", RETRO_ASSENT, ("2015-06-22",))
    assert first.known_bounds[1].widest == "2017-07-01"
    assert (not_held.held, uncertain.held, uncertain.candidates) == ("not_held", "one_of_two", tuple(CANDIDATES))
    assert (retro.acts, retro.assent, retro.commencement) == ((RETRO_ACT,), RETRO_ASSENT, "2016-07-01")


def test_a_timeline_from_an_older_research_has_the_old_fields_only() -> None:
    old = {
        "id": "v",
        "timeline": [
            {"type": "version", "id": "v", "valid_from": "2014-07-01", "valid_to": None, "register_ids": ["C1"]},
            {"type": "gap", "valid_from": "2010-07-01", "valid_to": "2014-07-01", "acts": [], "reason": "r"},
        ],
    }
    gap, version = timeline_items(old)
    assert gap.held == "not_held" and gap.candidates == () and gap.valid_bounds is None
    assert version.current and version.valid_bounds is None and version.known_from is None and version.held == ""


def test_only_a_quote_the_audit_row_verified_is_highlighted() -> None:
    entry = audit_entry()
    assert verified_quote(entry, V2015, START, START + len(QUOTE)) == QUOTE
    assert quote_in_source(TEXT_2015, entry, V2015, START, START + len(QUOTE)).quote == QUOTE
    with pytest.raises(QuoteMismatch, match="holds no verified quote"):
        quote_in_source(TEXT_2015, entry, V2015, 0, 3)
    with pytest.raises(QuoteMismatch, match="not the verified quote"):
        quote_in_source("x" * len(TEXT_2015), entry, V2015, START, START + len(QUOTE))
