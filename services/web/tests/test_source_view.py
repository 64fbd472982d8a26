from __future__ import annotations

import pytest

from asat_web.highlight import QuoteMismatch
from asat_web.source_view import adjacent_versions, quote_in_source, timeline_items, verified_quote

from .stub_research import QUOTE, SOURCES, START, TEXT_2015, V2015, V2026, audit_entry


def test_timeline_marks_the_current_version_and_keeps_gaps_in_order() -> None:
    items = timeline_items(SOURCES[V2026])
    assert [(i.kind, i.current) for i in items] == [("version", False), ("gap", False), ("version", True)]
    assert items[1].reason == "no compilation held"
    assert adjacent_versions(items) == (V2015, None)
    assert adjacent_versions(timeline_items(SOURCES[V2015])) == (None, V2026)
    assert adjacent_versions(timeline_items({"id": "x"})) == (None, None)


def test_only_a_quote_the_audit_row_verified_is_highlighted() -> None:
    entry = audit_entry()
    assert verified_quote(entry, V2015, START, START + len(QUOTE)) == QUOTE
    assert quote_in_source(TEXT_2015, entry, V2015, START, START + len(QUOTE)).quote == QUOTE
    with pytest.raises(QuoteMismatch, match="holds no verified quote"):
        quote_in_source(TEXT_2015, entry, V2015, 0, 3)
    with pytest.raises(QuoteMismatch, match="not the verified quote"):
        quote_in_source("x" * len(TEXT_2015), entry, V2015, START, START + len(QUOTE))
