"""The text layer of the file note's PDF, exact: verbatim text comes back character for character.

**Font.** DejaVu Sans (Debian's ``fonts-dejavu-core``, at :data:`FONT_PATHS`), embedded by
ReportLab as TrueType subsets whose ToUnicode maps give each code back its character. Two
characters ReportLab would lose are kept: a no-break space (ReportLab writes it as a space) and
control characters such as a tab (the font has no glyph, so ReportLab writes code 0); both are
drawn with the space's glyph but mapped to themselves. A character that cannot come back exactly
is refused (:class:`UnprintableText`), never replaced: one outside the Basic Multilingual Plane
(ReportLab's map cannot name it), one the font lacks, or one of a right-to-left script (drawn left
to right it would print backwards, and PDF readers reorder it).

**Verbatim text** (the question and each quote) is set line by line, each line one string of
the form ``MARK + " " + piece``, where the mark says how the piece joins what came before:

- ``┌`` (:data:`OPEN`) starts a verbatim text;
- ``├`` (:data:`NEWLINE`) starts a new line of it: the text has a line break (``\\n``) here;
- ``│`` (:data:`MORE`) continues the line above: the line was wrapped here to fit the page.

Pieces are cut anywhere (after a space where one fits, else between two characters), keeping
every character, spaces included. :func:`recover_verbatim` reads the texts back from the
extracted text of the PDF (one line per drawn line, as pypdf gives it), exactly, whatever the
texts contain: a mark is read only as the first character of a line (after any spaces the reader
put before it, as pypdf does for a line drawn right of the one above), never inside a piece.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
from reportlab.pdfbase.ttfonts import TTFont  # type: ignore[import-untyped]

FONT_PATHS = {
    "regular": Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    "bold": Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
}
FONT_PACKAGE = "fonts-dejavu-core"
OPEN, NEWLINE, MORE = "\u250c", "\u251c", "\u2502"  # ┌ ├ │
MARKS = (OPEN, NEWLINE, MORE)
LEGEND = (
    "Verbatim text (the question and each quote) is set with a mark in the margin of each line: "
    f"\u201c{OPEN}\u201d starts it, \u201c{NEWLINE}\u201d starts a new line of the text, \u201c{MORE}\u201d continues "
    "the line above (wrapped to fit the page). Nothing is added to it or left out."
)
_NBSP = 0x00A0
_NBSP_PROXY = 0xE0A0  # a private-use code standing in for the no-break space inside ReportLab
_NO_BREAK = frozenset("\u00a0\u2007\u202f\u2060\ufeff")
# Right-to-left: Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms (PDF readers
# reorder these), and anything whose bidirectional class is right-to-left.
_RTL_BLOCKS = ((0x0590, 0x08FF), (0xFB1D, 0xFDFF), (0xFE70, 0xFEFF))


class FontMissing(RuntimeError):
    """The font file is not installed."""


class UnprintableText(ValueError):
    """Text holds characters the PDF cannot give back exactly."""

    def __init__(self, characters: Iterable[str]) -> None:
        self.characters = tuple(sorted(set(characters)))
        named = ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, 'unnamed')}" for c in self.characters)
        super().__init__(
            f"the PDF cannot write {named} so that it reads back exactly, and a file note never changes a "
            "character: use the Markdown file note, which keeps every character"
        )


class _ExactFont(TTFont):  # type: ignore[misc]
    """A TrueType font whose text layer gives back a no-break space and control characters."""

    def __init__(self, name: str, path: Path) -> None:
        super().__init__(name, str(path))
        glyphs, widths = self.face.charToGlyph, self.face.charWidths
        for code in [*range(0x00, 0x20), *range(0x7F, 0xA0), 0x2028, 0x2029]:
            if code not in glyphs and code != 0x0A:
                glyphs[code], widths[code] = glyphs[0x20], widths[0x20]
        glyphs[_NBSP_PROXY], widths[_NBSP_PROXY] = glyphs.get(_NBSP, glyphs[0x20]), widths.get(_NBSP, widths[0x20])

    def splitString(self, text: str, doc: Any, encoding: str = "utf-8") -> Any:
        # ReportLab writes U+00A0 as a space: write a stand-in, then map its code back to U+00A0.
        parts = super().splitString(text.replace("\u00a0", chr(_NBSP_PROXY)), doc, encoding)
        state = self.state[doc]
        code = state.assignments.get(_NBSP_PROXY)
        if code is not None and state.subsets[code >> 8][code & 0xFF] == _NBSP_PROXY:
            state.subsets[code >> 8][code & 0xFF] = _NBSP
        return parts


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str  # for the note's own headings only
    glyphs: frozenset[int]  # the characters the regular font can write exactly


@cache
def fonts() -> Fonts:
    """Register the fonts (once); raises :class:`FontMissing` naming the Debian package."""
    registered = {}
    for style, path in FONT_PATHS.items():
        if not path.is_file():
            raise FontMissing(
                f"the PDF file note needs the font {path}, which is not installed: install Debian's {FONT_PACKAGE} "
                f"(apt-get install {FONT_PACKAGE})"
            )
        font = _ExactFont(f"AsAtDejaVuSans-{style}", path)
        pdfmetrics.registerFont(font)
        registered[style] = font
    regular = registered["regular"]
    glyphs = frozenset(set(regular.face.charToGlyph) - {_NBSP_PROXY})
    return Fonts(regular.fontName, registered["bold"].fontName, glyphs)


def unprintable(text: str) -> set[str]:
    """The characters of ``text`` (besides line breaks) the PDF cannot give back exactly."""
    glyphs = fonts().glyphs
    return {c for c in set(text) - {"\n"} if not _printable(c, glyphs)}


def _printable(char: str, glyphs: frozenset[int]) -> bool:
    code = ord(char)
    if code > 0xFFFF or code not in glyphs:
        return False
    if any(low <= code <= high for low, high in _RTL_BLOCKS):
        return False
    return unicodedata.bidirectional(char) not in ("R", "AL", "AN", "RLE", "RLO", "RLI")


def check_printable(texts: Iterable[str]) -> None:
    """Raise :class:`UnprintableText` if any of ``texts`` holds a character the PDF would change."""
    bad: set[str] = set()
    for text in texts:
        bad |= unprintable(text)
    if bad:
        raise UnprintableText(bad)


@cache
def measure(font: str, size: float) -> Callable[[str], float]:
    """The advance width of one character in ``font`` at ``size`` (points)."""

    @cache
    def advance(char: str) -> float:
        return float(pdfmetrics.stringWidth(char, font, size))

    return advance


def wrap(text: str, limit: float, advance: Callable[[str], float]) -> list[str]:
    """``text`` (one line, no ``\\n``) cut into pieces, each fitting ``limit`` wide; their
    concatenation is ``text``. A piece ends after a space where one fits (spaces at the end of a
    piece may hang past the limit); a word wider than the limit is cut between two characters
    (never before a combining mark). An empty text is one empty piece."""
    pieces: list[str] = []
    start, n = 0, len(text)
    while start < n:
        used, end, after_space = 0.0, start, start
        while end < n:
            char = text[end]
            if char.isspace() and char not in _NO_BREAK:
                used += advance(char)
                end += 1
                after_space = end
                continue
            width = advance(char)
            if used + width > limit and end > start:
                break
            used += width
            end += 1
        if end < n:
            if after_space > start:
                end = after_space
            else:
                while end - 1 > start and unicodedata.combining(text[end]):
                    end -= 1
        pieces.append(text[start:end])
        start = end
    return pieces or [""]


def verbatim_lines(text: str, limit: float, advance: Callable[[str], float]) -> list[str]:
    """``text`` as the lines to draw, each ``MARK + " " + piece``; ``limit`` is the width of the
    pieces (the mark and its space are set before them)."""
    lines = []
    for number, line in enumerate(text.split("\n")):
        for index, piece in enumerate(wrap(line, limit, advance)):
            mark = MORE if index else (NEWLINE if number else OPEN)
            lines.append(f"{mark} {piece}")
    return lines


def recover_verbatim(extracted: str) -> list[str]:
    """The verbatim texts of a PDF, read back from its extracted text (``\\n`` between drawn
    lines): the inverse of :func:`verbatim_lines`. Lines without a mark are not verbatim text."""
    texts: list[str] = []
    for line in extracted.split("\n"):
        # A reader may put spaces before a line drawn right of the line above: they are not the text's.
        start = len(line) - len(line.lstrip(" "))
        mark, piece = line[start : start + 2], line[start + 2 :]
        if mark == f"{OPEN} ":
            texts.append(piece)
        elif mark == f"{NEWLINE} " and texts:
            texts[-1] += "\n" + piece
        elif mark == f"{MORE} " and texts:
            texts[-1] += piece
    return texts
