"""A request's own key taken out of texts (``key_scrub``): property tests, and the words a short
key must leave alone (schemathesis found "skipped" turned into "sk[the API key]pped")."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from asat_research.key_scrub import KEY_SHOWN_AS, without_key

# Keys as providers issue them (letters, digits and a few marks); the separators are what a message
# puts around a quoted key.
KEYS = st.text(alphabet=st.sampled_from("abcXYZ0189_-.~+/"), min_size=1, max_size=40)
SEPARATORS = st.sampled_from([" ", ": ", "'", '"', "=", "\n", "(", ")"])


@given(KEYS, SEPARATORS, SEPARATORS, st.text(max_size=40), st.text(max_size=40))
def test_a_key_quoted_in_a_text_is_always_replaced(key: str, before: str, after: str, head: str, tail: str) -> None:
    text = f"{head}{before}{key}{after}{tail}"
    scrubbed = without_key(text, key)
    assert f"{before}{KEY_SHOWN_AS}{after}" in scrubbed


@given(st.text(max_size=80))
def test_without_a_key_the_text_is_unchanged(text: str) -> None:
    assert without_key(text, "") == text


def test_a_short_key_leaves_the_words_around_it_alone() -> None:
    assert without_key("skipped", "i") == "skipped"
    assert without_key("the check failed", "fail") == "the check failed"
    assert (
        without_key("Incorrect API key provided: sk-abc123.", "sk-abc123")
        == f"Incorrect API key provided: {KEY_SHOWN_AS}."
    )
    assert (
        without_key("https://x.example/v1?key=sk-abc123&y=1", "sk-abc123")
        == f"https://x.example/v1?key={KEY_SHOWN_AS}&y=1"
    )
