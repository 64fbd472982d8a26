"""Citation integrity: exact substring after normalisation, range in the original, length rule."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from asat_corpus.contracts.verification import QuoteFailure
from asat_corpus.normalise import normalise, normalise_text
from asat_verifier.integrity import check_quote, length_problem, match_quote

SOURCE = (
    "(1) You can deduct from your assessable income any loss or outgoing to the extent that:\n"
    "    (a) it is incurred in gaining or producing your assessable income; or\n"
    "    (b) it is necessarily incurred in carrying on a business\u00a0for the purpose of gaining "
    "or producing your assessable income.\n"
    "Note: Division 35 deals with deductions for non\u2011commercial business losses."
)


def test_verified_quote_reports_the_range_in_the_original() -> None:
    quote = "it is necessarily incurred in carrying on a business for the purpose"
    check = match_quote(quote, normalise_text(SOURCE))
    assert check.verified and check.reason is None
    assert check.start is not None and check.end is not None
    assert (
        SOURCE[check.start : check.end] == "it is necessarily incurred in carrying on a business\u00a0for the purpose"
    )


def test_quote_across_a_line_break_and_indent_verifies() -> None:
    check = match_quote("income; or (b) it is necessarily incurred", normalise_text(SOURCE))
    assert check.verified
    assert check.start is not None and check.end is not None
    assert SOURCE[check.start : check.end] == "income; or\n    (b) it is necessarily incurred"


def test_hyphen_variants_verify() -> None:
    assert match_quote("deductions for non-commercial business losses", normalise_text(SOURCE)).verified
    assert match_quote("deductions for non\u2010commercial business losses", normalise_text(SOURCE)).verified


def test_en_dash_is_not_a_hyphen() -> None:
    check = match_quote("deductions for non\u2013commercial business losses", normalise_text(SOURCE))
    assert check.reason is QuoteFailure.NOT_A_SUBSTRING


def test_case_matters() -> None:
    check = match_quote("You Can Deduct from your assessable income", normalise_text(SOURCE))
    assert check.reason is QuoteFailure.NOT_A_SUBSTRING


def test_length_rule() -> None:
    assert length_problem("a" * 30) is not None  # one word
    assert length_problem("one two three four") is not None  # 18 characters
    assert length_problem("one two three fourteen fifteen") is None
    check = match_quote("any loss or outgoing", normalise_text(SOURCE))
    assert check.reason is QuoteFailure.TOO_SHORT
    assert "at least 25 characters and 4 words" in check.message


def test_source_checks_come_first_in_order() -> None:
    sources = {"a": normalise_text(SOURCE), "b": normalise_text(SOURCE)}
    quote = "You can deduct from your assessable income any loss"
    assert check_quote(quote, "zz", sources.get, {"a", "b"}, {"a", "b"}).reason is QuoteFailure.UNKNOWN_SOURCE
    assert check_quote(quote, "b", sources.get, {"a"}, {"a", "b"}).reason is QuoteFailure.SOURCE_NOT_RETRIEVED
    assert check_quote(quote, "b", sources.get, {"a", "b"}, {"a"}).reason is QuoteFailure.SOURCE_NOT_CITED
    assert check_quote("short", "b", sources.get, {"a", "b"}, {"b"}).reason is QuoteFailure.TOO_SHORT
    assert check_quote(quote, "b", sources.get, {"a", "b"}, {"b"}).verified


# --- properties --------------------------------------------------------------------------------

_WORD = st.text(alphabet="abcdefhijklmnoprstuwy0123456789", min_size=1, max_size=9)
_PUNCT = st.sampled_from(["", ",", ".", ";", ":", "-", "(a)", "$", "%"])
_token = st.tuples(_WORD, _PUNCT).map("".join)
_source_text = st.lists(_token, min_size=8, max_size=60).map(" ".join)

_FULLWIDTH = {c: chr(ord(c) - 0x21 + 0xFF01) for c in "abcdefhijklmnoprstuwy0123456789,.;:(-$%"}
_LIGATURES = {"fi": "\ufb01", "ff": "\ufb00"}
_SPACES = st.sampled_from([" ", "  ", "\t", "\n", "\n    ", "\u00a0", "\u2003", "\u3000", " \u2009 "])
_HYPHENS = st.sampled_from(["-", "\u2010", "\u2011"])


@st.composite
def _perturbed(draw: st.DrawFn, text: str) -> str:
    """``text`` with an arbitrary mix of NFKC-equivalent, hyphen-variant and whitespace changes."""
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        pair = text[index : index + 2]
        if pair in _LIGATURES and draw(st.booleans()):
            out.append(_LIGATURES[pair])
            index += 2
            continue
        if char == " ":
            out.append(draw(_SPACES))
        elif char == "-":
            out.append(draw(_HYPHENS))
        elif char in _FULLWIDTH and draw(st.integers(0, 3)) == 0:
            out.append(_FULLWIDTH[char])
        else:
            out.append(char)
        index += 1
    return "".join(out)


@given(_source_text, st.data())
@settings(max_examples=200, deadline=None)
def test_every_valid_substring_verifies_after_equivalent_changes(source: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(source) - 1))
    end = data.draw(st.integers(start + 1, len(source)))
    span = source[start:end]
    assume(length_problem(normalise(span)) is None)
    quote = data.draw(_perturbed(span))
    held = data.draw(_perturbed(source))  # the source as held may use other variants too
    check = match_quote(quote, normalise_text(held))
    assert check.verified, check.message
    assert check.start is not None and check.end is not None
    assert normalise(quote) in normalise(held[check.start : check.end])


_ALIENS = "ABCDEFGHZQXgqvxz#@!?&*\u2013\u2014\u00e9"  # none of these is in (or NFKC-equal to) the sources


@given(_source_text, st.data())
@settings(max_examples=200, deadline=None)
def test_any_single_character_change_fails(source: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(source) - 1))
    end = data.draw(st.integers(start + 1, len(source)))
    span = normalise(source[start:end])
    assume(length_problem(span) is None)
    position = data.draw(st.sampled_from([i for i, c in enumerate(span) if not c.isspace()]))
    replacement = data.draw(st.sampled_from(_ALIENS))
    changed = span[:position] + replacement + span[position + 1 :]
    check = match_quote(changed, normalise_text(source))
    assert not check.verified
    assert check.reason is QuoteFailure.NOT_A_SUBSTRING


@given(_source_text, st.data())
@settings(max_examples=200, deadline=None)
def test_short_quotes_fail_with_too_short(source: str, data: st.DataObject) -> None:
    normalised = normalise(source)
    start = data.draw(st.integers(0, len(normalised) - 1))
    end = data.draw(st.integers(start + 1, min(len(normalised), start + 40)))
    quote = normalised[start:end]
    short = normalise(quote)
    assume(len(short) < 25 or len(short.split()) < 4)
    check = match_quote(quote, normalise_text(source))
    assert check.reason is QuoteFailure.TOO_SHORT
