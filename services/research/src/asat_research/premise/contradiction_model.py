"""The contradiction model: LightGBM over contradiction features, Platt-calibrated, with a threshold.

``score(statement, provision_text)`` gives the calibrated probability that the provision
contradicts the statement and the sentence that contradicts it (the quote). The premise is
rejected where the probability reaches the threshold, which was set out of fold for high
precision on "contradicted" (``rejection_threshold``). The rounds, the calibration and the
threshold all come from the same out-of-fold predictions over the training statements, folded by
provision, so none of them is fitted on text the model predicted after training on it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lightgbm as lgb
import numpy as np

from asat_research.premise.contradiction_features import FEATURE_NAMES, contradiction_features
from asat_research.premise.contradiction_port import Verdict
from asat_research.relevance.ltr_model import Calibration

PARAMS: dict[str, Any] = {
    "objective": "binary",
    "metric": "binary_logloss",
    "learning_rate": 0.03,
    "num_leaves": 15,
    "min_data_in_leaf": 30,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambda_l2": 1.0,
    "seed": 13,
    "deterministic": True,
    "force_row_wise": True,
    "num_threads": 2,
    "verbosity": -1,
}
MAX_ROUNDS = 600
FOLDS = 5
TARGET_PRECISION = 0.8  # of the premises rejected out of fold, at least this share really contradicted
MIN_REJECTED = 25  # a threshold must reject at least this many out-of-fold statements
MODEL_FILE = "contradiction.txt"
CALIBRATION_FILE = "calibration.json"
DEFAULT_MODEL_DIR = Path(__file__).resolve().parents[5] / "models" / "premise"

Matrix = np.ndarray[Any, Any]


class ContradictionModelError(Exception):
    pass


@dataclass(frozen=True)
class Threshold:
    """The calibrated probability from which a premise is rejected, and how it did out of fold."""

    value: float
    precision: float
    recall: float
    rejected: int

    def as_dict(self) -> dict[str, float | int]:
        return {
            "value": round(self.value, 6),
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "rejected": self.rejected,
        }


def fold_of(group: str, folds: int = FOLDS) -> int:
    """A stable fold for a provision ("itaa1997:8-1"): every statement about it falls in one fold."""
    return int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) % folds


def _dataset(rows: Matrix, labels: Matrix, reference: lgb.Dataset | None = None) -> lgb.Dataset:
    return lgb.Dataset(rows, labels, feature_name=list(FEATURE_NAMES), reference=reference, free_raw_data=False)


def train_booster(rows: Matrix, labels: Matrix, rounds: int) -> lgb.Booster:
    return lgb.train(PARAMS, _dataset(rows, labels), num_boost_round=rounds)


@dataclass(frozen=True)
class OutOfFold:
    raw: Matrix  # each statement's raw score from the model that never saw its fold, at ``rounds``
    rounds: int  # the rounds with the least mean held-out log loss
    logloss: float  # that mean


def out_of_fold(rows: Matrix, labels: Matrix, folds: Sequence[int], max_rounds: int = MAX_ROUNDS) -> OutOfFold:
    """Train on all folds but one, predict it, for each fold; the rounds minimise the held-out log loss."""
    fold_ids = np.asarray(folds)
    present = sorted(set(int(f) for f in fold_ids))
    if len(present) < 2:
        raise ContradictionModelError("out-of-fold training needs statements in at least two folds")
    curves: list[tuple[int, list[float]]] = []
    boosters: dict[int, lgb.Booster] = {}
    for fold in present:
        held = fold_ids == fold
        train = _dataset(rows[~held], labels[~held])
        valid = _dataset(rows[held], labels[held], reference=train)
        record: dict[str, Any] = {}
        boosters[fold] = lgb.train(
            PARAMS,
            train,
            num_boost_round=max_rounds,
            valid_sets=[valid],
            valid_names=["held"],
            callbacks=[lgb.record_evaluation(record)],
        )
        curves.append((int(held.sum()), list(record["held"]["binary_logloss"])))
    total = sum(n for n, _ in curves)
    mean = np.sum([np.asarray(c) * n for n, c in curves], axis=0) / total
    rounds = int(np.argmin(mean)) + 1
    raw = np.zeros(len(labels), dtype=float)
    for fold, booster in boosters.items():
        held = fold_ids == fold
        raw[held] = booster.predict(rows[held], num_iteration=rounds, raw_score=True)
    return OutOfFold(raw, rounds, float(mean[rounds - 1]))


def rejection_threshold(
    probabilities: Sequence[float],
    contradicted: Sequence[int],
    target: float = TARGET_PRECISION,
    min_rejected: int = MIN_REJECTED,
) -> Threshold:
    """The lowest probability from which at least ``min_rejected`` statements are rejected with a
    precision of at least ``target``; 1.0 past every probability (never rejects) when there is none."""
    p = np.asarray(probabilities, dtype=float)
    y = np.asarray(contradicted, dtype=int)
    positives = int(y.sum())
    order = np.argsort(-p, kind="stable")
    hits = np.cumsum(y[order])
    best: Threshold | None = None
    for k in range(len(order)):
        if k + 1 < len(order) and p[order[k + 1]] == p[order[k]]:
            continue  # a threshold takes every statement of the same probability
        rejected = k + 1
        precision = float(hits[k]) / rejected
        if rejected >= min_rejected and precision >= target:
            recall = float(hits[k]) / positives if positives else 0.0
            best = Threshold(float(p[order[k]]), precision, recall, rejected)
    return best if best is not None else Threshold(1.0 + 1e-9, 0.0, 0.0, 0)


def best_precision(
    probabilities: Sequence[float], contradicted: Sequence[int], min_rejected: int = MIN_REJECTED
) -> float:
    """The highest precision any threshold that rejects at least ``min_rejected`` statements reaches
    (what ``rejection_threshold``'s target can be set to at most)."""
    p = np.asarray(probabilities, dtype=float)
    y = np.asarray(contradicted, dtype=int)
    order = np.argsort(-p, kind="stable")
    hits = np.cumsum(y[order])
    best = 0.0
    for k in range(min_rejected - 1, len(order)):
        if k + 1 < len(order) and p[order[k + 1]] == p[order[k]]:
            continue
        best = max(best, float(hits[k]) / (k + 1))
    return best


class ContradictionModel:
    def __init__(self, booster: lgb.Booster, calibration: Calibration, threshold: float) -> None:
        names = tuple(booster.feature_name())
        if names != FEATURE_NAMES:
            raise ContradictionModelError(
                f"the contradiction model was trained on {len(names)} features that differ from this code's "
                f"{len(FEATURE_NAMES)}: retrain it with `python -m asat_research.premise.train_cli train`"
            )
        self.booster = booster
        self.calibration = calibration
        self.threshold = threshold

    @classmethod
    def load(cls, directory: Path = DEFAULT_MODEL_DIR) -> ContradictionModel:
        model_file, calibration_file = directory / MODEL_FILE, directory / CALIBRATION_FILE
        for path in (model_file, calibration_file):
            if not path.is_file():
                raise ContradictionModelError(
                    f"{path} is missing: run `python -m asat_research.premise.train_cli train` "
                    "(or restore models/ from git)"
                )
        try:
            raw = json.loads(calibration_file.read_text())
            calibration, threshold = Calibration(float(raw["a"]), float(raw["b"])), float(raw["threshold"])
            booster = lgb.Booster(model_str=model_file.read_text())
        except (ValueError, KeyError, TypeError, lgb.basic.LightGBMError) as exc:
            raise ContradictionModelError(
                f"{directory} holds an unreadable contradiction model ({type(exc).__name__}: {exc}): run "
                "`python -m asat_research.premise.train_cli train` (or restore models/ from git)"
            ) from exc
        return cls(booster, calibration, threshold)

    def save(self, directory: Path, rounds: int, extra: dict[str, Any] | None = None) -> None:
        """``contradiction.txt`` (the booster at ``rounds``) and ``calibration.json`` (Platt's a and b,
        the threshold, and ``extra``)."""
        directory.mkdir(parents=True, exist_ok=True)
        (directory / MODEL_FILE).write_text(self.booster.model_to_string(num_iteration=rounds))
        calibration = {"a": self.calibration.a, "b": self.calibration.b, "threshold": self.threshold, **(extra or {})}
        (directory / CALIBRATION_FILE).write_text(json.dumps(calibration, indent=2) + "\n")

    def raw_scores(self, rows: Sequence[Sequence[float]]) -> list[float]:
        if not rows:
            return []
        predicted = self.booster.predict(np.asarray(rows, dtype=float), raw_score=True, num_threads=1)
        return [float(v) for v in predicted]

    def probabilities(self, rows: Sequence[Sequence[float]]) -> list[float]:
        return [self.calibration.probability(v) for v in self.raw_scores(rows)]

    def score(self, statement: str, provision_text: str | Sequence[str]) -> Verdict:
        """Whether ``provision_text`` (one provision's text, or several) contradicts ``statement``."""
        passages = [provision_text] if isinstance(provision_text, str) else list(provision_text)
        features = contradiction_features(statement, passages)
        probability = self.probabilities([features.row])[0]
        return Verdict(probability, probability >= self.threshold, features.quote)
