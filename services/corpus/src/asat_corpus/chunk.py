"""Retrieval chunks and the sentence spans a generator cites by id."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """A sentence-level span: ``id`` is ``<chunk id>#s<n>``; offsets index the source text."""

    id: str
    start: int
    end: int


@dataclass(frozen=True)
class Chunk:
    """A piece of one provision version (or ruling) for retrieval.

    ``text`` equals ``source_text[start:end]`` of the version (or ruling) ``source_id``.
    ``parent_id`` is the id of the section-level parent (the version id) for subsection chunks.
    """

    id: str
    source_id: str
    kind: str  # "provision" | "ruling"
    label_path: tuple[str, ...]  # ("(1)",), ("(1)", "part 2") for a split subsection; ("para 12",)
    text: str
    start: int
    end: int
    parent_id: str
    spans: tuple[Span, ...]
