from __future__ import annotations

import json
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pytest

from asat_research.premise.contradiction_features import FEATURE_NAMES
from asat_research.premise.contradiction_model import (
    CALIBRATION_FILE,
    MODEL_FILE,
    ContradictionModel,
    ContradictionModelError,
    best_precision,
    fold_of,
    out_of_fold,
    rejection_threshold,
    train_booster,
)
from asat_research.relevance.ltr_model import Calibration


def test_the_threshold_is_the_lowest_probability_that_keeps_the_precision() -> None:
    p = [0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5, 0.4]
    y = [1, 1, 1, 0, 1, 0, 0, 1]
    t = rejection_threshold(p, y, target=0.8, min_rejected=2)
    assert t.value == 0.7 and t.rejected == 5 and t.precision == 0.8 and t.recall == 0.8
    strict = rejection_threshold(p, y, target=1.0, min_rejected=2)
    assert strict.value == 0.85 and strict.rejected == 3 and strict.recall == 0.6


def test_no_threshold_reaches_the_precision_and_nothing_is_rejected() -> None:
    t = rejection_threshold([0.9, 0.8, 0.7], [0, 1, 0], target=0.8, min_rejected=1)
    assert t.value > 1.0 and t.rejected == 0 and t.precision == 0.0
    assert rejection_threshold([0.9, 0.8], [1, 1], target=0.8, min_rejected=3).rejected == 0


def test_the_best_precision_reachable_counts_only_thresholds_that_reject_enough() -> None:
    p = [0.95, 0.9, 0.85, 0.8, 0.7, 0.6]
    y = [1, 0, 1, 1, 0, 0]
    assert best_precision(p, y, min_rejected=1) == 1.0
    assert best_precision(p, y, min_rejected=2) == 0.75  # top 4: three of four
    assert best_precision(p, y, min_rejected=7) == 0.0


def test_a_threshold_takes_every_statement_of_the_same_probability() -> None:
    t = rejection_threshold([0.9, 0.9, 0.9, 0.1], [1, 1, 0, 0], target=0.6, min_rejected=1)
    assert t.value == 0.9 and t.rejected == 3


def test_a_provision_has_one_stable_fold() -> None:
    folds = {fold_of(f"itaa1997:{n}-1") for n in range(200)}
    assert folds == {0, 1, 2, 3, 4}
    assert fold_of("itaa1997:8-1") == fold_of("itaa1997:8-1")


def _separable(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    rows = rng.normal(size=(n, len(FEATURE_NAMES)))
    labels = (rows[:, 0] + 0.3 * rng.normal(size=n) > 0).astype(int)
    return rows, labels


def test_out_of_fold_scores_every_row_from_a_model_that_never_saw_it() -> None:
    rows, labels = _separable(400, 1)
    folds = [i % 4 for i in range(400)]
    oof = out_of_fold(rows, labels, folds, max_rounds=60)
    assert oof.raw.shape == (400,) and 1 <= oof.rounds <= 60
    assert np.mean((oof.raw > 0) == labels) > 0.8
    with pytest.raises(ContradictionModelError):
        out_of_fold(rows, labels, [0] * 400, max_rounds=5)


def test_save_and_load_give_the_same_probabilities(tmp_path: Path) -> None:
    rows, labels = _separable(300, 2)
    model = ContradictionModel(train_booster(rows, labels, 20), Calibration(0.9, -0.1), 0.7)
    model.save(tmp_path, 20, {"note": "test"})
    saved = json.loads((tmp_path / CALIBRATION_FILE).read_text())
    assert saved["threshold"] == 0.7 and saved["note"] == "test"
    loaded = ContradictionModel.load(tmp_path)
    assert loaded.threshold == 0.7 and loaded.calibration == Calibration(0.9, -0.1)
    assert loaded.probabilities(rows[:10].tolist()) == pytest.approx(model.probabilities(rows[:10].tolist()))
    assert loaded.raw_scores([]) == []


def test_a_missing_model_or_one_trained_on_other_features_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ContradictionModelError, match="missing"):
        ContradictionModel.load(tmp_path)
    rows = np.random.default_rng(3).normal(size=(100, 3))
    other = lgb.train({"objective": "binary", "verbosity": -1}, lgb.Dataset(rows, (rows[:, 0] > 0).astype(int)), 3)
    with pytest.raises(ContradictionModelError, match="features"):
        ContradictionModel(other, Calibration(1.0, 0.0), 0.5)
    assert not (tmp_path / MODEL_FILE).exists()
