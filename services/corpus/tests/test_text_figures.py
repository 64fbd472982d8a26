"""Figures in text: every way of writing an amount reads back as the same exact value."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_corpus.text.figures import FigureKind, read_figures
from asat_corpus.text.numbers import NUMBER_WORDS, number_text, parse_number


def _one(text: str) -> tuple[FigureKind, Decimal, str]:
    (figure,) = read_figures(text)
    return figure.kind, figure.amount, figure.unit


@pytest.mark.parametrize(
    ("text", "kind", "amount", "unit"),
    [
        ("$2.5b", FigureKind.MONEY, "2500000000", "dollar"),
        ("$2.5 billion", FigureKind.MONEY, "2500000000", "dollar"),
        ("$2.5bn", FigureKind.MONEY, "2500000000", "dollar"),
        ("10 million dollars", FigureKind.MONEY, "10000000", "dollar"),
        ("$10,000,000", FigureKind.MONEY, "10000000", "dollar"),
        ("$2m", FigureKind.MONEY, "2000000", "dollar"),
        ("$300k", FigureKind.MONEY, "300000", "dollar"),
        ("$20 thousand", FigureKind.MONEY, "20000", "dollar"),
        ("A$10m", FigureKind.MONEY, "10000000", "dollar"),
        ("AUD 300", FigureKind.MONEY, "300", "dollar"),
        ("$ 300", FigureKind.MONEY, "300", "dollar"),
        ("$0.50", FigureKind.MONEY, "0.5", "dollar"),
        ("2,000 dollars", FigureKind.MONEY, "2000", "dollar"),
        ("ten dollars", FigureKind.MONEY, "10", "dollar"),
        ("8.5%", FigureKind.PERCENT, "8.5", "percent"),
        ("8.5 per cent", FigureKind.PERCENT, "8.5", "percent"),
        ("8.5 percent", FigureKind.PERCENT, "8.5", "percent"),
        ("five per cent", FigureKind.PERCENT, "5", "percent"),
        # vulgar fractions as the compilations' conversion writes them (ITAA 1997 s 40-440, s 115-100)
        ("371/2%", FigureKind.PERCENT, "37.5", "percent"),
        ("183/4%", FigureKind.PERCENT, "18.75", "percent"),
        ("11/2 %", FigureKind.PERCENT, "1.5", "percent"),
        ("37 1/2 per cent", FigureKind.PERCENT, "37.5", "percent"),
        ("12 months", FigureKind.DURATION, "12", "month"),
        ("two years", FigureKind.DURATION, "2", "year"),
        ("one year", FigureKind.DURATION, "1", "year"),
        ("30 days", FigureKind.DURATION, "30", "day"),
        ("5 members", FigureKind.COUNT, "5", "member"),
        ("5,000", FigureKind.NUMBER, "5000", ""),
        ("27.5", FigureKind.NUMBER, "27.5", ""),
        ("10 million", FigureKind.NUMBER, "10000000", ""),
        ("twelve", FigureKind.NUMBER, "12", ""),
    ],
)
def test_reads_the_value(text: str, kind: FigureKind, amount: str, unit: str) -> None:
    assert _one(text) == (kind, Decimal(amount), unit)


def test_a_range_is_two_figures() -> None:
    figures = read_figures("$18,201 \u2013 $45,000")
    assert [(f.kind, f.amount, f.written) for f in figures] == [
        (FigureKind.MONEY, Decimal(18201), "$18,201"),
        (FigureKind.MONEY, Decimal(45000), "$45,000"),
    ]


def test_a_scale_letter_must_end_the_word() -> None:
    assert [f.written for f in read_figures("$300 may apply")] == ["$300"]
    assert [f.amount for f in read_figures("$5 members")] == [Decimal(5)]


def test_one_alone_is_not_a_number_and_bare_letters_are_not_scales() -> None:
    assert read_figures("one of the following") == ()
    assert [(f.kind, f.amount) for f in read_figures("10 m")] == [(FigureKind.NUMBER, Decimal(10))]


def test_numbers_inside_words_are_not_figures() -> None:
    assert read_figures("often, tenant, s8A, 3rd") == ()


def test_numerals_and_spans() -> None:
    text = "Turnover under $10 million, 25% and twelve months."
    figures = read_figures(text)
    assert [(f.numeral, text[f.start : f.end]) for f in figures] == [
        ("10", "$10 million"),
        ("25", "25%"),
        ("twelve", "twelve months"),
    ]


def test_number_text_and_parse_number() -> None:
    assert number_text(Decimal("2500000000.0")) == "2500000000"
    assert number_text(Decimal("2.50")) == "2.5"
    assert parse_number("2,000") == Decimal(2000)
    assert parse_number("Twelve") == Decimal(12)
    with pytest.raises(ValueError):
        parse_number("a lot")


# --- properties --------------------------------------------------------------------------

_CENTS = st.integers(min_value=0, max_value=10**12).map(lambda c: Decimal(c) / 100)
_WHOLE = st.integers(min_value=1, max_value=999)
_TENTHS = st.integers(min_value=1, max_value=9999).map(lambda t: Decimal(t) / 10)
_SCALED = [
    ("{n} thousand dollars", 1_000),
    ("${n} thousand", 1_000),
    ("${n}k", 1_000),
    ("${n} million", 1_000_000),
    ("${n}m", 1_000_000),
    ("${n} m", 1_000_000),
    ("{n} million dollars", 1_000_000),
    ("${n} billion", 1_000_000_000),
    ("${n}b", 1_000_000_000),
    ("${n}bn", 1_000_000_000),
    ("{n} billion dollars", 1_000_000_000),
]


def _money(text: str) -> Decimal:
    (figure,) = read_figures(text)
    assert figure.kind is FigureKind.MONEY
    return figure.amount


@given(_CENTS)
def test_money_with_or_without_separators_is_one_value(amount: Decimal) -> None:
    assert _money(f"${amount:,}") == _money(f"${amount}") == _money(f"{amount:,} dollars") == amount


@given(_TENTHS, st.sampled_from(_SCALED), st.booleans())
def test_a_scaled_amount_reads_as_the_amount_in_dollars(number: Decimal, form: tuple[str, int], upper: bool) -> None:
    template, scale = form
    text = template.format(n=number)
    assert _money(text.upper() if upper else text) == number * scale
    assert _money(f"${number * scale:,}") == number * scale


@given(_TENTHS, st.sampled_from(["{n}%", "{n} %", "{n} per cent", "{n} percent", "{n}per cent"]))
def test_percentages_in_any_form_are_one_value(number: Decimal, template: str) -> None:
    (figure,) = read_figures(template.format(n=number))
    assert (figure.kind, figure.amount) == (FigureKind.PERCENT, number)


@given(
    st.integers(min_value=0, max_value=999),
    st.sampled_from([("1/2", 1, 2), ("1/3", 1, 3), ("2/3", 2, 3), ("1/4", 1, 4), ("3/4", 3, 4)]),
    st.sampled_from(["{w}{f}%", "{w}{f} %", "{w} {f}%", "{w}{f} per cent"]),
)
def test_a_whole_number_with_a_vulgar_fraction_is_one_percentage(
    whole: int, fraction: tuple[str, int, int], template: str
) -> None:
    written, numerator, denominator = fraction
    (figure,) = read_figures("at " + template.format(w=whole, f=written) + " of the sum")
    assert figure.kind is FigureKind.PERCENT
    assert figure.amount == whole + Decimal(numerator) / denominator
    assert figure.written.startswith(str(whole)) and figure.numeral.endswith(written)


def test_a_third_is_a_third_however_it_is_written() -> None:
    (glued,) = read_figures("331/3%")
    (spaced,) = read_figures("33 1/3 per cent")
    assert glued.amount == spaced.amount and 33 < glued.amount < Decimal("33.34")


@given(
    st.one_of(_WHOLE.map(str), st.sampled_from(sorted(NUMBER_WORDS))),
    st.sampled_from(["day", "week", "month", "year"]),
    st.booleans(),
)
def test_durations_read_the_number_and_the_unit(number: str, unit: str, plural: bool) -> None:
    (figure,) = read_figures(f"within {number} {unit}{'s' if plural else ''} of")
    assert (figure.kind, figure.amount, figure.unit, figure.numeral) == (
        FigureKind.DURATION,
        parse_number(number),
        unit,
        number,
    )


@given(_CENTS, _CENTS, st.sampled_from([" \u2013 ", "\u2013", " - ", " to "]))
def test_each_end_of_a_range_is_read(low: Decimal, high: Decimal, dash: str) -> None:
    figures = read_figures(f"from ${low:,}{dash}${high:,}")
    assert [(f.kind, f.amount) for f in figures] == [(FigureKind.MONEY, low), (FigureKind.MONEY, high)]


@settings(max_examples=300)
@given(st.text(max_size=200))
def test_never_raises_and_spans_are_ordered_and_exact(text: str) -> None:
    figures = read_figures(text)
    end = 0
    for figure in figures:
        assert end <= figure.start < figure.end
        assert text[figure.start : figure.end] == figure.written == figure.written.strip()
        assert figure.numeral in figure.written
        assert figure.amount >= 0
        end = figure.end
