"""parse_endnote4 and provision_id: Endnote 4 entries from page fixtures and one corpus volume."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.act import ActRef
from asat_corpus.amendment import AmendmentKind
from asat_corpus.parse_report import ParseReport
from asat_corpus.parsers.endnote4 import parse_endnote4, provision_id, read_how_affected

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REPO_ROOT = Path(__file__).resolve().parents[4]
EXPECTED_328_110 = [
    (AmendmentKind.ADDED, ActRef(78, 2001)),
    (AmendmentKind.REPEALED, ActRef(41, 2005)),
    (AmendmentKind.ADDED, ActRef(80, 2007)),
    *[
        (AmendmentKind.AMENDED, ActRef(n, y))
        for n, y in [(42, 2009), (41, 2011), (36, 2012), (37, 2012), (41, 2017), (92, 2020), (40, 2023)]
    ],
]


def corpus_dir() -> Path:
    return Path(os.environ.get("ASAT_CORPUS_DIR", str(REPO_ROOT.parent / "shared" / "corpus")))


def test_provision_id_forms() -> None:
    assert provision_id("s 328-110", None) == "328-110"
    assert provision_id("s. 109D", None) == "109D"
    assert provision_id("s 12-35", "1") == "sch1-12-35"
    assert provision_id("s 995-1 (cont. below)", None) == "995-1"
    assert provision_id("Subdivision 328-C heading", None) is None
    assert provision_id("Division 328", None) is None
    assert provision_id("Link note to s. 4-15", None) is None


def test_328_110_across_page_break() -> None:
    report = ParseReport("C2026C00122")
    text = (FIXTURES / "endnote4_itaa1997_328_110.txt").read_text(encoding="utf-8")
    entries = parse_endnote4(text, "vol12.txt", "itaa1997", report)
    assert [(e.kind, e.act) for e in entries if e.provision == "328-110"] == EXPECTED_328_110
    # s. 328-100's "rep" sits on the next page, under the repeated column header
    assert [(e.kind, e.act) for e in entries if e.provision == "328-100"] == [
        (AmendmentKind.ADDED, ActRef(78, 2001)),
        (AmendmentKind.REPEALED, ActRef(41, 2005)),
    ]
    heading = [e for e in entries if e.target == "Subdivision 328-D heading"]
    assert [(e.provision, e.kind, e.act) for e in heading] == [
        (None, AmendmentKind.REPEALED_AND_SUBSTITUTED, ActRef(80, 2007))
    ]
    assert report.items_parsed == len(entries)
    assert report.unparsed_count == 0


def test_taa_schedule_1_rows_get_sch1_ids() -> None:
    report = ParseReport("C2026C00170")
    text = (FIXTURES / "endnote4_taa1953_schedule1.txt").read_text(encoding="utf-8")
    entries = parse_endnote4(text, "vol04.txt", "taa1953", report)
    ids = {e.provision for e in entries if e.provision}
    assert "66" in ids  # main body section before the Schedule 1 heading
    assert {"sch1-6-1", "sch1-10-5", "sch1-12-5"} <= ids
    assert "sch1-66" not in ids


def test_how_affected_annotations() -> None:
    report = ParseReport("x")
    pairs = read_how_affected(
        "am No 4, 1945; No 216, 1973 (as am by No 20, 1974); No 5, 1980 (md not incorp); Nos. 46, 91 and 128, 1998 rep No 1, 2000 ed C158",
        "f",
        1,
        report,
    )
    assert pairs == [
        (AmendmentKind.AMENDED, ActRef(4, 1945)),
        (AmendmentKind.AMENDED, ActRef(216, 1973)),
        (AmendmentKind.AMENDED, ActRef(46, 1998)),
        (AmendmentKind.AMENDED, ActRef(91, 1998)),
        (AmendmentKind.AMENDED, ActRef(128, 1998)),
        (AmendmentKind.REPEALED, ActRef(1, 2000)),
    ]
    reasons = [u.reason for u in report.examples]
    assert any("md not incorp" in r for r in reasons)
    assert any("editorial" in r for r in reasons)
    assert report.unparsed_count == 2


def test_unknown_kind_is_other_and_noted() -> None:
    report = ParseReport("x")
    assert read_how_affected("mod No 3, 2001", "f", 7, report) == [(AmendmentKind.OTHER, ActRef(3, 2001))]
    assert report.examples[0].reason == "Endnote 4 kind 'mod' recorded as OTHER"
    assert report.unparsed_count == 0


_REFS = st.lists(
    st.tuples(st.integers(min_value=1, max_value=250), st.integers(min_value=1901, max_value=2026)),
    min_size=1,
    max_size=12,
)


@given(_REFS, st.lists(st.integers(min_value=0, max_value=10_000), max_size=6), st.booleans())
def test_row_continuation_with_arbitrary_wraps(
    refs: list[tuple[int, int]], cut_seeds: list[int], old_style: bool
) -> None:
    no = "No." if old_style else "No"
    how = f"am{'.' if old_style else ''} " + "; ".join(f"{no} {n}, {y}" for n, y in refs)
    spaces = [i for i, char in enumerate(how) if char == " "]
    cuts = sorted({spaces[seed % len(spaces)] for seed in cut_seeds})
    pieces, start = [], 0
    for cut in cuts:
        pieces.append(how[start:cut])
        start = cut + 1
    pieces.append(how[start:])
    lines = [
        "\fEndnotes",
        "Endnote 4—Amendment history",
        " Provision affected                                       How affected",
        " Division 328",
        f" s 328-110 ........................................   {pieces[0]}",
        *[" " * 55 + piece for piece in pieces[1:]],
        "                        Income Tax Assessment Act 1997                        245",
        "Compilation No. 263                                   Compilation date: 01/04/2026",
        "",
    ]
    report = ParseReport("x")
    entries = parse_endnote4("\n".join(lines), "f", "itaa1997", report)
    assert [(e.provision, e.kind, e.act) for e in entries] == [
        ("328-110", AmendmentKind.AMENDED, ActRef(n, y)) for n, y in refs
    ]
    assert report.unparsed_count == 0


@pytest.mark.corpus
def test_itaa1997_volume_12_endnote4() -> None:
    rel_path = "legislation/itaa1997/C2026C00122/vol12.txt"
    report = ParseReport("C2026C00122")
    entries = parse_endnote4((corpus_dir() / rel_path).read_text(encoding="utf-8"), rel_path, "itaa1997", report)
    assert [(e.kind, e.act) for e in entries if e.provision == "328-110"] == EXPECTED_328_110
    assert len(entries) > 14_000
    assert report.unparsed_count < 40
