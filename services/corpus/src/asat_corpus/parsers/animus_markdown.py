"""Parser for the ``animus-pdf-markdown`` format: ITAA 1997 C2024C00046 converted from PDF.

Page furniture is dropped: every running-head line at the top of a page down to and including
its ``##### Section 70-1`` head (the Chapter/Part/Division names wrap anywhere, so they are
recognised by position, not by shape), page numbers, the compilation and "Authorised Version"
footers, the asterisk footnote and ``-----`` page breaks. Lines of one paragraph are wrapped
(often each prefixed ``######``) and are joined; a block that starts in lower case continues
the previous one across a page break. A heading-marked line that continues the heading above
it is joined to that heading; one that starts in lower case after a blank line, or that is a
list item (``### - the *market value``), is body text. In body text, stray heading marks
(``(a) ###### is made``), the spaces the conversion leaves inside brackets and in fractions,
and the converter's ``Col2`` header cells are removed, and a list item's ``-`` becomes ``•`` as
in the authorised text. Numbers keep their hyphens in this conversion; no word is hyphenated
across lines in it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from asat_corpus.act import Compilation
from asat_corpus.parse_report import CorpusFileError, ParseReport
from asat_corpus.parsers.markdown_files import parse_compilation_files, reject_nul_bytes
from asat_corpus.parsers.markdown_sections import SectionAssembler
from asat_corpus.parsers.markdown_text import strip_emphasis
from asat_corpus.provision import ParsedProvision

__all__ = ["parse_animus_markdown", "parse_animus_markdown_text"]

_MARKED = re.compile(r"^(#{1,6})\s*(.*?)\s*$")
_LEVELS = r"(?:Chapter|Part|Division|Subdivision)"
_SECTION_HEAD = re.compile(r"^#{1,6}\s*Section\s+\d+[A-Z]*-\d+[A-Z]*$")
_MAX_RUNNING_HEAD_LINES = 8  # three heads, each wrapped at most once; four lines in the corpus
_FOOTER = (
    re.compile(r"^-{3,}$"),
    re.compile(r"^_{5,}$"),
    re.compile(r"^\*\s*To find definitions of asterisked terms"),
    re.compile(r"^Compilation No\. \d+ Compilation date"),
    re.compile(r"^Authorised Version C\d{4}C\d{5} registered"),
    re.compile(r"^(?:_?\d+_?\s+)?_[^_]+ Act \d{4}_(?:\s+_?\d+_?)?$"),
    _SECTION_HEAD,
    re.compile(rf"^\*\*{_LEVELS}\s+[0-9A-Z-]+\*\*(?:\s.*)?$"),
    re.compile(rf"^.*\s\*\*{_LEVELS}\s+[0-9A-Z-]+\*\*$"),
    re.compile(rf"^\*\*{_LEVELS}\s+[0-9A-Z-]+\s[^*]+\*\*$"),
)
_PAGE_HEAD = re.compile(rf"^[^\s#].*\s{_LEVELS}\s+\d+[A-Z]*(?:-\d+[A-Z]*)?$")
_DASH = r"\s*[\u2014\u2013]\s*"
_STRUCTURE = re.compile(rf"^({_LEVELS})\s+([0-9A-Z]+(?:-[0-9A-Z]+)?){_DASH}(.*)$")
_SECTION = re.compile(r"^(\d+[A-Z]*-\d+[A-Z]*)\s+(\S.*)$")
_TOC = re.compile(r"^Table of (?:sections|subdivisions)\b", re.IGNORECASE)
_CONTINUATION = re.compile(r"^(?:[a-z]|\*\s*[a-z])")
_INNER_MARKER = re.compile(r"(?<!\S)#{1,6}(?!\S)")  # ``(a) ###### is made``: a stray heading mark
_SPACE_AFTER_OPEN = re.compile(r"\(\s+(?=\S)")  # ``( **_CGT_** )`` once emphasis is gone
_SPACE_BEFORE_CLOSE = re.compile(r"(?<=[^\s(])\s+(?=[):?])")
_SPACED_FRACTION = re.compile(r"(?<=\d) / (?=\d)")  # ``60 / 100``; the authorised text has ``60/100``
_PLACEHOLDER_CELL = re.compile(r"(?<=\|)\s*Col\d+\s*(?=\|)")  # an empty header cell named by the converter
_BULLET = re.compile(r"^-\s+(?=[*(A-Za-z])")  # the authorised text writes the bullet ``•``


class _Kind(Enum):
    STRUCTURE = "structure"
    SECTION = "section"
    TOC = "toc"
    GROUP = "group"
    BODY = "body"


@dataclass(frozen=True)
class _Event:
    kind: _Kind
    line: int
    text: str
    groups: tuple[str, ...] = ()


def _is_footer(line: str) -> bool:
    return any(pattern.match(line) for pattern in _FOOTER)


def _running_head_end(lines: Sequence[str], start: int) -> int:
    """Index after the ``Section N-N`` head that closes the running heads of a page, or ``start``.

    A page of this conversion opens with two to four running-head lines (Chapter, Part,
    Division or Subdivision names, wrapped anywhere) and then ``##### Section 70-1``; all of
    them are furniture. Without such a head among the first few lines, or with a marked heading
    before it, nothing is taken.
    """
    seen = 0
    for index in range(start, len(lines)):
        line = lines[index].strip()
        if not line:
            continue
        if _SECTION_HEAD.match(line):
            return index + 1
        seen += 1
        if seen > _MAX_RUNNING_HEAD_LINES or line.startswith(("#", "-----")):
            return start
    return start


def _content_lines(lines: Sequence[str]) -> list[tuple[int, str]]:
    """(line number, text) with furniture replaced by blank lines."""
    out: list[tuple[int, str]] = []
    page_head = True  # the top of a page: running heads until the first other line
    skip_to = _running_head_end(lines, 0)
    for index, raw in enumerate(lines):
        line = raw.strip()
        if index < skip_to:
            page_head = False  # the running heads end at the ``Section`` head
            out.append((index + 1, ""))
            continue
        if line.startswith("-----"):
            page_head = True
            skip_to = _running_head_end(lines, index + 1)
            out.append((index + 1, ""))
            continue
        if not line:
            out.append((index + 1, ""))
            continue
        if _is_footer(line) or (page_head and _PAGE_HEAD.match(line)):
            out.append((index + 1, ""))
            continue
        page_head = False
        out.append((index + 1, line))
    return out


def _heading_level(line: str) -> tuple[int, str]:
    match = _MARKED.match(line)
    if not match:
        return 0, line
    return len(match.group(1)), match.group(2)


def _classify(line_no: int, text: str) -> _Event:
    cleaned = strip_emphasis(_INNER_MARKER.sub(" ", text))
    match = _STRUCTURE.match(cleaned)
    if match:
        return _Event(_Kind.STRUCTURE, line_no, cleaned, match.groups())
    if _TOC.match(cleaned):
        return _Event(_Kind.TOC, line_no, cleaned)
    match = _SECTION.match(cleaned)
    if match:
        return _Event(_Kind.SECTION, line_no, cleaned, match.groups())
    return _Event(_Kind.GROUP, line_no, cleaned)


def _events(lines: Sequence[tuple[int, str]]) -> list[_Event]:
    """Headings and body blocks, with wrapped lines and page-split paragraphs joined."""
    events: list[_Event] = []
    heading_parts: list[str] = []
    heading_level = 0
    heading_line = 0
    body_parts: list[str] = []
    body_line = 0
    after_blank = True

    def flush_heading() -> None:
        nonlocal heading_level
        if heading_parts:
            events.append(_classify(heading_line, " ".join(heading_parts)))
            heading_parts.clear()
        heading_level = 0

    def flush_body() -> None:
        if not body_parts:
            return
        text = " ".join(body_parts)
        body_parts.clear()
        if events and events[-1].kind is _Kind.BODY and _CONTINUATION.match(text):
            previous = events.pop()
            events.append(_Event(_Kind.BODY, previous.line, f"{previous.text} {text}"))
        else:
            events.append(_Event(_Kind.BODY, body_line, text))

    for line_no, line in lines:
        if not line:
            flush_heading()
            flush_body()
            after_blank = True
            continue
        level, text = _heading_level(line)
        bullet = bool(_BULLET.match(text))  # ``### - the *market value``: a list item, never a heading
        is_heading = 1 <= level <= 5 and bool(text) and not bullet
        if is_heading and heading_parts and level == heading_level:
            heading_parts.append(text)  # a heading wrapped onto the next line
        elif is_heading and not (after_blank and _CONTINUATION.match(text) and not heading_parts):
            flush_heading()
            flush_body()
            heading_parts.append(text)
            heading_level = level
            heading_line = line_no
        else:
            flush_heading()
            if bullet:
                flush_body()  # each list item is a line of its own, as in the authorised text
            if not body_parts:
                body_line = line_no
            body_parts.append(text)
        after_blank = False
    flush_heading()
    flush_body()
    return events


def _body_text(text: str) -> str:
    """One body block as canonical text: markup, stray heading marks and PDF spacing removed."""
    cleaned = _PLACEHOLDER_CELL.sub("", _INNER_MARKER.sub(" ", text))
    cleaned = strip_emphasis(cleaned, spaced_defined_terms=True)
    cleaned = _SPACE_AFTER_OPEN.sub("(", cleaned)
    cleaned = _SPACE_BEFORE_CLOSE.sub("", cleaned)
    cleaned = _SPACED_FRACTION.sub("/", cleaned)
    return _BULLET.sub("\u2022 ", cleaned)


class _FileParser:
    def __init__(self, rel_path: str, compilation: Compilation, report: ParseReport) -> None:
        self.sections = SectionAssembler(rel_path, compilation, report)
        self.levels: dict[str, str] = {}
        self.in_toc = False

    def parse(self, events: Sequence[_Event]) -> list[ParsedProvision]:
        for event in events:
            if event.kind is _Kind.STRUCTURE:
                self.sections.close()
                level, number, title = event.groups
                order = ("Chapter", "Part", "Division", "Subdivision")
                for lower in order[order.index(level) :]:
                    self.levels.pop(lower, None)
                self.levels[level] = f"{level} {number}\u2014{title}".rstrip("\u2014 ")
                self.in_toc = False
            elif event.kind is _Kind.TOC:
                self.sections.close()
                self.in_toc = True
            elif event.kind is _Kind.SECTION:
                self.sections.close()
                number, heading = event.groups
                hierarchy = tuple(
                    self.levels[level]
                    for level in ("Chapter", "Part", "Division", "Subdivision")
                    if level in self.levels
                )
                self.sections.open(number, heading, event.line, hierarchy)
                self.in_toc = False
            elif event.kind is _Kind.GROUP:
                if not self.in_toc:
                    self.sections.hold_group(event.text)
            elif not self.in_toc:
                self.sections.add_block(_body_text(event.text))
        self.sections.close()
        return self.sections.provisions


def _parse_file(text: str, rel_path: str, compilation: Compilation, report: ParseReport) -> list[ParsedProvision]:
    reject_nul_bytes(text, rel_path)
    lines = text.splitlines()
    events = _events(_content_lines(lines))
    if not any(event.kind is _Kind.SECTION for event in events):
        raise CorpusFileError(
            rel_path,
            len(lines),
            "no section heading ('##### 8-1  Title') found: empty or truncated conversion",
        )
    return _FileParser(rel_path, compilation, report).parse(events)


def parse_animus_markdown_text(
    text: str, rel_path: str, compilation: Compilation, report: ParseReport
) -> list[ParsedProvision]:
    """Parse one animus Markdown volume; raises ``CorpusFileError`` if it holds no section."""
    provisions = _parse_file(text, rel_path, compilation, report)
    report.items_parsed += len(provisions)
    return provisions


def parse_animus_markdown(compilation: Compilation, corpus_dir: Path, report: ParseReport) -> list[ParsedProvision]:
    """Parse every volume of an animus compilation; a malformed volume is reported, skipped."""
    out = parse_compilation_files(compilation, corpus_dir, report, _parse_file)
    report.items_parsed += len(out)
    return out
