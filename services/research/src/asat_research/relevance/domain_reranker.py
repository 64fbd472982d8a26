"""The domain reranker: the trained ranking model over candidate features, on a probability scale.

Its score for a hit is the calibrated probability that the hit's section answers the question
(``models/relevance/card.json`` says how it was trained and measured). Where the model
directory holds ``cascade.json``, the cross-encoder it names rereads the ranker's top
candidates and a fitted logistic blend of both scores replaces the ranker's probability for them
(``asat_research.relevance.blend``). Every artifact is checked against its card's hashes when
loaded: a model that is not the one described is refused, never quietly replaced.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asat_research.relevance.blend import Blend, cascade
from asat_research.relevance.features import candidate_features
from asat_research.relevance.ltr_model import LtrModel, RankerModelError
from asat_research.relevance.onnx_cross_encoder import OnnxCrossEncoder
from asat_research.relevance.stats import RelevanceStats
from asat_research.retrieval import Hit

DEFAULT_MODEL_DIR = Path(__file__).resolve().parents[5] / "models" / "relevance"


def check_artifacts(directory: Path) -> dict[str, Any]:
    """The model card, after checking every artifact's hash against it."""
    card_file = directory / "card.json"
    if not card_file.is_file():
        raise RankerModelError(f"{card_file} is missing: run `make models` (or restore models/ from git)")
    card: dict[str, Any] = json.loads(card_file.read_text())
    artifacts = card.get("artifacts")
    if not isinstance(artifacts, dict) or not artifacts:
        raise RankerModelError(f"{card_file} lists no artifacts: retrain with `make models`")
    for name, digest in artifacts.items():
        path = directory / str(name)
        if not path.is_file():
            raise RankerModelError(f"{path} is missing: run `make models` (or restore models/ from git)")
        actual = hashlib.sha256(path.read_bytes()).hexdigest()
        if actual != digest:
            raise RankerModelError(
                f"{path} does not match its model card (sha256 {actual[:12]}, card {str(digest)[:12]})"
            )
    return card


def passage(payload: dict[str, Any]) -> str:
    """What the cross-encoder reads of a hit: its heading (or ruling title) and its text."""
    head = str(payload.get("heading") or payload.get("title") or "")
    return f"{head}\n{payload.get('text') or payload.get('description') or ''}".strip()


@dataclass(frozen=True)
class Cascade:
    encoder: OnnxCrossEncoder
    blend: Blend
    top_k: int


def load_cascade(directory: Path) -> Cascade | None:
    """The cascade ``cascade.json`` describes, or None when the directory has none."""
    path = directory / "cascade.json"
    if not path.is_file():
        return None
    raw = json.loads(path.read_text())
    encoder_dir = (directory / str(raw["cross_encoder"])).resolve()
    card = check_artifacts(encoder_dir)
    max_length = int(card.get("hyper_parameters", {}).get("max_length", 128))
    blend = Blend(float(raw["w_ltr"]), float(raw["w_ce"]), float(raw["bias"]))
    return Cascade(OnnxCrossEncoder(encoder_dir, max_length=max_length), blend, int(raw["top_k"]))


class DomainReranker:
    name = "domain"
    scale = "probability the section answers (domain ranker, calibrated)"

    def __init__(self, model: LtrModel, stats: RelevanceStats, cascade: Cascade | None = None) -> None:
        self.model = model
        self.stats = stats
        self.cascade = cascade

    @classmethod
    def load(cls, directory: Path, stats: RelevanceStats) -> DomainReranker:
        check_artifacts(directory)
        return cls(LtrModel.load(directory), stats, load_cascade(directory))

    def scores(self, question: str, hits: Sequence[Hit]) -> list[float]:
        if not hits:
            return []
        raw = self.model.raw_scores(candidate_features(question, hits, self.stats))
        probabilities = [self.model.calibration.probability(v) for v in raw]
        if self.cascade is None:
            return probabilities
        top = sorted(range(len(hits)), key=lambda i: -raw[i])[: self.cascade.top_k]
        logits = self.cascade.encoder.scores(question, [passage(hits[i].payload) for i in top])
        blended = {i: self.cascade.blend.probability(raw[i], logit) for i, logit in zip(top, logits, strict=True)}
        return cascade(probabilities, blended)
