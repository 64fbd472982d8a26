"""Reciprocal rank fusion: ``score(d) = sum over rankings of 1 / (k + rank(d))``, rank from 1."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

RRF_K = 60

T = TypeVar("T", bound=Hashable)


def rrf_fuse(rankings: Sequence[Sequence[T]], limit: int, k: int = RRF_K) -> list[tuple[T, float]]:
    """Fuse best-first ``rankings`` into one list of ``(item, score)``, best first.

    An item absent from a ranking gets nothing from it. Ties are broken by the item's best
    rank in any ranking, then by the order of first appearance, so the result is deterministic.
    """
    if k < 1:
        raise ValueError(f"RRF k must be at least 1, got {k}")
    if limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    scores: dict[T, float] = {}
    best_rank: dict[T, int] = {}
    for ranking in rankings:
        seen: set[T] = set()
        for position, item in enumerate(ranking, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + position)
            best_rank[item] = min(best_rank.get(item, position), position)
    order = {item: i for i, item in enumerate(scores)}
    fused = sorted(scores.items(), key=lambda pair: (-pair[1], best_rank[pair[0]], order[pair[0]]))
    return fused[:limit]
