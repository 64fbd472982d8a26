"""Endnote 3 (legislation history): one :class:`AmendingAct` per row of the Acts table.

Columns are ``Act | Number and year | Assent | Commencement | Application, saving and
transitional provisions``. Each page repeats the column header, and the columns sit at
different positions on different pages (sometimes twice on one page), so every header line
sets the column positions for the lines below it. A row starts on the line whose Number cell
reads ``41, 2017``; its cells wrap over the following lines, and over a page break, until the
next row starts. Rows indented under an ``as amended by`` line are Acts that amended an
amending Act (``amends_amending_act=True``). The legislative instruments table (``Name |
Registration | ...``) lists no Acts; its rows are reported as skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from asat_corpus.act import ActRef
from asat_corpus.amendment import AmendingAct
from asat_corpus.parse_report import ParseReport
from asat_corpus.parsers.commencement import parse_commencement, parse_date
from asat_corpus.parsers.endnote_pages import PageLine, endnote_pages

ENDNOTE = 3
_ACTS_HEADER = re.compile(r"^\s*Act\s{2,}Number\s{2,}Assent\s{2,}Commencement\s{2,}Application")
_INSTRUMENTS_HEADER = re.compile(r"^\s*Name\s{2,}Registration\s{2,}Commencement")
_HEADER_WORDS = re.compile(r"^(?:\(Register ID\)|and year|saving and|transitional|provisions|\s)+$")
_NUMBER = re.compile(r"^(\d+),\s*(\d{4})$")
_AS_AMENDED_BY = re.compile(r"^as amended by$", re.IGNORECASE)
_REGISTER_ID = re.compile(r"\s*\(C\d{4}A\d{5}\)\s*$")
_INSTRUMENT_ROW = re.compile(r"^\d{1,2} \w+ \d{4}$|^\d{1,2} \w+$")
_WRAP_JOINERS = ("–", "—", "-")
_HEADER_COLUMNS = ("Act", "Number", "Assent", "Commencement", "Application")


def join_wrapped(parts: list[str]) -> str:
    """Join a cell's wrapped lines: with a space, or none after a dash that broke a range."""
    out = ""
    for part in (p.strip() for p in parts):
        if not part:
            continue
        if out and not out.endswith(_WRAP_JOINERS):
            out += " "
        out += part
    return out


@dataclass
class _Row:
    line: int
    indent: int
    act_indent: int
    number: ActRef
    cells: list[list[str]] = field(default_factory=lambda: [[], [], [], [], []])


def _cells(text: str, columns: list[int]) -> list[str]:
    bounds = [*columns[1:], max(len(text), columns[-1]) + 1]
    cells = [text[: bounds[0]]]
    cells.extend(text[start:end] for start, end in zip(columns[1:], bounds[1:], strict=True))
    return [cell.strip() for cell in cells]


def _finish(row: _Row, rel_path: str, compiled_act: str, report: ParseReport) -> AmendingAct:
    title = _REGISTER_ID.sub("", join_wrapped(row.cells[0]))
    assent_text = join_wrapped(row.cells[2])
    assent = parse_date(assent_text)
    if assent is None:
        report.skip(rel_path, row.line, "Endnote 3 assent is not a date; row kept with assent=None", assent_text)
    commencement = parse_commencement(join_wrapped(row.cells[3]), assent)
    return AmendingAct(
        compiled_act=compiled_act,
        ref=row.number,
        title=title,
        assent=assent,
        commencement=commencement,
        source_file=rel_path,
        source_line=row.line,
        amends_amending_act=row.indent > row.act_indent + 1,
    )


def parse_endnote3(text: str, rel_path: str, compiled_act: str, report: ParseReport) -> list[AmendingAct]:
    """Every Endnote 3 row found in ``text`` (one whole volume), in table order.

    Pages of other endnotes are ignored. Raises :class:`CorpusFileError` when the volume ends
    part-way through an endnote page.
    """
    acts: list[AmendingAct] = []
    row: _Row | None = None
    columns: list[int] | None = None
    in_instruments = False
    for page in endnote_pages(text, rel_path):
        if page.endnote != ENDNOTE:
            continue
        skipping_header = False
        for line in page.lines:
            if _ACTS_HEADER.match(line.text):
                columns = [line.text.index(word) for word in _HEADER_COLUMNS]
                in_instruments, skipping_header = False, True
                continue
            if _INSTRUMENTS_HEADER.match(line.text):
                in_instruments, skipping_header = True, True
                if row is not None:
                    acts.append(_finish(row, rel_path, compiled_act, report))
                    row = None
                continue
            if skipping_header and _HEADER_WORDS.match(line.text):
                continue
            skipping_header = False
            if in_instruments:
                _skip_instrument(line, rel_path, report)
                continue
            if columns is None:
                report.skip(rel_path, line.number, "Endnote 3 line before any column header", line.text)
                continue
            row = _take_line(line, columns, row, acts, rel_path, compiled_act, report)
    if row is not None:
        acts.append(_finish(row, rel_path, compiled_act, report))
    report.items_parsed += len(acts)
    return acts


def _skip_instrument(line: PageLine, rel_path: str, report: ParseReport) -> None:
    segments = re.split(r"\s{2,}", line.text.strip())
    if len(segments) > 1 and _INSTRUMENT_ROW.match(segments[1]):
        report.skip(rel_path, line.number, "legislative instrument in Endnote 3 (not an Act)", line.text)


def _take_line(
    line: PageLine,
    columns: list[int],
    row: _Row | None,
    acts: list[AmendingAct],
    rel_path: str,
    compiled_act: str,
    report: ParseReport,
) -> _Row | None:
    cells = _cells(line.text, columns)
    if _AS_AMENDED_BY.match(cells[0]) and not any(cells[1:]):
        return row
    number = _NUMBER.match(cells[1])
    if number:
        if row is not None:
            acts.append(_finish(row, rel_path, compiled_act, report))
        indent = len(line.text) - len(line.text.lstrip())
        row = _Row(
            line=line.number,
            indent=indent,
            act_indent=columns[0],
            number=ActRef(int(number.group(1)), int(number.group(2))),
        )
    elif row is None:
        report.skip(rel_path, line.number, "Endnote 3 text before the first row (no Act number)", line.text)
        return None
    elif cells[1]:
        report.skip(rel_path, line.number, "Endnote 3 Number cell is not 'N, YYYY'", line.text)
    for index, cell in enumerate(cells):
        if cell and not (number and index == 1):
            row.cells[index].append(cell)
    return row
