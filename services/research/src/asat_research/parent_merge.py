"""Rerank and parent merge (pure): group hits by section, children capped and windowed.

Hits are grouped by their parent (the provision version or ruling). Each parent keeps the
chunks that scored, a provision's lead subsection (its opening rule), and ``window`` neighbours
either side, in document order, capped at ``max_children`` (the best scoring chunk first, then
the lead, then the other scoring chunks by score). Parents are ordered by their best child's
rerank score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from asat_corpus.chunk import Chunk
from asat_research.retrieval import Hit

MAX_CHILDREN = 16
WINDOW = 1
# A provision's opening subsection usually states its rule; later ones qualify it. The lead is
# the first chunk, and the next one too when the first is only a short preamble.
LEAD_MIN_CHARS = 200


def lead_chunks(children: Sequence[Chunk]) -> list[int]:
    """Positions of the section's lead chunk(s) in document order (pure)."""
    if not children:
        return []
    if len(children) > 1 and len(children[0].text) < LEAD_MIN_CHARS:
        return [0, 1]
    return [0]


@dataclass(frozen=True)
class ParentContext:
    source_id: str
    score: float  # best rerank score among its scoring chunks
    chunks: tuple[Chunk, ...]  # document order
    scoring_chunk_ids: tuple[str, ...]  # best first
    payload: dict[str, object]  # payload of the best hit
    chunk_scores: tuple[tuple[str, float], ...] = ()  # (chunk id, rerank score) of each scoring chunk
    lead_chunk_ids: tuple[str, ...] = ()  # the section's opening subsection(s), always kept


def merge_parents(
    hits: Sequence[Hit],
    scores: Sequence[float],
    children_of: Callable[[str], Sequence[Chunk]],
    max_children: int = MAX_CHILDREN,
    window: int = WINDOW,
) -> list[ParentContext]:
    """``scores[i]`` is the rerank score of ``hits[i]``; ``children_of`` lists a parent's chunks in order."""
    best: dict[str, list[tuple[float, Hit]]] = {}
    for hit, score in zip(hits, scores, strict=True):
        best.setdefault(hit.source_id, []).append((score, hit))
    parents: list[ParentContext] = []
    for source_id, scored in best.items():
        scored.sort(key=lambda pair: -pair[0])
        children = list(children_of(source_id))
        position = {chunk.id: i for i, chunk in enumerate(children)}
        scoring = [hit.chunk_id for _, hit in scored if hit.chunk_id in position]
        chosen: list[int] = []
        leads = lead_chunks(children) if scored[0][1].payload.get("kind") == "provision" else []
        for chunk_id in scoring[:1]:  # the best scoring chunk, then the lead, then the other scoring chunks
            chosen.append(position[chunk_id])
        for index in leads:
            if index not in chosen and len(chosen) < max_children:
                chosen.append(index)
        for chunk_id in scoring[1:]:
            if position[chunk_id] not in chosen and len(chosen) < max_children:
                chosen.append(position[chunk_id])
        for chunk_id in scoring:  # then their neighbours
            centre = position[chunk_id]
            for offset in range(1, window + 1):
                for neighbour in (centre - offset, centre + offset):
                    if 0 <= neighbour < len(children) and neighbour not in chosen and len(chosen) < max_children:
                        chosen.append(neighbour)
        parents.append(
            ParentContext(
                source_id=source_id,
                score=scored[0][0],
                chunks=tuple(children[i] for i in sorted(set(chosen))),
                scoring_chunk_ids=tuple(scoring),
                payload=dict(scored[0][1].payload),
                chunk_scores=tuple((hit.chunk_id, score) for score, hit in scored),
                lead_chunk_ids=tuple(children[i].id for i in leads),
            )
        )
    parents.sort(key=lambda p: (-p.score, p.source_id))
    return parents
