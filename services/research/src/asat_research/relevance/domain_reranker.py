"""The domain reranker: the trained ranking model over candidate features, on a probability scale.

Its score for a hit is the calibrated probability that the hit's section answers the question
(``models/relevance/card.json`` says how it was trained and measured). The artifacts are checked
against the card's hashes when loaded: a model that is not the one described is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from asat_research.relevance.features import candidate_features
from asat_research.relevance.ltr_model import LtrModel, RankerModelError
from asat_research.relevance.stats import RelevanceStats
from asat_research.retrieval import Hit

DEFAULT_MODEL_DIR = Path(__file__).resolve().parents[5] / "models" / "relevance"


def check_artifacts(directory: Path) -> dict[str, object]:
    """The model card, after checking every artifact's hash against it."""
    card_file = directory / "card.json"
    if not card_file.is_file():
        raise RankerModelError(f"{card_file} is missing: run `make models` (or restore models/ from git)")
    card: dict[str, object] = json.loads(card_file.read_text())
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


class DomainReranker:
    name = "domain"
    scale = "probability the section answers (domain ranker, calibrated)"

    def __init__(self, model: LtrModel, stats: RelevanceStats) -> None:
        self.model = model
        self.stats = stats

    @classmethod
    def load(cls, directory: Path, stats: RelevanceStats) -> DomainReranker:
        check_artifacts(directory)
        return cls(LtrModel.load(directory), stats)

    def scores(self, question: str, hits: Sequence[Hit]) -> list[float]:
        if not hits:
            return []
        return self.model.probabilities(candidate_features(question, hits, self.stats))
