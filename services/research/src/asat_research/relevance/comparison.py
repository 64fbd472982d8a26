"""Comparing rankers on the same labelled candidate lists (pure apart from the model call).

Baselines: MiniLM cosine (the dense score), BM25 over the candidates (binary term frequency,
IDF from the whole index, BM25's length normalisation), today's hybrid reranker, and the
first stage's own fused order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from asat_research.question_words import content_words
from asat_research.relevance.candidates import CandidateList
from asat_research.relevance.features import candidate_features
from asat_research.relevance.ltr_model import LtrModel
from asat_research.relevance.ranking_metrics import RankingQuality, ranked_sections, ranking_quality
from asat_research.relevance.stats import RelevanceStats
from asat_research.rerank import HybridReranker
from asat_research.retrieval import Hit

Scorer = Callable[[str, Sequence[Hit], str | None], list[float]]
K1, B = 1.2, 0.75


def bm25_scores(question: str, hits: Sequence[Hit], stats: RelevanceStats) -> list[float]:
    wanted = content_words(question)
    lengths = [len(str(h.payload.get("text", "")).split()) or 1 for h in hits]
    average = sum(lengths) / len(lengths) if lengths else 1.0
    scores = []
    for hit, length in zip(hits, lengths, strict=True):
        words = content_words(str(hit.payload.get("text", "")) + " " + str(hit.payload.get("heading") or ""))
        norm = (K1 + 1) / (1 + K1 * (1 - B + B * length / average))
        scores.append(sum(stats.idf(w) * norm for w in wanted & words))
    return scores


def scorers(stats: RelevanceStats, model: LtrModel | None) -> dict[str, Scorer]:
    hybrid = HybridReranker()
    table: dict[str, Scorer] = {
        "first-stage fused (dense+BM25 RRF)": lambda q, hits, origin: [h.score for h in hits],
        "MiniLM cosine": lambda q, hits, origin: [h.dense_score for h in hits],
        "BM25 (over the candidates)": lambda q, hits, origin: bm25_scores(q, hits, stats),
        "hybrid (today's default)": lambda q, hits, origin: hybrid.scores(q, hits),
    }
    if model is not None:
        table["domain LTR (LightGBM lambdarank)"] = lambda q, hits, origin: model.raw_scores(
            candidate_features(q, hits, stats, exclude_citations_of=origin)
        )
    return table


def quality(lists: Sequence[CandidateList], scorer: Scorer) -> RankingQuality:
    rankings: list[list[int]] = []
    wanted: list[int] = []
    for cl in lists:
        scores = scorer(cl.example.question, cl.hits, cl.example.origin) if cl.hits else []
        rankings.append([label for _, _, label in ranked_sections(cl.hits, scores, cl.labels)])
        wanted.append(len(cl.example.targets))
    return ranking_quality(rankings, wanted)


def compare(lists: Sequence[CandidateList], stats: RelevanceStats, model: LtrModel | None) -> dict[str, RankingQuality]:
    return {name: quality(lists, scorer) for name, scorer in scorers(stats, model).items()}
