"""The file note as a PDF (ReportLab; A4, DejaVu Sans embedded).

Every page has the header "AsAt file note" with the audit row's id, and the footer "Page i of n".
The text is laid out here, line by line (no ReportLab flowables), so that what is drawn is known
exactly: each line is one string, and the verbatim texts (the question and every quote) are set
with :mod:`asat_web.pdf_text`'s marks, so that the PDF's extracted text gives each back
character for character (``pdf_text.recover_verbatim``). A note holding a character the PDF
would change is refused (``pdf_text.UnprintableText``); the Markdown note keeps every character.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from reportlab.lib.pagesizes import A4  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from asat_web.file_note import FileNote, Quote
from asat_web.pdf_text import LEGEND, MARKS, Fonts, check_printable, fonts, measure, verbatim_lines, wrap

PAGE_WIDTH, PAGE_HEIGHT = A4
MARGIN = 56.0  # points (about 20 mm)
TOP = PAGE_HEIGHT - 60.0  # the top of the body, under the header
BOTTOM = 56.0
WIDTH = PAGE_WIDTH - 2 * MARGIN
QUOTE_INDENT = 14.0
BODY, SMALL, HEADING = 10.0, 8.5, 12.0
# ReportLab keeps each font's subsets per document in shared state and does not promise to be
# thread-safe; the app renders in a thread pool, so one PDF is drawn at a time (tens of ms each).
_DRAWING = threading.Lock()
LABEL_WIDTH = 116.0  # the label column of the record
GREY = (0.3, 0.3, 0.3)  # captions: the version a quote is taken from


@dataclass(frozen=True)
class Line:
    text: str
    bold: bool
    size: float
    indent: float
    before: float  # space above the line (dropped at the top of a page)
    keep: int = 0  # lines after it that must be on the same page (a heading's)
    label: str = ""  # a label set in the column before the text (the record's)
    grey: bool = False

    @property
    def leading(self) -> float:
        return (max(self.size, BODY) if self.label else self.size) * 1.35


@dataclass
class _Flow:
    """The note's lines, in order."""

    fonts: Fonts
    lines: list[Line] = field(default_factory=list)

    def heading(self, text: str) -> None:
        self.lines.append(Line(text, True, HEADING, 0.0, 10.0, keep=2))

    def text(
        self, text: str, size: float = BODY, indent: float = 0.0, before: float = 2.0, bold: bool = False, **how: Any
    ) -> None:
        advance = measure(self.fonts.bold if bold else self.fonts.regular, size)
        for number, line in enumerate(text.split("\n")):
            for index, piece in enumerate(wrap(line, WIDTH - indent, advance)):
                gap = before if number == index == 0 else 0.0
                self.lines.append(Line(_plain(piece), bold, size, indent, gap, **how))

    def field(self, label: str, value: str, size: float = BODY) -> None:
        """``value`` beside ``label`` (in the label column), wrapped in the rest of the width."""
        advance = measure(self.fonts.regular, size)
        for index, piece in enumerate(wrap(value, WIDTH - LABEL_WIDTH, advance)):
            self.lines.append(
                Line(_plain(piece), False, size, LABEL_WIDTH, 2.0 if index == 0 else 0.0, label=label * (not index))
            )

    def verbatim(self, text: str, indent: float = 0.0) -> None:
        advance = measure(self.fonts.regular, BODY)
        mark = advance("\u2502") + advance(" ")  # the mark and its space, set in the margin of the text
        x = indent + QUOTE_INDENT - mark
        for index, line in enumerate(verbatim_lines(text, WIDTH - indent - QUOTE_INDENT, advance)):
            self.lines.append(Line(line, False, BODY, x, 4.0 if index == 0 else 0.0))

    def quote(self, quote: Quote, indent: float) -> None:
        self.verbatim(quote.text, indent)
        version = quote.version
        self.text(version.title, SMALL, indent + QUOTE_INDENT, before=3.0, grey=True)
        self.text(version.details, SMALL, indent + QUOTE_INDENT, before=0.0, grey=True)
        self.text(quote.where, SMALL, indent + QUOTE_INDENT, before=0.0, grey=True)
        if quote.then_stood:
            self.text(quote.then_stood, SMALL, indent + QUOTE_INDENT, before=0.0, grey=True)


def note_lines(note: FileNote, with_fonts: Fonts) -> list[Line]:
    """The note's body, line by line."""
    flow = _Flow(with_fonts)
    audit = note.audit
    flow.text(
        f"Audit row {audit.row_id}, recorded {_time(audit.recorded_at)}; this note generated {_time(note.generated_at)}",
        SMALL,
        before=0.0,
        grey=True,
    )
    flow.heading("Question")
    flow.verbatim(note.question)
    flow.heading("Period")
    flow.text(note.period)
    flow.heading("Decision")
    flow.text(
        note.decision_words
        if note.decision_words.lower() == note.decision
        else f"{note.decision_words} ({note.decision})"
    )
    for notice in note.notices:
        flow.text(notice, before=6.0)
    if note.answered:
        flow.heading("Claims")
        for claim in note.claims:
            flow.text(f"{claim.number}. {claim.text}", before=8.0, bold=True)
            for quote in claim.quotes:
                flow.quote(quote, indent=12.0)
        if note.dropped:
            flow.text(note.dropped, before=8.0)
    if note.reasons:
        flow.heading(note.reasons_heading)
        for reason in note.reasons:
            flow.text(f"\u2022 {reason}", before=3.0)
    if note.dropped and not note.answered:
        flow.text(note.dropped, before=6.0)
    if note.reading_list is not None:
        flow.heading("Reading list")
        if not note.reading_list:
            flow.text("No sources to read for this period.")
        for item in note.reading_list:
            flow.text(item.title, before=8.0, bold=True)
            flow.text(
                f"register {', '.join(item.register_ids) or 'none'}; {item.in_force}", SMALL, before=0.0, grey=True
            )
            for quote in item.quotes:
                flow.quote(quote, indent=12.0)
    flow.heading("Record")
    flow.field("Audit row", str(audit.row_id))
    flow.field("Recorded", _time(audit.recorded_at))
    flow.field("Request", audit.request_id)
    flow.field("Hash", audit.hash, SMALL)  # small enough for a SHA-256 in hex on one line
    flow.field("Previous hash", audit.prev_hash, SMALL)
    flow.field("Corpus generation", note.corpus_generation, SMALL)
    flow.field("Model", note.model)
    flow.field("Generated", _time(note.generated_at))
    flow.heading("Attribution")
    flow.text(note.attribution)
    flow.text(LEGEND, SMALL, before=14.0)
    return flow.lines


def paginate(lines: list[Line]) -> list[list[tuple[float, Line]]]:
    """The lines placed on pages, each with its baseline."""
    pages: list[list[tuple[float, Line]]] = [[]]
    y = TOP
    for index, line in enumerate(lines):
        kept = lines[index + 1 : index + 1 + line.keep]
        needed = line.before + line.leading + sum(k.before + k.leading for k in kept)
        if pages[-1] and y - needed < BOTTOM:
            pages.append([])
            y = TOP
        y -= (line.before if pages[-1] else 0.0) + line.leading
        pages[-1].append((y, line))
    return pages


def render_pdf(note: FileNote) -> bytes:
    """The note as PDF bytes; raises ``pdf_text.UnprintableText`` (naming the characters) when
    the note holds one the PDF cannot give back exactly, and ``pdf_text.FontMissing``."""
    used = fonts()
    check_printable(_texts(note))
    pages = paginate(note_lines(note, used))
    with _DRAWING:
        return _draw(note, used, pages)


def _draw(note: FileNote, used: Fonts, pages: list[list[tuple[float, Line]]]) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, invariant=1, pageCompression=1)
    _stamp(canvas, note.generated_at)
    canvas.setTitle(f"{note.title}: audit row {note.audit.row_id}")
    canvas.setAuthor("AsAt")
    canvas.setCreator("AsAt web")
    for number, placed in enumerate(pages, start=1):
        _furniture(canvas, used, note, number, len(pages))
        for y, line in placed:
            canvas.setFillColorRGB(*(GREY if line.grey else (0, 0, 0)))
            if line.label:
                canvas.setFont(used.bold, BODY)
                canvas.drawString(MARGIN, y, line.label)
            canvas.setFont(used.bold if line.bold else used.regular, line.size)
            canvas.drawString(MARGIN + line.indent, y, line.text)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _furniture(canvas: Canvas, used: Fonts, note: FileNote, number: int, total: int) -> None:
    """The header (title and audit row) and the footer (page number) of one page."""
    top = PAGE_HEIGHT - 40.0
    canvas.setFont(used.bold, 11.0)
    canvas.drawString(MARGIN, top, note.title)
    canvas.setFont(used.regular, 9.0)
    canvas.drawRightString(PAGE_WIDTH - MARGIN, top, f"Audit row {note.audit.row_id}")
    canvas.setLineWidth(0.5)
    canvas.line(MARGIN, top - 6.0, PAGE_WIDTH - MARGIN, top - 6.0)
    canvas.setFont(used.regular, 8.0)
    canvas.drawRightString(PAGE_WIDTH - MARGIN, 30.0, f"Page {number} of {total}")


def _texts(note: FileNote) -> Iterator[str]:
    """Every text of the note that comes from outside it."""
    yield note.question
    yield note.period
    yield note.attribution
    yield from note.reasons
    yield from note.notices
    for claim in note.claims:
        yield claim.text
    for item in note.reading_list or ():
        yield item.title
    for quote in note.quotes:
        yield quote.text
        yield quote.version.title
        yield quote.version.details
        yield quote.where
        yield quote.then_stood or ""
    yield note.model
    yield note.corpus_generation
    yield note.audit.request_id


def _plain(piece: str) -> str:
    """A line of the note's own text, which must not read as verbatim text: one that would start
    with a mark gets a zero-width space before it."""
    return f"\u200b{piece}" if piece[:1] in MARKS else piece


def _time(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def _stamp(canvas: Canvas, moment: datetime) -> None:
    """The PDF's creation date is the note's generated time (``invariant`` keeps the rest of the
    file free of the clock, so that one note is always the same bytes)."""
    stamp = canvas._doc._timeStamp
    utc = moment.astimezone(UTC)
    stamp.t = utc.timestamp()
    stamp.lt = utc.timetuple()
    stamp.YMDhms = tuple(stamp.lt)[:6]
    stamp.dhh = stamp.dmm = 0
