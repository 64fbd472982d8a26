"""The compilation-file loop both Markdown parsers share: unreadable, binary and repeated input."""

from __future__ import annotations

from pathlib import Path

import pytest

from asat_corpus.act import Compilation, SourceFormat
from asat_corpus.parse_report import CorpusFileError, ParseReport
from asat_corpus.parsers.gitlaw_markdown import parse_gitlaw_markdown_text
from asat_corpus.parsers.markdown_files import parse_compilation_files, reject_nul_bytes

# Heading shapes as in the gitlaw ITAA 1997 volumes (vol01.md, Division 20), written out here.
SECTION = "\n".join(
    [
        "Fixture-like text written for this test",
        "## Contents",
        "#### Division 20--Amounts that were deductible",
        "##### 20110  Disposal of a leased car for profit",
        "    * (1) Your assessable income includes the *profit.",
    ]
)


def _compilation(files: tuple[str, ...]) -> Compilation:
    return Compilation(
        act="itaa1997",
        title="itaa1997",
        register_id="C2015C00285",
        number=None,
        compilation_date=None,
        amendments_up_to=None,
        amendments_up_to_text=None,
        format=SourceFormat.GITLAW_MARKDOWN,
        files=files,
        partial=None,
        has_endnotes=False,
    )


def test_a_nul_byte_is_rejected_with_its_line() -> None:
    with pytest.raises(CorpusFileError) as caught:
        reject_nul_bytes("line one\nline two \x00 here\n", "vol02.md")
    assert caught.value.file == "vol02.md" and caught.value.line == 2
    reject_nul_bytes("plain text\n", "vol02.md")


def test_bad_files_are_reported_and_a_repeated_section_is_kept_once(tmp_path: Path) -> None:
    (tmp_path / "vol01.md").write_text(SECTION, encoding="utf-8")
    (tmp_path / "vol02.md").write_text(SECTION, encoding="utf-8")
    (tmp_path / "vol03.md").write_bytes(b"\xff\xfe not utf-8")
    report = ParseReport("C2015C00285")
    compilation = _compilation(("vol01.md", "vol02.md", "vol03.md", "vol04.md"))
    provisions = parse_compilation_files(compilation, tmp_path, report, parse_gitlaw_markdown_text)
    assert [p.number for p in provisions] == ["20-110"]
    assert [e.split(":", 1)[0] for e in report.errors] == ["vol03.md", "vol04.md"]
    assert any(
        x.reason == "duplicate section number in the compilation" and x.file == "vol02.md" for x in report.examples
    )
