"""parse_endnote3: Endnote 3 rows from committed page fixtures and one corpus volume."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

from asat_corpus.act import ActRef
from asat_corpus.parse_report import ParseReport
from asat_corpus.parsers.endnote3 import join_wrapped, parse_endnote3

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REPO_ROOT = Path(__file__).resolve().parents[4]


def corpus_dir() -> Path:
    return Path(os.environ.get("ASAT_CORPUS_DIR", str(REPO_ROOT.parent / "shared" / "corpus")))


def test_first_pages_rows_and_as_amended_by() -> None:
    report = ParseReport("C2026C00122")
    text = (FIXTURES / "endnote3_itaa1997_first_pages.txt").read_text(encoding="utf-8")
    acts = parse_endnote3(text, "vol11.txt", "itaa1997", report)
    refs = [(a.ref.number, a.ref.year, a.amends_amending_act) for a in acts]
    assert refs[:6] == [
        (38, 1997, False),
        (56, 1997, False),
        (95, 1997, False),
        (41, 1998, True),
        (75, 2010, True),
        (121, 1997, False),
    ]
    # the "as amended by" at the top of the next page still marks the indented row
    assert (57, 2002, True) in refs
    assert (134, 1997, False) in refs
    original = acts[0]
    assert original.title == "Income Tax Assessment Act 1997"
    assert original.assent == date(1997, 4, 17)
    assert original.commencement.dates == (date(1997, 7, 1),)
    assert original.source_line == 9
    taxation_laws = next(a for a in acts if a.ref == ActRef(95, 1997))
    assert taxation_laws.title == "Taxation Laws Amendment Act (No. 2) 1997"
    assert taxation_laws.commencement.text == "s 4 and Sch 3 (items 15–18): 30 June 1997 (s 2(1))"
    assert report.items_parsed == len(acts)
    assert report.unparsed_count == 0


def test_enterprise_tax_plan_row() -> None:
    report = ParseReport("C2026C00122")
    text = (FIXTURES / "endnote3_itaa1997_enterprise_tax_plan.txt").read_text(encoding="utf-8")
    acts = parse_endnote3(text, "vol11.txt", "itaa1997", report)
    row = next(a for a in acts if a.ref == ActRef(41, 2017))
    assert row.title == "Treasury Laws Amendment (Enterprise Tax Plan) Act 2017"
    assert row.assent == date(2017, 5, 19)
    assert {date(2016, 7, 1), date(2017, 5, 19)} <= set(row.commencement.dates)
    assert row.commencement.confident  # the part repealed before commencing changed nothing


def test_join_wrapped_keeps_ranges_and_words() -> None:
    assert join_wrapped(["Sch 3 (items 15–", "18): 30 June", "1997"]) == "Sch 3 (items 15–18): 30 June 1997"
    assert join_wrapped(["My Health Record—", "Sharing by Default) Act"]) == "My Health Record—Sharing by Default) Act"


@pytest.mark.corpus
def test_itaa1997_volume_11_endnote3() -> None:
    rel_path = "legislation/itaa1997/C2026C00122/vol11.txt"
    report = ParseReport("C2026C00122")
    acts = parse_endnote3((corpus_dir() / rel_path).read_text(encoding="utf-8"), rel_path, "itaa1997", report)
    assert acts[0].ref == ActRef(38, 1997)
    row = next(a for a in acts if a.ref == ActRef(41, 2017))
    assert row.assent == date(2017, 5, 19)
    assert {date(2016, 7, 1), date(2017, 5, 19)} <= set(row.commencement.dates)
    assert all(a.assent is not None for a in acts)
    assert len(acts) > 600
    assert report.unparsed_count == 1  # the one legislative instrument row, reported
    assert report.examples[0].reason.startswith("legislative instrument")
