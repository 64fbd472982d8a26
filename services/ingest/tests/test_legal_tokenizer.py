"""The legal-aware tokenizer: each token class, and properties that hold for any text."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_ingest.legal_tokenizer import legal_tokenize, stem

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8-1", ["8-1"]),
        ("328-110", ["328-110"]),
        ("109D", ["109d"]),
        ("82KZM", ["82kzm"]),
        ("sch1-12-35", ["sch1-12-35"]),
        ("Sch 1-12-35", ["sch1-12-35"]),
        ("26-55(1)(a)", ["26-55"]),
    ],
)
def test_provision_numbers_stay_whole(text: str, expected: list[str]) -> None:
    assert legal_tokenize(text) == expected


@pytest.mark.parametrize(
    "text",
    ["s 26-55", "section 26-55", "s26-55", "s. 26-55", "ss 26-55", "subsection 26-55(1)", "Section 26-55"],
)
def test_section_references_give_the_number_and_a_marker(text: str) -> None:
    assert legal_tokenize(text) == ["26-55", "sec:26-55"]


def test_paragraph_reference_drops_the_labels() -> None:
    assert legal_tokenize("paragraph 8-1(1)(a)") == ["8-1", "sec:8-1"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Div 7A", ["7a", "div:7a"]),
        ("Division 7A", ["7a", "div:7a"]),
        ("Subdiv 328-C", ["328-c", "subdiv:328-c"]),
        ("Subdivision 328-C", ["328-c", "subdiv:328-c"]),
        ("Part IVA", ["iva", "part:iva"]),
        ("Part 3-1", ["3-1", "part:3-1"]),
        ("Schedule 1", ["1", "sched:1"]),
    ],
)
def test_division_subdivision_part_and_schedule_references(text: str, expected: list[str]) -> None:
    assert legal_tokenize(text) == expected


def test_a_possessive_s_is_not_a_section_reference() -> None:
    assert legal_tokenize("the employee's 2020 income") == ["employee", "2020", "income"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$10 million", "money:10000000"),
        ("$10,000,000", "money:10000000"),
        ("$2,000,000", "money:2000000"),
        ("$300", "money:300"),
        ("$2.50", "money:2.5"),
        ("$1.5m", "money:1500000"),
        ("$20 thousand", "money:20000"),
        ("$ 300", "money:300"),
    ],
)
def test_money_is_normalised_to_dollars(text: str, expected: str) -> None:
    assert legal_tokenize(text) == [expected]


def test_money_scale_needs_a_word_boundary() -> None:
    assert legal_tokenize("$300 may") == ["money:300", "may"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("30%", "pct:30"),
        ("30 per cent", "pct:30"),
        ("30 percent", "pct:30"),
        ("27.5%", "pct:27.5"),
        ("371/2%", "pct:37.5"),  # 37½% as the compilations' text conversion writes it (ITAA 1997 s 40-440)
        ("37.5%", "pct:37.5"),
    ],
)
def test_percentages(text: str, expected: str) -> None:
    assert legal_tokenize(text) == [expected]


def test_asterisked_defined_terms() -> None:
    assert legal_tokenize("*business") == ["business", "defterm:business"]
    assert legal_tokenize("carrying on a *business") == ["carrying", "business", "defterm:business"]
    assert legal_tokenize("*non-assessable") == ["non", "assessable", "defterm:non-assessable"]


def test_words_are_lowercased_stemmed_and_stopwords_dropped() -> None:
    assert legal_tokenize("The Deductions of the Companies") == ["deduction", "company"]
    assert legal_tokenize("not deductible") == ["not", "deductible"]


def test_paragraph_labels_and_single_letters_are_dropped() -> None:
    assert legal_tokenize("(a) first; (b) second; (ii) third") == ["first", "second", "third"]


def test_numbers_lose_thousands_separators() -> None:
    assert legal_tokenize("2,000 companies and 3.50 units") == ["2000", "company", "3.5", "unit"]


def test_unicode_hyphens_are_normalised() -> None:
    assert legal_tokenize("section 8\u20111") == ["8-1", "sec:8-1"]


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("deductions", "deduction"),
        ("entities", "entity"),
        ("classes", "class"),
        ("business", "business"),
        ("status", "status"),
        ("basis", "basis"),
        ("taxpayer's", "taxpayer"),
        ("days", "days"),
    ],
)
def test_stem(word: str, expected: str) -> None:
    assert stem(word) == expected


def test_a_real_provision() -> None:
    text = (FIXTURES / "itaa1997_s8-1.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    tokens = legal_tokenize(text)
    assert tokens[:3] == ["8-1", "general", "deduction"]
    assert "defterm:business" in tokens
    assert "div:35" in tokens and "sec:12-5" in tokens
    assert "defterm:non-assessable" in tokens


@pytest.mark.corpus
def test_a_slice_of_the_register_text_tokenizes() -> None:
    corpus = Path(os.environ.get("ASAT_CORPUS_DIR", Path(__file__).parents[3] / ".." / "shared" / "corpus"))
    path = corpus / "legislation" / "itaa1997" / "C2026C00122" / "vol01.txt"
    if not path.exists():
        pytest.skip(f"corpus file {path} not found; set ASAT_CORPUS_DIR")
    with path.open(encoding="utf-8") as handle:
        lines = [next(handle) for _ in range(2400)][2100:]
    tokens = legal_tokenize("".join(lines))
    assert {"8-1", "8-5", "sec:995-1", "defterm:business", "subdiv:20-a"} <= set(tokens)


# --- properties --------------------------------------------------------------------------

_PROVISION = st.builds(
    lambda n, letters, tail: f"{n}{letters}{tail}",
    st.integers(min_value=1, max_value=999),
    st.sampled_from(["", "A", "B", "D", "AA", "KZM"]),
    st.sampled_from(["", "-1", "-5", "-110", "-55", "-25A"]),
).filter(lambda p: not p.isdigit())
_FILLER = st.lists(
    st.sampled_from(["income", "tax", "you", "can", "deduct", "the", "loss", "or", "outgoing", "under", "see"]),
    max_size=6,
).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_never_crashes_and_is_deterministic(text: str) -> None:
    tokens = legal_tokenize(text)
    assert tokens == legal_tokenize(text)
    assert all(token and " " not in token and token == token.lower() for token in tokens)


@settings(max_examples=200, deadline=None)
@given(_FILLER, _PROVISION, _FILLER, st.sampled_from(["", "section ", "s ", "s", "ss ", "subsection "]))
def test_provision_numbers_are_preserved(before: str, number: str, after: str, keyword: str) -> None:
    tokens = legal_tokenize(f"{before} {keyword}{number}(1) {after}")
    assert number.lower() in tokens
    if keyword:
        assert f"sec:{number.lower()}" in tokens


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=10**12))
def test_money_with_and_without_separators_agree(amount: int) -> None:
    assert legal_tokenize(f"${amount:,}") == legal_tokenize(f"${amount}") == [f"money:{amount}"]
