"""Sections of a ``register-pdf-layout-text`` compilation (the Register's authorised PDFs as text).

:func:`parse_register_layout_text` parses one volume; :func:`parse_register_layout` parses every
volume of a compilation, recording files that fail in the :class:`ParseReport` and carrying on.

Within a volume, only the body pages are read (see :mod:`register_pages`); parsing stops at the
``Endnotes`` heading that opens the endnotes part. Headings at column 0 drive the structure:
``Chapter/Part/Division/Subdivision/Schedule N—Title`` set the hierarchy, ``328-110 Title`` (or
``109D Title``) opens a section, and ``Table of sections``, ``Guide to ...`` and
``Operative provisions`` close the current one. In the TAA 1953, sections of Schedule N are
numbered ``schN-<number>`` (``sch1-12-35``); other Acts keep the number as printed.

A group heading inside a Division (``Research`` before ``30-40 Research``) is also set at
column 0. One that stands alone (after a blank line or at a page top), may wrap, and is followed
only by blank lines or a page break before the next section heading closes the current section
and is dropped, as the gitlaw and animus conversions drop it: it is not part of either section.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from asat_corpus.act import Compilation
from asat_corpus.parse_report import CorpusFileError, ParseReport
from asat_corpus.parsers.register_blocks import LABEL, canonical_text, subsections
from asat_corpus.parsers.register_pages import BodyLine, body_lines
from asat_corpus.provision import ParsedProvision

LEVELS = ("Schedule", "Chapter", "Part", "Division", "Subdivision")
_LEVEL = re.compile(r"^(Schedule|Chapter|Part|Division|Subdivision)\s+([0-9A-Z][\w.-]*)\s*—\s*\S")
_SECTION = re.compile(r"^(\d+[A-Z]*(?:-\d+[A-Z]*)?) (\S.*)$")
_ENDNOTES = re.compile(r"^(Endnotes\s*|Endnote 1—About the endnotes\s*)$")
_TABLE_OF = re.compile(r"^Table of (sections|Subdivisions|Divisions|Parts|Chapters|provisions)\b")
_GROUP = re.compile(r"^(Guide to |Operative provisions?\s*$|Application provisions?\s*$)")
_REPEALED = re.compile(r"^\(?Repealed\b.*\)?\.?$", re.IGNORECASE)
_HEADING_WRAP_MAX_INDENT = 12
_SECTION_WRAP_MIN = 40  # section headings wrap near 60 characters; a shorter one is complete
_LEVEL_WRAP_MIN = 25  # Chapter/Part/Division headings are set larger and wrap earlier
_SCHEDULE_PREFIXED_ACTS = frozenset({"taa1953"})
_NUMBER_PART = re.compile(r"\d+")
# A method statement's step ("1. Work out your capital proceeds"): body text, never a heading wrap.
_NUMBERED_STEP = re.compile(r"^\d+[A-Z]?\.\s")
_SENTENCE_END = (".", ":", ";", ",")


@dataclass
class _Open:
    number: str
    heading: str
    hierarchy: tuple[str, ...]
    line: int
    body: list[BodyLine] = field(default_factory=list)


@dataclass
class _State:
    hierarchy: dict[str, str] = field(default_factory=dict)
    schedule: str | None = None
    current: _Open | None = None
    in_table_of: bool = False
    last_key: tuple[int, ...] | None = None

    def path(self) -> tuple[str, ...]:
        return tuple(self.hierarchy[level] for level in LEVELS if level in self.hierarchy)

    def set_level(self, level: str, heading: str) -> None:
        rank = LEVELS.index(level)
        for lower in LEVELS[rank:]:
            self.hierarchy.pop(lower, None)
        self.hierarchy[level] = heading


def _is_heading_wrap(line: BodyLine) -> bool:
    stripped = line.text.strip()
    return (
        not line.blank
        and 0 < line.indent <= _HEADING_WRAP_MAX_INDENT
        and LABEL.match(stripped) is None
        and _NUMBERED_STEP.match(stripped) is None
        and "   " not in stripped
    )


def _heading_with_wraps(lines: Sequence[BodyLine], index: int, min_wrap: int) -> tuple[str, int]:
    """The heading at ``lines[index]`` joined with its wrapped lines; and the next index.

    A heading only wraps when its line is at least ``min_wrap`` characters long.
    """
    parts = [lines[index].text.strip()]
    index += 1
    while index < len(lines) and len(parts[-1]) >= min_wrap and _is_heading_wrap(lines[index]):
        parts.append(lines[index].text.strip())
        index += 1
    return " ".join(" ".join(parts).split()), index


def _section_number(raw: str, state: _State, compilation: Compilation) -> str:
    """``raw`` as printed, or ``schN-raw`` for TAA 1953 schedules and for schedule clauses."""
    if state.schedule is not None and (compilation.act in _SCHEDULE_PREFIXED_ACTS or "-" not in raw):
        return f"sch{state.schedule.lower()}-{raw}"
    return raw


def number_key(number: str) -> tuple[int, ...]:
    """Order of a printed section number by its digits: ``8-1`` < ``8-5`` < ``10-5``; ``109D`` = ``109``.

    Letters are ignored: the Register orders ``3AA`` before ``3A`` and ``165-115AA`` before
    ``165-115A``.
    """
    return tuple(int(part) for part in _NUMBER_PART.findall(number))


def _looks_like_heading(number: str, title: str, state: _State) -> bool:
    """False for table rows and other look-alikes.

    A hyphenated number must belong to the current Division (``328-110`` in Division 328); an
    unhyphenated one must not go back in the numbering (``1`` after ``121AS`` is a table row).
    """
    if "   " in title:
        return False
    if "-" in number:
        division = state.hierarchy.get("Division")
        return division is None or division.split("—")[0].split()[-1] == number.split("-")[0]
    return state.last_key is None or number_key(number) >= state.last_key


def _group_heading_end(lines: Sequence[BodyLine], index: int, state: _State) -> int | None:
    """Where the section heading after a group heading at ``lines[index]`` starts; else ``None``.

    ``lines[index]`` is a column-0 line that is not a Chapter/Part/... or section heading. It is a
    group heading when it stands alone (a blank line or a page break before it), reads like a
    heading (no label, no table gaps, no sentence punctuation at the end), and only its wrapped
    lines and blank lines separate it from a section heading.
    """
    line = lines[index]
    previous = lines[index - 1] if index > 0 else None
    if not (line.page_start or previous is None or previous.blank):
        return None
    text = line.text.strip()
    if LABEL.match(text) is not None or "   " in text or text.endswith(_SENTENCE_END):
        return None
    _, end = _heading_with_wraps(lines, index, _SECTION_WRAP_MIN)
    while end < len(lines) and lines[end].blank:
        end += 1
    if end >= len(lines):
        return None
    section = _SECTION.match(lines[end].text)
    if section is None or not _looks_like_heading(section.group(1), section.group(2), state):
        return None
    return end


def _close(state: _State, compilation: Compilation, rel_path: str, report: ParseReport) -> ParsedProvision | None:
    current = state.current
    state.current = None
    if current is None:
        return None
    text = canonical_text(current.body)
    excerpt = f"{current.number} {current.heading}"
    if _REPEALED.match(current.heading) or _REPEALED.match(text) or "(Repealed)" in current.heading:
        report.skip(rel_path, current.line, "repealed placeholder", excerpt)
        return None
    if not text:
        report.skip(rel_path, current.line, "empty body", excerpt)
        return None
    return ParsedProvision(
        act=compilation.act,
        register_id=compilation.register_id,
        number=current.number,
        heading=current.heading,
        hierarchy=current.hierarchy,
        text=text,
        subsections=subsections(text),
        source_file=rel_path,
        source_line=current.line,
    )


def _sections(text: str, rel_path: str, compilation: Compilation, report: ParseReport) -> Iterable[ParsedProvision]:
    lines = body_lines(text, rel_path)
    state = _State()
    index = 0
    while index < len(lines):
        line = lines[index]
        raw = line.text
        if line.blank or raw[0] == " ":
            if state.current is not None and not state.in_table_of:
                state.current.body.append(line)
            index += 1
            continue
        if _ENDNOTES.match(raw):
            break
        level = _LEVEL.match(raw)
        section = _SECTION.match(raw)
        if level is not None:
            closed = _close(state, compilation, rel_path, report)
            if closed is not None:
                yield closed
            heading, index = _heading_with_wraps(lines, index, _LEVEL_WRAP_MIN)
            state.set_level(level.group(1), heading)
            state.in_table_of = False
            if level.group(1) == "Schedule":
                state.schedule = level.group(2)
                state.last_key = None
            continue
        if section is not None and _looks_like_heading(section.group(1), section.group(2), state):
            closed = _close(state, compilation, rel_path, report)
            if closed is not None:
                yield closed
            heading, index = _heading_with_wraps(lines, index, _SECTION_WRAP_MIN)
            number = section.group(1)
            state.last_key = number_key(number)
            state.current = _Open(
                number=_section_number(number, state, compilation),
                heading=heading[len(number) :].strip(),
                hierarchy=state.path(),
                line=line.number,
            )
            state.in_table_of = False
            continue
        if _TABLE_OF.match(raw) or _GROUP.match(raw):
            closed = _close(state, compilation, rel_path, report)
            if closed is not None:
                yield closed
            state.in_table_of = _TABLE_OF.match(raw) is not None
            index += 1
            continue
        group_end = _group_heading_end(lines, index, state)
        if group_end is not None:
            closed = _close(state, compilation, rel_path, report)
            if closed is not None:
                yield closed
            index = group_end
            continue
        if state.current is not None and not state.in_table_of:
            state.current.body.append(line)
        elif re.match(r"^\d", raw):
            report.skip(rel_path, line.number, "column-0 line outside any section", raw.strip())
        index += 1
    closed = _close(state, compilation, rel_path, report)
    if closed is not None:
        yield closed


def _keep_unique(
    sections: Iterable[ParsedProvision], seen: dict[str, ParsedProvision], report: ParseReport
) -> list[ParsedProvision]:
    kept: list[ParsedProvision] = []
    for section in sections:
        first = seen.get(section.number)
        if first is not None:
            report.skip(
                section.source_file,
                section.source_line,
                f"duplicate section number (first at {first.source_file}:{first.source_line})",
                f"{section.number} {section.heading}",
            )
            continue
        seen[section.number] = section
        kept.append(section)
    report.items_parsed += len(kept)
    return kept


def parse_register_layout_text(
    text: str, rel_path: str, compilation: Compilation, report: ParseReport
) -> list[ParsedProvision]:
    """The sections of one volume's text. Raises :class:`CorpusFileError` on a malformed file."""
    return _keep_unique(_sections(text, rel_path, compilation, report), {}, report)


def _read(corpus_dir: Path, rel_path: str) -> str:
    path = corpus_dir / rel_path
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CorpusFileError(rel_path, 0, f"cannot read {path}: {exc.strerror}; check ASAT_CORPUS_DIR") from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CorpusFileError(
            rel_path, line, f"not UTF-8 text (byte {exc.start}): the file is binary or corrupt"
        ) from exc


def parse_register_layout(compilation: Compilation, corpus_dir: Path, report: ParseReport) -> list[ParsedProvision]:
    """Every section of every volume of ``compilation``; failing files are recorded in ``report``."""
    seen: dict[str, ParsedProvision] = {}
    out: list[ParsedProvision] = []
    for rel_path in compilation.files:
        try:
            sections = list(_sections(_read(corpus_dir, rel_path), rel_path, compilation, report))
        except CorpusFileError as err:
            report.fail(err)
            continue
        out.extend(_keep_unique(sections, seen, report))
    return out
