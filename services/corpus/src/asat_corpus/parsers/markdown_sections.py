"""The sections of one Markdown file, assembled as a parser reads it (gitlaw, animus).

The parser opens a section at its heading, passes it the group headings and canonical body
blocks that follow, and closes it at the next heading. A group heading (``Operative
provisions``) is written into the section only when a body block follows it in that section.
A closed section becomes a provision unless it is a repealed placeholder, has no body, or
repeats a number already seen in the file; each of those is reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from asat_corpus.act import Compilation
from asat_corpus.parse_report import ParseReport
from asat_corpus.parsers.markdown_text import subsection_ranges
from asat_corpus.provision import ParsedProvision

__all__ = ["SectionAssembler"]

_REPEALED = re.compile(r"^\(?Repealed\)?\.?$", re.IGNORECASE)


@dataclass
class _OpenSection:
    number: str
    heading: str
    line: int
    hierarchy: tuple[str, ...]
    lines: list[str] = field(default_factory=list)


class SectionAssembler:
    """The provisions of one file, built section by section; ``provisions`` holds the closed ones."""

    def __init__(self, rel_path: str, compilation: Compilation, report: ParseReport) -> None:
        self.rel_path = rel_path
        self.compilation = compilation
        self.report = report
        self.provisions: list[ParsedProvision] = []
        self._open: _OpenSection | None = None
        self._group: str | None = None
        self._seen: set[str] = set()

    def open(self, number: str, heading: str, line: int, hierarchy: tuple[str, ...]) -> None:
        """Start a section; the caller has closed the previous one."""
        self._open = _OpenSection(number, heading, line, hierarchy)

    def hold_group(self, text: str) -> None:
        """A group heading, written before the next body block of the open section."""
        self._group = text

    def add_block(self, text: str) -> None:
        """Append a canonical body block to the open section; ignored when none is open.

        A held group heading goes in first, even when the block itself is empty.
        """
        if self._open is None:
            return
        if self._group:
            self._open.lines.append(self._group)
            self._group = None
        if text:
            self._open.lines.append(text)

    def close(self) -> None:
        """Finish the open section (if any) and drop a held group heading."""
        section, self._open = self._open, None
        self._group = None
        if section is None:
            return
        provision = self._finished(section)
        if provision is not None:
            self.provisions.append(provision)

    def _finished(self, section: _OpenSection) -> ParsedProvision | None:
        text = "\n".join(section.lines)
        excerpt = f"{section.number} {section.heading}"
        if _REPEALED.match(text.strip()) or _REPEALED.match(section.heading):
            self.report.skip(self.rel_path, section.line, "repealed section", excerpt)
        elif not text.strip():
            self.report.skip(self.rel_path, section.line, "empty section (no body)", excerpt)
        elif section.number in self._seen:
            self.report.skip(self.rel_path, section.line, "duplicate section number", excerpt)
        else:
            self._seen.add(section.number)
            return ParsedProvision(
                act=self.compilation.act,
                register_id=self.compilation.register_id,
                number=section.number,
                heading=section.heading,
                hierarchy=section.hierarchy,
                text=text,
                subsections=subsection_ranges(text),
                source_file=self.rel_path,
                source_line=section.line,
            )
        return None
