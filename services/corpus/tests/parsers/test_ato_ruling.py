"""The ATO rulings parser: citations, fixture and corpus rulings, malformed files."""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from asat_corpus.parse_report import CorpusFileError, ParseReport
from asat_corpus.parsers.ato_ruling import RULING_TYPES, parse_ruling_text, parse_rulings, ruling_id

REPO_ROOT = Path(__file__).resolve().parents[4]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _corpus() -> Path:
    root = Path(os.environ.get("ASAT_CORPUS_DIR", str(REPO_ROOT.parent / "shared" / "corpus")))
    if not (root / "rulings").is_dir():
        pytest.skip(f"corpus not found at {root}: set ASAT_CORPUS_DIR")
    return root


def _parse_corpus_file(rel_path: str) -> tuple[object, ParseReport]:
    root = _corpus()
    path = root / rel_path
    meta_path = path.with_name(path.name + ".meta.json")
    meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else None
    report = ParseReport("rulings")
    return parse_ruling_text(path.read_text(encoding="utf-8"), rel_path, meta, report), report


def _paragraph(ruling: object, number: str) -> str:
    from asat_corpus.ruling import Ruling

    assert isinstance(ruling, Ruling)
    found = [p for p in ruling.paragraphs if p.number == number]
    assert found, f"no paragraph {number} in {ruling.id}"
    return ruling.text[found[0].start : found[0].end]


@pytest.mark.parametrize(
    ("doc_type", "year", "number", "expected"),
    [
        ("TR", 2020, "1", "TR 2020/1"),
        ("TR", 1998, "9", "TR 98/9"),
        ("TR", 98, "9", "TR 98/9"),
        ("GSTR", 1999, "1", "GSTR 1999/1"),
        ("PSLA", 2011, "27", "PS LA 2011/27"),
        ("AID", 2010, "1", "ATO ID 2010/1"),
        ("LCG", 2019, "1", "LCR 2019/1"),
        ("IT", 1975, "100", "IT 100"),
        ("SGR", 2009, "2", "SGR 2009/2"),
    ],
)
def test_ruling_id_is_the_ato_citation(doc_type: str, year: int, number: str, expected: str) -> None:
    assert ruling_id(doc_type, year, number) == expected


def test_hard_wrapped_withdrawn_it_ruling_from_fixture() -> None:
    lines = (FIXTURES / "ato_it_100_excerpt.txt").read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("# source:")
    report = ParseReport("rulings")
    ruling = parse_ruling_text("\n".join(lines[1:]), "rulings/IT/IT_100.txt", None, report)
    assert ruling.id == "IT 100"
    assert ruling.year == 1975
    assert ruling.title.startswith("Income tax: Australia/United Kingdom Double Tax Agreement Article 16")
    assert ruling.status == "withdrawn"  # "(Withdrawn)" in the page title, no meta
    assert ruling.issue_date == date(1975, 5, 29)
    assert "Legal database" not in ruling.text and "Back to browse" not in ruling.text
    # paragraph 5 was hard-wrapped over ten lines: it is one line now
    five = _paragraph(ruling, "5")
    assert five.startswith("It has been decided, therefore, that, in cases coming under notice where")
    assert five.endswith("on the whole of their Australian remuneration.")
    assert "\n" not in five
    assert [p.number for p in ruling.paragraphs] == ["5", "6"]
    assert "Commissioner of Taxation" not in _paragraph(ruling, "6")  # the last paragraph


@pytest.mark.corpus
def test_tr_2020_1_title_status_date_and_paragraph_1() -> None:
    ruling, report = _parse_corpus_file("rulings/TR/TR_2020_1.txt")
    from asat_corpus.ruling import Ruling

    assert isinstance(ruling, Ruling)
    assert ruling.id == "TR 2020/1"
    assert ruling.title == (
        "Income tax: employees: deductions for work expenses under section 8-1 of the Income Tax Assessment Act 1997"
    )
    assert ruling.status == "current"
    assert ruling.issue_date == date(2020, 4, 1)
    assert ruling.withdrawn_date is None
    assert _paragraph(ruling, "1").startswith(
        "This Ruling sets out when an employee can deduct a work expense[1] under section 8-1 of the "
        "Income Tax Assessment Act 1997.[2] For the purposes of this Ruling, 'work expense' means"
    )
    numbers = [p.number for p in ruling.paragraphs]
    assert numbers[:3] == ["1", "2", "3"] and "61" in numbers and "62" in numbers
    assert "Please note that the PDF version" not in ruling.text
    assert report.errors == []


@pytest.mark.corpus
def test_withdrawn_gstr_notice_gives_withdrawn_date_and_original_issue_date() -> None:
    ruling, _ = _parse_corpus_file("rulings/GSTR/GSTR_2000_1.txt")
    from asat_corpus.ruling import Ruling

    assert isinstance(ruling, Ruling)
    assert ruling.id == "GSTR 2000/1"
    assert ruling.status == "withdrawn"
    assert ruling.withdrawn_date == date(2013, 8, 21)
    assert ruling.issue_date == date(2000, 3, 22)  # "Original ruling" row of the history table
    assert ruling.title == "Goods and services tax: adjustment notes"
    assert _paragraph(ruling, "1").startswith("Goods and Services Tax Ruling GSTR 2000/1 sets out")


@pytest.mark.corpus
def test_ato_id_sections_status_and_dates() -> None:
    ruling, _ = _parse_corpus_file("rulings/AID/AID_2010_1.txt")
    from asat_corpus.ruling import Ruling

    assert isinstance(ruling, Ruling)
    assert ruling.id == "ATO ID 2010/1"
    assert ruling.title.startswith("Definition of child for purposes of section 295-485")
    assert ruling.status == "withdrawn"  # "This ATO ID is withdrawn because ..."; no meta
    assert ruling.issue_date == date(2010, 1, 8)  # Date of publication
    assert ruling.withdrawn_date == date(2019, 8, 9)  # the history row "Archived"
    assert [p.number for p in ruling.paragraphs] == ["issue", "decision", "facts", "reasons for decision"]
    assert _paragraph(ruling, "decision").startswith("Yes. A reference to 'child'")
    assert "(the tax saving amount) so that" in _paragraph(ruling, "reasons for decision")


def _write(root: Path, rel: str, content: bytes) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)


def test_malformed_files_fail_with_file_and_line_and_the_walk_carries_on(tmp_path: Path) -> None:
    good = (FIXTURES / "ato_it_100_excerpt.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    _write(tmp_path, "rulings/IT/IT_100.txt", good.encode())
    _write(tmp_path, "rulings/IT/IT_101.txt", b"")
    _write(tmp_path, "rulings/IT/IT_102.txt", bytes(range(256)) * 20)
    truncated = "\n".join(good.split("\n")[:9])  # navigation chrome only, cut before the citation
    _write(tmp_path, "rulings/TR/TR_2020_9.txt", truncated.encode())
    title_only = "\n".join(good.split("\n")[:12])  # cut right after the title
    _write(tmp_path, "rulings/TR/TR_2020_8.txt", title_only.encode())

    report = ParseReport("rulings")
    rulings = parse_rulings(tmp_path, report)

    assert [r.id for r in rulings] == ["IT 100"]
    assert len(report.errors) == 4
    joined = "\n".join(report.errors)
    assert "rulings/IT/IT_101.txt:1: empty file" in joined
    assert "rulings/IT/IT_102.txt:1: binary" in joined
    assert "rulings/TR/TR_2020_9.txt:9: no ATO citation line" in joined
    assert "rulings/TR/TR_2020_8.txt:12: the page ends after its title" in joined


def test_parse_ruling_text_raises_corpus_file_error() -> None:
    with pytest.raises(CorpusFileError) as caught:
        parse_ruling_text("   \n\n", "rulings/TR/TR_2020_1.txt", None, ParseReport("rulings"))
    assert caught.value.file == "rulings/TR/TR_2020_1.txt" and caught.value.line == 1


@pytest.mark.corpus
@pytest.mark.slow
def test_every_ruling_file_parses() -> None:
    root = _corpus()
    began = time.perf_counter()
    report = ParseReport("rulings")
    rulings = parse_rulings(root, report)
    elapsed = time.perf_counter() - began
    files = sum(1 for kind in RULING_TYPES for _ in (root / "rulings" / kind).glob("*.txt"))
    assert len(rulings) + len(report.errors) == files
    assert all("empty file" in error for error in report.errors), report.errors
    dated = Counter(r.doc_type for r in rulings if r.issue_date is not None)
    parsed = Counter(r.doc_type for r in rulings)
    non_aid = sum(v for k, v in parsed.items() if k != "AID")
    assert sum(v for k, v in dated.items() if k != "AID") >= 0.95 * non_aid
    assert all(r.status and r.status == r.status.lower() for r in rulings)
    # AID_2005_322.txt holds the page of ATO ID 2005/323 (a corpus defect, reported on parse)
    repeated = {k for k, v in Counter(r.id for r in rulings).items() if v > 1}
    assert repeated <= {"ATO ID 2005/323"}
    print(f"parsed {len(rulings)} of {files} in {elapsed:.1f}s; failed: {report.errors}")


@pytest.mark.corpus
def test_file_holding_another_rulings_page_is_reported() -> None:
    ruling, report = _parse_corpus_file("rulings/AID/AID_2005_322.txt")
    from asat_corpus.ruling import Ruling

    assert isinstance(ruling, Ruling)
    assert ruling.id == "ATO ID 2005/323"
    assert [u.reason for u in report.examples if "the page cites ATO ID 2005/323" in u.reason]
    assert [p.number for p in ruling.paragraphs] == ["issue", "decision", "facts", "reasons for decision"]
