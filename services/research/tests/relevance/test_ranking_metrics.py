from __future__ import annotations

import math

from asat_research.relevance.ranking_metrics import ndcg_at, ranked_sections, ranking_quality
from asat_research.retrieval import Hit


def _hit(chunk: str, act: str | None, number: str | None) -> Hit:
    return Hit(chunk, chunk.split("#")[0], 0.0, 0.0, {"act": act, "provision": number})


def test_sections_score_their_best_chunk_and_versions_and_markers_are_one_section() -> None:
    hits = [
        _hit("v1#a", "itaa1997", "8-1"),
        _hit("v2#b", "itaa1997", "8-1"),
        _hit("gap:itaa1997:8-1", "itaa1997", "8-1"),
        _hit("TR 2020/1#1", None, None),
    ]
    ranked = ranked_sections(hits, [0.2, 0.9, 0.1, 0.5], [0, 1, 1, 0])
    assert ranked == [("itaa1997:8-1", 0.9, 1), ("TR 2020/1", 0.5, 0)]


def test_quality_counts_a_missing_answer_as_a_miss() -> None:
    q = ranking_quality([[0, 1, 0], [0, 0, 0, 0, 0, 1], []], [1, 1, 1])
    assert q.recall1 == 0 and q.recall5 == 1 / 3 and q.recall10 == 2 / 3
    assert math.isclose(q.mrr, (1 / 2 + 1 / 6) / 3)
    assert ndcg_at([1], 10, 1) == 1.0 and ndcg_at([0, 1], 10, 1) == 1 / math.log2(3)
    assert ranking_quality([], []).queries == 0
