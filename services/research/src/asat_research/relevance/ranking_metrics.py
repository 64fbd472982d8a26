"""Ranking quality at the level a tax agent reads: sections, not chunks (pure).

Chunks are grouped into their section (a provision of an Act, whichever version or marker, or a
ruling); a section scores its best chunk. A section is relevant when any of its chunks is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from asat_research.retrieval import Hit


def section_key(hit: Hit) -> str:
    act, number = hit.payload.get("act"), hit.payload.get("provision")
    return f"{act}:{number}" if act and number else hit.source_id


def ranked_sections(
    hits: Sequence[Hit], scores: Sequence[float], labels: Sequence[int]
) -> list[tuple[str, float, int]]:
    """(section, best score, best label), best first; ties broken by the key for stable results."""
    best: dict[str, tuple[float, int]] = {}
    for hit, score, label in zip(hits, scores, labels, strict=True):
        key = section_key(hit)
        old = best.get(key)
        best[key] = (max(score, old[0]) if old else score, max(label, old[1]) if old else label)
    return sorted(((k, s, lab) for k, (s, lab) in best.items()), key=lambda r: (-r[1], r[0]))


def ndcg_at(relevant: Sequence[int], k: int, total_relevant: int) -> float:
    dcg = sum((1.0 / math.log2(i + 2)) for i, r in enumerate(relevant[:k]) if r > 0)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(total_relevant, k)))
    return dcg / ideal if ideal else 0.0


@dataclass(frozen=True)
class RankingQuality:
    queries: int
    ndcg10: float
    recall1: float
    recall5: float
    recall10: float
    mrr: float

    def as_dict(self) -> dict[str, float]:
        return {
            "queries": self.queries,
            "ndcg@10": round(self.ndcg10, 4),
            "recall@1": round(self.recall1, 4),
            "recall@5": round(self.recall5, 4),
            "recall@10": round(self.recall10, 4),
            "mrr": round(self.mrr, 4),
        }


def ranking_quality(rankings: Sequence[Sequence[int]], wanted: Sequence[int]) -> RankingQuality:
    """``rankings[q]``: the relevance (0/1+) of each section in ranked order for query q;
    ``wanted[q]``: how many sections answer q (a query whose answer was not retrieved counts as a miss)."""
    n = len(rankings)
    if n == 0:
        return RankingQuality(0, 0.0, 0.0, 0.0, 0.0, 0.0)
    ndcg = recall1 = recall5 = recall10 = mrr = 0.0
    for ranking, total in zip(rankings, wanted, strict=True):
        ndcg += ndcg_at(ranking, 10, max(total, 1))
        first = next((i for i, r in enumerate(ranking) if r > 0), None)
        if first is not None:
            mrr += 1.0 / (first + 1)
            recall1 += first < 1
            recall5 += first < 5
            recall10 += first < 10
    return RankingQuality(n, ndcg / n, recall1 / n, recall5 / n, recall10 / n, mrr / n)
