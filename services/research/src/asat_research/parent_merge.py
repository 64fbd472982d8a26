"""Rerank and parent merge (pure): group hits by section, children capped and windowed.

Hits are grouped by their parent (the provision version or ruling). Each parent keeps the
chunks that scored plus ``window`` neighbours either side, in document order, capped at
``max_children`` (scoring chunks first, by score). Parents are ordered by their best child's
rerank score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from asat_corpus.chunk import Chunk
from asat_research.retrieval import Hit

MAX_CHILDREN = 16
WINDOW = 1


@dataclass(frozen=True)
class ParentContext:
    source_id: str
    score: float  # best rerank score among its scoring chunks
    chunks: tuple[Chunk, ...]  # document order
    scoring_chunk_ids: tuple[str, ...]  # best first
    payload: dict[str, object]  # payload of the best hit
    chunk_scores: tuple[tuple[str, float], ...] = ()  # (chunk id, rerank score) of each scoring chunk


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
        for chunk_id in scoring:  # scoring chunks first, best first
            if len(chosen) < max_children:
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
            )
        )
    parents.sort(key=lambda p: (-p.score, p.source_id))
    return parents
