"""parse_endnotes: a compilation's endnotes, located by heading, and truncated volumes."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

from asat_corpus.act import ActRef, Compilation, SourceFormat
from asat_corpus.amendment import AmendmentKind
from asat_corpus.parse_report import ParseReport
from asat_corpus.parsers.endnotes_reader import parse_endnotes

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REPO_ROOT = Path(__file__).resolve().parents[4]


def corpus_dir() -> Path:
    return Path(os.environ.get("ASAT_CORPUS_DIR", str(REPO_ROOT.parent / "shared" / "corpus")))


def _compilation(register_id: str, act: str, files: tuple[str, ...]) -> Compilation:
    return Compilation(
        act=act,
        title=act,
        register_id=register_id,
        number=None,
        compilation_date=None,
        amendments_up_to=None,
        amendments_up_to_text=None,
        format=SourceFormat.REGISTER_PDF_LAYOUT_TEXT,
        files=files,
        partial=None,
        has_endnotes=True,
    )


def test_endnotes_from_fixture_volumes() -> None:
    compilation = _compilation(
        "C2026C00122", "itaa1997", ("endnote3_itaa1997_first_pages.txt", "endnote4_itaa1997_328_110.txt")
    )
    report = ParseReport("C2026C00122")
    endnotes = parse_endnotes(compilation, FIXTURES, report)
    assert endnotes.register_id == "C2026C00122"
    assert endnotes.original is not None
    assert endnotes.original.ref == ActRef(38, 1997)
    assert endnotes.original.assent == date(1997, 4, 17)
    assert any(e.provision == "328-110" and e.kind is AmendmentKind.ADDED for e in endnotes.entries)
    assert report.items_parsed == len(endnotes.acts) + len(endnotes.entries)
    assert report.errors == []


def test_truncated_volume_is_a_file_error_and_other_volumes_still_parse(tmp_path: Path) -> None:
    whole = (FIXTURES / "endnote4_itaa1997_328_110.txt").read_text(encoding="utf-8").split("\n")
    cut = next(i for i, line in enumerate(whole) if "s 328-110" in line) + 2
    (tmp_path / "cut.txt").write_text("\n".join(whole[:cut]), encoding="utf-8")
    (tmp_path / "e3.txt").write_text((FIXTURES / "endnote3_itaa1997_first_pages.txt").read_text(encoding="utf-8"))
    report = ParseReport("C2026C00122")
    endnotes = parse_endnotes(
        _compilation("C2026C00122", "itaa1997", ("e3.txt", "cut.txt", "gone.txt")), tmp_path, report
    )
    assert report.errors[0].startswith(f"cut.txt:{cut}: the file ends part-way through a page of Endnote 4")
    assert report.errors[1].startswith("gone.txt:0: file not found")
    assert endnotes.original is not None and endnotes.original.ref == ActRef(38, 1997)
    assert endnotes.entries == ()


@pytest.mark.corpus
def test_truncated_compilation_fails_alone(tmp_path: Path) -> None:
    gst = "legislation/gst1999/C2026C00081/vol02.txt"
    taa = "legislation/taa1953/C2026C00170/vol04.txt"
    lines = (corpus_dir() / gst).read_text(encoding="utf-8").split("\n")
    cut = next(i for i, line in enumerate(lines) if line.startswith(" s. 2-30 ....")) + 1
    (tmp_path / "gst.txt").write_text("\n".join(lines[:cut]), encoding="utf-8")
    (tmp_path / "taa.txt").symlink_to(corpus_dir() / taa)
    reports = {name: ParseReport(name) for name in ("gst", "taa")}
    gst_notes = parse_endnotes(_compilation("C2026C00081", "gst1999", ("gst.txt",)), tmp_path, reports["gst"])
    taa_notes = parse_endnotes(_compilation("C2026C00170", "taa1953", ("taa.txt",)), tmp_path, reports["taa"])
    assert reports["gst"].errors == [
        f"gst.txt:{cut}: the file ends part-way through a page of Endnote 4 (no page footer after this line): "
        "the volume looks truncated; restore the complete file from the corpus source"
    ]
    assert gst_notes.acts == () and gst_notes.entries == ()
    assert reports["taa"].errors == []
    assert taa_notes.original is not None and taa_notes.original.ref == ActRef(1, 1953)
    assert len(taa_notes.acts) > 400
    assert any(e.provision and e.provision.startswith("sch1-") for e in taa_notes.entries)
