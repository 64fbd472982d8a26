"""Parser for the ``gitlaw-markdown`` format: 2015 compilations converted from Word files.

The converter lost the hyphens in provision numbers (``328-110`` printed ``328110``); they are
recovered from the enclosing Division heading, in numbering regions (the Act's body, each
Schedule) whose sections overwhelmingly start with their Division's number. Regions that do
not use the ``N-N`` scheme (ITAA 1936 ``109D``, FBTAA, SIS) keep numbers as printed. Sections
in a Schedule get the id ``sch<N>-<number>`` (TAA 1953 Schedule 1: ``sch1-12-35``).

Canonical text: Markdown markup removed (``#``, bullets, ``**``/``_`` emphasis), defined-term
asterisks kept (``*business``), one block per line, ``--`` written ``—``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path

from asat_corpus.act import Compilation
from asat_corpus.parse_report import CorpusFileError, ParseReport
from asat_corpus.parsers.gitlaw_numbers import (
    restore_reference_hyphens,
    split_part_number,
    split_section_number,
    split_subdivision_number,
)
from asat_corpus.parsers.markdown_files import parse_compilation_files, reject_nul_bytes
from asat_corpus.parsers.markdown_sections import SectionAssembler
from asat_corpus.parsers.markdown_text import (
    double_hyphen_to_dash,
    strip_emphasis,
    subsection_ranges,
)
from asat_corpus.provision import ParsedProvision

__all__ = [
    "parse_gitlaw_markdown",
    "parse_gitlaw_markdown_text",
    "restore_provision_references",
    "restore_reference_hyphens",
]

HYPHENATED_REGION_SHARE = 0.9

_HEADING = re.compile(r"^(#{1,6})\s*(.*?)\s*$")
_BULLET = re.compile(r"^\s*\*[ \t]+")
_TOC_PAGE = re.compile(r"\t\s*\d*\s*$")
_CONTENTS = re.compile(r"^##\s+Contents\s*$")
_SCHEDULE = re.compile(r"^Schedule\s*([0-9A-Z]*)\s*(?:--\s*(.*))?$")
_STRUCTURE = re.compile(r"^(Chapter|Part|Division|Subdivision)\s+([0-9A-Z]+)\s*--\s*(.*)$")
_SECTION = re.compile(r"^(\d+[A-Z]*)(?:\s+(.*))?$")
_TOC = re.compile(r"^Table of (?:sections|subdivisions|contents)\b", re.IGNORECASE)
_ENDNOTES = re.compile(r"^Endnotes?\b")
_AN_ACT = re.compile(r"^An Act\b")
_AMENDED_ACT = re.compile(r"\bAct \d{4}\s*$")


class _Kind(Enum):
    ENDNOTES = "endnotes"
    SCHEDULE = "schedule"
    STRUCTURE = "structure"
    SECTION = "section"
    TOC = "toc"
    GROUP = "group"
    BLOCK = "block"


@dataclass(frozen=True)
class _Event:
    kind: _Kind
    line: int
    text: str
    groups: tuple[str, ...] = ()


@dataclass
class _Region:
    schedule: str | None = None  # Schedule number ("" for an unnumbered Schedule)
    amending: bool = False
    hyphenated: bool = False


def _clean(text: str) -> str:
    return double_hyphen_to_dash(strip_emphasis(text))


def _classify_heading(line_no: int, raw: str) -> _Event:
    text = strip_emphasis(raw).lstrip("_ ")
    if _ENDNOTES.match(text):
        return _Event(_Kind.ENDNOTES, line_no, text)
    match = _SCHEDULE.match(text)
    if match:
        return _Event(_Kind.SCHEDULE, line_no, text, (match.group(1), match.group(2) or ""))
    match = _STRUCTURE.match(text)
    if match:
        return _Event(_Kind.STRUCTURE, line_no, text, match.groups())
    if _TOC.match(text):
        return _Event(_Kind.TOC, line_no, text)
    match = _SECTION.match(text)
    if match:
        return _Event(_Kind.SECTION, line_no, text, (match.group(1), match.group(2) or ""))
    return _Event(_Kind.GROUP, line_no, text)


def _is_body_start(raw_heading: str, event: _Event) -> bool:
    if _TOC_PAGE.search(raw_heading):
        return False
    if event.kind in (_Kind.STRUCTURE, _Kind.SECTION, _Kind.ENDNOTES):
        return True
    if event.kind is _Kind.SCHEDULE:
        return bool(event.groups[0])
    return bool(_AN_ACT.match(event.text))


def _events(text: str, rel_path: str) -> list[_Event]:
    """The body of one file as headings and joined body blocks, front matter and TOC removed."""
    reject_nul_bytes(text, rel_path)
    lines = text.splitlines()
    contents_at = next((i for i, line in enumerate(lines) if _CONTENTS.match(line)), None)
    if contents_at is None:
        raise CorpusFileError(
            rel_path,
            1,
            "no '## Contents' heading: not a complete gitlaw conversion (truncated at the front?)",
        )
    events: list[_Event] = []
    in_body = False
    block: list[str] = []
    block_line = 0

    def flush_block() -> None:
        if block:
            events.append(_Event(_Kind.BLOCK, block_line, " ".join(block)))
            block.clear()

    for index in range(contents_at + 1, len(lines)):
        line_no = index + 1
        line = lines[index]
        heading = _HEADING.match(line)
        if heading and heading.group(2):
            event = _classify_heading(line_no, heading.group(2))
            if not in_body:
                if not _is_body_start(heading.group(2), event):
                    continue
                in_body = True
            flush_block()
            if event.kind is _Kind.ENDNOTES:
                events.append(event)
                return events
            events.append(event)
            continue
        if not in_body:
            continue
        if not line.strip():
            flush_block()
            continue
        if not block:
            block_line = line_no
        block.append(_BULLET.sub("", line).strip())
    if not in_body:
        raise CorpusFileError(
            rel_path,
            len(lines),
            "file ends inside the table of contents: the conversion looks truncated",
        )
    flush_block()
    return events


def _hyphenated_regions(events: Sequence[_Event]) -> list[bool]:
    """For each numbering region (body, then each Schedule), whether it uses ``N-N``."""
    shares: list[list[int]] = [[0, 0]]
    division: str | None = None
    for event in events:
        if event.kind is _Kind.SCHEDULE:
            shares.append([0, 0])
            division = None
        elif event.kind is _Kind.STRUCTURE and event.groups[0] == "Division":
            division = event.groups[1]
        elif event.kind is _Kind.SECTION and division is not None:
            ok = split_section_number(event.groups[0], division) is not None
            shares[-1][0 if ok else 1] += 1
    return [ok > 0 and ok >= HYPHENATED_REGION_SHARE * (ok + bad) for ok, bad in shares]


class _FileParser:
    def __init__(self, rel_path: str, compilation: Compilation, report: ParseReport) -> None:
        self.rel_path = rel_path
        self.report = report
        self.sections = SectionAssembler(rel_path, compilation, report)
        self.region = _Region()
        self.levels: dict[str, tuple[str, str]] = {}  # level -> (number, printed heading)
        self.mode = "normal"  # "normal" | "toc" | "skip"

    def parse(self, events: Sequence[_Event]) -> list[ParsedProvision]:
        hyphenated = iter(_hyphenated_regions(events))
        self.region = _Region(hyphenated=next(hyphenated))
        for event in events:
            if event.kind is _Kind.SCHEDULE:
                self.sections.close()
                number, title = event.groups
                self.region = _Region(
                    schedule=number,
                    amending=bool(_AMENDED_ACT.search(title)),
                    hyphenated=next(hyphenated),
                )
                self.levels = {"Schedule": (number, _printed("Schedule", number, title))}
                self.mode = "normal"
            elif event.kind is _Kind.STRUCTURE:
                self.sections.close()
                self._structure(*event.groups)
                self.mode = "normal"
            elif event.kind is _Kind.TOC:
                self.sections.close()
                self.mode = "toc"
            elif event.kind is _Kind.SECTION:
                self.sections.close()
                self._section(event)
            elif event.kind is _Kind.GROUP:
                self._group(event)
            elif event.kind is _Kind.BLOCK:
                self._block(event)
            elif event.kind is _Kind.ENDNOTES:
                break
        self.sections.close()
        return self.sections.provisions

    def _structure(self, level: str, number: str, title: str) -> None:
        order = ("Chapter", "Part", "Division", "Subdivision")
        if self.region.hyphenated:
            if level == "Part" and "Chapter" in self.levels:
                number = split_part_number(number, self.levels["Chapter"][0]) or number
            if level == "Subdivision" and "Division" in self.levels:
                number = split_subdivision_number(number, self.levels["Division"][0]) or number
        for lower in order[order.index(level) :]:
            self.levels.pop(lower, None)
        self.levels[level] = (number, _printed(level, number, title))

    def _hierarchy(self) -> tuple[str, ...]:
        order = ("Schedule", "Chapter", "Part", "Division", "Subdivision")
        return tuple(self.levels[level][1] for level in order if level in self.levels)

    def _section(self, event: _Event) -> None:
        printed, title = event.groups
        if self.region.amending:
            self._skip(event, "amending Schedule item: it amends another Act, not a section")
            return
        number = printed
        division = self.levels.get("Division", ("", ""))[0]
        if self.region.hyphenated and division:
            split = split_section_number(printed, division)
            if split is None:
                self._skip(
                    event,
                    f"section number {printed} cannot be split consistently with its Division {division}",
                )
                return
            number = split
        if self.region.schedule is not None:
            number = f"sch{self.region.schedule}-{number}"
        self.sections.open(number, _clean(title), event.line, self._hierarchy())
        self.mode = "normal"

    def _group(self, event: _Event) -> None:
        if event.text[:1].islower() and _looks_like_body(event.text):
            self._block(event)
            return
        if event.text[:1].islower():
            self.sections.close()
            self._skip(event, "heading without a section number (number lost in conversion)")
            return
        if self.mode == "normal":
            self.sections.hold_group(_clean(event.text))

    def _block(self, event: _Event) -> None:
        if self.mode == "normal":
            self.sections.add_block(_clean(event.text))

    def _skip(self, event: _Event, reason: str) -> None:
        self.report.skip(self.rel_path, event.line, reason, event.text)
        self.mode = "skip"


def _looks_like_body(text: str) -> bool:
    """A lowercase heading-marked line that is a wrapped body item, not a lost section title."""
    return text.rstrip().endswith((".", ";", ":", ",", " and", " or")) or len(text.split()) >= 6


def _printed(level: str, number: str, title: str) -> str:
    cleaned = _clean(title)
    return f"{level} {number}\u2014{cleaned}" if cleaned else f"{level} {number}".rstrip()


def _known_numbers(provisions: Iterable[ParsedProvision]) -> set[str]:
    known: set[str] = set()
    for provision in provisions:
        number = provision.number
        known.add(number.split("-", 1)[1] if number.startswith("sch") else number)
        for level in provision.hierarchy:
            if level.startswith("Subdivision "):
                known.add(level.split("\u2014", 1)[0].removeprefix("Subdivision "))
    return known


def restore_provision_references(
    provisions: Sequence[ParsedProvision],
) -> tuple[list[ParsedProvision], int]:
    """Restore hyphens in body and heading references against the provisions' own numbers.

    Returns the provisions (subsection ranges recomputed) and the count of restorations.
    """
    known = _known_numbers(provisions)
    total = 0
    out: list[ParsedProvision] = []
    for provision in provisions:
        text, in_text = restore_reference_hyphens(provision.text, known)
        heading, in_heading = restore_reference_hyphens(provision.heading, known)
        total += in_text + in_heading
        if in_text or in_heading:
            provision = replace(provision, text=text, heading=heading, subsections=subsection_ranges(text))
        out.append(provision)
    return out, total


def _parse_file(text: str, rel_path: str, compilation: Compilation, report: ParseReport) -> list[ParsedProvision]:
    return _FileParser(rel_path, compilation, report).parse(_events(text, rel_path))


def parse_gitlaw_markdown_text(
    text: str, rel_path: str, compilation: Compilation, report: ParseReport
) -> list[ParsedProvision]:
    """Parse one gitlaw Markdown file; references are restored against its own sections.

    Raises ``CorpusFileError`` when the file is not a complete conversion (no contents
    heading, ends inside the contents, binary).
    """
    provisions, _ = restore_provision_references(_parse_file(text, rel_path, compilation, report))
    report.items_parsed += len(provisions)
    return provisions


def parse_gitlaw_markdown(compilation: Compilation, corpus_dir: Path, report: ParseReport) -> list[ParsedProvision]:
    """Parse every file of a gitlaw compilation; a malformed file is reported and skipped.

    References in the body are restored against every section of the compilation.
    """
    collected = parse_compilation_files(compilation, corpus_dir, report, _parse_file)
    provisions, _ = restore_provision_references(collected)
    report.items_parsed += len(provisions)
    return provisions
