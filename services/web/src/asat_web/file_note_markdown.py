"""The file note as Markdown: plain text first, a record to keep.

Verbatim text (the question and each quote) is a blockquote whose source keeps it byte for byte:
each of its lines (split at ``\\n`` only) is written as ``"> " + line``, an empty line as ``">"``,
and nothing inside is escaped, so ``*``, ``_``, ``#``, ``(1)`` and the like stay as they are
(a Markdown viewer may still read ``*aggregated turnover*`` as emphasis: the source is the record).
Every blockquote has a blank line before and after it. The note's own text never starts a line
with ``>`` (one that would is escaped as ``\\>``), so :func:`recover_blockquotes` reads the
verbatim texts back exactly.
"""

from __future__ import annotations

from datetime import datetime

from asat_web.file_note import FileNote, Quote

LEGEND_MD = (
    "Verbatim text (the question and each quote) is set as a blockquote: each line of it follows "
    "\u201c> \u201d, exactly as it stands, and nothing in it is escaped."
)


def render_markdown(note: FileNote) -> str:
    """The note as Markdown (UTF-8 text ending in one line break)."""
    audit = note.audit
    out: list[str] = [f"# {note.title}: audit row {audit.row_id}", ""]
    out += _para(
        f"Audit row {audit.row_id}, recorded {_time(audit.recorded_at)}; this note generated {_time(note.generated_at)}."
    )
    out += [*_heading("## Question"), *blockquote(note.question)]
    out += [*_heading("## Period"), *_para(note.period)]
    same = note.decision_words.lower() == note.decision
    out += [
        *_heading("## Decision"),
        *_para(note.decision_words if same else f"{note.decision_words} ({note.decision})"),
    ]
    for notice in note.notices:
        out += _para(notice)
    if note.answered:
        out += _heading("## Claims")
        for claim in note.claims:
            out += [*_heading(f"### Claim {claim.number}"), *_para(claim.text)]
            for quote in claim.quotes:
                out += _quote(quote)
        out += _para(note.dropped) if note.dropped else []
    if note.reasons:
        out += _heading(f"## {note.reasons_heading}")
        out += [*(_line(f"- {reason}") for reason in note.reasons), ""]
    if note.dropped and not note.answered:
        out += _para(note.dropped)
    if note.reading_list is not None:
        out += _heading("## Reading list")
        if not note.reading_list:
            out += _para("No sources to read for this period.")
        for item in note.reading_list:
            out += [
                *_heading(f"### {_line(item.title)}"),
                *_para(f"Register {', '.join(item.register_ids) or 'none'}; {item.in_force}."),
            ]
            for quote in item.quotes:
                out += _quote(quote)
    record = (
        ("Audit row", str(audit.row_id)),
        ("Recorded", _time(audit.recorded_at)),
        ("Request", audit.request_id),
        ("Hash", audit.hash),
        ("Previous hash", audit.prev_hash),
        ("Corpus generation", note.corpus_generation),
        ("Model", note.model),
        ("Generated", _time(note.generated_at)),
    )
    out += [*_heading("## Record"), *(_line(f"- {label}: {value}") for label, value in record), ""]
    out += [*_heading("## Attribution"), *_para(note.attribution), *_para(LEGEND_MD)]
    return "\n".join(out).rstrip("\n") + "\n"


def _heading(heading: str) -> list[str]:
    return [heading, ""]


def blockquote(text: str) -> list[str]:
    """``text`` as blockquote lines (then a blank line), byte for byte: ``"> " + line`` each."""
    return [f"> {line}" if line else ">" for line in text.split("\n")] + [""]


def recover_blockquotes(markdown: str) -> list[str]:
    """The verbatim texts of a note's Markdown, exactly: the inverse of :func:`blockquote`."""
    texts: list[str] = []
    current: list[str] | None = None
    for line in markdown.split("\n"):
        if line.startswith(">"):
            body = line[1:]
            piece = body[1:] if body.startswith(" ") else body
            current = [piece] if current is None else [*current, piece]
            continue
        if current is not None:
            texts.append("\n".join(current))
            current = None
    if current is not None:
        texts.append("\n".join(current))
    return texts


def _quote(quote: Quote) -> list[str]:
    version = quote.version
    caption = f"Quoted from {version.title} ({version.details}), {quote.where}."
    lines = blockquote(quote.text) + _para(caption)
    return lines + (_para(quote.then_stood) if quote.then_stood else [])


def _para(text: str) -> list[str]:
    """The note's own text as a paragraph, then a blank line."""
    return [_line(line) for line in text.split("\n")] + [""]


def _line(line: str) -> str:
    """A line of the note's own text, never read as a blockquote."""
    stripped = line.lstrip(" ")
    if stripped.startswith(">"):
        return f"{line[: len(line) - len(stripped)]}\\{stripped}"
    return line


def _time(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")
