"""The gate's default thresholds sit inside the window measured on the project's suite.

``gold-set/calibration/<reranker>.json`` is written by ``scripts/calibrate_rerank_thresholds.py
--write`` (it needs the index service running); this test keeps the constants honest against it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asat_research.composition import DEFAULT_CORROBORATION, DEFAULT_GAP_MARGIN, DEFAULT_MIN_SCORE

CALIBRATION = Path(__file__).resolve().parents[3] / "gold-set" / "calibration"
# Rerankers whose thresholds are chosen by cross-validation (scripts/calibrate_gate_cv.py).
CROSS_VALIDATED = sorted(p.stem.removesuffix("-cv") for p in CALIBRATION.glob("*-cv.json"))
WINDOWED = sorted(set(DEFAULT_MIN_SCORE) - set(CROSS_VALIDATED))


def test_every_reranker_with_default_thresholds_was_measured() -> None:
    measured = {p.stem.removesuffix("-cv") for p in CALIBRATION.glob("*.json")}
    assert measured == set(DEFAULT_MIN_SCORE)


@pytest.mark.parametrize("reranker", CROSS_VALIDATED)
def test_cross_validated_defaults_are_the_thresholds_chosen_on_the_whole_suite(reranker: str) -> None:
    measured = json.loads((CALIBRATION / f"{reranker}-cv.json").read_text(encoding="utf-8"))
    assert measured["reranker"] == reranker
    assert DEFAULT_MIN_SCORE[reranker] == measured["final"]["min_score"]
    assert DEFAULT_GAP_MARGIN[reranker] == measured["final"]["gap_margin"]
    assert DEFAULT_CORROBORATION[reranker] == DEFAULT_MIN_SCORE[reranker]  # no corroboration band
    # The reported figures are the out-of-fold ones, computed with thresholds chosen on other folds.
    assert len(measured["folds"]) == 5 and measured["out_of_fold"]["temporal_violation_count"] == 0


@pytest.mark.parametrize("reranker", WINDOWED)
def test_the_default_floor_and_corroboration_bar_sit_in_the_measured_window(reranker: str) -> None:
    measured = json.loads((CALIBRATION / f"{reranker}.json").read_text(encoding="utf-8"))
    assert measured["reranker"] == reranker
    low, high = measured["window"]["low"], measured["window"]["high"]
    floor, bar = DEFAULT_MIN_SCORE[reranker], DEFAULT_CORROBORATION[reranker]
    assert low <= floor <= high
    assert floor <= bar <= measured["gold_matching"]["p95"]
    # The floor lies above what most retrieved non-gold sections score.
    assert floor > measured["other_retrieved"]["median"]
