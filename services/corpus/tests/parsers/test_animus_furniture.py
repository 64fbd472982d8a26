"""Page furniture and PDF markup the animus parser strips: fixtures per kind, and a property test."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from asat_corpus.act import Compilation, SourceFormat
from asat_corpus.parse_report import ParseReport
from asat_corpus.parsers.animus_markdown import parse_animus_markdown_text
from asat_corpus.provision import ParsedProvision

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
COMPILATION = Compilation(
    act="itaa1997",
    title="Income Tax Assessment Act 1997",
    register_id="C2024C00046",
    number=248,
    compilation_date=None,
    amendments_up_to=None,
    amendments_up_to_text=None,
    format=SourceFormat.ANIMUS_PDF_MARKDOWN,
    files=(),
    partial=None,
    has_endnotes=False,
)


def _fixture(name: str) -> str:
    first, body = (FIXTURES / name).read_text(encoding="utf-8").split("\n", 1)
    assert "C2024C00046" in first, f"{name}: the first line must name its source"
    return body


def _parse(text: str) -> dict[str, ParsedProvision]:
    provisions = parse_animus_markdown_text(text, "vol.md", COMPILATION, ParseReport("C2024C00046"))
    return {p.number: p for p in provisions}


def test_wrapped_running_heads_above_the_section_head_are_dropped() -> None:
    # s 727-220: the Division 727 running head wraps onto a second line that does not end in
    # "Division 727"; before the fix "Indirect value shifting ... arising from" stayed in the body.
    section = _parse(_fixture("animus_itaa1997_727_220_running_head.md"))["727-220"]
    lines = section.text.split("\n")
    b = lines.index("(b) the asset\u2019s cost;")
    assert lines[b + 1].startswith("(c) the asset\u2019s market value immediately before the most recent time")
    assert "Indirect value shifting" not in section.text
    assert "Value shifting" not in section.text and "Part 3-95" not in section.text
    assert "arising from" not in section.text
    assert [s.label for s in section.subsections] == ["(1)", "(2)", "(3)", "(4)"]


def test_section_heading_ending_in_a_division_number_after_the_running_heads_is_kept() -> None:
    # "##### 166-165  Relationship with rules in Division 165" looks like a running head
    # ("... Division 165") and, at the top of a page, was dropped with its section.
    by_number = _parse(_fixture("animus_itaa1997_166_165_heading_after_running_head.md"))
    section = by_number["166-165"]
    assert section.heading == "Relationship with rules in Division 165"
    assert section.text.startswith("(1) The provisions of Subdivision 165-D (other than section 165-165)")
    assert "widely held" not in section.text and "Division 166 company" not in section.text


def test_stray_heading_marks_inside_a_line_are_dropped_and_bullets_are_bullets() -> None:
    section = _parse(_fixture("animus_itaa1997_2_25_inner_marks.md"))["2-25"]
    assert section.text == (
        "Two main purposes of the numbering system in this Act are:\n"
        "\u2022 To indicate the relationship between units at different levels.\n"
        "For example, the number of Part 2-15 indicates that the Part is in Chapter 2. Similarly, the number"
        " of section 165-70 indicates that the section is in Division 165.\n"
        "\u2022 To allow for future expansion of the Act. The main technique here is leaving gaps between numbers."
    )


def test_heading_marked_list_items_are_body_lines() -> None:
    section = _parse(_fixture("animus_itaa1997_104_225_marked_bullets.md"))["104-225"]
    lines = section.text.split("\n")
    assert lines[0] == "(6) You make a capital loss from a *collectable equal to:"
    assert lines[1].startswith("\u2022 the *market value of the *shares or the interest in the trust (worked out")
    assert lines[-1] == "\u2022 the actual *capital proceeds from CGT event A1, C2 or E8."
    assert "#" not in section.text


def test_space_left_inside_brackets_by_emphasis_is_removed() -> None:
    section = _parse(_fixture("animus_itaa1997_100_1_spaced_brackets.md"))["100-1"]
    assert "commonly referred to as capital gains tax (CGT)." in section.text


def test_spaced_fractions_are_closed_up() -> None:
    section = _parse(_fixture("animus_itaa1997_106_5_fractions.md"))["106-5"]
    assert section.text.startswith("John is taken to have disposed of 2/3 of his interest in the building (1/3 to Wil")
    assert " / " not in section.text


def test_placeholder_header_cells_are_dropped() -> None:
    section = _parse(_fixture("animus_itaa1997_20_105_placeholder_cells.md"))["20-105"]
    assert "|The usual case||" in section.text
    assert "Col2" not in section.text


def test_defined_term_asterisk_before_a_number_is_joined() -> None:
    text = "##### 104-175  Example\n\n(a) the recipient company was a * 100% subsidiary of the other.\n"
    assert _parse(text)["104-175"].text == "(a) the recipient company was a *100% subsidiary of the other."


# --- property: a page break with running heads between body lines changes nothing -----------

_BODY = [
    "##### 727-220 Disposal of asset at cost",
    "",
    "(1) An *indirect value shift does not have consequences under this",
    "Division if the conditions in this section are met.",
    "",
    "(2) The *greater benefits must consist entirely of:",
    "",
    "(a) the *losing entity transferring a *CGT asset to the *gaining",
    "entity; or",
    "",
    "(b) a right to have the losing entity transfer an asset to the",
    "gaining entity.",
    "",
    "(3) There must be *lesser benefits and, as at the *IVS time, the total",
    "*market value of the lesser benefits must not be less than the",
    "greatest of these amounts:",
    "",
    "(a) the asset\u2019s *cost base at that time;",
    "",
    "(b) the asset\u2019s cost;",
    "",
    "(c) the asset\u2019s market value immediately before the most recent",
    "time (if any), since the *losing entity *acquired the asset.",
]
# where a page may break: before a blank line, or inside a paragraph before a lower-case line
_BREAKS = [i for i in range(3, len(_BODY)) if _BODY[i] == "" or _BODY[i][:1].islower()]

_UNBROKEN = _parse("\n".join(_BODY))["727-220"]

_WORD = st.from_regex(r"[A-Z]?[a-z]{1,10}(?:[,\u2019][a-z]{0,2})?", fullmatch=True)
_NAME = st.lists(_WORD, min_size=1, max_size=14).map(" ".join)
_NUMBER = st.from_regex(r"[1-9][0-9]{0,2}[A-Z]?(?:-[1-9A-Z][0-9]?)?", fullmatch=True)
_LEVEL = st.sampled_from(["Chapter", "Part", "Division", "Subdivision"])


@st.composite
def _running_head(draw: st.DrawFn) -> list[str]:
    level, number, name = draw(_LEVEL), draw(_NUMBER), draw(_NAME)
    style = draw(st.sampled_from(["name-first", "bold-first", "plain"]))
    if style == "name-first":
        text = f"{name} **{level} {number}**"
    elif style == "bold-first":
        text = f"**{level} {number}** {name}"
    else:
        text = f"{name} {level} {number}"
    words = text.split(" ")
    cut = draw(st.integers(min_value=0, max_value=len(words) - 1))
    if cut == 0:
        return [text]
    return [" ".join(words[:cut]), " ".join(words[cut:])]  # wrapped anywhere


@st.composite
def _page_break(draw: st.DrawFn) -> list[str]:
    page = draw(st.integers(min_value=1, max_value=999))
    lines = ["", "_____________________________________"]
    lines.append("* To find definitions of asterisked terms, see the Dictionary, starting at section 995-1.")
    lines += ["", f"_{page}_ _Income Tax Assessment Act 1997_", ""]
    lines += ["Compilation No. 248 Compilation date: 01/01/2024 Registered: 15/01/2024", ""]
    if draw(st.booleans()):
        lines += ["Authorised Version C2024C00046 registered 15/01/2024", ""]
    lines += ["", "-----", ""]
    blank_between = draw(st.booleans())
    for head in draw(st.lists(_running_head(), min_size=2, max_size=3)):
        lines += head + ([""] if blank_between else [])
    lines += ["", f"##### Section {draw(st.sampled_from(['727-220', '727-230', '8-1']))}", ""]
    return lines


@settings(max_examples=150, deadline=None)
@given(position=st.sampled_from(_BREAKS), page_break=_page_break())
def test_running_heads_between_body_lines_do_not_change_the_text(position: int, page_break: list[str]) -> None:
    expected = _UNBROKEN
    broken = _parse("\n".join(_BODY[:position] + page_break + _BODY[position:]))["727-220"]
    assert broken.text == expected.text
    assert broken.heading == expected.heading
