"""The gate's default thresholds sit inside the window measured on the project's suite.

``gold-set/calibration.json`` is written by ``scripts/calibrate_rerank_thresholds.py --write``
(it needs the index service running); this test keeps the constants honest against it.
"""

from __future__ import annotations

import json
from pathlib import Path

from asat_research.composition import DEFAULT_CORROBORATION, DEFAULT_MIN_SCORE

CALIBRATION = Path(__file__).resolve().parents[3] / "gold-set" / "calibration.json"


def test_the_default_floor_and_corroboration_bar_sit_in_the_measured_window() -> None:
    measured = json.loads(CALIBRATION.read_text(encoding="utf-8"))
    assert measured["reranker"] == "embedding-cosine"
    low, high = measured["window"]["low"], measured["window"]["high"]
    assert low <= DEFAULT_MIN_SCORE["embedding-cosine"] <= high
    gold = measured["gold_matching"]
    assert DEFAULT_MIN_SCORE["embedding-cosine"] <= DEFAULT_CORROBORATION["embedding-cosine"] <= gold["p95"]
    # The floor lies above what most retrieved non-gold sections score.
    assert DEFAULT_MIN_SCORE["embedding-cosine"] > measured["other_retrieved"]["median"]
