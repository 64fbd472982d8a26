"""The file note as PDF: pypdf's extracted text gives back every verified quote byte for byte.

The scheme (``asat_web.pdf_text``): each drawn line of a verbatim text (the question and every
quote) is one string, ``MARK + " " + piece``; ``┌`` starts a text, ``├`` starts a line of it
that follows a ``\\n`` in the text, ``│`` continues the line above where it was wrapped.
``recover_verbatim`` joins the pieces back (nothing between wrapped pieces, ``\\n`` before a new
line), so the comparison below is exact: no whitespace is normalised.
"""

from __future__ import annotations

import re
import string
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_web import pdf_text
from asat_web.file_note import build_file_note
from asat_web.file_note_pdf import render_pdf
from asat_web.labels import NOT_AUTHORISED
from asat_web.pdf_text import MORE, NEWLINE, OPEN, FontMissing, UnprintableText, recover_verbatim, verbatim_lines, wrap

from .file_note_samples import GENERATED, entry_and_outcome, note_quoting, outcome_body
from .pdf_pages import extracted_text, page_texts, save_first_page_png
from .stub_research import ATTRIBUTION

# Letters, digits, punctuation, spaces, line breaks, a tab, a no-break space and the non-Latin-1
# characters of Australian legislation.
QUOTE_CHARS = (
    string.ascii_letters
    + string.digits
    + string.punctuation
    + "    \n\t\u00a0\u2019\u2018\u201c\u201d\u2014\u2013\u2264\u2265\u00a7\u00b6\u00e9\u00bd\u2026\u00d7\u20ac"
)


def _flat(text: str) -> str:
    """The note's own (wrapped) text with its line breaks as spaces, to look for a phrase in."""
    return " ".join(text.split())


def test_every_quote_and_the_question_come_back_byte_for_byte() -> None:
    entry, outcome = entry_and_outcome(outcome_body())
    note = build_file_note(entry, outcome, GENERATED)
    text = extracted_text(render_pdf(note))
    assert recover_verbatim(text) == [note.question, *(q.text for q in note.quotes)]
    for quote in note.quotes:  # the quotes hold their own line breaks, *, _, #, (1), ’ — ≤ §
        assert quote.text in recover_verbatim(text)
    flat = _flat(text)
    for part in (
        f"Hash {entry.hash}",
        f"Previous hash {entry.prev_hash}",
        "Audit row 42",
        f"Corpus generation {outcome.corpus_generation}",
        "Income year 2015, 1 July 2014 to 30 June 2015; read from the question (\u201cFY2015\u201d)",
        "Decision Answer",
        "1. A business with turnover under $2 million was a small business entity.",
        "ITAA 1997 s 328-110 Meaning of small business entity",
        "register C2015C00285; in force from 2014-07-01 to 2016-06-30; authorised version",
        NOT_AUTHORISED,
        "Caveats \u2022 The text quoted was in force for the whole income year.",
        "1 further claim failed verification and is not shown. Caveats",
        "Generated 2026-04-02T09:15:00+00:00",
        ATTRIBUTION,
    ):
        assert part in flat, part


def test_an_abstention_shows_its_reasons_and_reading_list_quotes() -> None:
    note = build_file_note(*entry_and_outcome(outcome_body(answered=False)), GENERATED)
    text = extracted_text(render_pdf(note))
    flat = _flat(text)
    assert "No answer: the corpus does not appear to address this question (abstain_low_relevance)" in flat
    assert (
        "Why there is no answer \u2022 the best passage scored 0.120 on the cosine scale, below the threshold of 0.300"
    ) in flat
    assert "Reading list" in flat and "Claims" not in flat
    assert recover_verbatim(text) == [note.question, *(q.text for q in note.quotes)]


def test_every_page_has_the_title_the_audit_row_and_its_number() -> None:
    long_quote = " ".join(f"({n}) a long provision line about aggregated turnover" for n in range(1, 200))
    note = note_quoting(long_quote, "second\nquote", long_quote[:3000])
    pages = page_texts(render_pdf(note))
    assert len(pages) >= 3
    for number, page in enumerate(pages, start=1):
        assert "AsAt file note" in page and "Audit row 42" in page
        assert f"Page {number} of {len(pages)}" in page
    assert recover_verbatim("\n".join(pages))[1:] == [long_quote, "second\nquote", long_quote[:3000]]


def test_hard_cases_come_back_exactly() -> None:
    quotes = [
        "x" * 400,  # one word wider than a line: cut between characters
        "ends with a space \nand then a line break",  # a break after a space is not a wrap
        "\n\nblank lines\n\n",
        "   leading and trailing spaces   ",
        "tab\there, no-break\u00a0space, \u2019 \u2014 \u2264 \u00a7 \u00b6 \u20ac",
        f"{OPEN} {NEWLINE} {MORE} marks inside a quote are text",
        "a" * 30 + " " * 300 + "b",  # a run of spaces wider than a line
        "e\u0301" * 200,  # combining marks are not cut from their letter
    ]
    note = note_quoting(*quotes)
    assert recover_verbatim(extracted_text(render_pdf(note)))[1:] == quotes


@given(st.lists(st.text(alphabet=QUOTE_CHARS, min_size=1, max_size=400), min_size=1, max_size=3))
@settings(max_examples=40, deadline=None)
def test_random_quotes_come_back_exactly(quotes: list[str]) -> None:
    note = note_quoting(*quotes)
    assert recover_verbatim(extracted_text(render_pdf(note))) == [note.question, *quotes]


@given(st.text(alphabet=QUOTE_CHARS, max_size=500), st.floats(min_value=20.0, max_value=400.0))
def test_the_pieces_of_a_wrapped_text_join_back_to_it(text: str, limit: float) -> None:
    advance = pdf_text.measure(pdf_text.fonts().regular, 10.0)
    for line in text.split("\n"):
        pieces = wrap(line, limit, advance)
        assert "".join(pieces) == line
        assert all(pieces) if line else pieces == [""]
    assert recover_verbatim("\n".join(verbatim_lines(text, limit, advance))) == [text]


def test_a_character_the_pdf_would_change_is_refused_naming_it() -> None:
    for quote, named in (("smile \U0001f600", "U+1F600"), ("\u05e9\u05dc\u05d5\u05dd", "U+05E9"), ("\u4e2d", "U+4E2D")):
        with pytest.raises(UnprintableText, match=re.escape(named)) as refused:
            render_pdf(note_quoting(quote))
        assert "Markdown file note" in str(refused.value)


def test_the_font_is_found_by_path_or_named_with_its_package(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf_text.fonts.cache_clear()
    monkeypatch.setitem(pdf_text.FONT_PATHS, "regular", Path("/nonexistent/DejaVuSans.ttf"))
    try:
        with pytest.raises(FontMissing, match="fonts-dejavu-core"):
            pdf_text.fonts()
    finally:
        pdf_text.fonts.cache_clear()


def test_one_note_is_always_the_same_pdf_dated_when_it_was_generated() -> None:
    note = build_file_note(*entry_and_outcome(outcome_body()), GENERATED)
    first = render_pdf(note)
    assert first == render_pdf(note) and first.startswith(b"%PDF-")
    assert b"/CreationDate (D:20260402091500+00'00')" in first
    assert render_pdf(replace(note, question="another question")) != first


def test_the_first_page_renders(tmp_path: Path) -> None:
    """(The docs' picture of it is taken by the browser test, from a note downloaded over the real
    stack: tests/browser/test_file_note.py.)"""
    note = build_file_note(*entry_and_outcome(outcome_body()), GENERATED)
    shot = save_first_page_png(render_pdf(note), tmp_path / "first-page.png")
    assert shot.stat().st_size > 10_000


def test_the_notes_own_text_never_reads_as_verbatim_text() -> None:
    note = note_quoting("the quote", answered=False)
    odd = replace(note, attribution=f"{OPEN} an attribution that starts with a mark", period=f"{NEWLINE} a period")
    text = extracted_text(render_pdf(odd))
    assert recover_verbatim(text) == [note.question, "the quote"]
    assert f"\u200b{OPEN} an attribution that starts with a mark" in text  # a zero-width space before it
