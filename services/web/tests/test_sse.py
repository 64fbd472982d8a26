from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_web.sse import SseEvent, SseParser, format_event

names = st.text(
    alphabet=st.characters(blacklist_characters="\r\n:", blacklist_categories=("Cs",)), min_size=1, max_size=12
)
payloads = st.dictionaries(st.text(max_size=8), st.one_of(st.integers(), st.text(max_size=30)), max_size=4)


def _split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts})
    pieces, last = [], 0
    for p in points:
        pieces.append(text[last:p])
        last = p
    pieces.append(text[last:])
    return pieces


@given(
    st.lists(st.tuples(names, payloads), max_size=5),
    st.lists(st.integers(min_value=0), max_size=8),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_events_survive_any_chunking_and_line_ending(
    events: list[tuple[str, dict[str, object]]], cuts: list[int], newline: str
) -> None:
    text = "".join(format_event(name.strip() or "x", data) for name, data in events).replace("\n", newline)
    parser = SseParser()
    got = [e for piece in _split(text, cuts) for e in parser.feed(piece)] + parser.close()
    assert [(e.event, json.loads(e.data)) for e in got] == [(name.strip() or "x", data) for name, data in events]


def test_fields_comments_and_multiline_data() -> None:
    parser = SseParser()
    got = parser.feed(': keep-alive\nevent: stage\ndata: {"a":\ndata: 1}\nid: 7\n\ndata: plain\n\nevent: empty\n\n')
    assert got == [SseEvent("stage", '{"a":\n1}'), SseEvent("message", "plain")]
    assert got[0].json() == {"a": 1}


def test_an_unfinished_event_is_dropped_at_the_end() -> None:
    parser = SseParser()
    assert parser.feed("event: result\ndata: {}\n") == []
    assert parser.close() == []


def test_bad_json_and_bad_names_say_what_was_wrong() -> None:
    with pytest.raises(ValueError, match="not JSON"):
        SseEvent("result", "{nope").json()
    with pytest.raises(ValueError, match="not an object"):
        SseEvent("result", "[1]").json()
    with pytest.raises(ValueError, match="one non-empty line"):
        format_event("a\nb", {})
