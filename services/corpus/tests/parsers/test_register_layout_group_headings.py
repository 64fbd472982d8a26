"""Group headings between sections of a register-pdf-layout-text volume.

A group heading inside a Division (``Research`` before ``30-40 Research``) is set at column 0
like a section heading. It belongs to neither section, so it must not end the previous
section's text; real last lines (a table row, a sentence) at column 0 must stay.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from asat_corpus.act import Compilation, SourceFormat
from asat_corpus.parse_report import ParseReport
from asat_corpus.parsers.register_layout import parse_register_layout_text
from asat_corpus.provision import ParsedProvision

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FOOTER = [
    "_____________________________________",
    "*To find definitions of asterisked terms, see the Dictionary, starting at section 995-1.",
    "",
    "",
    "                                      Income Tax Assessment Act 1997                             {page}",
    "",
    "Compilation No. 263                                                    Compilation date: 01/04/2026",
    "",
    "",
    "                       Authorised Version C2026C00122 registered 10/04/2026",
]
RUNNING_HEAD = [
    "\f                                                 Synthetic chapter Chapter 9",
    "                                                    Synthetic part Part 9-1",
    "                                               Synthetic division Division 900",
    "",
    "                                                                  Section 900-5",
    "",
]


def _compilation() -> Compilation:
    return Compilation(
        act="itaa1997",
        title="Income Tax Assessment Act 1997",
        register_id="C2026C00122",
        number=263,
        compilation_date=None,
        amendments_up_to=None,
        amendments_up_to_text=None,
        format=SourceFormat.REGISTER_PDF_LAYOUT_TEXT,
        files=(),
        partial=None,
        has_endnotes=True,
    )


def _volume(body: list[str]) -> str:
    """``body`` as the body pages of a volume: a front-matter page before, a footer after."""
    front = ["Income Tax Assessment Act 1997", *[line.format(page="i") for line in FOOTER]]
    return "\n".join([*front, "\f" + body[0], *body[1:], *[line.format(page="61") for line in FOOTER]]) + "\n"


def _fixture_body(name: str) -> list[str]:
    """The corpus lines of fixture ``name`` (its first line names the source)."""
    lines = (FIXTURES / name).read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("Source: ")
    return lines[1:]


def _parse(body: list[str]) -> tuple[dict[str, ParsedProvision], ParseReport]:
    report = ParseReport("C2026C00122")
    sections = parse_register_layout_text(_volume(body), "vol.txt", _compilation(), report)
    return {s.number: s for s in sections}, report


# --- real corpus slices -------------------------------------------------------------------------


def test_group_heading_between_sections_is_in_neither() -> None:
    found, report = _parse(_fixture_body("register_itaa1997_30_37_group_heading.txt"))
    assert list(found) == ["30-37", "30-40"]
    assert found["30-37"].text.splitlines()[-1] == "(d) it is awarded on merit or for reasons of equity."
    assert found["30-40"].heading == "Research"
    assert found["30-40"].text == "(1) This table sets out general categories of research recipients."
    assert all("\nResearch" not in s.text for s in found.values())
    assert report.unparsed_count == 0


def test_group_heading_after_a_page_break_is_dropped() -> None:
    found, _ = _parse(_fixture_body("register_itaa1997_727_220_group_heading_page_break.txt"))
    assert list(found) == ["727-220", "727-230"]
    last = found["727-220"].text.splitlines()[-1]
    assert last == (
        "(b) the first entity owns a primary equity interest that is an indirect primary equity interest "
        "in the other entity because of one or more other applications of this subsection."
    )
    assert (
        found["727-230"].heading
        == "Services provided by losing entity to gaining entity for at least their direct cost"
    )
    assert found["727-230"].text.startswith("An *indirect value shift does not have consequences")
    assert all("Indirect value shifts involving services" not in s.text for s in found.values())


def test_wrapped_group_heading_is_dropped_whole() -> None:
    found, _ = _parse(_fixture_body("register_itaa1997_170_70_wrapped_group_heading.txt"))
    assert list(found) == ["170-70", "170-75"]
    assert found["170-70"].text.splitlines()[-1] == (
        "The Commissioner may do so despite section 170 (Amendment of assessments) of the Income Tax Assessment Act 1936."
    )
    assert all("permanent establishments of foreign financial" not in s.text.split("\n")[-1] for s in found.values())
    assert "entities" not in found["170-70"].text.splitlines()[-1].split()


def test_table_row_at_column_0_before_a_section_stays() -> None:
    body = ["30-315 Index", "", *_fixture_body("register_itaa1997_30_315_table_end.txt")]
    found, _ = _parse(body)
    assert list(found) == ["30-315", "30-320"]
    assert found["30-315"].text.splitlines()[-1] == "129 | Youthsafe | item 4.2.50"


# --- synthetic layouts --------------------------------------------------------------------------


def test_group_heading_at_the_foot_of_a_page_is_dropped() -> None:
    body = [
        "900-5 First",
        "               Text of the first section.",
        "",
        "Things about the second",
        "",
        *[line.format(page="60") for line in FOOTER],
        *RUNNING_HEAD,
        "900-10 Second",
        "               Text of the second section.",
    ]
    found, _ = _parse(body)
    assert found["900-5"].text == "Text of the first section."
    assert found["900-10"].text == "Text of the second section."


def test_column_0_sentence_or_heading_without_a_section_after_it_stays() -> None:
    body = [
        "900-5 First",
        "               Text of the first section:",
        "The limit is the resulting balance.",
        "",
        "900-10 Second",
        "               Text of the second section.",
        "",
        "A heading inside the section",
        "",
        "               More text of the second section.",
    ]
    found, _ = _parse(body)
    assert found["900-5"].text.splitlines()[-1] == "The limit is the resulting balance."
    assert found["900-10"].text.splitlines() == [
        "Text of the second section.",
        "A heading inside the section",
        "More text of the second section.",
    ]


def test_group_heading_before_a_table_row_lookalike_stays() -> None:
    # ``1 Any method:`` goes back in the numbering: a table row, not a section heading.
    body = [
        "900-5 First",
        "               Text of the first section.",
        "",
        "Events",
        "",
        "1 Any method:",
    ]
    found, _ = _parse(body)
    assert found["900-5"].text.splitlines()[-2:] == ["Events", "1 Any method:"]


# --- property: sections with group headings and page breaks anywhere -----------------------------

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=9)
_HEADING = st.lists(_WORD, min_size=1, max_size=12).map(lambda ws: " ".join(ws).capitalize())
_SECTION = st.tuples(
    st.one_of(st.none(), _HEADING),  # group heading before the section
    st.lists(st.lists(_WORD, min_size=1, max_size=25), min_size=1, max_size=3),  # paragraphs
)


def _wrap(words: list[str], column: int, width: int = 70) -> list[str]:
    lines: list[str] = []
    current: list[str] = []
    for word in words:
        if current and column + len(" ".join([*current, word])) > width:
            lines.append(" " * column + " ".join(current))
            current = []
        current.append(word)
    lines.append(" " * column + " ".join(current))
    return lines


@settings(max_examples=60, deadline=None)
@given(sections=st.lists(_SECTION, min_size=1, max_size=5), data=st.data())
def test_group_headings_never_reach_section_text(
    sections: list[tuple[str | None, list[list[str]]]], data: st.DataObject
) -> None:
    layout: list[str] = ["Division 900—Synthetic", ""]
    expected: dict[str, str] = {}
    for n, (group, paragraphs) in enumerate(sections, start=1):
        if group is not None:
            first, *wraps = _wrap(group.split(), 10, width=60)
            layout.extend([first.strip(), *wraps, ""])  # wrapped lines are indented
        number = f"900-{n * 5}"
        layout.append(f"{number} Section {n}")
        texts: list[str] = []
        for i, words in enumerate(paragraphs):
            label = f"({i + 1})"
            ended = [*words[:-1], words[-1] + "."]
            wrapped = _wrap(ended, 14)
            wrapped[0] = " " * (13 - len(label)) + label + wrapped[0][13:]
            layout.extend(wrapped)
            texts.append(f"{label} {' '.join(ended)}")
        layout.append("")
        expected[number] = "\n".join(texts)
    breaks = set(data.draw(st.lists(st.integers(min_value=3, max_value=len(layout) - 1), max_size=4)))
    body: list[str] = []
    for i, line in enumerate(layout):
        if i in breaks:
            body.extend([*[f.format(page=i) for f in FOOTER], *RUNNING_HEAD])
        body.append(line)
    found, report = _parse(body)
    assert {number: s.text for number, s in found.items()} == expected
    assert report.unparsed_count == 0


def test_numbered_method_steps_after_a_long_heading_are_body_not_heading() -> None:
    found, _ = _parse(_fixture_body("register_itaa1997_100_45_numbered_steps.txt"))
    section = found["100-45"]
    assert section.heading == "How to calculate the capital gain or loss for most CGT events"
    assert section.text.splitlines()[0] == "1. Work out your capital proceeds from the CGT event."
    assert "4. If the proceeds exceed the cost base, the difference is your capital gain." in section.text
