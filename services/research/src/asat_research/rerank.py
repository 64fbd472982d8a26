"""The Reranker port: scores (question, hit) pairs on the reranker's own scale.

``EmbeddingCosineReranker`` uses the cosine between the question's and the chunk's embeddings
that the index service computes. ``HybridReranker`` (default) adds to that cosine the hit's fused
(dense + BM25) rank score as a share of the best one retrieved, and the share of the question's
content words found in the section heading: the wording of the law counts as well as its
meaning. ``CrossEncoderReranker`` loads any local
sequence-classification model by path (transformers) and scores pairs with it; its threshold
for the gate must be calibrated on its own scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from asat_research.question_words import content_words
from asat_research.retrieval import Hit


class RerankerError(Exception):
    pass


class Reranker(Protocol):
    name: str
    scale: str

    def scores(self, question: str, hits: Sequence[Hit]) -> list[float]: ...


class EmbeddingCosineReranker:
    name = "embedding-cosine"
    scale = "cosine"

    def scores(self, question: str, hits: Sequence[Hit]) -> list[float]:
        return [hit.dense_score for hit in hits]


class HybridReranker:
    """``cosine + FUSED_WEIGHT * fused/best_fused + HEADING_WEIGHT * heading overlap`` (pure).

    Both additions are bounded (0..weight), so the scale stays close to the cosine's; the gate's
    thresholds for it are measured with ``scripts/calibrate_rerank_thresholds.py`` like any
    other reranker's.
    """

    name = "hybrid"
    scale = "hybrid (cosine + fused rank + heading)"
    FUSED_WEIGHT = 0.2
    HEADING_WEIGHT = 0.1

    def scores(self, question: str, hits: Sequence[Hit]) -> list[float]:
        if not hits:
            return []
        best = max(hit.score for hit in hits) or 1.0
        wanted = content_words(question)
        scores = []
        for hit in hits:
            heading = str(hit.payload.get("heading") or hit.payload.get("title") or "")
            overlap = len(wanted & content_words(heading)) / len(wanted) if wanted else 0.0
            scores.append(hit.dense_score + self.FUSED_WEIGHT * hit.score / best + self.HEADING_WEIGHT * overlap)
        return scores


class CrossEncoderReranker:
    name = "cross-encoder"
    scale = "cross-encoder logit"

    def __init__(self, model_path: Path, max_length: int = 512) -> None:
        if not model_path.is_dir():
            raise RerankerError(f"ASAT_RERANKER_MODEL={model_path} is not a directory holding a model")
        try:
            import torch
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise RerankerError("the cross-encoder needs torch and transformers installed") from exc
        self._torch: Any = torch
        self._tokenizer: Any = AutoTokenizer.from_pretrained(str(model_path))
        self._model: Any = AutoModelForSequenceClassification.from_pretrained(str(model_path))
        self._model.eval()
        self._max_length = max_length
        self.name = f"cross-encoder:{model_path.name}"

    def scores(self, question: str, hits: Sequence[Hit]) -> list[float]:
        if not hits:
            return []
        texts = [str(hit.payload.get("text", "")) for hit in hits]
        batch = self._tokenizer(
            [question] * len(texts),
            texts,
            truncation=True,
            max_length=self._max_length,
            padding=True,
            return_tensors="pt",
        )
        with self._torch.no_grad():
            logits = self._model(**batch).logits
        column = logits[:, -1] if logits.shape[-1] > 1 else logits[:, 0]
        return [float(v) for v in column.tolist()]
