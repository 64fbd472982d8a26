"""The learning-to-rank model: LightGBM ``lambdarank`` over candidate features, and its calibration.

The raw score orders candidates; ``Calibration`` (Platt scaling, fitted on the dev slice at the
section level) turns it into the probability that the section answers the question, the scale
the gate's thresholds are set on.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lightgbm as lgb
import numpy as np

from asat_research.relevance.features import FEATURE_NAMES

PARAMS: dict[str, Any] = {
    "objective": "lambdarank",
    "metric": "ndcg",
    "eval_at": [5, 10],
    "learning_rate": 0.05,
    "num_leaves": 31,
    "min_data_in_leaf": 40,
    "feature_fraction": 0.9,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambdarank_truncation_level": 20,
    "seed": 13,
    "deterministic": True,
    "force_row_wise": True,
    "num_threads": 2,
    "verbosity": -1,
}
MAX_ROUNDS = 600
EARLY_STOPPING = 50


class RankerModelError(Exception):
    pass


@dataclass(frozen=True)
class Calibration:
    """``p = 1 / (1 + exp(-(a * raw + b)))``."""

    a: float
    b: float

    def probability(self, raw: float) -> float:
        z = self.a * raw + self.b
        return 1.0 / (1.0 + math.exp(-z)) if z > -50 else 0.0

    @classmethod
    def fit(cls, raw: Sequence[float], relevant: Sequence[int], iterations: int = 100) -> Calibration:
        """Logistic regression of ``relevant`` on ``raw`` (Newton's method, a small L2 term)."""
        x = np.asarray(raw, dtype=float)
        y = np.asarray(relevant, dtype=float)
        a, b = 1.0, 0.0
        for _ in range(iterations):
            p = 1.0 / (1.0 + np.exp(-(a * x + b)))
            w = p * (1 - p) + 1e-9
            grad = np.array([np.sum((p - y) * x) + 1e-3 * a, np.sum(p - y)])
            hess = np.array([[np.sum(w * x * x) + 1e-3, np.sum(w * x)], [np.sum(w * x), np.sum(w)]])
            step = np.linalg.solve(hess, grad)
            a, b = a - float(step[0]), b - float(step[1])
            if float(np.abs(step).max()) < 1e-8:
                break
        return cls(a, b)


class LtrModel:
    def __init__(self, booster: lgb.Booster, calibration: Calibration) -> None:
        names = tuple(booster.feature_name())
        if names != FEATURE_NAMES:
            raise RankerModelError(
                f"the ranking model was trained on {len(names)} features that differ from this code's "
                f"{len(FEATURE_NAMES)}: retrain it with `make models`"
            )
        self.booster = booster
        self.calibration = calibration

    @classmethod
    def load(cls, directory: Path) -> LtrModel:
        model_file, calibration_file = directory / "ltr.txt", directory / "calibration.json"
        for path in (model_file, calibration_file):
            if not path.is_file():
                raise RankerModelError(f"{path} is missing: run `make models` (or restore models/ from git)")
        booster = lgb.Booster(model_file=str(model_file))
        raw = json.loads(calibration_file.read_text())
        return cls(booster, Calibration(float(raw["a"]), float(raw["b"])))

    def raw_scores(self, rows: Sequence[Sequence[float]]) -> list[float]:
        if not rows:
            return []
        predicted = self.booster.predict(np.asarray(rows, dtype=float), num_threads=1)
        return [float(v) for v in predicted]

    def probabilities(self, rows: Sequence[Sequence[float]]) -> list[float]:
        return [self.calibration.probability(v) for v in self.raw_scores(rows)]


def train_booster(
    train_rows: np.ndarray[Any, Any],
    train_labels: np.ndarray[Any, Any],
    train_groups: Sequence[int],
    train_weights: np.ndarray[Any, Any],
    dev_rows: np.ndarray[Any, Any],
    dev_labels: np.ndarray[Any, Any],
    dev_groups: Sequence[int],
    rounds: int | None = None,
) -> lgb.Booster:
    """``rounds`` fixed: train that many (the final fit on every slice); else early-stop on dev."""
    names = list(FEATURE_NAMES)
    train = lgb.Dataset(train_rows, train_labels, group=list(train_groups), weight=train_weights, feature_name=names)
    if rounds is not None:
        return lgb.train(PARAMS, train, num_boost_round=rounds)
    dev = lgb.Dataset(dev_rows, dev_labels, group=list(dev_groups), feature_name=names, reference=train)
    return lgb.train(
        PARAMS,
        train,
        num_boost_round=MAX_ROUNDS,
        valid_sets=[dev],
        callbacks=[lgb.early_stopping(EARLY_STOPPING, verbose=False)],
    )
