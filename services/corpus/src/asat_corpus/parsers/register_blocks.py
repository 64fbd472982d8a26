"""Canonical text of a section body from its layout lines.

One logical block per output line: each subsection, paragraph, subparagraph, note, example,
bullet and in-section heading starts a new line; wrapped continuation lines are joined with one
space; indentation is removed and whitespace runs collapse to one space. Table rows become one
line each, cells separated by `` | `` where the columns can be recovered.

A new block starts at:

* a line opening with a label (``(1)``, ``(a)``, ``(ii)``, ``Note 1:``, ``Example:``, ``•``),
  unless it sits at the running text column right after a line ending with a reference word
  (``... subsection`` / ``(7A) of this section``: a wrapped cross-reference);
* a line after a blank line (blank lines at page breaks do not count);
* a line indented left of the current block's text column;
* an unlabelled line after one ending with ``.``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from asat_corpus.parsers.register_pages import BodyLine
from asat_corpus.provision import Subsection

LABEL = re.compile(
    r"^(?:\((?:\d+[A-Z]*|[a-z]{1,5}|[A-Z]{1,3})\)|(?:Notes?|Examples?)(?: \d+[A-Z]?)?(?::|(?= {3}))|•)(?=\s|$)"
)
_SUBSECTION_LINE = re.compile(r"^\((\d+[A-Z]*)\)(?=\s|$)")
_CELL_GAP = re.compile(r"\S(?: {3,})\S")
_CELL = re.compile(r"\S+(?: \S+)*")
_WS = re.compile(r"\s+")
_TERMINATORS = (".",)
_REFERENCE_WORDS = frozenset(
    {
        "subsection",
        "subsections",
        "paragraph",
        "paragraphs",
        "subparagraph",
        "subparagraphs",
        "section",
        "sections",
        "item",
        "items",
        "and",
        "or",
        "of",
        "to",
        "in",
        "under",
        "by",
        "see",
        "with",
        "clause",
    }
)
_INDENT_SLACK = 1
_COLUMN_SLACK = 2


def collapse(text: str) -> str:
    return _WS.sub(" ", text).strip()


def _label_of(stripped: str) -> str | None:
    match = LABEL.match(stripped)
    return match.group() if match else None


def _text_column(line: BodyLine) -> int:
    """Where the running text of ``line`` starts (after its label, if any)."""
    stripped = line.text.lstrip(" ")
    label = _label_of(stripped)
    if label is None:
        return line.indent
    rest = stripped[len(label) :]
    if not rest.strip():
        return line.indent + len(label) + 1
    return line.indent + len(label) + (len(rest) - len(rest.lstrip(" ")))


def _is_table_line(line: BodyLine) -> bool:
    stripped = line.text.strip()
    label = _label_of(stripped)
    body = stripped[len(label) :].strip() if label else stripped
    return bool(_CELL_GAP.search(body))


def _split_cells(line: BodyLine) -> list[tuple[int, str]]:
    """Cells of a table line: runs of text separated by two or more spaces."""
    return [(m.start(), m.group()) for m in _CELL.finditer(line.text)]


def _continues_reference(previous: str) -> bool:
    """True when ``previous`` ends mid-sentence with a word that a cross-reference may follow."""
    text = previous.rstrip()
    if not text or text[-1] in ".:;,—":
        return False
    words = text.split()
    last = words[-1]
    if last in {"and", "or"} and len(words) > 1 and words[-2].endswith((";", ",")):
        return False
    return last in _REFERENCE_WORDS


@dataclass
class _Table:
    left: int
    columns: list[int]
    rows: list[list[str]] = field(default_factory=list)
    header: str | None = None

    def column_of(self, position: int) -> int:
        index = 0
        for i, start in enumerate(self.columns):
            if start <= position + _COLUMN_SLACK:
                index = i
        return index

    def add_columns(self, positions: Sequence[int]) -> None:
        for position in positions:
            if all(abs(position - c) > _COLUMN_SLACK for c in self.columns):
                self.columns.append(position)
        self.columns.sort()

    def add_line(self, line: BodyLine, new_row: bool) -> None:
        cells = _split_cells(line)
        if new_row or not self.rows:
            if len(cells) > 1:
                self.add_columns([p for p, _ in cells])
            self.rows.append([""] * len(self.columns))
        row = self.rows[-1]
        while len(row) < len(self.columns):
            row.append("")
        for position, cell in cells:
            j = self.column_of(position)
            row[j] = f"{row[j]} {cell}".strip()

    def lines(self) -> list[str]:
        out: list[str] = []
        for row in self.rows:
            text = " | ".join(c for c in row if c)
            if text:
                out.append(collapse(text))
        return out


@dataclass
class _Builder:
    out: list[str] = field(default_factory=list)
    block: list[str] = field(default_factory=list)
    column: int = 0
    last_text: str = ""
    table: _Table | None = None
    table_header: str | None = None

    def flush(self) -> None:
        if self.block:
            self.out.append(collapse(" ".join(self.block)))
            self.block = []
        if self.table is not None:
            self.out.extend(self.table.lines())
            self.table = None

    def start(self, line: BodyLine) -> None:
        self.flush()
        self.block = [line.text.strip()]
        self.column = _text_column(line)
        self.last_text = line.text

    def extend(self, line: BodyLine) -> None:
        self.block.append(line.text.strip())
        self.last_text = line.text


def _starts_block(builder: _Builder, line: BodyLine, after_blank: bool) -> bool:
    if not builder.block:
        return True
    if after_blank:
        return True
    stripped = line.text.strip()
    label = _label_of(stripped)
    if label is not None:
        previous_label = _label_of(builder.last_text.strip())
        if previous_label is not None and builder.last_text.strip() == previous_label:
            return False  # a bare label line ("•") continues on the next line
        at_text_column = line.indent >= builder.column - _INDENT_SLACK
        return not (at_text_column and _continues_reference(builder.last_text))
    if line.indent < builder.column - _INDENT_SLACK:
        return True
    return builder.last_text.rstrip().endswith(_TERMINATORS)


def canonical_text(lines: Sequence[BodyLine]) -> str:
    """The canonical text of a section body (heading excluded) from its layout lines."""
    builder = _Builder()
    after_blank = False
    for line in lines:
        if line.blank:
            if not line.page_start:
                after_blank = True
                if builder.table is not None:
                    builder.flush()
            continue
        blank_before = after_blank and not line.page_start
        after_blank = False
        table = builder.table
        if table is not None:
            label = _label_of(line.text.strip())
            ends_table = label is not None and label != "•" and line.indent <= table.left + _INDENT_SLACK
            if line.indent >= table.left - _INDENT_SLACK and not ends_table:
                row_text = collapse(line.text)
                if line.page_start and table.header is not None and row_text == table.header:
                    continue
                new_row = abs(line.indent - table.left) <= _INDENT_SLACK
                table.add_line(line, new_row)
                continue
            builder.flush()
        if _is_table_line(line) and _label_of(line.text.strip()) is None:
            builder.flush()
            new = _Table(left=line.indent, columns=[p for p, _ in _split_cells(line)])
            new.header = collapse(line.text)
            new.add_line(line, new_row=True)
            builder.table = new
            continue
        if _starts_block(builder, line, blank_before):
            builder.start(line)
        else:
            builder.extend(line)
    builder.flush()
    return "\n".join(builder.out)


def subsections(text: str) -> tuple[Subsection, ...]:
    """Labelled subsections of canonical ``text``; the unlabelled lead text gets label ``""``."""
    starts: list[tuple[str, int]] = []
    offset = 0
    for line in text.split("\n"):
        match = _SUBSECTION_LINE.match(line)
        if match is not None:
            starts.append((match.group(), offset))
        offset += len(line) + 1
    if not starts:
        return (Subsection("", 0, len(text)),) if text else ()
    spans: list[Subsection] = []
    if starts[0][1] > 0:
        spans.append(Subsection("", 0, starts[0][1] - 1))
    for i, (label, start) in enumerate(starts):
        end = starts[i + 1][1] - 1 if i + 1 < len(starts) else len(text)
        spans.append(Subsection(label, start, end))
    return tuple(spans)
