"""parse_commencement: dates from Endnote 3 Commencement cells, and when not to trust them."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.parsers.commencement import parse_commencement, parse_date

_MONTH_FORMS = {
    1: ("Jan", "January"),
    2: ("Feb", "February"),
    3: ("Mar", "March"),
    4: ("Apr", "April"),
    5: ("May",),
    6: ("June", "Jun"),
    7: ("July", "Jul"),
    8: ("Aug", "August"),
    9: ("Sept", "Sep", "September"),
    10: ("Oct", "October"),
    11: ("Nov", "November"),
    12: ("Dec", "December"),
}
_DATES = st.dates(min_value=date(1900, 1, 1), max_value=date(2099, 12, 31))


def _render(day: date, form: int, numeric: bool) -> str:
    if numeric:
        return f"{day.day}/{day.month}/{day.year}"
    names = _MONTH_FORMS[day.month]
    return f"{day.day} {names[form % len(names)]} {day.year}"


def test_enterprise_tax_plan_parts_all_dates_collected() -> None:
    text = (
        "Sch 2 (item 1), Sch 3 (items 1–21), Sch 4 (items 1–29) and Sch 5 (items 1, 2): 1 July 2016 "
        "(s 2(1) items 9, 14, 16, 18) Sch 2 (item 5), Sch 3 (item 22) and Sch 4 (item 58): 19 May 2017 "
        "(s 2(1) items 13, 15, 17) Sch 5 (items 3–8): 1 July 2017 (s 2(1) item 19)"
    )
    result = parse_commencement(text, date(2017, 5, 19))
    assert result.dates == (date(2016, 7, 1), date(2017, 5, 19), date(2017, 7, 1))
    assert result.confident
    assert result.earliest == date(2016, 7, 1)


def test_royal_assent_forms_resolve_against_assent() -> None:
    assent = date(2000, 6, 30)
    result = parse_commencement("ss. 1–3: Royal Assent Remainder: the day after Royal Assent", assent)
    assert result.dates == (assent, date(2000, 7, 1))
    assert result.confident


def test_royal_assent_without_assent_date_is_not_confident() -> None:
    result = parse_commencement("Royal Assent", None)
    assert result.dates == ()
    assert not result.confident


def test_date_wrapped_over_lines_parses_once_joined() -> None:
    result = parse_commencement("sch 2 (items 6, 7): 22\nJan 2026 (s 2(1) item 3)", None)
    assert result.dates == (date(2026, 1, 22),)
    assert result.confident


def test_parts_that_never_took_effect_add_no_doubt_but_proclamation_does() -> None:
    never = parse_commencement("Sch 1: 1 July 2010 (s 2(1)) Sch 2 (item 27): never commenced (s 2(1) item 5)", None)
    assert never.dates == (date(2010, 7, 1),)
    assert never.confident
    repealed = parse_commencement("Sch 1: 1 July 2010 Sch 2 (item 2): repealed before commencing (s 2(1))", None)
    assert repealed.dates == (date(2010, 7, 1),) and repealed.confident
    only_never = parse_commencement("Sch 2: never commenced", None)
    assert only_never.dates == () and not only_never.confident
    proclaimed = parse_commencement("Sch 1: a day to be fixed by Proclamation", None)
    assert proclaimed.dates == ()
    assert not proclaimed.confident


def test_empty_text_is_not_confident() -> None:
    assert not parse_commencement("", date(2020, 1, 1)).confident


def test_unbalanced_parenthesis_keeps_later_dates_but_is_not_confident() -> None:
    text = "s 4: 8 July 1997 (s 2(1)) Sch 4 (items 5–62, Sch 5 (items 3–42): 1 July 1997 (s 2(2))"
    result = parse_commencement(text, date(1997, 7, 8))
    assert result.dates == (date(1997, 7, 8), date(1997, 7, 1))
    assert not result.confident


def test_parse_date_forms() -> None:
    assert parse_date("19 Sept 1997") == date(1997, 9, 19)
    assert parse_date("1/7/2016") == date(2016, 7, 1)
    assert parse_date("31 Feb 2000") is None
    assert parse_date("—") is None


@given(
    _DATES,
    st.integers(min_value=0, max_value=5),
    st.booleans(),
    st.sampled_from(["", "Sch 1 (items 1–3): ", "Remainder: "]),
)
def test_rendered_date_parses_back(day: date, form: int, numeric: bool, prefix: str) -> None:
    result = parse_commencement(f"{prefix}{_render(day, form, numeric)} (s 2(1) item 4)", None)
    assert result.dates == (day,)
    assert result.confident


@given(_DATES, st.integers(min_value=0, max_value=5))
def test_date_wrapped_anywhere_parses_back(day: date, form: int) -> None:
    rendered = _render(day, form, numeric=False)
    spaces = [i for i, char in enumerate(rendered) if char == " "]
    for cut in spaces:
        wrapped = rendered[:cut] + "\n" + rendered[cut + 1 :]
        assert parse_commencement(wrapped, None).dates == (day,)


_UNREADABLE = st.one_of(
    st.sampled_from(["to be proclaimed", "a day fixed by Proclamation", "awaiting commencement"]),
    st.text(alphabet="qwxzjk", min_size=3, max_size=8),
)


@given(st.lists(_DATES, min_size=0, max_size=3), _UNREADABLE, st.integers(min_value=0, max_value=3))
def test_any_unreadable_part_is_not_confident(days: list[date], unreadable: str, position: int) -> None:
    parts = [f"Sch {i + 1}: {_render(day, i, False)}" for i, day in enumerate(days)]
    parts.insert(min(position, len(parts)), f"Sch 9: {unreadable}")
    result = parse_commencement(" ".join(parts), date(2000, 1, 1))
    assert not result.confident
    assert set(result.dates) == set(days)


@given(_DATES)
def test_day_after_royal_assent_is_assent_plus_one(assent: date) -> None:
    result = parse_commencement("the day after Royal Assent", assent)
    assert result.dates == (assent + timedelta(days=1),)
    assert result.confident


def test_a_retrospectively_changed_note_adds_its_new_date_and_no_doubt() -> None:
    # Endnote 3 of C2026C00122 (vol11.txt, row of Act No. 70, 2015), shortened.
    text = (
        "Sch 4 (items 1, 2) and Sch 5 (item 1): 26 June 2015 (s 2(1) items 7A, 8) Sch 6 (item 31): 29 June 2013 "
        "(s 2(1) item 12) The commencement date for amendments made by the Tax and Superannuation Laws Amendment "
        "(2015 Measures No. 1) Act 2015 Sch 4 (items 1, 2) was retrospectively changed from 25 June 2015 to "
        "26 June 2015"
    )
    result = parse_commencement(text, date(2015, 6, 25))
    assert result.confident
    assert set(result.dates) == {date(2015, 6, 26), date(2013, 6, 29)}
    before = parse_commencement(text, date(2015, 6, 25), read_changed_notes=False)
    assert not before.confident


@given(_DATES, _DATES, _DATES, st.integers(min_value=0, max_value=5))
def test_a_changed_note_only_ever_adds_its_new_date(part: date, old: date, new: date, form: int) -> None:
    note = (
        "The commencement date for amendments made by the Example Amendment (2015 Measures No. 1) Act 2015 "
        f"Sch 4 (items 1, 2) was retrospectively changed from {_render(old, form, False)} to {_render(new, form, False)}"
    )
    result = parse_commencement(f"Sch 1 (item 1): {_render(part, form, False)} (s 2(1) item 2) {note}", None)
    assert result.confident
    assert set(result.dates) == {part, new}
