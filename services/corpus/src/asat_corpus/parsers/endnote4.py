"""Endnote 4 (amendment history): one :class:`AmendmentEntry` per (row, kind, amending Act).

The table has two columns, ``Provision affected | How affected``. A row starts with its label
and a dot leader (``s 328-110 ......   ad No 78, 2001``; old style ``s. 328-115 .... ad. No.
78, 2001``); its How affected text continues on the lines below, across page breaks, with Act
references wrapped anywhere (``No 41,`` / ``2017``). Lines with no leader and nothing in the How
affected column are group headings (``Chapter 3``, ``Division 328``, ``Schedule 1``); a
``Schedule N`` heading puts the section rows under it in that Schedule (``sch1-12-35``).

Each row's How affected text is joined and read as clauses ``KIND REF; REF ...``: ``ad``,
``am``, ``rs``, ``rep``, ``reloc``, ``renum``, ``exp`` map to their :class:`AmendmentKind`;
any other clause word before an Act reference becomes ``OTHER`` and is noted in the report.
``(md not incorp)`` after a reference means the amendment was never given effect: it is
reported as skipped, not emitted. ``(as am by ...)`` and other parenthesised notes are read
past. Editorial changes (``ed C158``) name no Act and are reported as skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from asat_corpus.act import ActRef
from asat_corpus.amendment import AmendmentEntry, AmendmentKind
from asat_corpus.parse_report import MAX_EXAMPLES, ParseReport, Unparsed
from asat_corpus.parsers.endnote3 import join_wrapped
from asat_corpus.parsers.endnote_pages import endnote_pages

ENDNOTE = 4
_HEADER = re.compile(r"^\s*Provision affected\s{2,}How affected\s*$")
_LEADER_ROW = re.compile(r"^(?P<indent>\s*)(?P<target>\S.*?)\s*\.{3,}\s*(?P<rest>.*)$")
_CONTINUED = re.compile(r"\(cont\.\)$")
_CONTINUES_BELOW = re.compile(r"\s*\(cont\. below\)$")
_SCHEDULE_HEADING = re.compile(r"^Schedule (\d+[A-Z]*)$")
_SECTION_TARGET = re.compile(r"^ss?\.?\s+(?P<number>\d+[A-Z]*(?:-\d+[A-Z]*)?)$")
_KIND_WORD = re.compile(r"(?<![\w.])(?P<kind>[a-z]+)\.?(?=\s|$)")
_REF = re.compile(
    r"(?:\bNos?\.?\s*)?(?<![\d/])(?P<numbers>\d+[A-Z]?(?:\s*(?:,\s*and|,|and|&)\s*\d+[A-Z]?)*)\s*,?\s*"
    r"(?P<year>(?:18|19|20)\d\d)\b"
)
_NOT_INCORPORATED_MARK = "\x00"
_NOT_INCORPORATED = re.compile(r"\(\s*md\.?\s+not\s+incorp\.?\s*\)", re.IGNORECASE)
_CLAUSE_FILLER = re.compile(r"^[\s;,:]*(?:and[\s;,:]*)*$")
_KINDS: dict[str, AmendmentKind] = {
    "ad": AmendmentKind.ADDED,
    "am": AmendmentKind.AMENDED,
    "rs": AmendmentKind.REPEALED_AND_SUBSTITUTED,
    "rep": AmendmentKind.REPEALED,
    "reloc": AmendmentKind.RELOCATED,
    "renum": AmendmentKind.RENUMBERED,
    "exp": AmendmentKind.EXPIRED,
}
_NO_ACT_KINDS = frozenset({"ed"})
_LABEL_CONNECTORS = frozenset({"to", "of", "in", "and", "for", "under", "before", "after"})
_LABEL_KINDS: tuple[tuple[re.Pattern[str], AmendmentKind], ...] = (
    (re.compile(r"^(?:renum|renumbered)\b\.?\s*", re.IGNORECASE), AmendmentKind.RENUMBERED),
    (re.compile(r"^(?:reloc|relocated)\b\.?\s*", re.IGNORECASE), AmendmentKind.RELOCATED),
)


def provision_id(target: str, in_schedule: str | None) -> str | None:
    """The provision id of a section row label, else None.

    ``s 328-110`` -> ``328-110``; ``s. 109D`` -> ``109D``; in Schedule 1 (``in_schedule="1"``)
    ``s 12-35`` -> ``sch1-12-35``. Labels of Divisions, Subdivisions, headings, notes and
    definitions are not sections and give None.
    """
    match = _SECTION_TARGET.match(_CONTINUES_BELOW.sub("", " ".join(target.split())))
    if match is None:
        return None
    number = match.group("number")
    return f"sch{in_schedule.lower()}-{number}" if in_schedule else number


@dataclass
class _Row:
    target: str
    line: int
    schedule: str | None
    how: list[str] = field(default_factory=list)


def parse_endnote4(text: str, rel_path: str, compiled_act: str, report: ParseReport) -> list[AmendmentEntry]:
    """Every Endnote 4 entry found in ``text`` (one whole volume), in table order.

    Pages of other endnotes (including Endnote 5, the repeal table of ITAA 1936) are ignored.
    Raises :class:`CorpusFileError` when the volume ends part-way through an endnote page.
    """
    entries: list[AmendmentEntry] = []
    row: _Row | None = None
    how_column: int | None = None
    schedule: str | None = None
    for page in endnote_pages(text, rel_path):
        if page.endnote != ENDNOTE:
            continue
        for line in page.lines:
            header = _HEADER.match(line.text)
            if header:
                how_column = line.text.index("How affected")
                continue
            if how_column is None:
                report.skip(rel_path, line.number, "Endnote 4 line before any column header", line.text)
                continue
            leader = _LEADER_ROW.match(line.text)
            if leader and row is not None and _CONTINUED.search(leader.group("target")):
                row.how.append(leader.group("rest"))
                continue
            if leader:
                entries.extend(_finish(row, rel_path, compiled_act, report))
                row = _Row(" ".join(leader.group("target").split()), line.number, schedule)
                if leader.group("rest"):
                    row.how.append(leader.group("rest"))
                continue
            left, right = line.text[: how_column - 4].strip(), line.text[how_column - 4 :].strip()
            if not left:
                if row is None:
                    report.skip(rel_path, line.number, "Endnote 4 How affected text with no row above it", line.text)
                else:
                    row.how.append(right)
                continue
            if row is not None and _continues_label(row.target, left):
                row.target = f"{row.target} {left}"
                if right:
                    row.how.append(right)
                continue
            entries.extend(_finish(row, rel_path, compiled_act, report))
            row = None
            if right:  # a row whose dot leader is missing
                row = _Row(" ".join(left.split()), line.number, schedule, [right])
                continue
            heading = _SCHEDULE_HEADING.match(left)
            if heading:
                schedule = heading.group(1)
    entries.extend(_finish(row, rel_path, compiled_act, report))
    report.items_parsed += len(entries)
    return entries


def _continues_label(target: str, left: str) -> bool:
    """Whether ``left`` (a line with no dot leader) is the wrapped rest of the row label ``target``."""
    return left[0].islower() or target.split()[-1].lower() in _LABEL_CONNECTORS


def _finish(row: _Row | None, rel_path: str, compiled_act: str, report: ParseReport) -> list[AmendmentEntry]:
    if row is None:
        return []
    if not row.how:
        report.skip(rel_path, row.line, "Endnote 4 row with no How affected text", row.target)
        return []
    label_kind, label = _label_kind(row.target)
    provision = provision_id(label, row.schedule)
    entries: list[AmendmentEntry] = []
    for kind, ref in read_how_affected(join_wrapped(row.how), rel_path, row.line, report, label_kind):
        entries.append(
            AmendmentEntry(
                compiled_act=compiled_act,
                target=row.target,
                provision=provision,
                kind=kind,
                act=ref,
                source_file=rel_path,
                source_line=row.line,
            )
        )
    return entries


def _refs(match: re.Match[str]) -> list[ActRef]:
    year = int(match.group("year"))
    numbers = re.split(r"\s*(?:,\s*and|,|and|&)\s*", match.group("numbers"))
    return [ActRef(int(re.sub(r"\D", "", n)), year) for n in numbers]


def _label_kind(target: str) -> tuple[AmendmentKind | None, str]:
    """The kind a label itself states (``renum s 26-97``), and the label without it."""
    for pattern, kind in _LABEL_KINDS:
        match = pattern.match(target)
        if match:
            return kind, target[match.end() :]
    return None, target


def read_how_affected(
    text: str, rel_path: str, line: int, report: ParseReport, label_kind: AmendmentKind | None = None
) -> list[tuple[AmendmentKind, ActRef]]:
    """The (kind, Act) pairs of one row's joined How affected text, reporting what it cannot read.

    ``label_kind`` is the kind the row label states (``renum s 26-97 .... No 110, 2014``); it
    applies to Act references that come before any kind word.
    """
    marked = _NOT_INCORPORATED.sub(_NOT_INCORPORATED_MARK, text)
    plain = _blank_notes(marked)
    starts = [m for m in _KIND_WORD.finditer(plain) if _starts_clause(plain, m)]
    prefix = plain[: starts[0].start()] if starts else plain
    pairs: list[tuple[AmendmentKind, ActRef]] = []
    if prefix.strip():
        if label_kind is None:
            report.skip(rel_path, line, "Endnote 4 Act reference with no amendment kind before it", text)
        else:
            pairs.extend(_clause(label_kind.value, prefix, rel_path, line, report))
    for index, start in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(plain)
        word = start.group("kind")
        body = plain[start.end() : end]
        pairs.extend(_clause(word, body, rel_path, line, report))
    return pairs


def _starts_clause(text: str, match: re.Match[str]) -> bool:
    """A lower-case word opens a clause when an Act reference, or a compilation, follows it."""
    after = text[match.end() :].lstrip()
    word = match.group("kind")
    return word in _KINDS or word in _NO_ACT_KINDS or bool(re.match(r"Nos?\b", after))


def _clause(word: str, body: str, rel_path: str, line: int, report: ParseReport) -> list[tuple[AmendmentKind, ActRef]]:
    if word in _NO_ACT_KINDS:
        report.skip(rel_path, line, f"Endnote 4 '{word}' (editorial change) names no amending Act", f"{word} {body}")
        return []
    kind = _KINDS.get(word, AmendmentKind.OTHER)
    if kind is AmendmentKind.OTHER:
        _note_other(report, rel_path, line, word, body)
    pairs: list[tuple[AmendmentKind, ActRef]] = []
    rest: list[str] = []
    position = 0
    for ref in _REF.finditer(body):
        rest.append(body[position : ref.start()])
        position = ref.end()
        if body[position:].lstrip().startswith(_NOT_INCORPORATED_MARK):
            report.skip(
                rel_path,
                line,
                "Endnote 4 misdescribed amendment not incorporated (md not incorp)",
                f"{word} {ref.group(0)}",
            )
            continue
        pairs.extend((kind, act) for act in _refs(ref))
    rest.append(body[position:])
    leftover = "".join(rest).replace(_NOT_INCORPORATED_MARK, " ")
    if not pairs and not leftover.strip():
        report.skip(rel_path, line, f"Endnote 4 '{word}' with no Act reference", body)
    elif not _CLAUSE_FILLER.match(leftover):
        report.skip(rel_path, line, f"Endnote 4 text after '{word}' not read as an Act reference", leftover)
    return pairs


def _blank_notes(text: str) -> str:
    """``text`` with parenthesised notes (``(as am by No 20, 1974)``, ``(md)``) blanked."""
    previous = None
    while previous != text:
        previous = text
        text = re.sub(r"\([^()]*\)", lambda m: " " * len(m.group(0)), text)
    return text


def _note_other(report: ParseReport, rel_path: str, line: int, word: str, body: str) -> None:
    """Record an ``OTHER`` kind among the examples without counting it as unparsed."""
    if len(report.examples) < MAX_EXAMPLES:
        report.examples.append(
            Unparsed(rel_path, line, f"Endnote 4 kind '{word}' recorded as OTHER", f"{word} {body}"[:160])
        )
