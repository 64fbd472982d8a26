"""The gitlaw-markdown section parser: fixtures, a malformed file, and corpus slices."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from asat_corpus.act import Compilation, SourceFormat
from asat_corpus.parse_report import CorpusFileError, ParseReport
from asat_corpus.parsers.gitlaw_markdown import (
    parse_gitlaw_markdown,
    parse_gitlaw_markdown_text,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REPO_ROOT = Path(__file__).resolve().parents[4]


def _compilation(act: str, register_id: str, files: tuple[str, ...] = ()) -> Compilation:
    return Compilation(
        act=act,
        title=act,
        register_id=register_id,
        number=None,
        compilation_date=None,
        amendments_up_to=None,
        amendments_up_to_text=None,
        format=SourceFormat.GITLAW_MARKDOWN,
        files=files,
        partial=None,
        has_endnotes=False,
    )


def _fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8").split("\n", 1)[1]


def _corpus_dir() -> Path:
    root = Path(os.environ.get("ASAT_CORPUS_DIR", str(REPO_ROOT.parent / "shared" / "corpus")))
    if not (root / "SOURCES.json").is_file():
        pytest.skip(f"corpus not found at {root}: set ASAT_CORPUS_DIR")
    return root


ITAA1997 = _compilation("itaa1997", "C2015C00285")


def test_fixture_recovers_hyphens_hierarchy_and_text() -> None:
    report = ParseReport("C2015C00285")
    provisions = parse_gitlaw_markdown_text(_fixture("gitlaw_itaa1997_div328.md"), "vol07.md", ITAA1997, report)
    by_number = {p.number: p for p in provisions}
    assert list(by_number) == ["328-5", "328-10", "328-50", "328-105", "328-110"]
    section = by_number["328-110"]
    assert section.heading == "Meaning of small business entity"
    assert section.hierarchy == (
        "Chapter 3\u2014Specialist liability rules",
        "Part 3-45\u2014Rules for particular industries and occupations",
        "Division 328\u2014Small business entities",
        "Subdivision 328-C\u2014What is a small business entity",
    )
    lines = section.text.split("\n")
    assert lines[0] == (
        "General rule: based on aggregated turnover worked out as at the beginning of the current income year"
    )
    assert lines[1] == ("(1) You are a small business entity for an income year (the current year) if:")
    assert "(a) you carry on a *business in the current year; and" in lines
    assert "$2 million" in section.text
    assert "during the current year\u2014as at the day" in section.text
    # 328-120 is not in this file, so its reference cannot be restored from the file alone
    assert "Subsection 328120(5) provides" in section.text
    assert not any(mark in section.text for mark in ("#", "**", "_", "--"))
    labels = [s.label for s in section.subsections]
    assert labels == ["", "(1)", "(2)"]
    assert section.text[section.subsections[1].start :].startswith("(1) You are")
    assert section.source_line > 1 and section.source_file == "vol07.md"
    assert report.items_parsed == 5


def test_table_of_contents_and_guides_are_not_body_text() -> None:
    report = ParseReport("C2015C00285")
    provisions = parse_gitlaw_markdown_text(_fixture("gitlaw_itaa1997_div328.md"), "vol07.md", ITAA1997, report)
    for provision in provisions:
        assert "Table of sections" not in provision.text
        assert "Meaning of aggregated turnover" not in provision.text  # a TOC line
        assert "Operative provisions" not in provision.text


def test_non_hyphenated_act_keeps_numbers_as_printed() -> None:
    text = "\n".join(
        [
            "Fixture-like text written for this test (ITAA 1936 layout)",
            "## Contents",
            "    * 109D\tLoans treated as dividends\t302",
            "### Part III--Liability to taxation",
            "#### Division 7A--Distributions to entities connected with a private company",
            "##### 109D  Loans treated as dividends",
            "    * (1) A private company is taken to pay a dividend.",
            "#### Division 1--General",
            "##### 18  Accounting period",
            "    * The Commissioner may allow an accounting period.",
            "#### Division 2--Income",
            "##### 25A  Profits",
            "    * Assessable income includes profit.",
        ]
    )
    report = ParseReport("C2015C00300")
    provisions = parse_gitlaw_markdown_text(text, "vol02.md", _compilation("itaa1936", "C2015C00300"), report)
    assert [p.number for p in provisions] == ["109D", "18", "25A"]
    assert provisions[0].hierarchy[-1] == (
        "Division 7A\u2014Distributions to entities connected with a private company"
    )


def test_schedule_sections_get_schedule_prefix_and_bad_split_is_reported() -> None:
    sections = [
        line
        for n in range(35, 95, 5)
        for line in (f"##### 12{n}  Payment number {n}", "    * An entity must withhold.")
    ]
    text = "\n".join(
        [
            "Fixture-like text written for this test (TAA 1953 Schedule 1 layout)",
            "## Contents",
            "## Schedule 1--Collection and recovery of income tax and other liabilities",
            "### Chapter 2--Collection, recovery and administration of income tax",
            "#### Part 25--Pay as you go (PAYG) withholding",
            "##### Division 12--Payments from which amounts must be withheld",
            *sections,
            "##### 1345  Misplaced number",
            "    * Body of a section whose number does not fit its Division.",
        ]
    )
    report = ParseReport("C2015C00245")
    provisions = parse_gitlaw_markdown_text(text, "vol02.md", _compilation("taa1953", "C2015C00245"), report)
    assert [p.number for p in provisions] == [f"sch1-12-{n}" for n in range(35, 95, 5)]
    assert provisions[0].hierarchy[2] == "Part 2-5\u2014Pay as you go (PAYG) withholding"
    assert report.unparsed_count == 1
    assert "cannot be split" in report.examples[0].reason
    assert report.examples[0].line == 7 + len(sections)


def test_empty_section_is_reported_not_returned() -> None:
    text = "\n".join(
        [
            "Fixture-like text written for this test",
            "## Contents",
            "#### Division 20--Amounts that were deductible",
            "##### 20105  Map of this Subdivision",
            "##### The usual case",
            "##### 20110  Disposal of a leased car for profit",
            "    * (1) Your assessable income includes the *profit.",
        ]
    )
    report = ParseReport("C2015C00285")
    provisions = parse_gitlaw_markdown_text(text, "vol01.md", ITAA1997, report)
    assert [p.number for p in provisions] == ["20-110"]
    assert provisions[0].text == "(1) Your assessable income includes the *profit."
    assert report.unparsed_count == 1 and report.examples[0].reason.startswith("empty")


def test_truncated_file_raises_and_compilation_continues(tmp_path: Path) -> None:
    good = FIXTURES / "gitlaw_itaa1997_div328.md"
    (tmp_path / "vol07.md").write_text(_fixture(good.name), encoding="utf-8")
    truncated = "Note: converter warning\n\n# Income Tax Assessment Act 1997\n\n## Contents\n\n"
    (tmp_path / "vol01.md").write_text(truncated + "  * Chapter 1--Intro\t1\n", encoding="utf-8")
    with pytest.raises(CorpusFileError) as caught:
        parse_gitlaw_markdown_text(truncated, "vol01.md", ITAA1997, ParseReport("C2015C00285"))
    assert caught.value.file == "vol01.md" and caught.value.line == 6
    compilation = _compilation("itaa1997", "C2015C00285", ("vol01.md", "vol07.md"))
    report = ParseReport("C2015C00285")
    provisions = parse_gitlaw_markdown(compilation, tmp_path, report)
    assert len(report.errors) == 1 and report.errors[0].startswith("vol01.md:")
    assert "328-110" in {p.number for p in provisions}
    assert report.items_parsed == len(provisions)


def _corpus_file(rel_path: str, act: str, register_id: str) -> list[str]:
    root = _corpus_dir()
    text = (root / rel_path).read_text(encoding="utf-8")
    report = ParseReport(register_id)
    provisions = parse_gitlaw_markdown_text(text, rel_path, _compilation(act, register_id), report)
    assert not report.errors
    return [p.number for p in provisions]


@pytest.mark.corpus
def test_itaa1997_volume_1_has_8_1_and_every_number_hyphenated() -> None:
    root = _corpus_dir()
    rel = "legislation/itaa1997/C2015C00285/vol01.md"
    report = ParseReport("C2015C00285")
    provisions = parse_gitlaw_markdown_text((root / rel).read_text(encoding="utf-8"), rel, ITAA1997, report)
    by_number = {p.number: p for p in provisions}
    assert by_number["8-1"].heading == "General deductions"
    assert by_number["8-1"].hierarchy[-1] == "Division 8\u2014Deductions"
    assert len(provisions) > 300
    assert all("-" in p.number for p in provisions)


@pytest.mark.corpus
def test_itaa1936_keeps_109d() -> None:
    numbers = _corpus_file("legislation/itaa1936/C2015C00300/vol02.md", "itaa1936", "C2015C00300")
    assert "109D" in numbers and all("-" not in n for n in numbers)


@pytest.mark.corpus
def test_gst_has_9_5() -> None:
    numbers = _corpus_file("legislation/gst1999/C2015C00284/vol01.md", "gst1999", "C2015C00284")
    assert "9-5" in numbers and len(numbers) > 700


@pytest.mark.corpus
def test_fbtaa_yields_sections() -> None:
    numbers = _corpus_file("legislation/fbtaa1986/C2015C00287/vol01.md", "fbtaa1986", "C2015C00287")
    assert len(numbers) > 100
