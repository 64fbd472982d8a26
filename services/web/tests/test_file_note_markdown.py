"""The file note as Markdown: every verbatim text comes back byte for byte from the source."""

from __future__ import annotations

import string
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from asat_web.file_note import build_file_note
from asat_web.file_note_markdown import blockquote, recover_blockquotes, render_markdown
from asat_web.labels import NOT_AUTHORISED

from .file_note_samples import GENERATED, entry_and_outcome, note_quoting, outcome_body
from .stub_research import ATTRIBUTION

# Letters, digits, punctuation (Markdown's * _ # > ` [ ] included), spaces, line breaks and some
# non-ASCII: what a quote of a provision can hold.
QUOTE_CHARS = (
    string.ascii_letters
    + string.digits
    + string.punctuation
    + "  \n\t\u00a0\u2019\u2014\u2013\u2264\u00a7\u201c\u201d\u00e9\u00bd\u2026"
)


def test_the_answer_note_has_every_part_and_every_quote_verbatim() -> None:
    entry, outcome = entry_and_outcome(outcome_body())
    note = build_file_note(entry, outcome, GENERATED)
    markdown = render_markdown(note)
    assert recover_blockquotes(markdown) == [note.question, *(q.text for q in note.quotes)]
    assert markdown.startswith("# AsAt file note: audit row 42\n") and markdown.endswith("\n")
    for part in (
        "## Question",
        "Income year 2015, 1 July 2014 to 30 June 2015; read from the question (\u201cFY2015\u201d)",
        "## Decision\n\nAnswer\n",
        "### Claim 1\n\nA business with turnover under $2 million was a small business entity.",
        "Quoted from ITAA 1997 s 328-110 Meaning of small business entity (Act itaa1997; section 328-110; register "
        "C2015C00285; in force from 2014-07-01 to 2016-06-30; authorised version)",
        NOT_AUTHORISED,
        "## Caveats\n\n- The text quoted was in force for the whole income year.",
        "Read s 328-115 for how aggregated turnover is worked out.",
        f"- Audit row: 42\n- Recorded: 2026-04-01T10:00:00+00:00\n- Request: req-7f3a\n- Hash: {entry.hash}\n"
        f"- Previous hash: {entry.prev_hash}\n- Corpus generation: {outcome.corpus_generation}\n",
        "- Generated: 2026-04-02T09:15:00+00:00",
        ATTRIBUTION,
        "1 further claim failed verification and is not shown.",
    ):
        assert part in markdown, part
    assert "## Reading list" not in markdown


def test_the_abstention_note_has_its_reasons_and_reading_list_with_quotes() -> None:
    note = build_file_note(*entry_and_outcome(outcome_body(answered=False)), GENERATED)
    markdown = render_markdown(note)
    assert "## Decision\n\nNo answer: the corpus does not appear to address this question (abstain_low_relevance)" in (
        markdown
    )
    assert "## Why there is no answer\n\n- the best passage scored 0.120 on the cosine scale" in markdown
    assert "## Reading list\n\n### ITAA 1997 s 328-110 Meaning of small business entity\n\nRegister C2015C00285" in (
        markdown
    )
    assert recover_blockquotes(markdown) == [note.question, *(q.text for q in note.quotes)]
    assert "## Claims" not in markdown


def test_a_quote_is_kept_as_it_stands_nothing_escaped() -> None:
    quote = "(1) *aggregated turnover* is _defined_\n# not a heading\n\n> nested?\n  two spaces   \n`code` [x](y) \\"
    markdown = render_markdown(note_quoting(quote))
    assert (
        "> (1) *aggregated turnover* is _defined_\n> # not a heading\n>\n> > nested?\n>   two spaces   \n"
        "> `code` [x](y) \\\n\n"
    ) in markdown
    assert recover_blockquotes(markdown)[1:] == [quote]


def test_the_notes_own_text_never_reads_as_a_blockquote() -> None:
    body = outcome_body(answered=False, reasons=["x"], note="", claims=[])
    note = build_file_note(*entry_and_outcome(body), GENERATED)
    markdown = render_markdown(replace(note, reasons=("> not a quote",), attribution="> nor this"))
    assert "- > not a quote" in markdown and "\\> nor this" in markdown
    assert len(recover_blockquotes(markdown)) == 4  # the question and the three quotes only


def test_a_question_is_verbatim_too() -> None:
    question = "What is *the* threshold?\n  (FY2015) > $2m"
    markdown = render_markdown(note_quoting("x", question=question))
    assert recover_blockquotes(markdown) == [question, "x"]


@given(st.lists(st.text(alphabet=QUOTE_CHARS, min_size=1, max_size=300), min_size=1, max_size=4))
@settings(max_examples=150, deadline=None)
def test_every_quote_comes_back_exactly_from_the_markdown(quotes: list[str]) -> None:
    note = note_quoting(*quotes)
    assert recover_blockquotes(render_markdown(note)) == [note.question, *quotes]


@given(st.text(alphabet=QUOTE_CHARS, max_size=200))
def test_blockquote_round_trips(text: str) -> None:
    assert recover_blockquotes("\n".join(blockquote(text))) == [text]
