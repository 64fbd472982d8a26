"""Property tests: paragraph ranges found in generated ruling pages wrapped in chrome."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from asat_corpus.parse_report import ParseReport
from asat_corpus.parsers.ato_lines import join_fragments, should_join
from asat_corpus.parsers.ato_ruling import parse_ruling_text

CHROME = [
    "Legal database",
    "Legal database",
    "Contents",
    "Download",
    "Email",
    "Print",
    "Back to browse",
    "12 related documents",
    "Taxation Ruling",
    "TR 2021/7",
    "Income tax: a generated ruling",
    "Please note that the",
    "PDF version",
    "is the authorised consolidated version of this ruling and amending notices.",
]
FOOT = ["Commissioner of Taxation", "3 March 2021", "TR 2021/7 history", "Date:", "Version:", "3 March 2021"]

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=9)
_SENTENCE = st.builds(
    lambda first, rest: " ".join([first.capitalize(), *rest]) + ".",
    _WORD,
    st.lists(_WORD, min_size=2, max_size=12),
)
_PARAGRAPH = st.lists(_SENTENCE, min_size=1, max_size=3).map(" ".join)
_HEADING = st.one_of(st.none(), st.builds(lambda w: f"Heading {w}", _WORD))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_PARAGRAPH, _HEADING, st.booleans()), min_size=1, max_size=12))
def test_paragraph_ranges_are_ordered_disjoint_and_start_with_content(
    paragraphs: list[tuple[str, str | None, bool]],
) -> None:
    body: list[str] = []
    for number, (content, heading, split) in enumerate(paragraphs, start=1):
        if heading:
            body.append(heading)
        if split:  # the HTML conversion put an inline element on a line of its own
            head, _, tail = content.partition(" ")
            body.extend([f"{number}. {head} the", "Act", tail] if tail else [f"{number}. {head}"])
        else:
            body.append(f"{number}. {content}")
    text = "\n".join([*CHROME, *body, *FOOT])
    ruling = parse_ruling_text(text, "rulings/TR/TR_2021_7.txt", None, ParseReport("rulings"))

    assert [p.number for p in ruling.paragraphs] == [str(n) for n in range(1, len(paragraphs) + 1)]
    previous_end = 0
    for found, (content, _heading, split) in zip(ruling.paragraphs, paragraphs, strict=True):
        assert previous_end <= found.start < found.end <= len(ruling.text)
        previous_end = found.end
        expected = content.partition(" ")[0] if split else content
        assert ruling.text[found.start : found.end].startswith(expected)
        assert "Commissioner of Taxation" not in ruling.text[found.start : found.end]
        assert "Heading" not in ruling.text[found.start : found.end]
    assert "Back to browse" not in ruling.text and "Please note" not in ruling.text
    assert ruling.issue_date is not None and ruling.issue_date.isoformat() == "2021-03-03"


@given(st.lists(st.sampled_from(["1. Text here.", "(a) the item", "Heading", "", "[3]", "of the"])))
def test_join_never_loses_or_invents_words(lines: list[str]) -> None:
    joined = join_fragments(lines)
    assert "".join("".join(joined).split()) == "".join("".join(lines).split())
    assert all(line for line in joined)


def test_join_rules() -> None:
    assert should_join("deductions under section 8-1 of the", "Income Tax Assessment Act 1997", False)
    assert should_join("a work expense", "[1]", False)
    assert should_join("Taxation Ruling TR 2006/10", ").", False)
    assert not should_join("Summary - what this Ruling is about", "1. This Ruling sets out", False)
    assert not should_join("the end of a sentence.", "Commissioner of Taxation", True)
    assert not should_join("Ruling", "Another heading", False)
