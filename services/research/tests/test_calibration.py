"""The gate's default thresholds sit inside the window measured on the project's suite.

``gold-set/calibration/<reranker>.json`` is written by ``scripts/calibrate_rerank_thresholds.py
--write`` (it needs the index service running); this test keeps the constants honest against it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asat_research.composition import DEFAULT_CORROBORATION, DEFAULT_MIN_SCORE

CALIBRATION = Path(__file__).resolve().parents[3] / "gold-set" / "calibration"


def test_every_reranker_with_default_thresholds_was_measured() -> None:
    assert sorted(p.stem for p in CALIBRATION.glob("*.json")) == sorted(DEFAULT_MIN_SCORE)


@pytest.mark.parametrize("reranker", sorted(DEFAULT_MIN_SCORE))
def test_the_default_floor_and_corroboration_bar_sit_in_the_measured_window(reranker: str) -> None:
    measured = json.loads((CALIBRATION / f"{reranker}.json").read_text(encoding="utf-8"))
    assert measured["reranker"] == reranker
    low, high = measured["window"]["low"], measured["window"]["high"]
    floor, bar = DEFAULT_MIN_SCORE[reranker], DEFAULT_CORROBORATION[reranker]
    assert low <= floor <= high
    assert floor <= bar <= measured["gold_matching"]["p95"]
    # The floor lies above what most retrieved non-gold sections score.
    assert floor > measured["other_retrieved"]["median"]
