"""Page furniture of the Register's layout text: split into pages, keep only body lines.

Each page of a ``register-pdf-layout-text`` volume is separated by a form feed and carries a
running head (``Chapter 3 Specialist liability rules`` ... ``Section 328-110``) at the top and a
footer (``____`` rule, ``*To find definitions ...``, page number with the Act title,
``Compilation No. ...``, ``Authorised Version ... registered ...``) at the bottom. Front matter
and contents pages are numbered in roman numerals (or not at all); body pages in arabic
numerals. :func:`body_lines` returns the body lines of the body pages, furniture removed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from asat_corpus.parse_report import CorpusFileError

_AUTHORISED = re.compile(r"^\s*Authorised Version C\d{4}C\d{5} registered \d{2}/\d{2}/\d{4}\s*$")
_AUTHORISED_ANY = re.compile(r"^\s*Authorised Version C\d{4}C\d{5}\b")
_COMPILATION = re.compile(r"^\s*Compilation No\. \d+\s+Compilation date:")
_DEFINITIONS = re.compile(r"^\s*\*(To find definitions of asterisked terms|For definition, see section)\b")
_RULE = re.compile(r"^\s*_{10,}\s*$")
_PAGE_NUMBER = r"(?P<num>\d+|[ivxlcdm]+)"
_ACT_TITLE = r"(?P<title>\S.*?\bAct \d{4})"
_PAGE_LEFT = re.compile(rf"^\s*{_PAGE_NUMBER}\s{{3,}}{_ACT_TITLE}\s*$")
_PAGE_RIGHT = re.compile(rf"^\s*{_ACT_TITLE}\s{{3,}}{_PAGE_NUMBER}\s*$")
_SECTION_HEAD = re.compile(r"^\s*(Section|Clause)\s+\S{1,20}\s*$")
_LEVEL_HEAD = re.compile(r"^\s*(Schedule|Chapter|Part|Division|Subdivision)\s+\S+(\s+[^—\s].*)?$")
_LEVEL_HEAD_RIGHT = re.compile(r"\S\s+(Schedule|Chapter|Part|Division|Subdivision)\s+[\w.-]+\s*$")
_LEVEL_HEAD_BARE = re.compile(r"^\s{40,}(Schedule|Chapter|Part|Division|Subdivision)\s+[\w.-]+\s*$")
_BINARY = re.compile(r"[\x00-\x08\x0e-\x1f\ufffd]")
_HEAD_SCAN = 9  # running heads occupy at most this many non-blank lines at a page top


@dataclass(frozen=True)
class BodyLine:
    """One line of body text: ``number`` is 1-based in the file; ``text`` keeps its indentation."""

    number: int
    text: str
    page_start: bool  # first line kept from its page (a page break precedes it)

    @property
    def blank(self) -> bool:
        return not self.text.strip()

    @property
    def indent(self) -> int:
        return len(self.text) - len(self.text.lstrip(" "))


def is_furniture(line: str) -> bool:
    """True for a footer or registration line that never belongs to the body."""
    return bool(
        _AUTHORISED_ANY.match(line) or _COMPILATION.match(line) or _DEFINITIONS.match(line) or _RULE.match(line)
    )


def check_file(text: str, rel_path: str) -> None:
    """Raise :class:`CorpusFileError` when ``text`` is not a complete layout-text volume."""
    bad = _BINARY.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        raise CorpusFileError(
            rel_path,
            line,
            f"control character or undecodable byte {bad.group()!r}: the file is binary or corrupt; "
            "re-extract it from the Register's PDF",
        )
    lines = text.split("\n")
    last = len(lines)
    while last > 0 and not lines[last - 1].strip():
        last -= 1
    if last == 0:
        raise CorpusFileError(rel_path, 1, "file is empty: expected a register-pdf-layout-text volume")
    if not _AUTHORISED.match(lines[last - 1].replace("\f", "")):
        raise CorpusFileError(
            rel_path,
            last,
            "file does not end with a page footer ('Authorised Version ... registered dd/mm/yyyy'): "
            "it looks truncated; re-extract the whole volume",
        )


def _page_number(lines: list[str]) -> str | None:
    for line in reversed(lines):
        match = _PAGE_LEFT.match(line) or _PAGE_RIGHT.match(line)
        if match is not None:
            return match.group("num")
    return None


def _strip_footer(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    end = len(lines)
    while end > 0:
        text = lines[end - 1][1]
        if not text.strip() or is_furniture(text) or _PAGE_LEFT.match(text) or _PAGE_RIGHT.match(text):
            end -= 1
            continue
        break
    return lines[:end]


def _wraps_onto_level(lines: list[tuple[int, str]], index: int) -> bool:
    """True when the next non-blank line after ``index`` is a bare right-aligned ``Schedule 2H``.

    A long running head wraps its title above its level word::

        Demutualisation of mutual entities other than insurance companies and health insurers
                                                                         Schedule 2H
    """
    for _, text in lines[index + 1 :]:
        if text.strip():
            return _LEVEL_HEAD_BARE.match(text) is not None
    return False


def _strip_head(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Drop the running head: the lines up to a ``Section N`` line, or level heads without a dash."""
    nonblank = [i for i, (_, text) in enumerate(lines) if text.strip()][:_HEAD_SCAN]
    for position, index in enumerate(nonblank):
        text = lines[index][1]
        if "—" in text:
            break
        if _SECTION_HEAD.match(text) and position > 0:
            return lines[index + 1 :]
    start = 0
    while start < len(lines):
        text = lines[start][1]
        if not text.strip() or is_furniture(text):
            start += 1
            continue
        if "—" not in text and (
            _LEVEL_HEAD.match(text) or _LEVEL_HEAD_RIGHT.search(text) or _wraps_onto_level(lines, start)
        ):
            start += 1
            continue
        break
    return lines[start:]


def body_lines(text: str, rel_path: str) -> list[BodyLine]:
    """The body lines of ``text``: front matter and contents skipped, page furniture removed.

    Raises :class:`CorpusFileError` for a truncated or binary file.
    """
    check_file(text, rel_path)
    out: list[BodyLine] = []
    in_body = False
    page: list[tuple[int, str]] = []
    pages: list[list[tuple[int, str]]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        parts = raw.split("\f")
        for i, part in enumerate(parts):
            if i > 0:
                pages.append(page)
                page = []
            page.append((number, part.rstrip()))
    pages.append(page)
    for page_lines in pages:
        page_number = _page_number([t for _, t in page_lines])
        if page_number is not None:
            in_body = page_number.isdigit()
        if not in_body:
            continue
        kept = _strip_head(_strip_footer(page_lines))
        kept = [(n, t) for n, t in kept if not is_furniture(t)]
        while kept and not kept[-1][1].strip():
            kept.pop()
        while kept and not kept[0][1].strip():
            kept.pop(0)
        for i, (n, t) in enumerate(kept):
            out.append(BodyLine(n, t, page_start=i == 0))
    return out
