"""Tests for the register-pdf-layout-text section parser."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_corpus.act import Compilation, SourceFormat
from asat_corpus.parse_report import CorpusFileError, ParseReport
from asat_corpus.parsers.register_blocks import canonical_text, subsections
from asat_corpus.parsers.register_layout import parse_register_layout, parse_register_layout_text
from asat_corpus.parsers.register_pages import BodyLine, body_lines
from asat_corpus.provision import ParsedProvision
from asat_corpus.sources import corpus_dir_from_env, load_sources

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FIXTURE = FIXTURES / "register_itaa1997_vol01_p1.txt"
FURNITURE = ("Authorised Version", "Compilation No.", "To find definitions of asterisked terms")
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


def _compilation(files: tuple[str, ...] = (), act: str = "itaa1997") -> Compilation:
    return Compilation(
        act=act,
        title="Income Tax Assessment Act 1997",
        register_id="C2026C00122",
        number=263,
        compilation_date=None,
        amendments_up_to=None,
        amendments_up_to_text=None,
        format=SourceFormat.REGISTER_PDF_LAYOUT_TEXT,
        files=files,
        partial=None,
        has_endnotes=True,
    )


def _lines(*texts: str, page_start_at: int = -1) -> list[BodyLine]:
    return [BodyLine(i + 1, t, page_start=i == page_start_at) for i, t in enumerate(texts)]


def _by_number(sections: list[ParsedProvision]) -> dict[str, ParsedProvision]:
    return {s.number: s for s in sections}


def _assert_subsection_invariants(section: ParsedProvision) -> None:
    previous_end = -1
    for sub in section.subsections:
        assert 0 <= sub.start <= sub.end <= len(section.text)
        assert sub.start > previous_end
        assert section.text[sub.start : sub.end].startswith(sub.label)
        previous_end = sub.end


# --- one page of the real corpus (fixture) -------------------------------------------------


def test_fixture_page_yields_sections_with_hierarchy_and_no_furniture() -> None:
    report = ParseReport("C2026C00122")
    sections = parse_register_layout_text(FIXTURE.read_text(encoding="utf-8"), "vol01.txt", _compilation(), report)
    found = _by_number(sections)
    assert list(found) == ["1-1", "1-2", "1-3", "1-4"]
    assert found["1-1"].heading == "Short title"
    assert found["1-1"].text == "This Act may be cited as the Income Tax Assessment Act 1997."
    assert found["1-3"].hierarchy == (
        "Chapter 1—Introduction and core provisions",
        "Part 1-1—Preliminary",
        "Division 1—Preliminary",
    )
    # The note that follows 1-3 on the next page belongs to 1-3, joined across the page break.
    assert found["1-3"].text.splitlines()[-1].startswith("Note: A public or private ruling about a provision")
    assert [s.label for s in found["1-3"].subsections] == ["(1)", "(2)"]
    assert "(b) this Act appears to have expressed the same idea in a different form of words" in found["1-3"].text
    assert report.items_parsed == 4
    for section in sections:
        assert not any(f in section.text for f in FURNITURE)
        assert "Section 1-4" not in section.text
        _assert_subsection_invariants(section)


# --- canonical text rules -------------------------------------------------------------------


def test_wrapped_cross_reference_label_continues_the_block() -> None:
    lines = _lines(
        "          (8) The rule in subsection (7) applies in relation to subsection",
        "              (7A) of this section in the same way.",
        "          (9) Subsection (1) does not apply.",
        page_start_at=1,
    )
    text = canonical_text(lines)
    assert text.splitlines() == [
        "(8) The rule in subsection (7) applies in relation to subsection (7A) of this section in the same way.",
        "(9) Subsection (1) does not apply.",
    ]


def test_paragraph_after_semicolon_and_starts_a_new_line() -> None:
    lines = _lines(
        "          (1) You must:",
        "                (a) do this; and",
        "                (b) do that, or",
        "                    something else.",
        "               Example:   A person who does this.",
    )
    assert canonical_text(lines).splitlines() == [
        "(1) You must:",
        "(a) do this; and",
        "(b) do that, or something else.",
        "Example: A person who does this.",
    ]


def test_table_rows_are_joined_per_row_and_repeated_header_dropped() -> None:
    lines = [
        BodyLine(1, "                 Item      For this case ...                  See:", False),
        BodyLine(2, "                 1.        A company does not maintain        Subdivision 165-B", False),
        BodyLine(3, "                           continuity of ownership", False),
        BodyLine(4, "                 Item      For this case ...                  See:", True),
        BodyLine(5, "                 2.        A company becomes a PDF            section 124ZTA of", False),
        BodyLine(6, "                                                              the Income Tax Act", False),
        BodyLine(7, "               Note:       A life insurance company.", False),
    ]
    assert canonical_text(lines).splitlines() == [
        "Item | For this case ... | See:",
        "1. | A company does not maintain continuity of ownership | Subdivision 165-B",
        "2. | A company becomes a PDF | section 124ZTA of the Income Tax Act",
        "Note: A life insurance company.",
    ]


def test_subsections_cover_text_up_to_next_label() -> None:
    text = "Lead in\n(1) One.\nA heading\n(2) Two.\n(a) para."
    spans = subsections(text)
    assert [(s.label, text[s.start : s.end]) for s in spans] == [
        ("", "Lead in"),
        ("(1)", "(1) One.\nA heading"),
        ("(2)", "(2) Two.\n(a) para."),
    ]


# --- look-alikes, placeholders, duplicates ----------------------------------------------------


def _volume(body: list[str]) -> str:
    front = ["Income Tax Assessment Act 1997", *[line.format(page="i") for line in FOOTER]]
    return "\n".join([*front, "\f" + body[0], *body[1:], *[line.format(page="7") for line in FOOTER]]) + "\n"


def test_table_row_lookalikes_repealed_and_duplicates_are_reported_not_returned() -> None:
    body = [
        "Part III—Liability to taxation",
        "Division 7A—Distributions",
        "",
        "121AS Modifications",
        "          (1) The table applies.",
        "Item             Event                              Modifications",
        "1 Any method:",
        "  Extinguishment of rights as                       A capital gain is disregarded.",
        "",
        "121AT (Repealed)",
        "",
        "121AU Empty",
        "",
        "121AV Real section",
        "               Text of the real section.",
        "",
        "121AV Real section again",
        "               Text again.",
    ]
    report = ParseReport("x")
    sections = parse_register_layout_text(_volume(body), "v.txt", _compilation(act="itaa1936"), report)
    assert [s.number for s in sections] == ["121AS", "121AV"]
    assert "1 Any method:" in sections[0].text
    reasons = [e.reason for e in report.examples]
    assert reasons[0] == "repealed placeholder"
    assert reasons[1] == "empty body"
    assert reasons[2].startswith("duplicate section number")
    assert report.items_parsed == 2


def test_taa_schedule_sections_get_schedule_prefix() -> None:
    body = [
        "8AAZA Definitions",
        "               Main body text.",
        "",
        "Schedule 1—Collection and recovery of",
        "      income tax and other liabilities",
        "Division 12—Payments from which amounts must be withheld",
        "",
        "12-35 Payment to employee",
        "               An entity must withhold an amount.",
    ]
    sections = parse_register_layout_text(_volume(body), "v.txt", _compilation(act="taa1953"), ParseReport("x"))
    found = _by_number(sections)
    assert set(found) == {"8AAZA", "sch1-12-35"}
    assert found["sch1-12-35"].hierarchy[0] == "Schedule 1—Collection and recovery of income tax and other liabilities"


def test_endnotes_heading_stops_the_body() -> None:
    body = [
        "1-1 Short title",
        "               This Act.",
        "",
        "Endnotes",
        "Endnote 1—About the endnotes",
        "2-1 Not a section",
    ]
    sections = parse_register_layout_text(_volume(body), "v.txt", _compilation(), ParseReport("x"))
    assert [s.number for s in sections] == ["1-1"]


# --- malformed files --------------------------------------------------------------------------


def test_truncated_file_raises_naming_file_and_line() -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    cut = text[: text.rindex("Compilation No. 263") + 12]
    with pytest.raises(CorpusFileError) as info:
        parse_register_layout_text(cut, "vol01.txt", _compilation(), ParseReport("x"))
    assert info.value.file == "vol01.txt"
    assert info.value.line == cut.count("\n") + 1
    assert "truncated" in str(info.value)


def test_compilation_records_bad_files_and_keeps_the_good_ones(tmp_path: Path) -> None:
    (tmp_path / "good.txt").write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "garbage.txt").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "binary.txt").write_text("1-1 Short title\x00\x01\x02\n", encoding="utf-8")
    report = ParseReport("C2026C00122")
    compilation = _compilation(files=("garbage.txt", "good.txt", "binary.txt", "missing.txt"))
    sections = parse_register_layout(compilation, tmp_path, report)
    assert [s.number for s in sections] == ["1-1", "1-2", "1-3", "1-4"]
    assert report.items_parsed == 4
    assert len(report.errors) == 3
    assert report.errors[0].startswith("garbage.txt:2: not UTF-8")  # byte 10 ends line 1
    assert report.errors[1].startswith("binary.txt:1: control character")
    assert report.errors[2].startswith("missing.txt:")


# --- property test: rendered layout round-trips to canonical text -----------------------------

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz*$", min_size=1, max_size=9).filter(lambda w: w[0] not in "*$")
_WORDS = st.lists(_WORD, min_size=1, max_size=30)
_GROUP = st.tuples(
    st.one_of(st.none(), st.lists(_WORD, min_size=1, max_size=8)),  # optional in-section heading
    _WORDS,  # subsection text
    st.lists(st.tuples(st.sampled_from(["para", "note", "sub_para"]), _WORDS), max_size=4),
)


def _wrap(first: str, label: str, words: list[str], text_column: int, width: int = 72) -> list[str]:
    lines: list[str] = []
    current = first + label + " " * (text_column - len(first) - len(label))
    has_word = False
    for word in words:
        if has_word and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = " " * text_column + word
        else:
            current = current + (" " if has_word else "") + word
        has_word = True
    lines.append(current)
    return lines


def _render(groups: list[tuple[list[str] | None, list[str], list[tuple[str, list[str]]]]]) -> tuple[list[str], str]:
    layout: list[str] = []
    canonical: list[str] = []
    for n, (heading, sub_words, items) in enumerate(groups, start=1):
        if heading is not None:
            layout.extend(["", *_wrap(" " * 15, "", heading, 15)])
            canonical.append(" ".join(heading))
        label = f"({n})"
        sub = [*sub_words[:-1], sub_words[-1] + "."]
        layout.extend(_wrap(" " * (13 - len(label)), label, sub, 14))
        canonical.append(f"{label} {' '.join(sub)}")
        for i, (kind, words) in enumerate(items):
            ended = [*words[:-1], words[-1] + "."]
            label, indent, column = {
                "para": (f"({'abcd'[i]})", 16, 20),
                "sub_para": (f"({['i', 'ii', 'iii', 'iv'][i]})", 22 - len(f"{['i', 'ii', 'iii', 'iv'][i]}"), 26),
                "note": ("Note:", 15, 26),
            }[kind]
            layout.extend(_wrap(" " * indent, label, ended, column))
            canonical.append(f"{label} {' '.join(ended)}")
    return layout, "\n".join(canonical)


def _with_page_breaks(layout: list[str], breaks: set[int]) -> list[str]:
    out: list[str] = []
    for i, line in enumerate(layout):
        if i in breaks:
            out.extend(f.format(page=i) for f in FOOTER)
            out.extend(
                ["\fChapter 9 Synthetic", "Part 9-1 Synthetic", "Division 900 Synthetic", "", "Section 900-5", ""]
            )
        out.append(line)
    return out


@settings(max_examples=60, deadline=None)
@given(groups=st.lists(_GROUP, min_size=1, max_size=5), data=st.data())
def test_rendered_layout_round_trips(
    groups: list[tuple[list[str] | None, list[str], list[tuple[str, list[str]]]]], data: st.DataObject
) -> None:
    layout, expected = _render(groups)
    breaks = set(data.draw(st.lists(st.integers(min_value=0, max_value=len(layout) - 1), max_size=4)))
    body = ["Division 900—Synthetic", "", "900-5 Synthetic heading", *_with_page_breaks(layout, breaks)]
    report = ParseReport("x")
    sections = parse_register_layout_text(_volume(body), "v.txt", _compilation(), report)
    assert len(sections) == 1
    section = sections[0]
    assert section.text == expected
    assert [s.label for s in section.subsections if s.label] == [f"({n})" for n in range(1, len(groups) + 1)]
    _assert_subsection_invariants(section)
    assert report.unparsed_count == 0


def test_body_lines_skip_front_matter_pages() -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    lines = body_lines(text, "vol01.txt")
    assert lines[0].text == "An Act about income tax and related matters"
    assert not any(f in line.text for line in lines for f in FURNITURE)


# --- the real corpus --------------------------------------------------------------------------


def _corpus_compilation(register_id: str) -> tuple[Compilation, Path]:
    try:
        sources = load_sources(corpus_dir_from_env())
    except Exception as exc:  # pragma: no cover - depends on the environment
        pytest.skip(f"corpus not available: {exc}")
    matches = [c for c in sources.compilations if c.register_id == register_id]
    assert matches, f"{register_id} not in SOURCES.json"
    return matches[0], sources.corpus_dir


def _one_file(register_id: str, suffix: str) -> list[ParsedProvision]:
    compilation, corpus_dir = _corpus_compilation(register_id)
    rel_path = next(f for f in compilation.files if f.endswith(suffix))
    text = (corpus_dir / rel_path).read_text(encoding="utf-8")
    report = ParseReport(register_id)
    sections = parse_register_layout_text(text, rel_path, compilation, report)
    assert report.errors == []
    for section in sections:
        assert not any(f in section.text for f in FURNITURE), section.number
        _assert_subsection_invariants(section)
    return sections


@pytest.mark.corpus
def test_itaa1997_small_business_entity() -> None:
    found = _by_number(_one_file("C2026C00122", "vol07.txt"))
    section = found["328-110"]
    assert section.heading == "Meaning of small business entity"
    assert "$10 million" in section.text
    labels = [s.label for s in section.subsections]
    assert labels[labels.index("(1)") : labels.index("(1)") + 4] == ["(1)", "(2)", "(3)", "(4)"]
    assert any(h.startswith("Division 328") for h in section.hierarchy)
    assert section.hierarchy[-1] == "Subdivision 328-C—What is a small business entity"


@pytest.mark.corpus
def test_itaa1997_general_deductions() -> None:
    found = _by_number(_one_file("C2026C00122", "vol01.txt"))
    assert found["8-1"].heading == "General deductions"
    assert "You can deduct from your assessable income any loss or outgoing" in found["8-1"].text


@pytest.mark.corpus
@pytest.mark.slow
def test_whole_compilations() -> None:
    expected = {
        "C2026C00122": ("8-1", 4500),
        "C2026C00165": ("109D", 900),
        "C2026C00170": ("sch1-12-35", 1100),
        "C2026C00081": ("9-5", 700),
    }
    started = time.perf_counter()
    for register_id, (number, minimum) in expected.items():
        compilation, corpus_dir = _corpus_compilation(register_id)
        report = ParseReport(register_id)
        sections = parse_register_layout(compilation, corpus_dir, report)
        numbers = {s.number for s in sections}
        assert report.errors == []
        assert len(sections) >= minimum, (register_id, len(sections))
        assert report.items_parsed == len(sections)
        assert number in numbers
        if register_id == "C2026C00165":
            assert "177D" in numbers
    assert time.perf_counter() - started < 30
