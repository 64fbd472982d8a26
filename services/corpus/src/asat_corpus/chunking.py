"""Chunks and sentence spans (pure).

Provision versions are chunked at subsection level under their section parent; a subsection
longer than ``max_chars`` is split at line (paragraph) boundaries. Rulings are chunked per
numbered paragraph, consecutive short paragraphs packed together. Every chunk's text is ``source_text[start:end]`` exactly, and every span
lies inside its chunk. Spans are sentence-level: one per line, and a long line is split after
sentence-ending punctuation followed by a capital or an opening bracket.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from asat_corpus.chunk import Chunk, Span
from asat_corpus.provision import ProvisionVersion
from asat_corpus.ruling import Ruling

MAX_CHUNK_CHARS = 1200
LONG_LINE = 300
_SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[A-Z(])")
_LABEL_CHARS = re.compile(r"[^0-9A-Za-z]+")


def _label_slug(label: str) -> str:
    return _LABEL_CHARS.sub("", label) or "body"


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _lines(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    position = start
    while position < end:
        newline = text.find("\n", position, end)
        stop = end if newline == -1 else newline
        s, e = _trimmed(text, position, stop)
        if e > s:
            yield s, e
        position = stop + 1


def sentence_ranges(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentence-level ranges inside ``text[start:end]``, in order, never empty."""
    ranges: list[tuple[int, int]] = []
    for s, e in _lines(text, start, end):
        if e - s <= LONG_LINE:
            ranges.append((s, e))
            continue
        cursor = s
        for match in _SENTENCE_END.finditer(text, s, e):
            ranges.append((cursor, match.start()))
            cursor = match.end()
        ranges.append((cursor, e))
    return [r for r in ranges if r[1] > r[0]]


def _pieces(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Split ``[start, end)`` at line boundaries into pieces of at most ``max_chars`` where possible."""
    pieces: list[tuple[int, int]] = []
    piece_start: int | None = None
    piece_end = start
    for s, e in _lines(text, start, end):
        if piece_start is not None and e - piece_start > max_chars:
            pieces.append((piece_start, piece_end))
            piece_start = None
        if piece_start is None:
            piece_start = s
        piece_end = e
    if piece_start is not None:
        pieces.append((piece_start, piece_end))
    return pieces


SPAN_SEPARATOR = "#s"


def chunk_id_of(span_id: str) -> str:
    """The chunk a sentence span belongs to: ``"<chunk id>#s<n>"`` -> ``"<chunk id>"``."""
    return span_id.split("#", 1)[0]


def _chunk(source_id: str, kind: str, chunk_id: str, labels: tuple[str, ...], text: str, s: int, e: int) -> Chunk:
    spans = tuple(
        Span(id=f"{chunk_id}{SPAN_SEPARATOR}{n}", start=a, end=b)
        for n, (a, b) in enumerate(sentence_ranges(text, s, e), start=1)
    )
    return Chunk(
        id=chunk_id,
        source_id=source_id,
        kind=kind,
        label_path=labels,
        text=text[s:e],
        start=s,
        end=e,
        parent_id=source_id,
        spans=spans,
    )


def _ranges(version: ProvisionVersion) -> list[tuple[str, int, int]]:
    if version.subsections:
        return [(sub.label, sub.start, sub.end) for sub in version.subsections]
    return [("", 0, len(version.text))]


def chunk_version(version: ProvisionVersion, max_chars: int = MAX_CHUNK_CHARS) -> list[Chunk]:
    chunks: list[Chunk] = []
    text = version.text
    seen: dict[str, int] = {}
    for label, start, end in _ranges(version):
        s, e = _trimmed(text, start, end)
        if e <= s:
            continue
        pieces = _pieces(text, s, e, max_chars)
        slug = _label_slug(label)
        # A label printed twice in one section (e.g. two "(1)"s in different parts) stays distinct.
        seen[slug] = seen.get(slug, 0) + 1
        if seen[slug] > 1:
            slug = f"{slug}~{seen[slug]}"
        for part, (ps, pe) in enumerate(pieces, start=1):
            chunk_id = f"{version.id}/{slug}" if len(pieces) == 1 else f"{version.id}/{slug}.{part}"
            labels = (label,) if len(pieces) == 1 else (label, f"part {part}")
            chunks.append(_chunk(version.id, "provision", chunk_id, labels, text, ps, pe))
    return chunks


def chunk_ruling(ruling: Ruling, max_chars: int = MAX_CHUNK_CHARS) -> list[Chunk]:
    """Consecutive numbered paragraphs packed up to ``max_chars``; a longer one is split at lines."""
    groups: list[list[tuple[str, int, int]]] = []
    ranges = [(p.number, p.start, p.end) for p in ruling.paragraphs] or [("body", 0, len(ruling.text))]
    for number, start, end in ranges:
        s, e = _trimmed(ruling.text, start, end)
        if e <= s:
            continue
        if groups and e - groups[-1][0][1] <= max_chars:
            groups[-1].append((number, s, e))
        else:
            groups.append([(number, s, e)])
    chunks: list[Chunk] = []
    for group in groups:
        first, last = group[0][0], group[-1][0]
        name = first if first == last else f"{first}-{last}"
        pieces = _pieces(ruling.text, group[0][1], group[-1][2], max_chars)
        for part, (ps, pe) in enumerate(pieces, start=1):
            slug = _label_slug(name) if first == last else f"{_label_slug(first)}-{_label_slug(last)}"
            chunk_id = f"{ruling.id}/para{slug}" if len(pieces) == 1 else f"{ruling.id}/para{slug}.{part}"
            label = f"para {name}" if first == last else f"paras {name}"
            labels = (label,) if len(pieces) == 1 else (label, f"part {part}")
            chunks.append(_chunk(ruling.id, "ruling", chunk_id, labels, ruling.text, ps, pe))
    return chunks
