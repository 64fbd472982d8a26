"""gold-set/premise-probes.yaml, the premise development probes: well-formed, apart from the
project's suite, and true to the corpus (every gold provision held in force in its year)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from asat_corpus.corpus_build import CorpusBuild, load_corpus
from asat_research.gold import CorpusResolver, Expect, GoldSuite, load_suite, validate_suite

REPO_ROOT = Path(__file__).resolve().parents[4]
PROBES_PATH = REPO_ROOT / "gold-set" / "premise-probes.yaml"
SUITE_PATH = REPO_ROOT / "gold-set" / "pit_suite.yaml"


@pytest.fixture(scope="module")
def probes() -> GoldSuite:
    return load_suite(PROBES_PATH)


def test_false_and_true_premises_each_tagged_and_expected(probes: GoldSuite) -> None:
    false = [c for c in probes.cases if "false-premise" in c.tags]
    true = [c for c in probes.cases if "true-premise" in c.tags]
    assert len(false) == 15 and len(true) == 8 and len(probes.cases) == 23
    assert all(c.expect is Expect.REJECT_PREMISE for c in false)
    assert all(c.expect is Expect.ANSWER for c in true)


def test_no_probe_is_a_question_of_the_project_suite(probes: GoldSuite) -> None:
    suite = {c.question.casefold() for c in load_suite(SUITE_PATH).cases}
    assert not [c.id for c in probes.cases if c.question.casefold() in suite]


@pytest.mark.corpus
def test_every_gold_provision_resolves_in_its_year() -> None:
    cache = Path(os.environ.get("ASAT_CACHE_DIR", str(REPO_ROOT / "var" / "cache")))
    corpus: CorpusBuild = load_corpus(cache_dir=cache)
    problems = validate_suite(load_suite(PROBES_PATH), CorpusResolver(corpus))
    assert [str(p) for p in problems] == []
