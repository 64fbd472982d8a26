"""The question's words marked in a quote (``asat_web.question_marks``): only wrapped, never changed."""

from __future__ import annotations

import html
import re

from hypothesis import given
from hypothesis import strategies as st

from asat_web.question_marks import mark_words, question_words


def unmark(marked: str) -> str:
    """The text back from the marked HTML: the marks stripped, the escapes undone."""
    return html.unescape(marked.replace("<mark>", "").replace("</mark>", ""))


def marked_words(marked: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<mark>(.*?)</mark>", marked)]


def test_the_question_words_leave_out_stopwords_and_single_characters() -> None:
    words = question_words("What aggregated Turnover made a business a small business entity under s 328-110?")
    assert words == {"aggregated", "turnover", "made", "business", "small", "entity", "328", "110"}
    assert question_words("Is it a claim for my client? May it not?") == frozenset()


def test_words_are_marked_in_any_case_as_whole_words_only() -> None:
    words = question_words("small business turnover")
    marked = mark_words("Small businesses: a SMALL business's turnover (smallish).", words)
    assert (
        marked
        == "<mark>Small</mark> businesses: a <mark>SMALL</mark> <mark>business</mark>&#39;s <mark>turnover</mark> (smallish)."
    )


def test_html_in_a_quote_is_escaped_and_nothing_marked_without_words() -> None:
    assert mark_words("<b>turnover</b> & more", frozenset()) == "&lt;b&gt;turnover&lt;/b&gt; &amp; more"
    marked = mark_words('<script>alert("turnover")</script>', frozenset({"turnover", "script"}))
    assert marked == "&lt;<mark>script</mark>&gt;alert(&#34;<mark>turnover</mark>&#34;)&lt;/<mark>script</mark>&gt;"


def test_a_longer_word_is_preferred_to_a_shorter_one_it_begins_with() -> None:
    assert mark_words("small smaller", frozenset({"small", "smaller"})) == "<mark>small</mark> <mark>smaller</mark>"


QUOTES = st.text(alphabet=st.sampled_from("abAB <>&\"'()$1é\n"), max_size=80) | st.text(max_size=80)
QUESTIONS = st.text(alphabet=st.sampled_from("abAB <>&1é?"), max_size=40) | st.text(max_size=40)


@given(QUOTES, QUESTIONS)
def test_stripping_the_marks_gives_back_the_quote_exactly(quote: str, question: str) -> None:
    assert unmark(str(mark_words(quote, question_words(question)))) == quote


@given(QUOTES, QUESTIONS)
def test_html_in_the_quote_is_escaped_only_marks_are_tags(quote: str, question: str) -> None:
    marked = str(mark_words(quote, question_words(question)))
    bare = marked.replace("<mark>", "").replace("</mark>", "")
    assert "<" not in bare and ">" not in bare and '"' not in bare and "'" not in bare
    assert not re.search(r"&(?!amp;|lt;|gt;|#34;|#39;)", bare)


@given(
    st.text(alphabet=st.sampled_from("abAB .,-"), max_size=60), st.text(alphabet=st.sampled_from("abAB ?"), max_size=30)
)
def test_every_mark_is_a_question_word_standing_alone(quote: str, question: str) -> None:
    words = question_words(question)
    marked = str(mark_words(quote, words))
    assert all(w.lower() in words for w in marked_words(marked))
    # Each whole word of the quote that is a question word is marked, and no other.
    expected = [w for w in re.findall(r"\w+", quote) if w.lower() in words]
    assert marked_words(marked) == expected
