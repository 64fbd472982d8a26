"""Splitting one ATO page dump into its citation, title and body, without the chrome.

Three layouts occur in the corpus:

``legal-database``
    An ATO Legal database web page: an optional ``HEAD NOTE`` block (a third party's summary
    between two ``====`` rules), the page title line (``IT 100 (Withdrawn) | Legal database``),
    navigation chrome (``Legal database``, ``Contents``, ``Download``, ``Email``, ``Print``,
    ``Back to browse``, ``N related documents``), the document kind (``Taxation Ruling``), the
    citation (``TR 2020/1``; a withdrawal notice carries a trailing ``W``), the title, the body,
    and at the foot the version history table and ``Back to top``.
``ato-id``
    An ATO Interpretative Decision: ``ATO Interpretative Decision`` / ``ATO ID 2010/1`` / a rule
    of ``=``, the subject area, the title, the body, its metadata block (``Date of decision:`` ...)
    and the history table. Two files hold the whole page on one line; they are split before the
    known element labels, and their title keeps the subject area in front (``Income tax Foreign
    exchange ...``): nothing marks where one ends.
``pdf-cover``
    The authorised PDF rendered to text: a cover sheet (``TR 2023/1 - <title>`` ... ``Generated
    on: ...``), then hard-wrapped pages whose running heads (``Taxation Ruling`` / ``TR 2023/1`` /
    ``Status: legally binding`` / ``Page 2 of 28``) are dropped.

The body keeps everything the document says (including its references and, for ATO IDs, the
metadata block); only the page furniture above, the history table, the copyright notice and the
Legal database's own notes (``Please note that the PDF version is the authorised ...``,
``This document incorporates revisions ...``) are removed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from asat_corpus.parse_report import CorpusFileError
from asat_corpus.parsers.ato_history import find_history
from asat_corpus.parsers.ato_lines import join_fragments, looks_hard_wrapped, should_join, source_lines

LEGAL_DATABASE = "legal-database"
ATO_ID = "ato-id"
PDF_COVER = "pdf-cover"

CITATION = re.compile(
    r"^(?P<prefix>TR|TD|GSTR|PCG|LCR|LCG|TA|IT|MT|PS LA|SGR|ATO ID)\s+"
    r"(?:(?P<year>\d{2}|\d{4})/(?P<number>D?\d+)|(?P<it_number>\d+))(?P<suffix>[A-Z]{0,3}\d?)"
    r"(?:\s+(?P<note>\(.+\)|- .+))?$"
)
_HEAD_NOTE = "HEAD NOTE"
_RULE = re.compile(r"^={10,}$")
_NAVIGATION = re.compile(
    r"^(Legal database|Contents|Download|Email|Print|Back to browse|\d+ related documents?)$"
    r"|\| Legal database$"
)
_PAGE_TITLE = re.compile(r"\| Legal database$")
_HEADER_SEARCH = 80
_DATABASE_NOTES = (
    "Please note that the PDF version is the authorised",
    "This document incorporates revisions made since original publication",
)
_COPYRIGHT = re.compile(
    r"^(©|Copyright notice|AUSTRALIAN TAXATION OFFICE FOR THE COMMONWEALTH OF AUSTRALIA$"
    r"|You are free to copy, adapt, modify, transmit and distribute)|^\$\('",
    re.IGNORECASE,
)
_END = re.compile(r"^(Back to top)$")
_PDF_COVER_END = re.compile(r"^Generated on:")
_PDF_PAGE = re.compile(r"^Page \d+ of \d+$")
_PDF_STATUS = re.compile(r"^Status:\s*(.+)$")
_AID_LABELS = re.compile(
    r"(?<!Reasons for)\s(?=(ATO ID \d+/\d+|FOI status:|This ATO ID|This document incorporates|CAUTION:|Issue |"
    r"Decision |Facts |Reasons for Decision |Amendment History |Date of decision:|Year of income:|"
    r"Legislative References:|Other References:|Related ATO Interpretative Decisions |Keywords |"
    r"Siebel/TDMS|Business Line:|Date of publication:|Date reviewed:|ISSN:|history ))"
)


_AID_SECTION_HEADS = re.compile(r"^(Issue|Decision|Facts|Reasons for Decision) ", re.MULTILINE)
_AID_CITATION = re.compile(r"^(ATO ID \d+/\d+(?: \(Withdrawn\))?) ", re.MULTILINE)


@dataclass(frozen=True)
class Page:
    layout: str
    citation: str  # as printed, e.g. "TD 2019/1W", "LCR 2017/D2", "IT 100", "ATO ID 2010/1"
    citation_line: int  # 1-based line number in the file
    title: str
    body: tuple[str, ...]  # one paragraph per line, chrome removed
    lines: tuple[str, ...]  # every cleaned source line (blank ones kept), for dates and status
    page_title: str | None  # "IT 100 (Withdrawn) | Legal database"
    pdf_status: str | None  # "legally binding" from a PDF running head


def _skip_head_note(lines: Sequence[str]) -> int:
    first = next((i for i, line in enumerate(lines) if line), len(lines))
    if first >= len(lines) or lines[first] != _HEAD_NOTE:
        return first
    rules = [i for i, line in enumerate(lines) if _RULE.match(line)]
    return rules[1] + 1 if len(rules) >= 2 else first + 1


def _find_citation(lines: Sequence[str], start: int, file: str) -> int:
    for index in range(start, min(len(lines), start + _HEADER_SEARCH)):
        if CITATION.match(lines[index]) and not _PAGE_TITLE.search(lines[index]):
            return index
    last = min(len(lines), start + _HEADER_SEARCH)
    raise CorpusFileError(
        file,
        max(last, 1),
        "no ATO citation line (e.g. 'TR 2020/1') near the top: the file is truncated or is not an "
        "ATO Legal database page; re-fetch it or remove it from the corpus",
    )


def _title_after(lines: Sequence[str], index: int) -> tuple[str, int]:
    """The title starting at ``lines[index]`` (continuation lines joined) and the next index."""
    while index < len(lines) and not lines[index]:
        index += 1
    if index >= len(lines):
        return "", index
    title = lines[index]
    index += 1
    while index < len(lines) and lines[index] and should_join(title, lines[index], False):
        title = f"{title}{'' if lines[index][0] in ',.;:?)' else ' '}{lines[index]}"
        index += 1
    return title, index


def _body_end(lines: Sequence[str], start: int) -> int:
    history = find_history(lines)
    end = history.start_line if history is not None and history.start_line >= start else len(lines)
    for index in range(start, end):
        if _END.match(lines[index]):
            return index
    return end


def _clean_body(lines: Sequence[str], hard_wrapped: bool) -> tuple[str, ...]:
    kept = [line for line in lines if not _COPYRIGHT.match(line)]
    joined = join_fragments(kept, hard_wrapped)
    return tuple(line for line in joined if not line.startswith(_DATABASE_NOTES))


def _require_body(body: tuple[str, ...], file: str, line: int) -> None:
    if not body:
        raise CorpusFileError(
            file,
            line,
            "the page ends after its title: no ruling body (truncated file?); re-fetch the document",
        )


def _database_page(lines: list[str], file: str) -> Page:
    start = _skip_head_note(lines)
    page_title = next((line for line in lines[start:] if _PAGE_TITLE.search(line)), None)
    cite_at = _find_citation(lines, start, file)
    title, after = _title_after(lines, cite_at + 1)
    if title.upper() == "SUBJECT:":  # Practice Statements: "SUBJECT:" then the title
        title, after = _title_after(lines, after)
    end = _body_end(lines, after)
    body = _clean_body(lines[after:end], hard_wrapped=looks_hard_wrapped(lines[after:end]))
    _require_body(body, file, end)
    return Page(LEGAL_DATABASE, lines[cite_at], cite_at + 1, title, body, tuple(lines), page_title, None)


def _ato_id_page(lines: list[str], file: str) -> Page:
    one_line = sum(1 for line in lines if line) < 5
    if one_line:
        split = "\n".join(_AID_LABELS.sub("\n", line) for line in lines)
        split = _AID_SECTION_HEADS.sub(r"\n\1\n", split)
        lines = source_lines(_AID_CITATION.sub(r"\1\n\n", split))
    cite_at = _find_citation(lines, 0, file)
    index = cite_at + 1
    while index < len(lines) and (not lines[index] or _RULE.match(lines[index])):
        index += 1
    # the subject area ("Income Tax"), then the title; a one-line page runs the two together
    if not one_line:
        _area, index = _title_after(lines, index)
    title, after = _title_after(lines, index)
    end = _body_end(lines, after)
    body = _clean_body(lines[after:end], hard_wrapped=False)
    _require_body(body, file, end)
    return Page(ATO_ID, lines[cite_at], cite_at + 1, title, body, tuple(lines), None, None)


def _pdf_page(lines: list[str], file: str) -> Page:
    cover_end = next((i for i, line in enumerate(lines) if _PDF_COVER_END.match(line)), None)
    if cover_end is None:
        raise CorpusFileError(file, len(lines), "PDF cover sheet without its 'Generated on:' line")
    cover = []
    for line in lines:
        if line.startswith("This cover sheet"):
            break
        cover.append(line)
    heading = " ".join(cover)
    citation, _, title = heading.partition(" - ")
    cite_at = next((i for i in range(cover_end, len(lines)) if CITATION.match(lines[i])), None)
    if cite_at is None or not CITATION.match(citation.strip()):
        raise CorpusFileError(file, cover_end + 1, "PDF rendition without a citation in its running head")
    kind = lines[cite_at - 1]
    furniture = {kind, lines[cite_at], f"{kind} {lines[cite_at]}", title.strip()}
    pdf_status = None
    body_lines: list[str] = []
    for line in lines[cover_end + 1 :]:
        status = _PDF_STATUS.match(line)
        if status is not None:
            pdf_status = pdf_status or status.group(1).strip()
            continue
        if line in furniture or _PDF_PAGE.match(line):
            continue
        body_lines.append(line)
    body = _clean_body(body_lines, hard_wrapped=True)
    _require_body(body, file, len(lines))
    return Page(PDF_COVER, citation.strip(), cite_at + 1, title.strip(), body, tuple(lines), None, pdf_status)


def split_page(text: str, file: str) -> Page:
    """The citation, title and body of one page; raises ``CorpusFileError`` if it has none."""
    lines = source_lines(text)
    first = next((line for line in lines if line), "")
    if first.startswith("ATO Interpretative Decision"):
        return _ato_id_page(lines, file)
    if any(line.startswith("This cover sheet is provided for information only") for line in lines[:12]):
        return _pdf_page(lines, file)
    return _database_page(lines, file)
