"""The shipped relevance model (models/relevance): its artifacts are the ones its card describes,
and on the real Division 328 stack (MiniLM, Qdrant Edge) it ranks known answers first."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from asat_research.relevance.domain_reranker import DEFAULT_MODEL_DIR, DomainReranker, check_artifacts
from asat_research.relevance.ltr_model import RankerModelError
from asat_research.relevance.stats import relevance_stats

from ..stack import Stack


def test_every_artifact_matches_the_hash_in_its_model_card() -> None:
    card = check_artifacts(DEFAULT_MODEL_DIR)
    assert {"ltr.txt", "calibration.json"} <= set(card["artifacts"])
    assert card["training_data"]["digest"]
    assert card["metrics_test_slice"]  # the card carries the measurement


def test_a_changed_artifact_or_a_missing_card_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "relevance"
    shutil.copytree(DEFAULT_MODEL_DIR, copy)
    calibration = json.loads((copy / "calibration.json").read_text())
    calibration["a"] += 1.0
    (copy / "calibration.json").write_text(json.dumps(calibration))
    with pytest.raises(RankerModelError, match="does not match its model card"):
        check_artifacts(copy)
    (copy / "card.json").unlink()
    with pytest.raises(RankerModelError, match=r"card\.json is missing: run `make models`"):
        check_artifacts(copy)


KNOWN = [
    ("What aggregated turnover made a business a small business entity?", 2015, "328-110"),
    ("How is aggregated turnover worked out, counting the annual turnover of connected entities?", 2020, "328-115"),
]


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize(("question", "year", "section"), KNOWN)
def test_known_questions_rank_their_section_first(stack: Stack, question: str, year: int, section: str) -> None:
    reranker = DomainReranker.load(DEFAULT_MODEL_DIR, relevance_stats(stack.view))
    result = stack.retriever.search(question, year, 100)
    hits = [h for h in result.hits if h.payload.get("kind") == "provision"]
    scores = reranker.scores(question, hits)
    assert all(0.0 <= s <= 1.0 for s in scores)
    best = max(range(len(hits)), key=lambda i: scores[i])
    assert hits[best].payload["provision"] == section
