"""Running heads at a page top that wrap their title above the level word (``Schedule 2H``)."""

from __future__ import annotations

from pathlib import Path

from asat_corpus.act import Compilation, SourceFormat
from asat_corpus.parse_report import ParseReport
from asat_corpus.parsers.register_layout import parse_register_layout_text
from asat_corpus.parsers.register_pages import body_lines

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "register_itaa1936_272_140_wrapped_running_head.txt"
FOOTER = [
    "_____________________________________",
    "",
    "                                      Income Tax Assessment Act 1936                             {page}",
    "",
    "Compilation No. 191                                                    Compilation date: 01/04/2026",
    "",
    "                       Authorised Version C2026C00165 registered 22/04/2026",
]
COMPILATION = Compilation(
    act="itaa1936",
    title="Income Tax Assessment Act 1936",
    register_id="C2026C00165",
    number=191,
    compilation_date=None,
    amendments_up_to=None,
    amendments_up_to_text=None,
    format=SourceFormat.REGISTER_PDF_LAYOUT_TEXT,
    files=(),
    partial=None,
    has_endnotes=True,
)


def _volume(body: list[str]) -> str:
    front = ["Income Tax Assessment Act 1936", *[line.format(page="i") for line in FOOTER]]
    return "\n".join([*front, "\f" + body[0], *body[1:], *[line.format(page="175") for line in FOOTER]]) + "\n"


def _fixture_body() -> list[str]:
    lines = FIXTURE.read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("Source: ")
    return lines[1:]


def test_wrapped_running_head_is_not_body_text() -> None:
    body = ["272-140 Definitions", *_fixture_body(), "", "326-1 Object", "               Text."]
    report = ParseReport("C2026C00165")
    sections = {s.number: s for s in parse_register_layout_text(_volume(body), "vol05.txt", COMPILATION, report)}
    assert sections["272-140"].text.splitlines()[-1] == (
        "(b) if the family trust election has been varied—the person most recently specified under "
        "subsection 272-80(5A) or (5C)."
    )
    assert "Demutualisation" not in sections["272-140"].text
    assert sections["326-1"].hierarchy[:2] == (
        "Schedule 2H—Demutualisation of mutual entities other than insurance companies and health insurers",
        "Division 326—Demutualisation",
    )


def test_page_top_body_line_before_an_indented_line_is_kept() -> None:
    body = [
        "  Items covered by this Schedule",
        "                   Schedule 2H of this Act, as amended.",
        "",
        "326-1 Object",
        "               Text.",
    ]
    texts = [line.text.strip() for line in body_lines(_volume(body), "vol05.txt")]
    assert texts[:2] == ["Items covered by this Schedule", "Schedule 2H of this Act, as amended."]
