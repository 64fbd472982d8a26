"""The animus-pdf-markdown section parser: fixtures, a malformed file, and a corpus volume."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from asat_corpus.act import Compilation, SourceFormat
from asat_corpus.parse_report import CorpusFileError, ParseReport
from asat_corpus.parsers.animus_markdown import (
    parse_animus_markdown,
    parse_animus_markdown_text,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REPO_ROOT = Path(__file__).resolve().parents[4]
FURNITURE = re.compile(r"Compilation No\.|Authorised Version|To find definitions of asterisked|-----|\*\*")


def _compilation(files: tuple[str, ...] = ()) -> Compilation:
    return Compilation(
        act="itaa1997",
        title="Income Tax Assessment Act 1997",
        register_id="C2024C00046",
        number=248,
        compilation_date=None,
        amendments_up_to=None,
        amendments_up_to_text=None,
        format=SourceFormat.ANIMUS_PDF_MARKDOWN,
        files=files,
        partial=None,
        has_endnotes=False,
    )


def _fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8").split("\n", 1)[1]


def test_page_break_inside_a_note_is_joined_and_furniture_dropped() -> None:
    report = ParseReport("C2024C00046")
    provisions = parse_animus_markdown_text(_fixture("animus_itaa1997_div8.md"), "vol01.md", _compilation(), report)
    by_number = {p.number: p for p in provisions}
    assert list(by_number) == ["1-1", "1-2", "8-1", "8-5"]
    section = by_number["8-1"]
    assert section.heading == "General deductions"
    assert section.hierarchy[-1] == "Division 8\u2014Deductions"
    lines = section.text.split("\n")
    assert lines[0] == ("(1) You can deduct from your assessable income any loss or outgoing to the extent that:")
    assert "(a) it is incurred in gaining or producing your assessable income; or" in lines
    assert lines[-1].endswith("the amount may be included in your assessable income: see Subdivision 20-A.")
    assert "*business" in section.text and "* business" not in section.text
    assert "called a general deduction." in section.text
    assert [s.label for s in section.subsections] == ["(1)", "(2)", "(3)"]
    for provision in provisions:
        assert not FURNITURE.search(provision.text), provision.number
        assert not re.search(r"^Section \d", provision.text, re.M)
    assert by_number["1-1"].hierarchy == (
        "Chapter 1\u2014Introduction and core provisions",
        "Part 1-1\u2014Preliminary",
        "Division 1\u2014Preliminary",
    )
    assert report.items_parsed == 4


def test_wrapped_heading_line_continues_the_heading() -> None:
    report = ParseReport("C2024C00046")
    provisions = parse_animus_markdown_text(
        _fixture("animus_itaa1997_wrapped_heading.md"), "vol01.md", _compilation(), report
    )
    assert [p.number for p in provisions] == ["15-1"]
    assert provisions[0].hierarchy[0] == ("Chapter 2\u2014Liability rules of general application")
    assert provisions[0].text.startswith("This Division sets out some items")
    assert "Remember that the general rules" in provisions[0].text


def test_lowercase_heading_marked_line_is_body_text() -> None:
    text = "\n".join(
        [
            "### Division 8\u2014Deductions",
            "##### 8-1  General deductions",
            "###### (1) You can deduct any loss or outgoing that is",
            "",
            "# incurred in gaining your income.",
            "",
            "###### (2) However, you cannot deduct capital.",
        ]
    )
    report = ParseReport("C2024C00046")
    provisions = parse_animus_markdown_text(text, "vol01.md", _compilation(), report)
    assert [p.number for p in provisions] == ["8-1"]
    assert provisions[0].text == (
        "(1) You can deduct any loss or outgoing that is incurred in gaining your income.\n"
        "(2) However, you cannot deduct capital."
    )


def test_file_without_sections_raises_and_compilation_continues(tmp_path: Path) -> None:
    (tmp_path / "vol01.md").write_text(_fixture("animus_itaa1997_div8.md"), encoding="utf-8")
    (tmp_path / "vol03.md").write_text("-----\n\nTrading stock **Division 70**\n", "utf-8")
    with pytest.raises(CorpusFileError) as caught:
        parse_animus_markdown_text(
            "-----\n\nTrading stock **Division 70**\n", "vol03.md", _compilation(), ParseReport("x")
        )
    assert caught.value.file == "vol03.md" and caught.value.line == 3
    report = ParseReport("C2024C00046")
    provisions = parse_animus_markdown(_compilation(("vol03.md", "vol01.md")), tmp_path, report)
    assert len(report.errors) == 1 and report.errors[0].startswith("vol03.md:3:")
    assert "8-1" in {p.number for p in provisions}


@pytest.mark.corpus
def test_volume_1_has_8_1_and_no_furniture() -> None:
    root = Path(os.environ.get("ASAT_CORPUS_DIR", str(REPO_ROOT.parent / "shared" / "corpus")))
    if not (root / "SOURCES.json").is_file():
        pytest.skip(f"corpus not found at {root}: set ASAT_CORPUS_DIR")
    rel = "legislation/itaa1997/C2024C00046/vol01.md"
    report = ParseReport("C2024C00046")
    provisions = parse_animus_markdown_text((root / rel).read_text(encoding="utf-8"), rel, _compilation(), report)
    by_number = {p.number: p for p in provisions}
    assert "8-1" in by_number and "1-1" in by_number and "36-55" in by_number
    assert len(provisions) > 300
    for provision in provisions:
        assert not re.search(r"Compilation No\.|Authorised Version|To find definitions", provision.text)
        assert f"Section {provision.number}\n" not in provision.text + "\n"
