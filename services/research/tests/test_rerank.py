from __future__ import annotations

from asat_research.rerank import EmbeddingCosineReranker, HybridReranker
from asat_research.retrieval import Hit


def _hit(chunk: str, fused: float, dense: float, heading: str = "", kind: str = "provision") -> Hit:
    key = "heading" if kind == "provision" else "title"
    return Hit(chunk, chunk.split("/")[0], fused, dense, {"kind": kind, key: heading})


def test_cosine_reranker_is_the_dense_score() -> None:
    hits = [_hit("a/1", 0.03, 0.61), _hit("b/1", 0.02, 0.72)]
    assert EmbeddingCosineReranker().scores("q", hits) == [0.61, 0.72]


def test_hybrid_adds_the_fused_share_and_the_heading_overlap_to_the_cosine() -> None:
    hits = [_hit("a/1", 0.04, 0.50, "Repairs"), _hit("b/1", 0.02, 0.50, "Deductions for gifts")]
    a, b = HybridReranker().scores("Are repairs to a rental deductible?", hits)
    # a: best fused (share 1.0) and 1 of 3 topic words (repair, rental, deduct) in its heading.
    assert a == 0.50 + HybridReranker.FUSED_WEIGHT * 1.0 + HybridReranker.HEADING_WEIGHT / 3
    assert b == 0.50 + HybridReranker.FUSED_WEIGHT * 0.5 + HybridReranker.HEADING_WEIGHT / 3


def test_hybrid_reads_a_ruling_title_and_leaves_equal_hits_equal() -> None:
    hits = [_hit("TR 2020/1/1", 0.03, 0.6, "Income tax: employees: deductions for work expenses", kind="ruling")]
    (score,) = HybridReranker().scores("employees work expenses", hits)
    assert score == 0.6 + HybridReranker.FUSED_WEIGHT + HybridReranker.HEADING_WEIGHT
    assert HybridReranker().scores("q", []) == []


def test_hybrid_bonus_is_bounded_so_the_scale_stays_near_the_cosine() -> None:
    hits = [_hit(f"x{i}/1", 0.01 * (i + 1), 0.4, "capital gains tax discount") for i in range(5)]
    scores = HybridReranker().scores("capital gains discount", hits)
    assert all(0.4 <= s <= 0.4 + HybridReranker.FUSED_WEIGHT + HybridReranker.HEADING_WEIGHT + 1e-9 for s in scores)
