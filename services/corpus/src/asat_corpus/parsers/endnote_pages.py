"""Pages of a register-pdf-layout-text volume, with page furniture stripped, by endnote.

A volume is a run of pages separated by form feeds. Each page carries furniture: running heads
(``Endnotes``, ``Endnote 4—Amendment history``), a footer with the page number and the Act's
title, ``Compilation No. ... Compilation date: ...`` and ``Authorised Version ... registered
...``. :func:`endnote_pages` removes that furniture and says which endnote each page belongs to,
keeping every remaining line's 1-based line number in the file so parsers can report it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from asat_corpus.parse_report import CorpusFileError

_FORM_FEED = "\f"
_RUNNING_HEAD = re.compile(r"^\s*Endnotes\s*$")
_ENDNOTE_HEAD = re.compile(r"^\s*Endnote (\d+)—[^\d]*$")
_COMPILATION_FOOTER = re.compile(r"^\s*Compilation No\. \d+\s+Compilation date:")
_AUTHORISED = re.compile(r"^\s*Authorised Version \S+ registered ")


@dataclass(frozen=True)
class PageLine:
    """One body line of a page: its 1-based line number in the file and its text as laid out."""

    number: int
    text: str


@dataclass(frozen=True)
class EndnotePage:
    """One page: the endnote it belongs to (``None`` when it has no endnote running head)."""

    endnote: int | None
    lines: tuple[PageLine, ...]
    first_line: int
    complete: bool  # the page ends with its footer; False only for a page cut off mid-way


def _page_endnote(lines: list[PageLine]) -> int | None:
    for line in lines[:8]:
        match = _ENDNOTE_HEAD.match(line.text)
        if match:
            return int(match.group(1))
    return None


def _strip_furniture(raw: list[PageLine]) -> tuple[list[PageLine], bool]:
    footer_at = next((i for i, line in enumerate(raw) if _COMPILATION_FOOTER.match(line.text)), None)
    kept = raw if footer_at is None else raw[:footer_at]
    if footer_at is not None:
        # the page number and Act title sit on the last non-blank line above the footer
        last = max((i for i, line in enumerate(kept) if line.text.strip()), default=None)
        if last is not None:
            kept = kept[:last]
    body = [
        line
        for line in kept
        if line.text.strip()
        and not _RUNNING_HEAD.match(line.text)
        and not _ENDNOTE_HEAD.match(line.text)
        and not _AUTHORISED.match(line.text)
    ]
    return body, footer_at is not None


def endnote_pages(text: str, rel_path: str) -> list[EndnotePage]:
    """Split ``text`` (one whole volume) into pages with their furniture stripped.

    Raises :class:`CorpusFileError` when the file ends part-way through an endnote page (no
    footer after the last line of text): the volume was truncated.
    """
    pages: list[EndnotePage] = []
    current: list[PageLine] = []
    number = 0
    chunks = text.split("\n")
    for index, physical in enumerate(chunks):
        number = index + 1
        pieces = physical.split(_FORM_FEED)
        for piece_index, piece in enumerate(pieces):
            if piece_index > 0:
                pages.append(_close(current))
                current = []
            current.append(PageLine(number, piece.rstrip()))
    if current:
        pages.append(_close(current))
    if pages:
        last = pages[-1]
        if last.lines and not last.complete and last.endnote is not None:
            raise CorpusFileError(
                rel_path,
                last.lines[-1].number,
                f"the file ends part-way through a page of Endnote {last.endnote} (no page footer after "
                "this line): the volume looks truncated; restore the complete file from the corpus source",
            )
    return pages


def _close(raw: list[PageLine]) -> EndnotePage:
    endnote = _page_endnote([line for line in raw if line.text.strip()])
    body, complete = _strip_furniture(raw)
    first = raw[0].number if raw else 0
    return EndnotePage(endnote=endnote, lines=tuple(body), first_line=first, complete=complete)
